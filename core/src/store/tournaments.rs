//! Tournaments in the store: the tournament, its entrants and its pairings. Nothing else
//! is kept: scores, tie-breaks and the next pairings are recomputed from these rows and the
//! games they point at (see `crate::tournament`). Every transition (the start, a round's
//! pairings, an arena's pairing, the end) is one transaction that changes the tournament's
//! `round` from the value it was worked out from, so it happens once however many processes
//! try; a pairing's game is created in the same transaction as the pairing.

use super::games::{NewGame, INSERT_GAME};
use super::outbox::say_in;
use super::{GameRow, Result, Says, Store, StoreError};
use crate::game::{GameResult, Rules};
use crate::tournament::Format;

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentStatus {
    /// Taking entrants, not started.
    Open,
    Running,
    Finished,
    Cancelled,
}

impl TournamentStatus {
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            TournamentStatus::Open => "open",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }
}

impl TryFrom<String> for TournamentStatus {
    type Error = String;
    fn try_from(s: String) -> std::result::Result<Self, String> {
        Ok(match s.as_str() {
            "open" => TournamentStatus::Open,
            "running" => TournamentStatus::Running,
            "finished" => TournamentStatus::Finished,
            "cancelled" => TournamentStatus::Cancelled,
            _ => return Err(format!("unknown tournament status '{s}'")),
        })
    }
}

impl Format {
    /// As stored.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Format::Arena => "arena",
            Format::Swiss => "swiss",
            Format::RoundRobin => "roundrobin",
        }
    }

    /// A stored or typed name.
    #[must_use]
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "arena" => Some(Format::Arena),
            "swiss" => Some(Format::Swiss),
            "roundrobin" | "round-robin" | "rr" => Some(Format::RoundRobin),
            _ => None,
        }
    }
}

impl TryFrom<String> for Format {
    type Error = String;
    fn try_from(s: String) -> std::result::Result<Self, String> {
        Format::parse(&s).ok_or_else(|| format!("unknown tournament format '{s}'"))
    }
}

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TournamentRow {
    pub id: i64,
    pub platform: String,
    pub chat_id: String,
    pub chat_kind: String,
    #[sqlx(try_from = "String")]
    pub format: Format,
    pub rules: Rules,
    pub time_control: String,
    pub rated: bool,
    pub rounds: Option<i64>,
    pub length_ms: Option<i64>,
    pub creator_id: i64,
    #[sqlx(try_from = "String")]
    pub status: TournamentStatus,
    /// The round under way (Swiss, round robin), or the pairings made (arena).
    pub round: i64,
    pub starts_at: i64,
    pub started_at: Option<i64>,
    pub ends_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub due_at: Option<i64>,
    pub lease_until: Option<i64>,
    pub posted_at: Option<i64>,
    /// The final standings (JSON: `[[player, score], …]`, best first).
    pub standings: Option<String>,
    pub created_at: i64,
}

impl TournamentRow {
    /// Still to be played or being played.
    #[must_use]
    pub fn is_live(&self) -> bool {
        matches!(
            self.status,
            TournamentStatus::Open | TournamentStatus::Running
        )
    }
}

/// A new tournament.
#[derive(Clone, Debug)]
pub struct NewTournament {
    pub platform: String,
    pub chat_id: String,
    pub chat_kind: String,
    pub format: Format,
    pub rules: Rules,
    pub time_control: String,
    pub rated: bool,
    pub rounds: Option<i64>,
    pub length_ms: Option<i64>,
    pub creator_id: i64,
    pub starts_at: i64,
    pub now: i64,
}

/// What creating one came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Created {
    Made(Box<TournamentRow>),
    /// The chat has one open or running already: its id.
    Busy(i64),
}

/// An entrant, with the name it plays under.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct EntrantRow {
    pub player_id: i64,
    pub seat: i64,
    pub joined_at: i64,
    pub back_at: i64,
    pub withdrawn: bool,
    pub rating: i64,
    pub name: String,
}

/// What joining came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joined {
    /// A new entrant, with its seat.
    New(i64),
    /// Back after withdrawing or being paused.
    Back,
    Already,
    Full,
    /// The tournament takes nobody now (over, or a round robin under way).
    Closed,
}

