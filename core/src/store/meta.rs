//! Small facts: the heartbeat and the messages already handled.

use super::{Result, Store};

impl Store {
    /// Record that the bot is alive at `now` (ms). Heartbeats are frequent, so they are
    /// written without an fsync of their own: a killed process loses none of them (they
    /// are in the operating system's cache), and a lost one after a power cut only gives
    /// players back a little more time. Moves keep their full sync.
    pub async fn beat(&self, now: i64) -> Result<()> {
        let mut conn = self.pool.acquire().await?;
        sqlx::query("PRAGMA synchronous = NORMAL")
            .execute(&mut *conn)
            .await?;
        let written = sqlx::query("INSERT INTO meta (key, value) VALUES ('heartbeat', ?1) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            .bind(now)
            .execute(&mut *conn)
            .await;
        sqlx::query("PRAGMA synchronous = FULL")
            .execute(&mut *conn)
            .await?;
        written?;
        Ok(())
    }

    /// Start serving: credit every running clock with the time since the last heartbeat
    /// (nobody served the games then) and write a new heartbeat, in one transaction, so a
    /// start killed part-way credits nothing twice. Returns the downtime credited (ms) and
    /// the number of games it went to.
    pub async fn resume(&self, now: i64) -> Result<Option<(i64, u64)>> {
        let mut tx = self.pool.begin().await?;
        let last: Option<i64> =
            sqlx::query_scalar("SELECT value FROM meta WHERE key = 'heartbeat'")
                .fetch_optional(&mut *tx)
                .await?;
        let mut credited = None;
        if let Some(beat) = last {
            let down = now - beat;
            if down > 0 {
                let games = sqlx::query(
                    "UPDATE games SET turn_started_at = turn_started_at + ?1 WHERE status = 'active'",
                )
                .bind(down)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                credited = Some((down, games));
            }
        }
        sqlx::query("INSERT INTO meta (key, value) VALUES ('heartbeat', ?1) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(credited)
    }

    /// A number an adapter keeps across restarts (Telegram's update offset).
    pub async fn counter(&self, key: &str) -> Result<Option<i64>> {
        Ok(sqlx::query_scalar("SELECT value FROM meta WHERE key = ?1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Keep a number across restarts.
    pub async fn set_counter(&self, key: &str, value: i64) -> Result<()> {
        sqlx::query("INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            .bind(key)
            .bind(value)
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
