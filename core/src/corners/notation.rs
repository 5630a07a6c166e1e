//! Corners move text (C3): forgiving input resolved against a position, and the record.

use super::moves::{IllegalMove, Move};
use super::position::Position;
use crate::notation::{join_path, read_squares, MoveTextError};
use crate::square::Square;

/// Why a typed Corners move is refused: the text itself, or the move it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    /// What the player typed, tidied (`c3-e5`), or the raw text when it was not readable.
    pub text: String,
    pub kind: MoveErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveErrorKind {
    Text(MoveTextError),
    Illegal(IllegalMove),
}

/// Read a typed move and find the move it names in `pos`. Start and end only
/// (`c3-e5`, `c3 e5`, `C3E5`, `c3:e5`) play the shortest chain; a full path must be a
/// legal chain and is kept as typed. Returns the move and the path to record.
pub fn parse_move(pos: &Position, text: &str) -> Result<(Move, Vec<Square>), MoveError> {
    let read = read_squares(text).map_err(|e| MoveError {
        text: text.trim().chars().take(40).collect(),
        kind: MoveErrorKind::Text(e),
    })?;
    let squares = read.squares;
    let illegal = |e| MoveError {
        text: join_path(&squares, "-"),
        kind: MoveErrorKind::Illegal(e),
    };
    if squares.len() == 2 {
        let mv = Move::new(squares[0], squares[1]);
        pos.check(mv).map_err(illegal)?;
        Ok((mv, pos.path(mv)))
    } else {
        let mv = pos.check_path(&squares).map_err(illegal)?;
        Ok((mv, squares.clone()))
    }
}

/// The paired record (C3, C4) of full paths: `1. c3-d3 f6-e6 2. …`.
#[must_use]
pub fn format_record(paths: &[Vec<Square>], first_move: u16, black_first: bool) -> String {
    let moves: Vec<String> = paths.iter().map(|p| join_path(p, "-")).collect();
    crate::notation::paired_record(&moves, u32::from(first_move), black_first)
}
