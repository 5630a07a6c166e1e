//! A fake Discord — REST API and websocket gateway — for end-to-end tests of the bot's Discord
//! adapter (serenity 0.12).
//!
//! [`FakeDiscord::start`] binds an ephemeral loopback port (`127.0.0.1:0`) and serves on it the
//! REST routes under `/api/v10/...` with Discord's JSON shapes (serenity's models deserialize
//! every answer) and a gateway websocket at `/gateway`. A serenity client is pointed at it with
//!
//! ```ignore
//! let http = HttpBuilder::new(FakeDiscord::TOKEN)
//!     .proxy(fake.api_base())     // replaces `https://discord.com` in every REST URL
//!     .ratelimiter_disabled(true) // without this the proxy is ignored
//!     .build();
//! let client = ClientBuilder::new_with_http(http, intents).event_handler(handler).await?;
//! ```
//!
//! serenity asks `GET /api/v10/gateway` for the gateway URL (answered with
//! [`FakeDiscord::gateway_url`]), appends `?v=10`, connects, and identifies. The fake answers
//! HELLO, READY and one `GUILD_CREATE` (the guild [`FakeDiscord::GUILD_ID`] with its text
//! channels, roles and members), acknowledges heartbeats, numbers dispatches, keeps them for
//! RESUME and replays the missed ones. All frames are plain TEXT frames with JSON (serenity
//! asks for `compress: true` in IDENTIFY but reads text frames as well).
//!
//! Tests inject gateway events (messages, slash commands, autocomplete, button presses, raw
//! dispatches), read back what the bot did (every REST call, its messages in their current
//! state with attachment bytes and buttons, threads, interaction responses with the time of the
//! first callback, registered commands) and inject failures (429 with Discord's headers and
//! body, 500) and disconnections.
//!
//! Discord's rate limits are enforced as Discord enforces them (`limits.rs`): every answer
//! carries its bucket's `X-RateLimit-*` headers, a request past its bucket (per route and
//! channel, guild or webhook) or past the global 50 a second is answered 429 and not carried
//! out; [`FakeDiscord::rate_limited`] lists those refusals.
//!
//! Discord's rules that a bot can get wrong are enforced: an interaction must be answered
//! within [`CALLBACK_DEADLINE`] and only once, follow-ups need an answered interaction,
//! interaction tokens live [`TOKEN_LIFETIME`], message content is at most 2000 characters,
//! buttons need unique custom ids, command localizations need Discord's locale names, guild
//! message content is blanked for a client without the `MESSAGE_CONTENT` intent (unless the
//! bot is mentioned), and the bot's own messages come back to it as `MESSAGE_CREATE`.
//!
//! Everything is in memory and on loopback. Every loop has a count limit and a time limit:
//! each request is cut off after [`REQUEST_LIMIT`], a websocket connection handles at most
//! [`MAX_FRAMES`] frames, the server stops by itself after [`SERVER_LIFETIME`] or
//! [`MAX_CALLS`] calls, and [`FakeDiscord::wait_until`] polls a bounded number of times.
//! Dropping the [`FakeDiscord`] stops the server and closes the gateway connections.

mod gateway;
mod inject;
mod limits;
mod model;
mod oauth;
mod rest;
mod tls;

pub use limits::{Limit, GLOBAL_PER_SECOND};
pub use tls::CA_DER;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::future::IntoFuture;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot, watch};

/// The longest one request may take (reading the body, answering).
pub const REQUEST_LIMIT: Duration = Duration::from_secs(30);
/// The server (and every gateway connection) stops by itself this long after
/// [`FakeDiscord::start`].
pub const SERVER_LIFETIME: Duration = Duration::from_secs(15 * 60);
/// After this many REST calls every further call is refused with a 500.
pub const MAX_CALLS: usize = 100_000;
/// The most frames (in and out) one gateway connection handles before it is closed.
pub const MAX_FRAMES: usize = 1_000_000;
/// Discord's limit for the first answer to an interaction; a later callback gets 404
/// "Unknown interaction" (code 10062).
pub const CALLBACK_DEADLINE: Duration = Duration::from_secs(3);
/// How long an interaction token works for follow-ups and edits.
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(15 * 60);
/// The heartbeat interval sent in HELLO unless [`FakeDiscord::set_heartbeat_interval`] says
/// otherwise (Discord's is about 41 s; short here so that heartbeats are exercised).
pub const HEARTBEAT_INTERVAL: Duration = Duration::from_secs(1);
/// The most gateway connections one fake accepts over its lifetime.
const MAX_CONNECTIONS: usize = 1_000;
/// The most dispatches kept for RESUME, and the most events queued before the first IDENTIFY.
const MAX_REPLAY: usize = 10_000;
/// The largest request body accepted (Discord: 25 MiB per message).
const BODY_LIMIT: usize = 26 << 20;
/// The largest file (Discord's limit for bots without boosts).
const FILE_LIMIT: usize = 10 << 20;
/// How often [`FakeDiscord::wait_until`] checks its condition.
const WAIT_STEP: Duration = Duration::from_millis(10);

/// Gateway intents the fake honours (bit values as in Discord's docs).
const INTENT_GUILDS: u64 = 1 << 0;
const INTENT_GUILD_MESSAGES: u64 = 1 << 9;
const INTENT_DIRECT_MESSAGES: u64 = 1 << 12;
const INTENT_MESSAGE_CONTENT: u64 = 1 << 15;
/// The privileged intents: `GUILD_MEMBERS`, `GUILD_PRESENCES`, `MESSAGE_CONTENT`. A bot may
/// ask for one only where the application has it switched on in the Developer Portal.
const PRIVILEGED: u64 = (1 << 1) | (1 << 8) | INTENT_MESSAGE_CONTENT;

/// Message flags.
const FLAG_HAS_THREAD: u64 = 1 << 5;
const FLAG_EPHEMERAL: u64 = 1 << 6;
const FLAG_LOADING: u64 = 1 << 7;

/// A user who talks to the bot (a plain value: make one with [`FakeDiscord::user`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeUser {
    pub id: u64,
    /// The unique username (`username` in Discord's user object).
    pub name: String,
    /// The display name (`global_name`).
    pub global_name: Option<String>,
    /// The client's locale, sent as `locale` in the user's button presses (slash commands take
    /// theirs as a parameter).
    pub locale: String,
    pub bot: bool,
}

/// The value of one option of a slash command (see [`FakeDiscord::slash_command`]); the fake
/// checks it against the registered command's option of that name.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    String(String),
    Integer(i64),
    Number(f64),
    Boolean(bool),
    /// A user option: the id goes in `value`, the user (and, in a guild, the member) in
    /// `data.resolved`.
    User(FakeUser),
    /// A channel option (the channel must exist).
    Channel(u64),
    SubCommand(Vec<(String, OptionValue)>),
    SubCommandGroup(Vec<(String, OptionValue)>),
    /// The option being typed, for [`FakeDiscord::autocomplete`]: what the user typed so far.
    /// Its option must have `autocomplete: true`.
    Focused(String),
}

