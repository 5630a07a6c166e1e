//! A chat that became another: a Telegram group upgraded to a supergroup gets a new chat
//! id, and everything the old id held moves with it. A chat the bot left (removed from a
//! group, blocked in a private chat) forgets what it can no longer show.

use super::{Result, Store};
use sqlx::Connection;

/// What moves ($1 platform, $2 old chat, $3 new chat): games first (their count is the
/// answer), then open challenges, unsent replies, living messages and threads, then the
/// chat's players and language, where the new chat keeps what it already had.
const MOVES: [&str; 7] = [
    "UPDATE games SET chat_id = $3 WHERE platform = $1 AND chat_id = $2",
    "UPDATE challenges SET chat_id = $3 WHERE platform = $1 AND chat_id = $2",
    // What is still to be said there is said in the new chat, its living messages and
    // its games' threads go along (the old chat's lease is no one's any more).
    "UPDATE outbox SET chat_id = $3, lane = $3 WHERE platform = $1 AND chat_id = $2 AND sent_at IS NULL",
    "UPDATE slots SET chat_id = $3 WHERE platform = $1 AND chat_id = $2
       AND NOT EXISTS (SELECT 1 FROM slots n WHERE n.platform = $1 AND n.chat_id = $3
                       AND n.kind = slots.kind AND n.id = slots.id)",
    "UPDATE threads SET chat_id = $3 WHERE platform = $1 AND chat_id = $2",
    "INSERT INTO chat_players (platform, chat_id, player_id)
     SELECT platform, $3, player_id FROM chat_players WHERE platform = $1 AND chat_id = $2
     ON CONFLICT DO NOTHING",
    "INSERT INTO chat_settings (platform, chat_id, lang)
     SELECT platform, $3, lang FROM chat_settings WHERE platform = $1 AND chat_id = $2
     ON CONFLICT DO NOTHING",
];

/// What the old chat no longer holds once moved ($1 platform, $2 old chat).
const FORGETS: [&str; 5] = [
    "DELETE FROM chat_players WHERE platform = $1 AND chat_id = $2",
    "DELETE FROM chat_settings WHERE platform = $1 AND chat_id = $2",
    "DELETE FROM slots WHERE platform = $1 AND chat_id = $2",
    "DELETE FROM outbox_leases WHERE platform = $1 AND lane = $2",
    // (The old chat's messages cannot be edited any more.)
    "DELETE FROM stale_buttons WHERE platform = $1 AND chat_id = $2",
];

impl Store {
    /// Move every game (running or not), open challenge, player and language of chat
    /// `from` to chat `to`, in one transaction: the number of games moved. Moving again
    /// moves nothing; what `to` already had is kept.
    pub async fn move_chat(&self, platform: &str, from: &str, to: &str) -> Result<u64> {
        let games = on_db!(self, conn, _pg => {
            let mut tx = conn.begin().await?;
            let mut games = None;
            for sql in MOVES {
                let moved = sqlx::query(sql)
                    .bind(platform)
                    .bind(from)
                    .bind(to)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                games.get_or_insert(moved);
            }
            for sql in FORGETS {
                sqlx::query(sql)
                    .bind(platform)
                    .bind(from)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            games.unwrap_or(0)
        });
        // The replies moved along wait for the new chat's sender.
        self.signal().poke(platform, to);
        Ok(games)
    }

    /// The games still running in a chat that began at `at` or before, by id.
    pub async fn running_games_in(&self, platform: &str, chat: &str, at: i64) -> Result<Vec<i64>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar(
            "SELECT id FROM games WHERE status = 'active' AND platform = $1 AND chat_id = $2
             AND created_at <= $3 ORDER BY id",
        )
        .bind(platform)
        .bind(chat)
        .bind(at)
        .fetch_all(&mut *conn)
        .await?))
    }

    /// The topics of forum group `group` with a running game or an open challenge (a
    /// group the bot left closes them too).
    pub async fn topics_of(&self, platform: &str, group: &str) -> Result<Vec<String>> {
        let pattern = format!("{group}{}%", crate::table::TOPIC_SEPARATOR);
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar(
            "SELECT chat_id FROM games WHERE status = 'active' AND platform = $1 AND chat_kind = 'topic' AND chat_id LIKE $2
             UNION
             SELECT chat_id FROM challenges WHERE status = 'open' AND platform = $1 AND chat_kind = 'topic' AND chat_id LIKE $2
             ORDER BY 1",
        )
        .bind(platform)
        .bind(&pattern)
        .fetch_all(&mut *conn)
        .await?))
    }

    /// A chat the bot could no longer post to as of `at`: its unsent replies made until
    /// then are dropped (marked, as a sender marks what a platform refuses), its living
    /// messages, threads and lease forgotten, in one transaction. The number of replies
    /// dropped.
    pub async fn forget_chat(&self, platform: &str, chat: &str, at: i64, now: i64) -> Result<u64> {
        on_db!(self, conn, _pg => {
            let mut tx = conn.begin().await?;
            let dropped = sqlx::query(
                "UPDATE outbox SET sent_at = $3, outcome = $4, calls = 0
                 WHERE platform = $1 AND chat_id = $2 AND sent_at IS NULL AND created_at <= $5",
            )
            .bind(platform)
            .bind(chat)
            .bind(now)
            .bind(super::Outcome::Dropped.code())
            .bind(at)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            for sql in [
                "DELETE FROM slots WHERE platform = $1 AND chat_id = $2",
                "DELETE FROM stale_buttons WHERE platform = $1 AND chat_id = $2",
                "DELETE FROM threads WHERE platform = $1 AND chat_id = $2",
                "DELETE FROM outbox_leases WHERE platform = $1 AND lane = $2",
            ] {
                sqlx::query(sql)
                    .bind(platform)
                    .bind(chat)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(dropped)
        })
    }
}
