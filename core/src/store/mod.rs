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
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// The database: `SQLite` in WAL mode.
#[derive(Clone, Debug)]
pub struct Store {
    pub(crate) pool: SqlitePool,
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
        let store = Store { pool };
        let recoded = store.recode_end_reasons().await?;
        if recoded > 0 {
            tracing::info!(games = recoded, "old end reasons rewritten as codes");
        }
        Ok(store)
    }
}
