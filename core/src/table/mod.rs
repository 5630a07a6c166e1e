//! The table: the platform-free service that turns chat messages into games. Messages and
//! button presses come in as [`Incoming`], replies go out as [`Outgoing`] (typed messages,
//! audiences, slots, buttons); timers (flags, reminders, automatic moves, challenge expiry)
//! fire from [`Table::fire_due`], driven by [`Table::run_timers`] or, in tests, by a
//! [`FakeTime`] moved by hand.
//!
//! Every change is committed to the store before its reply is returned; messages for one game
//! are serialized by a per-game lock, and every write checks the game's ply, so a race or a
//! double-sent message never applies twice.

// Refusals travel as `Err(Msg)`: the cold path, and a message is at most a couple of
// hundred bytes; boxing every one would cost more than it saves.
#![allow(clippy::result_large_err)]
mod action;
mod bot;
mod by_buttons;
pub mod card_data;
mod challenges;
pub mod clean;
pub mod command;
pub mod gone;
mod in_game;
pub mod inline;
mod leaderboard;
mod live;
pub mod options;
mod outbox;
pub mod picture;
mod play;
pub mod public;
mod time;
mod timers;
mod tournament;
mod training;
mod types;

pub use action::{destination_buttons, pick_buttons, Action, MAX_ACTION_TEXT};
pub use in_game::{RESIGN_SECOND_MS, RESIGN_WINDOW_MS};
pub use picture::{
    BoardSpec, ChartSpec, DrawError, Picture, PictureView, ReplaySpec, StandingsSpec,
};
pub use time::{FakeTime, SystemTime, TimeSource};
pub use tournament::PublicTournament;
pub use types::{
    lang_of, Audience, ChatKind, ChatRef, Incoming, Input, Mention, Origin, Outgoing, Platform,
    Slot, SlotUse, User, TOPIC_SEPARATOR,
};

use crate::game::Game;
use crate::store::{Player, Store, StoreError};
use crate::words::{Lang, Msg};
use command::{Command, Parsed};
use live::Target;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use timers::Timers;

/// How often a live table writes its heartbeat. After a crash, the clocks are credited
/// from the last heartbeat, so at most this much thinking time can be given back.
pub const HEARTBEAT_MS: i64 = 100;

/// A start that sees another process's heartbeat this recent waits this long to see
/// whether it beats again (then that process is alive, and no time is credited).
pub const ALIVE_WINDOW_MS: i64 = 3 * HEARTBEAT_MS;

/// The most clock time a late board delivery gives back: uploads can be slow, but a
/// report that never comes, or comes much later, must not freeze a clock.
pub const MAX_DELIVERY_CREDIT_MS: i64 = 10_000;

/// How many times [`Table::chat_moved`] tries the store.
const CHAT_MOVE_TRIES: u64 = 5;

/// Settings of the table.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a challenge stays open.
    pub challenge_ttl_ms: i64,
    /// Damas activity monitor: how long a player may be idle before the opponent can claim.
    pub idle_limit_ms: i64,
    /// The bot's @name, for commands like `/help@name`.
    pub bot_name: Option<String>,
    /// Which messages in groups reach the bot: `/help` there says how to play.
    pub group_reading: GroupReading,
    /// F3: open challenges a player may have at once.
    pub max_open_challenges: i64,
    /// F3: new challenges a player may make in a minute.
    pub max_challenges_per_minute: i64,
    /// F2: rated games between the same two players that count, per UTC day and kind.
    pub max_rated_pair_games_per_day: usize,
    /// Board pictures (`/board`, `/moves`) a player may ask for in a minute.
    pub max_pictures_per_minute: i64,
    /// Running games a player may have at once: untimed games against the bot never end by
    /// themselves, and every running game is read for `/games` and kept by the timers.
    pub max_active_games: i64,
    /// Where the public pages are read (`--web-url`, else `http://` and `--web`'s address):
    /// the end of a game, `/record` and `/top` link them. None: no pages, no links.
    pub web_url: Option<String>,
    /// Fault injection for the crash test: how long a tournament's step waits between
    /// being worked out and being written, so that a kill can fall there. Zero otherwise.
    pub tournament_step_pause_ms: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            challenge_ttl_ms: 10 * 60_000,
            idle_limit_ms: 3 * 60_000,
            bot_name: None,
            group_reading: GroupReading::Everything,
            max_open_challenges: 5,
            max_challenges_per_minute: 10,
            max_rated_pair_games_per_day: 3,
            max_pictures_per_minute: 10,
            max_active_games: 50,
            web_url: None,
            tournament_step_pause_ms: 0,
        }
    }
}

