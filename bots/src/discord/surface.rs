//! Discord as the outbox sees it: a game lives in its own thread, grown from its
//! challenge's message when the challenge is taken; a board is a PNG attachment under an
//! embed with the caption and the running clock's flag as a Discord timestamp (the client
//! counts it down); buttons are components (rows of five, or select menus for many
//! squares); every message is created with the outbox row's id as its `nonce`, enforced,
//! so a send repeated after a crash is the same message, not a second one.

use crate::outbox::one_message::Shown;
use crate::outbox::{cut, Class, Content, ImageKind, Job, Pace, Posted, Surface};
use serenity::all::{
    AutoArchiveDuration, ButtonStyle, ChannelId, ChannelType, CreateActionRow, CreateAttachment,
    CreateButton, CreateEmbed, CreateMessage, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption, CreateThread, EditMessage, EditThread, MessageId, Nonce,
};
use serenity::http::{Http, HttpError};
use std::fmt::Write as _;
use std::sync::Arc;
use ugolki_core::store::{SlotRow, ThreadRow};
use ugolki_core::table::{Action, ChatRef, Platform, Slot, SlotUse, Table};
use ugolki_core::words::{render, Lang, Msg};

/// Discord's limit on a message's text.
pub const MAX_TEXT: usize = 2000;
/// Discord's limits: rows of components per message, buttons per row, options per menu.
pub const MAX_ROWS: usize = 5;
pub const PER_ROW: usize = 5;
pub const MAX_OPTIONS: usize = 25;
/// Select menus' custom ids start so; the chosen option's value is the action.
pub const SELECT_ID: &str = "sel:";
/// The id of a running game's "Open the board" button: answered by launching the Activity
/// (`LAUNCH_ACTIVITY`) in the thread it was pressed in, which the Activity's page reads.
pub const LAUNCH_ID: &str = "activity";
/// Discord's answer when a message has a thread already: the thread's id is the message's.
const THREAD_EXISTS: isize = 160_004;
/// Discord's answer to an edit in an archived thread.
const THREAD_ARCHIVED: isize = 50_083;

/// How long a game's thread may go without a message before Discord archives it: longer
/// than any one move may take under its time control (a message unarchives it anyway; an
/// edit there unarchives it first).
fn archive_after(control: &str) -> AutoArchiveDuration {
    use ugolki_core::clock::TimeControl;
    let longest_move_ms = TimeControl::parse(control).map_or(i64::MAX, |t| t.longest_move_ms());
    let hour = 3_600_000;
    match longest_move_ms {
        ms if ms <= hour / 2 => AutoArchiveDuration::OneHour,
        ms if ms <= 12 * hour => AutoArchiveDuration::OneDay,
        ms if ms <= 48 * hour => AutoArchiveDuration::ThreeDays,
        _ => AutoArchiveDuration::OneWeek,
    }
}

/// How a message's buttons are laid out on Discord.
#[derive(Debug, PartialEq, Eq)]
pub enum Layout {
    /// Rows of at most five buttons.
    Buttons(Vec<Vec<Action>>),
    /// Too many squares for buttons: the squares as select menus of at most 25 options,
    /// then the game's own buttons in rows.
    Menus {
        menus: Vec<Vec<Action>>,
        buttons: Vec<Vec<Action>>,
    },
}

/// Squares (pieces, destinations) and the game's buttons within Discord's five rows: as
/// buttons when they fit, otherwise the squares as select menus (Halma's 19 pieces, a
/// long jump's many destinations). Squares past what four menus hold are left out — no
/// position has that many.
pub fn layout(actions: &[Action]) -> Layout {
    let (squares, others): (Vec<Action>, Vec<Action>) = actions.iter().partition(|a| a.is_square());
    let rows_of =
        |v: &[Action]| -> Vec<Vec<Action>> { v.chunks(PER_ROW).map(<[_]>::to_vec).collect() };
    let buttons = rows_of(&others);
    let square_rows = rows_of(&squares);
    if square_rows.len() + buttons.len() <= MAX_ROWS {
        let mut all = square_rows;
        all.extend(buttons);
        return Layout::Buttons(all);
    }
    let room = MAX_ROWS.saturating_sub(buttons.len()).max(1);
    let menus = squares
        .chunks(MAX_OPTIONS)
        .take(room)
        .map(<[_]>::to_vec)
        .collect();
    Layout::Menus { menus, buttons }
}

