//! The processes serving the games: each keeps its own heartbeat row, and clocks are credited
//! only for time when none of them was alive (the gap in the union of their heartbeats).

use super::{Result, Store};

/// The advisory lock (two-key space: never a game's) that makes starts credit downtime one
/// at a time.
const RESUME_LOCK: (i32, i32) = (0x7567_6f6c, 1);

impl Store {
    /// Record that `process` is alive at `now` (ms). Heartbeats are frequent, so they are
    /// written without an fsync of their own: a killed process loses none of them (they are
    /// in the operating system's cache), and one lost in a power cut only gives players back
    /// a little more time. Moves keep their full sync.
    pub async fn beat(&self, process: &str, now: i64) -> Result<()> {
        on_db!(self, pool, pg => {
            if pg {
                let mut tx = pool.begin().await?;
                sqlx::query("SET LOCAL synchronous_commit = off")
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("UPDATE heartbeats SET beat_at = $2 WHERE process = $1")
                    .bind(process)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
            } else {
                let mut conn = pool.acquire().await?;
                sqlx::query("PRAGMA synchronous = NORMAL")
                    .execute(&mut *conn)
                    .await?;
                let written = sqlx::query("UPDATE heartbeats SET beat_at = $2 WHERE process = $1")
                    .bind(process)
                    .bind(now)
                    .execute(&mut *conn)
                    .await;
                sqlx::query("PRAGMA synchronous = FULL")
                    .execute(&mut *conn)
                    .await?;
                written?;
            }
        });
        Ok(())
    }

    /// The latest heartbeat of any process but `process`, if one ever ran here.
    pub async fn last_beat_of_others(&self, process: &str) -> Result<Option<i64>> {
        on_db!(self, pool, _pg => Ok(sqlx::query_scalar(
            "SELECT MAX(beat_at) FROM heartbeats WHERE process <> $1",
        )
        .bind(process)
        .fetch_one(pool)
        .await?))
    }

    /// Start serving as `process` at `now`: unless another process beat after `seen` (the
    /// last heartbeat the caller saw, having waited long enough for a live process to beat
    /// again), nobody served the games since that heartbeat, so every running clock (and its
    /// timer) is credited with the gap. The credit and this process's first heartbeat are one
    /// transaction, and starts take turns at it, so two processes starting together credit
    /// the gap once. Returns the downtime credited (ms) and the number of games it went to.
    pub async fn resume(
        &self,
        process: &str,
        now: i64,
        seen: Option<i64>,
    ) -> Result<Option<(i64, u64)>> {
        on_db!(self, pool, pg => {
            let mut tx = pool.begin().await?;
            if pg {
                sqlx::query("SELECT pg_advisory_xact_lock($1, $2)")
                    .bind(RESUME_LOCK.0)
                    .bind(RESUME_LOCK.1)
                    .execute(&mut *tx)
                    .await?;
            }
            let last: Option<i64> =
                sqlx::query_scalar("SELECT MAX(beat_at) FROM heartbeats WHERE process <> $1")
                    .bind(process)
                    .fetch_one(&mut *tx)
                    .await?;
            let alive = last.is_some() && last > seen;
            let mut credited = None;
            if let (Some(last), false) = (last, alive) {
                let down = now - last;
                if down > 0 {
                    let games = sqlx::query(
                        "UPDATE games SET turn_started_at = turn_started_at + $1, due_at = due_at + $1
                         WHERE status = 'active'",
                    )
                    .bind(down)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                    credited = Some((down, games));
                }
            }
            sqlx::query(
                "INSERT INTO heartbeats (process, started_at, beat_at) VALUES ($1, $2, $2)
                 ON CONFLICT (process) DO UPDATE SET beat_at = excluded.beat_at",
            )
            .bind(process)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            // Processes gone for a week are forgotten (the newest row always stays).
            sqlx::query(
                "DELETE FROM heartbeats WHERE beat_at < $1 AND process <> $2",
            )
            .bind(now - 7 * 86_400_000)
            .bind(process)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(credited)
        })
    }
}
