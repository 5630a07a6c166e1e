//! Games and their moves. A move is one transaction: the move row is appended and the game
//! row updated only if its ply is still the one the move was checked against. A game's row
//! also keeps when its next timer is due (`due_at`), written with the change that set it.

use super::outbox::{rows_json, say_in, Signal, ROW_RECORD};
use super::types::{ChallengeStatus, GameStatus};
use super::{Db, OutRow, Queued, Result, Says, Store, StoreError};
use crate::color::Color;
use crate::game::{EndCause, GameResult, Rules};
use crate::settlement::RatingChange;

/// A game as stored (the position is rebuilt from `moves`).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct GameRow {
    pub id: i64,
    pub platform: String,
    #[sqlx(rename = "chat_id")]
    pub chat: String,
    /// `group`, `private` or `one_message` (how replies reach the chat).
    pub chat_kind: String,
    pub rules: Rules,
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
    pub status: GameStatus,
    pub result: Option<GameResult>,
    pub end_reason: Option<String>,
    pub end_rule: Option<String>,
    /// Who offered a draw.
    pub draw_offer_by: Option<Color>,
    /// A losing move (C6) waiting for `/confirm`, valid at `pending_ply`.
    pub pending_move: Option<String>,
    pub pending_ply: Option<i64>,
    /// A Resign button's first press by each side (ms), both at `resign_asked_ply`. The
    /// second press resigns within the table's window (see `Table::resign_pressed`).
    pub resign_asked_ply: Option<i64>,
    pub resign_asked_white_at: Option<i64>,
    pub resign_asked_black_at: Option<i64>,
    pub reminded_ply: Option<i64>,
    /// Activity monitor: the ply whose idleness was announced.
    pub idle_noticed_ply: Option<i64>,
    /// When the game's next timer is due (ms), if it has one.
    pub due_at: Option<i64>,
    /// The moment up to which outages are accounted for in the clock (a move, the start,
    /// or the end of the last outage credited).
    pub credited_until: Option<i64>,
    /// Moves taken back so far (training room): with the ply, which game line this is.
    pub takebacks: i64,
    pub created_at: i64,
    pub finished_at: Option<i64>,
}

impl GameRow {
    #[must_use]
    pub fn is_active(&self) -> bool {
        self.status == GameStatus::Active
    }
}

/// Where a watched game stands, as its pages are told: [`Store::standings_of`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct GameStanding {
    pub id: i64,
    pub ply: i64,
    pub status: GameStatus,
    pub draw_offer_by: Option<Color>,
}

/// Games read at most in one [`Store::standings_of`].
pub const MAX_STANDINGS: usize = 512;

/// A new game's row.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub rules: Rules,
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
    pub result: GameResult,
    /// Why, stored as its code.
    pub cause: EndCause,
    pub rule: String,
    /// The player who abandoned the game (activity monitor): costs rating points (R).
    pub abandoned_by: Option<i64>,
}

impl Finish {
    /// The status a game ending this way is left in.
    fn status(&self) -> GameStatus {
        match self.result {
            GameResult::Void => GameStatus::Aborted,
            _ => GameStatus::Finished,
        }
    }
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
    pub draw_offer_by: Option<Color>,
    pub finish: Option<Finish>,
    /// When the game's next timer is due after this move.
    pub due_at: Option<i64>,
    /// The game as the move was checked against it: the commit is refused (a conflict)
    /// if anything the check read has changed since, besides the ply.
    pub checked: Checked,
}

/// What a move's check read from its game, beyond the ply: its clock's start and the
/// draw offer (a delivery report or an offer may change them without a move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    pub turn_started_at: i64,
    pub draw_offer_by: Option<Color>,
}

/// Unfinished games of a player in a chat (read by every typed move to find its game).
pub(crate) const ACTIVE_IN_CHAT: &str =
    "SELECT * FROM games WHERE status = 'active' AND platform = $1 AND chat_id = $2
     AND (white_id = $3 OR black_id = $3) ORDER BY id";

/// A player's newest games of groups (their public page), through the partial indexes
/// `games_public_by_white` and `games_public_by_black`.
/// Each colour's newest from its index, then the newest of both: an `OR` of the two would
/// be planned as a scan of the whole table in id order.
pub(crate) const PUBLIC_GAMES_OF: &str =
    "SELECT * FROM (SELECT * FROM games WHERE white_id = $1 AND chat_kind IN ('group', 'topic')
                    ORDER BY id DESC LIMIT $2) AS w
     UNION
     SELECT * FROM (SELECT * FROM games WHERE black_id = $1 AND chat_kind IN ('group', 'topic')
                    ORDER BY id DESC LIMIT $2) AS b
     ORDER BY id DESC LIMIT $2";

