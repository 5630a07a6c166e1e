//! A tournament's timer: when it is due (its start, a game of it ending, an arena's next
//! standings or its end, and once a minute while it runs), the process that claims it
//! works out what comes next from the store alone, under the tournament's lock, and writes
//! it in one transaction that changes the tournament's `round` from what it read: so each
//! start, pairing and end happens once, whichever process does it.
//!
//! Before reading, the timer is set a few seconds ahead (a step cut short by a crash is
//! done again then); a game that ends after that makes it due at once again (the ending's
//! own transaction does), so no ending is missed between the read and the write.

use super::scores::Field;
use super::{card, chat_of, heading_of, Key};
use crate::clock::TimeControl;
use crate::color::Color;
use crate::game::Game;
use crate::store::{
    EntrantRow, GameRow, NewBoard, NewGame, Player, StoreError, TournamentRow, TournamentStatus,
    Transition,
};
use crate::table::live::Live;
use crate::table::outbox::{says_now, Later};
use crate::table::picture::Picture;
use crate::table::types::Outgoing;
use crate::table::{Handled, Table};
use crate::tournament::{arena, berger, swiss, Entrant, Format, Pairing};
use crate::words::{Lang, Msg};
use std::collections::HashMap;

/// A running tournament is looked at this often at least: a transition that a crash cut
/// short is done then (a game's end makes it due at once).
pub const TOURNAMENT_POLL_MS: i64 = 60_000;
/// A step cut short (its process died while working it out) is done again this much later.
pub const STEP_RETRY_MS: i64 = 5_000;
/// An arena posts its standings this often (a few messages an hour: well within any
/// platform's limits for a group).
pub const ARENA_POST_MS: i64 = 5 * 60_000;

/// One board of the next pairing, by seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Board {
    white: i64,
    /// None: a bye.
    black: Option<i64>,
    /// A round robin's game that a withdrawn entrant forfeits: no game is played.
    forfeit: Option<i64>,
}

/// What a tournament's timer does now.
#[derive(Debug, PartialEq, Eq)]
enum Plan {
    Wait,
    /// Fewer than two came.
    Cancel,
    Start(Vec<Board>),
    Pair(Vec<Board>),
    /// An arena's standings, every [`ARENA_POST_MS`].
    Post,
    Finish,
}

fn seat_of(e: Entrant) -> i64 {
    i64::try_from(e).unwrap_or(i64::MAX)
}

fn entrant(seat: i64) -> Entrant {
    usize::try_from(seat).unwrap_or(usize::MAX)
}

/// What comes next for `t` at `now`, from its field alone.
fn plan(t: &TournamentRow, field: &Field, now: i64) -> Plan {
    let active: Vec<&EntrantRow> = field.entrants.iter().filter(|e| !e.withdrawn).collect();
    match t.status {
        TournamentStatus::Open if t.starts_at > now => Plan::Wait,
        TournamentStatus::Open if active.len() < 2 => Plan::Cancel,
        TournamentStatus::Open => Plan::Start(match t.format {
            Format::Swiss => swiss_boards(field, &active),
            Format::RoundRobin => {
                let seats: Vec<i64> = active.iter().map(|e| e.seat).collect();
                round_robin_boards(field, &seats, 0)
            }
            Format::Arena => arena_boards(field, &active),
        }),
        TournamentStatus::Running => match t.format {
            Format::Swiss | Format::RoundRobin => {
                if field.round_running(t.round) {
                    return Plan::Wait;
                }
                if t.round >= t.rounds.unwrap_or(0) {
                    return Plan::Finish;
                }
                let boards = if t.format == Format::Swiss {
                    swiss_boards(field, &active)
                } else {
                    let seats = round_robin_seats(field);
                    round_robin_boards(field, &seats, usize::try_from(t.round).unwrap_or(0))
                };
                if boards.iter().any(|b| b.black.is_some()) {
                    Plan::Pair(boards)
                } else {
                    // Nobody left to play each other.
                    Plan::Finish
                }
            }
            Format::Arena => {
                if now >= t.ends_at.unwrap_or(now) {
                    return if field.playing().is_empty() {
                        Plan::Finish
                    } else {
                        Plan::Wait
                    };
                }
                let boards = arena_boards(field, &active);
                if !boards.is_empty() {
                    Plan::Pair(boards)
                } else if post_due(t, now) {
                    Plan::Post
                } else {
                    Plan::Wait
                }
            }
        },
        TournamentStatus::Finished | TournamentStatus::Cancelled => Plan::Wait,
    }
}

