//! The store: one API over two backends through sqlx. `SQLite` (the default) serves one
//! process; `PostgreSQL` lets several processes share one database. Each has its migrations
//! (`migrations/sqlite/`, `migrations/postgres/`), applied at start. One `impl Store` per
//! domain (`players`, `challenges`, `games`, `ratings`, `meta`, `processes`, `timers`,
//! `locks`); every accepted move is committed before its reply goes out.
//!
//! Queries are written once, with `$N` placeholders that both backends read, and run on
//! whichever pool the store has through [`on_db!`]; the few statements whose dialects differ
//! say so where they are. Columns cross as typed values ([`GameStatus`], [`GameResult`],
//! [`Color`](crate::Color), [`Rules`](crate::game::Rules), …) and rows as `FromRow` structs,
//! so a damaged row is an error, never a panic.

/// Run `$body` with `$conn` bound to one connection of the store (`&mut` to it: statements
/// run on `&mut *$conn`, transactions begin with `$conn.begin()`). The body is compiled once
/// per backend (their types differ), so each query is written once; `$pg` says which one
/// runs, for the statements whose dialects differ. One connection for a whole call: taking
/// one from a pool and giving it back costs more than a statement.
macro_rules! on_db {
    ($store:expr, $conn:ident, $pg:ident => $body:expr) => {
        match &$store.db {
            $crate::store::Db::Sqlite(db) => {
                #[allow(unused_variables)]
                let $pg = false;
                let mut guard = db.lock().await;
                let Some(held) = guard.as_mut() else {
                    return Err($crate::store::StoreError::Closed);
                };
                #[allow(unused_variables)]
                let $conn: &mut sqlx::SqliteConnection = held;
                $body
            }
            $crate::store::Db::Postgres(pool) => {
                #[allow(unused_variables)]
                let $pg = true;
                #[allow(unused_mut)]
                let mut held = pool.acquire().await?;
                #[allow(unused_variables)]
                let $conn: &mut sqlx::PgConnection = &mut held;
                $body
            }
        }
    };
}

/// `SQLite` readers beside the writer (see `on_read!`). Six, not two: with a hundred chats
/// delivering at once, two readers made each chat's read wait half its time in the pool's
/// queue (`table_move`: +10% moves/s with six; a reader is a file handle and a page cache).
const SQLITE_READERS: u32 = 6;

/// As [`on_db!`], for a read that may go to `SQLite`'s reading connections (a file database
/// in WAL mode serves readers beside its writer): reads on the outbox's path do not queue
/// behind the writer's statements.
macro_rules! on_read {
    ($store:expr, $conn:ident, $pg:ident => $body:expr) => {
        match (&$store.db, &$store.reader) {
            ($crate::store::Db::Sqlite(_), Some(reader)) => {
                #[allow(unused_variables)]
                let $pg = false;
                let mut held = reader.acquire().await.map_err(|e| match e {
                    sqlx::Error::PoolClosed => $crate::store::StoreError::Closed,
                    e => e.into(),
                })?;
                #[allow(unused_variables)]
                let $conn: &mut sqlx::SqliteConnection = &mut held;
                $body
            }
            _ => on_db!($store, $conn, $pg => $body),
        }
    };
}

mod challenges;
mod chats;
mod commits;
mod games;
mod legacy;
mod locks;
mod mark_runs;
mod meta;
pub mod outbox;
mod players;
mod processes;
mod queue;
mod ratings;
mod session;
mod stale;
mod timers;
mod tournaments;
mod types;

pub use challenges::{ChallengeRow, NewChallenge};
pub use games::{
    Accepted, Checked, Finish, GameRow, GameStanding, MoveUpdate, NewGame, Report, Reported, Saved,
    MAX_STANDINGS,
};
pub use locks::{Exclusive, GameLock};
pub use outbox::{
    Depth, OutRow, Outcome, Queued, Says, Signal, SlotChange, SlotRow, ThreadRow, ONE_MESSAGE_SLOT,
};
pub use players::Player;
pub use ratings::Standing;
pub use session::Session;
pub use stale::StaleButtons;
pub use timers::Due;
pub use tournaments::{
    Created, EntrantRow, Joined, NewBoard, NewTournament, PairingRow, TournamentRow,
    TournamentStatus, Transition,
};
pub use types::{ChallengeStatus, GameStatus};

pub use crate::game::GameResult;
pub use crate::settlement::RatingChange;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection};
use std::str::FromStr;
use std::time::Duration;

