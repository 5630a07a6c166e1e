//! The gateway: the websocket at `/gateway` (HELLO, IDENTIFY / READY, heartbeats, RESUME).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::model;
use super::{FakeDiscord, Inner, Live, Out, Session, Shared, MAX_CONNECTIONS, MAX_FRAMES};

/// READY's `application.flags`: `APPLICATION_COMMAND_BADGE`, and
/// `GATEWAY_MESSAGE_CONTENT_LIMITED` where the content intent is switched on.
const APP_FLAGS: u64 = 1 << 23;
const FLAG_CONTENT_LIMITED: u64 = 1 << 19;
/// The largest frame accepted from the client.
const MAX_FRAME_SIZE: usize = 1 << 20;
/// How long a closing connection waits for the client's close frame.
const CLOSE_WAIT: Duration = Duration::from_secs(1);
/// The most frames read while waiting for it.
const CLOSE_WAIT_FRAMES: usize = 100;
const TRACE: &str = "[\"fake-discord-gateway\"]";

/// `GET /gateway` with a websocket upgrade.
pub(super) async fn upgrade(
    State(shared): State<Arc<Shared>>,
    RawQuery(query): RawQuery,
    ws: WebSocketUpgrade,
) -> Response {
    let query = query.unwrap_or_default();
    let conn = {
        let mut inner = shared.lock();
        if inner.gateway.connections >= MAX_CONNECTIONS {
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                "too many gateway connections",
            )
                .into_response();
        }
        inner.gateway.connections += 1;
        inner.gateway.last_query.clone_from(&query);
        inner.gateway.connections
    };
    let version_ok = query.split('&').any(|pair| pair == "v=10");
    ws.max_message_size(MAX_FRAME_SIZE)
        .on_upgrade(move |socket| run(shared, socket, conn, version_ok))
}