/// Settle an ended game inside the transaction `$tx` that ends it (the policy is
/// [`crate::settlement`]): the rating rows of the players it moves are locked in player
/// order (`PostgreSQL`; created at 1000 first when new), read, and written back as the
/// policy says, with stakes paid and history lines added. Two games ending at once for one
/// player are settled one after the other. Evaluates to the changes the chat is told.
macro_rules! settle_in {
    ($tx:ident, $pg:ident, $game:expr, $finish:expr, $now:expr) => {{
        let game: &GameRow = $game;
        let finish: &Finish = $finish;
        let kind = if game.rated {
            crate::rating::RatingKind::of_rules(&game.rules)
        } else {
            None
        };
        let ended = crate::settlement::Ended {
            white: game.white_id,
            black: game.black_id,
            stake: game.stake,
            kind,
            result: finish.result,
            abandoned_by: finish.abandoned_by,
        };
        // A tournament's game that ends makes its tournament due at once (its next pairing).
        sqlx::query(
            "UPDATE tournaments SET due_at = $2, lease_until = NULL WHERE status = 'running'
               AND id IN (SELECT tournament_id FROM tournament_pairings WHERE game_id = $1)",
        )
        .bind(game.id)
        .bind($now)
        .execute(&mut *$tx)
        .await?;
        let month = crate::rating::month_of($now);
        let mut touched = crate::settlement::touched(&ended);
        touched.sort_unstable();
        let mut white = crate::settlement::Rated::newcomer();
        let mut black = crate::settlement::Rated::newcomer();
        if let Some(kind) = kind {
            for player in &touched {
                sqlx::query(
                    "INSERT INTO ratings (player_id, kind, rating, month, monthly) VALUES ($1, $2, 1000, '', 1000)
                     ON CONFLICT (player_id, kind) DO NOTHING",
                )
                .bind(player)
                .bind(kind)
                .execute(&mut *$tx)
                .await?;
            }
            let rows: Vec<(i64, i64, String, i64, i64)> = sqlx::query_as(if $pg {
                "SELECT player_id, rating, month, monthly, monthly_games FROM ratings
                 WHERE kind = $1 AND player_id IN ($2, $3) ORDER BY player_id FOR UPDATE"
            } else {
                "SELECT player_id, rating, month, monthly, monthly_games FROM ratings
                 WHERE kind = $1 AND player_id IN ($2, $3) ORDER BY player_id"
            })
            .bind(kind)
            .bind(game.white_id)
            .bind(game.black_id)
            .fetch_all(&mut *$tx)
            .await?;
            for (player, rating, month, monthly, monthly_games) in rows {
                let now = crate::settlement::Rated {
                    rating,
                    month,
                    monthly,
                    monthly_games,
                };
                if player == game.white_id {
                    white = now;
                } else {
                    black = now;
                }
            }
        }
        let s = crate::settlement::settle(&ended, &white, &black, &month);
        for (player, chips) in &s.payouts {
            sqlx::query("UPDATE players SET chips = chips + $2 WHERE id = $1")
                .bind(player)
                .bind(chips)
                .execute(&mut *$tx)
                .await?;
        }
        for row in &s.rows {
            sqlx::query(
                "UPDATE ratings SET rating = $3, month = $4, monthly = $5, monthly_games = $6,
                     games = games + $7, wins = wins + $8, draws = draws + $9, losses = losses + $10
                 WHERE player_id = $1 AND kind = $2",
            )
            .bind(row.player)
            .bind(kind)
            .bind(row.now.rating)
            .bind(&row.now.month)
            .bind(row.now.monthly)
            .bind(row.now.monthly_games)
            .bind(row.games)
            .bind(row.wins)
            .bind(row.draws)
            .bind(row.losses)
            .execute(&mut *$tx)
            .await?;
        }
        for h in &s.history {
            sqlx::query(
                "INSERT INTO rating_history (game_id, player_id, kind, at, month, reason, before, after, monthly_before, monthly_after)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(game.id)
            .bind(h.player)
            .bind(kind)
            .bind($now)
            .bind(&h.month)
            .bind(h.reason)
            .bind(h.before)
            .bind(h.after)
            .bind(h.monthly_before)
            .bind(h.monthly_after)
            .execute(&mut *$tx)
            .await?;
        }
        s.changes
    }};
}

/// A move's writes in the transaction (or savepoint) `$tx`; evaluates to its `Result`, and
/// an `Err` leaves `$tx` to be rolled back.
macro_rules! move_in {
    ($tx:ident, $pg:ident, $game_id:expr, $ply:expr, $now:expr, $u:expr, $says:expr, $signal:expr) => {
        async {
            let (game_id, ply, now, u): (i64, i64, i64, &MoveUpdate) = ($game_id, $ply, $now, $u);
            let says: Says<Saved> = $says;
            let status = u.finish.as_ref().map_or(GameStatus::Active, Finish::status);
            let updated: Option<GameRow> = sqlx::query_as(
                "UPDATE games SET ply = ply + 1, white_ms = $3, black_ms = $4, turn_started_at = $5, draw_offer_by = $6,
                     pending_move = NULL, pending_ply = NULL, status = $7, result = $8, end_reason = $9, end_rule = $10,
                     finished_at = $11, due_at = $12, lease_until = NULL, credited_until = $13
                 WHERE id = $1 AND ply = $2 AND status = 'active'
                   AND turn_started_at = $14 AND draw_offer_by IS NOT DISTINCT FROM $15 RETURNING *",
            )
            .bind(game_id)
            .bind(ply)
            .bind(u.white_ms)
            .bind(u.black_ms)
            .bind(u.turn_started_at)
            .bind(u.draw_offer_by)
            .bind(status)
            .bind(u.finish.as_ref().map(|f| f.result))
            .bind(u.finish.as_ref().map(|f| f.cause.code()))
            .bind(u.finish.as_ref().map(|f| f.rule.clone()))
            .bind(u.finish.as_ref().map(|_| now))
            .bind(u.due_at.filter(|_| u.finish.is_none()))
            .bind(now)
            .bind(u.checked.turn_started_at)
            .bind(u.checked.draw_offer_by)
            .fetch_optional(&mut *$tx)
            .await?;
            let Some(row) = updated else {
                return Err(StoreError::Conflict);
            };
            sqlx::query(
                "INSERT INTO moves (game_id, ply, text, played_at, auto) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(game_id)
            .bind(ply)
            .bind(&u.text)
            .bind(now)
            .bind(u.auto)
            .execute(&mut *$tx)
            .await?;
            if let Some((platform, chat, id)) = &u.message {
                let fresh = sqlx::query(
                    "INSERT INTO seen_messages (platform, chat_id, message_id, seen_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                )
                .bind(platform)
                .bind(chat)
                .bind(id)
                .bind(now)
                .execute(&mut *$tx)
                .await?;
                if fresh.rows_affected() == 0 {
                    return Err(StoreError::Repeat);
                }
            }
            let ratings = match &u.finish {
                Some(f) => settle_in!($tx, $pg, &row, f, now),
                None => Vec::new(),
            };
            let saved = Saved { game: row, ratings };
            let rows = says.rows(&saved);
            let rows = say_in!($tx, $pg, rows, now, $signal)?;
            Ok::<(Saved, Vec<Queued>), StoreError>((saved, rows))
        }
        .await
    };
}

/// `SQLite`: a move that ends nothing and says what it was going to say, written in one
/// trip to the connection's thread (a trip per statement was most of a move's cost: each
/// wakes that thread and the caller's). `open` starts the query (`BEGIN` or a savepoint),
/// and the caller ends it: committed or released when this answers `Ok`, rolled back
/// otherwise. Every statement runs; what they came to is checked afterwards, from what
/// they returned: no game row (it moved on: a conflict) or no new seen message (a repeat)
/// is an error, and the caller's rollback undoes the rest.
pub(crate) async fn move_in_one_trip(
    conn: &mut sqlx::SqliteConnection,
    open: &str,
    (game_id, ply, now): (i64, i64, i64),
    u: &MoveUpdate,
    rows: &[OutRow],
) -> Result<(Saved, Vec<Queued>)> {
    use sqlx::Row;
    let mut sql = String::from(open);
    sql.push_str(MOVE_SQLITE);
    for i in 0..rows.len() {
        sql.push_str(&super::outbox::shift_params(
            OUTBOX_ROW_SQLITE,
            MOVE_SQLITE_PARAMS + i * OUTBOX_ROW_PARAMS,
        ));
    }
    let (platform, chat, id) = match &u.message {
        Some((p, c, i)) => (Some(p.as_str()), Some(c.as_str()), Some(i.as_str())),
        None => (None, None, None),
    };
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(game_id)
        .bind(ply)
        .bind(u.white_ms)
        .bind(u.black_ms)
        .bind(u.turn_started_at)
        .bind(u.draw_offer_by)
        .bind(u.due_at)
        .bind(now)
        .bind(&u.text)
        .bind(u.auto)
        .bind(platform)
        .bind(chat)
        .bind(id)
        .bind(u.checked.turn_started_at)
        .bind(u.checked.draw_offer_by);
    for r in rows {
        q = super::outbox::bind_outbox_row!(q, r, now);
    }
    let answers = q.fetch_all(&mut *conn).await?;
    let mut game = None;
    let mut seen = false;
    let mut ids = Vec::with_capacity(rows.len());
    for a in &answers {
        if a.try_column("outbox_id").is_ok() {
            ids.push(a.try_get::<i64, _>("outbox_id")?);
        } else if a.try_column("seen").is_ok() {
            seen = true;
        } else {
            game = Some(<GameRow as sqlx::FromRow<_>>::from_row(a)?);
        }
    }
    let Some(game) = game else {
        return Err(StoreError::Conflict);
    };
    if u.message.is_some() && !seen {
        return Err(StoreError::Repeat);
    }
    if ids.len() != rows.len() {
        return Err(StoreError::Corrupt(format!(
            "{} outbox rows written for {}",
            ids.len(),
            rows.len()
        )));
    }
    let written = ids
        .into_iter()
        .zip(rows)
        .map(|(id, r)| Queued::written(id, r.clone(), now))
        .collect();
    let saved = Saved {
        game,
        ratings: Vec::new(),
    };
    Ok((saved, written))
}

/// [`move_in_one_trip`]'s statements for the move (numbered as [`MOVE_PG`]'s first
/// fifteen): the game updated if it is as the move was checked against, the move appended
/// only then, the message recorded (returning `seen` unless it was already).
const MOVE_SQLITE: &str = "UPDATE games SET ply = ply + 1, white_ms = $3, black_ms = $4, turn_started_at = $5,
     draw_offer_by = $6, pending_move = NULL, pending_ply = NULL, due_at = $7, lease_until = NULL,
     credited_until = $8
 WHERE id = $1 AND ply = $2 AND status = 'active'
   AND turn_started_at = $14 AND draw_offer_by IS NOT DISTINCT FROM $15 RETURNING *;
 INSERT INTO moves (game_id, ply, text, played_at, auto) SELECT $1, $2, $9, $8, $10 WHERE changes() = 1;
 INSERT INTO seen_messages (platform, chat_id, message_id, seen_at)
     SELECT $11, $12, $13, $8 WHERE $11 IS NOT NULL
     ON CONFLICT DO NOTHING RETURNING 1 AS seen;
";
const MOVE_SQLITE_PARAMS: usize = 15;

/// One outbox row's statement in [`move_in_one_trip`] (numbered from 1, shifted into place).
const OUTBOX_ROW_SQLITE: &str = "INSERT INTO outbox (platform, chat_id, chat_kind, place, audience, sender_id, sender_name,
     reply_to, slot_use, slot_kind, slot_id, game_id, ply, message, lang, actions, picture, created_at, lane)
 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
 RETURNING id AS outbox_id;
";
const OUTBOX_ROW_PARAMS: usize = 19;

/// An ending's writes in the transaction (or savepoint) `$tx`; evaluates to its `Result`.
macro_rules! finish_in {
    ($tx:ident, $pg:ident, $game_id:expr, $ply:expr, $finish:expr, $clocks:expr, $now:expr, $says:expr, $signal:expr) => {
        async {
            let (game_id, ply, finish, clocks, now): (i64, i64, &Finish, (i64, i64), i64) =
                ($game_id, $ply, $finish, $clocks, $now);
            let says: Says<Saved> = $says;
            let row: Option<GameRow> = sqlx::query_as(
                "UPDATE games SET status = $3, result = $4, end_reason = $5, end_rule = $6, finished_at = $7,
                     white_ms = $8, black_ms = $9, draw_offer_by = NULL, pending_move = NULL, pending_ply = NULL,
                     due_at = NULL, lease_until = NULL
                 WHERE id = $1 AND ply = $2 AND status = 'active' RETURNING *",
            )
            .bind(game_id)
            .bind(ply)
            .bind(finish.status())
            .bind(finish.result)
            .bind(finish.cause.code())
            .bind(&finish.rule)
            .bind(now)
            .bind(clocks.0)
            .bind(clocks.1)
            .fetch_optional(&mut *$tx)
            .await?;
            let Some(row) = row else {
                return Err(StoreError::Conflict);
            };
            let ratings = settle_in!($tx, $pg, &row, finish, now);
            let saved = Saved { game: row, ratings };
            let rows = says.rows(&saved);
            let rows = say_in!($tx, $pg, rows, now, $signal)?;
            Ok::<(Saved, Vec<Queued>), StoreError>((saved, rows))
        }
        .await
    };
}

/// One statement that must change exactly one row (else the game moved on: a conflict),
/// with what the change says, in one transaction.
macro_rules! one_row_change {
    ($store:expr, $sql:expr, [$($bind:expr),*], $says:expr, $now:expr) => {{
        let says: Says<()> = $says;
        let now: i64 = $now;
        let rows = on_db!($store, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            let done = sqlx::query($sql)$(.bind($bind))*.execute(&mut *tx).await?.rows_affected();
            if done != 1 {
                tx.rollback().await?;
                return Err(StoreError::Conflict);
            }
            let rows = says.rows(&());
            let rows = say_in!(tx, pg, rows, now, $store.signal())?;
            tx.commit().await?;
            rows
        });
        $store.committed(&rows);
        Ok(())
    }};
}

/// `PostgreSQL`: a move that does not end its game, in one statement (one round trip, its
/// own transaction): the game row updated if it is still as the move was checked against
/// and the message was not handled, the move appended and the message recorded only if it
/// was. (A move that ends the game settles ratings too, and takes a transaction.) `$16`
/// says whether the statement takes the game's lock itself (a move checked without it): it
/// then waits for whoever holds it, and its guard sees what they changed. `$18`: the
/// notices the rows need ([`super::outbox::Signal::notices`]), sent if the move is.
static MOVE_PG: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| MOVE_PG_TEMPLATE.replace("ROW_RECORD", ROW_RECORD));

