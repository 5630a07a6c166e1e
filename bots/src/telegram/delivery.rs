//! Replies on their way to Telegram: one queue per chat, so each chat reads its replies in
//! order while a slow chat holds up no other; the flood limits kept before each call; 429s
//! waited out and server errors retried with backoff; "message is not modified" taken as
//! done; living messages (a game's board, a challenge) edited in place or replaced, so only
//! the newest board carries buttons; a board overtaken by a later move of the same game,
//! while it still waits in a congested queue, not sent at all.

mod inline;
pub(super) use inline::is_start_picture;
pub use inline::MAX_EXTRA_PICTURES;

use super::limits::Limiter;
use crate::queues::{lock, Queues};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use teloxide::payloads::{
    EditMessageCaptionSetters, EditMessageReplyMarkupSetters, EditMessageTextSetters,
    SendAnimationSetters, SendMessageSetters, SendPhotoSetters,
};
use teloxide::prelude::Requester;
use teloxide::types::{
    ChatId, InlineKeyboardButton, InlineKeyboardMarkup, InputFile, MessageId, ReplyParameters,
};
use teloxide::{ApiError, Bot, RequestError};
use tokio::sync::mpsc;
use ugolki_core::table::inline::ONE_MESSAGE_PREFIX;
use ugolki_core::table::{Action, Audience, Outgoing, Platform, Slot, SlotUse, Table};
use ugolki_core::words::{render, Lang};
use ugolki_render::{Renderer, Scene};

/// Telegram's limit on a photo's caption.
const MAX_CAPTION: usize = 1024;
/// Telegram's limit on a message's text.
const MAX_TEXT: usize = 4096;
/// Buttons per keyboard row.
const ROW: usize = 3;
/// Telegram's limits for one keyboard: buttons in all, and per row.
pub const MAX_BUTTONS: usize = 100;
pub const MAX_PER_ROW: usize = 8;

/// The keyboard's rows: square buttons (pieces, destinations) eight to a row, then the
/// game's own buttons three to a row; never more than Telegram's 100 in all (squares past
/// that are left out — no position has that many).
pub fn keyboard_rows(actions: &[Action]) -> Vec<Vec<Action>> {
    let (squares, others): (Vec<Action>, Vec<Action>) = actions.iter().partition(|a| a.is_square());
    let room = MAX_BUTTONS.saturating_sub(others.len());
    let mut rows: Vec<Vec<Action>> = squares[..squares.len().min(room)]
        .chunks(MAX_PER_ROW)
        .map(<[_]>::to_vec)
        .collect();
    rows.extend(others.chunks(ROW).map(<[_]>::to_vec));
    rows
}
/// How long an inline message's queue waits for more before its worker ends.
const INLINE_IDLE: Duration = Duration::from_secs(600);
/// Tries of one call before the reply is given up (about five minutes of backoff).
const MAX_TRIES: u32 = 12;

/// A reply to deliver, and the message it answers (for replies to one person in a group).
pub struct Job {
    pub out: Outgoing,
    pub reply_to: Option<i32>,
}

/// A chat's living message: where it is and whether it is a photo (edited by caption).
#[derive(Clone, Copy, Debug)]
struct Living {
    id: MessageId,
    photo: bool,
    buttons: bool,
}

/// How a call ended, once retries are done.
enum Sent<T> {
    Done(T),
    /// "message is not modified": what was asked is already there.
    Unchanged,
    /// Refused for good (the message is gone, the chat blocked the bot, …).
    Failed(RequestError),
}

/// What the delivery layer has done, for operators and tests.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counters {
    pub sent: u64,
    pub edited: u64,
    pub retried_429: u64,
    pub retried_other: u64,
    pub dropped_boards: u64,
    pub failed: u64,
}

pub struct Delivery {
    bot: Bot,
    table: Arc<Table>,
    renderer: Renderer,
    limiter: Limiter,
    queues: Queues<i64, Job>,
    living: Mutex<HashMap<(i64, Slot), Living>>,
    /// Users who have a private chat with the bot (they sent it something there).
    reachable: Mutex<HashSet<i64>>,
    counters: Mutex<Counters>,
    /// Inline mode: the chats board pictures are posted to, the next one to use, the
    /// start pictures stored so far (one stored at a time), and what each inline message
    /// shows.
    inline_chats: Vec<i64>,
    next_store: std::sync::atomic::AtomicUsize,
    pictures: Mutex<HashMap<String, teloxide::types::FileId>>,
    storing: tokio::sync::Mutex<()>,
    store_failed_at: Mutex<Option<i64>>,
    inline: Mutex<HashMap<String, inline::Shown>>,
    /// Groups upgraded to supergroups: old chat id -> new (Telegram says so when a call to
    /// the old one fails, and in a service message in each).
    moved: Mutex<HashMap<i64, i64>>,
}

