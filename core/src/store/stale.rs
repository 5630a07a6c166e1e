//! Old boards whose buttons are still to come off. A busy lane's calls go to new boards
//! first; an old board loses its buttons once the lane is quiet again. They are rows, so
//! that whichever process serves the lane next strips them.

use super::{Result, Store};
use crate::table::{ChatKind, ChatRef, Platform};

/// An old board still showing buttons: its chat and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaleButtons {
    pub chat: ChatRef,
    pub message_id: String,
    /// The channel or thread it is in, where the platform needs it.
    pub place: Option<String>,
}

#[derive(sqlx::FromRow)]
struct StaleRow {
    platform: String,
    chat_id: String,
    chat_kind: String,
    message_id: String,
    place: Option<String>,
}

impl Store {
    /// Keep an old board to take its buttons off later (kept once however often asked).
    pub async fn keep_stale(&self, s: &StaleButtons, now: i64) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query(
                "INSERT INTO stale_buttons (platform, lane, chat_id, chat_kind, message_id, place, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
            )
            .bind(s.chat.platform.as_str())
            .bind(s.chat.lane())
            .bind(&s.chat.id)
            .bind(s.chat.kind.as_str())
            .bind(&s.message_id)
            .bind(&s.place)
            .bind(now)
            .execute(&mut *conn)
            .await?;
        });
        Ok(())
    }

    /// A lane's old boards still to strip, oldest first (a row this version cannot read
    /// is left out).
    pub async fn stale_of(&self, platform: &str, lane: &str) -> Result<Vec<StaleButtons>> {
        let rows: Vec<StaleRow> = on_db!(self, conn, _pg => sqlx::query_as(
            "SELECT platform, chat_id, chat_kind, message_id, place FROM stale_buttons
             WHERE platform = $1 AND lane = $2 ORDER BY created_at, message_id",
        )
        .bind(platform)
        .bind(lane)
        .fetch_all(&mut *conn)
        .await?);
        Ok(rows
            .into_iter()
            .filter_map(|r| {
                let chat = ChatRef::new(
                    Platform::parse(&r.platform)?,
                    r.chat_id,
                    ChatKind::parse(&r.chat_kind)?,
                );
                Some(StaleButtons {
                    chat,
                    message_id: r.message_id,
                    place: r.place,
                })
            })
            .collect())
    }

    /// An old board stripped (or that cannot be).
    pub async fn drop_stale(&self, s: &StaleButtons) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query(
                "DELETE FROM stale_buttons WHERE platform = $1 AND chat_id = $2 AND message_id = $3",
            )
            .bind(s.chat.platform.as_str())
            .bind(&s.chat.id)
            .bind(&s.message_id)
            .execute(&mut *conn)
            .await?;
        });
        Ok(())
    }
}
