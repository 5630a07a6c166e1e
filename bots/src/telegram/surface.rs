//! Telegram as the outbox sees it: a board is a photo with its caption, buttons are an
//! inline keyboard (squares eight to a row, then the game's three to a row), a living
//! message is edited by its caption or text, a reply for one person answers their message.
//! A one-message chat (an inline message) is edited through its `inline_message_id`: its
//! photo can only become a file already on Telegram, so each board is first posted to one
//! of the operator's picture chats and its `file_id` used.

use crate::lock;
use crate::outbox::one_message::Shown;
use crate::outbox::{cut, Class, Content, ImageKind, Job, Pace, Posted, Surface};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use teloxide::payloads::{
    EditMessageCaptionInlineSetters, EditMessageCaptionSetters, EditMessageMediaInlineSetters,
    EditMessageMediaSetters, EditMessageReplyMarkupSetters, EditMessageTextSetters,
    SendAnimationSetters, SendMessageSetters, SendPhotoSetters,
};
use teloxide::prelude::Requester;
use teloxide::types::{
    ChatId, FileId, InlineKeyboardButton, InlineKeyboardMarkup, InputFile, InputMedia,
    InputMediaPhoto, MessageId, ReplyParameters, ThreadId, WebAppInfo,
};
use teloxide::{ApiError, Bot, RequestError};
use ugolki_core::store::SlotRow;
use ugolki_core::table::inline::{is_start_picture, MAX_EXTRA_PICTURES};
use ugolki_core::table::{Action, Audience, ChatKind, ChatRef, Platform};
use ugolki_core::view::BoardView;
use ugolki_core::words::{render, Lang, Msg};
use ugolki_render::{Renderer, Scene};

/// Telegram's flood limits, as the outbox paces calls: about one message a second in a
/// chat, twenty a minute in a group (paced evenly, one every three seconds, so a blitz game
/// gets a steady board rather than a burst and a stall), thirty a second in all.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Least time between two calls in one chat.
    pub per_chat: Duration,
    /// Calls a group may take in `group_window`.
    pub per_group: usize,
    pub group_window: Duration,
    /// Calls the bot may make in a second, over all chats.
    pub per_second: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            per_chat: Duration::from_secs(1),
            per_group: 20,
            group_window: Duration::from_secs(60),
            per_second: 30,
        }
    }
}

impl Limits {
    /// A chat's pace: a group keeps the per-minute window too.
    #[must_use]
    pub fn pace(&self, chat: &ChatRef) -> Pace {
        Pace {
            spacing: self.per_chat,
            window: chat
                .kind
                .is_group()
                .then_some((self.per_group, self.group_window)),
        }
    }
}

/// Telegram's limits on a photo's caption and a message's text.
const MAX_CAPTION: usize = 1024;
const MAX_TEXT: usize = 4096;
/// Telegram's limits for one keyboard: buttons in all, and per row.
pub const MAX_BUTTONS: usize = 100;
pub const MAX_PER_ROW: usize = 8;
/// The game's own buttons per row.
const ROW: usize = 3;
/// How long storing pictures pauses after every picture chat has failed.
const STORE_PAUSE_MS: i64 = 60_000;
/// Groups whose newest message is kept ([`Telegram::note_message`]) before they are all
/// forgotten at once (about 2 MB).
const MAX_GROUPS_SEEN: usize = 100_000;
/// A group's board is edited in place by the next move while at most this many messages
/// came after it (it is still in view: a typed move or two under it) ...
const IN_VIEW: i32 = 2;
/// ... and it changed at most this long ago (the players are at the game: an edit does not
/// notify them, a new board does).
const IN_PLACE_IDLE: Duration = Duration::from_secs(600);

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

