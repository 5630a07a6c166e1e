//! Corners moves and the reasons a move is refused.

use crate::square::Square;
use std::fmt;
use thiserror::Error;

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

/// Why a Corners move cannot be played. The texts are what a player reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum IllegalMove {
    #[error("no piece of yours on {0}")]
    NoPieceOfYours(Square),
    #[error("{0} is not on this board")]
    OffBoard(Square),
    #[error("{0} is occupied")]
    Occupied(Square),
    #[error("steps and jumps cannot be mixed")]
    Mixed,
    #[error("that would block the piece on {0} (rule C8)")]
    WouldBlock(Square),
    #[error("the piece on {0} cannot reach {1}")]
    Unreachable(Square, Square),
    #[error("{0}-{1} is neither a step nor a jump")]
    NotAJump(Square, Square),
    #[error("there is no piece on {0} to jump over")]
    NothingToJump(Square),
    #[error("a chain never lands twice on {0}")]
    Revisit(Square),
    #[error("the piece on {0} has reached its target and may not leave it")]
    TargetLocked(Square),
    #[error("a move names at least two squares")]
    TooShort,
    #[error("the game is over")]
    GameOver,
}