/// Whether an arena's standings are due to be posted.
fn post_due(t: &TournamentRow, now: i64) -> bool {
    t.posted_at
        .or(t.started_at)
        .is_some_and(|at| now - at >= ARENA_POST_MS)
}

/// When `t` is next due after a look at `now`.
fn next_due(t: &TournamentRow, now: i64) -> Option<i64> {
    match t.status {
        TournamentStatus::Open => Some(t.starts_at),
        TournamentStatus::Running => {
            let mut due = now + TOURNAMENT_POLL_MS;
            // An arena posts and pairs until its end; after it, only its last games' ends
            // (each makes it due) and the poll.
            if let Some(end) = t.ends_at.filter(|e| t.format == Format::Arena && *e > now) {
                due = due.min(end);
                if let Some(at) = t.posted_at.or(t.started_at) {
                    due = due.min((at + ARENA_POST_MS).max(now));
                }
            }
            Some(due)
        }
        TournamentStatus::Finished | TournamentStatus::Cancelled => None,
    }
}

/// The next Swiss round of the entrants still in it.
fn swiss_boards(field: &Field, active: &[&EntrantRow]) -> Vec<Board> {
    let (games, byes) = field.played();
    let byes: Vec<Entrant> = byes.into_iter().map(|(_, e)| e).collect();
    let seats: Vec<Entrant> = active.iter().map(|e| entrant(e.seat)).collect();
    let rating = |e: Entrant| field.at(seat_of(e)).map_or(1000, |x| x.rating);
    let standings = swiss::standings(&seats, rating, &games, &byes);
    swiss::pair(&standings, &games)
        .into_iter()
        .map(|p| match p {
            Pairing::Game { white, black } => Board {
                white: seat_of(white),
                black: Some(seat_of(black)),
                forfeit: None,
            },
            Pairing::Bye(e) => Board {
                white: seat_of(e),
                black: None,
                forfeit: None,
            },
        })
        .collect()
}

/// A round robin's players, by seat: those its first round paired (withdrawing later does
/// not change its tables).
fn round_robin_seats(field: &Field) -> Vec<i64> {
    let mut seats: Vec<i64> = field
        .pairings
        .iter()
        .filter(|p| p.round == 1)
        .flat_map(|p| [Some(p.white_seat), p.black_seat])
        .flatten()
        .collect();
    seats.sort_unstable();
    seats.dedup();
    seats
}

/// Round `index` (from 0) of the Berger tables of `seats`: a game with an entrant who has
/// withdrawn is theirs forfeited.
fn round_robin_boards(field: &Field, seats: &[i64], index: usize) -> Vec<Board> {
    let gone = |s: i64| field.at(s).is_none_or(|e| e.withdrawn);
    let seat = |e: Entrant| seats.get(e).copied().unwrap_or(-1);
    berger::round(seats.len(), index)
        .into_iter()
        .map(|p| match p {
            Pairing::Game { white, black } => {
                let (w, b) = (seat(white), seat(black));
                // Both gone: no game, and nobody scores (filtered out below).
                let forfeit = match (gone(w), gone(b)) {
                    (true, true) => Some(-1),
                    (true, false) => Some(w),
                    (false, true) => Some(b),
                    (false, false) => None,
                };
                Board {
                    white: w,
                    black: Some(b),
                    forfeit,
                }
            }
            Pairing::Bye(e) => Board {
                white: seat(e),
                black: None,
                forfeit: None,
            },
        })
        .filter(|b| b.forfeit != Some(-1))
        .collect()
}