const MOVE_PG_TEMPLATE: &str = "WITH l AS (
         SELECT pg_advisory_xact_lock($1) WHERE $16
     ), g AS (
         UPDATE games SET ply = ply + 1, white_ms = $3, black_ms = $4, turn_started_at = $5, draw_offer_by = $6,
             pending_move = NULL, pending_ply = NULL, due_at = $7, lease_until = NULL, credited_until = $8
         WHERE id = $1 AND ply = $2 AND status = 'active'
           AND turn_started_at = $14 AND draw_offer_by IS NOT DISTINCT FROM $15
           AND (NOT $16 OR EXISTS (SELECT 1 FROM l))
           AND NOT EXISTS (SELECT 1 FROM seen_messages WHERE platform = $11 AND chat_id = $12 AND message_id = $13)
         RETURNING *
     ), m AS (
         INSERT INTO moves (game_id, ply, text, played_at, auto) SELECT $1, $2, $9, $8, $10 FROM g
     ), s AS (
         INSERT INTO seen_messages (platform, chat_id, message_id, seen_at)
         SELECT $11, $12, $13, $8 FROM g WHERE $11::text IS NOT NULL
         ON CONFLICT DO NOTHING
     ), o AS (
         INSERT INTO outbox (platform, chat_id, chat_kind, lane, place, audience, sender_id, sender_name, reply_to,
             slot_use, slot_kind, slot_id, game_id, ply, message, lang, actions, picture, created_at)
         SELECT r.platform, r.chat_id, r.chat_kind, r.lane, r.place, r.audience, r.sender_id, r.sender_name, r.reply_to,
             r.slot_use, r.slot_kind, r.slot_id, r.game_id, r.ply, r.message, r.lang, r.actions, r.picture, $8
         FROM g, jsonb_to_recordset($17::jsonb) AS ROW_RECORD
         RETURNING id
     ), n AS (
         SELECT pg_notify('ugolki_outbox', c) FROM g, unnest($18::text[]) AS c
     )
     SELECT g.*, (SELECT array_agg(id ORDER BY id) FROM o) AS outbox_ids
     FROM g WHERE (SELECT COUNT(*) FROM n) >= 0";

