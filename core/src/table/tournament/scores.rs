//! A tournament as its rows say it stands: the games as the pure tournament core reads them
//! (`crate::tournament`), who is paused, and the standings as lines for the chat. Nothing
//! here is kept: every process works it out alike from the store.

use crate::game::{EndCause, GameResult};
use crate::store::{EntrantRow, GameStatus, PairingRow, TournamentRow};
use crate::tournament::standings::{standings, Line, Mark};
use crate::tournament::{Entrant, Format, Played};
use crate::words::Msg;
use crate::Color;

/// Marks a line shows at most (an arena's latest).
const SHOWN_MARKS: usize = 16;

/// A tournament's entrants and pairings, as read.
pub struct Field {
    pub entrants: Vec<EntrantRow>,
    pub pairings: Vec<PairingRow>,
}

/// A pairing's round, as the tournament core counts them.
fn round_of(p: &PairingRow) -> u32 {
    u32::try_from(p.round).unwrap_or(u32::MAX)
}

/// Seats are entrants (numbered from 0 in the order of joining).
fn entrant(seat: i64) -> Entrant {
    usize::try_from(seat).unwrap_or(usize::MAX)
}

impl Field {
    /// The games as the tournament counts them, in the order they ended (running ones
    /// last, by pairing), and the rounds sat out, with their rounds. A game whose player never made
    /// a first move is theirs lost (F1 makes the game itself void); a forfeit is the
    /// present player's win.
    pub fn played(&self) -> (Vec<Played>, Vec<(u32, Entrant)>) {
        let mut games: Vec<(i64, &PairingRow, Played)> = Vec::new();
        let mut byes = Vec::new();
        for p in &self.pairings {
            let Some(black) = p.black_seat else {
                byes.push((round_of(p), entrant(p.white_seat)));
                continue;
            };
            let result = match (p.forfeit_seat, p.game_status) {
                (Some(f), _) => Some(win_for_other(f == p.white_seat)),
                (None, Some(GameStatus::Active) | None) => None,
                (None, Some(_)) => Some(counted_result(p)),
            };
            let played = Played {
                round: round_of(p),
                white: entrant(p.white_seat),
                black: entrant(black),
                result,
            };
            let order = if result.is_some() {
                p.finished_at.unwrap_or(p.created_at)
            } else {
                i64::MAX
            };
            games.push((order, p, played));
        }
        // Stable: games that ended at once keep their pairing order.
        games.sort_by_key(|(order, p, _)| (*order, p.round, p.board));
        (games.into_iter().map(|(_, _, g)| g).collect(), byes)
    }

    /// Whether the entrant at `seat` is paused: an arena game of theirs ended with no first
    /// move from them after they last (re)joined.
    pub fn paused(&self, e: &EntrantRow) -> bool {
        self.pairings.iter().any(|p| {
            let Some(EndCause::NoFirstMove(side)) =
                p.end_reason.as_deref().and_then(EndCause::from_code)
            else {
                return false;
            };
            let seat = match side {
                Color::White => Some(p.white_seat),
                Color::Black => p.black_seat,
            };
            seat == Some(e.seat) && p.finished_at.is_some_and(|at| at > e.back_at)
        })
    }

    /// Seats in a running game.
    pub fn playing(&self) -> Vec<i64> {
        self.pairings
            .iter()
            .filter(|p| p.game_status == Some(GameStatus::Active))
            .flat_map(|p| [Some(p.white_seat), p.black_seat])
            .flatten()
            .collect()
    }

    /// Whether any game of round `round` is still being played.
    pub fn round_running(&self, round: i64) -> bool {
        self.pairings
            .iter()
            .any(|p| p.round == round && p.game_status == Some(GameStatus::Active))
    }

    /// The entrant at `seat`.
    pub fn at(&self, seat: i64) -> Option<&EntrantRow> {
        self.entrants.iter().find(|e| e.seat == seat)
    }

    /// The standings, best first.
    pub fn standings(&self, format: Format) -> Vec<Line> {
        let (games, byes) = self.played();
        let all: Vec<Entrant> = self.entrants.iter().map(|e| entrant(e.seat)).collect();
        let rating = |e: Entrant| {
            self.entrants
                .iter()
                .find(|x| entrant(x.seat) == e)
                .map_or(1000, |x| x.rating)
        };
        standings(format, &all, &games, &byes, rating)
    }

    /// The standings as rows, best first. `changes`: each player's rating change over the
    /// tournament.
    pub fn rows(&self, t: &TournamentRow, changes: &[(i64, i64)]) -> Vec<Row> {
        self.standings(t.format)
            .iter()
            .enumerate()
            .filter_map(|(place, line)| {
                let e = self.at(i64::try_from(line.entrant).ok()?)?;
                Some(Row {
                    place: place + 1,
                    name: e.name.clone(),
                    score: score_text(t.format, line.score),
                    marks: marks_text(&line.marks),
                    change: changes
                        .iter()
                        .find(|(p, _)| *p == e.player_id)
                        .map(|(_, d)| *d),
                    performance: line.performance,
                    paused: t.format == Format::Arena && !e.withdrawn && self.paused(e),
                    withdrawn: e.withdrawn,
                })
            })
            .collect()
    }