/// Whether an error is worth trying again: the network, or the server's own trouble.
fn transient(e: &RequestError) -> bool {
    match e {
        RequestError::Network(_) | RequestError::InvalidJson { .. } | RequestError::Io(_) => true,
        RequestError::Api(ApiError::Unknown(text)) => {
            let t = text.to_ascii_lowercase();
            [
                "internal server error",
                "bad gateway",
                "service unavailable",
                "gateway timeout",
            ]
            .iter()
            .any(|w| t.contains(w))
        }
        _ => false,
    }
}

/// `text` cut to `max` bytes at a character boundary, with `…` when cut.
fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max - '…'.len_utf8();
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

impl Delivery {
    pub fn new(
        bot: Bot,
        table: Arc<Table>,
        limiter: Limiter,
        inline_chats: Vec<i64>,
    ) -> Arc<Delivery> {
        Arc::new(Delivery {
            bot,
            table,
            renderer: Renderer::default(),
            limiter,
            queues: Queues::new("telegram"),
            living: Mutex::new(HashMap::new()),
            reachable: Mutex::new(HashSet::new()),
            counters: Mutex::new(Counters::default()),
            inline_chats,
            next_store: std::sync::atomic::AtomicUsize::new(0),
            pictures: Mutex::new(HashMap::new()),
            storing: tokio::sync::Mutex::new(()),
            store_failed_at: Mutex::new(None),
            inline: Mutex::new(HashMap::new()),
            moved: Mutex::new(HashMap::new()),
        })
    }

    pub fn counters(&self) -> Counters {
        *lock(&self.counters)
    }

    /// A user wrote to the bot privately: private replies can reach them.
    pub fn reachable(&self, user: i64) {
        lock(&self.reachable).insert(user);
    }

    /// Queue a reply for its chat. Replies meant for the sender of a button press are
    /// not queued here: they are the press's alert.
    pub fn enqueue(self: &Arc<Self>, out: Outgoing, reply_to: Option<i32>) {
        if let Some(inline_id) = out.chat.strip_prefix(ONE_MESSAGE_PREFIX) {
            // An inline message: what is for everyone edits it; a line for one player goes
            // to their private chat, if they have one (there is nowhere else).
            let key = match &out.audience {
                Audience::User(u) => match u.id.parse::<i64>() {
                    Ok(id) if lock(&self.reachable).contains(&id) => id,
                    _ => {
                        tracing::debug!("a private line for a player with no private chat");
                        return;
                    }
                },
                Audience::Chat | Audience::Sender => inline::key(inline_id),
            };
            let me = self.clone();
            let job = Job {
                out,
                reply_to: None,
            };
            self.queues
                .push(key, job, move |chat, rx| me.work(chat, rx));
            return;
        }
        let Ok(chat) = out.chat.parse::<i64>() else {
            tracing::warn!(chat = %out.chat, "reply for a chat that is not a Telegram chat id");
            return;
        };
        // One user privately: their private chat when they have one, else this chat.
        let (chat, reply_to) = match &out.audience {
            Audience::User(u) => match u.id.parse::<i64>() {
                Ok(id) if lock(&self.reachable).contains(&id) => (id, None),
                _ => (chat, reply_to),
            },
            Audience::Sender => (chat, reply_to),
            Audience::Chat => (chat, None),
        };
        let job = Job { out, reply_to };
        let me = self.clone();
        self.queues
            .push(chat, job, move |chat, rx| me.work(chat, rx));
    }

    /// Stop taking replies; let the queues empty for at most `grace`, then stop. Afterwards
    /// no task holds the table.
    pub async fn close(&self, grace: Duration) {
        self.queues.close(grace).await;
    }

