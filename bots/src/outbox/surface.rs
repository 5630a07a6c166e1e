//! What a platform provides to the outbox: a small surface — send a message, edit one,
//! take its buttons off, show a one-message chat, classify an error, lay out buttons, and
//! state its limits. Everything else (queues, leases, retries, pacing, coalescing, living
//! messages, delivery reports, pictures) is the outbox's, the same for every platform.

use super::one_message::Shown;
use super::pacing::Pace;
use std::future::Future;
use std::time::Duration;
use ugolki_core::store::SlotRow;
use ugolki_core::table::{Action, ChatRef, Outgoing, Platform};
use ugolki_core::view::BoardView;
use ugolki_core::words::Lang;

/// `text` cut to at most `max` UTF-16 units (what Telegram and Discord count as
/// characters), with `…` when cut.
#[must_use]
pub fn cut(text: &str, max: usize) -> String {
    let units: usize = text.chars().map(char::len_utf16).sum();
    if units <= max {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 1;
    for c in text.chars() {
        used += c.len_utf16();
        if used > max {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// A row being delivered: its outbox id (a platform that de-duplicates sends is given it
/// as the nonce) and the reply it holds.
pub struct Job<'a> {
    pub id: i64,
    pub out: &'a Outgoing,
}

/// A picture, drawn for this reply.
#[derive(Clone, Debug)]
pub struct Image {
    pub bytes: Vec<u8>,
    pub kind: ImageKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    /// A board (PNG): a photo.
    Board,
    /// A rating chart (PNG).
    Chart,
    /// A tournament's standings (PNG).
    Standings,
    /// A replay (GIF): an animation.
    Replay,
}

impl ImageKind {
    /// The file name platforms show.
    #[must_use]
    pub fn file_name(self) -> &'static str {
        match self {
            ImageKind::Board => "board.png",
            ImageKind::Chart => "chart.png",
            ImageKind::Standings => "standings.png",
            ImageKind::Replay => "replay.gif",
        }
    }
}

/// What a message says, ready for a platform: the text in its reader's language, the
/// picture drawn, the buttons that apply.
#[derive(Clone, Debug)]
pub struct Content {
    pub text: String,
    pub image: Option<Image>,
    pub actions: Vec<Action>,
    pub lang: Lang,
    /// The board drawn, as data (its clocks, its pieces for a text board).
    pub board: Option<BoardView>,
}

/// A message a platform took: where it is, for the slot it fills.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Posted {
    pub message_id: String,
    /// The channel or thread it is in, where the platform needs it.
    pub place: Option<String>,
    /// A photo (edited by its caption) rather than a text.
    pub photo: bool,
    /// Calls it took beyond the first (a text too long for a caption follows it), for
    /// the chat's limits.
    pub extra_calls: u32,
}

/// What a failed call means for the row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Class {
    /// Trouble on the way (the network, the server): try again after a backoff.
    Retry,
    /// The platform's limit: try again after this long.
    RetryAfter(Duration),
    /// What was asked is there already (an edit to the same content): done.
    Unchanged,
    /// The chat has a new id (a Telegram group became a supergroup).
    Moved(String),
    /// Cannot be delivered: the chat or the message is gone, the bot may not post there.
    Gone,
    /// The bot can reach the chat no more (removed from a group, blocked in a private
    /// chat): the chat is closed ([`ugolki_core::table::Table::chat_gone`]).
    Left,
    /// The platform refused the bot's token (revoked, reset, or wrong): no chat's fault.
    /// The row waits for a process with a good token, and this one stops
    /// ([`crate::outbox::Outbox::token_refused`]).
    Refused,
}

/// A platform's part of delivery.
pub trait Surface: Send + Sync + 'static {
    type Error: std::fmt::Display + Send + Sync + 'static;

    fn platform(&self) -> Platform;

    /// How fast calls may go to a chat.
    fn pace(&self, chat: &ChatRef) -> Pace;

    /// Calls the bot may make in a second, over all chats (none: no such limit).
    fn per_second(&self) -> Option<usize> {
        None
    }

    /// Whether a row is marked sent just before its call rather than after (a terminal
    /// cannot be asked what it showed: a kill between the two loses that line instead of
    /// repeating it).
    fn marks_first(&self) -> bool {
        false
    }

    /// Whether the platform makes a repeated send harmless (Discord's `enforce_nonce`
    /// answers a repeat with the message made before). Where it does not (Telegram), a new
    /// message is sent only once the marks of the lane's rows before it are written, so a
    /// crash can repeat at most the one send in flight.
    fn sends_once(&self) -> bool {
        false
    }

    fn classify(&self, e: &Self::Error) -> Class;

    /// Whether a new board for a game is shown by editing its living board `living` (last
    /// changed `idle` ago) in place rather than posted anew (a post also costs a call to
    /// take the old board's buttons off): where calls are scarce and the living board is
    /// still in the players' view. Never, unless the platform says so.
    fn in_place(&self, chat: &ChatRef, living: &SlotRow, idle: Duration) -> bool {
        let _ = (chat, living, idle);
        false
    }

    /// The platform's buttons for these actions, laid out within its limits.
    type Buttons;
    fn layout(&self, actions: &[Action], lang: Lang) -> Self::Buttons;

    /// Post a new message.
    fn send(
        &self,
        job: &Job<'_>,
        c: &Content,
    ) -> impl Future<Output = Result<Posted, Self::Error>> + Send;

    /// Edit the message `at` into `c` (its text or caption, and buttons; its picture too
    /// where the platform can change it).
    fn edit(
        &self,
        job: &Job<'_>,
        at: &SlotRow,
        c: &Content,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Take the buttons off the message `at` (a newer one has them now).
    fn clear_buttons(
        &self,
        chat: &ChatRef,
        at: &SlotRow,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Show a row in a one-message chat, which is never posted to: its one message is
    /// edited to show `shown` (with `c`'s picture, if any), or the row cannot be shown
    /// there (`Gone`). Whether the message shows the row's picture now (a board counts as
    /// delivered only then).
    fn one_message(
        &self,
        job: &Job<'_>,
        c: &Content,
        shown: &Shown,
    ) -> impl Future<Output = Result<bool, Self::Error>> + Send;
}
