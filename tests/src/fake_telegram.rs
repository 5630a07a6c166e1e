//! A fake Telegram Bot API server for end-to-end tests of the bot's Telegram adapter.
//!
//! [`FakeTelegram::start`] binds an ephemeral loopback port (`127.0.0.1:0`) and serves the
//! Bot API methods the adapter uses, with the real response shapes, so that a real
//! `teloxide::Bot::new(FakeTelegram::TOKEN).set_api_url(fake.api_url())` talks to it. Tests
//! inject updates (messages, replies, button presses), read back what the bot did (every
//! call, the bot's messages in their current state, callback answers, registered commands)
//! and inject failures (429, 500, "message is not modified"). Inline mode (inline queries,
//! chosen results, inline messages and their edits) is in [`inline`]. With a webhook set,
//! updates are pushed to it as Telegram does ([`webhook`]).
//!
//! As strict as the real Bot API where the adapter could go wrong: a token other than
//! [`FakeTelegram::TOKEN`] (or one revoked with [`FakeTelegram::revoke_token`]) is answered
//! 401 Unauthorized, and `setWebhook` takes only what Telegram takes — an `https` URL on
//! port 443, 80, 88 or 8443 whose host is not a reserved address — and pushes to it
//! through the operator's TLS proxy ([`FakeTelegram::proxy_webhook_to`]).
//!
//! Everything is in memory and on loopback. Every waiting loop has a count limit and a time
//! limit: long polls end after at most [`LONG_POLL_CAP`], each request is cut off after
//! [`REQUEST_LIMIT`], the server stops by itself after [`SERVER_LIFETIME`] or
//! [`MAX_CALLS`] calls, and [`FakeTelegram::wait_until`] polls a bounded number of times.
//! Dropping the [`FakeTelegram`] stops the server.

use std::collections::HashMap;
use std::future::IntoFuture;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use serde_json::{json, Map, Value};
use tokio::sync::oneshot;
use tokio::sync::watch;

mod inline;
mod webhook;
pub use inline::InlineAnswer;

/// The longest a `getUpdates` long poll waits for an update, whatever its `timeout`.
pub const LONG_POLL_CAP: Duration = Duration::from_secs(2);
/// The longest one request may take (reading the body, waiting, answering).
pub const REQUEST_LIMIT: Duration = Duration::from_secs(30);
/// The server stops by itself this long after [`FakeTelegram::start`].
pub const SERVER_LIFETIME: Duration = Duration::from_secs(15 * 60);
/// After this many calls every further call is refused with a 400.
pub const MAX_CALLS: usize = 100_000;
/// The largest request body accepted.
const BODY_LIMIT: usize = 20 << 20;
/// The most parts a multipart request may have.
const MAX_PARTS: usize = 64;
/// The most wake-ups of one long poll (it also ends at its deadline).
const MAX_WAKEUPS: usize = 10_000;
/// How often [`FakeTelegram::wait_until`] checks its condition.
const WAIT_STEP: Duration = Duration::from_millis(10);

/// The description Telegram (and teloxide's `ApiError::MessageNotModified`) uses.
const QUERY_TOO_OLD: &str =
    "Bad Request: query is too old and response timeout expired or query ID is invalid";
const NOT_MODIFIED: &str = "Bad Request: message is not modified: specified new message content \
                            and reply markup are exactly the same as a current content and reply \
                            markup of the message";
const EDIT_NOT_FOUND: &str = "Bad Request: message to edit not found";
const CHAT_NOT_FOUND: &str = "Bad Request: chat not found";
const UPGRADED: &str = "Bad Request: group chat was upgraded to a supergroup chat";
const INVALID_QUERY_ID: &str =
    "Bad Request: query is too old and response timeout expired or query id is invalid";

/// Bot commands as `(command, description)` pairs, in order.
pub type CommandList = Vec<(String, String)>;

/// A user who writes to the bot (a plain value: make one with [`FakeTelegram::user`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeUser {
    pub id: i64,
    pub first_name: String,
    pub username: Option<String>,
    pub language_code: Option<String>,
}

/// What kind of chat a [`FakeChat`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FakeChatKind {
    /// A group (`"type": "group"`) with a title.
    Group { title: String },
    /// A private chat with one user.
    Private { user: FakeUser },
    /// A supergroup with topics (`"is_forum": true`): see [`FakeTelegram::forum`].
    Forum { title: String },
}

/// A chat (make one with [`FakeTelegram::group`] or [`FakeTelegram::private`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeChat {
    pub id: i64,
    pub kind: FakeChatKind,
}

/// An injected failure: see [`FakeTelegram::fail_next`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// HTTP 429 with `"parameters": {"retry_after": N}` (teloxide: `RequestError::RetryAfter`).
    TooManyRequests { retry_after: u64 },
    /// HTTP 500 `Internal Server Error`. Note: teloxide sleeps 10 s after any 5xx answer.
    ServerError,
    /// HTTP 400 "message is not modified" (teloxide: `ApiError::MessageNotModified`).
    NotModified,
    /// HTTP 400 "query is too old" (an answer to a press that came too late).
    QueryTooOld,
    /// No failure: the call is answered as usual, but only after `millis` (a Bot API that
    /// is slow for a while).
    Slow { millis: u64 },
}

/// One API call the bot made.
#[derive(Clone, Debug)]
pub struct Call {
    /// The method name in lower case, e.g. `"sendphoto"`.
    pub method: String,
    /// The parameters: the JSON body, or the multipart fields turned into JSON (fields that
    /// hold JSON are parsed, uploaded files are replaced by `{"bytes": LEN}`); query-string
    /// parameters are merged in. `Value::Null` when the body could not be read.
    pub params: Value,
    /// When the call arrived.
    pub time: Instant,
    /// Whether it was answered with an injected [`Failure`].
    pub failed: bool,
    /// The error description it was answered with, injected or not (`None`: it succeeded,
    /// or a long poll is still waiting).
    pub error: Option<String>,
}

/// One of the bot's messages, in its current state after edits.
#[derive(Clone, Debug)]
pub struct SentMessage {
    pub id: i64,
    pub text: Option<String>,
    pub caption: Option<String>,
    /// The bytes of the latest photo (PNG as sent by the bot).
    pub photo: Option<Vec<u8>>,
    /// The inline keyboard: rows of `(text, callback_data)`; a URL button's second part is
    /// `url:` and its address, a Mini App button's `web_app:` and its address.
    pub buttons: Vec<Vec<(String, String)>>,
    /// The message this one replies to.
    pub reply_to: Option<i64>,
    /// The forum topic it was posted in (`None`: not a forum's, or its General topic).
    pub topic: Option<i64>,
    pub sent_at: Instant,
    /// When what it shows last changed: its post, or its last edit of text, caption or photo.
    pub shown_at: Instant,
    /// How many successful edits it had (a "not modified" edit does not count).
    pub edits: usize,
}

/// One `answerCallbackQuery` call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallbackAnswer {
    pub id: String,
    pub text: Option<String>,
    pub show_alert: bool,
}

/// The fake server: see the module documentation.
pub struct FakeTelegram {
    shared: Arc<Shared>,
    addr: SocketAddr,
    /// Dropping it (with the `FakeTelegram`) shuts the server down.
    _stop: oneshot::Sender<()>,
}

struct Shared {
    inner: Mutex<Inner>,
    /// Bumped on every injected update: wakes long polls.
    updates_tx: watch::Sender<u64>,
}

#[derive(Default)]
struct Inner {
    last_update_id: i64,
    /// Bumped by every `getUpdates`: a long poll still waiting when another starts is
    /// answered 409, as the Bot API answers the older of two pollers.
    polls: u64,
    /// Updates not yet confirmed by an offset, in id order.
    updates: Vec<(i64, Value)>,
    /// The update kinds the bot asked for (`allowed_updates` of its last `getUpdates` or
    /// `setWebhook` that said); `None`: Telegram's default.
    allowed: Option<Vec<String>>,
    chats: HashMap<i64, ChatState>,
    calls: Vec<Call>,
    answers: Vec<CallbackAnswer>,
    /// Callback query id -> whether it was answered.
    queries: HashMap<String, bool>,
    last_query: u64,
    commands: Vec<(Option<String>, CommandList)>,
    webhook: Option<String>,
    /// Where the operator's TLS proxy in front of the webhook's host forwards to (plain
    /// HTTP on loopback): without one, pushes fail as to an unreachable host.
    webhook_proxy: Option<SocketAddr>,
    /// The token was revoked (`/revoke` in BotFather): every call is answered 401.
    revoked: bool,
    /// The `secret_token` of `setWebhook`, sent with every push.
    webhook_secret: Option<String>,
    /// Updates pushed to the webhook and answered 2xx.
    pushed: usize,
    /// The webhook's last failed push: when (Unix seconds) and why (`getWebhookInfo`).
    webhook_error: Option<(u64, String)>,
    /// `BotFather`'s `/setinline` turned off.
    inline_off: bool,
    failures: Vec<FailRule>,
    /// Uploaded photos by `file_id`.
    files: HashMap<String, Vec<u8>>,
    last_file: u64,
    inline: inline::Inline,
    /// Groups upgraded to supergroups: old id -> new id.
    migrated: HashMap<i64, i64>,
    /// `BotFather`'s group privacy setting (`/setprivacy`), off: the bot reads every group
    /// message. Telegram's default is on.
    reads_all: bool,
}