/// An injected failure: see [`FakeDiscord::fail_next`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// HTTP 429 with Discord's body `{"message": "You are being rate limited.", "retry_after":
    /// S, "global": false}` and headers `Retry-After` (whole seconds, rounded up),
    /// `X-RateLimit-Limit`, `-Remaining: 0`, `-Reset`, `-Reset-After`, `-Bucket`, `-Scope:
    /// user`.
    TooManyRequests { retry_after_ms: u64 },
    /// HTTP 500 `{"message": "500: Internal Server Error", "code": 0}`.
    ServerError,
    /// The call is carried out, but its answer is lost on the way back (Discord's edge times
    /// out, the connection drops): the client sees a 500 for a message that was created.
    AnswerLost,
}

/// One REST call the bot made.
#[derive(Clone, Debug)]
pub struct Call {
    /// The route's name, as [`FakeDiscord::fail_next`] takes it, e.g. `"create_message"`; see
    /// the table in the documentation of `fail_next`. `"unknown"` for a path the fake does not
    /// serve.
    pub route: String,
    /// `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
    pub method: String,
    /// The path after `/api/v10`, without the query, e.g. `/channels/1001/messages`.
    pub path: String,
    /// The query string (serenity writes `?&key=value`), empty if none.
    pub query: String,
    /// The JSON body, or the `payload_json` field of a multipart body; `Value::Null` when there
    /// is none or it could not be read.
    pub body: Value,
    /// The uploaded files of a multipart body: `(file name, size in bytes)` in part order.
    pub files: Vec<(String, usize)>,
    /// When the call arrived.
    pub time: Instant,
    /// The HTTP status it was answered with.
    pub status: u16,
    /// Whether it was answered with an injected [`Failure`].
    pub failed: bool,
    /// The error message it was answered with (`None`: it succeeded).
    pub error: Option<String>,
    /// For a 429 of its bucket: how long before the bucket's window ended it came.
    pub early: Option<Duration>,
}

/// A file attached to one of the bot's messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeAttachment {
    pub id: u64,
    pub filename: String,
    pub description: Option<String>,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// One of the bot's messages, in its current state after edits.
#[derive(Clone, Debug)]
pub struct SentMessage {
    pub id: u64,
    pub channel: u64,
    pub content: String,
    /// The embeds as Discord echoes them (with `"type": "rich"`).
    pub embeds: Vec<Value>,
    /// The components: rows of `(label, custom_id)`; a link button has its `url` in place of
    /// the custom id, a select menu its placeholder in place of the label.
    pub components: Vec<Vec<(String, String)>>,
    pub attachments: Vec<FakeAttachment>,
    /// The thread started from this message.
    pub thread: Option<u64>,
    /// The message this one replies to (`message_reference`).
    pub reply_to: Option<u64>,
    pub flags: u64,
    /// Only the user of the interaction sees it (`flags & 64`).
    pub ephemeral: bool,
    /// A deferred interaction response still "thinking" (`flags & 128`).
    pub loading: bool,
    /// The interaction this message answers (its original response or a follow-up).
    pub interaction: Option<u64>,
    pub sent_at: Instant,
    /// How many successful edits it had.
    pub edits: usize,
    /// The full message object as Discord returns it.
    pub json: Value,
}

/// A thread channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeThread {
    pub id: u64,
    pub parent: u64,
    pub name: String,
    /// 11: public, 12: private.
    pub kind: u8,
    /// The message it was started from (a thread from a message has the message's id).
    pub starter: Option<u64>,
    pub owner: u64,
    /// Minutes of inactivity after which it archives (60, 1440, 4320 or 10080).
    pub auto_archive: u64,
    pub archived: bool,
}

/// What an interaction was answered with.
#[derive(Clone, Debug)]
pub struct InteractionRecord {
    pub id: u64,
    /// 2: slash command, 3: component (button, select menu), 4: autocomplete.
    pub kind: u8,
    /// The command's name or the component's custom id.
    pub name: String,
    pub channel: u64,
    pub user: u64,
    pub created_at: Instant,
    /// When the first successful callback arrived.
    pub first_callback_at: Option<Instant>,
    /// The callback type: 4 message, 5 deferred message, 6 deferred update, 7 update message,
    /// 8 autocomplete result, 9 modal.
    pub response_type: Option<u8>,
    /// Callbacks refused: too late, or after the first.
    pub rejected_callbacks: usize,
    /// The original response in its current state: the message created by a type 4 or 5
    /// callback (edited by `PATCH .../messages/@original`), or for a type 6 or 7 callback the
    /// message the component was on.
    pub original: Option<SentMessage>,
    /// The follow-up messages in their current state (deleted ones are left out).
    pub followups: Vec<SentMessage>,
    /// The choices of an autocomplete result: `(name, value)`.
    pub choices: Vec<(String, Value)>,
    /// The `data` of a modal callback.
    pub modal: Option<Value>,
}

impl InteractionRecord {
    /// Whether the first callback came within `limit` of the interaction's creation.
    pub fn answered_within(&self, limit: Duration) -> bool {
        self.first_callback_at
            .is_some_and(|t| t.duration_since(self.created_at) <= limit)
    }

    /// Whether the original response is only visible to the user (ephemeral).
    pub fn ephemeral(&self) -> bool {
        self.original.as_ref().is_some_and(|m| m.ephemeral)
    }
}

/// A registered application command, as Discord stores it.
#[derive(Clone, Debug, PartialEq)]
pub struct RegisteredCommand {
    pub id: u64,
    /// `None`: a global command; otherwise its guild.
    pub guild: Option<u64>,
    /// 1: slash command, 2: user, 3: message, 4: an Activity's Entry Point.
    pub kind: u8,
    pub name: String,
    pub description: String,
    /// The options as sent (Discord's option objects).
    pub options: Value,
    pub name_localizations: BTreeMap<String, String>,
    pub description_localizations: BTreeMap<String, String>,
    /// 0: guild install, 1: user install.
    pub integration_types: Vec<u8>,
    /// 0: guild, 1: bot DM, 2: private channel; `None`: not given (all).
    pub contexts: Option<Vec<u8>>,
    /// The full command object.
    pub json: Value,
}

/// The fake server: see the module documentation.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    addr: SocketAddr,
    /// The HTTPS door in front of `addr` ([`FakeDiscord::https_addr`]).
    https: SocketAddr,
    /// Dropping it (with the `FakeDiscord`) shuts the HTTP server down.
    _stop: oneshot::Sender<()>,
    /// Dropping it closes the gateway connections.
    _shutdown: watch::Sender<()>,
}

