//! Small facts: numbers adapters keep across restarts, and the messages already handled.

use super::{Result, Store};

impl Store {
    /// A number an adapter keeps across restarts (Telegram's update offset).
    pub async fn counter(&self, key: &str) -> Result<Option<i64>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar("SELECT value FROM meta WHERE key = $1")
            .bind(key)
            .fetch_optional(&mut *conn)
            .await?))
    }

    /// Keep a number across restarts.
    pub async fn set_counter(&self, key: &str, value: i64) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
                .bind(key)
                .bind(value)
                .execute(&mut *conn)
                .await?;
        });
        Ok(())
    }

    /// Mark a platform message as handled; false if it was handled before.
    pub async fn first_sight(
        &self,
        platform: &str,
        chat: &str,
        message_id: &str,
        now: i64,
    ) -> Result<bool> {
        let done = on_db!(self, conn, _pg => sqlx::query(
            "INSERT INTO seen_messages (platform, chat_id, message_id, seen_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        )
        .bind(platform)
        .bind(chat)
        .bind(message_id)
        .bind(now)
        .execute(&mut *conn)
        .await?
        .rows_affected());
        Ok(done == 1)
    }

    /// Whether a platform message was handled already.
    #[cfg(test)]
    pub(crate) async fn seen(&self, platform: &str, chat: &str, message_id: &str) -> Result<bool> {
        let found = on_db!(self, conn, _pg => sqlx::query(
            "SELECT 1 FROM seen_messages WHERE platform = $1 AND chat_id = $2 AND message_id = $3",
        )
        .bind(platform)
        .bind(chat)
        .bind(message_id)
        .fetch_optional(&mut *conn)
        .await?
        .is_some());
        Ok(found)
    }

    /// Forget message ids older than `before` (they cannot be re-sent by then).
    pub async fn forget_messages(&self, before: i64) -> Result<u64> {
        on_db!(self, conn, _pg => Ok(sqlx::query("DELETE FROM seen_messages WHERE seen_at < $1")
            .bind(before)
            .execute(&mut *conn)
            .await?
            .rows_affected()))
    }
}