struct ChatState {
    json: Value,
    last_message_id: i64,
    messages: Vec<Stored>,
    /// Privacy mode as it was when the bot joined the group (a change in `BotFather` takes
    /// effect in a group only when the bot is added again).
    privacy: bool,
    /// Another bot posted in the group after ours did (or ours never has).
    other_bot_last: bool,
    /// Messages of people the bot did not get, privacy mode keeping them back.
    withheld: usize,
    /// The bot was removed from the group or blocked in the private chat: every call for
    /// the chat is answered 403 with this description.
    left: Option<&'static str>,
    /// A forum's topics, by thread id (the id of the message that created each); `None`
    /// for a chat that is not a forum.
    topics: Option<Vec<i64>>,
    /// What the bot's messages showed, in order: each as it was posted, and again after
    /// each edit that changed its text, caption or photo (what a person watching saw).
    shown: Vec<SentMessage>,
    /// The group's administrators (`getChatMember` says `administrator`; anyone else is
    /// a `member`).
    admins: Vec<i64>,
}

/// A message in a chat, the user's or the bot's.
struct Stored {
    id: i64,
    /// The full message object as the Bot API returns it.
    json: Value,
    /// For the bot's own messages.
    bot: Option<SentMessage>,
}

struct FailRule {
    remaining: usize,
    methods: Vec<String>,
    /// Only calls for this chat (`chat_id`), if set.
    chat: Option<i64>,
    kind: Failure,
}

/// An error answer: HTTP status = `code`.
struct ApiFail {
    code: u16,
    description: String,
    retry_after: Option<u64>,
    migrate_to_chat_id: Option<i64>,
}

impl ApiFail {
    fn new(code: u16, description: impl Into<String>) -> ApiFail {
        ApiFail {
            code,
            description: description.into(),
            retry_after: None,
            migrate_to_chat_id: None,
        }
    }
}

/// Telegram's answer to a call naming a group that became a supergroup.
fn migrated_to(to: i64) -> ApiFail {
    ApiFail {
        migrate_to_chat_id: Some(to),
        ..bad(UPGRADED)
    }
}

fn bad(description: impl Into<String>) -> ApiFail {
    ApiFail::new(400, description)
}

type ApiResult = Result<Value, ApiFail>;

impl FakeTelegram {
    /// The bot's token: any other is answered 401 Unauthorized.
    pub const TOKEN: &'static str = "123:TEST";
    /// The bot's user id (the digits of [`Self::TOKEN`]).
    pub const BOT_ID: i64 = 123;
    pub const BOT_USERNAME: &'static str = "ugolki_test_bot";
    /// The bot's first name in `getMe` and in its messages.
    pub const BOT_NAME: &'static str = "Ugolki Test";

    /// Bind `127.0.0.1:0` and spawn the server on the current tokio runtime.
    pub async fn start() -> FakeTelegram {
        let shared = Arc::new(Shared {
            inner: Mutex::new(Inner::default()),
            updates_tx: watch::Sender::new(0),
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local address");
        let app = Router::new()
            .fallback(handle)
            .with_state(Arc::clone(&shared))
            .layer(DefaultBodyLimit::max(BODY_LIMIT));
        let (stop, stopped) = oneshot::channel::<()>();
        tokio::spawn(async move {
            // Dropping the FakeTelegram drops `stop`: the server stops accepting, lets the
            // calls under way finish (a long poll takes 2 s at most), closes idle connections
            // and ends. It also ends by itself after SERVER_LIFETIME.
            let serve = axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = stopped.await;
                })
                .into_future();
            let _ = tokio::time::timeout(SERVER_LIFETIME, serve).await;
        });
        tokio::spawn(webhook::push(Arc::downgrade(&shared)));
        FakeTelegram {
            shared,
            addr,
            _stop: stop,
        }
    }

    /// `http://127.0.0.1:PORT/`: teloxide appends `bot<TOKEN>/<Method>`.
    pub fn api_url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// A user (not a bot).
    pub fn user(
        id: i64,
        first_name: &str,
        username: Option<&str>,
        language_code: Option<&str>,
    ) -> FakeUser {
        FakeUser {
            id,
            first_name: first_name.to_owned(),
            username: username.map(str::to_owned),
            language_code: language_code.map(str::to_owned),
        }
    }

    /// A group chat (`"type": "group"`); Telegram's group ids are negative.
    pub fn group(id: i64, title: &str) -> FakeChat {
        FakeChat {
            id,
            kind: FakeChatKind::Group {
                title: title.to_owned(),
            },
        }
    }

    /// A supergroup with topics enabled (`"type": "supergroup", "is_forum": true`; ids
    /// start -100). Its people write in topics made with [`FakeTelegram::create_topic`],
    /// or in General, whose messages name no topic.
    pub fn forum(id: i64, title: &str) -> FakeChat {
        FakeChat {
            id,
            kind: FakeChatKind::Forum {
                title: title.to_owned(),
            },
        }
    }

    /// The private chat of `user` with the bot (its id is the user's id).
    pub fn private(user: &FakeUser) -> FakeChat {
        FakeChat {
            id: user.id,
            kind: FakeChatKind::Private { user: user.clone() },
        }
    }

    /// An admin upgrades group `old` to supergroup `new` (registered here): calls naming
    /// `old` fail from now on with `migrate_to_chat_id`, as Telegram's do. With `announce`,
    /// each chat gets its service message (`migrate_to_chat_id` in the old one from `by`,
    /// `migrate_from_chat_id` in the new one); without, the bot learns it from a failure.
    pub fn migrate(&self, old: &FakeChat, new: &FakeChat, by: &FakeUser, announce: bool) {
        let mut inner = self.lock();
        inner.chat(new);
        inner.migrated.insert(old.id, new.id);
        if !announce {
            return;
        }
        let mut to = Map::new();
        to.insert("from".into(), user_json(by));
        to.insert("migrate_to_chat_id".into(), new.id.into());
        let (_, to) = inner.store(old.id, to, None);
        inner.push_update("message", to);
        let mut from = Map::new();
        from.insert("from".into(), user_json(by));
        from.insert("migrate_from_chat_id".into(), old.id.into());
        let (_, from) = inner.store(new.id, from, None);
        self.push(inner, "message", from);
    }

    /// Make `chat` known without a message in it (sending to a chat nobody wrote in yet
    /// answers "chat not found", as Telegram does for chats the bot is not in).
    pub fn add_chat(&self, chat: &FakeChat) {
        self.lock().chat(chat);
    }

    /// Make `user` an administrator of `chat` (as its owner would in the group's settings).
    pub fn make_admin(&self, chat: &FakeChat, user: &FakeUser) {
        let mut inner = self.lock();
        inner.chat(chat);
        if let Some(c) = inner.chats.get_mut(&chat.id) {
            c.admins.push(user.id);
        }
    }

    /// A text message from `from` in `chat`; returns its message id. Entities are built as
    /// Telegram does: `bot_command` for a leading `/command` (with an optional `@botname`),
    /// `mention` for each `@username`, offsets and lengths in UTF-16 code units.
    pub fn send_text(&self, chat: &FakeChat, from: &FakeUser, text: &str) -> i64 {
        self.inject_text(chat, from, text, entities(text), None)
    }

    /// `by` creates a topic named `name` in forum `chat`: its `forum_topic_created` service
    /// message, whose id is the topic's `message_thread_id` from now on. The bot is sent the
    /// service message only without privacy mode (it is no command).
    pub fn create_topic(&self, chat: &FakeChat, by: &FakeUser, name: &str) -> i64 {
        let mut inner = self.lock();
        inner.chat(chat);
        let state = inner.chats.get_mut(&chat.id).expect("registered");
        assert!(state.topics.is_some(), "chat {} is not a forum", chat.id);
        let id = state.last_message_id + 1;
        state.topics.get_or_insert_with(Vec::new).push(id);
        let privacy = state.privacy;
        let mut message = Map::new();
        message.insert("from".into(), user_json(by));
        message.insert(
            "forum_topic_created".into(),
            json!({"name": name, "icon_color": 7_322_096}),
        );
        message.insert("message_thread_id".into(), id.into());
        message.insert("is_topic_message".into(), true.into());
        let (_, json) = inner.store(chat.id, message, None);
        if privacy {
            drop(inner);
        } else {
            self.push(inner, "message", json);
        }
        id
    }

    /// A text message from `from` in topic `topic` of forum `chat`, as Telegram sends one:
    /// with `message_thread_id`, `is_topic_message`, and (not being a reply) replying to the
    /// topic's creation message. Returns its message id.
    pub fn send_text_in_topic(
        &self,
        chat: &FakeChat,
        topic: i64,
        from: &FakeUser,
        text: &str,
    ) -> i64 {
        self.inject(chat, from, text, entities(text), (None, Some(topic)))
    }