struct Shared {
    inner: Mutex<Inner>,
    /// Its sender is in the `FakeDiscord`: `changed()` fails once that is dropped.
    shutdown: watch::Receiver<()>,
    /// When the server stops by itself (start + `SERVER_LIFETIME`): gateway connections end
    /// then too.
    deadline: tokio::time::Instant,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The whole state, behind one lock.
struct Inner {
    addr: SocketAddr,
    /// The last snowflake handed out.
    last_id: u64,
    /// When the bot joined the guild (ISO 8601).
    joined_at: String,
    calls: Vec<Call>,
    failures: Vec<FailRule>,
    users: BTreeMap<u64, FakeUser>,
    /// Guild members: user id -> when they joined.
    members: BTreeMap<u64, String>,
    /// Users who installed the app to their account.
    user_installs: BTreeSet<u64>,
    channels: BTreeMap<u64, Channel>,
    /// Uploaded files by attachment id.
    files: HashMap<u64, StoredFile>,
    interactions: BTreeMap<u64, Interaction>,
    /// Interaction token -> interaction id.
    tokens: HashMap<String, u64>,
    commands: Vec<Command>,
    gateway: GatewayState,
    /// Nonces of the bot's messages sent with `enforce_nonce`: (channel, message) and when.
    nonces: HashMap<String, (u64, u64, Instant)>,
    /// Permissions the bot is denied in a channel (its threads inherit them).
    denied: HashMap<u64, u64>,
    /// Members given Manage Server by a role of theirs (the server's moderators).
    managers: Vec<u64>,
    /// Rate-limit buckets and the global limit.
    limits: limits::Limits,
    /// The token was reset in the Developer Portal: `TOKEN` is refused from now on.
    token_reset: bool,
    /// When the bot was removed from the guild (kicked, or the server deleted): its
    /// channels answer 403 50001 "Missing Access" since, and a new session has no guild.
    removed: Option<Instant>,
    /// Installation Contexts → User Install is ticked in the Developer Portal.
    user_install: bool,
    /// The Activity's sign-ins: codes and access tokens.
    oauth: oauth::OAuth,
    /// Activities are switched on for the application (Developer Portal → Activities):
    /// only then is `LAUNCH_ACTIVITY` a response.
    activity: bool,
}

struct Channel {
    id: u64,
    kind: ChannelKind,
    name: String,
    position: usize,
    messages: Vec<Stored>,
    last_message_id: Option<u64>,
    created_at: String,
    /// Messages ever sent in it (a thread's `total_message_sent`).
    sent: u64,
    /// A thread: archived (its inactivity reached its `auto_archive_duration`).
    archived: bool,
    /// A thread: minutes since its last message ([`FakeDiscord::pass_minutes`]).
    idle_minutes: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ChannelKind {
    /// A guild text channel (type 0).
    Text,
    /// A thread (type 11 public, 12 private) in a text channel.
    Thread {
        parent: u64,
        kind: u8,
        owner: u64,
        starter: Option<u64>,
        auto_archive: u64,
    },
    /// The DM between a user and the bot (type 1).
    BotDm { user: u64 },
    /// A text channel of another guild, which the bot is not in: only a user-installed
    /// app's commands reach it (context 0, no guild install among the owners), and the bot
    /// can neither read nor post there.
    Foreign { guild: u64 },
    /// A DM or group DM between users, without the bot (type 1 or 3): only a user-installed
    /// app's commands reach it.
    Private { users: Vec<u64> },
}

/// A message in a channel, the users' or the bot's.
struct Stored {
    id: u64,
    /// The full message object as the REST API returns it (no `guild_id`, no `member`).
    json: Value,
    /// For the bot's own messages.
    bot: Option<BotMeta>,
}

struct BotMeta {
    sent_at: Instant,
    edits: usize,
    interaction: Option<u64>,
}

struct StoredFile {
    filename: String,
    content_type: String,
    bytes: Vec<u8>,
}

struct Interaction {
    id: u64,
    token: String,
    kind: u8,
    name: String,
    channel: u64,
    user: u64,
    created_at: Instant,
    /// For components: the message the component is on.
    component_message: Option<u64>,
    first_callback_at: Option<Instant>,
    response_type: Option<u8>,
    rejected: usize,
    original: Option<u64>,
    followups: Vec<u64>,
    choices: Vec<(String, Value)>,
    modal: Option<Value>,
    /// The `type` of the messages it creates (20 for slash commands, else 0).
    message_type: u8,
}

struct Command {
    id: u64,
    guild: Option<u64>,
    json: Value,
}

struct FailRule {
    remaining: usize,
    routes: Vec<String>,
    kind: Failure,
}

#[derive(Default)]
struct GatewayState {
    heartbeat_interval_ms: u64,
    connections: usize,
    /// The shards `GET /gateway/bot` recommends ([`FakeDiscord::set_shard_count`]).
    shard_count: u64,
    /// The shard total the client identified with (guilds are spread by it).
    total: u64,
    /// By shard id: the connection that identified or resumed last and is still open.
    live: BTreeMap<u64, Live>,
    /// By shard id: its session.
    session: BTreeMap<u64, Session>,
    /// By shard id: events dispatched before that shard's first IDENTIFY, delivered after
    /// its READY.
    pending: BTreeMap<u64, Vec<(String, Value)>>,
    /// The `[id, total]` of every IDENTIFY accepted, in order.
    identified: Vec<[u64; 2]>,
    /// Every event dispatched: `(name, data)`.
    events: Vec<(String, Value)>,
    identify_count: usize,
    /// The close codes of IDENTIFYs refused (a shard that does not exist, bad intents).
    refused: Vec<u16>,
    resume_count: usize,
    heartbeat_count: usize,
    invalid_sessions: usize,
    intents: Option<u64>,
    /// The privileged intents switched on for the application (Discord's default: none).
    granted: u64,
    /// The query string of the last gateway connection.
    last_query: String,
}

struct Live {
    conn: usize,
    tx: mpsc::UnboundedSender<Out>,
}

struct Session {
    id: String,
    seq: u64,
    /// The frames sent in this session by sequence number, for RESUME.
    log: std::collections::VecDeque<(u64, String)>,
}

/// What a gateway connection's task is told to do.
enum Out {
    Frame(String),
    Close(u16, String),
}

impl FakeDiscord {
    /// The bot token. `Authorization: Bot <TOKEN>` is required on every route except the
    /// interaction callback and the interaction webhooks.
    pub const TOKEN: &'static str = "FAKE-DISCORD-BOT-TOKEN";
    /// The application's id; as on Discord, the bot user has the same id.
    pub const APP_ID: u64 = 900_000_000_000_000_001;
    pub const BOT_ID: u64 = Self::APP_ID;
    pub const BOT_NAME: &'static str = "ugolki-test";
    /// The one guild the bot is in; `(1001 << 22) + 1000` puts it on shard 1 of 2 (see
    /// [`FakeDiscord::set_shard_count`]).
    pub const GUILD_ID: u64 = (1001 << 22) + 1000;
    pub const GUILD_NAME: &'static str = "Ugolki Test Guild";
    /// A guild the bot is not in ([`Self::foreign_channel`]).
    pub const FOREIGN_GUILD_ID: u64 = 2000;
    /// The guild's text channel `#general`.
    pub const CHANNEL_ID: u64 = 1001;
    /// The guild's text channel `#games`.
    pub const OTHER_CHANNEL_ID: u64 = 1002;
    /// The guild's owner and the application's owner (user `owner`).
    pub const OWNER_ID: u64 = 10;
    /// The bot's managed role.
    pub const BOT_ROLE_ID: u64 = 1003;