/// An arena's pairing of whoever waits: in it, not playing, not paused.
fn arena_boards(field: &Field, active: &[&EntrantRow]) -> Vec<Board> {
    let playing = field.playing();
    let points: HashMap<Entrant, u32> = field
        .standings(Format::Arena)
        .into_iter()
        .map(|l| (l.entrant, l.score))
        .collect();
    let waiting: Vec<arena::Waiting> = active
        .iter()
        .filter(|e| !playing.contains(&e.seat) && !field.paused(e))
        .map(|e| {
            let mine = field.pairings.iter().filter(|p| {
                p.black_seat.is_some() && (p.white_seat == e.seat || p.black_seat == Some(e.seat))
            });
            let (mut lean, mut last) = (0, None);
            for p in mine {
                if p.white_seat == e.seat {
                    lean += 1;
                    last = p.black_seat;
                } else {
                    lean -= 1;
                    last = Some(p.white_seat);
                }
            }
            arena::Waiting {
                entrant: entrant(e.seat),
                points: points.get(&entrant(e.seat)).copied().unwrap_or(0),
                rating: e.rating,
                last_opponent: last.map(entrant),
                lean,
            }
        })
        .collect();
    arena::pair(&waiting, !playing.is_empty())
        .into_iter()
        .map(|(w, b)| Board {
            white: seat_of(w),
            black: Some(seat_of(b)),
            forfeit: None,
        })
        .collect()
}

impl Table {
    /// Tournament `id`'s timer.
    pub(in crate::table) async fn fire_tournament(
        &self,
        id: i64,
        now: i64,
        asked: Option<Lang>,
    ) -> Handled<Vec<Outgoing>> {
        let _guard = self.tournament_lock(id).await?;
        let Some(t) = self.store.tournament(id).await? else {
            return Ok(Vec::new());
        };
        if !t.is_live() {
            self.store.set_tournament_due(id, None).await?;
            self.forget_tournament(id);
            return Ok(Vec::new());
        }
        if t.status == TournamentStatus::Open && t.starts_at > now {
            self.store.set_tournament_due(id, Some(t.starts_at)).await?;
            self.arm(Key::Tournament(id), t.starts_at);
            return Ok(Vec::new());
        }
        // From here a game of it that ends makes it due again (and what this step writes
        // keeps that); it is read after this. Due again soon if this step never gets
        // written (the process dies): it is done anew.
        let marker = now + STEP_RETRY_MS;
        self.store.set_tournament_due(id, Some(marker)).await?;
        let field = self.field(id).await?;
        let chat = chat_of(&t);
        // Started by a command: its sender's language; by the clock: the chat's.
        let lang = match asked {
            Some(lang) => lang,
            None => self.chat_lang_or_english(chat.platform, &chat.id).await,
        };
        let plan = plan(&t, &field, now);
        if self.config.tournament_step_pause_ms > 0 && plan != Plan::Wait {
            tokio::time::sleep(std::time::Duration::from_millis(
                self.config.tournament_step_pause_ms,
            ))
            .await;
        }
        let out = match plan {
            Plan::Wait => {
                let due = next_due(&t, now);
                self.store.settle_tournament_due(id, marker, due).await?;
                if let Some(at) = due {
                    self.arm(Key::Tournament(id), at);
                }
                Some(Vec::new())
            }
            Plan::Cancel => {
                let said = vec![(
                    Msg::TournamentCancelled {
                        id,
                        why: "few".into(),
                    },
                    None,
                )];
                let step = (TournamentStatus::Cancelled, None);
                self.end_tournament(&t, &field.entrants, step, said, now, lang)
                    .await?
            }
            Plan::Finish => self.finish_tournament(&t, &field, now, lang).await?,
            Plan::Post => self.post_standings(&t, &field, (now, marker), lang).await?,
            Plan::Start(boards) | Plan::Pair(boards) => {
                self.pair_tournament(&t, &field, &boards, (now, marker), lang)
                    .await?
            }
        };
        // None: another process moved it on meanwhile; nothing to say.
        Ok(out.unwrap_or_default())
    }

    /// The end: the winner, the final standings kept and posted, the announcement closed.
    async fn finish_tournament(
        &self,
        t: &TournamentRow,
        field: &Field,
        now: i64,
        lang: Lang,
    ) -> Result<Option<Vec<Outgoing>>, StoreError> {
        let id = t.id;
        let over = TournamentRow {
            status: TournamentStatus::Finished,
            ..t.clone()
        };
        let table = self
            .standings_message(t, field, heading_of(&over, field))
            .await?;
        let winner = field
            .standings(t.format)
            .first()
            .and_then(|l| field.at(seat_of(l.entrant)))
            .map(|e| e.name.clone())
            .unwrap_or_default();
        let said = vec![
            (Msg::TournamentOver { id, winner }, None),
            (table.0, Some(table.1)),
        ];
        let order = field.final_order(t.format);
        let step = (TournamentStatus::Finished, Some(order));
        self.end_tournament(t, &field.entrants, step, said, now, lang)
            .await
    }