    /// A reply in topic `topic` of forum `chat` to message `reply_to` (the bot's board).
    pub fn reply_text_in_topic(
        &self,
        chat: &FakeChat,
        topic: i64,
        from: &FakeUser,
        text: &str,
        reply_to: i64,
    ) -> i64 {
        self.inject(
            chat,
            from,
            text,
            entities(text),
            (Some(reply_to), Some(topic)),
        )
    }

    /// Like [`Self::send_text`], plus a `text_mention` entity (with the user object) over
    /// the first occurrence of `mentioned.first_name` in `text` (which must contain it).
    pub fn send_text_with_mention(
        &self,
        chat: &FakeChat,
        from: &FakeUser,
        text: &str,
        mentioned: &FakeUser,
    ) -> i64 {
        let at = text.find(&mentioned.first_name).unwrap_or_else(|| {
            panic!(
                "{text:?} does not contain the first name {:?}",
                mentioned.first_name
            )
        });
        let mut all = entities(text);
        all.push(json!({
            "type": "text_mention",
            "offset": utf16_len(&text[..at]),
            "length": utf16_len(&mentioned.first_name),
            "user": user_json(mentioned),
        }));
        all.sort_by_key(|e| e["offset"].as_u64());
        self.inject_text(chat, from, text, all, None)
    }

    /// A text message replying to message `reply_to` of `chat` (which must exist, usually
    /// the bot's board): `reply_to_message` is that message's full current object.
    pub fn reply_text(&self, chat: &FakeChat, from: &FakeUser, text: &str, reply_to: i64) -> i64 {
        self.inject_text(chat, from, text, entities(text), Some(reply_to))
    }

    /// `from` presses the button with `data` on message `message_id` of `chat` (which must
    /// exist): a `callback_query` update with the message's full current object. Returns the
    /// callback query id.
    pub fn press(&self, chat: &FakeChat, from: &FakeUser, message_id: i64, data: &str) -> String {
        let mut inner = self.lock();
        inner.chat(chat);
        // Any `data`: "the message originated the query can contain no callback buttons
        // with this data" (the Bot API's `CallbackQuery`) — a client may send what it likes.
        let message = inner
            .message(chat.id, message_id)
            .unwrap_or_else(|| panic!("no message {message_id} in chat {}", chat.id))
            .json
            .clone();
        let on = [
            ("message", message),
            ("chat_instance", format!("instance{}", chat.id).into()),
        ];
        self.callback_query(inner, from, on, data)
    }

    /// A `callback_query` update from `from` with `data`, pressed `on` a message (its
    /// fields saying which); returns the query id.
    fn callback_query(
        &self,
        mut inner: MutexGuard<'_, Inner>,
        from: &FakeUser,
        on: [(&str, Value); 2],
        data: &str,
    ) -> String {
        inner.last_query += 1;
        let id = format!("{}", 4_000_000 + inner.last_query);
        inner.queries.insert(id.clone(), false);
        let mut query = json!({ "id": id, "from": user_json(from), "data": data });
        for (key, value) in on {
            query[key] = value;
        }
        self.push(inner, "callback_query", query);
        id
    }

    /// Queue an update and wake the long polls.
    fn push(&self, mut inner: MutexGuard<'_, Inner>, kind: &str, payload: Value) {
        inner.push_update(kind, payload);
        drop(inner);
        self.shared.updates_tx.send_modify(|n| *n += 1);
    }

    /// Every API call, in arrival order.
    pub fn calls(&self) -> Vec<Call> {
        self.lock().calls.clone()
    }

    /// The bot's messages in `chat`, in order, in their current state.
    pub fn messages(&self, chat: i64) -> Vec<SentMessage> {
        self.lock().chats.get(&chat).map_or_else(Vec::new, |c| {
            c.messages.iter().filter_map(|m| m.bot.clone()).collect()
        })
    }

    /// What the bot's messages in `chat` showed, in order: each message as posted, and
    /// again after each edit of its text, caption or photo (not of its buttons alone). A
    /// board edited in place shows here as often as it changed.
    pub fn shown(&self, chat: i64) -> Vec<SentMessage> {
        self.lock()
            .chats
            .get(&chat)
            .map_or_else(Vec::new, |c| c.shown.clone())
    }

    /// Every `answerCallbackQuery` that succeeded, in order.
    pub fn callback_answers(&self) -> Vec<CallbackAnswer> {
        self.lock().answers.clone()
    }

    /// What `setMyCommands` registered, per `language_code` (`None`: the default), in the
    /// order the language codes were first registered; `(command, description)` pairs.
    pub fn commands(&self) -> Vec<(Option<String>, CommandList)> {
        self.lock().commands.clone()
    }

    /// The last `setWebhook` url (`deleteWebhook` clears it).
    pub fn webhook(&self) -> Option<String> {
        self.lock().webhook.clone()
    }

    /// The operator's TLS proxy: the webhook's `https` URL is served by `addr` (plain
    /// HTTP on loopback, the same path), as a reverse proxy in front of the bot would.
    pub fn proxy_webhook_to(&self, addr: SocketAddr) {
        self.lock().webhook_proxy = Some(addr);
    }

    /// Revoke the bot's token (`BotFather`'s `/revoke`): from now on every call is answered
    /// 401 Unauthorized.
    pub fn revoke_token(&self) {
        self.lock().revoked = true;
        // A long poll waiting now is answered 401 too.
        self.shared.updates_tx.send_modify(|n| *n += 1);
    }

    /// How many updates were pushed to the webhook and accepted (answered 2xx).
    pub fn pushed_updates(&self) -> usize {
        self.lock().pushed
    }

    /// How many updates no `getUpdates` offset (or webhook answer) has confirmed yet.
    pub fn pending_updates(&self) -> usize {
        self.lock().updates.len()
    }

    /// Answer the next `n` calls whose method is in `methods` (lower-case names; empty: every
    /// method except `getupdates`) with `kind` instead of carrying them out (nothing is
    /// stored for them). Several rules may be pending; the oldest matching one is used.
    pub fn fail_next(&self, n: usize, methods: &[&str], kind: Failure) {
        if n == 0 {
            return;
        }
        self.lock().failures.push(FailRule {
            remaining: n,
            methods: methods.iter().map(|m| m.to_ascii_lowercase()).collect(),
            chat: None,
            kind,
        });
    }

    /// As [`FakeTelegram::fail_next`], for calls whose `chat_id` is `chat` only (a flood
    /// wait in one chat: Telegram's per-chat limits answer 429 in that chat alone).
    pub fn fail_next_in(&self, chat: i64, n: usize, methods: &[&str], kind: Failure) {
        if n == 0 {
            return;
        }
        self.lock().failures.push(FailRule {
            remaining: n,
            methods: methods.iter().map(|m| m.to_ascii_lowercase()).collect(),
            chat: Some(chat),
            kind,
        });
    }