    /// Bind `127.0.0.1:0` and spawn the server on the current tokio runtime.
    pub async fn start() -> FakeDiscord {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local address");
        let (shutdown_tx, shutdown_rx) = watch::channel(());
        let shared = Arc::new(Shared {
            inner: Mutex::new(Inner::new(addr)),
            shutdown: shutdown_rx,
            deadline: tokio::time::Instant::now() + SERVER_LIFETIME,
        });
        let app = Router::new()
            .route("/gateway", get(gateway::upgrade))
            .fallback(rest::handle)
            .with_state(Arc::clone(&shared))
            .layer(DefaultBodyLimit::max(BODY_LIMIT));
        let (stop, stopped) = oneshot::channel::<()>();
        tokio::spawn(async move {
            // Dropping the FakeDiscord drops `stop`: the server stops accepting, lets the calls
            // under way finish and ends (gateway connections end on `_shutdown`). It also ends
            // by itself after SERVER_LIFETIME.
            let serve = axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = stopped.await;
                })
                .into_future();
            let _ = tokio::time::timeout(SERVER_LIFETIME, serve).await;
        });
        let https = tls::open(addr, SERVER_LIFETIME).await;
        FakeDiscord {
            shared,
            addr,
            https,
            _stop: stop,
            _shutdown: shutdown_tx,
        }
    }

    /// `http://127.0.0.1:PORT`: what to give `HttpBuilder::proxy` (serenity replaces
    /// `https://discord.com` with it, so REST calls arrive as `/api/v10/...`).
    pub fn api_base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `ws://127.0.0.1:PORT/gateway`: the `url` of `GET /gateway` and `GET /gateway/bot`, and
    /// READY's `resume_gateway_url`.
    pub fn gateway_url(&self) -> String {
        format!("ws://{}/gateway", self.addr)
    }

    /// The HTTPS door: where `discord.com` is to resolve for a client that trusts
    /// [`CA_DER`], so that it takes production's path (serenity's ratelimiter on, every URL
    /// on `https://discord.com`). See [`FakeDiscord::http`].
    pub fn https_addr(&self) -> SocketAddr {
        self.https
    }

    /// A serenity client of the fake as production has it: `https://discord.com` resolved to
    /// the HTTPS door, serenity's ratelimiter on.
    pub fn http(&self, token: &str) -> serenity::http::Http {
        serenity::http::HttpBuilder::new(token)
            .client(ugolki_bots::discord::client_for(Some(&self.api_at())))
            .build()
    }

    /// The bot's option that takes it to the HTTPS door (`DISCORD_API_ADDR`,
    /// `DISCORD_API_CA`).
    pub fn api_at(&self) -> ugolki_bots::discord::ApiAt {
        ugolki_bots::discord::ApiAt {
            addr: self.https,
            ca_der: CA_DER.to_vec(),
        }
    }

    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// A user (not a bot) with locale `en-US`.
    pub fn user(id: u64, name: &str) -> FakeUser {
        FakeUser {
            id,
            name: name.to_owned(),
            global_name: None,
            locale: "en-US".to_owned(),
            bot: false,
        }
    }

    /// The bot's own user (to mention it in [`Self::message_create`]).
    pub fn bot_user() -> FakeUser {
        FakeUser {
            id: Self::BOT_ID,
            name: Self::BOT_NAME.to_owned(),
            global_name: None,
            locale: "en-US".to_owned(),
            bot: true,
        }
    }

