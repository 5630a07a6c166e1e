//! Small facts: the heartbeat and the messages already handled.

use super::{Result, Store};

impl Store {
    /// Record that the bot is alive at `now` (ms).
    pub async fn beat(&self, now: i64) -> Result<()> {
        sqlx::query("INSERT INTO meta (key, value) VALUES ('heartbeat', ?1) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The last heartbeat, if the bot ever ran on this database.
    pub async fn last_beat(&self) -> Result<Option<i64>> {
        Ok(
            sqlx::query_scalar("SELECT value FROM meta WHERE key = 'heartbeat'")
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// Mark a platform message as handled; false if it was handled before.
    pub async fn first_sight(
        &self,
        platform: &str,
        chat: &str,
        message_id: &str,
        now: i64,
    ) -> Result<bool> {
        let done = sqlx::query(
            "INSERT INTO seen_messages (platform, chat_id, message_id, seen_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
        )
        .bind(platform)
        .bind(chat)
        .bind(message_id)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Whether a platform message was handled already (a read: no write, no sync).
    pub async fn seen(&self, platform: &str, chat: &str, message_id: &str) -> Result<bool> {
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT 1 FROM seen_messages WHERE platform = ?1 AND chat_id = ?2 AND message_id = ?3",
        )
        .bind(platform)
        .bind(chat)
        .bind(message_id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(found.is_some())
    }

    /// Forget message ids older than `before` (they cannot be re-sent by then).
    pub async fn forget_messages(&self, before: i64) -> Result<u64> {
        let done = sqlx::query("DELETE FROM seen_messages WHERE seen_at < ?1")
            .bind(before)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