/// [`MOVE_PG`]'s answer: the game as updated, and the ids of the outbox rows written with
/// it (a sequence's values in the order the rows were inserted: the order of `rows`).
#[derive(sqlx::FromRow)]
struct Moved {
    #[sqlx(flatten)]
    game: GameRow,
    outbox_ids: Option<Vec<i64>>,
}

async fn move_in_one_statement(
    pool: &sqlx::PgPool,
    game_id: i64,
    ply: i64,
    now: i64,
    u: &MoveUpdate,
    rows: &[OutRow],
    notices: &[String],
) -> Result<(Saved, Vec<Queued>)> {
    let mut conn = pool.acquire().await?;
    // The caller holds the game's lock (on a connection of its own): not taken again here.
    move_in_one_statement_on(&mut conn, (game_id, ply, now), u, (rows, notices), false).await
}

/// [`MOVE_PG`] on a connection of the caller's, writing `rows` with the move and sending
/// their `notices`; `lock`: take the game's lock in it.
pub(crate) async fn move_in_one_statement_on(
    conn: &mut sqlx::PgConnection,
    (game_id, ply, now): (i64, i64, i64),
    u: &MoveUpdate,
    (rows, notices): (&[OutRow], &[String]),
    lock: bool,
) -> Result<(Saved, Vec<Queued>)> {
    let (platform, chat, id) = match &u.message {
        Some((p, c, i)) => (Some(p.as_str()), Some(c.as_str()), Some(i.as_str())),
        None => (None, None, None),
    };
    let row: Option<Moved> = sqlx::query_as(MOVE_PG.as_str())
        .bind(game_id)
        .bind(ply)
        .bind(u.white_ms)
        .bind(u.black_ms)
        .bind(u.turn_started_at)
        .bind(u.draw_offer_by)
        .bind(u.due_at)
        .bind(now)
        .bind(&u.text)
        .bind(u.auto)
        .bind(platform)
        .bind(chat)
        .bind(id)
        .bind(u.checked.turn_started_at)
        .bind(u.checked.draw_offer_by)
        .bind(lock)
        .bind(rows_json(rows))
        .bind(notices)
        .fetch_optional(&mut *conn)
        .await?;
    if let Some(Moved { game, outbox_ids }) = row {
        let ids = outbox_ids.unwrap_or_default();
        if ids.len() != rows.len() {
            return Err(StoreError::Corrupt(format!(
                "{} outbox rows written for {}",
                ids.len(),
                rows.len()
            )));
        }
        let written = ids
            .into_iter()
            .zip(rows)
            .map(|(id, r)| Queued::written(id, r.clone(), now))
            .collect();
        let saved = Saved {
            game,
            ratings: Vec::new(),
        };
        return Ok((saved, written));
    }
    // Nothing written: the message was handled already, or the game moved on.
    let seen = match &u.message {
        Some((p, c, i)) => sqlx::query(
            "SELECT 1 FROM seen_messages WHERE platform = $1 AND chat_id = $2 AND message_id = $3",
        )
        .bind(p)
        .bind(c)
        .bind(i)
        .fetch_optional(&mut *conn)
        .await?
        .is_some(),
        None => false,
    };
    Err(if seen {
        StoreError::Repeat
    } else {
        StoreError::Conflict
    })
}