    /// The heartbeat interval for connections opened from now on (default
    /// [`HEARTBEAT_INTERVAL`]).
    pub fn set_heartbeat_interval(&self, interval: Duration) {
        let ms = u64::try_from(interval.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        self.lock().gateway.heartbeat_interval_ms = ms;
    }

    /// Add a text channel to the guild (a `CHANNEL_CREATE` is dispatched); returns its id.
    pub fn add_text_channel(&self, name: &str) -> u64 {
        let mut inner = self.lock();
        let id = inner.next_id();
        let position = inner.channels.len();
        let created_at = model::iso_now();
        inner.channels.insert(
            id,
            Channel::new(id, ChannelKind::Text, name, position, created_at),
        );
        let json = inner.channel_json(id, true);
        inner.dispatch("CHANNEL_CREATE", json);
        id
    }

    /// The DM channel between `user` and the bot (created on first use, as `POST
    /// /users/@me/channels` does).
    pub fn dm_channel(&self, user: &FakeUser) -> u64 {
        let mut inner = self.lock();
        inner.register_user(user);
        inner.dm_channel(user.id)
    }

    /// A DM (two users) or group DM (more) between `users`, without the bot: the bot cannot
    /// post there, but a user who installed the app ([`Self::install_for_user`]) can use its
    /// commands there (interaction context 2).
    pub fn private_channel(&self, users: &[&FakeUser]) -> u64 {
        assert!(!users.is_empty(), "a private channel needs users");
        let mut inner = self.lock();
        for user in users {
            inner.register_user(user);
        }
        let id = inner.next_id();
        let names: Vec<&str> = users.iter().map(|u| u.name.as_str()).collect();
        let kind = ChannelKind::Private {
            users: users.iter().map(|u| u.id).collect(),
        };
        let created_at = model::iso_now();
        inner
            .channels
            .insert(id, Channel::new(id, kind, &names.join(", "), 0, created_at));
        id
    }

    /// A guild the bot is not in (only users may have installed the app): the id of
    /// a text channel there ([`ChannelKind::Foreign`]).
    pub fn foreign_channel(&self, name: &str) -> u64 {
        let mut inner = self.lock();
        let id = inner.next_id();
        let kind = ChannelKind::Foreign {
            guild: Self::FOREIGN_GUILD_ID,
        };
        inner
            .channels
            .insert(id, Channel::new(id, kind, name, 0, model::iso_now()));
        id
    }

    /// A person (its author, or a moderator) deletes message `id` of `channel`: a
    /// `MESSAGE_DELETE` is dispatched, and a reply to it from now on finds it gone.
    pub fn delete_message(&self, channel: u64, id: u64) {
        self.lock().user_deletes(channel, id);
    }

    /// `user` installs the app to their account (user install): their interactions in DMs
    /// carry `authorizing_integration_owners: {"1": user}`.
    pub fn install_for_user(&self, user: &FakeUser) {
        let mut inner = self.lock();
        inner.register_user(user);
        inner.user_installs.insert(user.id);
    }

    /// Every REST call, in arrival order.
    pub fn calls(&self) -> Vec<Call> {
        self.lock().calls.clone()
    }

    /// The refused calls of [`Self::rate_limited`] that overran their limit by more than a
    /// clock's edge: a global 429, or a bucket's that came more than `edge` before its
    /// window ended. A client that waits for the reset the headers name makes none; one
    /// that does not wait comes seconds early. (serenity keeps its resets by the wall
    /// clock, so an arrival at a window's very end may fall a hair inside it.)
    pub fn overran(&self, edge: Duration) -> Vec<Call> {
        self.rate_limited()
            .into_iter()
            .filter(|c| c.early.is_none_or(|e| e > edge))
            .collect()
    }

    /// The calls refused with a 429 because they overran their bucket or the global limit
    /// (not the injected ones): a client that limits itself as Discord asks makes none.
    pub fn rate_limited(&self) -> Vec<Call> {
        let inner = self.lock();
        inner
            .calls
            .iter()
            .filter(|c| c.status == 429 && !c.failed)
            .cloned()
            .collect()
    }

    /// The bot's messages in `channel` (a text channel, thread or DM), in order, in their
    /// current state; deleted ones are left out, ephemeral ones are included (with
    /// `ephemeral: true`).
    pub fn messages(&self, channel: u64) -> Vec<SentMessage> {
        let inner = self.lock();
        inner.channels.get(&channel).map_or_else(Vec::new, |c| {
            c.messages
                .iter()
                .filter(|m| m.bot.is_some())
                .map(|m| inner.sent_message(channel, m))
                .collect()
        })
    }

    /// One message of the bot, by channel and id.
    pub fn message(&self, channel: u64, id: u64) -> Option<SentMessage> {
        let inner = self.lock();
        let stored = inner.stored(channel, id)?;
        stored.bot.as_ref()?;
        Some(inner.sent_message(channel, stored))
    }

    /// The threads, in creation order.
    /// Permission bits, as Discord numbers them.
    pub const SEND_MESSAGES: u64 = model::SEND_MESSAGES;
    pub const EMBED_LINKS: u64 = model::EMBED_LINKS;
    pub const ATTACH_FILES: u64 = model::ATTACH_FILES;
    pub const CREATE_PUBLIC_THREADS: u64 = model::CREATE_PUBLIC_THREADS;
    pub const SEND_MESSAGES_IN_THREADS: u64 = model::SEND_MESSAGES_IN_THREADS;

    /// A server admin takes `permissions` from the bot in `channel` (and its threads): the
    /// interactions there say so in `app_permissions`, and calls that need them are answered
    /// 403 50013 "Missing Permissions".
    pub fn make_manager(&self, user: &FakeUser) {
        self.lock().managers.push(user.id);
    }

    pub fn deny_bot(&self, channel: u64, permissions: u64) {
        *self.lock().denied.entry(channel).or_default() |= permissions;
    }

    /// A server admin removes the bot from the guild (kicks it): `GUILD_DELETE` without
    /// `unavailable`, as Discord tells a removal apart from an outage; from now on every
    /// call for the guild or one of its channels is answered 403 50001 "Missing Access",
    /// and a new session's READY lists no guild.
    pub fn remove_bot(&self) {
        let mut inner = self.lock();
        inner.removed = Some(Instant::now());
        inner.dispatch(
            "GUILD_DELETE",
            json!({"id": FakeDiscord::GUILD_ID.to_string()}),
        );
    }

    /// `minutes` pass for the threads: each archives once that long has passed since its
    /// last message reaches its `auto_archive_duration`, as Discord archives inactive
    /// threads. An archived thread takes no edit (400, 50083 "Thread is archived"); a new
    /// message, or `PATCH` with `archived: false`, unarchives it.
    /// Each thread archived (or unarchived) is sent as `THREAD_UPDATE`, as Discord sends it.
    pub fn pass_minutes(&self, minutes: u64) {
        let mut inner = self.lock();
        let mut archived = Vec::new();
        for c in inner.channels.values_mut() {
            if let ChannelKind::Thread { auto_archive, .. } = c.kind {
                c.idle_minutes += minutes;
                if c.idle_minutes >= auto_archive && !c.archived {
                    c.archived = true;
                    archived.push(c.id);
                }
            }
        }
        for id in archived {
            inner.thread_updated(id);
        }
    }

    /// A public thread in `parent` started by a user (not the bot), sent as
    /// `THREAD_CREATE`; its id.
    pub fn user_thread(&self, parent: u64, owner: &FakeUser, name: &str) -> u64 {
        let mut inner = self.lock();
        inner.register_user(owner);
        let id = inner.next_id();
        let position = inner.channels.len();
        let kind = ChannelKind::Thread {
            parent,
            kind: 11,
            owner: owner.id,
            starter: None,
            auto_archive: 1440,
        };
        let thread = Channel::new(id, kind, name, position, model::iso_now());
        inner.channels.insert(id, thread);
        let mut event = inner.channel_json(id, true);
        event["newly_created"] = true.into();
        inner.dispatch("THREAD_CREATE", event);
        id
    }

    pub fn threads(&self) -> Vec<FakeThread> {
        let inner = self.lock();
        let mut threads: Vec<FakeThread> = inner
            .channels
            .values()
            .filter_map(|c| match &c.kind {
                ChannelKind::Thread {
                    parent,
                    kind,
                    owner,
                    starter,
                    auto_archive,
                } => Some(FakeThread {
                    id: c.id,
                    parent: *parent,
                    name: c.name.clone(),
                    kind: *kind,
                    starter: *starter,
                    owner: *owner,
                    auto_archive: *auto_archive,
                    archived: c.archived,
                }),
                _ => None,
            })
            .collect();
        threads.sort_by_key(|t| t.id);
        threads
    }

    /// Interaction `id`'s token, as its `INTERACTION_CREATE` carried it (to answer it from
    /// a test's own client).
    pub fn interaction_token(&self, id: u64) -> Option<String> {
        self.lock().interactions.get(&id).map(|i| i.token.clone())
    }

    /// What interaction `id` was answered with (`None`: no such interaction).
    pub fn interaction(&self, id: u64) -> Option<InteractionRecord> {
        let inner = self.lock();
        let i = inner.interactions.get(&id)?;
        let message = |mid: u64| {
            let stored = inner.stored(i.channel, mid)?;
            Some(inner.sent_message(i.channel, stored))
        };
        Some(InteractionRecord {
            id: i.id,
            kind: i.kind,
            name: i.name.clone(),
            channel: i.channel,
            user: i.user,
            created_at: i.created_at,
            first_callback_at: i.first_callback_at,
            response_type: i.response_type,
            rejected_callbacks: i.rejected,
            original: i.original.and_then(message),
            followups: i.followups.iter().filter_map(|&m| message(m)).collect(),
            choices: i.choices.clone(),
            modal: i.modal.clone(),
        })
    }

    /// The registered commands, global ones and guild ones, in registration order.
    pub fn commands(&self) -> Vec<RegisteredCommand> {
        self.lock()
            .commands
            .iter()
            .map(|c| model::registered(c.id, c.guild, &c.json))
            .collect()
    }

    /// Every gateway event dispatched so far (injected or caused by the bot's calls), as
    /// `(name, data)`, in order; events filtered out by the client's intents are included.
    pub fn events(&self) -> Vec<(String, Value)> {
        self.lock().gateway.events.clone()
    }

    /// Set the bucket of `route` (by its [`Call::route`] name) to `limit` requests per
    /// `per`, instead of Discord's (see `limits.rs`); tests shorten windows with it.
    pub fn set_route_limit(&self, route: &str, limit: u32, per: Duration) {
        self.lock().limits.set(route, Some(Limit { limit, per }));
    }

    /// Set the global limit (Discord's: [`GLOBAL_PER_SECOND`] requests a second).
    pub fn set_global_limit(&self, per_second: u32) {
        self.lock().limits.global_per_second = per_second;
    }

    /// Answer the next `n` calls whose route is in `routes` with `kind` instead of carrying
    /// them out (nothing is stored for them). An empty `routes` matches every route except
    /// `get_gateway` and `get_gateway_bot`. Several rules may be pending; the oldest matching
    /// one is used.
    ///
    /// Routes (paths after `/api/v10`): `get_gateway` (GET /gateway), `get_gateway_bot`,
    /// `get_current_user` (GET /users/@me), `get_user`, `create_dm` (POST
    /// /users/@me/channels), `get_current_application` (GET /oauth2/applications/@me),
    /// `get_channel`, `get_messages`, `create_message` (POST /channels/{c}/messages),
    /// `get_message`, `edit_message`, `delete_message`, `typing`,
    /// `create_thread_from_message` (POST /channels/{c}/messages/{m}/threads),
    /// `create_thread` (POST /channels/{c}/threads), `get_guild`, `get_guild_channels`,
    /// `get_member`, `set_commands` (PUT /applications/{a}[/guilds/{g}]/commands),
    /// `create_command`, `get_commands`, `get_command`, `edit_command`, `delete_command`,
    /// `interaction_callback` (POST /interactions/{i}/{token}/callback), `create_followup`
    /// (POST /webhooks/{a}/{token}), `get_original`, `edit_original`, `delete_original`
    /// (.../messages/@original), `get_followup`, `edit_followup`, `delete_followup`.
    ///
    /// # Panics
    /// If `routes` names `get_gateway`: serenity would then fall back to the real Discord's
    /// gateway address.
    pub fn fail_next(&self, n: usize, routes: &[&str], kind: Failure) {
        assert!(
            !routes.contains(&"get_gateway"),
            "a failed GET /gateway sends serenity to wss://gateway.discord.gg"
        );
        if n == 0 {
            return;
        }
        self.lock().failures.push(FailRule {
            remaining: n,
            routes: routes.iter().map(|r| (*r).to_owned()).collect(),
            kind,
        });
    }

    /// Send `event` (e.g. `"MESSAGE_CREATE"`) with `data` to the connected shard. While the
    /// shard is disconnected the event is kept and replayed on RESUME; before the first
    /// IDENTIFY it is queued and sent after READY and `GUILD_CREATE`. Message events are
    /// filtered by the client's intents as Discord does.
    pub fn dispatch(&self, event: &str, data: Value) {
        self.lock().dispatch(event, data);
    }

    /// Close every gateway connection with code 4000 (serenity reconnects and RESUMEs).
    /// Returns whether a connection was open.
    pub fn disconnect(&self) -> bool {
        let mut inner = self.lock();
        let live = std::mem::take(&mut inner.gateway.live);
        for l in live.values() {
            let _ = l.tx.send(Out::Close(4000, "Fake disconnect".to_owned()));
        }
        !live.is_empty()
    }

    /// Reset the bot's token, as in the Developer Portal (Bot → Reset Token): `TOKEN` is
    /// refused from now on, with 401 on the HTTP API and close code 4004 on an IDENTIFY or
    /// RESUME; the sessions it opened are disconnected (4000, so the client tries again and
    /// meets the 4004).
    pub fn reset_token(&self) {
        let mut inner = self.lock();
        inner.token_reset = true;
        for l in std::mem::take(&mut inner.gateway.live).values() {
            let _ =
                l.tx.send(Out::Close(4000, "Session invalidated".to_owned()));
        }
    }

    /// Whether the guild's shard is connected and identified (or resumed).
    pub fn connected(&self) -> bool {
        let inner = self.lock();
        let shard = inner.shard_of_guild(Self::GUILD_ID);
        inner.gateway.live.contains_key(&shard)
    }

    /// Recommend `n` shards in `GET /gateway/bot` (Discord's default here: 1). Guilds are
    /// spread over the shards a client identifies with as Discord spreads them,
    /// `(guild_id >> 22) % total`, and DMs go to shard 0; [`FakeDiscord::GUILD_ID`] is on
    /// shard 1 of 2.
    pub fn set_shard_count(&self, n: u64) {
        self.lock().gateway.shard_count = n.max(1);
    }

    /// The `[id, total]` of every IDENTIFY accepted, in order.
    pub fn identified_shards(&self) -> Vec<[u64; 2]> {
        self.lock().gateway.identified.clone()
    }

    /// How many IDENTIFYs were accepted.
    pub fn identify_count(&self) -> usize {
        self.lock().gateway.identify_count
    }

    /// The close codes the IDENTIFYs refused were answered with, in order.
    pub fn refused_identifies(&self) -> Vec<u16> {
        self.lock().gateway.refused.clone()
    }

    /// How many RESUMEs were accepted.
    pub fn resume_count(&self) -> usize {
        self.lock().gateway.resume_count
    }

    /// How many heartbeats were acknowledged.
    pub fn heartbeat_count(&self) -> usize {
        self.lock().gateway.heartbeat_count
    }

    /// How many RESUMEs were refused with `INVALID_SESSION`.
    pub fn invalid_session_count(&self) -> usize {
        self.lock().gateway.invalid_sessions
    }

    /// The `MESSAGE_CONTENT` intent's bit.
    pub const INTENT_MESSAGE_CONTENT: u64 = INTENT_MESSAGE_CONTENT;

    /// Switch privileged intents on for the application, as in the Developer Portal (Bot →
    /// Privileged Gateway Intents). Without them, an IDENTIFY asking for one is closed with
    /// 4014 "Disallowed intent(s)".
    pub fn grant_intents(&self, intents: u64) {
        self.lock().gateway.granted |= intents & PRIVILEGED;
    }

    /// Tick or untick User Install in the Developer Portal (Installation → Installation
    /// Contexts); Guild Install is always ticked. The application's
    /// `integration_types_config` says so.
    pub fn set_user_install(&self, on: bool) {
        self.lock().user_install = on;
    }

    /// The intents of the last IDENTIFY.
    pub fn intents(&self) -> Option<u64> {
        self.lock().gateway.intents
    }

    /// The query string of the last gateway connection (serenity: `v=10`).
    pub fn gateway_query(&self) -> String {
        self.lock().gateway.last_query.clone()
    }

    /// Check `f` every 10 ms until it is true or `timeout` passes; whether it became true.
    pub async fn wait_until(&self, timeout: Duration, f: impl Fn(&FakeDiscord) -> bool) -> bool {
        let deadline = Instant::now() + timeout;
        let max_checks = timeout.as_millis() / WAIT_STEP.as_millis() + 2;
        for _ in 0..max_checks {
            if f(self) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(WAIT_STEP.min(deadline.saturating_duration_since(Instant::now())))
                .await;
        }
        f(self)
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.shared.lock()
    }
}

impl Channel {
    fn new(id: u64, kind: ChannelKind, name: &str, position: usize, created_at: String) -> Self {
        Channel {
            id,
            kind,
            name: name.to_owned(),
            position,
            messages: Vec::new(),
            last_message_id: None,
            created_at,
            sent: 0,
            archived: false,
            idle_minutes: 0,
        }
    }

