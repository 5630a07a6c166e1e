//! The REST API: routes under `/api/v10`, uploaded files under `/attachments`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{header, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Map, Value};

use super::limits::{Headers, Verdict};
use super::model::{self, path, ApiFail};
use super::{
    BotMeta, Call, Channel, ChannelKind, Command, Failure, FakeDiscord, Inner, Shared, Stored,
    StoredFile, BODY_LIMIT, CALLBACK_DEADLINE, FILE_LIMIT, FLAG_EPHEMERAL, FLAG_HAS_THREAD,
    FLAG_LOADING, MAX_CALLS, REQUEST_LIMIT, TOKEN_LIFETIME,
};

/// The most parts of a multipart body (Discord: 10 files and `payload_json`).
const MAX_PARTS: usize = 16;
/// Flags a bot may set on a message: `SUPPRESS_EMBEDS`, `SUPPRESS_NOTIFICATIONS`,
/// `IS_COMPONENTS_V2`; interaction responses also EPHEMERAL.
const MESSAGE_FLAGS: u64 = (1 << 2) | (1 << 12) | (1 << 15);
const FLAG_COMPONENTS_V2: u64 = 1 << 15;

/// How long Discord checks a nonce for uniqueness ("the past few minutes").
const NONCE_WINDOW: std::time::Duration = std::time::Duration::from_secs(5 * 60);

/// A file part of a multipart body.
struct Upload {
    filename: String,
    content_type: String,
    bytes: Vec<u8>,
}

/// A request body: the JSON (or `payload_json`) and the `files[N]` parts by N.
#[derive(Default)]
struct Body {
    json: Value,
    files: BTreeMap<u64, Upload>,
    /// `(file name, size)` of the file parts, in order.
    order: Vec<(String, usize)>,
}

/// A payload that must be a JSON object (`null`, no body, counts as an empty one).
fn object(json: &Value) -> Result<&Map<String, Value>, ApiFail> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    match json {
        Value::Null => Ok(EMPTY.get_or_init(Map::new)),
        Value::Object(o) => Ok(o),
        _ => Err(ApiFail::new(
            400,
            50109,
            "The request body contains invalid JSON.",
        )),
    }
}

/// A successful answer.
enum Reply {
    Json(u16, Value),
    Empty,
}

#[allow(clippy::unnecessary_wraps)] // the shape every route returns
fn ok(v: Value) -> Result<Reply, ApiFail> {
    Ok(Reply::Json(200, v))
}

/// Who creates a message.
#[derive(Clone, Copy)]
enum Origin {
    /// `POST /channels/{id}/messages`.
    Channel,
    /// An interaction's response or follow-up (`loading`: a deferred response).
    Interaction {
        id: u64,
        message_type: u8,
        loading: bool,
    },
}

enum Route {
    Gateway,
    GatewayBot,
    UserMe,
    UserGuilds,
    User(u64),
    DmChannels,
    Application,
    Channel(u64),
    Messages(u64),
    Message(u64, u64),
    Typing(u64),
    MessageThreads(u64, u64),
    Threads(u64),
    Guild(u64),
    GuildChannels(u64),
    Member(u64, u64),
    Commands {
        app: u64,
        guild: Option<u64>,
    },
    Command {
        app: u64,
        guild: Option<u64>,
        id: u64,
    },
    Callback {
        id: u64,
        token: String,
    },
    Webhook {
        app: u64,
        token: String,
    },
    WebhookMessage {
        app: u64,
        token: String,
        message: Option<u64>,
    },
}

fn parse_route(path: &str) -> Option<Route> {
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let id = |s: &str| s.parse::<u64>().ok();
    Some(match segments.as_slice() {
        ["gateway"] => Route::Gateway,
        ["gateway", "bot"] => Route::GatewayBot,
        ["users", "@me"] => Route::UserMe,
        ["users", "@me", "guilds"] => Route::UserGuilds,
        ["users", "@me", "channels"] => Route::DmChannels,
        ["users", u] => Route::User(id(u)?),
        ["oauth2", "applications", "@me"] => Route::Application,
        ["channels", c] => Route::Channel(id(c)?),
        ["channels", c, "messages"] => Route::Messages(id(c)?),
        ["channels", c, "messages", m] => Route::Message(id(c)?, id(m)?),
        ["channels", c, "messages", m, "threads"] => Route::MessageThreads(id(c)?, id(m)?),
        ["channels", c, "threads"] => Route::Threads(id(c)?),
        ["channels", c, "typing"] => Route::Typing(id(c)?),
        ["guilds", g] => Route::Guild(id(g)?),
        ["guilds", g, "channels"] => Route::GuildChannels(id(g)?),
        ["guilds", g, "members", u] => Route::Member(id(g)?, id(u)?),
        ["applications", a, "commands"] => Route::Commands {
            app: id(a)?,
            guild: None,
        },
        ["applications", a, "commands", c] => Route::Command {
            app: id(a)?,
            guild: None,
            id: id(c)?,
        },
        ["applications", a, "guilds", g, "commands"] => Route::Commands {
            app: id(a)?,
            guild: Some(id(g)?),
        },
        ["applications", a, "guilds", g, "commands", c] => Route::Command {
            app: id(a)?,
            guild: Some(id(g)?),
            id: id(c)?,
        },
        ["interactions", i, t, "callback"] => Route::Callback {
            id: id(i)?,
            token: (*t).to_owned(),
        },
        ["webhooks", a, t] => Route::Webhook {
            app: id(a)?,
            token: (*t).to_owned(),
        },
        ["webhooks", a, t, "messages", "@original"] => Route::WebhookMessage {
            app: id(a)?,
            token: (*t).to_owned(),
            message: None,
        },
        ["webhooks", a, t, "messages", m] => Route::WebhookMessage {
            app: id(a)?,
            token: (*t).to_owned(),
            message: Some(id(m)?),
        },
        _ => return None,
    })
}

impl Route {
    /// The major parameter of Discord's buckets: the channel, guild, application or
    /// interaction in the path (0: none).
    fn major(&self, tokens: &std::collections::HashMap<String, u64>) -> u64 {
        if let Some(c) = self.channel() {
            return c;
        }
        match self {
            Route::Guild(g) | Route::GuildChannels(g) | Route::Member(g, _) => *g,
            Route::Commands { app, .. } | Route::Command { app, .. } => *app,
            Route::Callback { id, .. } => *id,
            Route::Webhook { token, .. } | Route::WebhookMessage { token, .. } => {
                tokens.get(token).copied().unwrap_or(0)
            }
            _ => 0,
        }
    }

    /// The channel (or thread) in the path, if any.
    fn channel(&self) -> Option<u64> {
        match self {
            Route::Channel(c)
            | Route::Messages(c)
            | Route::Message(c, _)
            | Route::Typing(c)
            | Route::MessageThreads(c, _)
            | Route::Threads(c) => Some(*c),
            _ => None,
        }
    }

    /// Whether the path is the guild's own: the guild, its channels' list, a member, or its
    /// guild commands.
    fn of_guild(&self) -> bool {
        matches!(
            self,
            Route::Guild(_)
                | Route::GuildChannels(_)
                | Route::Member(..)
                | Route::Commands { guild: Some(_), .. }
                | Route::Command { guild: Some(_), .. }
        )
    }

