//! Data written by earlier versions, brought up to date at start. Before end reasons were
//! codes, `games.end_reason` held English (`move limit, 5 to 3 in target`); those rows are
//! rewritten once, in one transaction, so an old game's `/record` reads in any language.
//! (Only `SQLite` databases are that old; migration 0006 flags those that hold such rows, so
//! a start does not scan every game to find none.)

use super::{Db, Result, Store};
use crate::color::Color;
use crate::game::EndCause;
use sqlx::Row;

/// The `meta` key migration 0006 sets when English end reasons are left to rewrite.
const FLAG: &str = "recode-end-reasons";

fn side(word: &str) -> Option<Color> {
    match word.to_ascii_lowercase().as_str() {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// The cause an English reason of the old format names.
fn cause_of(text: &str) -> Option<EndCause> {
    let fixed = match text {
        "completed target" => Some(EndCause::Completed),
        "both left home late" => Some(EndCause::BothLeftHomeLate),
        "threefold repetition" => Some(EndCause::Repetition),
        "completed target, black cannot reply" => Some(EndCause::NoReply),
        "draw agreed" => Some(EndCause::Agreed),
        "aborted before both sides moved" => Some(EndCause::Aborted),
        _ => None,
    };
    if fixed.is_some() {
        return fixed;
    }
    if let Some(n) = text.strip_prefix("both completed target on move ") {
        return Some(EndCause::BothCompleted {
            move_no: n.parse().ok()?,
        });
    }
    if let Some(rest) = text.strip_prefix("move limit, ") {
        let (w, b) = rest.strip_suffix(" in target")?.split_once(" to ")?;
        return Some(EndCause::Limit {
            white: w.parse().ok()?,
            black: b.parse().ok()?,
        });
    }
    let (who, what) = text.split_once(' ')?;
    let c = side(who)?;
    Some(match what {
        "returned home after the deadline" => EndCause::ReturnedHome(c),
        "left home late" => EndCause::LeftHomeLate(c),
        "has no legal move" => EndCause::NoLegalMove(c),
        "has no pieces left" => EndCause::NoPieces(c),
        "cannot move" => EndCause::CannotMove(c),
        "ran out of time" => EndCause::Flag(c),
        "resigned" => EndCause::Resigned(c),
        "abandoned the game" => EndCause::Abandoned(c),
        _ => return None,
    })
}

impl Store {
    /// Rewrite English end reasons as codes; returns how many rows changed. Rows it cannot
    /// read are left as they are (and logged), never dropped.
    pub(super) async fn recode_end_reasons(&self) -> Result<u64> {
        let Db::Sqlite(db) = &self.db else {
            return Ok(0);
        };
        let mut guard = db.lock().await;
        let Some(conn) = guard.as_mut() else {
            return Ok(0);
        };
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        let flagged: Option<i64> = sqlx::query_scalar("SELECT value FROM meta WHERE key = $1")
            .bind(FLAG)
            .fetch_optional(&mut *tx)
            .await?;
        if flagged.is_none() {
            return Ok(0);
        }
        // Codes have no spaces; every old English reason has one.
        let rows = sqlx::query("SELECT id, end_reason FROM games WHERE end_reason LIKE '% %'")
            .fetch_all(&mut *tx)
            .await?;
        let mut changed = 0;
        for row in rows {
            let id: i64 = row.try_get("id")?;
            let text: String = row.try_get("end_reason")?;
            let Some(cause) = cause_of(&text) else {
                tracing::warn!(game = id, reason = %text, "old end reason not understood");
                continue;
            };
            sqlx::query("UPDATE games SET end_reason = $2 WHERE id = $1")
                .bind(id)
                .bind(cause.code())
                .execute(&mut *tx)
                .await?;
            changed += 1;
        }
        sqlx::query("DELETE FROM meta WHERE key = $1")
            .bind(FLAG)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_old_english_reason_becomes_a_code() {
        let cases = [
            ("completed target", EndCause::Completed),
            (
                "both completed target on move 24",
                EndCause::BothCompleted { move_no: 24 },
            ),
            (
                "white returned home after the deadline",
                EndCause::ReturnedHome(Color::White),
            ),
            ("black left home late", EndCause::LeftHomeLate(Color::Black)),
            ("both left home late", EndCause::BothLeftHomeLate),
            (
                "move limit, 5 to 3 in target",
                EndCause::Limit { white: 5, black: 3 },
            ),
            ("threefold repetition", EndCause::Repetition),
            (
                "black has no legal move",
                EndCause::NoLegalMove(Color::Black),
            ),
            ("completed target, black cannot reply", EndCause::NoReply),
            ("white has no pieces left", EndCause::NoPieces(Color::White)),
            ("black cannot move", EndCause::CannotMove(Color::Black)),
            ("White ran out of time", EndCause::Flag(Color::White)),
            ("Black resigned", EndCause::Resigned(Color::Black)),
            ("draw agreed", EndCause::Agreed),
            ("aborted before both sides moved", EndCause::Aborted),
            (
                "White abandoned the game",
                EndCause::Abandoned(Color::White),
            ),
        ];
        for (text, cause) in cases {
            assert_eq!(cause_of(text), Some(cause), "{text}");
        }
        assert_eq!(cause_of("the cat sat on it"), None);
    }

    /// Rows stored in English by an earlier version read as codes after a start, and a
    /// reason nobody can read is kept, not lost.
    #[tokio::test]
    async fn old_rows_are_rewritten_at_start() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        for sql in [
            "INSERT INTO players (id, platform, platform_user_id, display_name, created_at)
             VALUES (1, 'test', 'alice', 'alice', 0), (2, 'test', 'bob', 'bob', 0)",
            "INSERT INTO games (id, platform, chat_id, rules, white_id, black_id, rated,
                 time_control, white_ms, black_ms, turn_started_at, status, result,
                 end_reason, end_rule, created_at)
             VALUES (1, 'test', 'c', 'classic3x3', 1, 2, 0, 'none', 0, 0, 0, 'finished', 'draw', 'move limit, 5 to 3 in target', 'C7', 0),
                    (2, 'test', 'c', 'classic3x3', 1, 2, 0, 'none', 0, 0, 0, 'finished', 'draw', 'Black ran out of time', 'C7', 0),
                    (3, 'test', 'c', 'classic3x3', 1, 2, 0, 'none', 0, 0, 0, 'finished', 'draw', 'something else entirely', 'C7', 0),
                    (4, 'test', 'c', 'classic3x3', 1, 2, 0, 'none', 0, 0, 0, 'finished', 'draw', 'agreed', 'C7', 0)",
        ] {
            store.exec(sql).await.unwrap();
        }
        // Nothing flagged (a database with no such rows at migration 0006): nothing read.
        assert_eq!(store.recode_end_reasons().await.unwrap(), 0);
        store
            .exec("INSERT INTO meta (key, value) VALUES ('recode-end-reasons', 1)")
            .await
            .unwrap();
        assert_eq!(store.recode_end_reasons().await.unwrap(), 2);
        let mut reasons = Vec::new();
        for id in 1..=4 {
            reasons.push(store.game(id).await.unwrap().unwrap().end_reason.unwrap());
        }
        assert_eq!(
            reasons,
            [
                "limit:5:3",
                "flag:black",
                "something else entirely",
                "agreed"
            ]
        );
        assert_eq!(store.recode_end_reasons().await.unwrap(), 0, "once only");
    }
}