    /// Discord's channel type.
    fn type_code(&self) -> u8 {
        match &self.kind {
            ChannelKind::Text | ChannelKind::Foreign { .. } => 0,
            ChannelKind::Thread { kind, .. } => *kind,
            ChannelKind::BotDm { .. } => 1,
            ChannelKind::Private { users } => {
                if users.len() <= 2 {
                    1
                } else {
                    3
                }
            }
        }
    }

    /// Whether it belongs to the guild (a text channel or a thread).
    fn in_guild(&self) -> bool {
        matches!(self.kind, ChannelKind::Text | ChannelKind::Thread { .. })
    }
}

impl Inner {
    /// The bot's permissions in `channel`: its role's, less what the channel (a thread: its
    /// parent) denies it.
    fn bot_permissions(&self, channel: u64) -> u64 {
        let at = match self.channels.get(&channel).map(|c| &c.kind) {
            Some(ChannelKind::Thread { parent, .. }) => *parent,
            _ => channel,
        };
        model::BOT_PERMISSIONS & !self.denied.get(&at).copied().unwrap_or(0)
    }

    /// 403 50013 "Missing Permissions" unless the bot has all of `needed` in `channel`.
    fn require(&self, channel: u64, needed: u64) -> Result<(), model::ApiFail> {
        let in_guild = self.channels.get(&channel).is_some_and(Channel::in_guild);
        if in_guild && self.bot_permissions(channel) & needed != needed {
            return Err(model::ApiFail::new(403, 50_013, "Missing Permissions"));
        }
        Ok(())
    }

