//! Game locks across processes. With `PostgreSQL`, a move, a button and a timer for one game
//! are applied one at a time however many processes receive them: each takes the game's
//! advisory lock (keyed by the game's id) on a connection of its own, held until the work is
//! committed. A process that dies holding one loses its session, and the lock with it.
//! `SQLite` has one process per database (its lock file), so the table's own per-game mutex
//! is enough there.

use super::{Result, Store};
use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgAdvisoryLock, PgAdvisoryLockGuard, PgAdvisoryLockKey, Postgres};

/// A game's lock in the database, held while this lives. Dropping it queues the unlock on
/// its connection, which the pool sends as the connection comes back.
pub struct GameLock {
    _guard: PgAdvisoryLockGuard<PoolConnection<Postgres>>,
}

impl std::fmt::Debug for GameLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GameLock")
    }
}

impl Store {
    /// Take game `id`'s lock across processes, waiting for it (None: this database needs
    /// none).
    pub async fn lock_game(&self, id: i64) -> Result<Option<GameLock>> {
        let Some(locks) = &self.locks else {
            return Ok(None);
        };
        let conn = locks.acquire().await?;
        // Games use the one-number key space; other locks of ours use the two-number one.
        let guard = PgAdvisoryLock::with_key(PgAdvisoryLockKey::BigInt(id))
            .acquire(conn)
            .await?;
        Ok(Some(GameLock { _guard: guard }))
    }
}
