//! The table: the platform-free service that turns chat messages into games. Messages come
//! in as [`Incoming`], replies go out as [`Outgoing`]; timers (flags, reminders, automatic
//! moves, challenge expiry) fire from [`Table::fire_due`], driven by [`Table::run_timers`] or,
//! in tests, by a [`FakeTime`] moved by hand.
//!
//! Every change is committed to the store before its reply is returned; messages for one game
//! are serialized by a per-game lock, and every write checks the game's ply, so a race or a
//! double-sent message never applies twice.

mod actions;
mod challenges;
pub mod command;
mod leaderboard;
mod live;
mod play;
pub mod texts;
mod time;
mod timers;
mod types;

pub use time::{FakeTime, SystemTime, TimeSource};
pub use types::{BoardView, ChartView, Incoming, Mention, Outgoing, User};

use crate::game::Game;
use crate::store::{Player, Store, StoreError};
use command::{Command, Parsed};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use timers::Timers;

/// Settings of the table.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a challenge stays open.
    pub challenge_ttl_ms: i64,
    /// Damas activity monitor: how long a player may be idle before the opponent can claim.
    pub idle_limit_ms: i64,
    /// The bot's @name, for commands like `/help@name`.
    pub bot_name: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            challenge_ttl_ms: 10 * 60_000,
            idle_limit_ms: 3 * 60_000,
            bot_name: None,
        }
    }
}

/// The service. Share it in an `Arc`; every method takes `&self`.
pub struct Table {
    store: Store,
    time: Arc<dyn TimeSource>,
    config: Config,
    /// One lock per game: messages for a game are handled one at a time.
    locks: Mutex<HashMap<i64, Arc<tokio::sync::Mutex<()>>>>,
    /// Replayed games by id, with the ply they were replayed to.
    cache: Mutex<HashMap<i64, (i64, Game)>>,
    timers: Mutex<Timers>,
    /// Woken when a timer earlier than the one being waited for is armed.
    wake: tokio::sync::Notify,
    last_beat: std::sync::atomic::AtomicI64,
    /// Players by id, and ids by (platform, platform user id): names change rarely, and a
    /// move should not cost a database write for them. Chips are read fresh where they count.
    people: Mutex<HashMap<i64, Player>>,
    ids: Mutex<HashMap<(String, String), i64>>,
}

