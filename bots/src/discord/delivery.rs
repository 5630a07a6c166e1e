//! Replies on their way to Discord: one queue per channel (each channel reads its replies in
//! order), a thread per game (created from the challenge's message), boards as an image
//! attachment under an embed with the clock as a Discord timestamp (the client counts it
//! down), buttons as components, living messages edited or replaced, 429s and server errors
//! retried by this layer (serenity's own ratelimiter is off when the API is proxied).

use crate::queues::{lock, Queues};
use serenity::all::{
    ButtonStyle, ChannelId, ChannelType, CreateActionRow, CreateAttachment, CreateButton,
    CreateEmbed, CreateMessage, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption,
    CreateThread, EditMessage, MessageId,
};
use serenity::http::{Http, HttpError};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use ugolki_core::table::{Action, Outgoing, Slot, SlotUse, Table};
use ugolki_core::words::{render, Msg};
use ugolki_render::{Renderer, Scene};

/// Discord's limit on a message's text.
const MAX_TEXT: usize = 2000;
/// Tries of one call before the reply is given up.
const MAX_TRIES: u32 = 10;

/// A reply and where it goes when not to its game's thread: the channel a message was
/// typed in, and the message it answers.
pub struct Job {
    pub out: Outgoing,
    pub channel: Option<u64>,
    pub reply_to: Option<u64>,
}

pub struct Delivery {
    http: Arc<Http>,
    table: Arc<Table>,
    renderer: Renderer,
    queues: Queues<u64, Job>,
    /// Living messages by (channel, slot).
    living: Mutex<HashMap<(u64, Slot), u64>>,
    /// Games whose thread is not made yet, and the challenges they came from (the thread
    /// grows from that challenge's message).
    started: Mutex<HashMap<i64, i64>>,
    /// The thread of each game.
    threads: Mutex<HashMap<i64, u64>>,
    /// Threads' parent channels (where their games are, for the table).
    parents: Mutex<HashMap<u64, u64>>,
    /// Chats the bot is not part of (answered through interactions only).
    private: Mutex<std::collections::HashSet<u64>>,
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max - 1).collect();
    s.push('…');
    s
}

/// Whether an error is worth another try: a 429, a server error, the network.
fn transient(e: &serenity::Error) -> bool {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => {
            r.status_code.as_u16() == 429 || r.status_code.is_server_error()
        }
        serenity::Error::Http(HttpError::Request(_)) => true,
        _ => false,
    }
}

fn is_429(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) if r.status_code.as_u16() == 429)
}

/// Discord's limits: rows of components per message, buttons per row, options per select
/// menu.
pub const MAX_ROWS: usize = 5;
pub const PER_ROW: usize = 5;
pub const MAX_OPTIONS: usize = 25;

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

