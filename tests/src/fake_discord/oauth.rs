//! The fake's `OAuth2`, as an Activity signs its user in: the Embedded App SDK's `authorize`
//! gives the page a one-time code ([`FakeDiscord::authorize`] stands for the user's
//! consent), the app's server trades it at `POST /oauth2/token` for an access token with
//! its client id and secret (never the page: the secret stays on the server), and
//! `GET /users/@me` with `Authorization: Bearer <token>` says who the user is.
//!
//! As Discord documents it: the token request is `application/x-www-form-urlencoded`
//! (`grant_type=authorization_code`, `code`, and the client's id and secret in the body or
//! as HTTP Basic auth); a code is good once and for ten minutes, and only for the client it
//! was given to; a wrong client is `401 invalid_client`, a bad code `400 invalid_grant`;
//! `users/@me` needs the `identify` scope.

use super::model::user_json;
use super::{FakeDiscord, FakeUser, Shared};
use axum::body::Bytes;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How long a code from `authorize` may be traded (Discord: ten minutes).
pub const CODE_LIFE: Duration = Duration::from_secs(10 * 60);
/// An access token's life, as Discord gives it (`expires_in`, seconds: a week).
const TOKEN_SECONDS: u64 = 604_800;
/// Codes and tokens kept at most (a test's share).
const MAX_GRANTS: usize = 10_000;

/// What the fake's `OAuth2` holds.
#[derive(Default)]
pub(super) struct OAuth {
    /// Code → the user who consented, the scopes, and when.
    codes: HashMap<String, (u64, Vec<String>, Instant)>,
    /// Access token → the user and the scopes.
    tokens: HashMap<String, (u64, Vec<String>)>,
    /// Codes traded, good or not (what a test may count).
    pub(super) exchanges: usize,
    last: u64,
}

impl OAuth {
    fn fresh(&mut self, kind: &str) -> String {
        self.last += 1;
        format!(
            "{kind}{:016x}{:08x}",
            self.last.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            self.last
        )
    }
}

impl FakeDiscord {
    /// The application's client secret, as the Developer Portal's `OAuth2` page shows it.
    pub const CLIENT_SECRET: &'static str = "FAKE-DISCORD-CLIENT-SECRET";

    /// `user` accepts the Activity's `authorize` for `scopes`: the code the SDK hands the
    /// page.
    pub fn authorize(&self, user: &FakeUser, scopes: &[&str]) -> String {
        let mut inner = self.lock();
        inner.users.entry(user.id).or_insert_with(|| user.clone());
        let oauth = &mut inner.oauth;
        assert!(oauth.codes.len() < MAX_GRANTS, "the fake's codes run out");
        let code = oauth.fresh("code");
        let scopes = scopes.iter().map(|s| (*s).to_string()).collect();
        oauth
            .codes
            .insert(code.clone(), (user.id, scopes, Instant::now()));
        code
    }

    /// Switch Activities on for the application (the Developer Portal's Activities page,
    /// with its URL mapping): `LAUNCH_ACTIVITY` is a response from now on.
    /// Discord then adds the app's Entry Point command (`launch`, handled by Discord: it
    /// launches the Activity from the App Launcher), globally.
    pub fn enable_activity(&self) {
        let mut inner = self.lock();
        if inner.activity {
            return;
        }
        inner.activity = true;
        let id = inner.next_id();
        let command = serde_json::json!({
            "type": 4, "name": "launch", "description": "Launch the Activity",
            "handler": 2, "options": [], "integration_types": [0, 1], "contexts": [0, 1, 2],
            "name_localizations": null, "description_localizations": null,
            "default_member_permissions": null, "nsfw": false,
        });
        let json = inner.full_command(id, None, command);
        inner.commands.push(super::Command {
            id,
            guild: None,
            json,
        });
    }

    /// How many code exchanges the fake has answered, good or refused.
    pub fn oauth_exchanges(&self) -> usize {
        self.lock().oauth.exchanges
    }
}

fn refused(status: StatusCode, error: &str, description: &str) -> Response {
    let body = json!({ "error": error, "error_description": description });
    (status, axum::Json(body)).into_response()
}

/// `POST /oauth2/token`.
pub(super) fn token(shared: &Shared, headers: &HeaderMap, body: &Bytes) -> Response {
    let form_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
    if !form_type {
        return refused(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "Unsupported grant type",
        );
    }
    let form: HashMap<String, String> = url::form_urlencoded::parse(body).into_owned().collect();
    let (id, secret) = match basic_auth(headers) {
        Some(pair) => pair,
        None => (
            form.get("client_id").cloned().unwrap_or_default(),
            form.get("client_secret").cloned().unwrap_or_default(),
        ),
    };
    let mut inner = shared.lock();
    inner.oauth.exchanges += 1;
    if id != FakeDiscord::APP_ID.to_string() || secret != FakeDiscord::CLIENT_SECRET {
        return refused(StatusCode::UNAUTHORIZED, "invalid_client", "Invalid client");
    }
    if form.get("grant_type").map(String::as_str) != Some("authorization_code") {
        return refused(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "Unsupported grant type",
        );
    }
    let code = form.get("code").cloned().unwrap_or_default();
    // Good once: taken out whether it is still fresh or not.
    let Some((user, scopes, given)) = inner.oauth.codes.remove(&code) else {
        return refused(
            StatusCode::BAD_REQUEST,
            "invalid_grant",
            "Invalid \"code\" in request.",
        );
    };
    if given.elapsed() > CODE_LIFE {
        return refused(
            StatusCode::BAD_REQUEST,
            "invalid_grant",
            "Invalid \"code\" in request.",
        );
    }
    let access = inner.oauth.fresh("token");
    let refresh = inner.oauth.fresh("refresh");
    let scope = scopes.join(" ");
    inner.oauth.tokens.insert(access.clone(), (user, scopes));
    let body = json!({
        "access_token": access,
        "token_type": "Bearer",
        "expires_in": TOKEN_SECONDS,
        "refresh_token": refresh,
        "scope": scope,
    });
    (StatusCode::OK, axum::Json(body)).into_response()
}

/// `GET /users/@me` with a Bearer token, or `None` when the call is not one.
pub(super) fn bearer_me(shared: &Shared, headers: &HeaderMap) -> Option<Response> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())?
        .strip_prefix("Bearer ")?;
    let inner = shared.lock();
    let unauthorized = || {
        let body = json!({ "message": "401: Unauthorized", "code": 0 });
        (StatusCode::UNAUTHORIZED, axum::Json(body)).into_response()
    };
    let Some((user, scopes)) = inner.oauth.tokens.get(bearer) else {
        return Some(unauthorized());
    };
    if !scopes.iter().any(|s| s == "identify") {
        return Some(unauthorized());
    }
    let user: Value = inner.users.get(user).map_or(Value::Null, user_json);
    Some((StatusCode::OK, axum::Json(user)).into_response())
}

/// `Authorization: Basic base64(id:secret)`.
fn basic_auth(headers: &HeaderMap) -> Option<(String, String)> {
    let encoded = headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Basic ")?;
    let decoded = base64_decode(encoded.trim())?;
    let text = String::from_utf8(decoded).ok()?;
    let (id, secret) = text.split_once(':')?;
    Some((id.to_string(), secret.to_string()))
}

/// Standard base64, padded (what HTTP Basic auth uses).
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for b in s.bytes().filter(|&b| b != b'=') {
        let v = u32::try_from(ALPHABET.iter().position(|&a| a == b)?).ok()?;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(u8::try_from((acc >> bits) & 0xff).ok()?);
        }
    }
    Some(out)
}
