//! Games and their moves. A move is one transaction: the move row is appended and the game
//! row updated only if its ply is still the one the move was checked against.

use super::challenges::challenge;
use super::ratings::{settle, RatingChange};
use super::{Result, Store, StoreError};
use sqlx::Row;

/// A game as stored (the position is rebuilt from `moves`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: i64,
    pub platform: String,
    pub chat: String,
    pub rules: String,
    pub start_position: Option<String>,
    pub white_id: i64,
    pub black_id: i64,
    pub rated: bool,
    pub stake: Option<i64>,
    pub time_control: String,
    pub white_ms: i64,
    pub black_ms: i64,
    pub turn_started_at: i64,
    pub movetime_ms: Option<i64>,
    pub monitor: bool,
    pub ply: i64,
    pub status: String,
    pub result: Option<String>,
    pub end_reason: Option<String>,
    pub end_rule: Option<String>,
    /// `white` or `black`: who offered a draw.
    pub draw_offer_by: Option<String>,
    /// A losing move (C6) waiting for `/confirm`, valid at `pending_ply`.
    pub pending_move: Option<String>,
    pub pending_ply: Option<i64>,
    pub reminded_ply: Option<i64>,
    /// Activity monitor: the ply whose idleness was announced.
    pub idle_noticed_ply: Option<i64>,
    pub created_at: i64,
    pub finished_at: Option<i64>,
}

/// A new game's row.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub rules: String,
    pub start_position: Option<String>,
    pub white_id: i64,
    pub black_id: i64,
    pub rated: bool,
    pub stake: Option<i64>,
    pub time_control: String,
    pub bank_ms: i64,
    pub movetime_ms: Option<i64>,
    pub monitor: bool,
    pub now: i64,
}

/// How a game ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finish {
    /// `white`, `black`, `draw`, `void`.
    pub result: String,
    /// Why, stored as its code.
    pub cause: crate::game::EndCause,
    pub rule: String,
    /// The player who abandoned the game (activity monitor): costs rating points (R).
    pub abandoned_by: Option<i64>,
}

/// A game row after a change, with the rating changes if the change ended a rated game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    pub game: GameRow,
    pub ratings: Vec<RatingChange>,
}

/// What accepting a challenge came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Accepted {
    Started(Box<GameRow>),
    /// No longer open: taken, cancelled or expired.
    Gone,
    /// One of the players cannot cover the stake.
    NotEnoughChips,
}

/// What a move changes besides appending it.
#[derive(Clone, Debug)]
pub struct MoveUpdate {
    /// The platform message that carried the move (platform, chat, id): recorded in the
    /// move's own transaction, so a repeat of it is refused there.
    pub message: Option<(String, String, String)>,
    pub text: String,
    pub auto: bool,
    pub white_ms: i64,
    pub black_ms: i64,
    pub turn_started_at: i64,
    pub draw_offer_by: Option<String>,
    pub finish: Option<Finish>,
}

fn game(row: &sqlx::sqlite::SqliteRow) -> GameRow {
    GameRow {
        id: row.get("id"),
        platform: row.get("platform"),
        chat: row.get("chat_id"),
        rules: row.get("rules"),
        start_position: row.get("start_position"),
        white_id: row.get("white_id"),
        black_id: row.get("black_id"),
        rated: row.get::<i64, _>("rated") != 0,
        stake: row.get("stake"),
        time_control: row.get("time_control"),
        white_ms: row.get("white_ms"),
        black_ms: row.get("black_ms"),
        turn_started_at: row.get("turn_started_at"),
        movetime_ms: row.get("movetime_ms"),
        monitor: row.get::<i64, _>("monitor") != 0,
        ply: row.get("ply"),
        status: row.get("status"),
        result: row.get("result"),
        end_reason: row.get("end_reason"),
        end_rule: row.get("end_rule"),
        draw_offer_by: row.get("draw_offer_by"),
        pending_move: row.get("pending_move"),
        pending_ply: row.get("pending_ply"),
        reminded_ply: row.get("reminded_ply"),
        idle_noticed_ply: row.get("idle_noticed_ply"),
        created_at: row.get("created_at"),
        finished_at: row.get("finished_at"),
    }
}