/// [`rows`], and on a running game's board (it can be resigned) the button that opens the
/// game in the Activity, when the application has one (`activity`).
pub fn rows_launching(actions: &[Action], lang: Lang, activity: bool) -> Vec<CreateActionRow> {
    let mut all = rows(actions, lang);
    let running = Action::running_game(actions).is_some();
    if activity && running {
        let open = CreateButton::new(LAUNCH_ID)
            .label(render(&Msg::BtnOpenBoard, lang))
            .style(ButtonStyle::Primary);
        let rows = all.len();
        match all.last_mut() {
            Some(CreateActionRow::Buttons(b)) if b.len() < PER_ROW => b.push(open),
            _ if rows < MAX_ROWS => all.push(CreateActionRow::Buttons(vec![open])),
            // No room (a board of square buttons): no button; the App Launcher still
            // opens the Activity.
            _ => {}
        }
    }
    all
}

/// Components for these actions.
pub fn rows(actions: &[Action], lang: Lang) -> Vec<CreateActionRow> {
    let button = |a: &Action| {
        let style = match a {
            Action::Resign { .. } | Action::Decline { .. } | Action::Cancel { .. } => {
                ButtonStyle::Danger
            }
            Action::Accept { .. } | Action::AcceptDraw { .. } | Action::Confirm { .. } => {
                ButtonStyle::Success
            }
            _ => ButtonStyle::Secondary,
        };
        CreateButton::new(a.to_text())
            .label(render(&a.label(), lang))
            .style(style)
    };
    let buttons = |rows: Vec<Vec<Action>>| {
        rows.into_iter()
            .map(|r| CreateActionRow::Buttons(r.iter().map(button).collect()))
    };
    match layout(actions) {
        Layout::Buttons(rows) => buttons(rows).collect(),
        Layout::Menus { menus, buttons: b } => {
            let mut all: Vec<CreateActionRow> = menus
                .into_iter()
                .enumerate()
                .map(|(i, options)| {
                    let options = options
                        .iter()
                        .map(|a| CreateSelectMenuOption::new(render(&a.label(), lang), a.to_text()))
                        .collect();
                    // The menu's own id only tells menus apart; the option is the action.
                    CreateActionRow::SelectMenu(CreateSelectMenu::new(
                        format!("{SELECT_ID}{i}"),
                        CreateSelectMenuKind::String { options },
                    ))
                })
                .collect();
            all.extend(buttons(b));
            all
        }
    }
}

/// What a reply is made of on Discord: a board as an image under an embed with its caption
/// and the side to move's flag as a timestamp, a replay or chart as an attachment, or text;
/// and its buttons. The same for a channel message and an interaction's response.
pub struct Parts {
    pub content: Option<String>,
    pub embed: Option<CreateEmbed>,
    pub file: Option<CreateAttachment>,
    pub rows: Vec<CreateActionRow>,
}

impl Parts {
    pub fn of(c: &Content) -> Parts {
        let mut parts = Parts {
            content: Some(cut(&c.text, MAX_TEXT)),
            embed: None,
            file: (c.image.as_ref())
                .map(|i| CreateAttachment::bytes(i.bytes.clone(), i.kind.file_name())),
            rows: rows(&c.actions, c.lang),
        };
        if c.image.as_ref().is_none_or(|i| i.kind != ImageKind::Board) {
            return parts;
        }
        let mut caption = c.text.clone();
        // The side to move's flag, counted down by the client.
        let left = c
            .board
            .as_ref()
            .and_then(ugolki_core::view::BoardView::running_clock_ms);
        if let Some(ms) = left {
            let _ = write!(caption, "\n⏱ <t:{}:R>", (crate::now_ms() + ms) / 1000);
        }
        let embed = CreateEmbed::new().description(cut(&caption, 4000));
        parts.embed = Some(embed.image("attachment://board.png"));
        parts.content = None;
        parts
    }
}