/// Which messages of a group the platform gives the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupReading {
    /// Every message: moves are typed as text.
    Everything,
    /// Commands addressed to the bot and replies to its messages only (Telegram's privacy
    /// mode): moves by `/m@bot` or by a reply to the board.
    CommandsAndReplies,
    /// None but those that mention the bot (Discord without the message content intent):
    /// moves by the `/move` command and buttons.
    Mentions,
}

/// The service. Share it in an `Arc`; every method takes `&self`. Several tables (in
/// several processes) may serve one `PostgreSQL` store: each game is changed under a lock
/// they share, and timers are claimed in the store, so each fires once.
pub struct Table {
    store: Store,
    /// This table's name among the processes serving the store (its heartbeat row).
    process: String,
    time: Arc<dyn TimeSource>,
    config: Config,
    /// One lock per game: messages for a game are handled one at a time (in this process;
    /// across processes, the store's lock is taken too).
    locks: Mutex<HashMap<i64, Arc<tokio::sync::Mutex<()>>>>,
    /// Replayed games by id, with the ply they were replayed to.
    /// Replayed games by id: (ply, takebacks, game) — a takeback starts another line of
    /// the game, so a cached line is good only with the same count.
    cache: Mutex<HashMap<i64, (i64, i64, Game)>>,
    /// When timers this process set are due: a hint for waking up on time (the store
    /// decides what is due).
    timers: Mutex<Timers>,
    /// Woken when a timer earlier than the one being waited for is armed.
    wake: tokio::sync::Notify,
    last_beat: std::sync::atomic::AtomicI64,
    /// Players by id, and ids by (platform, platform user id): names change rarely, and a
    /// move should not cost a database write for them. Chips are read fresh where they count.
    people: Mutex<HashMap<i64, Player>>,
    ids: Mutex<HashMap<(String, String), i64>>,
    /// Chats' chosen languages, as read from the store.
    chat_langs: Mutex<HashMap<(Platform, String), Option<String>>>,
    /// When each player last asked for pictures (the last minute's worth).
    pictures: Mutex<HashMap<i64, std::collections::VecDeque<i64>>>,
    /// The times no process served the games, (from, to): a clock is credited with those
    /// after its game's `credited_until` when the game is touched.
    outages: Mutex<Vec<(i64, i64)>>,
}

/// Why handling a message stopped: the user asked for something that cannot be done (they
/// read why, privately, and nothing changed), or the store failed (logged; they read a
/// generic apology).
#[derive(Debug)]
pub(crate) enum TableError {
    User(Msg),
    Store(StoreError),
}

impl From<StoreError> for TableError {
    fn from(e: StoreError) -> TableError {
        TableError::Store(e)
    }
}

impl From<Msg> for TableError {
    fn from(m: Msg) -> TableError {
        TableError::User(m)
    }
}

/// The result of handling: the replies, or why there are none.
type Handled<T> = Result<T, TableError>;

