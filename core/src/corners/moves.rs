//! Corners moves and the reasons a move is refused.

use crate::square::Square;
use std::fmt;

/// A Corners move, identified by where the piece starts and where it ends (C2, C3). The path
/// of a jump chain is not part of the move's identity; see `Position::path`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Whether the move is a jump chain: steps go to a neighbour, jumps never do.
    #[must_use]
    pub fn is_jump(self) -> bool {
        self.from.file.abs_diff(self.to.file) > 1 || self.from.rank.abs_diff(self.to.rank) > 1
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// Why a Corners move cannot be played (the words are in the catalogue, `words`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IllegalMove {
    NoPieceOfYours(Square),
    OffBoard(Square),
    Occupied(Square),
    Mixed,
    WouldBlock(Square),
    Unreachable(Square, Square),
    /// A move onto its own square.
    SameSquare(Square),
    /// A diagonal step in a variant that moves orthogonally only.
    NotDiagonally(Square, Square),
    NotAJump(Square, Square),
    NothingToJump(Square),
    Revisit(Square),
    TargetLocked(Square),
    TooShort,
    GameOver,
}