/// A pairing, with its game's state.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PairingRow {
    pub round: i64,
    pub board: i64,
    pub white_seat: i64,
    pub black_seat: Option<i64>,
    pub game_id: Option<i64>,
    pub forfeit_seat: Option<i64>,
    pub created_at: i64,
    /// The game's status (`active`, `finished`, `aborted`), result, cause and end.
    pub game_status: Option<super::GameStatus>,
    pub result: Option<GameResult>,
    pub end_reason: Option<String>,
    pub finished_at: Option<i64>,
}

/// One board of a transition: a game to create, a bye, or a forfeit.
#[derive(Clone, Debug)]
pub struct NewBoard {
    pub round: i64,
    pub board: i64,
    pub white_seat: i64,
    pub black_seat: Option<i64>,
    pub forfeit_seat: Option<i64>,
    /// The game of a pairing that is played.
    pub game: Option<NewGame>,
}

/// A transition: from the tournament as read (`round`, `status`) to what it becomes.
#[derive(Clone, Debug)]
pub struct Transition {
    pub from_round: i64,
    pub from_status: TournamentStatus,
    pub round: i64,
    pub status: TournamentStatus,
    /// Set on the start: the rounds (round robin) and an arena's end.
    pub rounds: Option<i64>,
    pub ends_at: Option<i64>,
    pub due_at: Option<i64>,
    /// The standings posted now (the arena's every few minutes, and the end's).
    pub posted: bool,
    /// The final standings, at the end.
    pub standings: Option<String>,
    pub boards: Vec<NewBoard>,
    pub now: i64,
    /// What the timer was set to before the step was worked out (`i64::MIN`: nothing):
    /// if a game's end made it due earlier since, it stays so and `due_at` is not written.
    pub retry_marker: i64,
}

/// A tournament's transition (`$1` id, `$2`/`$3` the round and status it was worked out
/// from, `$4`.. what it becomes; `$12` the timer's retry marker, see [`Transition`]).
const STEP_SQL: &str = "UPDATE tournaments SET round = $4, status = $5, rounds = COALESCE($6, rounds),
                     ends_at = COALESCE($7, ends_at),
                     due_at = CASE WHEN due_at IS NOT NULL AND due_at < $12 THEN due_at ELSE $8 END,
                     lease_until = NULL,
                     started_at = CASE WHEN $5 = 'running' THEN COALESCE(started_at, $9) ELSE started_at END,
                     finished_at = CASE WHEN $5 IN ('finished', 'cancelled') THEN $9 ELSE finished_at END,
                     posted_at = CASE WHEN $10 THEN $9 ELSE posted_at END,
                     standings = COALESCE($11, standings)
                 WHERE id = $1 AND round = $2 AND status = $3";

