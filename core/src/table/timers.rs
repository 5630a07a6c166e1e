//! Timers: a deadline per game (flag, correspondence reminder, idle notice, automatic move)
//! and per challenge (expiry). The store keeps when each is due, written with the change
//! that set it, and hands due ones to whichever process claims them first, with a lease
//! (see `store/timers.rs`). A timer is fired under its game's lock on fresh state, so one
//! claimed twice still acts once, and one that fires early only stores when it is really
//! due. This process also remembers the deadlines it set, to wake up on time for them.

use super::live::Live;
use super::outbox::says_now;
use super::types::Outgoing;
use super::{lock, Table, TableError};
use crate::clock::TimeControl;
use crate::game::Game;
use crate::store::{Due, StoreError};
use crate::words::{Duration, Msg};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// What a timer belongs to.
pub(super) type Key = Due;

/// How long a claimed timer is this process's: if it dies holding the claim, another
/// process fires the timer once the lease has run out.
pub const TIMER_LEASE_MS: i64 = 30_000;

/// How often a running table asks the store what is due next: timers other processes set,
/// and claims that died with their process.
pub const POLL_MS: i64 = 1000;

/// After a failure, a timer is tried again this much later.
const RETRY_MS: i64 = 1000;

/// Due timers claimed in one go.
const CLAIM_BATCH: i64 = 64;

/// Claim rounds in one `fire_due` (each fires what it claimed; a timer whose next event is
/// due at once comes back in the next round).
const MAX_ROUNDS: usize = 64;

/// Deadlines in time order, one per key: when to wake up.
#[derive(Default)]
pub(super) struct Timers {
    by_time: BTreeSet<(i64, Key)>,
    by_key: HashMap<Key, i64>,
}

impl Timers {
    fn set(&mut self, key: Key, at: i64) {
        if let Some(old) = self.by_key.insert(key, at) {
            self.by_time.remove(&(old, key));
        }
        self.by_time.insert((at, key));
    }

    fn remove(&mut self, key: Key) {
        if let Some(old) = self.by_key.remove(&key) {
            self.by_time.remove(&(old, key));
        }
    }

    fn next(&self) -> Option<i64> {
        self.by_time.first().map(|(t, _)| *t)
    }

    /// Forget the deadlines that have come (the store says what is due).
    fn pass(&mut self, now: i64) {
        while let Some(&(t, key)) = self.by_time.first() {
            if t > now {
                break;
            }
            self.by_time.remove(&(t, key));
            self.by_key.remove(&key);
        }
    }
}

/// What happens at a game's next deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    Flag,
    Remind,
    /// Activity monitor: the player to move has been idle past the limit (D6).
    IdleNotice,
    AutoMove,
    /// The built-in opponent is to move: at once.
    EngineMove,
}

/// The game's next timed event, if any.
fn next_event(live: &Live, idle_limit_ms: i64) -> Option<(i64, Event)> {
    if !live.active() {
        return None;
    }
    let turn = live.game.turn();
    let clock = live.clock();
    let mut best = clock.flag_at(turn).map(|t| (t, Event::Flag));
    let mut consider = |t: i64, e: Event| {
        if best.is_none_or(|(b, _)| t < b) {
            best = Some((t, e));
        }
    };
    if let TimeControl::PerMove { limit_ms } = live.control {
        if live.row.reminded_ply != Some(live.row.ply) {
            consider(live.row.turn_started_at + limit_ms * 3 / 4, Event::Remind);
        }
    }
    if live.row.monitor && live.row.idle_noticed_ply != Some(live.row.ply) {
        consider(live.row.turn_started_at + idle_limit_ms, Event::IdleNotice);
    }
    if let Some(mt) = live.row.movetime_ms {
        consider(live.row.turn_started_at + mt, Event::AutoMove);
    }
    if super::bot::engine_level(live.player(turn)).is_some() {
        consider(live.row.turn_started_at, Event::EngineMove);
    }
    best
}

impl Table {
    /// Remember a deadline of this process's, to wake up for it.
    pub(super) fn arm(&self, key: Key, at: i64) {
        let earlier = {
            let mut t = lock(&self.timers);
            let before = t.next();
            t.set(key, at);
            before.is_none_or(|b| at < b)
        };
        if earlier {
            self.wake.notify_one();
        }
    }