    /// One chat's worker: its replies in order, newest boards first past the old ones.
    async fn work(self: Arc<Self>, chat: i64, mut rx: mpsc::UnboundedReceiver<Job>) {
        let mut pending: VecDeque<Job> = VecDeque::new();
        loop {
            if pending.is_empty() {
                let next = if inline::is_key(chat) {
                    // Inline messages are many and short-lived: an idle one's worker ends,
                    // closing its queue first and serving what slipped in before that.
                    if let Ok(next) = tokio::time::timeout(INLINE_IDLE, rx.recv()).await {
                        next
                    } else {
                        rx.close();
                        rx.try_recv().ok()
                    }
                } else {
                    rx.recv().await
                };
                match next {
                    Some(job) => pending.push_back(job),
                    None => return,
                }
            }
            // Wait for the limits first, then choose: what arrived meanwhile may make the
            // next board pointless.
            self.limiter.ready(chat).await;
            while let Ok(job) = rx.try_recv() {
                pending.push_back(job);
            }
            let Some(job) = pending.pop_front() else {
                continue;
            };
            self.queues.done();
            if overtaken(&job, &pending) {
                lock(&self.counters).dropped_boards += 1;
                continue;
            }
            if let Some(job) = self.deliver(chat, job, pending.is_empty()).await {
                self.redirect(chat, job).await;
            }
        }
    }

    /// A group became a supergroup (a new chat id): remember it, so what is still queued
    /// for the old id goes to the new one.
    pub fn chat_moved(&self, from: i64, to: i64) {
        lock(&self.moved).insert(from, to);
    }

    /// A job for chat `from`, which has moved: the table moves the chat's games (if the
    /// service message has not done it already) and the job goes to the new chat.
    async fn redirect(self: &Arc<Self>, from: i64, job: Job) {
        let Some(to) = lock(&self.moved).get(&from).copied() else {
            return;
        };
        let (old, new) = (from.to_string(), to.to_string());
        self.table.chat_moved(Platform::Telegram, &old, &new).await;
        let mut out = job.out;
        if out.chat == old {
            out.chat = new;
        }
        self.enqueue(out, None);
    }

