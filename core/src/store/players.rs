//! Players: `(platform, platform_user_id)` with a cached display name and handle; chats'
//! players and languages.

use super::outbox::say_in;
use super::{Result, Says, Store};

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Player {
    pub id: i64,
    pub platform: String,
    pub platform_user_id: String,
    #[sqlx(rename = "display_name")]
    pub name: String,
    pub handle: Option<String>,
    /// The language the player chose (`/lang`), as a code.
    pub lang: Option<String>,
    // Chips are not here on purpose: players are cached, chips change with every stake.
    // Read them with `Store::chips`.
}

/// The columns [`Player`] reads (a macro so queries stay static strings).
macro_rules! columns {
    () => {
        "id, platform, platform_user_id, display_name, handle, lang"
    };
}

impl Store {
    /// The player for a platform user (`user_id`, as the platform names them), created on
    /// first sight; name and handle refreshed.
    pub async fn player_for(
        &self,
        platform: &str,
        user_id: &str,
        name: &str,
        handle: Option<&str>,
        now: i64,
    ) -> Result<Player> {
        let handle = handle.map(str::to_ascii_lowercase);
        on_db!(self, conn, _pg => Ok(sqlx::query_as(concat!(
            "INSERT INTO players (platform, platform_user_id, display_name, handle, created_at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (platform, platform_user_id)
             DO UPDATE SET display_name = excluded.display_name, handle = COALESCE(excluded.handle, players.handle)
             RETURNING ",
            columns!()
        ))
        .bind(platform)
        .bind(user_id)
        .bind(name)
        .bind(&handle)
        .bind(now)
        .fetch_one(&mut *conn)
        .await?))
    }

    pub async fn player(&self, id: i64) -> Result<Option<Player>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(concat!(
            "SELECT ",
            columns!(),
            " FROM players WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?))
    }

    /// A player by the platform's own id for them, if they were ever seen.
    pub async fn player_by_platform_id(
        &self,
        platform: &str,
        user_id: &str,
    ) -> Result<Option<Player>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(concat!(
            "SELECT ",
            columns!(),
            " FROM players WHERE platform = $1 AND platform_user_id = $2"
        ))
        .bind(platform)
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?))
    }

    /// A player by @handle on a platform (case-insensitive).
    pub async fn player_by_handle(&self, platform: &str, handle: &str) -> Result<Option<Player>> {
        let handle = handle.trim_start_matches('@').to_ascii_lowercase();
        on_db!(self, conn, _pg => Ok(sqlx::query_as(concat!(
            "SELECT ",
            columns!(),
            " FROM players WHERE platform = $1 AND handle = $2"
        ))
        .bind(platform)
        .bind(&handle)
        .fetch_optional(&mut *conn)
        .await?))
    }

    /// Remember that a player plays in a chat.
    pub async fn note_chat_player(&self, platform: &str, chat: &str, player_id: i64) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query("INSERT INTO chat_players (platform, chat_id, player_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
                .bind(platform)
                .bind(chat)
                .bind(player_id)
                .execute(&mut *conn)
                .await?;
        });
        Ok(())
    }

    /// Keep (or, with `None`, forget) a player's language.
    pub async fn set_player_lang(
        &self,
        id: i64,
        lang: Option<&str>,
        says: Says<()>,
        now: i64,
    ) -> Result<()> {
        let rows = on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            sqlx::query("UPDATE players SET lang = $2 WHERE id = $1")
                .bind(id)
                .bind(lang)
                .execute(&mut *tx)
                .await?;
            let rows = says.rows(&());
            let rows = say_in!(tx, pg, rows, now, self.signal())?;
            tx.commit().await?;
            rows
        });
        self.committed(&rows);
        Ok(())
    }

    /// A chat's language, if its admins chose one.
    pub async fn chat_lang(&self, platform: &str, chat: &str) -> Result<Option<String>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar::<_, Option<String>>(
            "SELECT lang FROM chat_settings WHERE platform = $1 AND chat_id = $2",
        )
        .bind(platform)
        .bind(chat)
        .fetch_optional(&mut *conn)
        .await?
        .flatten()))
    }

    /// Keep (or forget) a chat's language.
    pub async fn set_chat_lang(
        &self,
        platform: &str,
        chat: &str,
        lang: Option<&str>,
        says: Says<()>,
        now: i64,
    ) -> Result<()> {
        let rows = on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            sqlx::query(
                "INSERT INTO chat_settings (platform, chat_id, lang) VALUES ($1, $2, $3)
                 ON CONFLICT (platform, chat_id) DO UPDATE SET lang = excluded.lang",
            )
            .bind(platform)
            .bind(chat)
            .bind(lang)
            .execute(&mut *tx)
            .await?;
            let rows = says.rows(&());
            let rows = say_in!(tx, pg, rows, now, self.signal())?;
            tx.commit().await?;
            rows
        });
        self.committed(&rows);
        Ok(())
    }

    /// A player's chips, read fresh.
    pub async fn chips(&self, player: i64) -> Result<i64> {
        on_db!(self, conn, _pg => Ok(
            sqlx::query_scalar("SELECT chips FROM players WHERE id = $1")
                .bind(player)
                .fetch_optional(&mut *conn)
                .await?
                .unwrap_or(0),
        ))
    }
}