    /// The route's name for [`Call::route`] and failure rules; `None`: method not allowed.
    fn name(&self, method: &Method) -> Option<&'static str> {
        let m = method.as_str();
        Some(match (self, m) {
            (Route::Gateway, "GET") => "get_gateway",
            (Route::GatewayBot, "GET") => "get_gateway_bot",
            (Route::UserMe, "GET") => "get_current_user",
            (Route::UserGuilds, "GET") => "get_guilds",
            (Route::User(_), "GET") => "get_user",
            (Route::DmChannels, "POST") => "create_dm",
            (Route::Application, "GET") => "get_current_application",
            (Route::Channel(_), "GET") => "get_channel",
            (Route::Messages(_), "GET") => "get_messages",
            (Route::Messages(_), "POST") => "create_message",
            (Route::Channel(_), "PATCH") => "edit_channel",
            (Route::Message(..), "GET") => "get_message",
            (Route::Message(..), "PATCH") => "edit_message",
            (Route::Message(..), "DELETE") => "delete_message",
            (Route::Typing(_), "POST") => "typing",
            (Route::MessageThreads(..), "POST") => "create_thread_from_message",
            (Route::Threads(_), "POST") => "create_thread",
            (Route::Guild(_), "GET") => "get_guild",
            (Route::GuildChannels(_), "GET") => "get_guild_channels",
            (Route::Member(..), "GET") => "get_member",
            (Route::Commands { .. }, "PUT") => "set_commands",
            (Route::Commands { .. }, "POST") => "create_command",
            (Route::Commands { .. }, "GET") => "get_commands",
            (Route::Command { .. }, "GET") => "get_command",
            (Route::Command { .. }, "PATCH") => "edit_command",
            (Route::Command { .. }, "DELETE") => "delete_command",
            (Route::Callback { .. }, "POST") => "interaction_callback",
            (Route::Webhook { .. }, "POST") => "create_followup",
            (Route::WebhookMessage { message: None, .. }, "GET") => "get_original",
            (Route::WebhookMessage { message: None, .. }, "PATCH") => "edit_original",
            (Route::WebhookMessage { message: None, .. }, "DELETE") => "delete_original",
            (Route::WebhookMessage { .. }, "GET") => "get_followup",
            (Route::WebhookMessage { .. }, "PATCH") => "edit_followup",
            (Route::WebhookMessage { .. }, "DELETE") => "delete_followup",
            _ => return None,
        })
    }

    /// Routes authorized by the interaction token instead of the bot token.
    /// Routes that need no bot token: interaction callbacks and webhooks (their own token
    /// is in the path), and `GET /gateway`, which Discord serves to anyone.
    fn by_token(&self) -> bool {
        matches!(
            self,
            Route::Callback { .. }
                | Route::Webhook { .. }
                | Route::WebhookMessage { .. }
                | Route::Gateway
        )
    }
}

pub(super) async fn handle(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    match tokio::time::timeout(REQUEST_LIMIT, serve(&shared, request)).await {
        Ok(response) => response,
        Err(_) => fail_response(&ApiFail::new(500, 0, "The fake Discord timed out")),
    }
}

/// The answer to a call past [`MAX_CALLS`].
const CALL_LIMIT_REACHED: &str = "The fake Discord's call limit is reached";

async fn serve(shared: &Shared, request: Request) -> Response {
    let time = Instant::now();
    let method = request.method().clone();
    let full_path = request.uri().path().to_owned();
    let query = request.uri().query().unwrap_or_default().to_owned();
    if let Some(rest) = full_path.strip_prefix("/attachments/") {
        return attachment(shared, rest);
    }
    let Some(path) = full_path.strip_prefix("/api/v10") else {
        return fail_response(&ApiFail::new(404, 0, "404: Not Found"));
    };
    let path = path.to_owned();
    // OAuth2 is the app's (client id and secret), or a user's (Bearer): not the bot's.
    if path == "/oauth2/token" && method == axum::http::Method::POST {
        let headers = request.headers().clone();
        let body = axum::body::to_bytes(request.into_body(), BODY_LIMIT).await;
        let body = body.unwrap_or_default();
        return super::oauth::token(shared, &headers, &body);
    }
    if path == "/users/@me" && method == axum::http::Method::GET {
        if let Some(answer) = super::oauth::bearer_me(shared, request.headers()) {
            return answer;
        }
    }
    let route = parse_route(&path);
    let name = route.as_ref().map(|r| r.name(&method));
    let authorized = route.as_ref().is_some_and(Route::by_token)
        || request
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            == Some(format!("Bot {}", FakeDiscord::TOKEN).as_str());
    let body = read_body(request).await;
    let mut limits = None;
    let mut inner = shared.lock();
    let authorized = authorized && !inner.token_reset;
    if inner.calls.len() >= MAX_CALLS {
        return fail_response(&ApiFail::new(500, 0, CALL_LIMIT_REACHED));
    }
    let index = inner.calls.len();
    inner.calls.push(Call {
        route: name.flatten().unwrap_or("unknown").to_owned(),
        method: method.to_string(),
        path,
        query: query.clone(),
        body: body.as_ref().map_or(Value::Null, |b| b.json.clone()),
        files: body
            .as_ref()
            .map_or_else(|_| Vec::new(), |b| b.order.clone()),
        time,
        status: 0,
        failed: false,
        error: None,
        early: None,
    });
    let result = match (route, name.flatten()) {
        (None, _) => Err(ApiFail::new(404, 0, "404: Not Found")),
        (Some(_), None) => Err(ApiFail::new(405, 0, "405: Method Not Allowed")),
        (Some(_), Some(_)) if !authorized => Err(ApiFail::new(401, 0, "401: Unauthorized")),
        (Some(r), Some(_)) if inner.removed_from(&r) => Err(ApiFail::missing_access()),
        (Some(route), Some(name)) => match body {
            Err(e) => Err(ApiFail::new(
                400,
                50109,
                format!("The request body contains invalid JSON: {e}"),
            )),
            Ok(mut body) => {
                let major = route.major(&inner.tokens);
                match inner.limits.check(name, major, Instant::now()) {
                    Some(Verdict::Allowed(h)) => limits = Some(h),
                    Some(over) => {
                        let call = &mut inner.calls[index];
                        call.status = 429;
                        if let Verdict::Bucket { retry_after, .. } = &over {
                            call.early = Some(*retry_after);
                        }
                        call.error = Some("You are being rate limited.".to_owned());
                        return limited_response(&over);
                    }
                    None => {}
                }
                match inner.take_failure(name) {
                    Some(Failure::AnswerLost) => {
                        let _done = inner.route(route, name, &mut body, &query);
                        inner.calls[index].failed = true;
                        Err(failure(Failure::AnswerLost))
                    }
                    Some(kind) => {
                        inner.calls[index].failed = true;
                        Err(failure(kind))
                    }
                    None => inner.route(route, name, &mut body, &query),
                }
            }
        },
    };
    answer(&mut inner.calls[index], result, limits)
}

/// The response to `call`, recorded in it; with its bucket's headers when it was limited.
fn answer(call: &mut Call, result: Result<Reply, ApiFail>, limits: Option<Headers>) -> Response {
    let mut limits = limits;
    let mut response = match result {
        Ok(Reply::Json(status, value)) => {
            call.status = status;
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
            (status, Json(value)).into_response()
        }
        Ok(Reply::Empty) => {
            call.status = 204;
            StatusCode::NO_CONTENT.into_response()
        }
        Err(fail) => {
            call.status = fail.status;
            call.error = Some(fail.message.clone());
            if fail.retry_after_ms.is_some() {
                // An injected 429 carries its own bucket's headers.
                limits = None;
            }
            fail_response(&fail)
        }
    };
    if let Some(h) = limits {
        insert_headers(&mut response, &bucket_headers(&h));
    }
    response
}

/// The headers of a bucket's state, as Discord sends them with every answer.
fn bucket_headers(h: &Headers) -> Vec<(&'static str, String)> {
    // Rounded up to the millisecond: a client that waits what it is told never comes back
    // inside the window (truncated, it could arrive up to 1 ms early and be refused).
    let after = u64::try_from(h.reset_after.as_micros().div_ceil(1000)).unwrap_or(u64::MAX);
    vec![
        ("x-ratelimit-limit", h.limit.to_string()),
        ("x-ratelimit-remaining", h.remaining.to_string()),
        ("x-ratelimit-reset", seconds(model::unix_ms() + after)),
        ("x-ratelimit-reset-after", seconds(after)),
        ("x-ratelimit-bucket", h.bucket.clone()),
    ]
}