/// A channel or message named by its id as the store keeps it.
fn channel(id: &str) -> ChannelId {
    ChannelId::new(id.parse().unwrap_or(1).max(1))
}

fn message(id: &str) -> MessageId {
    MessageId::new(id.parse().unwrap_or(1).max(1))
}

pub struct Discord {
    http: Arc<Http>,
    table: Arc<Table>,
    /// The application has an Activity (its sign-in is set up): boards open it.
    activity: bool,
}

impl Discord {
    pub fn new(http: Arc<Http>, table: Arc<Table>) -> Discord {
        Discord {
            http,
            table,
            activity: false,
        }
    }

    /// Boards get a button that launches the Activity.
    #[must_use]
    pub fn with_activity(mut self, activity: bool) -> Discord {
        self.activity = activity;
        self
    }

    /// The channel a reply goes to: its game's thread (made now for a game's first board
    /// when no challenge's message grew one), else where it was asked, else the channel.
    async fn target(&self, job: &Job<'_>) -> String {
        let out = job.out;
        let asked = out.place.clone().unwrap_or_else(|| out.chat.id.clone());
        let Some(game) = out.game else {
            return asked;
        };
        let store = self.table.store();
        if let Ok(Some(t)) = store.thread_of(Platform::Discord.as_str(), game).await {
            return t.thread_id;
        }
        if !matches!(out.slot, Some(SlotUse::Replace(Slot::Board(_)))) {
            return asked;
        }
        let name = render(&Msg::ThreadName { id: game }, out.lang);
        let thread = CreateThread::new(name)
            .kind(ChannelType::PublicThread)
            .auto_archive_duration(self.archive_for(game).await);
        match channel(&out.chat.id)
            .create_thread(&self.http, thread)
            .await
        {
            Ok(t) => {
                let id = t.id.get().to_string();
                self.keep_thread(&out.chat, game, &id).await;
                id
            }
            Err(e) => {
                tracing::warn!(error = %e, "no thread for a game: its boards go to the channel");
                out.chat.id.clone()
            }
        }
    }

    /// A game's thread's archive duration, from its time control.
    async fn archive_for(&self, game: i64) -> AutoArchiveDuration {
        match self.table.store().game(game).await {
            Ok(Some(row)) => archive_after(&row.time_control),
            _ => AutoArchiveDuration::OneWeek,
        }
    }

    async fn keep_thread(&self, chat: &ChatRef, game: i64, thread: &str) {
        let row = ThreadRow {
            game_id: game,
            chat_id: chat.id.clone(),
            thread_id: thread.to_string(),
        };
        let store = self.table.store();
        if let Err(e) = store
            .set_thread(Platform::Discord.as_str(), &row, crate::now_ms())
            .await
        {
            tracing::warn!(error = %e, "thread not kept");
        }
    }

    /// A game's thread, grown from the message of the challenge it came from.
    async fn grow_thread(&self, chat: &ChatRef, at: &SlotRow, game: i64, lang: Lang) {
        let thread = CreateThread::new(render(&Msg::ThreadName { id: game }, lang))
            .auto_archive_duration(self.archive_for(game).await);
        let made = channel(&chat.id)
            .create_thread_from_message(&self.http, message(&at.message_id), thread)
            .await;
        let thread = match made {
            Ok(t) => t.id.get().to_string(),
            // Tried before a crash already: the thread has the message's id.
            Err(e) if code(&e) == Some(THREAD_EXISTS) => at.message_id.clone(),
            Err(e) => {
                tracing::warn!(error = %e, "no thread grown from a challenge");
                return;
            }
        };
        self.keep_thread(chat, game, &thread).await;
    }

    /// Edit the message `at` (in its channel, else the chat).
    async fn edit_at(&self, chat: &ChatRef, at: &SlotRow, e: EditMessage) -> serenity::Result<()> {
        let place = at.place.as_deref().unwrap_or(&chat.id);
        let edited = channel(place)
            .edit_message(&self.http, message(&at.message_id), e.clone())
            .await;
        let edited = match edited {
            // In a thread Discord archived for inactivity: unarchived, then edited.
            Err(refused) if code(&refused) == Some(THREAD_ARCHIVED) => {
                channel(place)
                    .edit_thread(&self.http, EditThread::new().archived(false))
                    .await?;
                channel(place)
                    .edit_message(&self.http, message(&at.message_id), e)
                    .await
                    .map(|_| ())
            }
            other => other.map(|_| ()),
        };
        edited.inspect_err(|e| lacking_logged(e, place))
    }
}

