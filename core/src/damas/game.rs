//! A Damas game: moves from a start position, and the end by D5 (plus the federation's
//! draw by threefold repetition).

use super::moves::{IllegalMove, Move};
use super::notation::{numeric, parse_move, MoveError, MoveErrorKind};
use super::position::Position;
use crate::color::Color;
use std::collections::HashMap;

/// Why a Damas game ended by its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// D5: this side has no pieces left.
    NoPieces(Color),
    /// D5: this side's pieces cannot move (blocked).
    NoMoves(Color),
    /// The same position, same side to move, for the third time (federation rule).
    Repetition,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: EndReason,
}

impl Outcome {
    #[must_use]
    pub fn rule(&self) -> &'static str {
        "D5"
    }
}

/// A Damas game in progress or over; the moves are the truth.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// The position before each move (for showing what a move took).
    before: Vec<Position>,
    seen: HashMap<Position, u8>,
    outcome: Option<Outcome>,
}

impl Game {
    #[must_use]
    pub fn new(flying: bool) -> Game {
        Game::from_position(Position::start(flying))
    }

    #[must_use]
    pub fn from_position(start: Position) -> Game {
        let mut g = Game {
            start,
            position: start,
            moves: Vec::new(),
            before: Vec::new(),
            seen: HashMap::from([(start, 1)]),
            outcome: None,
        };
        // A position given as it is may lack the other side's pieces too (after a move,
        // the mover always has some): D5 judges it as it stands.
        let waiting = start.turn().opponent();
        let (men, kings) = start.count(waiting);
        g.outcome = match end_of_game(&start, false) {
            None if men + kings == 0 => Some(Outcome {
                winner: Some(start.turn()),
                reason: EndReason::NoPieces(waiting),
            }),
            judged => judged,
        };
        g
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
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The position the last move was played in.
    #[must_use]
    pub fn before_last(&self) -> Option<&Position> {
        self.before.last()
    }

    /// Play a legal move.
    pub fn play(&mut self, mv: &Move) -> Result<Option<Outcome>, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let next = self.position.play(mv)?;
        Ok(self.commit(*mv, next))
    }

    /// Play a move typed as text (D7).
    pub fn play_text(&mut self, text: &str) -> Result<Option<Outcome>, MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError {
                text: text.trim().chars().take(60).collect(),
                kind: MoveErrorKind::Illegal(IllegalMove::GameOver),
            });
        }
        let mv = parse_move(&self.position, text)?;
        let next = self.position.play_unchecked(&mv);
        Ok(self.commit(mv, next))
    }

    fn commit(&mut self, mv: Move, next: Position) -> Option<Outcome> {
        self.before.push(self.position);
        self.position = next;
        self.moves.push(mv);
        let n = self.seen.entry(next).or_insert(0);
        *n += 1;
        let repeated = *n >= 3;
        self.outcome = end_of_game(&next, repeated);
        self.outcome
    }

    /// The record in algebraic notation: `1. c3-d4 f6-e5 2. d4xf6 …`.
    #[must_use]
    pub fn record(&self) -> String {
        self.paired(ToString::to_string)
    }

    /// The record as PDN with Portuguese numbers (`[GameType "24"]`; a `FEN` tag when the
    /// game did not start from the standard position).
    #[must_use]
    pub fn pdn(&self, white: &str, black: &str) -> String {
        let result = match self.outcome {
            Some(Outcome {
                winner: Some(Color::White),
                ..
            }) => "1-0",
            Some(Outcome {
                winner: Some(Color::Black),
                ..
            }) => "0-1",
            Some(Outcome { winner: None, .. }) => "1/2-1/2",
            None => "*",
        };
        self.pdn_with_result(white, black, result)
    }

    /// [`Game::pdn`] with a result the rules alone may not know (a resignation, a flag, an
    /// agreed draw): `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[must_use]
    pub fn pdn_with_result(&self, white: &str, black: &str, result: &str) -> String {
        let fen = self.start.to_fen();
        let mut tags = vec![("GameType", "24")];
        if self.start != Position::start(self.start.flying()) {
            tags.push(("FEN", &fen));
        }
        crate::notation::pdn(white, black, result, &tags, &self.paired(numeric))
    }

    fn paired(&self, fmt: impl Fn(&Move) -> String) -> String {
        let moves: Vec<String> = self.moves.iter().map(fmt).collect();
        crate::notation::paired_record(&moves, 1, self.start.turn() == Color::Black)
    }
}

/// D5 and the repetition draw, for the side now to move.
fn end_of_game(pos: &Position, repeated: bool) -> Option<Outcome> {
    let side = pos.turn();
    let (men, kings) = pos.count(side);
    if men + kings == 0 {
        return Some(Outcome {
            winner: Some(side.opponent()),
            reason: EndReason::NoPieces(side),
        });
    }
    if repeated {
        return Some(Outcome {
            winner: None,
            reason: EndReason::Repetition,
        });
    }
    if !pos.has_legal_moves() {
        return Some(Outcome {
            winner: Some(side.opponent()),
            reason: EndReason::NoMoves(side),
        });
    }
    None
}