impl Store {
    /// Accept an open challenge and create its game, atomically: None if the challenge was
    /// no longer open (someone else took it, it expired).
    pub async fn accept_challenge(&self, challenge_id: i64, g: &NewGame) -> Result<Accepted> {
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query("UPDATE challenges SET status = 'accepted' WHERE id = ?1 AND status = 'open' RETURNING *")
            .bind(challenge_id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(c) = row.as_ref().map(challenge) else {
            tx.rollback().await?;
            return Ok(Accepted::Gone);
        };
        if let Some(stake) = g.stake {
            let held = sqlx::query(
                "UPDATE players SET chips = chips - ?3 WHERE id IN (?1, ?2) AND chips >= ?3",
            )
            .bind(g.white_id)
            .bind(g.black_id)
            .bind(stake)
            .execute(&mut *tx)
            .await?;
            if held.rows_affected() != 2 {
                tx.rollback().await?;
                return Ok(Accepted::NotEnoughChips);
            }
        }
        let row = sqlx::query(
            "INSERT INTO games (platform, chat_id, rules, start_position, white_id, black_id, rated, stake, time_control,
                                white_ms, black_ms, turn_started_at, movetime_ms, monitor, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?12, ?13, ?11) RETURNING *",
        )
        .bind(&c.platform)
        .bind(&c.chat)
        .bind(&g.rules)
        .bind(&g.start_position)
        .bind(g.white_id)
        .bind(g.black_id)
        .bind(i64::from(g.rated))
        .bind(g.stake)
        .bind(&g.time_control)
        .bind(g.bank_ms)
        .bind(g.now)
        .bind(g.movetime_ms)
        .bind(i64::from(g.monitor))
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Accepted::Started(Box::new(game(&row))))
    }

    pub async fn game(&self, id: i64) -> Result<Option<GameRow>> {
        let row = sqlx::query("SELECT * FROM games WHERE id = ?1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(game))
    }

    /// The moves of a game in order.
    pub async fn moves(&self, game_id: i64) -> Result<Vec<String>> {
        let rows = sqlx::query("SELECT ply, text FROM moves WHERE game_id = ?1 ORDER BY ply")
            .bind(game_id)
            .fetch_all(&self.pool)
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            let ply: i64 = r.get("ply");
            if ply != i as i64 {
                return Err(StoreError::Corrupt(format!("game {game_id} lacks ply {i}")));
            }
            out.push(r.get("text"));
        }
        Ok(out)
    }

    /// Every unfinished game (to reload after a restart).
    pub async fn active_games(&self) -> Result<Vec<GameRow>> {
        let rows = sqlx::query("SELECT * FROM games WHERE status = 'active' ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(game).collect())
    }

    /// Unfinished games of a player in a chat.
    pub async fn active_games_in(
        &self,
        platform: &str,
        chat: &str,
        player: i64,
    ) -> Result<Vec<GameRow>> {
        let rows = sqlx::query(
            "SELECT * FROM games WHERE status = 'active' AND platform = ?1 AND chat_id = ?2
             AND (white_id = ?3 OR black_id = ?3) ORDER BY id",
        )
        .bind(platform)
        .bind(chat)
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game).collect())
    }

    /// Unfinished games of a player anywhere on the platform.
    pub async fn active_games_of(&self, player: i64) -> Result<Vec<GameRow>> {
        let rows = sqlx::query("SELECT * FROM games WHERE status = 'active' AND (white_id = ?1 OR black_id = ?1) ORDER BY id")
            .bind(player)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(game).collect())
    }

    /// Append a move and update the game, if the game is still at `ply`. A conflict means
    /// another message got there first; nothing is written.
    pub async fn commit_move(
        &self,
        game_id: i64,
        ply: i64,
        now: i64,
        u: &MoveUpdate,
    ) -> Result<Saved> {
        let mut tx = self.pool.begin().await?;
        let updated = sqlx::query(
            "UPDATE games SET ply = ply + 1, white_ms = ?3, black_ms = ?4, turn_started_at = ?5, draw_offer_by = ?6,
                 pending_move = NULL, pending_ply = NULL,
                 status = CASE WHEN ?7 IS NULL THEN status ELSE 'finished' END,
                 result = ?7, end_reason = ?8, end_rule = ?9,
                 finished_at = CASE WHEN ?7 IS NULL THEN NULL ELSE ?10 END
             WHERE id = ?1 AND ply = ?2 AND status = 'active' RETURNING *",
        )
        .bind(game_id)
        .bind(ply)
        .bind(u.white_ms)
        .bind(u.black_ms)
        .bind(u.turn_started_at)
        .bind(&u.draw_offer_by)
        .bind(u.finish.as_ref().map(|f| f.result.clone()))
        .bind(u.finish.as_ref().map(|f| f.cause.code()))
        .bind(u.finish.as_ref().map(|f| f.rule.clone()))
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = updated else {
            tx.rollback().await?;
            return Err(StoreError::Conflict);
        };
        sqlx::query(
            "INSERT INTO moves (game_id, ply, text, played_at, auto) VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .bind(game_id)
        .bind(ply)
        .bind(&u.text)
        .bind(now)
        .bind(i64::from(u.auto))
        .execute(&mut *tx)
        .await?;
        if let Some((platform, chat, id)) = &u.message {
            let fresh = sqlx::query(
                "INSERT INTO seen_messages (platform, chat_id, message_id, seen_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
            )
            .bind(platform)
            .bind(chat)
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if fresh.rows_affected() == 0 {
                tx.rollback().await?;
                return Err(StoreError::Repeat);
            }
        }
        let row = game(&row);
        let ratings = match &u.finish {
            Some(f) => settle(&mut tx, &row, f, now).await?,
            None => Vec::new(),
        };
        tx.commit().await?;
        Ok(Saved { game: row, ratings })
    }

    /// End a game without a move (flag, resignation, agreed draw, abort, claim), if it is
    /// still active at `ply`. The clocks are stored as they stood.
    pub async fn finish_game(
        &self,
        game_id: i64,
        ply: i64,
        finish: &Finish,
        clocks: (i64, i64),
        now: i64,
    ) -> Result<Saved> {
        let status = if finish.result == "void" {
            "aborted"
        } else {
            "finished"
        };
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(
            "UPDATE games SET status = ?3, result = ?4, end_reason = ?5, end_rule = ?6, finished_at = ?7,
                 white_ms = ?8, black_ms = ?9, draw_offer_by = NULL, pending_move = NULL, pending_ply = NULL
             WHERE id = ?1 AND ply = ?2 AND status = 'active' RETURNING *",
        )
        .bind(game_id)
        .bind(ply)
        .bind(status)
        .bind(&finish.result)
        .bind(finish.cause.code())
        .bind(&finish.rule)
        .bind(now)
        .bind(clocks.0)
        .bind(clocks.1)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row.as_ref().map(game) else {
            tx.rollback().await?;
            return Err(StoreError::Conflict);
        };
        let ratings = settle(&mut tx, &row, finish, now).await?;
        tx.commit().await?;
        Ok(Saved { game: row, ratings })
    }

    /// Set or clear the draw offer (`white` / `black`) of a game still at `ply`.
    pub async fn set_draw_offer(&self, game_id: i64, ply: i64, by: Option<&str>) -> Result<()> {
        self.update_at_ply(
            "UPDATE games SET draw_offer_by = ?3 WHERE id = ?1 AND ply = ?2 AND status = 'active'",
            game_id,
            ply,
            by,
        )
        .await
    }

    /// The board after `ply` plies reached the chat at `at`: the side to move's clock starts
    /// then, at most `max_credit_ms` after the move and never before it. Only the first
    /// report of a ply counts. Whether anything changed.
    pub async fn delivered(
        &self,
        game_id: i64,
        ply: i64,
        at: i64,
        max_credit_ms: i64,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE games SET delivered_ply = ?2,
                 turn_started_at = turn_started_at + MIN(MAX(?3 - turn_started_at, 0), ?4)
             WHERE id = ?1 AND ply = ?2 AND status = 'active'
               AND (delivered_ply IS NULL OR delivered_ply <> ?2)",
        )
        .bind(game_id)
        .bind(ply)
        .bind(at)
        .bind(max_credit_ms)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Keep a losing move waiting for `/confirm` (or clear it with None).
    pub async fn set_pending_move(&self, game_id: i64, ply: i64, text: Option<&str>) -> Result<()> {
        self.update_at_ply(
            "UPDATE games SET pending_move = ?3, pending_ply = CASE WHEN ?3 IS NULL THEN NULL ELSE ?2 END
             WHERE id = ?1 AND ply = ?2 AND status = 'active'",
            game_id,
            ply,
            text,
        )
        .await
    }

    /// Note that the monitor's idle notice for `ply` went out.
    pub async fn set_idle_noticed(&self, game_id: i64, ply: i64) -> Result<()> {
        self.mark_turn(
            "UPDATE games SET idle_noticed_ply = ?2 WHERE id = ?1 AND ply = ?2 AND status = 'active'",
            game_id,
            ply,
        )
        .await
    }

    /// Note that the correspondence reminder for `ply` went out.
    pub async fn set_reminded(&self, game_id: i64, ply: i64) -> Result<()> {
        self.mark_turn(
            "UPDATE games SET reminded_ply = ?2 WHERE id = ?1 AND ply = ?2 AND status = 'active'",
            game_id,
            ply,
        )
        .await
    }

    /// Run an update that records something about the turn at `ply`, if still at it.
    async fn mark_turn(&self, sql: &'static str, game_id: i64, ply: i64) -> Result<()> {
        let done = sqlx::query(sql)
            .bind(game_id)
            .bind(ply)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict)
        }
    }

    async fn update_at_ply(
        &self,
        sql: &'static str,
        game_id: i64,
        ply: i64,
        value: Option<&str>,
    ) -> Result<()> {
        let done = sqlx::query(sql)
            .bind(game_id)
            .bind(ply)
            .bind(value)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict)
        }
    }

    /// The rules of the rated games two players started against each other since `since`,
    /// not voided (F2 counts them per kind).
    pub async fn rated_games_between(&self, a: i64, b: i64, since: i64) -> Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT rules FROM games
             WHERE rated = 1 AND created_at >= ?3 AND COALESCE(result, '') <> 'void'
               AND ((white_id = ?1 AND black_id = ?2) OR (white_id = ?2 AND black_id = ?1))",
        )
        .bind(a)
        .bind(b)
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get("rules").map_err(Into::into))
            .collect()
    }
}
