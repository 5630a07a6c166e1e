//! Challenges: open until accepted, declined, cancelled or expired.

use super::outbox::say_in;
use super::types::ChallengeStatus;
use super::{Result, Says, Store};
use crate::color::ColorChoice;
use crate::game::Rules;

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ChallengeRow {
    pub id: i64,
    pub platform: String,
    #[sqlx(rename = "chat_id")]
    pub chat: String,
    /// `group`, `private` or `one_message`.
    pub chat_kind: String,
    pub challenger_id: i64,
    /// The challenged player; None with no handle either = an open challenge.
    pub target_id: Option<i64>,
    /// A challenged @handle whose player is not known yet.
    pub target_handle: Option<String>,
    pub rules: Rules,
    pub time_control: String,
    pub rated: bool,
    pub color: ColorChoice,
    pub movetime_ms: Option<i64>,
    pub monitor: bool,
    pub stake: Option<i64>,
    pub created_at: i64,
    pub expires_at: i64,
    pub status: ChallengeStatus,
}

/// What a new challenge says.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    pub platform: String,
    pub chat: String,
    pub chat_kind: String,
    pub challenger_id: i64,
    pub target_id: Option<i64>,
    pub target_handle: Option<String>,
    pub rules: Rules,
    pub time_control: String,
    pub rated: bool,
    pub color: ColorChoice,
    pub movetime_ms: Option<i64>,
    pub monitor: bool,
    pub stake: Option<i64>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// Open challenges of a chat, newest first (read by `/accept`, `/decline`, `/cancel`).
pub(crate) const OPEN_IN_CHAT: &str = "SELECT * FROM challenges WHERE status = 'open' AND platform = $1 AND chat_id = $2 ORDER BY id DESC";

impl Store {
    /// Make a challenge, and say so (`says` is given the new row) in the same transaction.
    pub async fn create_challenge(
        &self,
        c: &NewChallenge,
        says: Says<ChallengeRow>,
    ) -> Result<ChallengeRow> {
        let (row, rows) = on_db!(self, conn, pg => {
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        let row: ChallengeRow = sqlx::query_as(
            "INSERT INTO challenges (platform, chat_id, challenger_id, target_id, target_handle, rules, time_control,
                                     rated, color, movetime_ms, monitor, stake, created_at, expires_at, chat_kind)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING *",
        )
        .bind(&c.platform)
        .bind(&c.chat)
        .bind(c.challenger_id)
        .bind(c.target_id)
        .bind(&c.target_handle)
        .bind(&c.rules)
        .bind(&c.time_control)
        .bind(c.rated)
        .bind(c.color)
        .bind(c.movetime_ms)
        .bind(c.monitor)
        .bind(c.stake)
        .bind(c.created_at)
        .bind(c.expires_at)
        .bind(&c.chat_kind)
        .fetch_one(&mut *tx)
        .await?;
        let rows = says.rows(&row);
        let rows = say_in!(tx, pg, rows, c.created_at, self.signal())?;
        tx.commit().await?;
        (row, rows)
        });
        self.committed(&rows);
        Ok(row)
    }

    pub async fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as("SELECT * FROM challenges WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?))
    }

    /// Open challenges in a chat, newest first.
    pub async fn open_challenges_in(
        &self,
        platform: &str,
        chat: &str,
    ) -> Result<Vec<ChallengeRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(OPEN_IN_CHAT)
            .bind(platform)
            .bind(chat)
            .fetch_all(&mut *conn)
            .await?))
    }

    /// Close an open challenge, saying so in the same transaction; false (and nothing
    /// said) if it was no longer open.
    pub async fn close_challenge(
        &self,
        id: i64,
        status: ChallengeStatus,
        says: Says<()>,
        now: i64,
    ) -> Result<bool> {
        let rows = on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            let done = sqlx::query(
                "UPDATE challenges SET status = $2, lease_until = NULL WHERE id = $1 AND status = 'open'",
            )
            .bind(id)
            .bind(status)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
            let rows = says.rows(&());
            let rows = say_in!(tx, pg, rows, now, self.signal())?;
            tx.commit().await?;
            rows
        });
        self.committed(&rows);
        Ok(true)
    }

    /// How many challenges a player has open, and how many they made since `since` (F3).
    pub async fn challenges_by(&self, player: i64, now: i64, since: i64) -> Result<(i64, i64)> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(
            "SELECT COUNT(*) FILTER (WHERE status = 'open' AND expires_at > $2),
                    COUNT(*) FILTER (WHERE created_at > $3)
             FROM challenges WHERE challenger_id = $1 AND (status = 'open' OR created_at > $3)",
        )
        .bind(player)
        .bind(now)
        .bind(since)
        .fetch_one(&mut *conn)
        .await?))
    }
}