/// One connection: send HELLO, then answer the client's frames and forward what the fake
/// dispatches, until either side closes (at most `MAX_FRAMES` frames, `SERVER_LIFETIME`).
async fn run(shared: Arc<Shared>, mut socket: WebSocket, conn: usize, version_ok: bool) {
    let (tx, mut rx) = mpsc::unbounded_channel::<Out>();
    let mut shutdown = shared.shutdown.clone();
    let interval = shared.lock().gateway.heartbeat_interval_ms;
    let hello = json!({
        "op": 10,
        "s": null,
        "t": null,
        "d": {"heartbeat_interval": interval, "_trace": [TRACE]},
    });
    let _ = tx.send(Out::Frame(hello.to_string()));
    if !version_ok {
        let _ = tx.send(Out::Close(4012, "Invalid API version.".to_owned()));
    }
    let deadline = shared.deadline;
    let mut identified = false;
    for _ in 0..MAX_FRAMES {
        tokio::select! {
            biased;
            _ = shutdown.changed() => {
                let frame = CloseFrame { code: 1001, reason: "The fake Discord stopped".into() };
                let _ = socket.send(Message::Close(Some(frame))).await;
                break;
            }
            () = tokio::time::sleep_until(deadline) => break,
            out = rx.recv() => match out {
                Some(Out::Frame(text)) => {
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                Some(Out::Close(code, reason)) => {
                    let frame = CloseFrame { code, reason: reason.into() };
                    if socket.send(Message::Close(Some(frame))).await.is_ok() {
                        wait_for_close(&mut socket).await;
                    }
                    break;
                }
                None => break,
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    handle_frame(&shared, conn, &tx, &mut identified, text.as_str());
                }
                Some(Ok(Message::Binary(_))) => {
                    let _ = tx.send(Out::Close(4002, "Error while decoding payload.".to_owned()));
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
        }
    }
    let mut inner = shared.lock();
    inner.gateway.live.retain(|_, l| l.conn != conn);
}

/// After sending a close frame: read until the client's close frame (bounded).
async fn wait_for_close(socket: &mut WebSocket) {
    let _ = tokio::time::timeout(CLOSE_WAIT, async {
        for _ in 0..CLOSE_WAIT_FRAMES {
            match socket.recv().await {
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
}

fn handle_frame(
    shared: &Shared,
    conn: usize,
    tx: &mpsc::UnboundedSender<Out>,
    identified: &mut bool,
    text: &str,
) {
    let close = |code: u16, reason: &str| {
        let _ = tx.send(Out::Close(code, reason.to_owned()));
    };
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        close(4002, "Error while decoding payload.");
        return;
    };
    let mut inner = shared.lock();
    match frame["op"].as_u64() {
        Some(1) => {
            inner.gateway.heartbeat_count += 1;
            let ack = json!({"op": 11, "s": null, "t": null, "d": null});
            let _ = tx.send(Out::Frame(ack.to_string()));
        }
        Some(2 | 6) if *identified => close(4005, "Already authenticated."),
        Some(2 | 6) if inner.token_reset || !token_ok(&frame["d"]["token"]) => {
            inner.gateway.refused.push(4004);
            close(4004, "Authentication failed.");
        }
        Some(2) => {
            if let Err((code, reason)) = inner.identify(conn, tx, &frame["d"]) {
                inner.gateway.refused.push(code);
                close(code, reason);
            } else {
                *identified = true;
            }
        }
        Some(6) => *identified = inner.resume(conn, tx, &frame["d"]),
        // Presence update, voice state, guild members, soundboard: accepted, ignored.
        Some(3 | 4 | 8 | 31) if *identified => {}
        Some(3 | 4 | 8 | 31) => close(4003, "Not authenticated."),
        _ => close(4001, "Unknown opcode."),
    }
}

fn token_ok(token: &Value) -> bool {
    let token = token.as_str().unwrap_or_default();
    token == FakeDiscord::TOKEN || token.strip_prefix("Bot ") == Some(FakeDiscord::TOKEN)
}

impl Inner {
    /// IDENTIFY: a new session; READY, `GUILD_CREATE`, then the events queued before.
    fn identify(
        &mut self,
        conn: usize,
        tx: &mpsc::UnboundedSender<Out>,
        d: &Value,
    ) -> Result<(), (u16, &'static str)> {
        // `[id, total]`: any total works for a bot in few guilds (Discord requires more
        // shards only past 2,500 guilds each), but id must be below it.
        let (shard, total) = match d.get("shard").filter(|s| !s.is_null()) {
            None => (0, 1),
            Some(s) => match (s[0].as_u64(), s[1].as_u64(), s.as_array().map(Vec::len)) {
                (Some(id), Some(total), Some(2)) if id < total => (id, total),
                _ => return Err((4010, "Invalid shard.")),
            },
        };
        if !self.gateway.session.is_empty() && total != self.gateway.total {
            return Err((4010, "Invalid shard."));
        }
        let intents = d["intents"].as_u64().ok_or((4013, "Invalid intent(s)."))?;
        if intents >= 1 << 26 {
            return Err((4013, "Invalid intent(s)."));
        }
        if intents & super::PRIVILEGED & !self.gateway.granted != 0 {
            return Err((4014, "Disallowed intent(s)."));
        }
        self.gateway.identify_count += 1;
        self.gateway.identified.push([shard, total]);
        self.gateway.total = total;
        self.gateway.intents = Some(intents);
        let session_id = format!("fake{:028x}", self.next_id());
        self.gateway.session.insert(
            shard,
            Session {
                id: session_id.clone(),
                seq: 0,
                log: VecDeque::new(),
            },
        );
        self.make_live(shard, conn, tx);
        let guilds: Vec<Value> = [FakeDiscord::GUILD_ID]
            .into_iter()
            .filter(|g| self.shard_of_guild(*g) == shard && self.removed.is_none())
            .map(|g| json!({"id": g.to_string(), "unavailable": true}))
            .collect();
        let content = self.gateway.granted & super::INTENT_MESSAGE_CONTENT != 0;
        let app_flags = APP_FLAGS | if content { FLAG_CONTENT_LIMITED } else { 0 };
        let ready = json!({
            "v": 10,
            "user": model::current_user_json(),
            "guilds": guilds,
            "session_id": session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url(),
            "shard": [shard, total],
            "application": {"id": FakeDiscord::APP_ID.to_string(), "flags": app_flags},
            "private_channels": [],
            "presences": [],
            "relationships": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
            "_trace": [TRACE],
        });
        let mut first = vec![("READY", ready)];
        if self.shard_of_guild(FakeDiscord::GUILD_ID) == shard && self.removed.is_none() {
            first.push(("GUILD_CREATE", self.guild_json(true)));
        }
        for (name, data) in first {
            self.send_dispatch(shard, name, &data);
            self.gateway.events.push((name.to_owned(), data));
        }
        let pending = self.gateway.pending.remove(&shard).unwrap_or_default();
        for (name, data) in pending {
            if let Some(data) = self.filter_by_intents(&name, data) {
                self.send_dispatch(shard, &name, &data);
            }
        }
        Ok(())
    }

    /// RESUME: replay the dispatches after `seq`, then RESUMED; or `INVALID_SESSION` (op 9,
    /// not resumable). Returns whether the session was resumed.
    fn resume(&mut self, conn: usize, tx: &mpsc::UnboundedSender<Out>, d: &Value) -> bool {
        let seq = d["seq"].as_u64();
        let shard = self
            .gateway
            .session
            .iter()
            .find(|(_, s)| d["session_id"].as_str() == Some(s.id.as_str()))
            .map(|(shard, _)| *shard);
        let resumable = match (shard.and_then(|n| self.gateway.session.get(&n)), seq) {
            (Some(s), Some(seq)) => {
                seq <= s.seq && s.log.front().is_none_or(|(first, _)| *first <= seq + 1)
            }
            _ => false,
        };
        let (Some(seq), Some(shard), true) = (seq, shard, resumable) else {
            self.gateway.invalid_sessions += 1;
            let invalid = json!({"op": 9, "s": null, "t": null, "d": false});
            let _ = tx.send(Out::Frame(invalid.to_string()));
            return false;
        };
        if let Some(session) = self.gateway.session.get(&shard) {
            for (n, frame) in &session.log {
                if *n > seq {
                    let _ = tx.send(Out::Frame(frame.clone()));
                }
            }
        }
        self.make_live(shard, conn, tx);
        self.gateway.resume_count += 1;
        self.send_dispatch(shard, "RESUMED", &json!({"_trace": [TRACE]}));
        true
    }

    /// `conn` becomes `shard`'s live connection; a different one still open is closed.
    fn make_live(&mut self, shard: u64, conn: usize, tx: &mpsc::UnboundedSender<Out>) {
        let old = self.gateway.live.insert(
            shard,
            Live {
                conn,
                tx: tx.clone(),
            },
        );
        if let Some(old) = old.filter(|o| o.conn != conn) {
            let _ = old
                .tx
                .send(Out::Close(4000, "Replaced by a new connection".to_owned()));
        }
    }
}