fn insert_headers(response: &mut Response, headers: &[(&'static str, String)]) {
    for (name, value) in headers {
        if let Ok(value) = HeaderValue::from_str(value) {
            response
                .headers_mut()
                .insert(HeaderName::from_static(name), value);
        }
    }
}

/// A 429 for a bucket overrun (scope `user`) or the global limit (`X-RateLimit-Global`).
fn limited_response(verdict: &Verdict) -> Response {
    let (retry_after, global, mut headers) = match verdict {
        Verdict::Bucket {
            headers,
            retry_after,
        } => (*retry_after, false, bucket_headers(headers)),
        Verdict::Global { retry_after } => (
            *retry_after,
            true,
            vec![("x-ratelimit-global", "true".to_owned())],
        ),
        Verdict::Allowed(_) => unreachable!("an allowed request is not refused"),
    };
    let ms = u64::try_from(retry_after.as_micros().div_ceil(1000)).unwrap_or(u64::MAX);
    // The header is whole seconds, rounded up; the body has the exact time.
    headers.push(("retry-after", ms.div_ceil(1000).to_string()));
    headers.push((
        "x-ratelimit-scope",
        if global { "global" } else { "user" }.to_owned(),
    ));
    let body = json!({
        "message": "You are being rate limited.",
        "retry_after": Duration::from_millis(ms).as_secs_f64(),
        "global": global,
        "code": 0,
    });
    let mut response = (StatusCode::TOO_MANY_REQUESTS, Json(body)).into_response();
    insert_headers(&mut response, &headers);
    response
}

fn failure(kind: Failure) -> ApiFail {
    match kind {
        Failure::TooManyRequests { retry_after_ms } => ApiFail {
            retry_after_ms: Some(retry_after_ms),
            ..ApiFail::new(429, 0, "You are being rate limited.")
        },
        Failure::ServerError | Failure::AnswerLost => {
            ApiFail::new(500, 0, "500: Internal Server Error")
        }
    }
}

/// `ms` milliseconds as seconds with three decimals, e.g. `"0.500"`.
fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

fn fail_response(f: &ApiFail) -> Response {
    let status = StatusCode::from_u16(f.status).unwrap_or(StatusCode::BAD_REQUEST);
    if let Some(ms) = f.retry_after_ms {
        let after = f64::from(u32::try_from(ms).unwrap_or(u32::MAX)) / 1000.0;
        let body = json!({"message": f.message, "retry_after": after, "global": false});
        let reset = model::unix_ms() + ms;
        let headers = [
            ("retry-after", ms.div_ceil(1000).to_string()),
            ("x-ratelimit-limit", "5".to_owned()),
            ("x-ratelimit-remaining", "0".to_owned()),
            ("x-ratelimit-reset", seconds(reset)),
            ("x-ratelimit-reset-after", seconds(ms)),
            ("x-ratelimit-bucket", "fakebucket0123456789".to_owned()),
            ("x-ratelimit-scope", "user".to_owned()),
        ];
        let mut response = (status, Json(body)).into_response();
        for (name, value) in headers {
            if let Ok(value) = HeaderValue::from_str(&value) {
                response
                    .headers_mut()
                    .insert(HeaderName::from_static(name), value);
            }
        }
        return response;
    }
    let mut body = json!({"message": f.message, "code": f.code});
    if let Some(errors) = &f.errors {
        body["errors"] = errors.clone();
    }
    (status, Json(body)).into_response()
}

/// `GET /attachments/{channel}/{id}/{filename}`: an uploaded file.
fn attachment(shared: &Shared, rest: &str) -> Response {
    let id = rest.split('/').nth(1).and_then(|s| s.parse::<u64>().ok());
    let inner = shared.lock();
    match id.and_then(|id| inner.files.get(&id)) {
        Some(file) => (
            [(header::CONTENT_TYPE, file.content_type.clone())],
            file.bytes.clone(),
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Read a JSON or multipart body.
async fn read_body(request: Request) -> Result<Body, String> {
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if !content_type.starts_with("multipart/form-data") {
        let bytes = axum::body::to_bytes(request.into_body(), BODY_LIMIT)
            .await
            .map_err(|e| e.to_string())?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Body::default());
        }
        let json = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
        return Ok(Body {
            json,
            ..Body::default()
        });
    }
    let mut form = Multipart::from_request(request, &())
        .await
        .map_err(|e| e.body_text())?;
    let mut body = Body::default();
    let mut fields = Map::new();
    for _ in 0..MAX_PARTS {
        let Some(field) = form.next_field().await.map_err(|e| e.body_text())? else {
            let json = std::mem::take(&mut body.json);
            body.json = if json.is_null() && !fields.is_empty() {
                Value::Object(fields)
            } else {
                json
            };
            return Ok(body);
        };
        let name = field.name().unwrap_or_default().to_owned();
        let filename = field.file_name().map(str::to_owned);
        let content_type = field
            .content_type()
            .unwrap_or("application/octet-stream")
            .to_owned();
        let bytes = field.bytes().await.map_err(|e| e.body_text())?.to_vec();
        let index = name
            .strip_prefix("files[")
            .and_then(|rest| rest.strip_suffix(']'))
            .and_then(|n| n.parse::<u64>().ok());
        if name == "payload_json" {
            body.json = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
        } else if let Some(index) = index {
            let filename = filename.unwrap_or_else(|| format!("file{index}"));
            body.order.push((filename.clone(), bytes.len()));
            body.files.insert(
                index,
                Upload {
                    filename,
                    content_type,
                    bytes,
                },
            );
        } else {
            fields.insert(name, String::from_utf8_lossy(&bytes).into_owned().into());
        }
    }
    Err(format!("more than {MAX_PARTS} parts"))
}

/// The `key=value` pairs of a query string (serenity writes `?&key=value`).
fn query_param<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
}

impl Inner {
    fn route(
        &mut self,
        route: Route,
        name: &str,
        body: &mut Body,
        query: &str,
    ) -> Result<Reply, ApiFail> {
        match route {
            Route::Gateway => ok(json!({"url": self.gateway_url()})),
            Route::GatewayBot => ok(json!({
                "url": self.gateway_url(),
                "shards": self.gateway.shard_count,
                "session_start_limit": {
                    "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1,
                },
            })),
            Route::UserMe => ok(model::current_user_json()),
            // The bot's guilds, each with its permissions there (its roles', before any
            // channel's overwrites).
            Route::UserGuilds => ok(self.user_guilds_json()),
            Route::User(id) => match self.users.get(&id) {
                Some(u) => ok(model::user_json(u)),
                None => Err(ApiFail::new(404, 10013, "Unknown User")),
            },
            Route::DmChannels => self.create_dm(body),
            Route::Application => ok(self.application_json()),
            Route::Channel(id) if name == "edit_channel" => self.edit_channel(id, body),
            Route::Channel(id) => self.get_channel(id),
            Route::Messages(channel) if name == "get_messages" => self.get_messages(channel, query),
            Route::Messages(channel) => {
                let message = self.create_message(channel, body, Origin::Channel)?;
                ok(message)
            }
            Route::Message(channel, id) => match name {
                // Ephemeral messages exist only for their interaction's webhook.
                _ if self
                    .stored(channel, id)
                    .is_some_and(|m| is_ephemeral(&m.json)) =>
                {
                    Err(ApiFail::unknown_message())
                }
                "get_message" => self.get_message(channel, id),
                "edit_message" => ok(self.edit_message(channel, id, body)?),
                _ => self.delete_message(channel, id, false),
            },
            Route::Typing(channel) => {
                self.postable(channel)?;
                Ok(Reply::Empty)
            }
            Route::MessageThreads(channel, message) => {
                self.create_thread(channel, Some(message), body)
            }
            Route::Threads(channel) => self.create_thread(channel, None, body),
            Route::Guild(id) => {
                known_guild(id)?;
                ok(self.guild_json(false))
            }
            Route::GuildChannels(id) => {
                known_guild(id)?;
                let channels: Vec<Value> = self
                    .channels
                    .values()
                    .filter(|c| c.kind == ChannelKind::Text)
                    .map(|c| self.channel_json(c.id, true))
                    .collect();
                ok(channels.into())
            }
            Route::Member(guild, user) => {
                known_guild(guild)?;
                match self.full_member_json(user) {
                    Some(m) => ok(m),
                    None => Err(ApiFail::new(404, 10007, "Unknown Member")),
                }
            }
            Route::Commands { app, guild } => {
                known_scope(app, guild)?;
                match name {
                    "set_commands" => self.set_commands(guild, body),
                    "create_command" => self.create_command(guild, body),
                    _ => {
                        let all = query_param(query, "with_localizations") == Some("true");
                        let list: Vec<Value> = self
                            .commands
                            .iter()
                            .filter(|c| c.guild == guild)
                            .map(|c| command_view(&c.json, all))
                            .collect();
                        ok(list.into())
                    }
                }
            }
            Route::Command { app, guild, id } => {
                known_scope(app, guild)?;
                self.command(guild, id, name, body)
            }
            Route::Callback { id, token } => self.callback(id, &token, body),
            Route::Webhook { app, token } => {
                let id = self.webhook_interaction(app, &token, true)?;
                let message = self.followup(id, body)?;
                ok(message)
            }
            Route::WebhookMessage {
                app,
                token,
                message,
            } => {
                let id = self.webhook_interaction(app, &token, message.is_some())?;
                self.webhook_message(id, message, name, body)
            }
        }
    }

    pub(super) fn gateway_url(&self) -> String {
        format!("ws://{}/gateway", self.addr)
    }

    /// Whether a call is for the guild or one of its channels (or threads) and the bot was
    /// removed from it: none of these answers then (403, before the rate limits count it).
    fn removed_from(&self, route: &Route) -> bool {
        if self.removed.is_none() {
            return false;
        }
        match route.channel() {
            Some(c) => self.channels.get(&c).is_some_and(Channel::in_guild),
            None => route.of_guild(),
        }
    }

    /// `GET /users/@me/guilds`: the bot's one guild, with its permissions there.
    fn user_guilds_json(&self) -> Value {
        if self.removed.is_some() {
            return json!([]);
        }
        json!([{
            "id": FakeDiscord::GUILD_ID.to_string(),
            "name": FakeDiscord::GUILD_NAME,
            "icon": null,
            "owner": false,
            "permissions": self.bot_permissions(FakeDiscord::GUILD_ID).to_string(),
            "features": [],
        }])
    }

    fn application_json(&self) -> Value {
        json!({
            "id": FakeDiscord::APP_ID.to_string(),
            "name": FakeDiscord::BOT_NAME,
            "icon": null,
            "description": "",
            "summary": "",
            "type": null,
            "rpc_origins": [],
            "bot_public": true,
            "bot_require_code_grant": false,
            "verify_key": "0".repeat(64),
            // GATEWAY_MESSAGE_CONTENT_LIMITED where the portal has the intent on.
            "flags": if self.gateway.granted & super::INTENT_MESSAGE_CONTENT != 0 { 1u64 << 19 } else { 0 },
            // Installable on servers (0), and on users' accounts (1) where ticked.
            "integration_types_config": if self.user_install {
                json!({"0": {}, "1": {}})
            } else {
                json!({"0": {}})
            },
            "owner": self.user_json_by_id(FakeDiscord::OWNER_ID),
            "team": null,
            "bot": model::current_user_json(),
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": null,
            "approximate_guild_count": 1,
        })
    }

    fn create_dm(&mut self, body: &Body) -> Result<Reply, ApiFail> {
        let p = object(&body.json)?;
        let user = p.get("recipient_id").and_then(model::id_of);
        match user.filter(|u| self.users.contains_key(u) && *u != FakeDiscord::BOT_ID) {
            Some(user) => {
                let id = self.dm_channel(user);
                ok(self.channel_json(id, true))
            }
            None => Err(ApiFail::new(400, 50033, "Invalid Recipient(s)")),
        }
    }

    fn get_channel(&self, id: u64) -> Result<Reply, ApiFail> {
        match self.channels.get(&id).map(|c| &c.kind) {
            None => Err(ApiFail::unknown_channel()),
            Some(ChannelKind::Private { .. } | ChannelKind::Foreign { .. }) => {
                Err(ApiFail::missing_access())
            }
            Some(_) => ok(self.channel_json(id, true)),
        }
    }

    /// The channel, if the bot may post in it.
    fn postable(&self, channel: u64) -> Result<&Channel, ApiFail> {
        let c = self
            .channels
            .get(&channel)
            .ok_or_else(ApiFail::unknown_channel)?;
        if matches!(
            c.kind,
            ChannelKind::Private { .. } | ChannelKind::Foreign { .. }
        ) {
            return Err(ApiFail::missing_access());
        }
        Ok(c)
    }

    fn get_messages(&self, channel: u64, query: &str) -> Result<Reply, ApiFail> {
        let c = self.postable(channel)?;
        let limit = query_param(query, "limit")
            .and_then(|l| l.parse::<usize>().ok())
            .unwrap_or(50)
            .clamp(1, 100);
        let before = query_param(query, "before").and_then(|v| v.parse::<u64>().ok());
        let after = query_param(query, "after").and_then(|v| v.parse::<u64>().ok());
        let list: Vec<Value> = c
            .messages
            .iter()
            .rev()
            .filter(|m| !is_ephemeral(&m.json))
            .filter(|m| before.is_none_or(|b| m.id < b) && after.is_none_or(|a| m.id > a))
            .take(limit)
            .map(|m| m.json.clone())
            .collect();
        ok(list.into())
    }

    fn get_message(&self, channel: u64, id: u64) -> Result<Reply, ApiFail> {
        self.postable(channel)?;
        match self.stored(channel, id) {
            Some(m) if !is_ephemeral(&m.json) => ok(m.json.clone()),
            _ => Err(ApiFail::unknown_message()),
        }
    }

    /// With `enforce_nonce`, the message the bot created with `nonce` in the past few
    /// minutes: Discord's "Create Message" returns it again and creates nothing.
    fn made_with(&self, nonce: Option<&str>, enforce: bool) -> Option<Value> {
        let (channel, id, _) = self
            .nonces
            .get(nonce.filter(|_| enforce)?)
            .filter(|(_, _, at)| at.elapsed() < NONCE_WINDOW)?;
        self.stored(*channel, *id).map(|m| m.json.clone())
    }

    /// Create a message (the bot's) from a JSON or multipart payload; returns it.
    fn create_message(
        &mut self,
        channel: u64,
        body: &mut Body,
        origin: Origin,
    ) -> Result<Value, ApiFail> {
        match origin {
            Origin::Channel => self.may_post(channel, body)?,
            Origin::Interaction { .. } => {
                self.channels
                    .get(&channel)
                    .ok_or_else(ApiFail::unknown_channel)?;
            }
        }
        let p = object(&body.json)?;
        let (nonce, enforce) = nonce_of(p)?;
        if let Some(made) = self.made_with(nonce.as_deref(), enforce) {
            return Ok(made);
        }
        self.touch(channel);
        let (interaction, message_type, loading) = match origin {
            Origin::Channel => (None, 0, false),
            Origin::Interaction {
                id,
                message_type,
                loading,
            } => (Some(id), message_type, loading),
        };
        let allowed = if interaction.is_some() {
            MESSAGE_FLAGS | FLAG_EPHEMERAL
        } else {
            MESSAGE_FLAGS
        };
        let mut flags = p.get("flags").and_then(Value::as_u64).unwrap_or(0) & allowed;
        if loading {
            flags |= FLAG_LOADING;
        }
        // A deferred response ("thinking") is created from `{"flags": ...}` only.
        let content = content_of(p.get("content"))?;
        let embeds = model::check_embeds(p.get("embeds").unwrap_or(&Value::Null))?;
        let components = model::check_components(
            p.get("components").unwrap_or(&Value::Null),
            flags & FLAG_COMPONENTS_V2 != 0,
        )?;
        let reference = match (origin, p.get("message_reference")) {
            (Origin::Channel, Some(r)) if !r.is_null() => self.reference(channel, r)?,
            _ => None,
        };
        let spec = p.get("attachments").cloned();
        let has_sticker = p
            .get("sticker_ids")
            .and_then(Value::as_array)
            .is_some_and(|s| !s.is_empty());
        let id = self.next_id();
        let attachments = self.attachments(channel, spec.as_ref(), &mut body.files, &[])?;
        let nothing = content.is_empty()
            && embeds.is_empty()
            && attachments.is_empty()
            && components.as_array().is_none_or(Vec::is_empty)
            && !has_sticker
            && p.get("poll").is_none_or(Value::is_null);
        if nothing && !loading {
            return Err(ApiFail::new(400, 50006, "Cannot send an empty message"));
        }
        let embeds = resolve_attachment_urls(embeds, &attachments);
        let mut m = self.message_base(id, channel, &content);
        self.ping(&mut m, p.get("allowed_mentions"), reference.as_ref())?;
        m.insert("attachments".into(), attachments.into());
        m.insert("embeds".into(), embeds.into());
        m.insert("components".into(), components);
        m.insert("flags".into(), flags.into());
        let mut kind = u64::from(message_type);
        if let Some((reference, referenced)) = reference {
            kind = 19;
            m.insert("message_reference".into(), reference);
            m.insert("referenced_message".into(), referenced);
        }
        m.insert("type".into(), kind.into());
        if let Some(n) = &nonce {
            m.insert("nonce".into(), n.clone().into());
            if enforce {
                self.nonces.insert(n.clone(), (channel, id, Instant::now()));
            }
        }
        if interaction.is_some() {
            m.insert("webhook_id".into(), FakeDiscord::APP_ID.to_string().into());
            m.insert(
                "application_id".into(),
                FakeDiscord::APP_ID.to_string().into(),
            );
        }
        let json = Value::Object(m);
        self.store(
            channel,
            Stored {
                id,
                json: json.clone(),
                bot: Some(BotMeta {
                    sent_at: Instant::now(),
                    edits: 0,
                    interaction,
                }),
            },
        );
        self.echo_message("MESSAGE_CREATE", channel, &json);
        Ok(json)
    }

    /// A new bot message's mentions (`mention_everyone`, `mentions`) as [`Inner::pings`]
    /// reads its `allowed_mentions`, with `reference` the reply's (reference, message).
    fn ping(
        &self,
        m: &mut Map<String, Value>,
        allowed: Option<&Value>,
        reference: Option<&(Value, Value)>,
    ) -> Result<(), ApiFail> {
        let replied_author =
            reference.and_then(|(_, referenced)| model::id_of(&referenced["author"]["id"]));
        let content = m["content"].as_str().unwrap_or_default().to_owned();
        let (everyone, pinged) = Self::pings(&content, allowed, replied_author)?;
        m.insert("mention_everyone".into(), everyone.into());
        let users: Vec<Value> = pinged
            .iter()
            .filter_map(|u| self.users.get(u).map(model::user_json))
            .collect();
        m.insert("mentions".into(), users.into());
        Ok(())
    }

    /// Whom a new bot message pings, as Discord reads its `allowed_mentions`: without
    /// one, every mention in the content (`@everyone` and `@here` too: the fake's bot may
    /// mention everyone, as a server can let it) and a reply's author; with one, only the
    /// kinds its `parse` names, the users it lists, and a reply's author if `replied_user`.
    /// A `parse` of users with a list of users is refused, as Discord refuses it.
    fn pings(
        content: &str,
        allowed: Option<&Value>,
        replied_author: Option<u64>,
    ) -> Result<(bool, Vec<u64>), ApiFail> {
        let in_content = model::mentioned_ids(content);
        let everyone_in_content = content.contains("@everyone") || content.contains("@here");
        let Some(allowed) = allowed.filter(|a| !a.is_null()) else {
            let mut users = in_content;
            users.extend(replied_author.filter(|a| !users.contains(a)));
            return Ok((everyone_in_content, users));
        };
        let a = allowed
            .as_object()
            .ok_or_else(|| ApiFail::invalid_form("allowed_mentions"))?;
        let parse: Vec<&str> = match a.get("parse") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(kinds)) => kinds
                .iter()
                .map(|k| match k.as_str() {
                    Some(k @ ("users" | "roles" | "everyone")) => Ok(k),
                    _ => Err(ApiFail::invalid_form("allowed_mentions.parse")),
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(ApiFail::invalid_form("allowed_mentions.parse")),
        };
        let listed: Vec<u64> = match a.get("users") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(ids)) => ids.iter().filter_map(model::id_of).collect(),
            Some(_) => return Err(ApiFail::invalid_form("allowed_mentions.users")),
        };
        if parse.contains(&"users") && !listed.is_empty() {
            return Err(ApiFail::invalid_form("allowed_mentions"));
        }
        let mut users: Vec<u64> = in_content
            .into_iter()
            .filter(|u| parse.contains(&"users") || listed.contains(u))
            .collect();
        if a.get("replied_user").and_then(Value::as_bool) == Some(true) {
            users.extend(replied_author.filter(|r| !users.contains(r)));
        }
        Ok((everyone_in_content && parse.contains(&"everyone"), users))
    }

    /// The fields every message has: id, channel, author (the bot), content, timestamps,
    /// mentions.
    fn message_base(&self, id: u64, channel: u64, content: &str) -> Map<String, Value> {
        let mentions: Vec<Value> = model::mentioned_ids(content)
            .into_iter()
            .filter_map(|u| self.users.get(&u).map(model::user_json))
            .collect();
        let Value::Object(m) = json!({
            "id": id.to_string(),
            "channel_id": channel.to_string(),
            "author": model::user_json(&FakeDiscord::bot_user()),
            "content": content,
            "timestamp": model::iso_now(),
            "edited_timestamp": null,
            "tts": false,
            "mention_everyone": false,
            "mentions": mentions,
            "mention_roles": [],
            "pinned": false,
            "type": 0,
        }) else {
            unreachable!("a JSON object")
        };
        m
    }

    /// Append a message to its channel.
    pub(super) fn store(&mut self, channel: u64, stored: Stored) {
        if let Some(c) = self.channels.get_mut(&channel) {
            c.last_message_id = Some(stored.id);
            c.sent += 1;
            c.messages.push(stored);
        }
    }

    /// `message_reference` of a reply: the reference and the referenced message.
    fn reference(&self, channel: u64, r: &Value) -> Result<Option<(Value, Value)>, ApiFail> {
        let target = r.get("message_id").and_then(model::id_of);
        let lenient = r["fail_if_not_exists"].as_bool() == Some(false);
        let found = target.and_then(|t| self.stored(channel, t));
        match (target, found) {
            (Some(t), Some(m)) => {
                let mut referenced = m.json.clone();
                if let Some(o) = referenced.as_object_mut() {
                    o.remove("referenced_message");
                }
                let mut reference = json!({
                    "type": 0,
                    "message_id": t.to_string(),
                    "channel_id": channel.to_string(),
                });
                if self.channels.get(&channel).is_some_and(Channel::in_guild) {
                    reference["guild_id"] = FakeDiscord::GUILD_ID.to_string().into();
                }
                Ok(Some((reference, referenced)))
            }
            _ if lenient => Ok(None),
            _ => Err(ApiFail::form(
                &path(&[&"message_reference"]),
                "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                "Unknown message",
            )),
        }
    }

    /// The attachments of a new or edited message: `spec` is the payload's `attachments`
    /// (new files by the placeholder id of their `files[N]` part, kept ones by id); files not
    /// named in it are added; without it an edit keeps `existing`.
    fn attachments(
        &mut self,
        channel: u64,
        spec: Option<&Value>,
        files: &mut BTreeMap<u64, Upload>,
        existing: &[Value],
    ) -> Result<Vec<Value>, ApiFail> {
        if let Some(big) = files.values().find(|f| f.bytes.len() > FILE_LIMIT) {
            return Err(ApiFail::new(
                413,
                40005,
                format!("Request entity too large: {}", big.filename),
            ));
        }
        let mut out = Vec::new();
        match spec {
            Some(Value::Array(list)) => {
                for (i, entry) in list.iter().enumerate() {
                    let Some(id) = model::id_of(&entry["id"]) else {
                        return Err(ApiFail::form(
                            &path(&[&"attachments", &i, &"id"]),
                            "BASE_TYPE_REQUIRED",
                            "This field is required",
                        ));
                    };
                    if let Some(upload) = files.remove(&id) {
                        out.push(self.new_attachment(channel, upload, entry));
                    } else if let Some(kept) =
                        existing.iter().find(|a| model::id_of(&a["id"]) == Some(id))
                    {
                        out.push(kept.clone());
                    } else {
                        return Err(ApiFail::form(
                            &path(&[&"attachments", &i, &"id"]),
                            "ATTACHMENT_NOT_FOUND",
                            &format!("Unknown attachment {id}: no files[{id}] part and no such attachment on the message"),
                        ));
                    }
                }
            }
            Some(Value::Null) | None => out.extend(existing.iter().cloned()),
            Some(_) => {
                return Err(ApiFail::form(
                    &path(&[&"attachments"]),
                    "BASE_TYPE_ARRAY",
                    "Must be an array.",
                ))
            }
        }
        for upload in std::mem::take(files).into_values() {
            out.push(self.new_attachment(channel, upload, &Value::Null));
        }
        if out.len() > 10 {
            return Err(ApiFail::form(
                &path(&[&"attachments"]),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 0 and 10 in length.",
            ));
        }
        Ok(out)
    }

    fn new_attachment(&mut self, channel: u64, upload: Upload, entry: &Value) -> Value {
        let id = self.next_id();
        let filename = entry["filename"]
            .as_str()
            .unwrap_or(&upload.filename)
            .replace(' ', "_");
        let url = format!("http://{}/attachments/{channel}/{id}/{filename}", self.addr);
        let mut a = json!({
            "id": id.to_string(),
            "filename": filename,
            "size": upload.bytes.len(),
            "url": url,
            "proxy_url": url,
            "content_type": upload.content_type,
        });
        if let Some(d) = entry["description"].as_str() {
            a["description"] = d.into();
        }
        if let Some((w, h)) = model::png_size(&upload.bytes) {
            a["width"] = w.into();
            a["height"] = h.into();
        }
        self.files.insert(
            id,
            StoredFile {
                filename,
                content_type: upload.content_type,
                bytes: upload.bytes,
            },
        );
        a
    }

    /// Edit one of the bot's messages (`PATCH` on the channel route or the interaction
    /// webhook); returns it.
    /// The bot may post `body` in `channel`: a channel of the guild or its own DM, where it
    /// may send (in a thread: in threads), and
    /// attach files and embeds if it has any.
    fn may_post(&self, channel: u64, body: &Body) -> Result<(), ApiFail> {
        self.postable(channel)?;
        let thread = self
            .channels
            .get(&channel)
            .is_some_and(|c| matches!(c.kind, ChannelKind::Thread { .. }));
        let p = object(&body.json)?;
        let mut needed = if thread {
            model::SEND_MESSAGES_IN_THREADS
        } else {
            model::SEND_MESSAGES
        };
        if !body.files.is_empty() {
            needed |= model::ATTACH_FILES;
        }
        if p.get("embeds")
            .and_then(Value::as_array)
            .is_some_and(|e| !e.is_empty())
        {
            needed |= model::EMBED_LINKS;
        }
        self.require(channel, needed)
    }

    /// A message in `channel`: an archived (unlocked) thread unarchives, and its idleness
    /// starts again.
    pub(super) fn touch(&mut self, channel: u64) {
        let unarchived = self.channels.get_mut(&channel).is_some_and(|c| {
            c.idle_minutes = 0;
            std::mem::replace(&mut c.archived, false)
        });
        if unarchived {
            self.thread_updated(channel);
        }
    }

    /// `PATCH /channels/{id}`: the fake takes a thread's `archived` and
    /// `auto_archive_duration` only.
    fn edit_channel(&mut self, id: u64, body: &mut Body) -> Result<Reply, ApiFail> {
        let p = object(&body.json)?.clone();
        let c = self
            .channels
            .get_mut(&id)
            .ok_or_else(ApiFail::unknown_channel)?;
        let ChannelKind::Thread { auto_archive, .. } = &mut c.kind else {
            return Err(ApiFail::new(
                400,
                50_024,
                "Cannot execute action on this channel type",
            ));
        };
        if let Some(d) = p.get("auto_archive_duration").and_then(Value::as_u64) {
            if ![60, 1440, 4320, 10080].contains(&d) {
                return Err(ApiFail::form(
                    &path(&[&"auto_archive_duration"]),
                    "BASE_TYPE_CHOICES",
                    "Value must be one of {60, 1440, 4320, 10080}.",
                ));
            }
            *auto_archive = d;
        }
        if let Some(a) = p.get("archived").and_then(Value::as_bool) {
            c.archived = a;
            if !a {
                c.idle_minutes = 0;
            }
        }
        self.thread_updated(id);
        ok(self.channel_json(id, true))
    }

    fn edit_message(&mut self, channel: u64, id: u64, body: &mut Body) -> Result<Value, ApiFail> {
        let c = self
            .channels
            .get(&channel)
            .ok_or_else(ApiFail::unknown_channel)?;
        if c.archived {
            return Err(ApiFail::new(400, 50_083, "Thread is archived"));
        }
        let stored = self
            .stored(channel, id)
            .ok_or_else(ApiFail::unknown_message)?;
        if stored.bot.is_none() {
            return Err(ApiFail::new(
                403,
                50005,
                "Cannot edit a message authored by another user",
            ));
        }
        let mut json = stored.json.clone();
        let p = object(&body.json)?;
        if p.contains_key("content") {
            json["content"] = content_of(p.get("content"))?.into();
        }
        if let Some(embeds) = p.get("embeds") {
            json["embeds"] = model::check_embeds(embeds)?.into();
        }
        let old_flags = json["flags"].as_u64().unwrap_or(0);
        let mut flags = old_flags & !FLAG_LOADING;
        if let Some(new) = p.get("flags").and_then(Value::as_u64) {
            flags = (flags & (FLAG_EPHEMERAL | FLAG_HAS_THREAD | FLAG_COMPONENTS_V2))
                | (new & MESSAGE_FLAGS);
        }
        if let Some(components) = p.get("components") {
            json["components"] =
                model::check_components(components, flags & FLAG_COMPONENTS_V2 != 0)?;
        }
        let spec = p.get("attachments").cloned();
        let existing = json["attachments"].as_array().cloned().unwrap_or_default();
        let attachments = self.attachments(channel, spec.as_ref(), &mut body.files, &existing)?;
        let embeds = json["embeds"].as_array().cloned().unwrap_or_default();
        json["embeds"] = resolve_attachment_urls(embeds, &attachments).into();
        json["attachments"] = attachments.into();
        json["flags"] = flags.into();
        json["edited_timestamp"] = model::iso_now().into();
        // Its mentions as the edit's `allowed_mentions` reads its text (a deferred
        // interaction response gets its first content so).
        if let Value::Object(m) = &mut json {
            self.ping(m, p.get("allowed_mentions"), None)?;
        }
        let nothing = json["content"].as_str().is_none_or(str::is_empty)
            && json["embeds"].as_array().is_none_or(Vec::is_empty)
            && json["attachments"].as_array().is_none_or(Vec::is_empty)
            && json["components"].as_array().is_none_or(Vec::is_empty);
        if nothing {
            return Err(ApiFail::new(400, 50006, "Cannot send an empty message"));
        }
        if let Some(stored) = self.stored_mut(channel, id) {
            stored.json = json.clone();
            if let Some(meta) = stored.bot.as_mut() {
                meta.edits += 1;
            }
        }
        self.echo_message("MESSAGE_UPDATE", channel, &json);
        Ok(json)
    }

    /// Delete a message: the bot's own anywhere, others' in the guild (Manage Messages).
    /// A person deletes a message ([`FakeDiscord::delete_message`]); nothing if it is gone.
    pub(super) fn user_deletes(&mut self, channel: u64, id: u64) {
        let _ = self.delete_message(channel, id, false);
    }

    fn delete_message(&mut self, channel: u64, id: u64, webhook: bool) -> Result<Reply, ApiFail> {
        let c = self
            .channels
            .get(&channel)
            .ok_or_else(ApiFail::unknown_channel)?;
        if !webhook
            && matches!(
                c.kind,
                ChannelKind::Private { .. } | ChannelKind::Foreign { .. }
            )
        {
            return Err(ApiFail::missing_access());
        }
        let in_guild = c.in_guild();
        let stored = self
            .stored(channel, id)
            .ok_or_else(ApiFail::unknown_message)?;
        if stored.bot.is_none() && !in_guild {
            return Err(ApiFail::new(
                403,
                50003,
                "Cannot execute action on a DM channel",
            ));
        }
        let ephemeral = is_ephemeral(&stored.json);
        if let Some(c) = self.channels.get_mut(&channel) {
            c.messages.retain(|m| m.id != id);
        }
        if !ephemeral
            && !matches!(
                self.channels[&channel].kind,
                ChannelKind::Private { .. } | ChannelKind::Foreign { .. }
            )
        {
            let mut data = json!({"id": id.to_string(), "channel_id": channel.to_string()});
            if in_guild {
                data["guild_id"] = FakeDiscord::GUILD_ID.to_string().into();
            }
            self.dispatch("MESSAGE_DELETE", data);
        }
        Ok(Reply::Empty)
    }

    /// `POST /channels/{c}/messages/{m}/threads` (`message`) or `POST /channels/{c}/threads`.
    /// A thread started from a message has the message's id, as on Discord.
    fn create_thread(
        &mut self,
        channel: u64,
        message: Option<u64>,
        body: &Body,
    ) -> Result<Reply, ApiFail> {
        let c = self
            .channels
            .get(&channel)
            .ok_or_else(ApiFail::unknown_channel)?;
        if matches!(
            c.kind,
            ChannelKind::Private { .. } | ChannelKind::Foreign { .. }
        ) {
            return Err(ApiFail::missing_access());
        }
        self.require(channel, model::CREATE_PUBLIC_THREADS)?;
        if c.kind != ChannelKind::Text {
            return Err(ApiFail::new(
                400,
                50024,
                "Cannot execute action on this channel type",
            ));
        }
        let p = object(&body.json)?;
        let name = p.get("name").and_then(Value::as_str).unwrap_or_default();
        if !(1..=100).contains(&name.chars().count()) {
            return Err(ApiFail::form(
                &path(&[&"name"]),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
        let auto_archive = p
            .get("auto_archive_duration")
            .and_then(Value::as_u64)
            .unwrap_or(1440);
        if ![60, 1440, 4320, 10080].contains(&auto_archive) {
            return Err(ApiFail::form(
                &path(&[&"auto_archive_duration"]),
                "BASE_TYPE_CHOICES",
                "Value must be one of {60, 1440, 4320, 10080}.",
            ));
        }
        let (id, kind) = if let Some(m) = message {
            let starter = self
                .stored(channel, m)
                .ok_or_else(ApiFail::unknown_message)?;
            if starter.json["flags"].as_u64().unwrap_or(0) & FLAG_HAS_THREAD != 0 {
                return Err(ApiFail::new(
                    400,
                    160_004,
                    "A thread has already been created for this message",
                ));
            }
            (m, 11)
        } else {
            let kind = p.get("type").and_then(Value::as_u64).unwrap_or(12);
            if !matches!(kind, 11 | 12) {
                return Err(ApiFail::form(
                    &path(&[&"type"]),
                    "BASE_TYPE_CHOICES",
                    "Value must be one of {11, 12}.",
                ));
            }
            (self.next_id(), u8::try_from(kind).unwrap_or(12))
        };
        let position = self.channels.len();
        let thread = Channel::new(
            id,
            ChannelKind::Thread {
                parent: channel,
                kind,
                owner: FakeDiscord::BOT_ID,
                starter: message,
                auto_archive,
            },
            name,
            position,
            model::iso_now(),
        );
        self.channels.insert(id, thread);
        let json = self.channel_json(id, true);
        if let Some(m) = message {
            if let Some(starter) = self.stored_mut(channel, m) {
                let flags = starter.json["flags"].as_u64().unwrap_or(0) | FLAG_HAS_THREAD;
                starter.json["flags"] = flags.into();
                starter.json["thread"] = json.clone();
            }
        }
        let mut event = json.clone();
        event["newly_created"] = true.into();
        self.dispatch("THREAD_CREATE", event);
        Ok(Reply::Json(201, json))
    }

    /// `PUT .../commands`: replace the commands of the scope (ids are kept by type and name).
    fn set_commands(&mut self, guild: Option<u64>, body: &Body) -> Result<Reply, ApiFail> {
        let Some(list) = body.json.as_array() else {
            return Err(ApiFail::form(&[], "BASE_TYPE_ARRAY", "Must be an array."));
        };
        let mut checked = Vec::new();
        let mut names = std::collections::BTreeSet::new();
        let mut per_type = [0_usize; 4];
        for (i, c) in list.iter().enumerate() {
            let at = path(&[&i]);
            let command = model::check_command(c, &at)?;
            let kind = command["type"].as_u64().unwrap_or(1);
            let name = command["name"].as_str().unwrap_or_default().to_owned();
            if !names.insert((kind, name)) {
                return Err(ApiFail::form(
                    &path(&[&i, &"name"]),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    "Application command names must be unique",
                ));
            }
            let slot = usize::try_from(kind).unwrap_or(0).min(3);
            per_type[slot] += 1;
            let max = if kind == 1 { 100 } else { 15 };
            if per_type[slot] > max {
                return Err(ApiFail::new(
                    400,
                    30032,
                    "Maximum number of application commands reached",
                ));
            }
            checked.push(command);
        }
        // Discord keeps an Activity's Entry Point command out of reach of a bulk update
        // that leaves it out.
        let entry_point = |c: &Value| c["type"].as_u64() == Some(4);
        let had_entry = self
            .commands
            .iter()
            .any(|c| c.guild == guild && entry_point(&c.json));
        if had_entry && !checked.iter().any(entry_point) {
            return Err(ApiFail::new(
                400,
                50240,
                "You cannot remove this app's Entry Point command in a bulk update operation. \
                 Please include the Entry Point command in your update request or delete it \
                 separately.",
            ));
        }
        let old: Vec<Command> = {
            let (scope, rest): (Vec<Command>, Vec<Command>) = std::mem::take(&mut self.commands)
                .into_iter()
                .partition(|c| c.guild == guild);
            self.commands = rest;
            scope
        };
        let mut out = Vec::new();
        for command in checked {
            let same = old
                .iter()
                .find(|o| o.json["type"] == command["type"] && o.json["name"] == command["name"]);
            let id = match same {
                Some(o) => o.id,
                None => self.next_id(),
            };
            let json = self.full_command(id, guild, command);
            out.push(json.clone());
            self.commands.push(Command { id, guild, json });
        }
        ok(out.into())
    }

    /// `POST .../commands`: create, or overwrite the command of the same type and name.
    fn create_command(&mut self, guild: Option<u64>, body: &Body) -> Result<Reply, ApiFail> {
        let command = model::check_command(&body.json, &[])?;
        let existing = self.commands.iter().position(|c| {
            c.guild == guild
                && c.json["type"] == command["type"]
                && c.json["name"] == command["name"]
        });
        if let Some(at) = existing {
            let id = self.commands[at].id;
            let json = self.full_command(id, guild, command);
            self.commands[at].json = json.clone();
            return ok(json);
        }
        let kind = command["type"].as_u64();
        let count = self
            .commands
            .iter()
            .filter(|c| c.guild == guild && c.json["type"].as_u64() == kind)
            .count();
        if count >= if kind == Some(1) { 100 } else { 15 } {
            return Err(ApiFail::new(
                400,
                30032,
                "Maximum number of application commands reached",
            ));
        }
        let id = self.next_id();
        let json = self.full_command(id, guild, command);
        self.commands.push(Command {
            id,
            guild,
            json: json.clone(),
        });
        Ok(Reply::Json(201, json))
    }

    /// `GET`, `PATCH`, `DELETE .../commands/{id}`.
    fn command(
        &mut self,
        guild: Option<u64>,
        id: u64,
        name: &str,
        body: &Body,
    ) -> Result<Reply, ApiFail> {
        let at = self
            .commands
            .iter()
            .position(|c| c.id == id && c.guild == guild)
            .ok_or_else(|| ApiFail::new(404, 10063, "Unknown application command"))?;
        match name {
            "get_command" => ok(self.commands[at].json.clone()),
            "delete_command" => {
                self.commands.remove(at);
                Ok(Reply::Empty)
            }
            _ => {
                let mut merged = self.commands[at].json.clone();
                if let (Some(m), Some(p)) = (merged.as_object_mut(), body.json.as_object()) {
                    for (k, v) in p {
                        m.insert(k.clone(), v.clone());
                    }
                }
                let command = model::check_command(&merged, &[])?;
                let json = self.full_command(id, guild, command);
                self.commands[at].json = json.clone();
                ok(json)
            }
        }
    }

    pub(super) fn full_command(
        &mut self,
        id: u64,
        guild: Option<u64>,
        mut command: Value,
    ) -> Value {
        let version = self.next_id();
        command["id"] = id.to_string().into();
        command["application_id"] = FakeDiscord::APP_ID.to_string().into();
        command["version"] = version.to_string().into();
        if let Some(g) = guild {
            command["guild_id"] = g.to_string().into();
        }
        command
    }

    /// `POST /interactions/{id}/{token}/callback`.
    fn callback(&mut self, id: u64, token: &str, body: &mut Body) -> Result<Reply, ApiFail> {
        let unknown = || ApiFail::new(404, 10062, "Unknown interaction");
        let i = self.interactions.get_mut(&id).ok_or_else(unknown)?;
        if i.token != token {
            return Err(unknown());
        }
        if i.created_at.elapsed() > CALLBACK_DEADLINE {
            i.rejected += 1;
            return Err(unknown());
        }
        if i.response_type.is_some() {
            i.rejected += 1;
            return Err(ApiFail::new(
                400,
                40060,
                "Interaction has already been acknowledged.",
            ));
        }
        let (kind, channel, message_type, component_message) =
            (i.kind, i.channel, i.message_type, i.component_message);
        let p = object(&body.json)?;
        let response = p.get("type").and_then(Value::as_u64).unwrap_or(0);
        let data = p.get("data").cloned().unwrap_or(Value::Null);
        let valid = match response {
            4 | 5 | 9 => kind != 4,
            6 | 7 => kind == 3,
            8 => kind == 4,
            // LAUNCH_ACTIVITY: a command's or a component's, of an app with an Activity.
            12 => matches!(kind, 2 | 3) && self.activity,
            _ => false,
        };
        if !valid {
            return Err(ApiFail::form(
                &path(&[&"type"]),
                "INTERACTION_RESPONSE_TYPE_INVALID",
                &format!("Callback type {response} is not valid for an interaction of type {kind}"),
            ));
        }
        let mut original = None;
        let mut choices = Vec::new();
        let mut modal = None;
        match response {
            4 | 5 => {
                let mut sub = Body {
                    json: if response == 5 {
                        json!({"flags": data["flags"]})
                    } else {
                        data
                    },
                    files: std::mem::take(&mut body.files),
                    order: Vec::new(),
                };
                let origin = Origin::Interaction {
                    id,
                    message_type,
                    loading: response == 5,
                };
                let message = self.create_message(channel, &mut sub, origin)?;
                original = model::id_of(&message["id"]);
            }
            6 | 12 => original = component_message.filter(|_| response == 6),
            7 => {
                let target = component_message.ok_or_else(ApiFail::unknown_message)?;
                let mut sub = Body {
                    json: data,
                    files: std::mem::take(&mut body.files),
                    order: Vec::new(),
                };
                self.edit_message(channel, target, &mut sub)?;
                original = Some(target);
            }
            8 => {
                let list = data["choices"].as_array().cloned().unwrap_or_default();
                if list.len() > 25 {
                    return Err(ApiFail::form(
                        &path(&[&"data", &"choices"]),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 0 and 25 in length.",
                    ));
                }
                choices = list
                    .iter()
                    .map(|c| {
                        let name = c["name"].as_str().unwrap_or_default().to_owned();
                        (name, c["value"].clone())
                    })
                    .collect();
            }
            _ => modal = Some(data),
        }
        let i = self.interactions.get_mut(&id).ok_or_else(unknown)?;
        i.first_callback_at = Some(Instant::now());
        i.response_type = u8::try_from(response).ok();
        i.original = original;
        i.choices = choices;
        i.modal = modal;
        Ok(Reply::Empty)
    }

    /// The interaction of a webhook route; `answered`: it must have been answered first.
    fn webhook_interaction(&self, app: u64, token: &str, answered: bool) -> Result<u64, ApiFail> {
        let unknown = || ApiFail::new(404, 10015, "Unknown Webhook");
        if app != FakeDiscord::APP_ID {
            return Err(unknown());
        }
        let id = *self.tokens.get(token).ok_or_else(unknown)?;
        let i = &self.interactions[&id];
        if i.created_at.elapsed() > TOKEN_LIFETIME {
            return Err(ApiFail::new(401, 50027, "Invalid Webhook Token"));
        }
        if answered && i.response_type.is_none() {
            return Err(unknown());
        }
        if i.kind == 4 {
            return Err(unknown());
        }
        Ok(id)
    }

    /// `POST /webhooks/{app}/{token}`: a follow-up message.
    fn followup(&mut self, id: u64, body: &mut Body) -> Result<Value, ApiFail> {
        let i = &self.interactions[&id];
        let (channel, message_type) = (i.channel, i.message_type);
        let origin = Origin::Interaction {
            id,
            message_type,
            loading: false,
        };
        let message = self.create_message(channel, body, origin)?;
        if let (Some(i), Some(m)) = (self.interactions.get_mut(&id), model::id_of(&message["id"])) {
            i.followups.push(m);
        }
        Ok(message)
    }

    /// `GET`, `PATCH`, `DELETE /webhooks/{app}/{token}/messages/{@original | id}`.
    fn webhook_message(
        &mut self,
        id: u64,
        message: Option<u64>,
        name: &str,
        body: &mut Body,
    ) -> Result<Reply, ApiFail> {
        let i = &self.interactions[&id];
        let channel = i.channel;
        let target = match message {
            None => i.original,
            Some(m) => (i.original == Some(m) || i.followups.contains(&m)).then_some(m),
        }
        .filter(|m| self.stored(channel, *m).is_some())
        .ok_or_else(ApiFail::unknown_message)?;
        match name {
            "get_original" | "get_followup" => ok(self
                .stored(channel, target)
                .map(|m| m.json.clone())
                .unwrap_or_default()),
            "edit_original" | "edit_followup" => ok(self.edit_message(channel, target, body)?),
            _ => {
                let reply = self.delete_message(channel, target, true)?;
                if let Some(i) = self.interactions.get_mut(&id) {
                    if i.original == Some(target) {
                        i.original = None;
                    }
                    i.followups.retain(|m| *m != target);
                }
                Ok(reply)
            }
        }
    }
}

fn known_guild(id: u64) -> Result<(), ApiFail> {
    if id == FakeDiscord::GUILD_ID {
        Ok(())
    } else {
        Err(ApiFail::new(404, 10004, "Unknown Guild"))
    }
}

fn known_scope(app: u64, guild: Option<u64>) -> Result<(), ApiFail> {
    if app != FakeDiscord::APP_ID {
        return Err(ApiFail::new(404, 10002, "Unknown Application"));
    }
    match guild {
        Some(g) if g != FakeDiscord::GUILD_ID => Err(ApiFail::missing_access()),
        _ => Ok(()),
    }
}

/// A command as `GET .../commands` shows it: without the localization maps unless asked.
fn command_view(json: &Value, with_localizations: bool) -> Value {
    let mut v = json.clone();
    if !with_localizations {
        if let Some(o) = v.as_object_mut() {
            o.remove("name_localizations");
            o.remove("description_localizations");
        }
    }
    v
}

fn is_ephemeral(message: &Value) -> bool {
    message["flags"].as_u64().unwrap_or(0) & FLAG_EPHEMERAL != 0
}

/// The `content` of a payload: at most 2000 characters (`null` is empty).
/// A create's nonce — an integer or a string of at most 25 characters — and whether it is
/// enforced.
fn nonce_of(p: &Map<String, Value>) -> Result<(Option<String>, bool), ApiFail> {
    let nonce = match p.get("nonce") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.chars().count() <= 25 => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(_) => return Err(ApiFail::invalid_form("nonce")),
    };
    let enforce = p.get("enforce_nonce").and_then(Value::as_bool) == Some(true);
    Ok((nonce, enforce))
}

fn content_of(v: Option<&Value>) -> Result<String, ApiFail> {
    let content = match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    if content.chars().count() > 2000 {
        return Err(ApiFail::form(
            &path(&[&"content"]),
            "BASE_TYPE_MAX_LENGTH",
            "Must be 2000 or fewer in length.",
        ));
    }
    Ok(content)
}

/// Replace `attachment://NAME` in embed images and thumbnails by the attachment's URL.
fn resolve_attachment_urls(embeds: Vec<Value>, attachments: &[Value]) -> Vec<Value> {
    embeds
        .into_iter()
        .map(|mut e| {
            for key in ["image", "thumbnail"] {
                let name = e[key]["url"]
                    .as_str()
                    .and_then(|u| u.strip_prefix("attachment://"))
                    .map(str::to_owned);
                let found = name.and_then(|n| {
                    attachments
                        .iter()
                        .find(|a| a["filename"].as_str() == Some(n.as_str()))
                });
                if let Some(a) = found {
                    e[key]["url"] = a["url"].clone();
                    e[key]["proxy_url"] = a["proxy_url"].clone();
                }
            }
            e
        })
        .collect()
}