/// A write that goes through `SQLite`'s group commit.
pub(crate) enum Write {
    Move {
        game_id: i64,
        ply: i64,
        now: i64,
        update: MoveUpdate,
        says: Says<Saved>,
    },
    Finish {
        game_id: i64,
        ply: i64,
        finish: Finish,
        clocks: (i64, i64),
        now: i64,
        says: Says<Saved>,
    },
}

impl Write {
    /// Whether this is a move that ends nothing and says what it was going to say: one
    /// [`Write::apply_in_one_trip`] writes it.
    pub(crate) fn plain(&self) -> bool {
        matches!(self, Write::Move { update, says: Says::Rows(_), .. } if update.finish.is_none())
    }

    /// A [`Write::plain`] move written in one trip ([`move_in_one_trip`]) opened by `open`;
    /// any other write is refused (a conflict: nothing written).
    pub(crate) async fn apply_in_one_trip(
        self,
        conn: &mut sqlx::SqliteConnection,
        open: &str,
    ) -> Result<(Saved, Vec<Queued>)> {
        match self {
            Write::Move {
                game_id,
                ply,
                now,
                update,
                says: Says::Rows(rows),
            } if update.finish.is_none() => {
                move_in_one_trip(conn, open, (game_id, ply, now), &update, &rows).await
            }
            _ => Err(StoreError::Conflict),
        }
    }

    /// Apply the write on `SQLite`, in the transaction or savepoint `tx`: what it saved,
    /// and the outbox rows it wrote.
    pub(crate) async fn apply(
        self,
        tx: &mut sqlx::SqliteConnection,
    ) -> Result<(Saved, Vec<Queued>)> {
        // SQLite sends no notices: the signal is never read, so one made once serves.
        static NO_NOTICES: std::sync::LazyLock<Signal> = std::sync::LazyLock::new(Signal::default);
        let pg = false;
        match self {
            Write::Move {
                game_id,
                ply,
                now,
                update,
                says,
            } => move_in!(tx, pg, game_id, ply, now, &update, says, &NO_NOTICES),
            Write::Finish {
                game_id,
                ply,
                finish,
                clocks,
                now,
                says,
            } => finish_in!(
                tx,
                pg,
                game_id,
                ply,
                &finish,
                clocks,
                now,
                says,
                &NO_NOTICES
            ),
        }
    }
}

/// A new game in a chat (`$1` platform, `$2` chat, `$14` its kind; then the [`NewGame`]'s
/// fields in order), due at once: the table sets its timer when it has the game in hand.
pub(crate) const INSERT_GAME: &str = "INSERT INTO games (platform, chat_id, chat_kind, rules, start_position, white_id,
         black_id, rated, stake, time_control, white_ms, black_ms, turn_started_at, movetime_ms, monitor, created_at,
         due_at, credited_until)
     VALUES ($1, $2, $14, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12, $13, $11, $11, $11) RETURNING *";