/// Why handling stopped: a store failure (logged; the user gets a generic reply).
type Outcome<T> = Result<T, StoreError>;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic elsewhere never leaves these maps half-updated; keep going.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Table {
    /// Open the table on a store: credit running clocks with the time the bot was down,
    /// reload every unfinished game and open challenge, and arm their timers.
    pub async fn open(store: Store, time: Arc<dyn TimeSource>, config: Config) -> Outcome<Table> {
        let now = time.now_ms();
        if let Some(beat) = store.last_beat().await? {
            let down = now - beat;
            if down > 0 {
                let n = store.credit_downtime(down).await?;
                tracing::info!(
                    down_ms = down,
                    games = n,
                    "credited downtime to running clocks"
                );
            }
        }
        let table = Table {
            store,
            time,
            config,
            locks: Mutex::new(HashMap::new()),
            cache: Mutex::new(HashMap::new()),
            timers: Mutex::new(Timers::default()),
            wake: tokio::sync::Notify::new(),
            last_beat: std::sync::atomic::AtomicI64::new(i64::MIN),
            people: Mutex::new(HashMap::new()),
            ids: Mutex::new(HashMap::new()),
        };
        for row in table.store.active_games().await? {
            match table.live(row.id).await {
                Ok(Some(live)) => table.arm_game(&live),
                Ok(None) => {}
                Err(e) => tracing::error!(game = row.id, error = %e, "cannot reload game"),
            }
        }
        for c in table.store.open_challenges().await? {
            table.arm(timers::Key::Challenge(c.id), c.expires_at);
        }
        table.beat(now).await;
        Ok(table)
    }

    /// The store (for adapters that need players' names, and for tests).
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    fn now(&self) -> i64 {
        self.time.now_ms()
    }

    /// Record that the bot is alive (at most once a second).
    async fn beat(&self, now: i64) {
        use std::sync::atomic::Ordering;
        let last = self.last_beat.load(Ordering::Relaxed);
        if now.saturating_sub(last) < 1000 && now >= last {
            return;
        }
        self.last_beat.store(now, Ordering::Relaxed);
        if let Err(e) = self.store.beat(now).await {
            tracing::warn!(error = %e, "heartbeat not written");
        }
    }

    /// The player for a platform user, registered on first sight (cached).
    async fn person_for(&self, platform: &str, user: &User, now: i64) -> Outcome<Player> {
        let key = (platform.to_string(), user.id.clone());
        let cached = lock(&self.ids)
            .get(&key)
            .and_then(|id| lock(&self.people).get(id).cloned());
        if let Some(p) = cached {
            let same_handle = user
                .handle
                .as_ref()
                .is_none_or(|h| p.handle.as_deref() == Some(h.to_ascii_lowercase().as_str()));
            if p.name == user.name && same_handle {
                return Ok(p);
            }
        }
        let p = self.store.player_for(platform, user, now).await?;
        lock(&self.ids).insert(key, p.id);
        lock(&self.people).insert(p.id, p.clone());
        Ok(p)
    }

    /// A player by id (cached).
    async fn person(&self, id: i64) -> Outcome<Option<Player>> {
        if let Some(p) = lock(&self.people).get(&id).cloned() {
            return Ok(Some(p));
        }
        let p = self.store.player(id).await?;
        if let Some(p) = &p {
            lock(&self.people).insert(id, p.clone());
        }
        Ok(p)
    }

    /// A game is over: drop its timer, its replay and its lock from memory (the store keeps
    /// it), so a long-running bot holds only unfinished games.
    fn forget_game(&self, id: i64) {
        self.disarm(timers::Key::Game(id));
        lock(&self.cache).remove(&id);
        lock(&self.locks).remove(&id);
    }

    async fn game_lock(&self, id: i64) -> tokio::sync::OwnedMutexGuard<()> {
        let m = lock(&self.locks).entry(id).or_default().clone();
        m.lock_owned().await
    }

    /// Handle one message: the replies to send, in order (empty when it was not for us).
    pub async fn handle(&self, msg: &Incoming) -> Vec<Outgoing> {
        let now = self.now();
        let parsed = match command::parse(&msg.text, self.config.bot_name.as_deref()) {
            Ok(Parsed::Ignore) => return Vec::new(),
            Ok(p) => Ok(p),
            Err(e) => Err(e),
        };
        let result = self.dispatch(msg, parsed, now).await;
        self.beat(now).await;
        match result {
            Ok(out) => out,
            Err(StoreError::Conflict) => vec![reply(msg, texts::conflict())],
            Err(StoreError::Repeat) => Vec::new(),
            Err(e) => {
                tracing::error!(platform = %msg.platform, chat = %msg.chat, error = %e, "message failed");
                vec![reply(msg, texts::internal_error())]
            }
        }
    }

    async fn dispatch(
        &self,
        msg: &Incoming,
        parsed: Result<Parsed, command::CommandError>,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        // A repeated platform message (a retry, a double send) is handled once. Moves, the
        // hot path, record their message id in the move's own transaction (see `typed_move`);
        // everything else records it here.
        let is_move = matches!(
            parsed,
            Ok(Parsed::MoveText(_) | Parsed::Command(Command::Move(..)))
        );
        if !is_move
            && !self
                .store
                .first_sight(&msg.platform, &msg.chat, &msg.message_id, now)
                .await?
        {
            return Ok(Vec::new());
        }
        let parsed = match parsed {
            Ok(p) => p,
            Err(e) => return Ok(vec![reply(msg, e.to_string())]),
        };
        let me = self.person_for(&msg.platform, &msg.user, now).await?;
        match parsed {
            Parsed::Ignore => Ok(Vec::new()),
            Parsed::MoveText(text) => self.typed_move(msg, &me, None, &text, false, now).await,
            Parsed::Command(c) => self.command(msg, &me, c, now).await,
        }
    }

    async fn command(
        &self,
        msg: &Incoming,
        me: &Player,
        c: Command,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        match c {
            Command::Challenge(spec) => self.challenge(msg, me, &spec, now).await,
            Command::Accept(n) => self.accept(msg, me, n, now).await,
            Command::Decline(n) => self.decline(msg, me, n).await,
            Command::Cancel(n) => self.cancel(msg, me, n).await,
            Command::Move(n, text) => self.typed_move(msg, me, n, &text, true, now).await,
            Command::Confirm(n) => self.confirm(msg, me, n, now).await,
            Command::Moves(n, square) => self.show_moves(msg, me, n, &square, now).await,
            Command::Board(n) => self.show_board(msg, me, n, now).await,
            Command::Resign(n) => self.resign(msg, me, n, now).await,
            Command::Draw(n) => self.draw(msg, me, n, now).await,
            Command::NoDraw(n) => self.no_draw(msg, me, n).await,
            Command::Abort(n) => self.abort(msg, me, n, now).await,
            Command::Claim(n) => self.claim(msg, me, n, now).await,
            Command::Games => self.games(msg, me).await,
            Command::Record(n) => self.record(msg, me, n).await,
            Command::Help => Ok(vec![reply(msg, texts::help())]),
            Command::Rules(v) => Ok(vec![reply(msg, actions::rules_text(v.as_deref()))]),
            Command::Rating(kind) => self.rating(msg, me, kind.as_deref(), now).await,
            Command::Top {
                kind,
                month,
                global,
            } => self.top(msg, me, kind.as_deref(), month, global, now).await,
            Command::Chips => self.chips(msg, me).await,
        }
    }
}

/// An `@name` in the text that the adapter could not turn into a mention (so a challenge
/// to it would silently become an open one).
fn unresolved_mention(msg: &Incoming) -> Option<&str> {
    if !msg.mentions.is_empty() {
        return None;
    }
    msg.text
        .split_whitespace()
        .find(|w| w.len() > 1 && w.starts_with('@'))
}

/// A text reply to the chat a message came from.
fn reply(msg: &Incoming, text: String) -> Outgoing {
    Outgoing {
        platform: msg.platform.clone(),
        chat: msg.chat.clone(),
        text,
        board: None,
        chart: None,
    }
}

#[cfg(test)]
mod tests;