    /// An arena's standings, every few minutes.
    async fn post_standings(
        &self,
        t: &TournamentRow,
        field: &Field,
        (now, marker): (i64, i64),
        lang: Lang,
    ) -> Result<Option<Vec<Outgoing>>, StoreError> {
        let (id, chat) = (t.id, chat_of(t));
        let (text, picture) = self
            .standings_message(t, field, heading_of(t, field))
            .await?;
        let mut out = vec![Outgoing::to_chat(&chat, text)
            .in_lang(lang)
            .with_picture(Some(picture))];
        let mut after = t.clone();
        after.posted_at = Some(now);
        let step = Transition {
            from_round: t.round,
            from_status: t.status,
            round: t.round,
            status: t.status,
            rounds: None,
            ends_at: None,
            due_at: next_due(&after, now),
            posted: true,
            standings: None,
            boards: Vec::new(),
            now,
            retry_marker: marker,
        };
        let says = says_now(&mut out);
        let done = self
            .store
            .tournament_step((id, chat_key(t)), &step, says)
            .await?;
        Ok(done.map(|_| out))
    }

    /// End `t` (cancelled or finished, with its final order), saying `said` and showing
    /// the announcement as it ends: what it says, or None if it moved on meanwhile.
    pub(super) async fn end_tournament(
        &self,
        t: &TournamentRow,
        entrants: &[EntrantRow],
        (status, standings): (TournamentStatus, Option<String>),
        said: Vec<(Msg, Option<Picture>)>,
        now: i64,
        lang: Lang,
    ) -> Result<Option<Vec<Outgoing>>, StoreError> {
        let chat = chat_of(t);
        let mut ended = t.clone();
        ended.status = status;
        let mut out: Vec<Outgoing> = said
            .into_iter()
            .map(|(m, picture)| {
                Outgoing::to_chat(&chat, m)
                    .in_lang(lang)
                    .with_picture(picture)
            })
            .collect();
        out.push(card(&ended, entrants, lang));
        let step = Transition {
            from_round: t.round,
            from_status: t.status,
            round: t.round,
            status,
            rounds: None,
            ends_at: None,
            due_at: None,
            posted: status == TournamentStatus::Finished,
            standings,
            boards: Vec::new(),
            now,
            retry_marker: i64::MIN,
        };
        let says = says_now(&mut out);
        let done = self
            .store
            .tournament_step((t.id, chat_key(t)), &step, says)
            .await?;
        Ok(done.map(|_| {
            self.forget_tournament(t.id);
            out
        }))
    }

    /// The boards of round `round` as the store writes them, each played pairing with its
    /// new game, and the players of those games.
    async fn boards_of(
        &self,
        t: &TournamentRow,
        field: &Field,
        boards: &[Board],
        (round, control): (i64, TimeControl),
        now: i64,
    ) -> Result<(Vec<NewBoard>, HashMap<i64, Player>), StoreError> {
        let bank_ms = match control {
            TimeControl::Fischer { base_ms, .. } => base_ms,
            _ => 0,
        };
        let mut players: HashMap<i64, Player> = HashMap::new();
        let mut new_boards = Vec::with_capacity(boards.len());
        for (i, b) in boards.iter().enumerate() {
            let game = match (b.black, b.forfeit) {
                (Some(black), None) => {
                    let (Some(w), Some(bl)) = (field.at(b.white), field.at(black)) else {
                        continue;
                    };
                    for id in [w.player_id, bl.player_id] {
                        if let Some(p) = self.person(id).await? {
                            players.insert(id, p);
                        }
                    }
                    // F2 holds in tournaments too: past the day's rated games of a pair,
                    // their game is casual (it still counts for the tournament).
                    let pair_limit = t.rated
                        && self
                            .pair_limit_reached(w.player_id, bl.player_id, &t.rules, now)
                            .await?;
                    Some(NewGame {
                        rules: t.rules.clone(),
                        start_position: None,
                        white_id: w.player_id,
                        black_id: bl.player_id,
                        rated: t.rated && !pair_limit,
                        stake: None,
                        time_control: control.to_string(),
                        bank_ms,
                        movetime_ms: None,
                        monitor: false,
                        now,
                    })
                }
                _ => None,
            };
            new_boards.push(NewBoard {
                round,
                board: i64::try_from(i).unwrap_or(i64::MAX),
                white_seat: b.white,
                black_seat: b.black,
                forfeit_seat: b.forfeit,
                game,
            });
        }
        Ok((new_boards, players))
    }

