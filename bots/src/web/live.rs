//! A game page kept live: `/g/<game>/events` is a stream of server-sent events, `ply` with
//! the number of plies played each time it changes (a move typed in the chat, a flag, an
//! automatic move), `offer` with the side whose draw offer waits (`white`, `black`, or
//! `none`) beside it, and `over` once the game has ended. The page's few lines of script
//! reload it on either; without script it reloads itself every few seconds instead.
//!
//! Every watched game is looked at in one read of the store a quarter of a second (so a
//! move made by any process on the database shows within a second), shared by all their
//! watchers and made on a reader, off the writer's path; a game leaves the read with its
//! last watcher. The streams are bounded: [`PER_GAME`] a game, [`ALL`] in all.

use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt as _;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use ugolki_core::store::GameStatus;
use ugolki_core::table::Table;
use ugolki_core::Color;

/// Streams a game may have open at once.
pub const PER_GAME: usize = 32;
/// Streams open at once, all games together.
pub const ALL: usize = 512;
/// How often a watched game is read.
const LOOK_EVERY: Duration = Duration::from_millis(250);

/// Where a game stands, as its watchers are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Standing {
    ply: i64,
    over: bool,
    offer: Option<Color>,
}

fn offer_name(offer: Option<Color>) -> &'static str {
    match offer {
        Some(Color::White) => "white",
        Some(Color::Black) => "black",
        None => "none",
    }
}

/// The games being watched (each its watchers' channel and their number) and the streams
/// open.
pub struct Watching {
    table: Arc<Table>,
    games: Mutex<HashMap<i64, (watch::Sender<Standing>, usize)>>,
    all: Arc<Semaphore>,
    /// The look at the store, started with the first stream.
    looking: std::sync::OnceLock<tokio::task::JoinHandle<()>>,
    /// Set when the pages' server stops: every stream ends, so its connection closes and
    /// nothing of the server outlives the process's store.
    closing: watch::Sender<bool>,
}

/// A stream's hold on its game: counted down when the stream ends.
struct Hold {
    watching: Arc<Watching>,
    game: i64,
    _permit: OwnedSemaphorePermit,
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut games = crate::lock(&self.watching.games);
        if let Some((_, n)) = games.get_mut(&self.game) {
            *n -= 1;
            if *n == 0 {
                // Not read again once nobody watches it.
                games.remove(&self.game);
            }
        }
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        if let Some(t) = self.looking.get() {
            t.abort();
        }
    }
}

impl Watching {
    pub fn new(table: Arc<Table>) -> Arc<Watching> {
        Arc::new(Watching {
            table,
            games: Mutex::new(HashMap::new()),
            all: Arc::new(Semaphore::new(ALL)),
            looking: std::sync::OnceLock::new(),
            closing: watch::Sender::new(false),
        })
    }

    /// End every stream, open or to come.
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// The events of game `game` (standing at `ply`, `over` or not, a draw `offer` waiting
    /// or not), or 503 when the streams are all taken.
    pub fn stream(
        self: &Arc<Self>,
        game: i64,
        ply: i64,
        over: bool,
        offer: Option<Color>,
    ) -> Response {
        let mut closing = self.closing.subscribe();
        if *closing.borrow_and_update() {
            return busy();
        }
        let Ok(permit) = self.all.clone().try_acquire_owned() else {
            return busy();
        };
        let rx = {
            let mut games = crate::lock(&self.games);
            match games.get_mut(&game) {
                Some((_, n)) if *n >= PER_GAME => return busy(),
                Some((tx, n)) => {
                    *n += 1;
                    tx.subscribe()
                }
                None => {
                    let (tx, rx) = watch::channel(Standing { ply, over, offer });
                    games.insert(game, (tx, 1));
                    rx
                }
            }
        };
        // The look holds the watching weakly: it ends with the pages' server.
        let weak = Arc::downgrade(self);
        self.looking.get_or_init(|| tokio::spawn(look(weak)));
        let hold = Hold {
            watching: self.clone(),
            game,
            _permit: permit,
        };
        // The first event says where the game stands now; then each change.
        let start = (rx, closing, hold, true);
        let events =
            futures_util::stream::unfold(start, |(mut rx, mut closing, hold, first)| async move {
                if !first {
                    tokio::select! {
                        changed = rx.changed() => changed.ok()?,
                        _ = closing.wait_for(|c| *c) => return None,
                    }
                }
                let now = *rx.borrow_and_update();
                let events = if now.over {
                    vec![Event::default().event("over").data(now.ply.to_string())]
                } else {
                    vec![
                        Event::default().event("ply").data(now.ply.to_string()),
                        Event::default().event("offer").data(offer_name(now.offer)),
                    ]
                };
                let events =
                    futures_util::stream::iter(events.into_iter().map(Ok::<_, Infallible>));
                Some((events, (rx, closing, hold, false)))
            })
            .flatten();
        Sse::new(events)
            .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
            .into_response()
    }
}

/// Every [`LOOK_EVERY`], read where every watched game stands, in one statement, and tell
/// each game's watchers when it changed; a game gone from the store ends its streams.
async fn look(watching: std::sync::Weak<Watching>) {
    let mut tick = tokio::time::interval(LOOK_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(w) = watching.upgrade() else {
            return;
        };
        let ids: Vec<i64> = crate::lock(&w.games).keys().copied().collect();
        if ids.is_empty() {
            continue;
        }
        let read = w.table.store().standings_of(&ids).await;
        let standings = match read {
            Ok(s) => s,
            Err(e) => {
                tracing::debug!(error = %e, "watched games not read");
                continue;
            }
        };
        let mut games = crate::lock(&w.games);
        let found: std::collections::HashSet<i64> = standings.iter().map(|s| s.id).collect();
        for s in standings {
            if let Some((tx, _)) = games.get(&s.id) {
                let now = Standing {
                    ply: s.ply,
                    over: s.status != GameStatus::Active,
                    offer: s.draw_offer_by,
                };
                tx.send_if_modified(|was| std::mem::replace(was, now) != now);
            }
        }
        // Read and not there: deleted. Its streams end (their channel closes).
        games.retain(|id, _| found.contains(id) || !ids.contains(id));
    }
}

fn busy() -> Response {
    axum::http::StatusCode::SERVICE_UNAVAILABLE.into_response()
}
