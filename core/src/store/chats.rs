//! A chat that became another: a Telegram group upgraded to a supergroup gets a new chat
//! id, and everything the old id held moves with it.

use super::{Result, Store};
use sqlx::Connection;

impl Store {
    /// Move every game (running or not), open challenge, player and language of chat
    /// `from` to chat `to`, in one transaction: the number of games moved. Moving again
    /// moves nothing; what `to` already had is kept.
    pub async fn move_chat(&self, platform: &str, from: &str, to: &str) -> Result<u64> {
        on_db!(self, conn, _pg => {
            let mut tx = conn.begin().await?;
            let games = sqlx::query("UPDATE games SET chat_id = $3 WHERE platform = $1 AND chat_id = $2")
                .bind(platform)
                .bind(from)
                .bind(to)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            sqlx::query("UPDATE challenges SET chat_id = $3 WHERE platform = $1 AND chat_id = $2")
                .bind(platform)
                .bind(from)
                .bind(to)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO chat_players (platform, chat_id, player_id)
                 SELECT platform, $3, player_id FROM chat_players WHERE platform = $1 AND chat_id = $2
                 ON CONFLICT DO NOTHING",
            )
            .bind(platform)
            .bind(from)
            .bind(to)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO chat_settings (platform, chat_id, lang)
                 SELECT platform, $3, lang FROM chat_settings WHERE platform = $1 AND chat_id = $2
                 ON CONFLICT DO NOTHING",
            )
            .bind(platform)
            .bind(from)
            .bind(to)
            .execute(&mut *tx)
            .await?;
            for table in [
                "DELETE FROM chat_players WHERE platform = $1 AND chat_id = $2",
                "DELETE FROM chat_settings WHERE platform = $1 AND chat_id = $2",
            ] {
                sqlx::query(table)
                    .bind(platform)
                    .bind(from)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(games)
        })
    }
}