/// What a failed call means: Telegram's wait, its own trouble, nothing to change, a
/// group become a supergroup, or a refusal for good.
pub fn classify(e: &RequestError) -> Class {
    match e {
        RequestError::RetryAfter(s) => Class::RetryAfter(s.duration()),
        RequestError::Api(ApiError::MessageNotModified) => Class::Unchanged,
        RequestError::MigrateToChatId(to) => Class::Moved(to.0.to_string()),
        RequestError::Api(ApiError::InvalidToken) => Class::Refused,
        RequestError::Network(_) | RequestError::InvalidJson { .. } | RequestError::Io(_) => {
            Class::Retry
        }
        RequestError::Api(ApiError::Unknown(text)) => {
            // The server's own trouble (500, 502, 503, 504), as its description says.
            let t = text.to_ascii_lowercase();
            if ["internal", "gateway", "unavailable"]
                .iter()
                .any(|w| t.contains(w))
            {
                Class::Retry
            } else if crate::setup::telegram::REMOVED
                .iter()
                .any(|w| t.starts_with(w))
            {
                Class::Left
            } else {
                Class::Gone
            }
        }
        // Removed from the group, blocked by the user: the chat is closed.
        RequestError::Api(
            ApiError::BotBlocked
            | ApiError::BotKicked
            | ApiError::BotKickedFromSupergroup
            | ApiError::BotKickedFromChannel
            | ApiError::UserDeactivated,
        ) => Class::Left,
        // The chat or message is gone, a bad request: trying again changes nothing.
        RequestError::Api(_) => Class::Gone,
    }
}

pub struct Telegram {
    bot: Bot,
    limits: Limits,
    renderer: Renderer,
    /// Inline mode: the chats pictures are posted to, the next one to use, the start
    /// pictures stored so far (one stored at a time), and when all last failed.
    picture_chats: Vec<i64>,
    next_chat: std::sync::atomic::AtomicUsize,
    pictures: Mutex<HashMap<String, FileId>>,
    storing: tokio::sync::Mutex<()>,
    failed_at: Mutex<Option<i64>>,
    /// The newest message id seen in each group (received or sent): how far down a board
    /// is. Ids grow by one per message in a chat, so a message the bot does not receive
    /// (privacy mode) still counts once a later one comes.
    newest: Mutex<HashMap<i64, i32>>,
    /// Where a running game's board opens as the Mini App, if the operator set it up.
    links: BoardLinks,
}

/// Where a game's board opens as the Mini App (with `--web` at an `https://` address).
#[derive(Clone, Debug, Default)]
pub struct BoardLinks {
    /// `https://…/app/g/`: in a private chat, a `web_app` button to the game's board
    /// (Telegram opens Mini Apps from buttons in private chats only, and only over https).
    pub app: Option<String>,
    /// `https://t.me/<bot>/<app>?startapp=` (`--mini-app`, the name `BotFather`'s `/newapp`
    /// gave): in a group, a link button that opens the Mini App on the game.
    pub startapp: Option<String>,
}

impl BoardLinks {
    /// The links of the pages at `url` (only an `https://` one opens a Mini App) and the
    /// Mini App `app` of bot `bot`.
    #[must_use]
    pub fn new(url: Option<&str>, bot: &str, app: Option<&str>) -> BoardLinks {
        let https = url.filter(|u| u.starts_with("https://"));
        BoardLinks {
            app: https.map(|u| format!("{u}/app/g/")),
            startapp: app
                .filter(|_| https.is_some() && !bot.is_empty())
                .map(|a| format!("https://t.me/{bot}/{a}?startapp=")),
        }
    }
}

/// The Telegram chat a table chat is in (a topic's: its group).
fn chat_id(chat: &ChatRef) -> Result<ChatId, RequestError> {
    chat.lane()
        .parse()
        .map(ChatId)
        .map_err(|_| RequestError::Api(ApiError::ChatNotFound))
}

/// The forum topic a table chat is, if it is one (messages posted there name it).
fn topic_of(chat: &ChatRef) -> Option<ThreadId> {
    let (_, topic) = chat.group_and_topic()?;
    topic.parse().ok().map(|t| ThreadId(MessageId(t)))
}

impl Telegram {
    pub fn new(bot: Bot, limits: Limits, picture_chats: Vec<i64>) -> Telegram {
        Telegram {
            bot,
            limits,
            renderer: Renderer::default(),
            picture_chats,
            next_chat: std::sync::atomic::AtomicUsize::new(0),
            pictures: Mutex::new(HashMap::new()),
            storing: tokio::sync::Mutex::new(()),
            failed_at: Mutex::new(None),
            newest: Mutex::new(HashMap::new()),
            links: BoardLinks::default(),
        }
    }

    /// Running games' boards open as the Mini App through `links`.
    #[must_use]
    pub fn with_links(mut self, links: BoardLinks) -> Telegram {
        self.links = links;
        self
    }

