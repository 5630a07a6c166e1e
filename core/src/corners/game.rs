//! A Corners game: the moves played from a start position, and the end of the game with
//! every check of C9 in its order.

use super::moves::{IllegalMove, Move};
use super::notation::{format_record, parse_move, MoveError, MoveErrorKind};
use super::position::{Position, RepetitionKey};
use super::variant::Variant;
use crate::color::Color;
use crate::square::Square;
use std::collections::HashMap;

/// Why a Corners game ended by its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// C5: the winner completed its target (Black first, or White and Black did not match).
    Completed,
    /// C5: both completed on the same move number.
    BothCompleted { move_no: u16 },
    /// C6: this side ended a move in its own home after the deadline.
    ReturnedHome(Color),
    /// C6: this side still had a piece at home at the deadline.
    LeftHomeLate(Color),
    /// C6: both sides still had pieces at home at the deadline.
    BothLeftHomeLate,
    /// C7: the move limit was reached; pieces in target per side.
    Limit { white: u32, black: u32 },
    /// C7: the same position for the third time.
    Repetition,
    /// C7: this side had no legal move.
    NoMoves(Color),
    /// C7: White had completed and Black could not reply.
    NoReply,
}

/// How a game ended: the winner (None for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: EndReason,
}

impl Outcome {
    /// The rule that ended the game.
    #[must_use]
    pub fn rule(&self) -> &'static str {
        match self.reason {
            EndReason::Completed | EndReason::BothCompleted { .. } => "C5",
            EndReason::ReturnedHome(_)
            | EndReason::LeftHomeLate(_)
            | EndReason::BothLeftHomeLate => "C6",
            EndReason::Limit { .. }
            | EndReason::Repetition
            | EndReason::NoMoves(_)
            | EndReason::NoReply => "C7",
        }
    }
}

/// One move as played: the move and the full path the record keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    pub path: Vec<Square>,
}

/// A game in progress or over. The position is rebuilt from the moves, so the moves are
/// the truth; this type only adds the history that repetition needs and the outcome.
#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    start: Position,
    position: Position,
    moves: Vec<PlayedMove>,
    seen: HashMap<RepetitionKey, u8>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game of `variant` from its start position.
    #[must_use]
    pub fn new(variant: &Variant) -> Game {
        Game::from_position(variant, Position::start(variant))
    }

    /// A game from any position of `variant` (its first occurrence for repetition).
    #[must_use]
    pub fn from_position(variant: &Variant, start: Position) -> Game {
        let mut seen = HashMap::new();
        seen.insert(start.repetition_key(), 1);
        let mut game = Game {
            variant: variant.clone(),
            start,
            position: start,
            moves: Vec::new(),
            seen,
            outcome: None,
        };
        if !start.has_legal_moves() {
            game.outcome = Some(no_move_outcome(&start));
        }
        game
    }

    #[must_use]
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    #[must_use]
    pub fn start(&self) -> &Position {
        &self.start
    }

    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    #[must_use]
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// The outcome, once the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Play a legal move with the shortest path recorded.
    pub fn play(&mut self, mv: Move) -> Result<Option<Outcome>, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        self.position.check(mv)?;
        let path = self.position.path(mv);
        Ok(self.commit(mv, path))
    }

    /// Play a move typed as text (C3).
    pub fn play_text(&mut self, text: &str) -> Result<Option<Outcome>, MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError {
                text: text.trim().chars().take(40).collect(),
                kind: MoveErrorKind::Illegal(IllegalMove::GameOver),
            });
        }
        let (mv, path) = parse_move(&self.position, text)?;
        Ok(self.commit(mv, path))
    }

    /// Apply a checked move and run the end checks of C9 in order.
    fn commit(&mut self, mv: Move, path: Vec<Square>) -> Option<Outcome> {
        let before = self.position;
        let after = before.play_unchecked(mv);
        self.position = after;
        self.moves.push(PlayedMove { mv, path });
        let count = self.seen.entry(after.repetition_key()).or_insert(0);
        *count += 1;
        let repeated = *count >= 3;
        self.outcome = end_of_game(&before, mv, &after, repeated);
        self.outcome
    }

    /// The paired record: `1. c3-d3 f6-e6 2. …`; a training solo's numbers every move, as
    /// its move numbers do (`1. c2-c4 2. c3-c5 …`).
    #[must_use]
    pub fn record(&self) -> String {
        if self.start.is_solo() {
            let first = u32::from(self.start.move_number());
            return (first..)
                .zip(&self.moves)
                .map(|(n, m)| format!("{n}. {}", crate::notation::join_path(&m.path, "-")))
                .collect::<Vec<_>>()
                .join(" ");
        }
        let paths: Vec<Vec<Square>> = self.moves.iter().map(|m| m.path.clone()).collect();
        format_record(
            &paths,
            self.start.move_number(),
            self.start.turn() == Color::Black,
        )
    }
}