/// A failure of the store (internal: users see "something went wrong", the log sees this).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("unsupported database URL scheme '{0}' (use sqlite://FILE, sqlite::memory: or postgres://USER@HOST/DB)")]
    Url(String),
    #[error("the game changed while this was being done; try again")]
    Conflict,
    #[error("this message was handled already")]
    Repeat,
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
    #[error("the database {path} is in use by another ugolki process{holder}; stop it first (one process per SQLite database; several processes need PostgreSQL)")]
    InUse { path: String, holder: String },
    #[error("cannot lock the database: {0}")]
    Lock(std::io::Error),
    #[error("the store is closed")]
    Closed,
    #[error("the commit failed: {0}")]
    Commit(String),
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// Which database a store runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The connections of one backend: `SQLite`'s one connection (it has one writer anyway, and
/// an in-memory database lives in its connection), or a `PostgreSQL` pool.
#[derive(Clone, Debug)]
pub(crate) enum Db {
    Sqlite(std::sync::Arc<tokio::sync::Mutex<Option<sqlx::SqliteConnection>>>),
    Postgres(PgPool),
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pub(crate) db: Db,
    /// `SQLite`: the group commit of moves and endings.
    commits: Option<commits::Commits>,
    /// `PostgreSQL`: the outbox's marks, written in runs.
    mark_runs: Option<mark_runs::MarkRuns>,
    /// `SQLite` on a file: a second connection for the outbox's reads (WAL: readers see
    /// every committed transaction and never wait for the writer).
    reader: Option<sqlx::SqlitePool>,
    /// `PostgreSQL`: the connections that hold games' advisory locks, apart from the query
    /// pool, so a task waiting for a lock never takes a connection its holder needs.
    locks: Option<PgPool>,
    /// `SQLite`: the lock file that keeps a second process off this database (held while
    /// any clone of the store lives; the operating system drops it when the process dies).
    _lock: Option<std::sync::Arc<std::fs::File>>,
    /// Chats with outbox rows just committed by this process (its senders wait on it).
    signal: std::sync::Arc<Signal>,
}

/// Take `<database>.lock` for this process, or say who holds it. Two processes on one
/// `SQLite` file would both fire every timer and both credit "downtime" to every clock.
fn lock_database(db: &std::path::Path) -> Result<std::fs::File> {
    use std::io::{Read, Seek, Write};
    let path = {
        let mut p = db.as_os_str().to_owned();
        p.push(".lock");
        std::path::PathBuf::from(p)
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&path)
        .map_err(StoreError::Lock)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut pid = String::new();
            let _ = file.read_to_string(&mut pid);
            let pid = pid.trim();
            return Err(StoreError::InUse {
                path: db.display().to_string(),
                holder: if pid.is_empty() {
                    String::new()
                } else {
                    format!(" (pid {pid})")
                },
            });
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(StoreError::Lock(e)),
    }
    file.set_len(0).map_err(StoreError::Lock)?;
    file.rewind().map_err(StoreError::Lock)?;
    write!(file, "{}", std::process::id()).map_err(StoreError::Lock)?;
    Ok(file)
}

/// The default database file, created on first run.
pub const DEFAULT_URL: &str = "sqlite://ugolki.db";

/// `PostgreSQL` connections for queries, per process.
const PG_QUERY_CONNECTIONS: u32 = 8;
/// `PostgreSQL` connections that hold game locks, per process (at most this many games are
/// being changed at once by one process; more wait their turn).
const PG_LOCK_CONNECTIONS: u32 = 8;

/// A database URL fit for a log or an error message: the password replaced by `***`.
#[must_use]
pub fn display_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.chars().take(80).collect();
    };
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let shown = match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _password)) => format!("{name}:***@{host}"),
            None => format!("{user}@{host}"),
        },
        None => authority.to_string(),
    };
    // Query parameters may carry a password too.
    let path = path.split('?').next().unwrap_or("");
    let mut out = format!("{scheme}://{shown}");
    if !path.is_empty() || rest.contains('/') {
        out.push('/');
        out.push_str(path);
    }
    out.chars().take(120).collect()
}

/// How long a start waits for a `PostgreSQL` server to answer at all.
const PG_FIRST_CONNECTION: Duration = Duration::from_secs(5);