    /// The keyboard of a message in `chat`: its buttons, and on a running game's board the
    /// way to open it as the Mini App (a `web_app` button in a private chat, a `startapp`
    /// link in a group).
    fn markup(&self, chat: &ChatRef, actions: &[Action], lang: Lang) -> InlineKeyboardMarkup {
        let keyboard = Self::keyboard(actions, lang);
        let Some(game) = Action::running_game(actions) else {
            return keyboard;
        };
        let label = render(&Msg::BtnOpenBoard, lang);
        let button = if chat.kind == ChatKind::Private {
            self.links.app.as_ref().and_then(|base| {
                let url = url::Url::parse(&format!("{base}{game}")).ok()?;
                Some(InlineKeyboardButton::web_app(label, WebAppInfo { url }))
            })
        } else if chat.kind.is_group() {
            self.links.startapp.as_ref().and_then(|base| {
                let url = url::Url::parse(&format!("{base}{game}")).ok()?;
                Some(InlineKeyboardButton::url(label, url))
            })
        } else {
            None
        };
        match button {
            Some(b) => keyboard.append_row([b]),
            None => keyboard,
        }
    }

    /// Note message `id` in `chat` (one received, or one the bot sent).
    pub fn note_message(&self, chat: ChatId, id: MessageId) {
        // Only a group's boards are edited in place (private chats have positive ids).
        if chat.0 >= 0 {
            return;
        }
        let mut newest = lock(&self.newest);
        // Bounded: a group forgotten only has its next board posted anew.
        if newest.len() >= MAX_GROUPS_SEEN && !newest.contains_key(&chat.0) {
            newest.clear();
        }
        let n = newest.entry(chat.0).or_insert(id.0);
        *n = (*n).max(id.0);
    }

    fn keyboard(actions: &[Action], lang: Lang) -> InlineKeyboardMarkup {
        let button =
            |a: &Action| InlineKeyboardButton::callback(render(&a.label(), lang), a.to_text());
        InlineKeyboardMarkup::new(
            keyboard_rows(actions)
                .into_iter()
                .map(|row| row.iter().map(button).collect::<Vec<_>>()),
        )
    }

    /// Whether inline messages can show boards (the operator gave picture chats).
    pub fn has_picture_store(&self) -> bool {
        !self.picture_chats.is_empty()
    }

    /// Post `png` to a picture chat, each in turn, trying the others when one fails: its
    /// `file_id`. After all have failed, nothing is tried for a minute (a broken picture
    /// chat must not hold up every board and every inline query).
    async fn store_png(&self, png: &[u8]) -> Option<FileId> {
        let now = crate::now_ms();
        if lock(&self.failed_at).is_some_and(|t| now - t < STORE_PAUSE_MS) {
            return None;
        }
        for _ in 0..self.picture_chats.len() {
            let n = self
                .next_chat
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let chat = self.picture_chats[n % self.picture_chats.len()];
            let photo = InputFile::memory(png.to_vec()).file_name("board.png");
            match self
                .bot
                .send_photo(ChatId(chat), photo)
                .disable_notification(true)
                .await
            {
                Ok(m) => {
                    if let Some(p) = m.photo().and_then(<[_]>::last) {
                        *lock(&self.failed_at) = None;
                        return Some(p.file.id.clone());
                    }
                }
                Err(e) => tracing::error!(chat, error = %e, "picture not stored"),
            }
        }
        *lock(&self.failed_at) = Some(crate::now_ms());
        None
    }

    /// The stored picture of `view` under `key` (a start position), stored on first use.
    pub async fn picture(&self, key: &str, view: &BoardView) -> Option<FileId> {
        if let Some(f) = lock(&self.pictures).get(key) {
            return Some(f.clone());
        }
        // One at a time, so a picture asked for twice at once is stored once.
        let _one = self.storing.lock().await;
        {
            let pictures = lock(&self.pictures);
            if let Some(f) = pictures.get(key) {
                return Some(f.clone());
            }
            let extra = pictures.keys().filter(|k| !is_start_picture(k)).count();
            if !is_start_picture(key) && extra >= MAX_EXTRA_PICTURES {
                return None;
            }
        }
        let file = self
            .store_png(&self.renderer.render(&Scene::from_view(view)))
            .await?;
        lock(&self.pictures).insert(key.to_string(), file.clone());
        Some(file)
    }

    /// Store the start pictures of every card an empty query offers.
    pub async fn store_start_pictures(&self) {
        let Ok(cards) = ugolki_core::table::inline::cards("", &[], "") else {
            return;
        };
        for card in cards {
            self.picture(&card.picture, &card.board).await;
        }
    }

