//! Timers kept in the store, so they fire once however many processes serve the games: a
//! game's row says when its next timer is due (`due_at`), an open challenge's when it
//! expires. A process claims what is due with a lease (`lease_until`); if it dies holding
//! the claim, the lease runs out and another process claims it. Whoever fires a timer does
//! it under the game's lock on fresh state, so a timer claimed twice still acts once.

use super::{Result, Store};

/// Something whose time has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Due {
    Game(i64),
    Challenge(i64),
    /// A tournament's start, next pairing, standings or end.
    Tournament(i64),
}

/// Claim due games (`$1` now, `$2` the lease's end, `$3` how many), in `PostgreSQL`: rows
/// other takers hold are skipped, not waited for.
pub(crate) const CLAIM_GAMES_PG: &str = "UPDATE games SET lease_until = $2 WHERE id IN (
     SELECT id FROM games
     WHERE status = 'active' AND due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
     ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
 RETURNING id";

/// The same in `SQLite`, whose single writer takes turns anyway.
pub(crate) const CLAIM_GAMES_SQLITE: &str = "UPDATE games SET lease_until = $2 WHERE id IN (
     SELECT id FROM games
     WHERE status = 'active' AND due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
     ORDER BY due_at LIMIT $3)
 RETURNING id";

/// The earliest unclaimed game timer (`$1` now): the first in the due-time index.
pub(crate) const NEXT_DUE_GAMES: &str = "SELECT due_at FROM games
     WHERE status = 'active' AND due_at IS NOT NULL AND (lease_until IS NULL OR lease_until <= $1)
     ORDER BY due_at LIMIT 1";

impl Store {
    /// Claim up to `limit` due timers at `now` for `lease_ms`: those due, not held by a live
    /// claim. `PostgreSQL` skips rows another transaction holds (`FOR UPDATE SKIP LOCKED`),
    /// so processes claiming at once split the work instead of queueing.
    pub async fn claim_due(&self, now: i64, lease_ms: i64, limit: i64) -> Result<Vec<Due>> {
        let until = now.saturating_add(lease_ms);
        let (games, challenges, tournaments): (Vec<i64>, Vec<i64>, Vec<i64>) = on_db!(self, conn, pg => {
            let games = sqlx::query_scalar(if pg { CLAIM_GAMES_PG } else { CLAIM_GAMES_SQLITE })
            .bind(now)
            .bind(until)
            .bind(limit)
            .fetch_all(&mut *conn)
            .await?;
            let challenges = sqlx::query_scalar(if pg {
                "UPDATE challenges SET lease_until = $2 WHERE id IN (
                     SELECT id FROM challenges
                     WHERE status = 'open' AND expires_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
                     ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                 RETURNING id"
            } else {
                "UPDATE challenges SET lease_until = $2 WHERE id IN (
                     SELECT id FROM challenges
                     WHERE status = 'open' AND expires_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
                     ORDER BY expires_at LIMIT $3)
                 RETURNING id"
            })
            .bind(now)
            .bind(until)
            .bind(limit)
            .fetch_all(&mut *conn)
            .await?;
            let tournaments = sqlx::query_scalar(if pg {
                "UPDATE tournaments SET lease_until = $2 WHERE id IN (
                     SELECT id FROM tournaments
                     WHERE status IN ('open', 'running') AND due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
                     ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                 RETURNING id"
            } else {
                "UPDATE tournaments SET lease_until = $2 WHERE id IN (
                     SELECT id FROM tournaments
                     WHERE status IN ('open', 'running') AND due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
                     ORDER BY due_at LIMIT $3)
                 RETURNING id"
            })
            .bind(now)
            .bind(until)
            .bind(limit)
            .fetch_all(&mut *conn)
            .await?;
            (games, challenges, tournaments)
        });
        let mut due: Vec<Due> = games.into_iter().map(Due::Game).collect();
        due.extend(challenges.into_iter().map(Due::Challenge));
        due.extend(tournaments.into_iter().map(Due::Tournament));
        due.sort_unstable();
        Ok(due)
    }

    /// When the next unclaimed timer is due (ms), from the timers' indexes. (A timer
    /// claimed by a process that then died is found again once its lease has run out.)
    pub async fn next_due(&self, now: i64) -> Result<Option<i64>> {
        let (game, challenge, tournament): (Option<i64>, Option<i64>, Option<i64>) = on_db!(self, conn, _pg => {
            let game = sqlx::query_scalar(NEXT_DUE_GAMES)
            .bind(now)
            .fetch_optional(&mut *conn)
            .await?;
            let challenge = sqlx::query_scalar(
                "SELECT expires_at FROM challenges
                 WHERE status = 'open' AND (lease_until IS NULL OR lease_until <= $1)
                 ORDER BY expires_at LIMIT 1",
            )
            .bind(now)
            .fetch_optional(&mut *conn)
            .await?;
            let tournament: Option<i64> = sqlx::query_scalar(
                "SELECT due_at FROM tournaments
                 WHERE status IN ('open', 'running') AND due_at IS NOT NULL
                   AND (lease_until IS NULL OR lease_until <= $1)
                 ORDER BY due_at LIMIT 1",
            )
            .bind(now)
            .fetch_optional(&mut *conn)
            .await?;
            (game, challenge, tournament)
        });
        Ok([game, challenge, tournament].into_iter().flatten().min())
    }

    /// Set when a game's next timer is due (None: it has none) and let go of any claim.
    pub async fn set_due(&self, game_id: i64, due_at: Option<i64>) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query(
                "UPDATE games SET due_at = $2, lease_until = NULL WHERE id = $1 AND status = 'active'",
            )
            .bind(game_id)
            .bind(due_at)
            .execute(&mut *conn)
            .await?;
        });
        Ok(())
    }

    /// Let go of a claim without firing, to be tried again at `retry_at` (a fire that failed).
    pub async fn retry_at(&self, due: Due, retry_at: i64) -> Result<()> {
        on_db!(self, conn, _pg => {
            match due {
                Due::Game(id) => sqlx::query("UPDATE games SET lease_until = $2 WHERE id = $1")
                    .bind(id)
                    .bind(retry_at)
                    .execute(&mut *conn)
                    .await?,
                Due::Challenge(id) => {
                    sqlx::query("UPDATE challenges SET lease_until = $2 WHERE id = $1")
                        .bind(id)
                        .bind(retry_at)
                        .execute(&mut *conn)
                        .await?
                }
                Due::Tournament(id) => {
                    sqlx::query("UPDATE tournaments SET lease_until = $2 WHERE id = $1")
                        .bind(id)
                        .bind(retry_at)
                        .execute(&mut *conn)
                        .await?
                }
            };
        });
        Ok(())
    }
}