/// One connection to the server before the pool is made, so that what stops the start is
/// said with its cause: a login refused, a database missing, at once; a server not (yet)
/// there (refused, or silent) tried again for [`PG_FIRST_CONNECTION`], then its last error.
/// (The pool would try for its acquire timeout and then say only that it timed out.)
async fn first_connection(options: &PgConnectOptions) -> Result<()> {
    use sqlx::Connection;
    let pause = Duration::from_millis(250);
    let deadline = tokio::time::Instant::now() + PG_FIRST_CONNECTION;
    let mut last = None;
    loop {
        let tried = tokio::time::timeout_at(deadline, sqlx::PgConnection::connect_with(options));
        match tried.await {
            Ok(Ok(conn)) => {
                let _ = conn.close().await;
                return Ok(());
            }
            // The network's trouble (refused, unreachable): the server may be starting.
            Ok(Err(sqlx::Error::Io(e))) => {
                tracing::debug!(error = %e, "PostgreSQL not answering yet");
                last = Some(e);
            }
            Ok(Err(e)) => return Err(e.into()),
            // Silent till the end.
            Err(_) => break,
        }
        if tokio::time::Instant::now() + pause >= deadline {
            break;
        }
        tokio::time::sleep(pause).await;
    }
    let cause = last.unwrap_or_else(|| {
        let secs = PG_FIRST_CONNECTION.as_secs();
        std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("no answer in {secs} s"),
        )
    });
    Err(sqlx::Error::Io(cause).into())
}

impl Store {
    /// Open (creating if missing) and migrate. `url`: `sqlite://path/file.db`,
    /// `sqlite:///abs/path.db`, `sqlite::memory:` (tests), or `postgres://user@host/db`.
    pub async fn connect(url: &str) -> Result<Store> {
        if url.starts_with("sqlite:") {
            Store::connect_sqlite(url).await
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Store::connect_postgres(url).await
        } else {
            let scheme = url.split(':').next().unwrap_or("").chars().take(20);
            Err(StoreError::Url(scheme.collect()))
        }
    }