    pub(super) fn disarm(&self, key: Key) {
        lock(&self.timers).remove(key);
    }

    /// When a game's next timer is due, from its state (None: it has none).
    pub(super) fn due_of(&self, live: &Live) -> Option<i64> {
        next_event(live, self.config.idle_limit_ms).map(|(at, _)| at)
    }

    /// Wake up for a game's next timer (its due time is in the store already).
    pub(super) fn arm_game(&self, live: &Live) {
        match self.due_of(live) {
            Some(at) => self.arm(Key::Game(live.row.id), at),
            None => self.disarm(Key::Game(live.row.id)),
        }
    }

    /// Store when a game's next timer is due, from its state now, and wake up for it.
    pub(super) async fn set_due(&self, live: &Live) -> Result<(), StoreError> {
        self.store.set_due(live.id(), self.due_of(live)).await?;
        self.arm_game(live);
        Ok(())
    }

    /// When the next timer is due (ms since the epoch): the earliest this process set, or
    /// that the store holds unclaimed.
    pub async fn next_deadline(&self) -> Option<i64> {
        let mine = lock(&self.timers).next();
        let stored = match self.store.next_due(self.now()).await {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!(error = %e, "next timer not read");
                None
            }
        };
        match (mine, stored) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Fire every timer that is due now and not claimed by another process; the messages
    /// to send.
    pub async fn fire_due(&self) -> Vec<Outgoing> {
        let now = self.now();
        lock(&self.timers).pass(now);
        let mut out = Vec::new();
        for _ in 0..MAX_ROUNDS {
            let claimed = match self.claim_due(now).await {
                Ok(c) => c,
                Err(e) => {
                    tracing::warn!(error = %e, "due timers not claimed");
                    break;
                }
            };
            if claimed.is_empty() {
                break;
            }
            for key in claimed {
                out.append(&mut self.fire_claimed(key, now).await);
            }
        }
        self.beat(now).await;
        out
    }

    /// Claim the timers due at `now` for this process (for the lease).
    pub(super) async fn claim_due(&self, now: i64) -> Result<Vec<Key>, StoreError> {
        self.store.claim_due(now, TIMER_LEASE_MS, CLAIM_BATCH).await
    }

    /// Fire one claimed timer; on failure it is tried again shortly.
    pub(super) async fn fire_claimed(&self, key: Key, now: i64) -> Vec<Outgoing> {
        let result = match key {
            Key::Game(id) => self.fire_game(id, now).await,
            Key::Challenge(id) => self.expire(id, now).await.map_err(TableError::Store),
            Key::Tournament(id) => self.fire_tournament(id, now, None).await,
        };
        match result {
            Ok(out) => {
                metrics::counter!("ugolki_timers_fired_total").increment(1);
                out
            }
            Err(e) => {
                tracing::error!(?key, error = ?e, "timer failed; retrying in a second");
                if let Err(e) = self.store.retry_at(key, now + RETRY_MS).await {
                    tracing::warn!(?key, error = %e, "timer retry not stored");
                }
                Vec::new()
            }
        }
    }