impl Store {
    /// Create a tournament in a chat that has none open or running; it is due (to start)
    /// at its start.
    pub async fn create_tournament(
        &self,
        t: &NewTournament,
        says: Says<TournamentRow>,
    ) -> Result<Created> {
        let (created, rows) = on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            let busy: Option<i64> = sqlx::query_scalar(
                "SELECT id FROM tournaments WHERE platform = $1 AND chat_id = $2 AND status IN ('open', 'running')",
            )
            .bind(&t.platform)
            .bind(&t.chat_id)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(id) = busy {
                tx.rollback().await?;
                return Ok(Created::Busy(id));
            }
            let made: std::result::Result<TournamentRow, sqlx::Error> = sqlx::query_as(
                "INSERT INTO tournaments (platform, chat_id, chat_kind, format, rules, time_control, rated, rounds,
                     length_ms, creator_id, starts_at, due_at, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12) RETURNING *",
            )
            .bind(&t.platform)
            .bind(&t.chat_id)
            .bind(&t.chat_kind)
            .bind(t.format.code())
            .bind(&t.rules)
            .bind(&t.time_control)
            .bind(t.rated)
            .bind(t.rounds)
            .bind(t.length_ms)
            .bind(t.creator_id)
            .bind(t.starts_at)
            .bind(t.now)
            .fetch_one(&mut *tx)
            .await;
            let row = match made {
                Ok(row) => row,
                // Another process made the chat's one at the same moment (the partial
                // unique index): busy, as if it had been seen first.
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                    tx.rollback().await?;
                    let id: Option<i64> = sqlx::query_scalar(
                        "SELECT id FROM tournaments WHERE platform = $1 AND chat_id = $2 AND status IN ('open', 'running')",
                    )
                    .bind(&t.platform)
                    .bind(&t.chat_id)
                    .fetch_optional(&mut *conn)
                    .await?;
                    return Ok(Created::Busy(id.unwrap_or_default()));
                }
                Err(e) => return Err(e.into()),
            };
            let rows = says.rows(&row);
            let rows = say_in!(tx, pg, rows, t.now, self.signal())?;
            tx.commit().await?;
            (Created::Made(Box::new(row)), rows)
        });
        self.committed(&rows);
        Ok(created)
    }

    pub async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as("SELECT * FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?))
    }

    /// The chat's tournament that is open or running, if any.
    pub async fn live_tournament_in(
        &self,
        platform: &str,
        chat: &str,
    ) -> Result<Option<TournamentRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(
            "SELECT * FROM tournaments WHERE platform = $1 AND chat_id = $2 AND status IN ('open', 'running')",
        )
        .bind(platform)
        .bind(chat)
        .fetch_optional(&mut *conn)
        .await?))
    }

    /// The chat's latest tournament, whatever its state.
    pub async fn last_tournament_in(
        &self,
        platform: &str,
        chat: &str,
    ) -> Result<Option<TournamentRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(
            "SELECT * FROM tournaments WHERE platform = $1 AND chat_id = $2 ORDER BY id DESC LIMIT 1",
        )
        .bind(platform)
        .bind(chat)
        .fetch_optional(&mut *conn)
        .await?))
    }

    /// A tournament's entrants, by seat.
    pub async fn entrants(&self, tournament: i64) -> Result<Vec<EntrantRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(
            "SELECT e.player_id, e.seat, e.joined_at, e.back_at, e.withdrawn, e.rating, p.display_name AS name
             FROM tournament_entrants e JOIN players p ON p.id = e.player_id
             WHERE e.tournament_id = $1 ORDER BY e.seat",
        )
        .bind(tournament)
        .fetch_all(&mut *conn)
        .await?))
    }

    /// A tournament's pairings with their games' states, in the order they were made.
    pub async fn pairings(&self, tournament: i64) -> Result<Vec<PairingRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(
            "SELECT p.round, p.board, p.white_seat, p.black_seat, p.game_id, p.forfeit_seat, p.created_at,
                    g.status AS game_status, g.result, g.end_reason, g.finished_at
             FROM tournament_pairings p LEFT JOIN games g ON g.id = p.game_id
             WHERE p.tournament_id = $1 ORDER BY p.round, p.board",
        )
        .bind(tournament)
        .fetch_all(&mut *conn)
        .await?))
    }

    /// Each entrant's rating change over the tournament's games: (player, change).
    pub async fn tournament_rating_changes(&self, tournament: i64) -> Result<Vec<(i64, i64)>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(
            "SELECT h.player_id, CAST(SUM(h.after - h.before) AS BIGINT)
             FROM tournament_pairings p JOIN rating_history h ON h.game_id = p.game_id
             WHERE p.tournament_id = $1 GROUP BY h.player_id",
        )
        .bind(tournament)
        .fetch_all(&mut *conn)
        .await?))
    }

    /// `player` joins (or comes back to) a tournament that is open, or running when
    /// `late` allows; at most `max` entrants. What it says is written with it.
    pub async fn join_tournament(
        &self,
        (tournament, player): (i64, i64),
        (rating, max, late): (i64, i64, bool),
        now: i64,
        says: Says<Joined>,
    ) -> Result<Joined> {
        let (joined, rows) = on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            let status: Option<String> = sqlx::query_scalar("SELECT status FROM tournaments WHERE id = $1")
                .bind(tournament)
                .fetch_optional(&mut *tx)
                .await?;
            let open = match status.as_deref() {
                Some("open") => true,
                Some("running") => late,
                _ => false,
            };
            let had: Option<bool> = sqlx::query_scalar(
                "SELECT withdrawn FROM tournament_entrants WHERE tournament_id = $1 AND player_id = $2",
            )
            .bind(tournament)
            .bind(player)
            .fetch_optional(&mut *tx)
            .await?;
            let live = matches!(status.as_deref(), Some("open" | "running"));
            let joined = match had {
                // An entrant comes back while it runs (after withdrawing, or a no-show);
                // not to a round robin under way, whose tables are fixed.
                Some(_) if !live || (status.as_deref() == Some("running") && !late) => {
                    Joined::Closed
                }
                Some(withdrawn) => {
                    sqlx::query(
                        "UPDATE tournament_entrants SET withdrawn = $3, back_at = $4
                         WHERE tournament_id = $1 AND player_id = $2",
                    )
                    .bind(tournament)
                    .bind(player)
                    .bind(false)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                    if withdrawn { Joined::Back } else { Joined::Already }
                }
                None if !open => Joined::Closed,
                None => {
                    let count: i64 = sqlx::query_scalar(
                        "SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = $1",
                    )
                    .bind(tournament)
                    .fetch_one(&mut *tx)
                    .await?;
                    if count >= max {
                        Joined::Full
                    } else {
                        sqlx::query(
                            "INSERT INTO tournament_entrants (tournament_id, player_id, seat, joined_at, back_at, rating)
                             VALUES ($1, $2, $3, $4, $4, $5)",
                        )
                        .bind(tournament)
                        .bind(player)
                        .bind(count)
                        .bind(now)
                        .bind(rating)
                        .execute(&mut *tx)
                        .await?;
                        Joined::New(count)
                    }
                }
            };
            if matches!(joined, Joined::Closed | Joined::Full) {
                tx.rollback().await?;
                return Ok(joined);
            }
            let rows = says.rows(&joined);
            let rows = say_in!(tx, pg, rows, now, self.signal())?;
            tx.commit().await?;
            (joined, rows)
        });
        self.committed(&rows);
        Ok(joined)
    }

    /// `player` withdraws: not paired again (their games so far stand). False if they
    /// were not in it, or had withdrawn already.
    pub async fn withdraw_from_tournament(
        &self,
        tournament: i64,
        player: i64,
        now: i64,
        says: Says<()>,
    ) -> Result<bool> {
        let (done, rows) = on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            let n = sqlx::query(
                "UPDATE tournament_entrants SET withdrawn = $3
                 WHERE tournament_id = $1 AND player_id = $2 AND withdrawn = $4
                   AND EXISTS (SELECT 1 FROM tournaments WHERE id = $1 AND status IN ('open', 'running'))",
            )
            .bind(tournament)
            .bind(player)
            .bind(true)
            .bind(false)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if n != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
            let rows = says.rows(&());
            let rows = say_in!(tx, pg, rows, now, self.signal())?;
            tx.commit().await?;
            (true, rows)
        });
        self.committed(&rows);
        Ok(done)
    }

    /// Bring an open tournament's start to `now` (its creator starts it early): false if it
    /// is not open any more.
    pub async fn start_tournament_now(&self, id: i64, now: i64) -> Result<bool> {
        on_db!(self, conn, _pg => Ok(sqlx::query(
            "UPDATE tournaments SET starts_at = $2, due_at = $2, lease_until = NULL WHERE id = $1 AND status = 'open'",
        )
        .bind(id)
        .bind(now)
        .execute(&mut *conn)
        .await?
        .rows_affected() == 1))
    }

    /// The tournament a game belongs to, if any, and its format.
    pub async fn tournament_of_game(&self, game: i64) -> Result<Option<(i64, Format)>> {
        let row: Option<(i64, String)> = on_db!(self, conn, _pg => sqlx::query_as(
            "SELECT t.id, t.format FROM tournament_pairings p JOIN tournaments t ON t.id = p.tournament_id
             WHERE p.game_id = $1",
        )
        .bind(game)
        .fetch_optional(&mut *conn)
        .await?);
        Ok(row.and_then(|(id, f)| Some((id, Format::parse(&f)?))))
    }

    /// Set when a tournament is next due (and let go of any claim). A game of it that ends
    /// from now on makes it due at once again (see `settle_in!`), so a transition worked
    /// out after this misses no game's end.
    pub async fn set_tournament_due(&self, id: i64, due_at: Option<i64>) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query("UPDATE tournaments SET due_at = $2, lease_until = NULL WHERE id = $1")
                .bind(id)
                .bind(due_at)
                .execute(&mut *conn)
                .await?;
        });
        Ok(())
    }

    /// Set a tournament's next due time after a look that first set it to `marker`: left
    /// as it is if a game's end made it due earlier since (it is looked at again at once).
    pub async fn settle_tournament_due(
        &self,
        id: i64,
        marker: i64,
        due_at: Option<i64>,
    ) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query(
                "UPDATE tournaments SET lease_until = NULL,
                     due_at = CASE WHEN due_at IS NOT NULL AND due_at < $2 THEN due_at ELSE $3 END
                 WHERE id = $1",
            )
            .bind(id)
            .bind(marker)
            .bind(due_at)
            .execute(&mut *conn)
            .await?;
        });
        Ok(())
    }

    /// Apply a transition worked out from the tournament at `from_round` and
    /// `from_status`: its games created with their pairings, in one transaction. The
    /// games, or None if the tournament moved on meanwhile (another process did it), or a
    /// player is still in a running game of it (nobody plays two games of one tournament
    /// at once).
    pub async fn tournament_step(
        &self,
        (id, chat): (i64, (&str, &str, &str)),
        step: &Transition,
        says: Says<Vec<GameRow>>,
    ) -> Result<Option<Vec<GameRow>>> {
        let (platform, chat_id, chat_kind) = chat;
        let (games, rows) = on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            let moved = sqlx::query(STEP_SQL            )
            .bind(id)
            .bind(step.from_round)
            .bind(step.from_status.code())
            .bind(step.round)
            .bind(step.status.code())
            .bind(step.rounds)
            .bind(step.ends_at)
            .bind(step.due_at)
            .bind(step.now)
            .bind(step.posted)
            .bind(step.standings.as_deref())
            .bind(step.retry_marker)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved != 1 {
                tx.rollback().await?;
                return Ok(None);
            }
            let mut games = Vec::new();
            for b in &step.boards {
                let seats = [Some(b.white_seat), b.black_seat];
                if b.game.is_some() {
                    let busy: i64 = sqlx::query_scalar(
                        "SELECT COUNT(*) FROM tournament_pairings p JOIN games g ON g.id = p.game_id
                         WHERE p.tournament_id = $1 AND g.status = 'active'
                           AND (p.white_seat IN ($2, $3) OR p.black_seat IN ($2, $3))",
                    )
                    .bind(id)
                    .bind(seats[0])
                    .bind(seats[1])
                    .fetch_one(&mut *tx)
                    .await?;
                    if busy > 0 {
                        tx.rollback().await?;
                        return Err(StoreError::Conflict);
                    }
                }
                let game_id = match &b.game {
                    Some(g) => {
                        let row: GameRow = sqlx::query_as(INSERT_GAME)
                            .bind(platform)
                            .bind(chat_id)
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
                            .bind(chat_kind)
                            .fetch_one(&mut *tx)
                            .await?;
                        let id = row.id;
                        games.push(row);
                        Some(id)
                    }
                    None => None,
                };
                sqlx::query(
                    "INSERT INTO tournament_pairings (tournament_id, round, board, white_seat, black_seat, game_id,
                         forfeit_seat, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(id)
                .bind(b.round)
                .bind(b.board)
                .bind(b.white_seat)
                .bind(b.black_seat)
                .bind(game_id)
                .bind(b.forfeit_seat)
                .bind(step.now)
                .execute(&mut *tx)
                .await?;
            }
            let rows = says.rows(&games);
            let rows = say_in!(tx, pg, rows, step.now, self.signal())?;
            tx.commit().await?;
            (games, rows)
        });
        self.committed(&rows);
        Ok(Some(games))
    }

    /// The tournaments `player` entered that are over, newest first (at most `limit`):
    /// each with the place they took and of how many.
    pub async fn tournaments_of(
        &self,
        player: i64,
        limit: i64,
    ) -> Result<Vec<(TournamentRow, Option<(usize, usize)>)>> {
        let rows: Vec<TournamentRow> = on_db!(self, conn, _pg => sqlx::query_as(
            "SELECT t.* FROM tournaments t JOIN tournament_entrants e ON e.tournament_id = t.id
             WHERE e.player_id = $1 AND t.status = 'finished' ORDER BY t.id DESC LIMIT $2",
        )
        .bind(player)
        .bind(limit)
        .fetch_all(&mut *conn)
        .await?);
        Ok(rows
            .into_iter()
            .map(|t| {
                let place = t.standings.as_deref().and_then(|s| {
                    let order: Vec<(i64, i64)> = serde_json::from_str(s).ok()?;
                    let at = order.iter().position(|(p, _)| *p == player)?;
                    Some((at + 1, order.len()))
                });
                (t, place)
            })
            .collect())
    }
}