impl Store {
    /// Accept an open challenge and create its game, atomically: `Gone` if the challenge was
    /// no longer open (someone else took it, it expired). The new game's timer is due at
    /// once; the table sets it exactly when it has the game in hand (a timer that fires
    /// early only works out when it is really due).
    pub async fn accept_challenge(
        &self,
        challenge_id: i64,
        g: &NewGame,
        says: Says<GameRow>,
    ) -> Result<Accepted> {
        let (accepted, rows) = on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            let taken = sqlx::query_as::<_, (String, String, String)>(
                "UPDATE challenges SET status = $2, lease_until = NULL WHERE id = $1 AND status = 'open'
                 RETURNING platform, chat_id, chat_kind",
            )
            .bind(challenge_id)
            .bind(ChallengeStatus::Accepted)
            .fetch_optional(&mut *tx)
            .await?;
            let Some((platform, chat, chat_kind)) = taken else {
                tx.rollback().await?;
                return Ok(Accepted::Gone);
            };
            if let Some(stake) = g.stake {
                let held = sqlx::query(
                    "UPDATE players SET chips = chips - $3 WHERE id IN ($1, $2) AND chips >= $3",
                )
                .bind(g.white_id.min(g.black_id))
                .bind(g.white_id.max(g.black_id))
                .bind(stake)
                .execute(&mut *tx)
                .await?;
                if held.rows_affected() != 2 {
                    tx.rollback().await?;
                    return Ok(Accepted::NotEnoughChips);
                }
            }
            let row: GameRow = sqlx::query_as(INSERT_GAME)
            .bind(&platform)
            .bind(&chat)
            .bind(&g.rules)
            .bind(&g.start_position)
            .bind(g.white_id)
            .bind(g.black_id)
            .bind(g.rated)
            .bind(g.stake)
            .bind(&g.time_control)
            .bind(g.bank_ms)
            .bind(g.now)
            .bind(g.movetime_ms)
            .bind(g.monitor)
            .bind(&chat_kind)
            .fetch_one(&mut *tx)
            .await?;
            let rows = says.rows(&row);
            let rows = say_in!(tx, pg, rows, g.now, self.signal())?;
            tx.commit().await?;
            (Accepted::Started(Box::new(row)), rows)
        });
        self.committed(&rows);
        Ok(accepted)
    }

    pub async fn game(&self, id: i64) -> Result<Option<GameRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as("SELECT * FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?))
    }

    /// Where each of the games `ids` stands (at most [`MAX_STANDINGS`]; the rest are not
    /// read), in one statement on a reader: the pages' watchers look at every watched game
    /// at once, off the writer's path.
    pub async fn standings_of(&self, ids: &[i64]) -> Result<Vec<GameStanding>> {
        let ids = &ids[..ids.len().min(MAX_STANDINGS)];
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT id, ply, status, draw_offer_by FROM games WHERE id IN ({})",
            marks.join(",")
        );
        // Only our own placeholders go into the statement; the ids are bound.
        on_read!(self, conn, _pg => {
            let mut q = sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()));
            for id in ids {
                q = q.bind(*id);
            }
            Ok(q.fetch_all(&mut *conn).await?)
        })
    }

    /// The moves of a game in order.
    pub async fn moves(&self, game_id: i64) -> Result<Vec<String>> {
        let rows: Vec<(i64, String)> = on_db!(self, conn, _pg => sqlx::query_as(
            "SELECT ply, text FROM moves WHERE game_id = $1 ORDER BY ply",
        )
        .bind(game_id)
        .fetch_all(&mut *conn)
        .await?);
        in_order(game_id, 0, rows)
    }

    /// A game's moves from ply `from` up to, not including, ply `to`, in order: what a game
    /// replayed to ply `from` lacks to stand as a row read at ply `to` says (moves committed
    /// since that row was read are left out, so the replay matches the row).
    pub async fn moves_between(&self, game_id: i64, from: i64, to: i64) -> Result<Vec<String>> {
        let rows: Vec<(i64, String)> = on_db!(self, conn, _pg => sqlx::query_as(
            "SELECT ply, text FROM moves WHERE game_id = $1 AND ply >= $2 AND ply < $3 ORDER BY ply",
        )
        .bind(game_id)
        .bind(from)
        .bind(to)
        .fetch_all(&mut *conn)
        .await?);
        let out = in_order(game_id, from, rows)?;
        if from + out.len() as i64 != to {
            return Err(StoreError::Corrupt(format!(
                "game {game_id} has {} moves, its row says {to}",
                from + out.len() as i64
            )));
        }
        Ok(out)
    }

    /// Every unfinished game.
    #[cfg(test)]
    pub(crate) async fn active_games(&self) -> Result<Vec<GameRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as("SELECT * FROM games WHERE status = 'active' ORDER BY id")
            .fetch_all(&mut *conn)
            .await?))
    }

    /// Unfinished games of a player in a chat.
    pub async fn active_games_in(
        &self,
        platform: &str,
        chat: &str,
        player: i64,
    ) -> Result<Vec<GameRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(ACTIVE_IN_CHAT)
            .bind(platform)
            .bind(chat)
            .bind(player)
            .fetch_all(&mut *conn)
            .await?))
    }

    /// Unfinished games of a player anywhere.
    pub async fn active_games_of(&self, player: i64) -> Result<Vec<GameRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(
            "SELECT * FROM games WHERE status = 'active' AND (white_id = $1 OR black_id = $1) ORDER BY id",
        )
        .bind(player)
        .fetch_all(&mut *conn)
        .await?))
    }

    /// A player's newest games played in groups (the public ones), newest first.
    pub async fn public_games_of(&self, player: i64, n: i64) -> Result<Vec<GameRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(PUBLIC_GAMES_OF)
        .bind(player)
        .bind(n)
        .fetch_all(&mut *conn)
        .await?))
    }

    /// How many games a player is playing now.
    pub async fn active_game_count(&self, player: i64) -> Result<i64> {
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM games WHERE status = 'active' AND (white_id = $1 OR black_id = $1)",
        )
        .bind(player)
        .fetch_one(&mut *conn)
        .await?))
    }

    /// The newest finished game of a player in a chat (for `/review` without a number).
    pub async fn last_finished_of(
        &self,
        platform: &str,
        chat: &str,
        player: i64,
    ) -> Result<Option<i64>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar(
            "SELECT id FROM games WHERE platform = $1 AND chat_id = $2 AND status <> 'active'
               AND (white_id = $3 OR black_id = $3) ORDER BY id DESC LIMIT 1",
        )
        .bind(platform)
        .bind(chat)
        .bind(player)
        .fetch_optional(&mut *conn)
        .await?))
    }

    /// Append a move and update the game, if the game is still at `ply`. A conflict means
    /// another message got there first; nothing is written. On `SQLite` the move joins the
    /// next group commit (one sync for every move waiting); `PostgreSQL` groups concurrent
    /// commits itself.
    pub async fn commit_move(
        &self,
        game_id: i64,
        ply: i64,
        now: i64,
        u: &MoveUpdate,
        says: Says<Saved>,
    ) -> Result<Saved> {
        if let Some(c) = &self.commits {
            return c
                .write(Write::Move {
                    game_id,
                    ply,
                    now,
                    update: u.clone(),
                    says,
                })
                .await;
        }
        let says = match says {
            // A move that ends nothing says what it was going to say: one statement.
            Says::Rows(rows) if u.finish.is_none() => {
                if let Db::Postgres(pool) = &self.db {
                    let notices = self.signal().notices(&rows, now);
                    let (saved, mut rows) =
                        move_in_one_statement(pool, game_id, ply, now, u, &rows, &notices.payloads)
                            .await?;
                    notices.mark(&mut rows);
                    self.committed(&rows);
                    return Ok(saved);
                }
                Says::Rows(rows)
            }
            other => other,
        };
        let (saved, rows) = on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            match move_in!(tx, pg, game_id, ply, now, u, says, self.signal()) {
                Ok(done) => {
                    tx.commit().await?;
                    done
                }
                Err(e) => {
                    tx.rollback().await?;
                    return Err(e);
                }
            }
        });
        self.committed(&rows);
        Ok(saved)
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
        says: Says<Saved>,
    ) -> Result<Saved> {
        if let Some(c) = &self.commits {
            return c
                .write(Write::Finish {
                    game_id,
                    ply,
                    finish: finish.clone(),
                    clocks,
                    now,
                    says,
                })
                .await;
        }
        let (saved, rows) = on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            match finish_in!(tx, pg, game_id, ply, finish, clocks, now, says, self.signal()) {
                Ok(done) => {
                    tx.commit().await?;
                    done
                }
                Err(e) => {
                    tx.rollback().await?;
                    return Err(e);
                }
            }
        });
        self.committed(&rows);
        Ok(saved)
    }

    /// Set or clear the draw offer of a game still at `ply`.
    /// Training room `/undo`: game `game_id`, now at `ply`, goes back to `to_ply` plies. The
    /// moves after it are deleted; the clocks become `clocks`, the turn starts `now`, the
    /// next timer is `due_at`; offers, pending and noticed states are cleared, and the
    /// takeback is counted. A conflict when the game moved on or ended.
    #[allow(clippy::too_many_arguments)]
    pub async fn take_back(
        &self,
        game_id: i64,
        ply: i64,
        to_ply: i64,
        clocks: (i64, i64),
        now: i64,
        due_at: Option<i64>,
        says: Says<GameRow>,
    ) -> Result<GameRow> {
        let (row, rows) = on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            let done = sqlx::query(
                "UPDATE games SET ply = $3, takebacks = takebacks + 1, white_ms = $4,
                     black_ms = $5, turn_started_at = $6, credited_until = $6, due_at = $7,
                     lease_until = NULL, draw_offer_by = NULL, pending_move = NULL,
                     pending_ply = NULL, reminded_ply = NULL, idle_noticed_ply = NULL,
                     delivered_ply = NULL, resign_asked_ply = NULL, resign_asked_white_at = NULL,
                     resign_asked_black_at = NULL
                 WHERE id = $1 AND ply = $2 AND status = 'active' AND $3 >= 0 AND $3 < $2",
            )
            .bind(game_id)
            .bind(ply)
            .bind(to_ply)
            .bind(clocks.0)
            .bind(clocks.1)
            .bind(now)
            .bind(due_at)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if done != 1 {
                tx.rollback().await?;
                return Err(StoreError::Conflict);
            }
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                .bind(game_id)
                .bind(to_ply)
                .execute(&mut *tx)
                .await?;
            let row: GameRow = sqlx::query_as("SELECT * FROM games WHERE id = $1")
                .bind(game_id)
                .fetch_one(&mut *tx)
                .await?;
            let rows = says.rows(&row);
            let rows = say_in!(tx, pg, rows, now, self.signal())?;
            tx.commit().await?;
            (row, rows)
        });
        self.committed(&rows);
        Ok(row)
    }

    pub async fn set_draw_offer(
        &self,
        game_id: i64,
        ply: i64,
        by: Option<Color>,
        says: Says<()>,
        now: i64,
    ) -> Result<()> {
        one_row_change!(
            self,
            "UPDATE games SET draw_offer_by = $3 WHERE id = $1 AND ply = $2 AND status = 'active'",
            [game_id, ply, by],
            says,
            now
        )
    }

    /// The board after `ply` plies reached the chat at `at`: the side to move's clock starts
    /// then, at most `max_credit_ms` after the move and never before it; its timer moves
    /// with it. Only the first report of a ply counts. Whether anything changed.
    pub async fn delivered(
        &self,
        game_id: i64,
        ply: i64,
        at: i64,
        max_credit_ms: i64,
    ) -> Result<bool> {
        Ok(matches!(
            self.delivered_due(game_id, ply, at, max_credit_ms).await?,
            Reported::Counted { .. }
        ))
    }

    /// As [`Store::delivered`], with the game's due time after it when it counted (to wake
    /// up for).
    pub async fn delivered_due(
        &self,
        game_id: i64,
        ply: i64,
        at: i64,
        max_credit_ms: i64,
    ) -> Result<Reported> {
        let r = Report {
            game: game_id,
            ply,
            at,
            max_credit_ms,
        };
        let row: Option<Option<i64>> = on_db!(self, conn, pg => sqlx::query_scalar::<_, Option<i64>>(Report::sql(pg))
            .bind(r.game)
            .bind(r.ply)
            .bind(r.at)
            .bind(r.max_credit_ms)
            .fetch_optional(&mut *conn)
            .await?);
        Ok(row.into())
    }

    /// Keep a losing move waiting for `/confirm` (or clear it with None).
    pub async fn set_pending_move(&self, game_id: i64, ply: i64, text: Option<&str>) -> Result<()> {
        let done = on_db!(self, conn, _pg => sqlx::query(
            "UPDATE games SET pending_move = $3, pending_ply = CASE WHEN $3 IS NULL THEN NULL ELSE $2 END
             WHERE id = $1 AND ply = $2 AND status = 'active'",
        )
        .bind(game_id)
        .bind(ply)
        .bind(text)
        .execute(&mut *conn)
        .await?
        .rows_affected());
        one_row(done)
    }

    /// Keep a Resign button's first press by `by` at `ply` (see
    /// [`GameRow::resign_asked_ply`]), with what it says: the other side's question stands
    /// if it was asked at this ply too. A conflict when the game has moved on or ended.
    pub async fn ask_resign(
        &self,
        game_id: i64,
        ply: i64,
        by: Color,
        says: Says<()>,
        now: i64,
    ) -> Result<()> {
        let white = by == Color::White;
        one_row_change!(
            self,
            "UPDATE games SET
                 resign_asked_white_at = CASE WHEN $3 THEN $4
                     WHEN resign_asked_ply = $2 THEN resign_asked_white_at END,
                 resign_asked_black_at = CASE WHEN NOT $3 THEN $4
                     WHEN resign_asked_ply = $2 THEN resign_asked_black_at END,
                 resign_asked_ply = $2
             WHERE id = $1 AND ply = $2 AND status = 'active'",
            [game_id, ply, white, now],
            says,
            now
        )
    }

    /// Note that the monitor's idle notice for `ply` went out, and when the game's next
    /// timer is due now. A conflict if it had gone out already.
    pub async fn set_idle_noticed(
        &self,
        game_id: i64,
        ply: i64,
        due_at: Option<i64>,
        says: Says<()>,
        now: i64,
    ) -> Result<()> {
        one_row_change!(
            self,
            "UPDATE games SET idle_noticed_ply = $2, due_at = $3, lease_until = NULL
             WHERE id = $1 AND ply = $2 AND status = 'active'
               AND (idle_noticed_ply IS NULL OR idle_noticed_ply <> $2)",
            [game_id, ply, due_at],
            says,
            now
        )
    }

    /// Note that the correspondence reminder for `ply` went out, and when the game's next
    /// timer is due now. A conflict if it had gone out already.
    pub async fn set_reminded(
        &self,
        game_id: i64,
        ply: i64,
        due_at: Option<i64>,
        says: Says<()>,
        now: i64,
    ) -> Result<()> {
        one_row_change!(
            self,
            "UPDATE games SET reminded_ply = $2, due_at = $3, lease_until = NULL
             WHERE id = $1 AND ply = $2 AND status = 'active'
               AND (reminded_ply IS NULL OR reminded_ply <> $2)",
            [game_id, ply, due_at],
            says,
            now
        )
    }

    /// Credit a game's clock (and its timer) with `credit` ms of outages, up to `until`, if
    /// nobody did since it was credited up to `since`. Whether this call did it.
    pub async fn credit_outages(
        &self,
        game_id: i64,
        since: Option<i64>,
        credit: i64,
        until: i64,
    ) -> Result<bool> {
        let done = on_db!(self, conn, _pg => sqlx::query(
            "UPDATE games SET turn_started_at = turn_started_at + $3, due_at = due_at + $3, credited_until = $4
             WHERE id = $1 AND status = 'active' AND credited_until IS NOT DISTINCT FROM $2",
        )
        .bind(game_id)
        .bind(since)
        .bind(credit)
        .bind(until)
        .execute(&mut *conn)
        .await?
        .rows_affected());
        Ok(done == 1)
    }

    /// How many games are being played (every process's).
    pub async fn games_in_play(&self) -> Result<i64> {
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM games WHERE status = 'active'",
        )
        .fetch_one(&mut *conn)
        .await?))
    }

    /// The rules of the rated games two players started against each other since `since`,
    /// not voided (F2 counts them per kind).
    pub async fn rated_games_between(&self, a: i64, b: i64, since: i64) -> Result<Vec<Rules>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar(
            "SELECT rules FROM games
             WHERE rated AND created_at >= $3 AND (result IS NULL OR result <> 'void')
               AND ((white_id = $1 AND black_id = $2) OR (white_id = $2 AND black_id = $1))",
        )
        .bind(a)
        .bind(b)
        .bind(since)
        .fetch_all(&mut *conn)
        .await?))
    }
}