/// Refuse with a message the user reads.
fn refuse<T>(m: Msg) -> Handled<T> {
    Err(TableError::User(m))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic elsewhere never leaves these maps half-updated; keep going.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Table {
    /// Open the table on a store: credit running clocks with the time no process served
    /// them. Nothing is loaded: a game is read when it is first touched, and timers are due
    /// in the store, so a start costs the same with ten games or a hundred thousand.
    pub async fn open(
        store: Store,
        time: Arc<dyn TimeSource>,
        config: Config,
    ) -> Result<Table, StoreError> {
        let process = process_name();
        // A heartbeat this recent may be a live process between beats: wait for its next.
        let seen = store.last_beat_of_others(&process).await?;
        if seen.is_some_and(|last| time.now_ms() - last < ALIVE_WINDOW_MS) {
            tokio::time::sleep(std::time::Duration::from_millis(
                u64::try_from(ALIVE_WINDOW_MS).unwrap_or(300),
            ))
            .await;
        }
        let now = time.now_ms();
        if let Some((from, to)) = store.resume(&process, now, seen).await? {
            tracing::info!(
                down_ms = to - from,
                "no process served the games for a while: their clocks get that time back"
            );
        }
        let outages = store.outages().await?;
        let table = Table {
            store,
            process,
            time,
            config,
            locks: Mutex::new(HashMap::new()),
            cache: Mutex::new(HashMap::new()),
            timers: Mutex::new(Timers::default()),
            wake: tokio::sync::Notify::new(),
            last_beat: std::sync::atomic::AtomicI64::new(now),
            people: Mutex::new(HashMap::new()),
            ids: Mutex::new(HashMap::new()),
            pictures: Mutex::new(HashMap::new()),
            chat_langs: Mutex::new(HashMap::new()),
            outages: Mutex::new(outages),
        };
        Ok(table)
    }

    /// Keep the heartbeat fresh while the process lives, whatever else it does (an adapter
    /// spawns this in every mode: after a crash, only the time since the last beat is
    /// credited to the clocks).
    pub async fn keep_alive(self: Arc<Self>) {
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(
            u64::try_from(HEARTBEAT_MS).unwrap_or(500),
        ));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tick.tick().await;
            self.beat(self.now()).await;
        }
    }

    /// The store (for adapters that need players' names, and for tests).
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// This table's name among the processes serving the store (its heartbeat row, the
    /// holder of the outbox leases its senders take).
    #[must_use]
    pub fn process(&self) -> &str {
        &self.process
    }

    fn now(&self) -> i64 {
        self.time.now_ms()
    }

    /// Minutes since the epoch by the table's clock: what an inline card is signed with
    /// when offered and checked against when pressed.
    #[must_use]
    pub fn now_min(&self) -> u64 {
        u64::try_from(self.now() / 60_000).unwrap_or(0)
    }

    /// Record that the bot is alive (at most every [`HEARTBEAT_MS`]).
    async fn beat(&self, now: i64) {
        use std::sync::atomic::Ordering;
        let last = self.last_beat.load(Ordering::Relaxed);
        if now.saturating_sub(last) < HEARTBEAT_MS && now >= last {
            return;
        }
        self.last_beat.store(now, Ordering::Relaxed);
        if let Err(e) = self.store.beat(&self.process, now).await {
            tracing::warn!(error = %e, "heartbeat not written");
        }
    }

    /// Remember a user a platform has shown without a message for the table (the sender
    /// of a Telegram inline query), so that a challenge can later be made in their name.
    pub async fn know(&self, platform: Platform, user: &User) {
        if let Err(e) = self.person_for(platform, user, self.now()).await {
            tracing::warn!(error = %e, "user not remembered");
        }
    }

    /// A user this platform has shown before, by the platform's id for them.
    pub async fn known_user(&self, platform: Platform, id: &str) -> Option<User> {
        let p = self
            .store
            .player_by_platform_id(platform.as_str(), id)
            .await
            .ok()??;
        Some(User {
            id: p.platform_user_id,
            name: p.name,
            handle: p.handle,
        })
    }

    /// The player for a platform user, registered on first sight (cached).
    async fn person_for(
        &self,
        platform: Platform,
        user: &User,
        now: i64,
    ) -> Result<Player, StoreError> {
        // Names are shown to everyone: no invisible or control characters, a sane length.
        let user = &User {
            id: user.id.clone(),
            name: clean_name(&user.name),
            handle: user
                .handle
                .as_deref()
                .map(|h| clean::clean(h).chars().take(64).collect()),
        };
        if let Some(p) = self.cached_person(platform, &user.id) {
            let same_handle = user
                .handle
                .as_ref()
                .is_none_or(|h| p.handle.as_deref() == Some(h.to_ascii_lowercase().as_str()));
            if p.name == user.name && same_handle {
                return Ok(p);
            }
        }
        let p = self
            .store
            .player_for(
                platform.as_str(),
                &user.id,
                &user.name,
                user.handle.as_deref(),
                now,
            )
            .await?;
        lock(&self.ids).insert((platform.as_str().to_string(), user.id.clone()), p.id);
        lock(&self.people).insert(p.id, p.clone());
        Ok(p)
    }

    /// The player a platform user is, if this process has met them.
    fn cached_person(&self, platform: Platform, user_id: &str) -> Option<Player> {
        let key = (platform.as_str().to_string(), user_id.to_string());
        let id = *lock(&self.ids).get(&key)?;
        lock(&self.people).get(&id).cloned()
    }

    /// A player by id (cached).
    async fn person(&self, id: i64) -> Result<Option<Player>, StoreError> {
        if let Some(p) = lock(&self.people).get(&id).cloned() {
            return Ok(Some(p));
        }
        let p = self.store.player(id).await?;
        if let Some(p) = &p {
            lock(&self.people).insert(id, p.clone());
        }
        Ok(p)
    }

    /// The language to answer a message in: the sender's choice, the chat's, the
    /// platform's hint, English — the first that is set and spoken here.
    async fn answer_lang(&self, o: &Origin, now: i64) -> Lang {
        let own = match self.person_for(o.platform(), &o.user, now).await {
            Ok(p) => p.lang,
            Err(e) => {
                tracing::warn!(error = %e, "language not read");
                None
            }
        };
        self.lang_after(o, own).await
    }

    /// The language the table would answer `o` in, for what an adapter says itself (a press
    /// it cannot read, a command the platform could not parse, a permission missing): the
    /// sender's `/lang`, the chat's, the platform's hint, English. Read only: a stranger is
    /// not made a player by it.
    pub async fn lang_for(&self, o: &Origin) -> Lang {
        let own = match self.cached_person(o.platform(), &o.user.id) {
            Some(p) => p.lang,
            None => match self
                .store
                .player_by_platform_id(o.platform().as_str(), &o.user.id)
                .await
            {
                Ok(p) => p.and_then(|p| p.lang),
                Err(e) => {
                    tracing::warn!(error = %e, "language not read");
                    None
                }
            },
        };
        self.lang_after(o, own).await
    }

    /// The sender's own choice `own`, else the chat's, the platform's hint, English: the
    /// first that is set and spoken here.
    async fn lang_after(&self, o: &Origin, own: Option<String>) -> Lang {
        let chosen = match own {
            Some(code) => Some(code),
            None => self.chat_lang(o.platform(), &o.chat.id).await,
        };
        chosen
            .as_deref()
            .and_then(Lang::from_tag)
            .unwrap_or_else(|| lang_of(o))
    }

    /// A chat's chosen language (cached; chats change it rarely).
    async fn chat_lang(&self, platform: Platform, chat: &str) -> Option<String> {
        let key = (platform, chat.to_string());
        if let Some(l) = lock(&self.chat_langs).get(&key) {
            return l.clone();
        }
        match self.store.chat_lang(platform.as_str(), chat).await {
            Ok(l) => {
                lock(&self.chat_langs).insert(key, l.clone());
                l
            }
            Err(e) => {
                tracing::warn!(error = %e, "chat language not read");
                None
            }
        }
    }

    /// The language for messages nobody asked for (timers): the chat's, else English.
    pub(crate) async fn chat_lang_or_english(&self, platform: Platform, chat: &str) -> Lang {
        self.chat_lang(platform, chat)
            .await
            .as_deref()
            .and_then(Lang::from_tag)
            .unwrap_or(Lang::EN)
    }

    /// `/lang [CODE|auto]`: a chat admin in a group sets the chat's language; anyone else
    /// sets their own. Without a code: the language now, and those there are.
    async fn set_lang(
        &self,
        o: &Origin,
        me: &Player,
        code: Option<&str>,
    ) -> Handled<Vec<Outgoing>> {
        let list = Lang::all().map(Lang::code).collect::<Vec<_>>().join(", ");
        let Some(code) = code else {
            let now = Lang::of_hint(o.locale.as_deref());
            return Ok(vec![Outgoing::private(
                o,
                Msg::LangNow {
                    lang: Box::new(Msg::LangName {
                        code: now.code().into(),
                    }),
                    list,
                },
            )]);
        };
        let lang = if code == "auto" {
            None
        } else {
            match Lang::from_tag(code) {
                Some(l) => Some(l),
                None => {
                    return refuse(Msg::LangUnknown {
                        code: code.chars().take(12).collect(),
                        list,
                    })
                }
            }
        };
        let chat_wide = o.group_admin == Some(true);
        // The answer is in the new language (or, back to automatic, the hint's).
        let answer_in = lang.unwrap_or_else(|| Lang::of_hint(o.locale.as_deref()));
        let mut out = vec![Outgoing::reply(
            o,
            Msg::LangSet {
                whose: if chat_wide { "chat" } else { "you" }.into(),
                lang: lang.map(|l| {
                    Box::new(Msg::LangName {
                        code: l.code().into(),
                    })
                }),
            },
        )
        .in_lang(answer_in)];
        let says = outbox::says_now(&mut out);
        let now = self.now();
        if chat_wide {
            self.store
                .set_chat_lang(
                    o.platform().as_str(),
                    &o.chat.id,
                    lang.map(Lang::code),
                    says,
                    now,
                )
                .await?;
            lock(&self.chat_langs).insert(
                (o.platform(), o.chat.id.clone()),
                lang.map(|l| l.code().to_string()),
            );
        } else {
            self.store
                .set_player_lang(me.id, lang.map(Lang::code), says, now)
                .await?;
            if let Some(p) = lock(&self.people).get_mut(&me.id) {
                p.lang = lang.map(|l| l.code().to_string());
            }
        }
        Ok(out)
    }

    /// `/help`, with how moves reach the bot in a group that does not give it every message.
    fn help(&self, chat: &ChatRef) -> Msg {
        let bot = self.config.bot_name.clone().unwrap_or_default();
        let here = match self.config.group_reading {
            _ if !chat.kind.is_group() => None,
            GroupReading::Everything => None,
            GroupReading::CommandsAndReplies => Some(Msg::HelpCommandsOnly { bot }),
            GroupReading::Mentions => Some(Msg::HelpMentionsOnly { bot }),
        };
        match here {
            Some(line) => Msg::Lines(vec![Msg::Help, line]),
            None => Msg::Help,
        }
    }

    /// Count a picture asked for by `player`; refused past the limit for the last minute.
    fn allow_picture(&self, player: i64, now: i64) -> Handled<()> {
        let max = self.config.max_pictures_per_minute;
        let mut all = lock(&self.pictures);
        // Players who asked nothing for a minute are forgotten: the map stays small.
        if all.len() > 1024 {
            all.retain(|_, t| t.back().is_some_and(|last| *last > now - 60_000));
        }
        let times = all.entry(player).or_default();
        while times.front().is_some_and(|t| *t <= now - 60_000) {
            times.pop_front();
        }
        if times.len() as i64 >= max {
            return refuse(Msg::TooManyPictures { max });
        }
        times.push_back(now);
        Ok(())
    }

    /// A game is over: drop its timer, its replay and its lock from memory (the store keeps
    /// it), so a long-running bot holds only unfinished games.
    fn forget_game(&self, id: i64) {
        self.disarm(timers::Key::Game(id));
        lock(&self.cache).remove(&id);
        lock(&self.locks).remove(&id);
    }

    /// This process's lock of game `id` (its tasks queue here, not in the database).
    async fn local_lock(&self, id: i64) -> tokio::sync::OwnedMutexGuard<()> {
        let m = lock(&self.locks).entry(id).or_default().clone();
        m.lock_owned().await
    }

    /// A chat became another (a Telegram group upgraded to a supergroup gets a new id): its
    /// games, running or not, open challenges, players and language move to `to`, so the
    /// games go on there and their clocks are not lost. Said twice (both chats announce
    /// it), the second time moves nothing.
    /// A failed move is tried again a few times: the platform says it once, and games
    /// left under the old id could not be reached from the new chat.
    pub async fn chat_moved(&self, platform: Platform, from: &str, to: &str) {
        for attempt in 1..=CHAT_MOVE_TRIES {
            match self.store.move_chat(platform.as_str(), from, to).await {
                Ok(games) => {
                    tracing::info!(platform = platform.as_str(), from, to, games, "chat moved");
                    break;
                }
                Err(e) => {
                    tracing::error!(platform = platform.as_str(), from, to, attempt, error = %e, "chat not moved");
                    tokio::time::sleep(std::time::Duration::from_millis(200 * attempt)).await;
                }
            }
        }
        let mut langs = lock(&self.chat_langs);
        langs.remove(&(platform, from.to_string()));
        langs.remove(&(platform, to.to_string()));
    }

    /// This process's lock of game `id` if nobody holds it.
    fn try_local_lock(&self, id: i64) -> Option<tokio::sync::OwnedMutexGuard<()>> {
        let m = lock(&self.locks).entry(id).or_default().clone();
        m.try_lock_owned().ok()
    }

    /// Take game `id`'s lock: this process's own first, then the store's, which other
    /// processes take too.
    async fn game_lock(&self, id: i64) -> Result<GameGuard, StoreError> {
        let local = self.local_lock(id).await;
        let shared = self.store.lock_game(id).await?;
        Ok(GameGuard {
            _shared: shared,
            _local: local,
        })
    }

    /// Whether `msg` is, read as [`Table::handle`] reads it, a command only a group's admins
    /// may give (`/lang` for the whole chat, `/tournament`): the adapter asks the platform
    /// whether its sender is an admin for these only (`/Tourney`, `／lang` and ` /lang@bot`
    /// included, as the table takes them).
    #[must_use]
    pub fn asks_admin(&self, msg: &Incoming) -> bool {
        let Input::Text { text, mentions } = &msg.input else {
            return false;
        };
        // No command without a slash, and in plain ASCII nothing is cleaned or folded into
        // one: a typed move or chatter is not read twice (`handle` reads it next).
        if text.is_ascii() && !text.contains('/') {
            return false;
        }
        matches!(
            self.read(text, mentions),
            Ok(Some(Parsed::Command(
                Command::Lang(_) | Command::Tournament(_)
            )))
        )
    }

    /// A typed message as the table reads it: a command, a move, or nothing of ours.
    fn read(&self, text: &str, mentions: &[Mention]) -> Result<Option<Parsed>, Msg> {
        // Invisible and control characters are gone before a word is read, so a command
        // works as it displays and no reply echoes them.
        let text = clean::clean(text);
        // Fullwidth and other look-alike digits and slashes read as what they look like
        // (`b３-d３`, `／help`), instead of being passed over in silence.
        let text = clean::fold_look_alikes(&text);
        command::parse(&text, mentions, self.config.bot_name.as_deref())
    }

    /// Handle one message or button press: the replies to send, in order (empty when it was
    /// not for us, or was a repeat).
    pub async fn handle(&self, msg: &Incoming) -> Vec<Outgoing> {
        let started = std::time::Instant::now();
        let now = self.now();
        let parsed = match &msg.input {
            Input::Text { text, mentions } => match self.read(text, mentions) {
                Ok(None) => return Vec::new(),
                Ok(Some(p)) => Ok(Request::Parsed(p)),
                Err(m) => Err(m),
            },
            Input::Command(c) => Ok(Request::Parsed(Parsed::Command(c.clone()))),
            Input::Action(a) => Ok(Request::Action(*a, false)),
            Input::Confirmed(a) => Ok(Request::Action(*a, true)),
        };
        // Answers go out in the sender's language: their own choice, else the chat's, else
        // the platform's hint, else English. From here on the origin's locale says which.
        let mut msg = msg.clone();
        msg.origin.locale = Some(self.answer_lang(&msg.origin, now).await.code().to_string());
        let msg = &msg;
        let is_move = matches!(
            parsed,
            Ok(Request::Parsed(
                Parsed::MoveText(_) | Parsed::Command(Command::Move(..))
            ))
        );
        // Boxed: the handlers' states are large, and every adapter awaits this.
        let result = Box::pin(self.dispatch(msg, parsed, now)).await;
        self.beat(now).await;
        let origin = &msg.origin;
        if is_move && result.as_ref().is_ok_and(|out| !out.is_empty()) {
            // The operator's figure: a move in, its reply ready (committed) out.
            metrics::histogram!("ugolki_move_reply_seconds")
                .record(started.elapsed().as_secs_f64());
        }
        let mut out = match result {
            Ok(out) => out,
            Err(TableError::User(m)) => vec![Outgoing::private(origin, m)],
            Err(TableError::Store(StoreError::Conflict)) => {
                vec![Outgoing::private(origin, Msg::Conflict)]
            }
            Err(TableError::Store(StoreError::Repeat)) => Vec::new(),
            Err(TableError::Store(e)) => {
                tracing::error!(platform = origin.platform().as_str(), chat = %origin.chat.id, error = %e, "message failed");
                vec![Outgoing::private(origin, Msg::InternalError)]
            }
        };
        // What no change has written yet (answers that change nothing, refusals) goes to
        // the outbox now: every reply is sent from there.
        let rows = outbox::keep(&mut out);
        if let Err(e) = self.store.say(None, rows, now).await {
            tracing::error!(platform = origin.platform().as_str(), chat = %origin.chat.id, error = %e, "replies not kept");
        }
        out
    }

    /// Say what an adapter has to say itself (a refusal read before the table, such as an
    /// inline card that no longer reads): kept in the outbox and sent from there.
    pub async fn tell(&self, mut out: Vec<Outgoing>) {
        let rows = outbox::keep(&mut out);
        if let Err(e) = self.store.say(None, rows, self.now()).await {
            tracing::error!(error = %e, "replies not kept");
        }
    }

    /// Replies to `o` that change nothing, kept in one transaction with `o`'s message id:
    /// the replies if the message is new, nothing if it was handled already.
    pub(super) async fn tell_once(
        &self,
        o: &Origin,
        mut out: Vec<Outgoing>,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let rows = outbox::keep(&mut out);
        let seen = (
            o.platform().as_str(),
            o.chat.id.as_str(),
            o.message_id.as_str(),
        );
        if self.store.say(Some(seen), rows, now).await? {
            Ok(out)
        } else {
            Ok(Vec::new())
        }
    }

    async fn dispatch(
        &self,
        msg: &Incoming,
        request: Result<Request, Msg>,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let o = &msg.origin;
        // A repeated platform message (a retry, a double send) is handled once. Moves, the
        // hot path, record their message id in the move's own transaction (see `typed_move`);
        // everything else records it here.
        let is_move = matches!(
            request,
            Ok(
                Request::Parsed(Parsed::MoveText(_) | Parsed::Command(Command::Move(..)))
                    | Request::Action(Action::MoveTo { .. }, _)
            )
        );
        if !is_move
            && !self
                .store
                .first_sight(o.platform().as_str(), &o.chat.id, &o.message_id, now)
                .await?
        {
            return Ok(Vec::new());
        }
        let request = request?;
        let me = self.person_for(o.platform(), &o.user, now).await?;
        match request {
            Request::Parsed(Parsed::MoveText(text)) => {
                self.typed_move(msg, &me, None, &text, false, now).await
            }
            Request::Parsed(Parsed::Command(c)) => self.command(msg, &me, c, now).await,
            Request::Action(a, sure) => self.press(msg, &me, a, sure, now).await,
        }
    }

    async fn command(
        &self,
        msg: &Incoming,
        me: &Player,
        c: Command,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let word = c.game_word();
        let handled = self.command_of(msg, me, c, now).await;
        // Asked of one of several games without its number: the answer names this command.
        match (handled, word) {
            (Err(TableError::User(Msg::SeveralGames { ids, first })), Some(command)) => {
                refuse(Msg::SeveralGamesFor {
                    ids,
                    first,
                    command: command.into(),
                })
            }
            (other, _) => other,
        }
    }

    async fn command_of(
        &self,
        msg: &Incoming,
        me: &Player,
        c: Command,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let o = &msg.origin;
        match c {
            Command::Challenge(spec) => self.challenge(o, me, &spec, now).await,
            Command::Accept(n) => self.accept(o, me, n, now).await,
            Command::Decline(n) => self.decline(o, me, n, now).await,
            Command::Cancel(n) => self.cancel(o, me, n, now).await,
            Command::Move(n, text) => self.typed_move(msg, me, n, &text, true, now).await,
            Command::Confirm(n) => self.confirm(o, me, Target::typed(n), now).await,
            Command::Moves(n, square) => self.show_moves(o, me, n, &square, now).await,
            Command::Board(n) => self.show_board(o, me, n, now).await,
            Command::Resign(n) => self.resign(o, me, Target::typed(n), now).await,
            Command::Draw(n) => self.draw(o, me, Target::typed(n), false, now).await,
            Command::NoDraw(n) => self.no_draw(o, me, Target::typed(n), now).await,
            Command::Abort(n) => self.abort(o, me, Target::typed(n), now).await,
            Command::Claim(n) => self.claim(o, me, Target::typed(n), now).await,
            Command::Games => self.games(o, me).await,
            Command::Record(n) => self.record(o, me, n).await,
            Command::Help => {
                let mut out = vec![Outgoing::reply(o, self.help(&o.chat))];
                // The Discord app used where the bot is no member (a user's DMs, another
                // server) plays on one message: what is different there, said plainly.
                if o.platform() == Platform::Discord && o.chat.one_message() {
                    out.push(Outgoing::reply(o, Msg::DiscordPrivateHelp));
                }
                Ok(out)
            }
            Command::Rules(v) => {
                // Asked without words in a game of one's own: that game's rules.
                let own = match v {
                    None => self.pick_row_in(None, o, me, None).await.ok().flatten(),
                    Some(_) => None,
                };
                let text = match own {
                    Some(row) => Ok(in_game::rules_of(&row.rules)),
                    None => in_game::rules_text(v.as_deref()),
                };
                match text {
                    Ok(text) => Ok(vec![Outgoing::reply(o, text)]),
                    Err(m) => refuse(m),
                }
            }
            Command::Rating { who, kind } => {
                self.rating(o, me, who.as_ref(), kind.as_deref(), now).await
            }
            Command::Top {
                kind,
                month,
                global,
            } => self.top(o, me, kind.as_deref(), month, global, now).await,
            Command::Chips => self.chips(o, me).await,
            Command::Lang(code) => self.set_lang(o, me, code.as_deref()).await,
            Command::PlayBot { level, spec } => self.play_bot(o, me, level, &spec, now).await,
            Command::Hint(n) => self.hint(o, me, n).await,
            Command::Review(n) => self.review(o, me, n, now).await,
            Command::Train { mode, spec } => self.train(o, me, mode, &spec, now).await,
            Command::Undo(n) => self.undo(o, me, n, now).await,
            Command::Tournament(c) => self.tournament_command(o, me, c, now).await,
            Command::Join => self.join(o, me, None, now).await,
            Command::Withdraw => self.withdraw(o, me, None, now).await,
            Command::Standings(n) => self.show_standings(o, n).await,
        }
    }

    /// A button press: challenge buttons name their challenge; game buttons must be pressed
    /// by a player of a running game at the ply they were offered at, or they change nothing.
    async fn press(
        &self,
        msg: &Incoming,
        me: &Player,
        a: Action,
        sure: bool,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let o = &msg.origin;
        let Some((game, ply)) = a.game() else {
            return match a {
                Action::Accept { challenge } => self.accept(o, me, Some(challenge), now).await,
                Action::Decline { challenge } => self.decline(o, me, Some(challenge), now).await,
                Action::Cancel { challenge } => self.cancel(o, me, Some(challenge), now).await,
                Action::Join { tournament } => self.join(o, me, Some(tournament), now).await,
                Action::Withdraw { tournament } => {
                    self.withdraw(o, me, Some(tournament), now).await
                }
                _ => Ok(Vec::new()),
            };
        };
        let row = self
            .store
            .game(game)
            .await?
            .filter(|g| g.platform == o.platform().as_str() && g.chat == o.chat.id);
        let refusal = match &row {
            None => Some(Msg::ButtonStale),
            Some(row) if row.white_id != me.id && row.black_id != me.id => {
                Some(Msg::ButtonNotYours)
            }
            Some(row) if !row.is_active() || row.ply != ply => Some(Msg::ButtonStale),
            Some(_) => None,
        };
        if let Some(m) = refusal {
            // A destination is a move: its message id is recorded only here (see
            // `dispatch`), so its refusal is too, and a repeat is answered once.
            return if matches!(a, Action::MoveTo { .. }) {
                self.refuse_once(o, m, now).await
            } else {
                refuse(m)
            };
        }
        // The handlers check the ply again under the game's lock.
        let t = Target::pressed(game, ply);
        match a {
            Action::Resign { .. } if sure => self.resign(o, me, t, now).await,
            Action::Resign { .. } => self.resign_pressed(o, me, t, now).await,
            Action::OfferDraw { .. } => self.draw(o, me, t, false, now).await,
            Action::AcceptDraw { .. } => self.draw(o, me, t, true, now).await,
            Action::DeclineDraw { .. } => self.no_draw(o, me, t, now).await,
            Action::Abort { .. } => self.abort(o, me, t, now).await,
            Action::Confirm { .. } => self.confirm(o, me, t, now).await,
            Action::Claim { .. } => self.claim(o, me, t, now).await,
            Action::ShowMoves { from, .. } => self.pick_piece(msg, me, t, from).await,
            Action::MoveTo { from, to, .. } => self.press_move(msg, me, game, from, to, now).await,
            Action::Back { .. } => self.unpick(msg, me, t, now).await,
            Action::Accept { .. }
            | Action::Decline { .. }
            | Action::Cancel { .. }
            | Action::Join { .. }
            | Action::Withdraw { .. } => Ok(Vec::new()),
        }
    }

    /// The moves `origin`'s sender could play now in their game here that start with
    /// `typed` (at most `limit`): for a platform's autocomplete. Read-only; nothing is
    /// recorded, and anyone without a game to move in gets none.
    pub async fn suggest_moves(&self, origin: &Origin, typed: &str, limit: usize) -> Vec<String> {
        let now = self.now();
        let Ok(me) = self.person_for(origin.platform(), &origin.user, now).await else {
            return Vec::new();
        };
        let Ok((live, color)) = self.my_game(origin, &me, None).await else {
            return Vec::new();
        };
        if live.game.turn() != color {
            return Vec::new();
        }
        let typed = typed.trim().to_ascii_lowercase();
        live.game
            .legal_move_texts()
            .into_iter()
            .filter(|m| m.starts_with(&typed))
            .take(limit)
            .collect()
    }

    /// The adapter reports that the board of `game` after `ply` plies reached the chat at
    /// `at`: the clock of the side to move starts then, never before the move and at most
    /// [`MAX_DELIVERY_CREDIT_MS`] after it. Only the first report of a ply counts; a missing
    /// report gives no credit. One conditional write, no game lock: it applies only at that
    /// ply, and a move decided on the clock before it loses its compare-and-set and is
    /// checked again.
    pub async fn delivered(&self, game: i64, ply: i64, at: i64) {
        match self
            .store
            .delivered_due(game, ply, at, MAX_DELIVERY_CREDIT_MS)
            .await
        {
            Ok(crate::store::Reported::Counted { due }) => self.reported(game, due),
            Ok(crate::store::Reported::No) => {}
            Err(e) => tracing::warn!(game, error = %e, "delivery time not written"),
        }
    }

    /// The report of a board's arrival for the outbox to write with its row's mark.
    #[must_use]
    pub fn report(game: i64, ply: i64, at: i64) -> crate::store::Report {
        crate::store::Report {
            game,
            ply,
            at,
            max_credit_ms: MAX_DELIVERY_CREDIT_MS,
        }
    }

    /// A delivery report counted, and the game's timer is due at `due` now: wake for it.
    pub fn reported(&self, game: i64, due: Option<i64>) {
        if let Some(at) = due {
            self.arm(timers::Key::Game(game), at);
        }
    }
}

/// A game's lock, held while this lives. The store's lock (if any) goes first, so another
/// process can take the game as soon as this one lets it go.
pub(crate) struct GameGuard {
    _shared: Option<crate::store::GameLock>,
    _local: tokio::sync::OwnedMutexGuard<()>,
}

/// A name for this table among the processes serving its store: host, process id and the
/// moment it started (two tables in one process differ by the counter).
fn process_name() -> String {
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| clean::clean(h.trim()).chars().take(40).collect::<String>())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".into());
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{host}-{}-{started}-{n}", std::process::id())
}

/// Longest display name kept.
const MAX_NAME: usize = 64;

/// A display name safe to show: cleaned, trimmed, at most [`MAX_NAME`] characters.
fn clean_name(name: &str) -> String {
    let name: String = clean::clean(name).trim().chars().take(MAX_NAME).collect();
    if name.is_empty() {
        "?".into()
    } else {
        name
    }
}

/// What a message asks for once read.
enum Request {
    Parsed(Parsed),
    /// A press, and whether its client confirmed it already ([`Input::Confirmed`]).
    Action(Action, bool),
}

#[cfg(test)]
mod tests;