    /// The standings as the chat reads them: a heading, then a line per entrant (at most
    /// `shown`; the rest are counted).
    pub fn lines(
        &self,
        t: &TournamentRow,
        heading: Msg,
        changes: &[(i64, i64)],
        shown: usize,
    ) -> Vec<Msg> {
        let rows = self.rows(t, changes);
        let mut out = vec![heading];
        out.extend(rows.iter().take(shown).map(Row::line));
        if rows.len() > shown {
            out.push(Msg::AndMore {
                count: rows.len() - shown,
            });
        }
        out
    }

    /// The final order, as kept: `[[player, score], …]`, best first.
    pub fn final_order(&self, format: Format) -> String {
        let order: Vec<(i64, u32)> = self
            .standings(format)
            .iter()
            .filter_map(|l| {
                let e = self.at(i64::try_from(l.entrant).ok()?)?;
                Some((e.player_id, l.score))
            })
            .collect();
        serde_json::to_string(&order).unwrap_or_else(|_| "[]".into())
    }
}

/// One line of the standings, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub place: usize,
    pub name: String,
    pub score: String,
    pub marks: String,
    /// The rating change, as written (`+12`).
    pub change: Option<i64>,
    pub performance: Option<i64>,
    pub paused: bool,
    pub withdrawn: bool,
}

impl Row {
    fn line(&self) -> Msg {
        Msg::TournamentLine {
            place: self.place,
            name: self.name.clone(),
            score: self.score.clone(),
            marks: self.marks.clone(),
            change: self.change.map(|d| {
                Box::new(Msg::TournamentChange {
                    sign: match d.signum() {
                        1 => "plus",
                        -1 => "minus",
                        _ => "zero",
                    }
                    .into(),
                    delta: d.abs(),
                })
            }),
            performance: self.performance,
            paused: self.paused,
        }
    }
}

/// A decided result as a tournament counts it.
fn counted_result(p: &PairingRow) -> GameResult {
    match p.end_reason.as_deref().and_then(EndCause::from_code) {
        Some(EndCause::NoFirstMove(side)) => win_for_other(side == Color::White),
        _ => p.result.unwrap_or(GameResult::Void),
    }
}

/// The win of the side that is not the one who failed (`white_failed`: White did).
fn win_for_other(white_failed: bool) -> GameResult {
    if white_failed {
        GameResult::Black
    } else {
        GameResult::White
    }
}

/// A score as written: half-points as `3½` (Swiss, round robin), arena points whole.
pub fn score_text(format: Format, score: u32) -> String {
    match format {
        Format::Arena => score.to_string(),
        Format::Swiss | Format::RoundRobin => match (score / 2, score % 2) {
            (0, 1) => "½".into(),
            (n, 1) => format!("{n}½"),
            (n, _) => n.to_string(),
        },
    }
}

/// A line's games: `1` a win, `½` a draw, `0` a loss, `+` a bye, `–` a round robin's round
/// sat out, `*` running; `–` alone before any.
fn marks_text(marks: &[Mark]) -> String {
    let shown = &marks[marks.len().saturating_sub(SHOWN_MARKS)..];
    let mut out: Vec<&str> = shown
        .iter()
        .map(|m| match m {
            Mark::Win => "1",
            Mark::Draw => "½",
            Mark::Loss => "0",
            Mark::Bye => "+",
            Mark::SatOut => "–",
            Mark::Running => "*",
        })
        .collect();
    if shown.len() < marks.len() {
        out.insert(0, "…");
    }
    if out.is_empty() {
        "–".into()
    } else {
        out.join(" ")
    }
}

/// A rating change as written: `+12`, `−5`, `0`.
pub fn signed(d: i64) -> String {
    match d.signum() {
        1 => format!("+{d}"),
        -1 => format!("−{}", d.unsigned_abs()),
        _ => "0".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_marks_are_written_as_a_crosstable_does() {
        assert_eq!(score_text(Format::Swiss, 7), "3½");
        assert_eq!(score_text(Format::Swiss, 1), "½");
        assert_eq!(score_text(Format::RoundRobin, 6), "3");
        assert_eq!(score_text(Format::Arena, 7), "7");
        assert_eq!(
            marks_text(&[
                Mark::Win,
                Mark::Draw,
                Mark::Loss,
                Mark::Bye,
                Mark::SatOut,
                Mark::Running
            ]),
            "1 ½ 0 + – *"
        );
        assert_eq!(marks_text(&[]), "–");
        assert_eq!(marks_text(&[Mark::Win; 20]).split(' ').count(), 17);
        assert_eq!(signed(12), "+12");
        assert_eq!(signed(-5), "−5");
    }
}