    fn new(addr: SocketAddr) -> Inner {
        let joined_at = model::iso_now();
        let mut inner = Inner {
            addr,
            last_id: 0,
            joined_at: joined_at.clone(),
            calls: Vec::new(),
            failures: Vec::new(),
            users: BTreeMap::new(),
            members: BTreeMap::new(),
            user_installs: BTreeSet::new(),
            channels: BTreeMap::new(),
            files: HashMap::new(),
            interactions: BTreeMap::new(),
            tokens: HashMap::new(),
            commands: Vec::new(),
            nonces: HashMap::new(),
            denied: HashMap::new(),
            managers: Vec::new(),
            limits: limits::Limits::default(),
            token_reset: false,
            removed: None,
            user_install: true,
            oauth: oauth::OAuth::default(),
            activity: false,
            gateway: GatewayState {
                heartbeat_interval_ms: u64::try_from(HEARTBEAT_INTERVAL.as_millis())
                    .unwrap_or(1000),
                shard_count: 1,
                total: 1,
                ..GatewayState::default()
            },
        };
        let owner = FakeDiscord::user(FakeDiscord::OWNER_ID, "owner");
        inner.register_user(&FakeDiscord::bot_user());
        inner.register_user(&owner);
        inner.members.insert(FakeDiscord::BOT_ID, joined_at.clone());
        inner
            .members
            .insert(FakeDiscord::OWNER_ID, joined_at.clone());
        for (position, (id, name)) in [
            (FakeDiscord::CHANNEL_ID, "general"),
            (FakeDiscord::OTHER_CHANNEL_ID, "games"),
        ]
        .into_iter()
        .enumerate()
        {
            let channel = Channel::new(id, ChannelKind::Text, name, position, joined_at.clone());
            inner.channels.insert(id, channel);
        }
        inner
    }

    /// A new snowflake: milliseconds since Discord's epoch in the high bits, increasing.
    fn next_id(&mut self) -> u64 {
        let ms = model::unix_ms().saturating_sub(model::DISCORD_EPOCH_MS);
        self.last_id = (ms << 22).max(self.last_id + 1);
        self.last_id
    }

    fn register_user(&mut self, user: &FakeUser) {
        self.users.insert(user.id, user.clone());
    }

    /// Make `user` a guild member (joined now) if they are not one yet.
    fn add_member(&mut self, user: u64) {
        self.members.entry(user).or_insert_with(model::iso_now);
    }

    fn dm_channel(&mut self, user: u64) -> u64 {
        let existing = self
            .channels
            .values()
            .find(|c| c.kind == ChannelKind::BotDm { user })
            .map(|c| c.id);
        existing.unwrap_or_else(|| {
            let id = self.next_id();
            let name = self
                .users
                .get(&user)
                .map(|u| u.name.clone())
                .unwrap_or_default();
            let created_at = model::iso_now();
            self.channels.insert(
                id,
                Channel::new(id, ChannelKind::BotDm { user }, &name, 0, created_at),
            );
            id
        })
    }

    fn stored(&self, channel: u64, id: u64) -> Option<&Stored> {
        self.channels
            .get(&channel)?
            .messages
            .iter()
            .find(|m| m.id == id)
    }

    fn stored_mut(&mut self, channel: u64, id: u64) -> Option<&mut Stored> {
        self.channels
            .get_mut(&channel)?
            .messages
            .iter_mut()
            .find(|m| m.id == id)
    }

