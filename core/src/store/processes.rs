//! The processes serving the games: each keeps its own heartbeat row, and clocks are credited
//! only for time when none of them was alive (the gaps in the union of their heartbeats,
//! kept as outages).

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
        on_db!(self, conn, pg => {
            if pg {
                let mut tx = sqlx::Connection::begin(&mut *conn).await?;
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
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar(
            "SELECT MAX(beat_at) FROM heartbeats WHERE process <> $1",
        )
        .bind(process)
        .fetch_one(&mut *conn)
        .await?))
    }

    /// Start serving as `process` at `now`: unless another process beat after `seen` (the
    /// last heartbeat the caller saw, having waited long enough for a live process to beat
    /// again), nobody served the games since that heartbeat, and the gap is recorded as an
    /// outage (running clocks are credited with it when their game is next touched). The
    /// outage and this process's first heartbeat are one transaction, and starts take turns
    /// at it, so two processes starting together record the gap once. Returns the outage.
    pub async fn resume(
        &self,
        process: &str,
        now: i64,
        seen: Option<i64>,
    ) -> Result<Option<(i64, i64)>> {
        on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
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
            let mut outage = None;
            if let (Some(last), false) = (last, alive) {
                if now > last {
                    sqlx::query("INSERT INTO outages (started_at, ended_at) VALUES ($1, $2)")
                        .bind(last)
                        .bind(now)
                        .execute(&mut *tx)
                        .await?;
                    outage = Some((last, now));
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
            Ok(outage)
        })
    }

    /// Every outage recorded, oldest first: (started, ended), in ms.
    pub async fn outages(&self) -> Result<Vec<(i64, i64)>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(
            "SELECT started_at, ended_at FROM outages ORDER BY ended_at",
        )
        .fetch_all(&mut *conn)
        .await?))
    }
}