impl Surface for Discord {
    type Error = serenity::Error;
    type Buttons = Vec<CreateActionRow>;

    fn platform(&self) -> Platform {
        Platform::Discord
    }

    fn pace(&self, _chat: &ChatRef) -> Pace {
        // Discord's buckets are kept by serenity's ratelimiter and its 429s.
        Pace::FREE
    }

    /// Each message carries `nonce = ugolki{row id}` with `enforce_nonce`: a repeat within
    /// Discord's window is answered with the message made before.
    fn sends_once(&self) -> bool {
        true
    }

    /// A 429, the server's trouble or the network's: again. Anything else (an unknown
    /// channel or message, missing access or permissions, a bad request): for good.
    fn classify(&self, e: &serenity::Error) -> Class {
        classify(e)
    }

    fn layout(&self, actions: &[Action], lang: Lang) -> Vec<CreateActionRow> {
        rows_launching(actions, lang, self.activity)
    }

    async fn send(&self, job: &Job<'_>, c: &Content) -> serenity::Result<Posted> {
        let out = job.out;
        let place = self.target(job).await;
        let mut p = Parts::of(c);
        p.rows = rows_launching(&c.actions, c.lang, self.activity);
        let ch = channel(&place);
        let mut m = CreateMessage::new()
            .components(p.rows)
            .nonce(Nonce::String(format!("ugolki{}", job.id)))
            .enforce_nonce(true);
        // A reply where it was asked answers the message that asked.
        let asked = out.place.as_deref().unwrap_or(&out.chat.id);
        if let Some(r) = out.reply_to.as_deref().filter(|_| asked == place) {
            // Posted all the same if the message was deleted meanwhile (not a reply then).
            let mut reference = serenity::all::MessageReference::from((ch, message(r)));
            reference.fail_if_not_exists = Some(false);
            m = m.reference_message(reference);
        }
        if let Some(text) = p.content {
            m = m.content(text);
        }
        if let Some(e) = p.embed {
            m = m.embed(e);
        }
        if let Some(f) = p.file {
            m = m.add_file(f);
        }
        let sent = ch
            .send_message(&self.http, m)
            .await
            .inspect_err(|e| lacking_logged(e, &place))?;
        Ok(Posted {
            message_id: sent.id.get().to_string(),
            place: Some(place),
            photo: c.image.is_some(),
            extra_calls: 0,
        })
    }

    async fn edit(&self, job: &Job<'_>, at: &SlotRow, c: &Content) -> serenity::Result<()> {
        let out = job.out;
        let edit = EditMessage::new()
            .content(cut(&c.text, MAX_TEXT))
            .components(rows_launching(&c.actions, c.lang, self.activity));
        self.edit_at(&out.chat, at, edit).await?;
        // A challenge taken: its game's thread grows from its message.
        if let (Some(SlotUse::Edit(Slot::Challenge(_))), Some(game)) = (out.slot, out.game) {
            self.grow_thread(&out.chat, at, game, out.lang).await;
        }
        Ok(())
    }

    async fn clear_buttons(&self, chat: &ChatRef, at: &SlotRow) -> serenity::Result<()> {
        let edit = EditMessage::new().components(Vec::new());
        self.edit_at(chat, at, edit).await
    }

    /// A DM where only a user installed the app: Discord gives the bot no way to speak
    /// there unprompted. What is said while someone presses is answered through their
    /// interaction (`answers.rs`); the rest is not posted (the next press shows the game).
    async fn one_message(&self, _: &Job<'_>, _: &Content, _: &Shown) -> serenity::Result<bool> {
        Err(serenity::Error::Other("a chat the bot is not part of"))
    }
}

/// Discord's code for a call the bot's permissions in the channel do not allow.
const MISSING_PERMISSIONS: isize = 50013;