fn no_move_outcome(pos: &Position) -> Outcome {
    if pos.turn() == Color::Black && pos.target_complete(Color::White) {
        Outcome {
            winner: Some(Color::White),
            reason: EndReason::NoReply,
        }
    } else {
        Outcome {
            winner: None,
            reason: EndReason::NoMoves(pos.turn()),
        }
    }
}

/// A solo attempt ends when the target is full (a win: the crossing is made), at the limit
/// (a draw: not made in time), or with no move left. Repetition does not end it: nobody
/// else is held up, and `/undo` is the way back.
fn solo_end(after: &Position, number: u16) -> Option<Outcome> {
    if after.target_complete(Color::White) {
        return Some(Outcome {
            winner: Some(Color::White),
            reason: EndReason::Completed,
        });
    }
    if after.limit().is_some_and(|l| number >= l) {
        return Some(Outcome {
            winner: None,
            reason: EndReason::Limit {
                white: after.in_target(Color::White),
                black: 0,
            },
        });
    }
    if !after.has_legal_moves() {
        return Some(no_move_outcome(after));
    }
    None
}

/// C9: the checks after a move, in order. `before` is the position the move was played in.
pub(crate) fn end_of_game(
    before: &Position,
    mv: Move,
    after: &Position,
    repeated: bool,
) -> Option<Outcome> {
    let mover = before.turn();
    let number = before.move_number();
    if before.is_solo() {
        return solo_end(after, number);
    }
    let win = |c: Color, reason| {
        Some(Outcome {
            winner: Some(c),
            reason,
        })
    };
    let draw = |reason| {
        Some(Outcome {
            winner: None,
            reason,
        })
    };
    // C6: a move ending in the mover's own home after the deadline loses at once.
    if before.returns_home_late(mv) {
        return win(mover.opponent(), EndReason::ReturnedHome(mover));
    }
    if mover == Color::Black {
        // C5: Black has the last move.
        let white_done = after.target_complete(Color::White);
        let black_done = after.target_complete(Color::Black);
        match (white_done, black_done) {
            (true, true) => return draw(EndReason::BothCompleted { move_no: number }),
            (false, true) => return win(Color::Black, EndReason::Completed),
            (true, false) => return win(Color::White, EndReason::Completed),
            (false, false) => {}
        }
        // C6: the deadline, checked after Black's move with its number, and then never
        // again: a piece excused at it (blocked at home by an opponent, C8) does not lose
        // the game later for being at home once it is freed.
        if after.deadline() == Some(number) {
            let white_late = !after.late_at_home(Color::White).is_empty();
            let black_late = !after.late_at_home(Color::Black).is_empty();
            match (white_late, black_late) {
                (true, true) => return draw(EndReason::BothLeftHomeLate),
                (true, false) => return win(Color::Black, EndReason::LeftHomeLate(Color::White)),
                (false, true) => return win(Color::White, EndReason::LeftHomeLate(Color::Black)),
                (false, false) => {}
            }
        }
        // C7: the game limit.
        if after.limit().is_some_and(|l| number >= l) {
            let white = after.in_target(Color::White);
            let black = after.in_target(Color::Black);
            let reason = EndReason::Limit { white, black };
            return match white.cmp(&black) {
                std::cmp::Ordering::Greater => win(Color::White, reason),
                std::cmp::Ordering::Less => win(Color::Black, reason),
                std::cmp::Ordering::Equal => draw(reason),
            };
        }
    }
    if repeated {
        return draw(EndReason::Repetition);
    }
    if !after.has_legal_moves() {
        return Some(no_move_outcome(after));
    }
    None
}