    /// Make one call, keeping the limits, waiting out 429s, retrying server trouble.
    async fn call<T, F, Fut>(&self, chat: i64, what: &str, mut f: F) -> Sent<T>
    where
        F: FnMut() -> Fut,
        Fut: std::future::IntoFuture<Output = Result<T, RequestError>>,
    {
        let mut backoff = Duration::from_millis(500);
        let mut last = None;
        for _ in 0..MAX_TRIES {
            self.limiter.acquire(chat).await;
            match f().await {
                Ok(v) => return Sent::Done(v),
                Err(RequestError::Api(ApiError::MessageNotModified)) => return Sent::Unchanged,
                Err(RequestError::MigrateToChatId(to)) => {
                    tracing::info!(chat, to = to.0, "the group is a supergroup now");
                    self.chat_moved(chat, to.0);
                    return Sent::Failed(RequestError::MigrateToChatId(to));
                }
                Err(RequestError::RetryAfter(s)) => {
                    lock(&self.counters).retried_429 += 1;
                    metrics::counter!("ugolki_platform_429_total", "platform" => "telegram")
                        .increment(1);
                    metrics::counter!("ugolki_platform_retries_total", "platform" => "telegram")
                        .increment(1);
                    tracing::info!(chat, what, seconds = s.seconds(), "flood limit: waiting");
                    tokio::time::sleep(s.duration()).await;
                }
                Err(e) if transient(&e) => {
                    // teloxide's client has already slept 10 s after a 5xx; back off more.
                    lock(&self.counters).retried_other += 1;
                    metrics::counter!("ugolki_platform_retries_total", "platform" => "telegram")
                        .increment(1);
                    tracing::warn!(chat, what, error = %e, "retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(30));
                    last = Some(e);
                }
                Err(e) => return Sent::Failed(e),
            }
        }
        Sent::Failed(last.unwrap_or(RequestError::RetryAfter(
            teloxide::types::Seconds::from_seconds(0),
        )))
    }

    fn keyboard(out: &Outgoing) -> InlineKeyboardMarkup {
        Self::keyboard_for(&out.actions, out.lang)
    }

    fn keyboard_for(actions: &[Action], lang: Lang) -> InlineKeyboardMarkup {
        let button =
            |a: &Action| InlineKeyboardButton::callback(render(&a.label(), lang), a.to_text());
        InlineKeyboardMarkup::new(
            keyboard_rows(actions)
                .into_iter()
                .map(|row| row.iter().map(button).collect::<Vec<_>>()),
        )
    }

    /// Deliver one reply: edit its living message, or send it (and take the buttons off
    /// the message it replaces). `idle`: nothing else waits in this chat.
    /// Deliver one job; the job back when its chat has moved (see [`Self::redirect`]).
    async fn deliver(&self, chat: i64, job: Job, idle: bool) -> Option<Job> {
        if inline::is_key(chat) {
            self.deliver_inline(chat, job).await;
            return None;
        }
        if lock(&self.moved).contains_key(&chat) {
            return Some(job);
        }
        let out = &job.out;
        let text = out.text();
        let markup = Self::keyboard(out);
        if let Some(SlotUse::Edit(slot)) = out.slot {
            let living = lock(&self.living).get(&(chat, slot)).copied();
            if let Some(l) = living {
                if self.edit(chat, l, &text, markup.clone()).await {
                    lock(&self.living).insert(
                        (chat, slot),
                        Living {
                            buttons: !out.actions.is_empty(),
                            ..l
                        },
                    );
                    return None;
                }
            }
        }
        let Some(sent) = self.send(chat, out, &text, markup, job.reply_to).await else {
            if lock(&self.moved).contains_key(&chat) {
                return Some(job);
            }
            lock(&self.counters).failed += 1;
            return None;
        };
        if let Some(SlotUse::Replace(slot) | SlotUse::Edit(slot)) = out.slot {
            let old = lock(&self.living).insert((chat, slot), sent);
            // The replaced message keeps no buttons (stale presses are refused anyway, so
            // this waits for a quiet moment rather than costing a queued move its turn).
            if let Some(old) = old.filter(|o| o.buttons && o.id != sent.id) {
                if idle && self.limiter.is_free(chat) {
                    self.edit(chat, old, "", InlineKeyboardMarkup::default())
                        .await;
                }
            }
        }
        None
    }

    /// A replay (`/review`) as an animation with the review as its caption (and the whole
    /// text after it when the caption had to be cut).
    async fn send_replay(&self, chat: i64, out: &Outgoing, text: &str) -> Option<MessageId> {
        let scenes: Vec<Scene> = out.replay.iter().map(Scene::from_view).collect();
        let gif = match ugolki_render::Renderer::for_replays().animate(&scenes) {
            Ok(g) => g,
            Err(e) => {
                tracing::error!(error = %e, "replay not drawn");
                return self.send_text(chat, text, None, None).await;
            }
        };
        let caption = cut(text, MAX_CAPTION);
        let r = self
            .call(chat, "sendAnimation", || {
                self.bot
                    .send_animation(
                        ChatId(chat),
                        InputFile::memory(gif.clone()).file_name("replay.gif"),
                    )
                    .caption(caption.clone())
            })
            .await;
        if caption.len() < text.len() {
            self.send_text(chat, text, None, None).await;
        }
        r.message_id()
    }

    /// Send a reply as a new message: a board as a photo with its caption. Reports when a
    /// board that starts a clock has reached the chat.
    async fn send(
        &self,
        chat: i64,
        out: &Outgoing,
        text: &str,
        markup: InlineKeyboardMarkup,
        reply_to: Option<i32>,
    ) -> Option<Living> {
        let id = ChatId(chat);
        let reply =
            reply_to.map(|m| ReplyParameters::new(MessageId(m)).allow_sending_without_reply());
        let buttons = !out.actions.is_empty();
        let sent = if !out.replay.is_empty() {
            self.send_replay(chat, out, text).await
        } else if let Some(view) = &out.board {
            let png = self.renderer.render(&Scene::from_view(view));
            let caption = cut(text, MAX_CAPTION);
            let r = self
                .call(chat, "sendPhoto", || {
                    let mut req = self
                        .bot
                        .send_photo(id, InputFile::memory(png.clone()).file_name("board.png"))
                        .caption(caption.clone());
                    if buttons {
                        req = req.reply_markup(markup.clone());
                    }
                    if let Some(r) = &reply {
                        req = req.reply_parameters(r.clone());
                    }
                    req
                })
                .await;
            // The whole text too, when the caption had to be cut.
            if caption.len() < text.len() {
                self.send_text(chat, text, None, None).await;
            }
            r.message_id()
        } else {
            self.send_text(chat, text, buttons.then_some(markup), reply)
                .await
        };
        let living = sent?;
        lock(&self.counters).sent += 1;
        if let (Some(game), Some(ply), Some(_)) = (out.game, out.ply, &out.board) {
            self.table.delivered(game, ply, crate::now_ms()).await;
        }
        Some(Living {
            id: living,
            photo: out.board.is_some(),
            buttons,
        })
    }

    async fn send_text(
        &self,
        chat: i64,
        text: &str,
        markup: Option<InlineKeyboardMarkup>,
        reply: Option<ReplyParameters>,
    ) -> Option<MessageId> {
        let text = cut(if text.is_empty() { "…" } else { text }, MAX_TEXT);
        let id = ChatId(chat);
        self.call(chat, "sendMessage", || {
            let mut req = self.bot.send_message(id, text.clone());
            if let Some(m) = &markup {
                req = req.reply_markup(m.clone());
            }
            if let Some(r) = &reply {
                req = req.reply_parameters(r.clone());
            }
            req
        })
        .await
        .message_id()
    }

    /// Edit a living message: its text or caption (unless `text` is empty) and buttons.
    /// Whether the message now reads as asked.
    async fn edit(&self, chat: i64, l: Living, text: &str, markup: InlineKeyboardMarkup) -> bool {
        let id = ChatId(chat);
        let r = match (text.is_empty(), l.photo) {
            (true, _) => self
                .call(chat, "editMessageReplyMarkup", || {
                    self.bot
                        .edit_message_reply_markup(id, l.id)
                        .reply_markup(markup.clone())
                })
                .await
                .message_id(),
            (false, true) => {
                let caption = cut(text, MAX_CAPTION);
                self.call(chat, "editMessageCaption", || {
                    self.bot
                        .edit_message_caption(id, l.id)
                        .caption(caption.clone())
                        .reply_markup(markup.clone())
                })
                .await
                .message_id()
            }
            (false, false) => {
                let text = cut(text, MAX_TEXT);
                self.call(chat, "editMessageText", || {
                    self.bot
                        .edit_message_text(id, l.id, text.clone())
                        .reply_markup(markup.clone())
                })
                .await
                .message_id()
            }
        };
        if r.is_some() {
            lock(&self.counters).edited += 1;
        }
        r.is_some()
    }
}

/// A result's message id, or None (logged) when it failed for good.
trait SentExt {
    fn message_id(self) -> Option<MessageId>;
}

impl SentExt for Sent<teloxide::types::Message> {
    fn message_id(self) -> Option<MessageId> {
        match self {
            Sent::Done(m) => Some(m.id),
            // Nothing to change: the message stands as it was (its id is not known here).
            Sent::Unchanged => Some(MessageId(0)),
            Sent::Failed(e) => {
                tracing::error!(error = %e, "reply not delivered");
                None
            }
        }
    }
}

/// A board that a later board of the same game, waiting behind it, makes pointless.
fn overtaken(job: &Job, later: &VecDeque<Job>) -> bool {
    // Only a running game's board (it carries the game's buttons): the next board names
    // the last move and shows the clocks. A final board is never dropped.
    let (Some(SlotUse::Replace(Slot::Board(game))), Some(_), true) = (
        job.out.slot,
        &job.out.board,
        job.out.actions.iter().any(|a| a.game().is_some()),
    ) else {
        return false;
    };
    later
        .iter()
        .any(|j| j.out.slot == Some(SlotUse::Replace(Slot::Board(game))) && j.out.board.is_some())
}

#[cfg(test)]
mod limit_tests {
    use super::*;

    #[test]
    fn every_board_keyboard_fits_telegram_with_every_square() {
        for (what, actions) in crate::test_positions::button_lists() {
            let rows = keyboard_rows(&actions);
            let total: usize = rows.iter().map(Vec::len).sum();
            assert!(total <= MAX_BUTTONS, "{what}: {total} buttons");
            assert!(rows.iter().all(|r| r.len() <= MAX_PER_ROW), "{what}");
            // Nothing was left out, and every callback fits.
            assert_eq!(total, actions.len(), "{what}");
            assert!(actions.iter().all(|a| a.to_text().len() <= 64), "{what}");
        }
    }
}
