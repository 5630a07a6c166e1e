//! A game page kept live: `/g/<game>/events` is a stream of server-sent events, `ply` with
//! the number of plies played each time it changes (a move typed in the chat, a flag, an
//! automatic move), `offer` with the side whose draw offer waits (`white`, `black`, or
//! `none`) beside it, and `over` once the game has ended. The page's few lines of script
//! reload it on either; without script it reloads itself every few seconds instead.
//!
//! Watchers of one game share one look at the store a quarter of a second (so a move
//! made by any process on the database shows within a second), which stops with its last
//! watcher. The streams are bounded: [`PER_GAME`] a game, [`ALL`] in all.

use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt as _;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
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

/// The games being watched and the streams open.
pub struct Watching {
    table: Arc<Table>,
    games: Mutex<HashMap<i64, (watch::Receiver<Standing>, usize)>>,
    all: Arc<Semaphore>,
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
                // The look at the store ends once no receiver is left.
                games.remove(&self.game);
            }
        }
    }
}

impl Watching {
    pub fn new(table: Arc<Table>) -> Arc<Watching> {
        Arc::new(Watching {
            table,
            games: Mutex::new(HashMap::new()),
            all: Arc::new(Semaphore::new(ALL)),
        })
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
        let Ok(permit) = self.all.clone().try_acquire_owned() else {
            return busy();
        };
        let rx = {
            let mut games = crate::lock(&self.games);
            match games.get_mut(&game) {
                Some((_, n)) if *n >= PER_GAME => return busy(),
                Some((rx, n)) => {
                    *n += 1;
                    rx.clone()
                }
                None => {
                    let (tx, rx) = watch::channel(Standing { ply, over, offer });
                    tokio::spawn(look(self.table.clone(), game, tx));
                    games.insert(game, (rx.clone(), 1));
                    rx
                }
            }
        };
        let hold = Hold {
            watching: self.clone(),
            game,
            _permit: permit,
        };
        // The first event says where the game stands now; then each change.
        let events =
            futures_util::stream::unfold((rx, hold, true), |(mut rx, hold, first)| async move {
                if !first && rx.changed().await.is_err() {
                    return None;
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
                Some((events, (rx, hold, false)))
            })
            .flatten();
        Sse::new(events)
            .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
            .into_response()
    }
}

/// Read game `game` every [`LOOK_EVERY`] and tell its watchers when it changed, until none
/// is left (or the game is gone).
async fn look(table: Arc<Table>, game: i64, tx: watch::Sender<Standing>) {
    let mut tick = tokio::time::interval(LOOK_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if tx.receiver_count() == 0 {
            return;
        }
        match table.store().game(game).await {
            Ok(Some(row)) => {
                let now = Standing {
                    ply: row.ply,
                    over: !row.is_active(),
                    offer: row.draw_offer_by,
                };
                tx.send_if_modified(|s| std::mem::replace(s, now) != now);
            }
            Ok(None) => return,
            Err(e) => tracing::debug!(error = %e, game, "a watched game not read"),
        }
    }
}

fn busy() -> Response {
    axum::http::StatusCode::SERVICE_UNAVAILABLE.into_response()
}