    async fn connect_sqlite(url: &str) -> Result<Store> {
        let memory = url.contains(":memory:");
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        // Taken before the migrations, so two processes started together never race them.
        let lock = if memory {
            None
        } else {
            Some(std::sync::Arc::new(lock_database(options.get_filename())?))
        };
        let options = if memory {
            options
        } else {
            // WAL with full sync: a committed move survives a crash of the machine too.
            options
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Full)
        };
        // One connection: SQLite has one writer anyway, and an in-memory database lives in
        // its connection.
        let mut conn = options.connect().await?;
        // `run_direct` on the connection itself: `run(&mut conn)` goes through `Acquire`,
        // whose higher-ranked bound makes every caller's future lose `Send`.
        sqlx::migrate!("../migrations/sqlite")
            .run_direct(None, &mut conn, false)
            .await?;
        let reader = if memory {
            None
        } else {
            let pool = sqlx::sqlite::SqlitePoolOptions::new()
                .max_connections(SQLITE_READERS)
                .min_connections(0)
                .test_before_acquire(false)
                .connect_lazy_with(options.clone());
            Some(pool)
        };
        let db = std::sync::Arc::new(tokio::sync::Mutex::new(Some(conn)));
        let signal = std::sync::Arc::new(Signal::default());
        let store = Store {
            commits: Some(commits::Commits::start(db.clone(), signal.clone())),
            mark_runs: None,
            reader,
            db: Db::Sqlite(db),
            locks: None,
            _lock: lock,
            signal,
        };
        let recoded = store.recode_end_reasons().await?;
        if recoded > 0 {
            tracing::info!(games = recoded, "old end reasons rewritten as codes");
        }
        Ok(store)
    }

    async fn connect_postgres(url: &str) -> Result<Store> {
        // This store's name in its notices of new outbox rows (see `NOTIFY_CHANNEL`).
        let origin = {
            use std::hash::BuildHasher;
            format!(
                "{:016x}",
                std::hash::RandomState::new().hash_one(std::process::id())
            )
        };
        let options = PgConnectOptions::from_str(url)?.application_name("ugolki");
        first_connection(&options).await?;
        // No test before each acquire: a broken connection fails its statement, and the pool
        // tests every connection as it comes back anyway.
        let pool = PgPoolOptions::new()
            .max_connections(PG_QUERY_CONNECTIONS)
            .test_before_acquire(false)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options.clone())
            .await?;
        // A lock whose holder hangs is given up on after a while (the holder's process
        // dying releases it at once: advisory locks end with their session).
        let locks = PgPoolOptions::new()
            .max_connections(PG_LOCK_CONNECTIONS)
            .min_connections(0)
            .test_before_acquire(false)
            .acquire_timeout(Duration::from_secs(30))
            .connect_lazy_with(options.clone().options([("lock_timeout", "30s")]));
        // sqlx takes an advisory lock around the migrations: processes started together
        // apply them once.
        sqlx::migrate!("../migrations/postgres").run(&pool).await?;
        Ok(Store {
            commits: None,
            mark_runs: Some(mark_runs::MarkRuns::start(&options)),
            reader: None,
            db: Db::Postgres(pool),
            locks: Some(locks),
            _lock: None,
            signal: std::sync::Arc::new(Signal::with_origin(origin)),
        })
    }

    /// Which database this is.
    #[must_use]
    pub fn backend(&self) -> Backend {
        match self.db {
            Db::Sqlite(_) => Backend::Sqlite,
            Db::Postgres(_) => Backend::Postgres,
        }
    }

    /// Whether the database answers (the health check).
    pub async fn ping(&self) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query("SELECT 1").execute(&mut *conn).await?;
        });
        Ok(())
    }

    /// Close the connections (a process stopping: its locks go at once). The store
    /// answers nothing after this.
    pub async fn close(&self) {
        match &self.db {
            Db::Sqlite(db) => {
                // An in-memory database goes with its connection; afterwards every call
                // answers "closed".
                if let Some(conn) = db.lock().await.take() {
                    let _ = conn.close().await;
                }
                if let Some(reader) = &self.reader {
                    reader.close().await;
                }
            }
            Db::Postgres(pool) => pool.close().await,
        }
        if let Some(runs) = &self.mark_runs {
            runs.close().await;
        }
        if let Some(locks) = &self.locks {
            locks.close().await;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;

/// What a database holds of this version's schema, read without changing it
/// ([`Store::schema`]: `ugolki doctor`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Schema {
    /// No database there yet: the first start creates it, if its folder exists.
    Absent { folder: bool },
    /// Migrations of this version `applied` of `known`; `newer`: applied ones this version
    /// does not know (a newer version ran on it).
    At {
        applied: usize,
        known: usize,
        newer: usize,
    },
}

impl Store {
    /// The file an `SQLite` URL names, as `SQLite` opens it (`sqlite:x.db`,
    /// `sqlite://x.db?mode=rwc`, escapes); `None` for another database or one in memory.
    #[must_use]
    pub fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
        if !url.starts_with("sqlite:") || url.contains(":memory:") {
            return None;
        }
        let options = SqliteConnectOptions::from_str(url).ok()?;
        Some(options.get_filename().to_path_buf())
    }

    /// Read, without migrating or locking anything, how far the database at `url` is
    /// migrated (an error: it cannot be reached or read).
    pub async fn schema(url: &str) -> Result<Schema> {
        use sqlx::ConnectOptions;
        let (migrator, applied): (sqlx::migrate::Migrator, Vec<i64>) = if url.starts_with("sqlite:")
        {
            let options = SqliteConnectOptions::from_str(url)?;
            let file = options.get_filename();
            if !url.contains(":memory:") && !file.exists() {
                let folder = file
                    .parent()
                    .is_none_or(|p| p.as_os_str().is_empty() || p.is_dir());
                return Ok(Schema::Absent { folder });
            }
            let mut conn = options.read_only(true).connect().await?;
            (
                sqlx::migrate!("../migrations/sqlite"),
                applied_versions!(conn),
            )
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let mut conn = PgConnectOptions::from_str(url)?.connect().await?;
            (
                sqlx::migrate!("../migrations/postgres"),
                applied_versions!(conn),
            )
        } else {
            let scheme = url.split(':').next().unwrap_or("").chars().take(20);
            return Err(StoreError::Url(scheme.collect()));
        };
        let known: Vec<i64> = migrator.iter().map(|m| m.version).collect();
        Ok(Schema::At {
            applied: applied.iter().filter(|v| known.contains(v)).count(),
            known: known.len(),
            newer: applied.iter().filter(|v| !known.contains(v)).count(),
        })
    }
}

/// The versions of the migrations applied on connection `$conn` (none when sqlx's table is
/// not there yet): a macro, as the query is the same on both backends' connections.
macro_rules! applied_versions {
    ($conn:expr) => {
        match sqlx::query_as::<_, (i64,)>(
            "SELECT version FROM _sqlx_migrations WHERE success = true ORDER BY version",
        )
        .fetch_all(&mut $conn)
        .await
        {
            Ok(rows) => rows.into_iter().map(|(v,)| v).collect::<Vec<i64>>(),
            Err(sqlx::Error::Database(e)) if e.message().contains("_sqlx_migrations") => Vec::new(),
            Err(e) => return Err(e.into()),
        }
    };
}
use applied_versions;