    /// The public view of a stored message.
    fn sent_message(&self, channel: u64, stored: &Stored) -> SentMessage {
        let json = &stored.json;
        let flags = json["flags"].as_u64().unwrap_or(0);
        let attachments = json["attachments"]
            .as_array()
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .filter_map(|a| {
                let id = model::id_of(&a["id"])?;
                let file = self.files.get(&id)?;
                Some(FakeAttachment {
                    id,
                    filename: file.filename.clone(),
                    description: a["description"].as_str().map(str::to_owned),
                    content_type: file.content_type.clone(),
                    bytes: file.bytes.clone(),
                })
            })
            .collect();
        let thread = (flags & FLAG_HAS_THREAD != 0)
            .then_some(stored.id)
            .filter(|id| self.channels.contains_key(id));
        let meta = stored.bot.as_ref();
        SentMessage {
            id: stored.id,
            channel,
            content: json["content"].as_str().unwrap_or_default().to_owned(),
            embeds: json["embeds"].as_array().cloned().unwrap_or_default(),
            components: model::component_rows(&json["components"]),
            attachments,
            thread,
            reply_to: json["message_reference"]["message_id"]
                .as_str()
                .and_then(|s| s.parse().ok()),
            flags,
            ephemeral: flags & FLAG_EPHEMERAL != 0,
            loading: flags & FLAG_LOADING != 0,
            interaction: meta.and_then(|m| m.interaction),
            sent_at: meta.map_or_else(Instant::now, |m| m.sent_at),
            edits: meta.map_or(0, |m| m.edits),
            json: json.clone(),
        }
    }

    /// A thread's state changed (archived, unarchived, its duration): `THREAD_UPDATE`.
    fn thread_updated(&mut self, id: u64) {
        let json = self.channel_json(id, true);
        self.dispatch("THREAD_UPDATE", json);
    }

    /// The shard a guild's events go to.
    fn shard_of_guild(&self, guild: u64) -> u64 {
        (guild >> 22) % self.gateway.total.max(1)
    }

    /// The shard an event goes to: its guild's, or shard 0 for DMs and the rest.
    fn shard_of_event(&self, name: &str, data: &Value) -> u64 {
        let id = |v: &Value| v.as_str().and_then(|s| s.parse::<u64>().ok());
        let guild = id(&data["guild_id"]).or_else(|| {
            name.starts_with("GUILD_")
                .then(|| id(&data["id"]))
                .flatten()
        });
        guild.map_or(0, |g| self.shard_of_guild(g))
    }

    /// Dispatch a gateway event to its shard: numbered and sent to the live connection,
    /// kept for RESUME while disconnected, queued before the shard's first IDENTIFY.
    fn dispatch(&mut self, name: &str, data: Value) {
        if self.gateway.events.len() < MAX_CALLS {
            self.gateway.events.push((name.to_owned(), data.clone()));
        }
        let shard = self.shard_of_event(name, &data);
        if !self.gateway.session.contains_key(&shard) {
            let pending = self.gateway.pending.entry(shard).or_default();
            if pending.len() < MAX_REPLAY {
                pending.push((name.to_owned(), data));
            }
            return;
        }
        let Some(data) = self.filter_by_intents(name, data) else {
            return;
        };
        self.send_dispatch(shard, name, &data);
    }

    /// Number a dispatch in `shard`'s session, log it and send it to its live connection.
    fn send_dispatch(&mut self, shard: u64, name: &str, data: &Value) {
        let Some(session) = self.gateway.session.get_mut(&shard) else {
            return;
        };
        session.seq += 1;
        let seq = session.seq;
        let frame = json!({"op": 0, "t": name, "s": seq, "d": data}).to_string();
        if session.log.len() >= MAX_REPLAY {
            session.log.pop_front();
        }
        session.log.push_back((seq, frame.clone()));
        if let Some(live) = self.gateway.live.get(&shard) {
            let _ = live.tx.send(Out::Frame(frame));
        }
    }

    /// Drop message events the client's intents exclude; blank the content of guild messages
    /// for a client without `MESSAGE_CONTENT` unless the bot wrote them or is mentioned.
    fn filter_by_intents(&self, name: &str, mut data: Value) -> Option<Value> {
        let intents = self.gateway.intents.unwrap_or(u64::MAX);
        let in_guild = data.get("guild_id").is_some_and(|g| !g.is_null());
        match name {
            "MESSAGE_CREATE" | "MESSAGE_UPDATE" | "MESSAGE_DELETE" => {
                let needed = if in_guild {
                    INTENT_GUILD_MESSAGES
                } else {
                    INTENT_DIRECT_MESSAGES
                };
                if intents & needed == 0 {
                    return None;
                }
                let bot = FakeDiscord::BOT_ID.to_string();
                let own = data["author"]["id"].as_str() == Some(bot.as_str());
                let mentioned = data["mentions"]
                    .as_array()
                    .is_some_and(|m| m.iter().any(|u| u["id"].as_str() == Some(bot.as_str())));
                if in_guild && intents & INTENT_MESSAGE_CONTENT == 0 && !own && !mentioned {
                    if let Some(o) = data.as_object_mut() {
                        if o.contains_key("content") {
                            o.insert("content".into(), "".into());
                        }
                        for key in ["embeds", "attachments", "components"] {
                            if o.contains_key(key) {
                                o.insert(key.into(), json!([]));
                            }
                        }
                        o.remove("poll");
                    }
                }
                Some(data)
            }
            "CHANNEL_CREATE" | "CHANNEL_UPDATE" | "CHANNEL_DELETE" | "THREAD_CREATE"
            | "THREAD_UPDATE" | "THREAD_DELETE" => (intents & INTENT_GUILDS != 0).then_some(data),
            _ => Some(data),
        }
    }

    /// Dispatch a message event for a message of a channel the bot is in (not for ephemeral
    /// messages, nor in private channels): `guild_id` and, for a creation, the author's
    /// `member` are added in guild channels.
    fn echo_message(&mut self, name: &str, channel: u64, message: &Value) {
        let Some(c) = self.channels.get(&channel) else {
            return;
        };
        if matches!(
            c.kind,
            ChannelKind::Private { .. } | ChannelKind::Foreign { .. }
        ) || message["flags"].as_u64().unwrap_or(0) & FLAG_EPHEMERAL != 0
        {
            return;
        }
        let mut data = message.clone();
        if c.in_guild() {
            data["guild_id"] = FakeDiscord::GUILD_ID.to_string().into();
            if name == "MESSAGE_CREATE" {
                let author = model::id_of(&data["author"]["id"]).unwrap_or_default();
                if let Some(joined) = self.members.get(&author) {
                    data["member"] = model::member_json(joined, &Inner::member_roles(author), None);
                }
            }
        }
        self.dispatch(name, data);
    }

    fn member_roles(user: u64) -> Vec<u64> {
        if user == FakeDiscord::BOT_ID {
            vec![FakeDiscord::BOT_ROLE_ID]
        } else {
            Vec::new()
        }
    }

    /// The injected failure for a call of `route`, if a rule matches (and use it up).
    fn take_failure(&mut self, route: &str) -> Option<Failure> {
        let rule = self.failures.iter_mut().find(|r| {
            r.remaining > 0
                && if r.routes.is_empty() {
                    route != "get_gateway" && route != "get_gateway_bot"
                } else {
                    r.routes.iter().any(|m| m == route)
                }
        })?;
        rule.remaining -= 1;
        let kind = rule.kind;
        self.failures.retain(|r| r.remaining > 0);
        Some(kind)
    }
}
