//! Challenges: open until accepted, declined, cancelled or expired.

use super::{Result, Store};
use sqlx::Row;

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: i64,
    pub platform: String,
    pub chat: String,
    pub challenger_id: i64,
    /// The challenged player; None with no handle either = an open challenge.
    pub target_id: Option<i64>,
    /// A challenged @handle whose player is not known yet.
    pub target_handle: Option<String>,
    pub rules: String,
    pub time_control: String,
    pub rated: bool,
    pub color: String,
    pub movetime_ms: Option<i64>,
    pub monitor: bool,
    pub stake: Option<i64>,
    pub created_at: i64,
    pub expires_at: i64,
    pub status: String,
}

/// What a new challenge says.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    pub platform: String,
    pub chat: String,
    pub challenger_id: i64,
    pub target_id: Option<i64>,
    pub target_handle: Option<String>,
    pub rules: String,
    pub time_control: String,
    pub rated: bool,
    pub color: String,
    pub movetime_ms: Option<i64>,
    pub monitor: bool,
    pub stake: Option<i64>,
    pub created_at: i64,
    pub expires_at: i64,
}

pub(super) fn challenge(row: &sqlx::sqlite::SqliteRow) -> ChallengeRow {
    ChallengeRow {
        id: row.get("id"),
        platform: row.get("platform"),
        chat: row.get("chat_id"),
        challenger_id: row.get("challenger_id"),
        target_id: row.get("target_id"),
        target_handle: row.get("target_handle"),
        rules: row.get("rules"),
        time_control: row.get("time_control"),
        rated: row.get::<i64, _>("rated") != 0,
        color: row.get("color"),
        movetime_ms: row.get("movetime_ms"),
        monitor: row.get::<i64, _>("monitor") != 0,
        stake: row.get("stake"),
        created_at: row.get("created_at"),
        expires_at: row.get("expires_at"),
        status: row.get("status"),
    }
}

impl Store {
    pub async fn create_challenge(&self, c: &NewChallenge) -> Result<ChallengeRow> {
        let row = sqlx::query(
            "INSERT INTO challenges (platform, chat_id, challenger_id, target_id, target_handle, rules, time_control,
                                     rated, color, movetime_ms, monitor, stake, created_at, expires_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) RETURNING *",
        )
        .bind(&c.platform)
        .bind(&c.chat)
        .bind(c.challenger_id)
        .bind(c.target_id)
        .bind(&c.target_handle)
        .bind(&c.rules)
        .bind(&c.time_control)
        .bind(i64::from(c.rated))
        .bind(&c.color)
        .bind(c.movetime_ms)
        .bind(i64::from(c.monitor))
        .bind(c.stake)
        .bind(c.created_at)
        .bind(c.expires_at)
        .fetch_one(&self.pool)
        .await?;
        Ok(challenge(&row))
    }

    pub async fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>> {
        let row = sqlx::query("SELECT * FROM challenges WHERE id = ?1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(challenge))
    }

    /// Open challenges in a chat, newest first.
    pub async fn open_challenges_in(
        &self,
        platform: &str,
        chat: &str,
    ) -> Result<Vec<ChallengeRow>> {
        let rows = sqlx::query("SELECT * FROM challenges WHERE status = 'open' AND platform = ?1 AND chat_id = ?2 ORDER BY id DESC")
            .bind(platform)
            .bind(chat)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(challenge).collect())
    }

    /// Every open challenge (to re-arm expiry timers after a restart).
    pub async fn open_challenges(&self) -> Result<Vec<ChallengeRow>> {
        let rows = sqlx::query("SELECT * FROM challenges WHERE status = 'open'")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(challenge).collect())
    }

    /// Close an open challenge; false if it was no longer open.
    pub async fn close_challenge(&self, id: i64, status: &str) -> Result<bool> {
        let done =
            sqlx::query("UPDATE challenges SET status = ?2 WHERE id = ?1 AND status = 'open'")
                .bind(id)
                .bind(status)
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// How many challenges a player has open, and how many they made since `since` (F3).
    pub async fn challenges_by(&self, player: i64, now: i64, since: i64) -> Result<(i64, i64)> {
        let row = sqlx::query(
            "SELECT COALESCE(SUM(status = 'open' AND expires_at > ?2), 0) AS open,
                    COALESCE(SUM(created_at > ?3), 0) AS recent
             FROM challenges WHERE challenger_id = ?1 AND (status = 'open' OR created_at > ?3)",
        )
        .bind(player)
        .bind(now)
        .bind(since)
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get("open")?, row.try_get("recent")?))
    }
}
