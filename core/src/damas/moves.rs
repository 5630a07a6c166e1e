//! Damas moves: a step, or a capture with every landing square and the pieces it takes.

use crate::square::Square;
use std::fmt;

/// Longest capture: at most 12 opponent pieces, one landing square each.
pub const MAX_HOPS: usize = 12;

/// A Damas move. Identity (for perft and for "is this the same move") is (from, to,
/// captured set): two capture paths that take the same pieces are one move (D7).
#[derive(Clone, Copy, Debug)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
    /// Squares of the pieces taken (bit index `rank * 8 + file`).
    pub(crate) captured: u64,
    /// How many of the pieces taken are kings (for the law of quality).
    pub(crate) kings_taken: u8,
    /// Landing squares after `from`, in order (one for a step).
    pub(crate) hops: u8,
    pub(crate) path: [u8; MAX_HOPS],
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

impl Eq for Move {}

impl std::hash::Hash for Move {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.from, self.to, self.captured).hash(state);
    }
}

fn square(i: u8) -> Square {
    Square::from_index(usize::from(i), 8)
}

impl Move {
    #[must_use]
    pub fn from(&self) -> Square {
        square(self.from)
    }

    #[must_use]
    pub fn to(&self) -> Square {
        square(self.to)
    }

    #[must_use]
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Number of pieces taken.
    #[must_use]
    pub fn capture_count(&self) -> u32 {
        self.captured.count_ones()
    }

    /// Number of kings taken.
    #[must_use]
    pub fn kings_taken(&self) -> u32 {
        u32::from(self.kings_taken)
    }

    /// The squares of the pieces taken, in a1, b1, … order.
    #[must_use]
    pub fn captured(&self) -> Vec<Square> {
        (0..64u8)
            .filter(|i| self.captured & (1u64 << i) != 0)
            .map(square)
            .collect()
    }

    /// Every square the piece stands on: start, then each landing square.
    #[must_use]
    pub fn path(&self) -> Vec<Square> {
        std::iter::once(self.from)
            .chain(self.path[..usize::from(self.hops)].iter().copied())
            .map(square)
            .collect()
    }

    /// Sort key of the command line: (from, to) in square order, then the path.
    #[must_use]
    pub fn sort_key(&self) -> (u8, u8, [u8; MAX_HOPS]) {
        (self.from, self.to, self.path)
    }
}

impl fmt::Display for Move {
    /// `d3-e4` for a step, `d3xf5xh7` for a capture (every landing square).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { "x" } else { "-" };
        for (i, s) in self.path().iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// Why a Damas move cannot be played (the words are in the catalogue, `words`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IllegalMove {
    NoPieceOfYours(Square),
    NotPlaying(Square),
    Occupied(Square),
    CaptureCompulsory,
    Quantity(u32),
    Quality(u32, u32),
    MustContinue(Square),
    Backward,
    /// A man crowned on this square in a capture goes no further: its move ends there (D2).
    Crowned(Square),
    NotAMove(Square, Square),
    NothingToTake(Square, Square),
    TakenTwice(Square),
    /// Several legal moves match start and end: the candidates.
    Ambiguous(Vec<String>),
    GameOver,
}