/// A post or edit refused for the bot's permissions (a typed move's board, a timer's notice: no
/// interaction to answer, so nobody is told in the chat) is logged with what the bot needs,
/// for the operator to fix the channel's permissions.
fn lacking_logged(e: &serenity::Error, channel: &str) {
    if code(e) == Some(MISSING_PERMISSIONS) {
        let needed = super::permissions::names(super::permissions::NEEDED, Lang::EN);
        tracing::warn!(channel, needed = %needed, "a post refused for missing permissions (50013)");
    }
}

/// Discord's JSON error code of a refused call, if Discord refused it.
fn code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// What a failed call calls for: 429s, server and network errors are tried again.
pub(crate) fn classify(e: &serenity::Error) -> Class {
    match e {
        // The token reset or wrong: no chat's fault (the row waits for a good token).
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r))
            if r.status_code.as_u16() == 401 =>
        {
            Class::Refused
        }
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r))
            if r.status_code.as_u16() == 429 || r.status_code.is_server_error() =>
        {
            Class::Retry
        }
        serenity::Error::Http(HttpError::Request(_)) | serenity::Error::Io(_) => Class::Retry,
        _ => Class::Gone,
    }
}

#[cfg(test)]
mod limit_tests {
    use super::*;

    #[test]
    fn every_board_fits_discord_components_with_every_square() {
        let mut menus_used = false;
        for (what, actions) in crate::test_positions::button_lists() {
            let shown = match layout(&actions) {
                Layout::Buttons(rows) => {
                    assert!(rows.len() <= MAX_ROWS, "{what}: {} rows", rows.len());
                    assert!(rows.iter().all(|r| r.len() <= PER_ROW), "{what}");
                    rows.iter().map(Vec::len).sum::<usize>()
                }
                Layout::Menus { menus, buttons } => {
                    menus_used = true;
                    assert!(menus.len() + buttons.len() <= MAX_ROWS, "{what}");
                    assert!(menus.iter().all(|m| m.len() <= MAX_OPTIONS), "{what}");
                    assert!(buttons.iter().all(|r| r.len() <= PER_ROW), "{what}");
                    menus.iter().chain(&buttons).map(Vec::len).sum::<usize>()
                }
            };
            assert_eq!(shown, actions.len(), "{what}: every square shown");
        }
        assert!(menus_used, "Halma's 19 pieces need select menus");
    }

    /// Discord's answer `status` with its JSON body, as serenity reads it.
    async fn answered(status: u16, body: &'static str) -> serenity::Error {
        let r = axum::http::Response::builder()
            .status(status)
            .body(body)
            .expect("a response");
        let r = serenity::http::ErrorResponse::from_response(r.into(), reqwest::Method::POST).await;
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r))
    }

    /// A 401 is the token's (reset while running): the row waits and the process ends; a
    /// 429 or a server error is tried again; a 403 or a 404 is the chat's, for good.
    #[tokio::test]
    async fn a_refused_token_is_told_apart_from_a_refused_chat() {
        let unauthorized = answered(401, r#"{"message": "401: Unauthorized", "code": 0}"#);
        assert_eq!(classify(&unauthorized.await), Class::Refused);
        let limited = answered(
            429,
            r#"{"message": "You are being rate limited.", "retry_after": 0.5, "global": false}"#,
        );
        assert_eq!(classify(&limited.await), Class::Retry);
        let down = answered(502, r#"{"message": "Bad Gateway", "code": 0}"#);
        assert_eq!(classify(&down.await), Class::Retry);
        let missing = answered(403, r#"{"message": "Missing Permissions", "code": 50013}"#);
        assert_eq!(classify(&missing.await), Class::Gone);
        let gone = answered(404, r#"{"message": "Unknown Channel", "code": 10003}"#);
        assert_eq!(classify(&gone.await), Class::Gone);
    }

    #[test]
    fn a_long_line_is_cut_to_discords_2000_characters() {
        let long = "Game #12345: alice vs bob · classic3x3 10+5\n".repeat(100);
        let content = cut(&long, MAX_TEXT);
        assert!(
            content.chars().count() <= 2000,
            "{}",
            content.chars().count()
        );
        assert!(long.starts_with(content.trim_end_matches('…')));
    }
}
