//! A connection held for a whole move. On `PostgreSQL` every statement is a round trip and
//! every connection taken from a pool and given back is one more (the pool checks it), so a
//! move — find the sender's game, take its lock, read it, commit — runs on one connection,
//! which holds the game's advisory lock too. On `SQLite` a session holds no connection: the
//! writer's one is shared, and commits go through the group commit; until its game is
//! locked, a session reads on a reader beside the writer, so that a move's first read does
//! not queue behind the batch being written and its sync. A move commits only if its game
//! is as that read saw it, and a refusal answered from it (not your turn, no game here)
//! misses only commits not yet answered, which nobody has seen.

use super::games::{move_in_one_statement_on, GameRow, MoveUpdate, Saved, ACTIVE_IN_CHAT};
use super::{Result, Says, Store, StoreError};
use sqlx::pool::PoolConnection;
use sqlx::postgres::{
    PgAdvisoryLock, PgAdvisoryLockGuard, PgAdvisoryLockKey, PgConnection, Postgres,
};

/// What a `PostgreSQL` session holds: its connection, and once the game is locked, the lock
/// (released when the session is dropped, with the connection).
enum Held {
    Open(PoolConnection<Postgres>),
    Locked(PgAdvisoryLockGuard<PoolConnection<Postgres>>),
    /// Only while changing from one to the other.
    Gone,
}

/// One move's connection (see the module).
pub struct Session {
    held: Option<Held>,
    /// The session's game is locked (`SQLite`: its reads go to the writer from now on, and
    /// see every commit).
    locked: bool,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Session")
    }
}

impl Session {
    fn conn(&mut self) -> Option<&mut PgConnection> {
        match self.held.as_mut()? {
            Held::Open(c) => Some(c.as_mut()),
            Held::Locked(g) => Some(g.as_mut()),
            Held::Gone => None,
        }
    }
}

impl Store {
    /// A session for one move.
    pub async fn session(&self) -> Result<Session> {
        Ok(Session {
            held: match &self.locks {
                Some(locks) => Some(Held::Open(locks.acquire().await?)),
                None => None,
            },
            locked: false,
        })
    }

    /// [`Store::active_games_in`], in a session.
    pub async fn active_games_in_session(
        &self,
        s: &mut Session,
        platform: &str,
        chat: &str,
        player: i64,
    ) -> Result<Vec<GameRow>> {
        let locked = s.locked;
        match s.conn() {
            Some(c) => Ok(sqlx::query_as(ACTIVE_IN_CHAT)
                .bind(platform)
                .bind(chat)
                .bind(player)
                .fetch_all(c)
                .await?),
            None if locked => self.active_games_in(platform, chat, player).await,
            None => {
                on_read!(self, conn, _pg => Ok(sqlx::query_as(ACTIVE_IN_CHAT)
                    .bind(platform)
                    .bind(chat)
                    .bind(player)
                    .fetch_all(&mut *conn)
                    .await?))
            }
        }
    }

    /// [`Store::game`], in a session.
    pub async fn game_in_session(&self, s: &mut Session, id: i64) -> Result<Option<GameRow>> {
        let locked = s.locked;
        match s.conn() {
            Some(c) => Ok(sqlx::query_as("SELECT * FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(c)
                .await?),
            None if locked => self.game(id).await,
            None => {
                on_read!(self, conn, _pg => Ok(sqlx::query_as("SELECT * FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *conn)
                .await?))
            }
        }
    }

    /// Take game `id`'s lock across processes for the rest of the session (nothing on
    /// `SQLite`). A session locks one game; locking it again is nothing.
    pub async fn lock_game_in_session(&self, s: &mut Session, id: i64) -> Result<()> {
        s.locked = true;
        let Some(held) = s.held.take() else {
            return Ok(());
        };
        let conn = match held {
            Held::Open(c) => c,
            other => {
                s.held = Some(other);
                return Ok(());
            }
        };
        s.held = Some(Held::Gone);
        let guard = PgAdvisoryLock::with_key(PgAdvisoryLockKey::BigInt(id))
            .acquire(conn)
            .await?;
        s.held = Some(Held::Locked(guard));
        Ok(())
    }

    /// [`Store::commit_move`], in a session: on `PostgreSQL` the commit takes the game's
    /// lock itself (reentrant if the session holds it), so a move checked without the lock
    /// still commits under it, and only if the game is as it was checked against.
    pub async fn commit_move_in_session(
        &self,
        s: &mut Session,
        game_id: i64,
        ply: i64,
        now: i64,
        u: &MoveUpdate,
        says: Says<Saved>,
    ) -> Result<Saved> {
        let locked = matches!(s.held, Some(Held::Locked(_)));
        match (s.conn(), says) {
            (Some(c), Says::Rows(rows)) if u.finish.is_none() => {
                let notices = self.signal().notices(&rows, now);
                let (saved, mut rows) = move_in_one_statement_on(
                    c,
                    (game_id, ply, now),
                    u,
                    (&rows, &notices.payloads),
                    true,
                )
                .await?;
                notices.mark(&mut rows);
                self.committed(&rows);
                Ok(saved)
            }
            // An ending settles ratings in a transaction of its own: under the session's
            // lock only (a conflict sends an unlocked move to be tried again with it).
            (Some(_), _) if !locked => Err(StoreError::Conflict),
            (_, says) => self.commit_move(game_id, ply, now, u, says).await,
        }
    }
}