/// An update that had to change exactly one row: otherwise the game moved on.
fn one_row(done: u64) -> Result<()> {
    if done == 1 {
        Ok(())
    } else {
        Err(StoreError::Conflict)
    }
}

/// Move texts from rows `(ply, text)` that must run from ply `from` without a gap.
fn in_order(game_id: i64, from: i64, rows: Vec<(i64, String)>) -> Result<Vec<String>> {
    let mut out = Vec::with_capacity(rows.len());
    for (i, (ply, text)) in (from..).zip(rows) {
        if ply != i {
            return Err(StoreError::Corrupt(format!("game {game_id} lacks ply {i}")));
        }
        out.push(text);
    }
    Ok(out)
}

/// What a delivery report came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reported {
    /// It did not count (none was made, another came first, or the game moved on).
    No,
    /// It counted: the game's timer is due at `due` now (`None`: it has none).
    Counted { due: Option<i64> },
}

impl From<Option<Option<i64>>> for Reported {
    /// From the report's statement: a row (its due time) when it counted.
    fn from(row: Option<Option<i64>>) -> Reported {
        row.map_or(Reported::No, |due| Reported::Counted { due })
    }
}

/// A board's arrival, reported for fair clocks: the clock of the side to move starts at
/// `at`, never before the move and at most `max_credit_ms` after it; only the first report
/// of a ply counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    pub game: i64,
    pub ply: i64,
    pub at: i64,
    pub max_credit_ms: i64,
}

impl Report {
    /// The statement applying a report (`$1` game, `$2` ply, `$3` at, `$4` the most
    /// credit): one row, the game's due time after it, when it counts; none otherwise.
    pub(crate) fn sql(pg: bool) -> &'static str {
        if pg {
            "UPDATE games SET delivered_ply = $2,
                 turn_started_at = turn_started_at + LEAST(GREATEST($3 - turn_started_at, 0), $4),
                 due_at = due_at + LEAST(GREATEST($3 - turn_started_at, 0), $4)
             WHERE id = $1 AND ply = $2 AND status = 'active'
               AND (delivered_ply IS NULL OR delivered_ply <> $2)
             RETURNING due_at"
        } else {
            "UPDATE games SET delivered_ply = $2,
                 turn_started_at = turn_started_at + MIN(MAX($3 - turn_started_at, 0), $4),
                 due_at = due_at + MIN(MAX($3 - turn_started_at, 0), $4)
             WHERE id = $1 AND ply = $2 AND status = 'active'
               AND (delivered_ply IS NULL OR delivered_ply <> $2)
             RETURNING due_at"
        }
    }
}