    /// The next pairing of `t` (its start, a round, an arena's waiting players): the games
    /// created with it in one transaction, each with its first board.
    async fn pair_tournament(
        &self,
        t: &TournamentRow,
        field: &Field,
        boards: &[Board],
        (now, marker): (i64, i64),
        lang: Lang,
    ) -> Result<Option<Vec<Outgoing>>, StoreError> {
        let start = t.status == TournamentStatus::Open;
        let control = TimeControl::parse(&t.time_control).unwrap_or(TimeControl::Unlimited);
        let round = t.round + 1;
        let (new_boards, players) = self
            .boards_of(t, field, boards, (round, control), now)
            .await?;
        let (after, posted) = after_pairing(t, boards, now);
        // Said before the new round: the standings after the one that ended.
        let before = if start {
            None
        } else if t.format == Format::Arena {
            posted.then_some((None, "live"))
        } else {
            Some((Some(t.round), "live"))
        };
        let standings = match before {
            Some((round, status)) => {
                let heading = Msg::TournamentStandings {
                    id: t.id,
                    status: status.into(),
                    round,
                };
                Some(self.standings_message(t, field, heading).await?)
            }
            None => None,
        };
        let names: HashMap<i64, String> = field
            .entrants
            .iter()
            .map(|e| (e.seat, e.name.clone()))
            .collect();
        let (later, says) = {
            let (t, after, entrants) = (t.clone(), after.clone(), field.entrants.clone());
            let boards = new_boards.clone();
            let players = players.clone();
            Later::new(move |games: &Vec<GameRow>| {
                said_by_pairing(
                    &Said {
                        t: &t,
                        after: &after,
                        entrants: &entrants,
                        names: &names,
                        players: &players,
                        control,
                        lang,
                        now,
                    },
                    &boards,
                    games,
                    standings,
                    start,
                )
            })
        };
        let step = Transition {
            from_round: t.round,
            from_status: t.status,
            round,
            status: TournamentStatus::Running,
            rounds: after.rounds.filter(|_| start),
            ends_at: after.ends_at.filter(|_| start),
            due_at: next_due(&after, now),
            posted,
            standings: None,
            boards: new_boards,
            now,
            retry_marker: marker,
        };
        let games = match self
            .store
            .tournament_step((t.id, chat_key(t)), &step, says)
            .await
        {
            Ok(Some(games)) => games,
            // Another process did it, or a player is still in a game of it: nothing now.
            Ok(None) | Err(StoreError::Conflict) => return Ok(None),
            Err(e) => return Err(e),
        };
        for row in games {
            let (Some(white), Some(black)) = (
                players.get(&row.white_id).cloned(),
                players.get(&row.black_id).cloned(),
            ) else {
                continue;
            };
            let game = Game::new(&row.rules);
            crate::table::lock(&self.cache).insert(row.id, (0, 0, game.clone()));
            let live = Live {
                row,
                white,
                black,
                game,
                control,
            };
            // Its row says its timer is due at once; now it gets the real time.
            self.set_due(&live).await?;
        }
        if let Some(at) = next_due(&after, now) {
            self.arm(Key::Tournament(t.id), at);
        }
        Ok(Some(later.take()))
    }
}

