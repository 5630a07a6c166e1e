//! The table's one scheduler: a deadline per game (flag, correspondence reminder, automatic
//! move) and per challenge (expiry), re-armed on every change — no polling.

use super::live::Live;
use super::types::Outgoing;
use super::{lock, Table, TableError};
use crate::clock::TimeControl;
use crate::game::Game;
use crate::store::StoreError;
use crate::words::{Duration, Msg};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// What a timer belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Key {
    Game(i64),
    Challenge(i64),
}

/// Deadlines in time order, one per key.
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

    fn take_due(&mut self, now: i64) -> Vec<Key> {
        let mut due = Vec::new();
        while let Some(&(t, key)) = self.by_time.first() {
            if t > now {
                break;
            }
            self.by_time.remove(&(t, key));
            self.by_key.remove(&key);
            due.push(key);
        }
        due
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
    best
}

impl Table {
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

    /// Arm (or clear) the timer of a game from its state.
    pub(super) fn arm_game(&self, live: &Live) {
        match next_event(live, self.config.idle_limit_ms) {
            Some((at, _)) => self.arm(Key::Game(live.row.id), at),
            None => self.disarm(Key::Game(live.row.id)),
        }
    }

    /// When the next timer is due (ms since the epoch).
    #[must_use]
    pub fn next_deadline(&self) -> Option<i64> {
        lock(&self.timers).next()
    }

    /// Fire every timer that is due now; the messages to send.
    pub async fn fire_due(&self) -> Vec<Outgoing> {
        let now = self.now();
        let due = lock(&self.timers).take_due(now);
        let mut out = Vec::new();
        for key in due {
            let result = match key {
                Key::Game(id) => self.fire_game(id, now).await,
                Key::Challenge(id) => self.expire(id, now).await.map_err(TableError::Store),
            };
            match result {
                Ok(mut o) => out.append(&mut o),
                Err(e) => {
                    tracing::error!(?key, error = ?e, "timer failed; retrying in a second");
                    self.arm(key, now + 1000);
                }
            }
        }
        self.beat(now).await;
        out
    }

    async fn fire_game(&self, id: i64, now: i64) -> Result<Vec<Outgoing>, TableError> {
        let _guard = self.game_lock(id).await;
        let Some(live) = self.live(id).await? else {
            return Ok(Vec::new());
        };
        let Some((at, event)) = next_event(&live, self.config.idle_limit_ms) else {
            return Ok(Vec::new());
        };
        if at > now {
            // Stale: the game moved on since this timer was armed.
            self.arm(Key::Game(id), at);
            return Ok(Vec::new());
        }
        // Nobody asked: timer messages are in the chat's language (English by default).
        let lang = self
            .chat_lang_or_english(live.platform(), &live.row.chat)
            .await;
        let say = |live: &Live, m: Msg| {
            Outgoing::to_chat(live.platform(), &live.row.chat, m)
                .in_lang(lang)
                .in_game(id)
        };
        match event {
            Event::Flag => self.flag(&live, now, lang).await,
            Event::Remind => {
                self.store.set_reminded(id, live.row.ply).await?;
                let turn = live.game.turn();
                let left = live.clock().left(turn, turn, now).unwrap_or(0);
                self.rearm(id).await?;
                Ok(vec![say(
                    &live,
                    Msg::Reminder {
                        id,
                        who: live.name(turn).to_string(),
                        left: Duration(left),
                    },
                )])
            }
            Event::IdleNotice => {
                self.store.set_idle_noticed(id, live.row.ply).await?;
                let idler = live.game.turn();
                self.rearm(id).await?;
                Ok(vec![say(
                    &live,
                    Msg::IdleNotice {
                        id,
                        idler: live.name(idler).to_string(),
                        other: live.name(idler.opponent()).to_string(),
                        idle: Duration(now - live.row.turn_started_at),
                    },
                )])
            }
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
                match auto {
                    Some(text) => {
                        self.commit_play(&live, turn, &text, super::play::Source::Table, now, lang)
                            .await
                    }
                    // No move at all: the rules have ended the game already.
                    None => Ok(Vec::new()),
                }
            }
        }
    }

    /// Reload a game and arm its next timer.
    async fn rearm(&self, id: i64) -> Result<(), StoreError> {
        if let Some(l) = self.live(id).await? {
            self.arm_game(&l);
        }
        Ok(())
    }

    /// Drive the timers forever: sleep until the next deadline (or until an earlier one is
    /// armed), fire, and hand the messages to `out`. Also keeps the heartbeat fresh.
    pub async fn run_timers(self: Arc<Self>, out: tokio::sync::mpsc::Sender<Outgoing>) {
        let mut pruned = i64::MIN;
        loop {
            // Once an hour, forget message ids older than a week: no platform re-sends that late.
            let now = self.now();
            if now.saturating_sub(pruned) > 3_600_000 {
                pruned = now;
                if let Err(e) = self.store.forget_messages(now - 7 * 86_400_000).await {
                    tracing::warn!(error = %e, "old message ids not pruned");
                }
            }
            let now = self.now();
            let wait = self
                .next_deadline()
                .map_or(5_000, |t| (t - now).clamp(0, 5_000));
            let wait = std::time::Duration::from_millis(u64::try_from(wait).unwrap_or(0));
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = self.wake.notified() => {}
            }
            for msg in self.fire_due().await {
                if out.send(msg).await.is_err() {
                    return; // the adapter is gone
                }
            }
        }
    }
}