    /// A long text after its photo, when the caption had to be cut.
    async fn rest(&self, chat: ChatId, topic: Option<ThreadId>, text: &str, caption: &str) -> u32 {
        if caption.len() >= text.len() {
            return 0;
        }
        let mut req = self.bot.send_message(chat, cut(text, MAX_TEXT));
        if let Some(t) = topic {
            req = req.message_thread_id(t);
        }
        match req.await {
            Ok(m) => self.note_message(chat, m.id),
            Err(e) => tracing::warn!(error = %e, "the rest of a caption not sent"),
        }
        1
    }
}

impl Surface for Telegram {
    type Error = RequestError;
    type Buttons = InlineKeyboardMarkup;

    fn platform(&self) -> Platform {
        Platform::Telegram
    }

    fn pace(&self, chat: &ChatRef) -> Pace {
        self.limits.pace(chat)
    }

    fn per_second(&self) -> Option<usize> {
        Some(self.limits.per_second)
    }

    fn classify(&self, e: &RequestError) -> Class {
        classify(e)
    }

    fn layout(&self, actions: &[Action], lang: Lang) -> InlineKeyboardMarkup {
        Self::keyboard(actions, lang)
    }

    /// A group's board is edited in place while it is still in view and the game is being
    /// played: one call per move against the group's twenty a minute, where a new board
    /// takes two (the post, and the old board's buttons off).
    fn in_place(&self, chat: &ChatRef, living: &SlotRow, idle: Duration) -> bool {
        if !chat.kind.is_group() || idle > IN_PLACE_IDLE {
            return false;
        }
        let (Ok(group), Ok(board)) = (chat_id(chat), living.message_id.parse::<i32>()) else {
            return false;
        };
        lock(&self.newest)
            .get(&group.0)
            .is_some_and(|n| n - board <= IN_VIEW)
    }

    async fn send(&self, job: &Job<'_>, c: &Content) -> Result<Posted, RequestError> {
        let out = job.out;
        let chat = chat_id(&out.chat)?;
        let topic = topic_of(&out.chat);
        // A reply for one person answers their message (in a group, so they see it).
        let reply = out
            .reply_to
            .as_deref()
            .filter(|_| out.audience == Audience::Sender)
            .and_then(|m| m.parse().ok())
            .map(|m| ReplyParameters::new(MessageId(m)).allow_sending_without_reply());
        let markup = (!c.actions.is_empty()).then(|| self.markup(&out.chat, &c.actions, c.lang));
        let caption = cut(&c.text, MAX_CAPTION);
        let sent = if let Some(image) = &c.image {
            let name = image.kind.file_name();
            let file = InputFile::memory(image.bytes.clone()).file_name(name);
            let m = if image.kind == ImageKind::Replay {
                let mut req = self.bot.send_animation(chat, file).caption(caption.clone());
                if let Some(t) = topic {
                    req = req.message_thread_id(t);
                }
                req.await?
            } else {
                let mut req = self.bot.send_photo(chat, file).caption(caption.clone());
                if let Some(t) = topic {
                    req = req.message_thread_id(t);
                }
                if let Some(m) = markup {
                    req = req.reply_markup(m);
                }
                if let Some(r) = reply {
                    req = req.reply_parameters(r);
                }
                req.await?
            };
            let extra = self.rest(chat, topic, &c.text, &caption).await;
            (m, extra)
        } else {
            let text = cut(if c.text.is_empty() { "…" } else { &c.text }, MAX_TEXT);
            let mut req = self.bot.send_message(chat, text);
            if let Some(t) = topic {
                req = req.message_thread_id(t);
            }
            if let Some(m) = markup {
                req = req.reply_markup(m);
            }
            if let Some(r) = reply {
                req = req.reply_parameters(r);
            }
            (req.await?, 0)
        };
        self.note_message(chat, sent.0.id);
        Ok(Posted {
            message_id: sent.0.id.0.to_string(),
            place: None,
            photo: c.image.is_some(),
            extra_calls: sent.1,
        })
    }

