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

/// A role only one process may hold at a time (Telegram's poller: the Bot API serves one
/// `getUpdates` caller per bot), held while this lives, released when it is dropped or
/// its process dies.
pub struct Exclusive {
    _guard: Option<PgAdvisoryLockGuard<PoolConnection<Postgres>>>,
}

impl std::fmt::Debug for Exclusive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Exclusive")
    }
}

/// The key space of roles (the two-number one; games use the one-number space).
const ROLE_SPACE: i32 = 0x7567_6f6c;

/// A stable number for a role's name (FNV-1a): the same in every process.
fn role_key(name: &str) -> i32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    i32::from_ne_bytes(h.to_ne_bytes())
}

impl Store {
    /// Take the role `name` if no other process holds it (None: another does). On `SQLite`
    /// there is one process per database, so the role is always this one's.
    pub async fn try_exclusive(&self, name: &str) -> Result<Option<Exclusive>> {
        let Some(locks) = &self.locks else {
            return Ok(Some(Exclusive { _guard: None }));
        };
        let conn = locks.acquire().await?;
        let lock = PgAdvisoryLock::with_key(PgAdvisoryLockKey::IntPair(ROLE_SPACE, role_key(name)));
        Ok(match lock.try_acquire(conn).await? {
            sqlx::Either::Left(guard) => Some(Exclusive {
                _guard: Some(guard),
            }),
            sqlx::Either::Right(_) => None,
        })
    }
}

/// The key space of tournaments' locks (the two-number one).
const TOURNAMENT_SPACE: i32 = 0x746f_7572;

impl Store {
    /// Take tournament `id`'s lock across processes, waiting for it (None: this database
    /// needs none): its transitions are worked out and written under it, one process at a
    /// time. (Ids past `i32` share a key with another: they only wait for each other.)
    pub async fn lock_tournament(&self, id: i64) -> Result<Option<GameLock>> {
        let Some(locks) = &self.locks else {
            return Ok(None);
        };
        let conn = locks.acquire().await?;
        let key = i32::try_from(id.rem_euclid(i64::from(i32::MAX))).unwrap_or(0);
        let guard = PgAdvisoryLock::with_key(PgAdvisoryLockKey::IntPair(TOURNAMENT_SPACE, key))
            .acquire(conn)
            .await?;
        Ok(Some(GameLock { _guard: guard }))
    }
}