    /// Check `f` every 10 ms until it is true or `timeout` passes; whether it became true.
    pub async fn wait_until(&self, timeout: Duration, f: impl Fn(&FakeTelegram) -> bool) -> bool {
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

    fn inject_text(
        &self,
        chat: &FakeChat,
        from: &FakeUser,
        text: &str,
        entities: Vec<Value>,
        reply_to: Option<i64>,
    ) -> i64 {
        self.inject(chat, from, text, entities, (reply_to, None))
    }

    fn inject(
        &self,
        chat: &FakeChat,
        from: &FakeUser,
        text: &str,
        entities: Vec<Value>,
        (reply_to, topic): (Option<i64>, Option<i64>),
    ) -> i64 {
        let mut inner = self.lock();
        inner.chat(chat);
        let mut message = Map::new();
        message.insert("from".into(), user_json(from));
        message.insert("text".into(), text.into());
        if !entities.is_empty() {
            message.insert("entities".into(), entities.into());
        }
        if let Some(topic) = topic {
            let known = inner.chats[&chat.id]
                .topics
                .as_ref()
                .is_some_and(|t| t.contains(&topic));
            assert!(known, "no topic {topic} in chat {}", chat.id);
            message.insert("message_thread_id".into(), topic.into());
            message.insert("is_topic_message".into(), true.into());
        }
        // In a topic, a message that replies to nothing replies to the topic's creation.
        if let Some(reply_to) = reply_to.or(topic) {
            let replied = inner
                .message(chat.id, reply_to)
                .unwrap_or_else(|| panic!("no message {reply_to} in chat {} to reply to", chat.id));
            message.insert("reply_to_message".into(), without_reply(&replied.json));
        }
        let for_us = inner.gets(chat.id, text, reply_to);
        let (id, json) = inner.store(chat.id, message, None);
        if for_us {
            self.push(inner, "message", json);
        } else if let Some(c) = inner.chats.get_mut(&chat.id) {
            c.withheld += 1;
        }
        id
    }

    /// `BotFather`'s `/setprivacy`: `on` (Telegram's default) or off. `getMe` says so at
    /// once; a group the bot is in keeps what it had until the bot is added again
    /// ([`Self::readd_bot`]), as Telegram documents.
    pub fn set_privacy(&self, on: bool) {
        self.lock().reads_all = !on;
    }

    /// `BotFather`'s `/setinline`: inline mode on (the fake's default) or off, as `getMe`
    /// says.
    pub fn set_inline_mode(&self, on: bool) {
        self.lock().inline_off = !on;
    }

    /// The bot removed from `chat` and added again: the group takes the bot's privacy
    /// setting as it is now, and the bot may post there again.
    pub fn readd_bot(&self, chat: &FakeChat) {
        let mut inner = self.lock();
        inner.chat(chat);
        let privacy = !inner.reads_all;
        if let Some(c) = inner.chats.get_mut(&chat.id) {
            c.privacy = privacy;
            c.left = None;
        }
    }

    /// `by` removes the bot from group `chat`: from now on every call for the chat is
    /// answered 403 "Forbidden: bot was kicked from the group chat". With `announce`, a
    /// `my_chat_member` update (the bot's status `kicked`) says so, as Telegram sends to a
    /// bot that asks for it; without, the bot learns it from a refused call.
    pub fn remove_bot(&self, chat: &FakeChat, by: &FakeUser, announce: bool) {
        let why = "Forbidden: bot was kicked from the group chat";
        self.bot_left(chat, by, why, announce);
    }

    /// `user` blocks the bot: every call for their private chat is answered 403
    /// "Forbidden: bot was blocked by the user"; with `announce`, a `my_chat_member`
    /// update there says so.
    pub fn block_bot(&self, user: &FakeUser, announce: bool) {
        let chat = FakeTelegram::private(user);
        self.bot_left(
            &chat,
            user,
            "Forbidden: bot was blocked by the user",
            announce,
        );
    }

    fn bot_left(&self, chat: &FakeChat, by: &FakeUser, why: &'static str, announce: bool) {
        let mut inner = self.lock();
        inner.chat(chat);
        let Some(state) = inner.chats.get_mut(&chat.id) else {
            return;
        };
        state.left = Some(why);
        if !announce {
            return;
        }
        let bot = json!({"id": FakeTelegram::BOT_ID, "is_bot": true,
            "first_name": FakeTelegram::BOT_NAME, "username": FakeTelegram::BOT_USERNAME});
        let update = json!({
            "chat": state.json.clone(),
            "from": user_json(by),
            "date": unix_now(),
            "old_chat_member": {"user": bot.clone(), "status": "member"},
            "new_chat_member": {"user": bot, "status": "kicked", "until_date": 0},
        });
        self.push(inner, "my_chat_member", update);
    }

    /// Another bot posts in group `chat`: the bot does not see it (bots never get other
    /// bots' messages), but under privacy mode bare commands no longer reach it until it
    /// posts again.
    pub fn other_bot_posts(&self, chat: &FakeChat, text: &str) {
        let mut inner = self.lock();
        inner.chat(chat);
        let mut message = Map::new();
        message.insert(
            "from".into(),
            json!({"id": 999, "is_bot": true, "first_name": "Other", "username": "other_bot"}),
        );
        message.insert("text".into(), text.into());
        inner.store(chat.id, message, None);
        if let Some(c) = inner.chats.get_mut(&chat.id) {
            c.other_bot_last = true;
        }
    }

    /// A message the bot posted in `chat` before it was upgraded: `text` under buttons
    /// `(label, callback_data)` whose data this version may not read. Its id.
    pub fn left_by_an_older_version(
        &self,
        chat: &FakeChat,
        text: &str,
        buttons: &[(&str, &str)],
    ) -> i64 {
        let mut inner = self.lock();
        inner.chat(chat);
        let row: Vec<Value> = buttons
            .iter()
            .map(|(label, data)| json!({"text": label, "callback_data": data}))
            .collect();
        let mut message = Map::new();
        message.insert(
            "from".into(),
            json!({"id": FakeTelegram::BOT_ID, "is_bot": true,
                   "first_name": FakeTelegram::BOT_NAME, "username": FakeTelegram::BOT_USERNAME}),
        );
        message.insert("text".into(), text.into());
        message.insert("reply_markup".into(), json!({ "inline_keyboard": [row] }));
        inner.store(chat.id, message, None).0
    }

    /// Messages of people in `chat` that privacy mode kept from the bot.
    pub fn withheld(&self, chat: i64) -> usize {
        self.lock().chats.get(&chat).map_or(0, |c| c.withheld)
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Failure {
    /// The error it answers with (`None`: none, it is only slow).
    fn answer(self) -> Option<ApiFail> {
        Some(match self {
            Failure::TooManyRequests { retry_after } => ApiFail {
                retry_after: Some(retry_after),
                ..ApiFail::new(429, format!("Too Many Requests: retry after {retry_after}"))
            },
            Failure::ServerError => ApiFail::new(500, "Internal Server Error"),
            Failure::NotModified => bad(NOT_MODIFIED),
            Failure::QueryTooOld => bad(QUERY_TOO_OLD),
            Failure::Slow { .. } => return None,
        })
    }
}

impl Inner {
    /// Register `chat` (or refresh its object).
    fn chat(&mut self, chat: &FakeChat) {
        let json = match &chat.kind {
            FakeChatKind::Group { title } => {
                json!({"id": chat.id, "type": "group", "title": title})
            }
            FakeChatKind::Private { user } => {
                let mut c =
                    json!({"id": chat.id, "type": "private", "first_name": user.first_name});
                if let Some(username) = &user.username {
                    c["username"] = username.clone().into();
                }
                c
            }
            FakeChatKind::Forum { title } => {
                json!({"id": chat.id, "type": "supergroup", "title": title, "is_forum": true})
            }
        };
        let forum = matches!(chat.kind, FakeChatKind::Forum { .. });
        self.chats
            .entry(chat.id)
            .and_modify(|c| c.json = json.clone())
            .or_insert(ChatState {
                json,
                last_message_id: 0,
                messages: Vec::new(),
                privacy: !self.reads_all,
                other_bot_last: false,
                withheld: 0,
                left: None,
                topics: forum.then(Vec::new),
                shown: Vec::new(),
                admins: Vec::new(),
            });
    }

    /// Where a new message of the bot goes: the topic its `message_thread_id` names (which
    /// must be one of the forum's: Telegram answers "message thread not found" otherwise),
    /// or none. The message gets the topic's fields, as Telegram's do.
    fn topic_of_new(
        &self,
        chat: i64,
        p: &Map<String, Value>,
        message: &mut Map<String, Value>,
    ) -> Result<Option<i64>, ApiFail> {
        let Some(thread) = i64_param(p, "message_thread_id") else {
            return Ok(None);
        };
        let topics = self.chats.get(&chat).and_then(|c| c.topics.as_ref());
        if !topics.is_some_and(|t| t.contains(&thread)) {
            return Err(bad("Bad Request: message thread not found"));
        }
        message.insert("message_thread_id".into(), thread.into());
        message.insert("is_topic_message".into(), true.into());
        Ok(Some(thread))
    }

    /// Whether the bot gets a person's message `text` in `chat` (replying to `reply_to`).
    /// In a group under privacy mode, only: commands for it (`/cmd@this_bot`), bare
    /// commands while it was the last bot to post there, and replies to its messages
    /// (Telegram's "Privacy mode" in the bots' features).
    fn gets(&self, chat: i64, text: &str, reply_to: Option<i64>) -> bool {
        let Some(c) = self.chats.get(&chat) else {
            return true;
        };
        if chat > 0 || !c.privacy {
            return true;
        }
        if reply_to.is_some_and(|r| self.message(chat, r).is_some_and(|m| m.bot.is_some())) {
            return true;
        }
        let Some(command) = text.strip_prefix('/') else {
            return false;
        };
        let word = command
            .split(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("");
        match word.split_once('@') {
            Some((_, bot)) => bot.eq_ignore_ascii_case(FakeTelegram::BOT_USERNAME),
            None => !c.other_bot_last,
        }
    }

    fn message(&self, chat: i64, id: i64) -> Option<&Stored> {
        self.chats.get(&chat)?.messages.iter().find(|m| m.id == id)
    }

    fn message_mut(&mut self, chat: i64, id: i64) -> Option<&mut Stored> {
        self.chats
            .get_mut(&chat)?
            .messages
            .iter_mut()
            .find(|m| m.id == id)
    }

    /// Store a new message in a known chat: adds `message_id`, `date` and `chat`.
    fn store(
        &mut self,
        chat: i64,
        mut message: Map<String, Value>,
        bot: Option<SentMessage>,
    ) -> (i64, Value) {
        let state = self.chats.get_mut(&chat).expect("the chat is registered");
        state.last_message_id += 1;
        let id = state.last_message_id;
        message.insert("message_id".into(), id.into());
        message.insert("date".into(), unix_now().into());
        message.insert("chat".into(), state.json.clone());
        let json = Value::Object(message);
        if bot.is_some() {
            state.other_bot_last = false;
        }
        let bot = bot.map(|b| SentMessage { id, ..b });
        state.shown.extend(bot.clone());
        state.messages.push(Stored {
            id,
            json: json.clone(),
            bot,
        });
        (id, json)
    }

    /// Whether the bot receives updates of `kind`: those it asked for in `allowed_updates`,
    /// else Telegram's default, every kind but `chat_member`, `message_reaction` and
    /// `message_reaction_count`.
    fn wants(&self, kind: &str) -> bool {
        match &self.allowed {
            Some(kinds) if !kinds.is_empty() => kinds.iter().any(|k| k == kind),
            _ => !matches!(
                kind,
                "chat_member" | "message_reaction" | "message_reaction_count"
            ),
        }
    }

    /// `allowed_updates` of a `getUpdates` or `setWebhook`: a JSON array, or one encoded as a
    /// string (a form field). Kept until another call says otherwise; it applies to
    /// updates made from then on.
    fn note_allowed(&mut self, p: &Map<String, Value>) {
        let list = match p.get("allowed_updates") {
            Some(Value::Array(a)) => Some(a.clone()),
            Some(Value::String(s)) => serde_json::from_str::<Vec<Value>>(s).ok(),
            _ => None,
        };
        if let Some(list) = list {
            self.allowed = Some(
                list.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect(),
            );
        }
    }

    /// A new update; one of a kind the bot did not ask for is never sent (Telegram drops it).
    fn push_update(&mut self, kind: &str, payload: Value) {
        if !self.wants(kind) {
            return;
        }
        self.last_update_id += 1;
        let id = self.last_update_id;
        let mut update = Map::new();
        update.insert("update_id".into(), id.into());
        update.insert(kind.into(), payload);
        self.updates.push((id, Value::Object(update)));
    }

    /// The injected failure for this call, if a rule matches (and use it up).
    fn take_failure(&mut self, method: &str, params: &Map<String, Value>) -> Option<Failure> {
        let chat = i64_param(params, "chat_id");
        let rule = self.failures.iter_mut().find(|r| {
            r.remaining > 0
                && r.chat.is_none_or(|c| chat == Some(c))
                && if r.methods.is_empty() {
                    method != "getupdates"
                } else {
                    r.methods.iter().any(|m| m == method)
                }
        })?;
        rule.remaining -= 1;
        let kind = rule.kind;
        self.failures.retain(|r| r.remaining > 0);
        Some(kind)
    }

    fn known_chat(&self, p: &Map<String, Value>) -> Result<i64, ApiFail> {
        let chat = i64_param(p, "chat_id").ok_or_else(|| bad(CHAT_NOT_FOUND))?;
        if let Some(to) = self.migrated.get(&chat) {
            return Err(migrated_to(*to));
        }
        if let Some(why) = self.chats.get(&chat).and_then(|c| c.left) {
            return Err(ApiFail::new(403, why));
        }
        if self.chats.contains_key(&chat) {
            Ok(chat)
        } else {
            Err(bad(CHAT_NOT_FOUND))
        }
    }

    /// The message the bot's new message replies to: its id and nested object.
    fn reply_target(
        &self,
        chat: i64,
        p: &Map<String, Value>,
    ) -> Result<Option<(i64, Value)>, ApiFail> {
        let (id, lenient) = match p.get("reply_parameters") {
            Some(Value::Object(r)) => (
                i64_param(r, "message_id"),
                bool_param(r, "allow_sending_without_reply"),
            ),
            _ => (
                i64_param(p, "reply_to_message_id"),
                bool_param(p, "allow_sending_without_reply"),
            ),
        };
        let Some(id) = id else { return Ok(None) };
        match self.message(chat, id) {
            Some(m) => Ok(Some((id, without_reply(&m.json)))),
            None if lenient => Ok(None),
            None => Err(bad("Bad Request: message to be replied not found")),
        }
    }

    /// The photo of a `sendPhoto` / `editMessageMedia`: an upload or a known `file_id`.
    fn photo(
        &mut self,
        files: &mut HashMap<String, Vec<u8>>,
        field: &str,
        value: Option<&Value>,
    ) -> Result<(Vec<u8>, Value), ApiFail> {
        let wrong = || bad("Bad Request: wrong file identifier/HTTP URL specified");
        let (bytes, file_id) = if let Some(bytes) = files.remove(field) {
            self.last_file += 1;
            let file_id = format!("fake-photo-{}", self.last_file);
            self.files.insert(file_id.clone(), bytes.clone());
            (bytes, file_id)
        } else {
            let file_id = value.and_then(Value::as_str).ok_or_else(wrong)?;
            let bytes = self.files.get(file_id).ok_or_else(wrong)?.clone();
            (bytes, file_id.to_owned())
        };
        let (width, height) = png_size(&bytes).unwrap_or((1, 1));
        let sizes = json!([{
            "file_id": file_id,
            "file_unique_id": format!("unique-{file_id}"),
            "width": width,
            "height": height,
            "file_size": bytes.len(),
        }]);
        Ok((bytes, sizes))
    }

    fn dispatch(
        &mut self,
        method: &str,
        p: &Map<String, Value>,
        files: &mut HashMap<String, Vec<u8>>,
    ) -> ApiResult {
        match method {
            "getme" => Ok(json!({
                "id": FakeTelegram::BOT_ID,
                "is_bot": true,
                "first_name": FakeTelegram::BOT_NAME,
                "username": FakeTelegram::BOT_USERNAME,
                "can_join_groups": true,
                "can_read_all_group_messages": self.reads_all,
                "supports_inline_queries": !self.inline_off,
                "can_connect_to_business": false,
                "has_main_web_app": false,
            })),
            "setmycommands" => self.set_my_commands(p),
            "deletemycommands" => {
                let language = str_param(p, "language_code");
                self.commands.retain(|(l, _)| *l != language);
                Ok(true.into())
            }
            "getmycommands" => {
                let language = str_param(p, "language_code");
                let list = self
                    .commands
                    .iter()
                    .find(|(l, _)| *l == language)
                    .map_or_else(Vec::new, |(_, list)| {
                        list.iter()
                            .map(|(c, d)| json!({"command": c, "description": d}))
                            .collect()
                    });
                Ok(list.into())
            }
            "setwebhook" => {
                let url = str_param(p, "url").unwrap_or_default();
                if !url.is_empty() {
                    webhook_refusal(&url).map_or(Ok(()), |why| Err(bad(why)))?;
                }
                if bool_param(p, "drop_pending_updates") {
                    self.updates.clear();
                }
                self.note_allowed(p);
                self.webhook = if url.is_empty() { None } else { Some(url) };
                self.webhook_secret = str_param(p, "secret_token");
                self.webhook_error = None;
                Ok(true.into())
            }
            "deletewebhook" => {
                if bool_param(p, "drop_pending_updates") {
                    self.updates.clear();
                }
                self.webhook = None;
                Ok(true.into())
            }
            "getwebhookinfo" => {
                let mut info = json!({
                    "url": self.webhook.clone().unwrap_or_default(),
                    "has_custom_certificate": false,
                    "pending_update_count": self.updates.len(),
                });
                if let (Some(_), Some((at, why))) = (&self.webhook, &self.webhook_error) {
                    info["last_error_date"] = (*at).into();
                    info["last_error_message"] = why.clone().into();
                }
                Ok(info)
            }
            "sendmessage" => self.send_message(p),
            "sendphoto" => self.send_photo(p, files),
            "sendanimation" => self.send_animation(p, files),
            "editmessagetext"
            | "editmessagecaption"
            | "editmessagereplymarkup"
            | "editmessagemedia" => self.edit(method, p, files),
            "answercallbackquery" => self.answer_callback_query(p),
            "getchatmember" => self.chat_member(p),
            "answerinlinequery" => self.answer_inline_query(p),
            _ => Err(ApiFail::new(404, "Not Found: method not found")),
        }
    }

    /// `getChatMember`: an administrator with the rights the Bot API lists for one (every
    /// field it requires), or a member; a chat the bot is not in: "chat not found".
    fn chat_member(&self, p: &Map<String, Value>) -> ApiResult {
        let chat = i64_param(p, "chat_id").ok_or_else(|| bad("Bad Request: chat_id is empty"))?;
        let user = i64_param(p, "user_id").ok_or_else(|| bad("Bad Request: user_id is empty"))?;
        let Some(state) = self.chats.get(&chat) else {
            return Err(bad(CHAT_NOT_FOUND));
        };
        let who = json!({"id": user, "is_bot": false, "first_name": format!("user{user}")});
        if !state.admins.contains(&user) {
            return Ok(json!({"status": "member", "user": who}));
        }
        Ok(json!({
            "status": "administrator",
            "user": who,
            "can_be_edited": false,
            "is_anonymous": false,
            "can_manage_chat": true,
            "can_delete_messages": true,
            "can_manage_video_chats": true,
            "can_restrict_members": true,
            "can_promote_members": false,
            "can_change_info": true,
            "can_invite_users": true,
            "can_post_stories": false,
            "can_edit_stories": false,
            "can_delete_stories": false,
            "can_pin_messages": true,
        }))
    }

    fn set_my_commands(&mut self, p: &Map<String, Value>) -> ApiResult {
        let language = str_param(p, "language_code");
        let Some(Value::Array(list)) = p.get("commands") else {
            return Err(bad("Bad Request: commands must be an array"));
        };
        if list.len() > 100 {
            return Err(bad("Bad Request: too many commands"));
        }
        let mut commands = Vec::new();
        for c in list {
            let command = c["command"].as_str().unwrap_or_default();
            let description = c["description"].as_str().unwrap_or_default();
            let valid_command = (1..=32).contains(&command.len())
                && command
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
            if !valid_command {
                return Err(bad("Bad Request: BOT_COMMAND_INVALID"));
            }
            if !(1..=256).contains(&description.chars().count()) {
                return Err(bad(
                    "Bad Request: command description must be 1-256 characters",
                ));
            }
            commands.push((command.to_owned(), description.to_owned()));
        }
        match self.commands.iter_mut().find(|(l, _)| *l == language) {
            Some(entry) => entry.1 = commands,
            None => self.commands.push((language, commands)),
        }
        Ok(true.into())
    }

    fn send_message(&mut self, p: &Map<String, Value>) -> ApiResult {
        let chat = self.known_chat(p)?;
        let text = str_param(p, "text").unwrap_or_default();
        if text.trim().is_empty() {
            return Err(bad("Bad Request: message text is empty"));
        }
        if text.chars().count() > 4096 {
            return Err(bad("Bad Request: message is too long"));
        }
        let (markup, buttons) = inline_keyboard(p, chat)?;
        let reply = self.reply_target(chat, p)?;
        let mut message = bot_message_base();
        let topic = self.topic_of_new(chat, p, &mut message)?;
        message.insert("text".into(), text.clone().into());
        if let Some(markup) = markup {
            message.insert("reply_markup".into(), markup);
        }
        let reply_to = reply.map(|(id, json)| {
            message.insert("reply_to_message".into(), json);
            id
        });
        let sent = SentMessage {
            id: 0,
            text: Some(text),
            caption: None,
            photo: None,
            buttons,
            reply_to,
            topic,
            sent_at: Instant::now(),
            shown_at: Instant::now(),
            edits: 0,
        };
        Ok(self.store(chat, message, Some(sent)).1)
    }

    fn send_photo(
        &mut self,
        p: &Map<String, Value>,
        files: &mut HashMap<String, Vec<u8>>,
    ) -> ApiResult {
        let chat = self.known_chat(p)?;
        let caption = str_param(p, "caption");
        check_caption(caption.as_deref())?;
        let (markup, buttons) = inline_keyboard(p, chat)?;
        let reply = self.reply_target(chat, p)?;
        let mut message = bot_message_base();
        let topic = self.topic_of_new(chat, p, &mut message)?;
        let (bytes, sizes) = self.photo(files, "photo", p.get("photo"))?;
        message.insert("photo".into(), sizes);
        if let Some(caption) = &caption {
            message.insert("caption".into(), caption.clone().into());
        }
        if let Some(markup) = markup {
            message.insert("reply_markup".into(), markup);
        }
        let reply_to = reply.map(|(id, json)| {
            message.insert("reply_to_message".into(), json);
            id
        });
        let sent = SentMessage {
            id: 0,
            text: None,
            caption,
            photo: Some(bytes),
            buttons,
            reply_to,
            topic,
            sent_at: Instant::now(),
            shown_at: Instant::now(),
            edits: 0,
        };
        Ok(self.store(chat, message, Some(sent)).1)
    }

    /// `sendAnimation` (a GIF): kept as the message's `photo` bytes, with its caption.
    fn send_animation(
        &mut self,
        p: &Map<String, Value>,
        files: &mut HashMap<String, Vec<u8>>,
    ) -> ApiResult {
        let chat = self.known_chat(p)?;
        let caption = str_param(p, "caption");
        check_caption(caption.as_deref())?;
        let bytes = files
            .remove("animation")
            .ok_or_else(|| bad("Bad Request: there is no animation in the request"))?;
        let mut message = bot_message_base();
        let topic = self.topic_of_new(chat, p, &mut message)?;
        self.last_file += 1;
        message.insert(
            "animation".into(),
            json!({
                "file_id": format!("fake-animation-{}", self.last_file),
                "file_unique_id": format!("unique-animation-{}", self.last_file),
                "width": 1, "height": 1, "duration": 1,
                "file_size": bytes.len(),
            }),
        );
        if let Some(caption) = &caption {
            message.insert("caption".into(), caption.clone().into());
        }
        let sent = SentMessage {
            id: 0,
            text: None,
            caption,
            photo: Some(bytes),
            buttons: Vec::new(),
            reply_to: None,
            topic,
            sent_at: Instant::now(),
            shown_at: Instant::now(),
            edits: 0,
        };
        Ok(self.store(chat, message, Some(sent)).1)
    }

    /// `editMessageText`, `editMessageCaption`, `editMessageReplyMarkup`, `editMessageMedia`.
    /// As in Telegram, an edit of text, caption or media without `reply_markup` removes the
    /// inline keyboard, and an edit that changes nothing answers "message is not modified".
    fn edit(
        &mut self,
        method: &str,
        p: &Map<String, Value>,
        files: &mut HashMap<String, Vec<u8>>,
    ) -> ApiResult {
        if p.contains_key("inline_message_id") {
            return self.edit_inline(method, p, files);
        }
        let chat = i64_param(p, "chat_id").ok_or_else(|| bad(CHAT_NOT_FOUND))?;
        if let Some(to) = self.migrated.get(&chat) {
            return Err(migrated_to(*to));
        }
        if let Some(why) = self.chats.get(&chat).and_then(|c| c.left) {
            return Err(ApiFail::new(403, why));
        }
        let id = i64_param(p, "message_id").ok_or_else(|| bad(EDIT_NOT_FOUND))?;
        // A new photo is uploaded before the message is looked at (as Telegram does).
        let media = self.edited_media(method, p, files)?;
        let stored = self
            .message_mut(chat, id)
            .ok_or_else(|| bad(EDIT_NOT_FOUND))?;
        apply_edit(stored, method, p, media, chat)?;
        let (json, now) = (stored.json.clone(), stored.bot.clone());
        if method != "editmessagereplymarkup" {
            let state = self.chats.get_mut(&chat).expect("the message was found");
            state.shown.extend(now);
        }
        Ok(json)
    }

    /// The new photo of an `editMessageMedia` (and its caption); `None` for other edits.
    fn edited_media(
        &mut self,
        method: &str,
        p: &Map<String, Value>,
        files: &mut HashMap<String, Vec<u8>>,
    ) -> Result<Option<Media>, ApiFail> {
        if method != "editmessagemedia" {
            return Ok(None);
        }
        let media = p
            .get("media")
            .and_then(Value::as_object)
            .ok_or_else(|| bad("Bad Request: media is required"))?;
        if media.get("type").and_then(Value::as_str) != Some("photo") {
            return Err(bad("Bad Request: the fake edits photos only"));
        }
        let caption = str_param(media, "caption");
        check_caption(caption.as_deref())?;
        Ok(Some((
            self.photo(files, "media", media.get("media"))?,
            caption,
        )))
    }

    fn answer_callback_query(&mut self, p: &Map<String, Value>) -> ApiResult {
        let id = str_param(p, "callback_query_id").unwrap_or_default();
        match self.queries.get_mut(&id) {
            Some(answered @ false) => *answered = true,
            _ => return Err(bad(INVALID_QUERY_ID)),
        }
        let text = str_param(p, "text");
        if text.as_ref().is_some_and(|t| t.chars().count() > 200) {
            return Err(bad("Bad Request: MESSAGE_TOO_LONG"));
        }
        self.answers.push(CallbackAnswer {
            id,
            text,
            show_alert: bool_param(p, "show_alert"),
        });
        Ok(true.into())
    }
}

/// A new photo: its bytes and `photo` sizes, and the caption that comes with it.
type Media = ((Vec<u8>, Value), Option<String>);

/// Apply an edit to one of the bot's messages (in a chat, or inline), as Telegram does: an
/// edit of text, caption or media without `reply_markup` removes the inline keyboard, and
/// an edit that changes nothing answers "message is not modified".
fn apply_edit(
    stored: &mut Stored,
    method: &str,
    p: &Map<String, Value>,
    media: Option<Media>,
    chat: i64,
) -> Result<(), ApiFail> {
    let (markup, buttons) = inline_keyboard(p, chat)?;
    let Some(sent) = stored.bot.as_mut() else {
        return Err(bad("Bad Request: message can't be edited"));
    };
    let json = stored.json.as_object_mut().expect("messages are objects");
    let same_markup = json.get("reply_markup") == markup.as_ref();
    match method {
        "editmessagetext" => {
            let text = str_param(p, "text").unwrap_or_default();
            if text.trim().is_empty() {
                return Err(bad("Bad Request: message text is empty"));
            }
            if text.chars().count() > 4096 {
                return Err(bad("Bad Request: MESSAGE_TOO_LONG"));
            }
            if sent.text.is_none() {
                return Err(bad("Bad Request: there is no text in the message to edit"));
            }
            if sent.text.as_deref() == Some(text.as_str()) && same_markup {
                return Err(bad(NOT_MODIFIED));
            }
            json.insert("text".into(), text.clone().into());
            sent.text = Some(text);
        }
        "editmessagecaption" => {
            let caption = str_param(p, "caption");
            check_caption(caption.as_deref())?;
            if sent.photo.is_none() {
                return Err(bad(
                    "Bad Request: there is no caption in the message to edit",
                ));
            }
            if sent.caption == caption && same_markup {
                return Err(bad(NOT_MODIFIED));
            }
            set_or_remove(json, "caption", caption.clone().map(Value::from));
            sent.caption = caption;
        }
        "editmessagereplymarkup" => {
            if same_markup {
                return Err(bad(NOT_MODIFIED));
            }
        }
        _ => {
            let ((bytes, sizes), caption) = media.expect("the media was read above");
            if sent.photo.is_none() {
                return Err(bad("Bad Request: there is no media in the message to edit"));
            }
            json.insert("photo".into(), sizes);
            set_or_remove(json, "caption", caption.clone().map(Value::from));
            sent.caption = caption;
            sent.photo = Some(bytes);
        }
    }
    set_or_remove(json, "reply_markup", markup);
    json.insert("edit_date".into(), unix_now().into());
    sent.buttons = buttons;
    sent.edits += 1;
    if method != "editmessagereplymarkup" {
        sent.shown_at = Instant::now();
    }
    Ok(())
}

/// The fields every message of the bot has, before `store` adds id, date and chat.
fn bot_message_base() -> Map<String, Value> {
    let mut message = Map::new();
    message.insert(
        "from".into(),
        json!({
            "id": FakeTelegram::BOT_ID,
            "is_bot": true,
            "first_name": FakeTelegram::BOT_NAME,
            "username": FakeTelegram::BOT_USERNAME,
        }),
    );
    message
}

fn check_caption(caption: Option<&str>) -> Result<(), ApiFail> {
    if caption.is_some_and(|c| c.chars().count() > 1024) {
        return Err(bad("Bad Request: message caption is too long"));
    }
    Ok(())
}

fn set_or_remove(json: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    match value {
        Some(v) => {
            json.insert(key.to_owned(), v);
        }
        None => {
            json.remove(key);
        }
    }
}

/// The `reply_markup` parameter, if it is a non-empty inline keyboard: the object to echo
/// in the message, and its buttons. Reply keyboards and the like are not echoed.
type Keyboard = (Option<Value>, Vec<Vec<(String, String)>>);

/// As the Bot API checks an inline keyboard's buttons in chat `chat`: each has exactly one
/// kind; `callback_data` is 1–64 bytes; a `url` is `http(s)://` or `tg://`; a `web_app`
/// (a Mini App) is `https://` only, and only in private chats (a user's chat: a positive
/// id) — in groups and inline messages (`chat` 0) Telegram answers `BUTTON_TYPE_INVALID`.
fn inline_keyboard(p: &Map<String, Value>, chat: i64) -> Result<Keyboard, ApiFail> {
    let Some(markup) = p.get("reply_markup") else {
        return Ok((None, Vec::new()));
    };
    let markup = match markup {
        Value::String(s) => serde_json::from_str(s)
            .map_err(|_| bad("Bad Request: can't parse reply keyboard markup JSON object"))?,
        other => other.clone(),
    };
    let Some(rows) = markup.get("inline_keyboard").and_then(Value::as_array) else {
        return Ok((None, Vec::new()));
    };
    let mut buttons = Vec::new();
    for row in rows {
        let mut out = Vec::new();
        for button in row.as_array().map_or(&[][..], Vec::as_slice) {
            let text = button["text"].as_str().unwrap_or_default().to_owned();
            let kinds = ["callback_data", "url", "web_app", "switch_inline_query"];
            let kind = kinds.iter().filter(|k| button.get(**k).is_some()).count();
            if kind != 1 {
                return Err(bad(
                    "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
                ));
            }
            let data = if let Some(web_app) = button.get("web_app") {
                let url = web_app["url"].as_str().unwrap_or_default();
                if chat <= 0 {
                    return Err(bad("Bad Request: BUTTON_TYPE_INVALID"));
                }
                if !url.starts_with("https://") {
                    return Err(bad("Bad Request: BUTTON_URL_INVALID"));
                }
                format!("web_app:{url}")
            } else if let Some(url) = button.get("url") {
                let url = url.as_str().unwrap_or_default();
                let schemes = ["http://", "https://", "tg://"];
                if !schemes.iter().any(|s| url.starts_with(s)) {
                    return Err(bad("Bad Request: BUTTON_URL_INVALID"));
                }
                format!("url:{url}")
            } else {
                let data = button["callback_data"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                if button.get("callback_data").is_some() && !(1..=64).contains(&data.len()) {
                    return Err(bad("Bad Request: BUTTON_DATA_INVALID"));
                }
                data
            };
            out.push((text, data));
        }
        buttons.push(out);
    }
    if buttons.iter().all(Vec::is_empty) {
        return Ok((None, Vec::new()));
    }
    Ok((Some(markup), buttons))
}

/// A copy of a message to nest as `reply_to_message` (Telegram nests one level only).
fn without_reply(message: &Value) -> Value {
    let mut copy = message.clone();
    if let Some(o) = copy.as_object_mut() {
        o.remove("reply_to_message");
    }
    copy
}

fn user_json(user: &FakeUser) -> Value {
    let mut u = json!({"id": user.id, "is_bot": false, "first_name": user.first_name});
    if let Some(username) = &user.username {
        u["username"] = username.clone().into();
    }
    if let Some(language) = &user.language_code {
        u["language_code"] = language.clone().into();
    }
    u
}

fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

fn is_username_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `bot_command` for a leading `/command[@botname]`, `mention` for each `@username`.
fn entities(text: &str) -> Vec<Value> {
    let entity = |kind: &str, start: usize, end: usize| {
        let offset = utf16_len(&text[..start]);
        let length = utf16_len(&text[start..end]);
        json!({"type": kind, "offset": offset, "length": length})
    };
    let mut out = Vec::new();
    let mut command_end = 0;
    if let Some(rest) = text.strip_prefix('/') {
        let name = rest.find(|c| !is_username_char(c)).unwrap_or(rest.len());
        if name > 0 {
            let mut end = 1 + name;
            if let Some(bot) = text[end..].strip_prefix('@') {
                let len = bot.find(|c| !is_username_char(c)).unwrap_or(bot.len());
                if len > 0 {
                    end += 1 + len;
                }
            }
            out.push(entity("bot_command", 0, end));
            command_end = end;
        }
    }
    let mut previous = None;
    for (i, c) in text.char_indices() {
        let at_word_start = !previous.is_some_and(is_username_char);
        previous = Some(c);
        if c != '@' || i < command_end || !at_word_start {
            continue;
        }
        let rest = &text[i + 1..];
        let len = rest.find(|c| !is_username_char(c)).unwrap_or(rest.len());
        if len > 0 {
            out.push(entity("mention", i, i + 1 + len));
        }
    }
    out
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return None;
    }
    let word =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    Some((word(16), word(20)))
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |d| d.as_secs())
}

fn str_param(p: &Map<String, Value>, key: &str) -> Option<String> {
    match p.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

fn i64_param(p: &Map<String, Value>, key: &str) -> Option<i64> {
    match p.get(key)? {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn bool_param(p: &Map<String, Value>, key: &str) -> bool {
    match p.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s == "true",
        _ => false,
    }
}

/// A field of a multipart form or the query string: JSON objects and arrays are parsed.
fn field_value(text: String) -> Value {
    if text.starts_with('{') || text.starts_with('[') {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    } else {
        Value::String(text)
    }
}

/// A success: `{"ok": true, "result": ...}`.
fn answer_ok(result: Value) -> Response {
    let mut body = Map::new();
    body.insert("ok".into(), true.into());
    body.insert("result".into(), result);
    Json(Value::Object(body)).into_response()
}

/// An error: `{"ok": false, "error_code": N, "description": ..., "parameters": ...}`.
fn answer_fail(f: &ApiFail) -> Response {
    let status = StatusCode::from_u16(f.code).unwrap_or(StatusCode::BAD_REQUEST);
    let mut body = json!({"ok": false, "error_code": f.code, "description": f.description});
    if let Some(after) = f.retry_after {
        body["parameters"] = json!({"retry_after": after});
    }
    if let Some(to) = f.migrate_to_chat_id {
        body["parameters"] = json!({"migrate_to_chat_id": to});
    }
    (status, Json(body)).into_response()
}

async fn handle(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let time = Instant::now();
    match tokio::time::timeout(REQUEST_LIMIT, serve_call(&shared, time, request)).await {
        Ok(response) => response,
        Err(_) => answer_fail(&bad("Bad Request: the fake Telegram timed out")),
    }
}

/// Why Telegram would refuse `url` as a webhook, in its words (`None`: it takes it).
/// Telegram posts only over HTTPS, only to ports 443, 80, 88 and 8443, and never to a
/// private or loopback address.
fn webhook_refusal(url: &str) -> Option<String> {
    let Ok(u) = url::Url::parse(url) else {
        return Some(
            "Bad Request: bad webhook: Failed to resolve host: Name or service not known".into(),
        );
    };
    if u.scheme() != "https" {
        return Some("Bad Request: bad webhook: An HTTPS URL must be provided for webhook".into());
    }
    if !matches!(u.port_or_known_default(), Some(443 | 80 | 88 | 8443)) {
        return Some(
            "Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
                .into(),
        );
    }
    let reserved = match u.host() {
        Some(url::Host::Ipv4(ip)) => {
            ip.is_loopback() || ip.is_private() || ip.is_link_local() || ip.is_unspecified()
        }
        Some(url::Host::Ipv6(ip)) => ip.is_loopback() || ip.is_unspecified(),
        Some(url::Host::Domain(d)) => d == "localhost",
        None => true,
    };
    reserved.then(|| {
        format!(
            "Bad Request: bad webhook: IP address {} is reserved",
            u.host_str().unwrap_or_default()
        )
    })
}

/// Whether the path's token is the bot's: `/bot<TOKEN>/<Method>`.
fn token_of(path: &str) -> Option<&str> {
    path.trim_start_matches('/')
        .split_once('/')?
        .0
        .strip_prefix("bot")
}

/// `/bot<TOKEN>/<Method>` -> the method in lower case.
fn method_of(path: &str) -> Option<String> {
    let (token, method) = path.trim_start_matches('/').split_once('/')?;
    (token.starts_with("bot") && !method.is_empty() && !method.contains('/'))
        .then(|| method.to_ascii_lowercase())
}

/// The parameters of a request (query string, then the JSON or multipart body) and the
/// uploaded files by field name.
async fn read_params(
    request: Request,
) -> Result<(Map<String, Value>, HashMap<String, Vec<u8>>), String> {
    let mut params = Map::new();
    if request.uri().query().is_some() {
        let Query(pairs) = Query::<Vec<(String, String)>>::try_from_uri(request.uri())
            .map_err(|e| e.body_text())?;
        for (k, v) in pairs {
            params.insert(k, field_value(v));
        }
    }
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if content_type.starts_with("multipart/form-data") {
        let files = read_multipart(request, &mut params).await?;
        return Ok((params, files));
    }
    let body = axum::body::to_bytes(request.into_body(), BODY_LIMIT)
        .await
        .map_err(|e| e.to_string())?;
    if !body.iter().all(u8::is_ascii_whitespace) {
        match serde_json::from_slice(&body).map_err(|e| e.to_string())? {
            Value::Object(o) => params.extend(o),
            _ => return Err("the JSON body is not an object".to_owned()),
        }
    }
    Ok((params, HashMap::new()))
}

async fn read_multipart(
    request: Request,
    params: &mut Map<String, Value>,
) -> Result<HashMap<String, Vec<u8>>, String> {
    let mut form = Multipart::from_request(request, &())
        .await
        .map_err(|e| e.body_text())?;
    let mut texts = Vec::new();
    let mut blobs: HashMap<String, Vec<u8>> = HashMap::new();
    let mut parts = 0;
    while let Some(field) = form.next_field().await.map_err(|e| e.body_text())? {
        parts += 1;
        if parts > MAX_PARTS {
            return Err(format!("more than {MAX_PARTS} parts"));
        }
        let name = field.name().unwrap_or_default().to_owned();
        let is_file = field.file_name().is_some();
        let bytes = field.bytes().await.map_err(|e| e.body_text())?.to_vec();
        if is_file {
            blobs.insert(name, bytes);
        } else {
            match String::from_utf8(bytes) {
                Ok(text) => texts.push((name, text)),
                Err(e) => {
                    blobs.insert(name, e.into_bytes());
                }
            }
        }
    }
    // teloxide sends a file as a field `"attach://ID"` (or, in `media`, an object with
    // `"media": "attach://ID"`) plus a file part named ID.
    let mut files = HashMap::new();
    for (name, text) in texts {
        let mut value = field_value(text);
        let slot = match &mut value {
            Value::Object(o) => o.get_mut("media"),
            other => Some(other),
        };
        if let Some(slot) = slot {
            let attached = slot
                .as_str()
                .and_then(|s| s.strip_prefix("attach://"))
                .map(str::to_owned);
            if let Some(bytes) = attached.and_then(|id| blobs.remove(&id)) {
                *slot = json!({"bytes": bytes.len()});
                files.insert(name.clone(), bytes);
            }
        }
        params.insert(name, value);
    }
    // Files sent directly under their field's name.
    for (name, bytes) in blobs {
        params.insert(name.clone(), json!({"bytes": bytes.len()}));
        files.insert(name, bytes);
    }
    Ok(files)
}

async fn serve_call(shared: &Shared, time: Instant, request: Request) -> Response {
    let Some(method) = method_of(request.uri().path()) else {
        return answer_fail(&ApiFail::new(404, "Not Found"));
    };
    // A wrong or revoked token: 401, nothing done (and nothing recorded: the call is not
    // the bot's).
    if token_of(request.uri().path()) != Some(FakeTelegram::TOKEN) || shared.lock().revoked {
        return answer_fail(&ApiFail::new(401, "Unauthorized"));
    }
    let read = read_params(request).await;
    let (index, params, mut files, slow) = {
        let mut inner = shared.lock();
        if inner.calls.len() >= MAX_CALLS {
            let fail = bad("Bad Request: the fake Telegram's call limit is reached");
            return answer_fail(&fail);
        }
        let index = inner.calls.len();
        let params = read
            .as_ref()
            .map_or(Value::Null, |(p, _)| Value::Object(p.clone()));
        inner.calls.push(Call {
            method: method.clone(),
            params,
            time,
            failed: false,
            error: None,
        });
        let (params, files) = match read {
            Ok(read) => read,
            Err(e) => {
                let fail = bad(format!("Bad Request: can't read the request: {e}"));
                inner.calls[index].error = Some(fail.description.clone());
                return answer_fail(&fail);
            }
        };
        let failure = inner.take_failure(&method, &params);
        if let Some(fail) = failure.and_then(Failure::answer) {
            inner.calls[index].failed = true;
            inner.calls[index].error = Some(fail.description.clone());
            return answer_fail(&fail);
        }
        (index, params, files, failure)
    };
    if let Some(Failure::Slow { millis }) = slow {
        tokio::time::sleep(Duration::from_millis(millis)).await;
    }
    let result = if method == "getupdates" {
        get_updates(shared, &params).await
    } else {
        shared.lock().dispatch(&method, &params, &mut files)
    };
    match result {
        Ok(value) => answer_ok(value),
        Err(fail) => {
            shared.lock().calls[index].error = Some(fail.description.clone());
            answer_fail(&fail)
        }
    }
}

/// `getUpdates`: confirm by `offset`, then return the pending updates (at most `limit`), or
/// wait for one up to `min(timeout, LONG_POLL_CAP)`.
async fn get_updates(shared: &Shared, p: &Map<String, Value>) -> ApiResult {
    let limit = i64_param(p, "limit").unwrap_or(100).clamp(1, 100) as usize;
    let timeout = Duration::from_secs(i64_param(p, "timeout").unwrap_or(0).max(0) as u64);
    let deadline = Instant::now() + timeout.min(LONG_POLL_CAP);
    let mut wake = shared.updates_tx.subscribe();
    let me = {
        let mut inner = shared.lock();
        if inner.webhook.is_some() {
            return Err(ApiFail::new(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use \
                 deleteWebhook to delete the webhook first",
            ));
        }
        match i64_param(p, "offset") {
            Some(offset) if offset < 0 => {
                let keep = offset.unsigned_abs() as usize;
                let drop_count = inner.updates.len().saturating_sub(keep);
                inner.updates.drain(..drop_count);
            }
            Some(offset) => inner.updates.retain(|(id, _)| *id >= offset),
            None => {}
        }
        inner.note_allowed(p);
        inner.polls += 1;
        inner.polls
    };
    // A poll waiting now is the older of two.
    shared.updates_tx.send_modify(|n| *n += 1);
    for _ in 0..MAX_WAKEUPS {
        {
            let inner = shared.lock();
            if inner.revoked {
                return Err(ApiFail::new(401, "Unauthorized"));
            }
            if inner.polls != me {
                return Err(ApiFail::new(
                    409,
                    "Conflict: terminated by other getUpdates request; make sure that only \
                     one bot instance is running",
                ));
            }
            if !inner.updates.is_empty() || Instant::now() >= deadline {
                let batch: Vec<Value> = inner
                    .updates
                    .iter()
                    .take(limit)
                    .map(|(_, u)| u.clone())
                    .collect();
                return Ok(batch.into());
            }
        }
        let remaining = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(remaining, wake.changed()).await {
            Ok(Ok(())) | Err(_) => {}
            Ok(Err(_)) => break,
        }
    }
    Ok(Value::Array(Vec::new()))
}