    async fn fire_game(&self, id: i64, now: i64) -> Result<Vec<Outgoing>, TableError> {
        let _guard = self.game_lock(id).await?;
        let Some(live) = self.live(id).await? else {
            return Ok(Vec::new());
        };
        let Some((at, event)) = next_event(&live, self.config.idle_limit_ms) else {
            self.store.set_due(id, None).await?;
            return Ok(Vec::new());
        };
        if at > now {
            // Early: the game moved on since this was due (or the due time was a lower
            // bound). Keep the real one.
            self.store.set_due(id, Some(at)).await?;
            self.arm(Key::Game(id), at);
            return Ok(Vec::new());
        }
        // Nobody asked: timer messages are in the chat's language (English by default).
        let lang = self
            .chat_lang_or_english(live.chat().platform, &live.row.chat)
            .await;
        let say =
            |live: &Live, m: Msg| Outgoing::to_chat(&live.chat(), m).in_lang(lang).in_game(id);
        match event {
            Event::Flag => self.flag(&live, now, lang).await,
            Event::Remind => {
                let mut after = live.row.clone();
                after.reminded_ply = Some(live.row.ply);
                let marked = Live { row: after, ..live };
                let due = self.due_of(&marked);
                let turn = marked.game.turn();
                let left = marked.clock().left(turn, turn, now).unwrap_or(0);
                let mut out = vec![say(
                    &marked,
                    Msg::Reminder {
                        id,
                        who: marked.name(turn).to_string(),
                        left: Duration(left),
                    },
                )];
                self.store
                    .set_reminded(id, marked.row.ply, due, says_now(&mut out), now)
                    .await?;
                self.arm_game(&marked);
                Ok(out)
            }
            Event::IdleNotice => {
                let mut after = live.row.clone();
                after.idle_noticed_ply = Some(live.row.ply);
                let marked = Live { row: after, ..live };
                let due = self.due_of(&marked);
                let idler = marked.game.turn();
                let notice = say(
                    &marked,
                    Msg::IdleNotice {
                        id,
                        idler: marked.name(idler).to_string(),
                        other: marked.name(idler.opponent()).to_string(),
                        idle: Duration(now - marked.row.turn_started_at),
                        buttons: marked.chat().one_message(),
                    },
                );
                // The claim as a button too: where nothing can be typed, it is the only way.
                let ply = marked.row.ply;
                let mut out =
                    vec![notice.with_actions(vec![super::Action::Claim { game: id, ply }])];
                self.store
                    .set_idle_noticed(id, ply, due, says_now(&mut out), now)
                    .await?;
                self.arm_game(&marked);
                Ok(out)
            }
            Event::EngineMove => self.engine_move(&live, lang).await,
            Event::AutoMove => {
                let turn = live.game.turn();
                // F1: the move time ran out before this side's first move: abort.
                if !live.game.has_moved(turn) {
                    return self.no_first_move(&live, turn, now, lang).await;
                }
                // D6: the engine picks the move; the rules only check it.
                let auto = match &live.game {
                    Game::Damas(g) => {
                        crate::engine::damas_auto_move(g.position()).map(|m| m.to_string())
                    }
                    Game::Corners(_) => None,
                };
                if let Some(text) = auto {
                    self.commit_play(&live, turn, &text, super::play::Source::Table, now, lang)
                        .await
                } else {
                    // No move at all: the rules have ended the game already.
                    self.store.set_due(id, None).await?;
                    Ok(Vec::new())
                }
            }
        }
    }

    /// Drive the timers forever: sleep until the next deadline (this process's own, or the
    /// store's, asked every [`POLL_MS`]), and fire.
    /// What they say is in the outbox, written with what they did.
    pub async fn run_timers(self: Arc<Self>) {
        let mut pruned = i64::MIN;
        let mut counted = i64::MIN;
        loop {
            let now = self.now();
            // Once an hour, forget message ids older than a week: no platform re-sends that late.
            if now.saturating_sub(pruned) > 3_600_000 {
                pruned = now;
                if let Err(e) = self.store.forget_messages(now - 7 * 86_400_000).await {
                    tracing::warn!(error = %e, "old message ids not pruned");
                }
            }
            if now.saturating_sub(counted) > 15_000 {
                counted = now;
                self.count_games().await;
                // Outages another process recorded (only while this one's heartbeats did
                // not get through): known here too.
                match self.store.outages().await {
                    Ok(o) => *lock(&self.outages) = o,
                    Err(e) => tracing::warn!(error = %e, "outages not read"),
                }
            }
            self.fire_due().await;
            let now = self.now();
            let wait = self
                .next_deadline()
                .await
                .map_or(POLL_MS, |t| (t - now).clamp(0, POLL_MS));
            let wait = std::time::Duration::from_millis(u64::try_from(wait).unwrap_or(0));
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = self.wake.notified() => {}
            }
        }
    }

    /// Report the games in play (all processes'), for the metrics.
    pub async fn count_games(&self) {
        match self.store.games_in_play().await {
            #[allow(clippy::cast_precision_loss)]
            Ok(n) => metrics::gauge!("ugolki_games_in_play").set(n as f64),
            Err(e) => tracing::warn!(error = %e, "games in play not counted"),
        }
    }
}