/// The tournament as a pairing at `now` leaves it, and whether the pairing posts the
/// arena's standings.
fn after_pairing(t: &TournamentRow, boards: &[Board], now: i64) -> (TournamentRow, bool) {
    let start = t.status == TournamentStatus::Open;
    let mut after = t.clone();
    after.status = TournamentStatus::Running;
    after.round = t.round + 1;
    if start {
        after.started_at = Some(now);
        after.ends_at = t.length_ms.map(|ms| now + ms);
        if t.format == Format::RoundRobin {
            let n = boards
                .iter()
                .map(|b| 1 + usize::from(b.black.is_some()))
                .sum::<usize>();
            after.rounds = Some(i64::try_from(berger::rounds(n)).unwrap_or(0));
        }
    }
    let posted = t.format == Format::Arena && !start && post_due(t, now);
    if posted {
        after.posted_at = Some(now);
    }
    (after, posted)
}

/// What a pairing's messages are made from.
struct Said<'a> {
    t: &'a TournamentRow,
    /// The tournament as the pairing leaves it.
    after: &'a TournamentRow,
    entrants: &'a [EntrantRow],
    names: &'a HashMap<i64, String>,
    players: &'a HashMap<i64, Player>,
    control: TimeControl,
    lang: Lang,
    now: i64,
}

/// A pairing's messages, from the games it created (in the order of its boards): the
/// start (and the announcement as it starts), the standings before it, the round and its
/// boards, and each game's first board.
fn said_by_pairing(
    s: &Said<'_>,
    boards: &[NewBoard],
    games: &[GameRow],
    standings: Option<(Msg, Picture)>,
    start: bool,
) -> Vec<Outgoing> {
    let chat = chat_of(s.t);
    let say = |m: Msg| Outgoing::to_chat(&chat, m).in_lang(s.lang);
    let name = |seat: i64| s.names.get(&seat).cloned().unwrap_or_default();
    let mut out = Vec::new();
    if start {
        out.push(say(Msg::TournamentStarted {
            id: s.t.id,
            count: s.entrants.iter().filter(|e| !e.withdrawn).count(),
            rounds: s.after.rounds,
            minutes: s.t.length_ms.map(|ms| ms / 60_000),
        }));
        out.push(card(s.after, s.entrants, s.lang));
    }
    if let Some((table, picture)) = standings {
        out.push(say(table).with_picture(Some(picture)));
    }
    let mut lines = vec![Msg::TournamentRound {
        id: s.t.id,
        round: s.after.round,
        rounds: s.after.rounds.unwrap_or(0),
    }];
    let mut first_boards = Vec::new();
    let mut games = games.iter();
    for b in boards {
        match (b.black_seat, b.forfeit_seat, &b.game) {
            (Some(black), None, Some(_)) => {
                let Some(row) = games.next() else { break };
                lines.push(Msg::TournamentPairing {
                    game: row.id,
                    white: name(b.white_seat),
                    black: name(black),
                });
                let (Some(white), Some(black)) =
                    (s.players.get(&row.white_id), s.players.get(&row.black_id))
                else {
                    continue;
                };
                let live = Live {
                    row: row.clone(),
                    white: white.clone(),
                    black: black.clone(),
                    game: Game::new(&row.rules),
                    control: s.control,
                };
                let text = Msg::TournamentGameStarted {
                    id: row.id,
                    tournament: s.t.id,
                    white: white.name.clone(),
                    black: black.name.clone(),
                    time: s.control,
                    rated: row.rated,
                };
                first_boards.push(live.board_message(text, Color::White, s.now, None, s.lang));
            }
            (Some(black), Some(loser), _) => {
                let winner = if loser == b.white_seat {
                    black
                } else {
                    b.white_seat
                };
                lines.push(Msg::TournamentForfeit {
                    winner: name(winner),
                    loser: name(loser),
                });
            }
            (None, ..) => lines.push(Msg::TournamentBye {
                name: name(b.white_seat),
                point: s.t.format == Format::Swiss,
            }),
            (Some(_), None, None) => {}
        }
    }
    // An arena pairs as players come free: its boards say it all; rounds are announced.
    if s.t.format != Format::Arena {
        out.push(say(Msg::Lines(lines)));
    }
    out.extend(first_boards);
    out
}

/// The tournament's chat as the store takes it.
fn chat_key(t: &TournamentRow) -> (&str, &str, &str) {
    (&t.platform, &t.chat_id, &t.chat_kind)
}
