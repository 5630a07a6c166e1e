//! The store: `SQLite` through sqlx, migrations applied at start. One `impl Store` per domain
//! (`players`, `challenges`, `games`, `meta`); every accepted move is committed before its
//! reply goes out.

mod challenges;
mod games;
mod legacy;
mod meta;
mod players;
mod ratings;

pub use challenges::{ChallengeRow, NewChallenge};
pub use games::{Accepted, Finish, GameRow, MoveUpdate, NewGame, Saved};
pub use players::Player;
pub use ratings::{kind_of, RatingChange, Standing};

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use std::str::FromStr;
use std::time::Duration;

/// A failure of the store (internal: users see "something went wrong", the log sees this).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("unsupported database URL '{0}' (use sqlite://FILE or sqlite::memory:)")]
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
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// The database: `SQLite` in WAL mode.
#[derive(Clone, Debug)]
pub struct Store {
    pub(crate) pool: SqlitePool,
    /// The lock file that keeps a second process off this database (held while any clone
    /// of the store lives; the operating system drops it when the process dies).
    _lock: Option<std::sync::Arc<std::fs::File>>,
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

impl Store {
    /// Open (creating if missing) and migrate. `url`: `sqlite://path/file.db`,
    /// `sqlite:///abs/path.db`, or `sqlite::memory:` (tests).
    pub async fn connect(url: &str) -> Result<Store> {
        if !url.starts_with("sqlite:") {
            return Err(StoreError::Url(url.chars().take(60).collect()));
        }
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
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await?;
        sqlx::migrate!("../migrations/sqlite").run(&pool).await?;
        let store = Store { pool, _lock: lock };
        let recoded = store.recode_end_reasons().await?;
        if recoded > 0 {
            tracing::info!(games = recoded, "old end reasons rewritten as codes");
        }
        Ok(store)
    }
}