    async fn edit(&self, job: &Job<'_>, at: &SlotRow, c: &Content) -> Result<(), RequestError> {
        let chat = chat_id(&job.out.chat)?;
        let id = MessageId(at.message_id.parse().unwrap_or(0));
        let markup = self.markup(&job.out.chat, &c.actions, c.lang);
        let new_board = c.image.as_ref().filter(|i| i.kind == ImageKind::Board);
        if let (true, Some(image)) = (at.photo, new_board) {
            // A board edited in place: its photo and caption at once.
            let file = InputFile::memory(image.bytes.clone()).file_name(image.kind.file_name());
            let media =
                InputMedia::Photo(InputMediaPhoto::new(file).caption(cut(&c.text, MAX_CAPTION)));
            self.bot
                .edit_message_media(chat, id, media)
                .reply_markup(markup)
                .await?;
        } else if at.photo {
            let req = self.bot.edit_message_caption(chat, id);
            req.caption(cut(&c.text, MAX_CAPTION))
                .reply_markup(markup)
                .await?;
        } else {
            let req = self.bot.edit_message_text(chat, id, cut(&c.text, MAX_TEXT));
            req.reply_markup(markup).await?;
        }
        Ok(())
    }

    async fn clear_buttons(&self, chat: &ChatRef, at: &SlotRow) -> Result<(), RequestError> {
        let id = MessageId(at.message_id.parse().unwrap_or(0));
        self.bot
            .edit_message_reply_markup(chat_id(chat)?, id)
            .reply_markup(InlineKeyboardMarkup::default())
            .await?;
        Ok(())
    }

    /// An inline message: what is for everyone (and, there being nowhere else, what is for
    /// one person) edits it; a board becomes its photo through a picture chat. When no
    /// picture can be stored the caption and buttons still change, so the game goes on.
    async fn one_message(
        &self,
        job: &Job<'_>,
        c: &Content,
        shown: &Shown,
    ) -> Result<bool, RequestError> {
        let inline = job.out.chat.id.as_str();
        let caption = cut(&shown.caption(), MAX_CAPTION);
        let markup = self.layout(&shown.actions(), shown.lang());
        let photo = match &c.image {
            Some(image) if self.has_picture_store() => self.store_png(&image.bytes).await,
            _ => None,
        };
        let pictured = photo.is_some();
        if let Some(file) = photo {
            let media =
                InputMedia::Photo(InputMediaPhoto::new(InputFile::file_id(file)).caption(caption));
            let req = self.bot.edit_message_media_inline(inline, media);
            req.reply_markup(markup).await?;
        } else {
            let req = self
                .bot
                .edit_message_caption_inline(inline)
                .caption(caption);
            req.reply_markup(markup).await?;
        }
        Ok(pictured)
    }
}

#[cfg(test)]
mod limit_tests {
    use super::*;

    #[test]
    fn how_far_down_a_board_is_is_kept_for_groups_and_bounded() {
        let t = Telegram::new(Bot::new("1:x"), Limits::default(), Vec::new());
        let group = ChatRef::new(Platform::Telegram, "-100", ChatKind::Group);
        let board = SlotRow {
            message_id: "10".into(),
            place: None,
            photo: true,
            buttons: true,
            state: None,
        };
        let idle = Duration::from_secs(1);
        t.note_message(ChatId(-100), MessageId(12));
        assert!(t.in_place(&group, &board, idle), "two messages under it");
        t.note_message(ChatId(-100), MessageId(13));
        assert!(!t.in_place(&group, &board, idle), "three");
        t.note_message(ChatId(7), MessageId(1));
        assert_eq!(lock(&t.newest).len(), 1, "a private chat is not kept");
        for g in 1..=i64::try_from(MAX_GROUPS_SEEN).unwrap() {
            t.note_message(ChatId(-1000 - g), MessageId(1));
        }
        assert!(lock(&t.newest).len() <= MAX_GROUPS_SEEN);
    }

    #[test]
    fn the_mini_app_opens_only_from_https_pages() {
        let links = BoardLinks::new(Some("https://games.example"), "ugolki_bot", Some("board"));
        assert_eq!(links.app.as_deref(), Some("https://games.example/app/g/"));
        assert_eq!(
            links.startapp.as_deref(),
            Some("https://t.me/ugolki_bot/board?startapp=")
        );
        let plain = BoardLinks::new(Some("http://127.0.0.1:8080"), "ugolki_bot", Some("board"));
        assert_eq!((plain.app, plain.startapp), (None, None));
        let no_app = BoardLinks::new(Some("https://games.example"), "ugolki_bot", None);
        assert_eq!(no_app.startapp, None, "groups need the Mini App's name");
        assert_eq!(BoardLinks::new(None, "ugolki_bot", Some("board")).app, None);
    }

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