fn rows(out: &Outgoing) -> Vec<CreateActionRow> {
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
            .label(render(&a.label(), out.lang))
            .style(style)
    };
    let buttons = |rows: Vec<Vec<Action>>| {
        rows.into_iter()
            .map(|r| CreateActionRow::Buttons(r.iter().map(button).collect()))
    };
    match layout(&out.actions) {
        Layout::Buttons(rows) => buttons(rows).collect(),
        Layout::Menus { menus, buttons: b } => {
            let mut all: Vec<CreateActionRow> = menus
                .into_iter()
                .enumerate()
                .map(|(i, options)| {
                    let options = options
                        .iter()
                        .map(|a| {
                            CreateSelectMenuOption::new(render(&a.label(), out.lang), a.to_text())
                        })
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

/// Select menus' custom ids start so; the chosen option's value is the action.
pub const SELECT_ID: &str = "sel:";

impl Delivery {
    pub fn new(http: Arc<Http>, table: Arc<Table>) -> Arc<Delivery> {
        Arc::new(Delivery {
            http,
            table,
            renderer: Renderer::default(),
            queues: Queues::new("discord"),
            living: Mutex::new(HashMap::new()),
            started: Mutex::new(HashMap::new()),
            threads: Mutex::new(HashMap::new()),
            parents: Mutex::new(HashMap::new()),
            private: Mutex::new(std::collections::HashSet::new()),
        })
    }

    /// The channel a game is played in: its parent channel when `channel` is a thread the
    /// bot made for a game.
    pub async fn chat_of(&self, channel: u64) -> u64 {
        if let Some(p) = lock(&self.parents).get(&channel) {
            return *p;
        }
        let stored = self
            .table
            .store()
            .counter(&format!("discord_parent:{channel}"))
            .await
            .ok()
            .flatten()
            .and_then(|p| u64::try_from(p).ok());
        if let Some(p) = stored {
            lock(&self.parents).insert(channel, p);
            return p;
        }
        channel
    }

    async fn thread_of(&self, game: i64) -> Option<u64> {
        if let Some(t) = lock(&self.threads).get(&game) {
            return Some(*t);
        }
        let t = self
            .table
            .store()
            .counter(&format!("discord_thread:{game}"))
            .await
            .ok()
            .flatten()
            .and_then(|t| u64::try_from(t).ok())?;
        lock(&self.threads).insert(game, t);
        Some(t)
    }

    async fn remember_thread(&self, game: i64, thread: u64, parent: u64) {
        lock(&self.threads).insert(game, thread);
        lock(&self.parents).insert(thread, parent);
        let store = self.table.store();
        for (key, value) in [
            (format!("discord_thread:{game}"), thread),
            (format!("discord_parent:{thread}"), parent),
        ] {
            if let Err(e) = store
                .set_counter(&key, i64::try_from(value).unwrap_or(0))
                .await
            {
                tracing::warn!(error = %e, "thread not stored");
            }
        }
    }

    /// Queue a reply on its parent channel's queue (a game's thread is served in order with
    /// the channel it belongs to).
    pub fn enqueue(self: &Arc<Self>, job: Job) {
        let Ok(chat) = job.out.chat.parse::<u64>() else {
            tracing::warn!(chat = %job.out.chat, "reply for a chat that is not a Discord channel");
            return;
        };
        let me = self.clone();
        self.queues
            .push(chat, job, move |chat, rx| me.work(chat, rx));
    }

    /// Stop taking replies; let the queues empty for at most `grace`.
    pub async fn close(&self, grace: Duration) {
        self.queues.close(grace).await;
    }

    async fn work(self: Arc<Self>, chat: u64, mut rx: mpsc::UnboundedReceiver<Job>) {
        while let Some(job) = rx.recv().await {
            self.queues.done();
            self.deliver(chat, job).await;
        }
    }

    /// Make one call, retrying 429s and server errors with backoff.
    async fn call<T, F, Fut>(&self, what: &str, mut f: F) -> Option<T>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = serenity::Result<T>>,
    {
        let mut backoff = Duration::from_millis(250);
        for _ in 0..MAX_TRIES {
            match f().await {
                Ok(v) => return Some(v),
                Err(e) if transient(&e) => {
                    if is_429(&e) {
                        metrics::counter!("ugolki_platform_429_total", "platform" => "discord")
                            .increment(1);
                    }
                    metrics::counter!("ugolki_platform_retries_total", "platform" => "discord")
                        .increment(1);
                    tracing::warn!(what, error = %e, "retrying");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(20));
                }
                Err(e) => {
                    tracing::error!(what, error = %e, "reply not delivered");
                    return None;
                }
            }
        }
        None
    }

    /// The channel a reply goes to: its game's thread, made now for a starting game.
    async fn target(&self, chat: u64, job: &Job) -> u64 {
        let Some(game) = job.out.game else {
            return job.channel.unwrap_or(chat);
        };
        if let Some(t) = self.thread_of(game).await {
            return t;
        }
        // A game's first board: its thread grows from the challenge's message.
        if !matches!(job.out.slot, Some(SlotUse::Replace(Slot::Board(_)))) {
            return job.channel.unwrap_or(chat);
        }
        let name = format!("Game #{game}");
        // This game's own challenge message (not the newest challenge: challenges may be
        // accepted in any order); it is done with once its game starts.
        let from = lock(&self.started)
            .remove(&game)
            .and_then(|c| lock(&self.living).remove(&(chat, Slot::Challenge(c))));
        let channel = ChannelId::new(chat);
        let thread = match from {
            Some(m) => {
                self.call("createThreadFromMessage", || {
                    channel.create_thread_from_message(
                        &self.http,
                        MessageId::new(m),
                        CreateThread::new(name.clone()),
                    )
                })
                .await
            }
            None => {
                self.call("createThread", || {
                    channel.create_thread(
                        &self.http,
                        CreateThread::new(name.clone()).kind(ChannelType::PublicThread),
                    )
                })
                .await
            }
        };
        match thread {
            Some(t) => {
                let t = t.id.get();
                self.remember_thread(game, t, chat).await;
                t
            }
            None => chat,
        }
    }

    async fn deliver(&self, chat: u64, job: Job) {
        if lock(&self.private).contains(&chat) {
            tracing::debug!(chat, "not posted: a chat the bot is not part of");
            return;
        }
        if let Msg::ChallengeTaken { id, game, .. } = job.out.message {
            lock(&self.started).insert(game, id);
        }
        let channel = self.target(chat, &job).await;
        let out = &job.out;
        let text = cut(&out.text(), MAX_TEXT);
        if let Some(SlotUse::Edit(slot)) = out.slot {
            let living = lock(&self.living).get(&(chat, slot)).copied();
            if let Some(m) = living {
                let edit = || {
                    EditMessage::new()
                        .content(text.clone())
                        .components(rows(out))
                };
                let done = self
                    .call("editMessage", || {
                        ChannelId::new(channel_of_slot(chat, channel, slot)).edit_message(
                            &self.http,
                            MessageId::new(m),
                            edit(),
                        )
                    })
                    .await;
                if done.is_some() {
                    return;
                }
            }
        }
        let Some(sent) = self.send(channel, &job, &text).await else {
            return;
        };
        if let Some(SlotUse::Replace(slot) | SlotUse::Edit(slot)) = out.slot {
            let old = lock(&self.living).insert((chat, slot), sent);
            if let Some(old) = old.filter(|o| *o != sent) {
                // The replaced message keeps no buttons.
                let at = channel_of_slot(chat, channel, slot);
                self.call("editMessage", || {
                    ChannelId::new(at).edit_message(
                        &self.http,
                        MessageId::new(old),
                        EditMessage::new().components(Vec::new()),
                    )
                })
                .await;
            }
        }
    }

    /// What a reply is made of: a board as an image under an embed with its caption and the
    /// running clock's deadline as a Discord timestamp, a replay as an animation, or text;
    /// and its buttons. The same for a channel message and an interaction's response.
    pub(super) fn parts(&self, out: &Outgoing, text: &str) -> Parts {
        let rows = rows(out);
        if !out.replay.is_empty() {
            let scenes: Vec<Scene> = out.replay.iter().map(Scene::from_view).collect();
            let file = match ugolki_render::Renderer::for_replays().animate(&scenes) {
                Ok(gif) => Some(CreateAttachment::bytes(gif, "replay.gif")),
                Err(e) => {
                    tracing::error!(error = %e, "replay not drawn");
                    None
                }
            };
            return Parts {
                content: Some(cut(text, 2000)),
                embed: None,
                file,
                rows,
            };
        }
        match &out.board {
            Some(view) => {
                let png = self.renderer.render(&Scene::from_view(view));
                let mut caption = text.to_string();
                // The side to move's flag, counted down by the client.
                let left = match view.to_move {
                    Some(ugolki_core::Color::White) => view.white_clock_ms,
                    Some(ugolki_core::Color::Black) => view.black_clock_ms,
                    None => None,
                };
                if let Some(ms) = left {
                    let at = (crate::now_ms() + ms) / 1000;
                    let _ = write!(caption, "\n⏱ <t:{at}:R>");
                }
                Parts {
                    content: None,
                    embed: Some(
                        CreateEmbed::new()
                            .description(cut(&caption, 4000))
                            .image("attachment://board.png"),
                    ),
                    file: Some(CreateAttachment::bytes(png, "board.png")),
                    rows,
                }
            }
            None => text_parts(text, rows),
        }
    }

    /// Send a reply to `channel`.
    async fn send(&self, channel: u64, job: &Job, text: &str) -> Option<u64> {
        let out = &job.out;
        let ch = ChannelId::new(channel);
        let message = || {
            let p = self.parts(out, text);
            let mut m = CreateMessage::new().components(p.rows);
            if let Some(r) = job.reply_to.filter(|_| job.channel == Some(channel)) {
                m = m.reference_message((ch, MessageId::new(r)));
            }
            if let Some(c) = p.content {
                m = m.content(c);
            }
            if let Some(e) = p.embed {
                m = m.embed(e);
            }
            if let Some(f) = p.file {
                m = m.add_file(f);
            }
            m
        };
        let sent = self
            .call("createMessage", || ch.send_message(&self.http, message()))
            .await?;
        if let (Some(game), Some(ply), Some(_)) = (out.game, out.ply, &out.board) {
            self.table.delivered(game, ply, crate::now_ms()).await;
        }
        Some(sent.id.get())
    }

    /// A chat the bot is not part of (a user-installed app's DM): answered only through
    /// interactions, so timer messages for it are not posted (they show at the next press).
    pub fn mark_private(&self, chat: u64) {
        lock(&self.private).insert(chat);
    }

    /// Report a board that reached a private chat through an interaction (fair clocks).
    pub async fn delivered(&self, out: &Outgoing) {
        if let (Some(game), Some(ply), Some(_)) = (out.game, out.ply, &out.board) {
            self.table.delivered(game, ply, crate::now_ms()).await;
        }
    }
}

/// A reply's parts (see [`Delivery::parts`]).
pub(super) struct Parts {
    pub content: Option<String>,
    pub embed: Option<CreateEmbed>,
    pub file: Option<CreateAttachment>,
    pub rows: Vec<CreateActionRow>,
}

/// A line without a picture. Cut here too: a private chat's answers come straight to this
/// (a long `/games`), not through `deliver`.
fn text_parts(text: &str, rows: Vec<CreateActionRow>) -> Parts {
    Parts {
        content: Some(cut(text, MAX_TEXT)),
        embed: None,
        file: None,
        rows,
    }
}

/// Where a slot's living message is: a game's board in its thread, a challenge in the
/// channel.
fn channel_of_slot(chat: u64, target: u64, slot: Slot) -> u64 {
    match slot {
        Slot::Board(_) => target,
        Slot::Challenge(_) => chat,
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

    #[test]
    fn a_long_line_is_cut_to_discords_2000_characters() {
        let long = "Game #12345: alice vs bob · classic3x3 10+5\n".repeat(100);
        let content = text_parts(&long, Vec::new()).content.unwrap();
        assert!(
            content.chars().count() <= 2000,
            "{}",
            content.chars().count()
        );
        assert!(long.starts_with(content.trim_end_matches('…')));
    }
}
