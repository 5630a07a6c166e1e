//! Squares named as in draughts and chess: files `a`.. left to right, ranks `1`.. bottom up.

use std::fmt;

/// Largest board side any game here uses (Halma 16×16).
pub const MAX_SIDE: u8 = 16;

/// A square by file and rank, both counted from 0 (`a1` is file 0, rank 0).
///
/// It does not know the board it is on: [`Square::index`] needs the board's width, and a
/// parsed square is checked against the board by whoever uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    pub file: u8,
    pub rank: u8,
}

impl Square {
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }

    /// Bit index on a board of side `width`.
    #[must_use]
    pub const fn index(self, width: u8) -> usize {
        self.rank as usize * width as usize + self.file as usize
    }

    /// The square with bit index `index` on a board of side `width`.
    #[must_use]
    pub const fn from_index(index: usize, width: u8) -> Square {
        Square {
            file: (index % width as usize) as u8,
            rank: (index / width as usize) as u8,
        }
    }

    #[must_use]
    pub const fn is_on(self, side: u8) -> bool {
        self.file < side && self.rank < side
    }

    /// The same square seen from the other side of a board of side `side` (180° turn).
    #[must_use]
    pub const fn rotated(self, side: u8) -> Square {
        Square {
            file: side - 1 - self.file,
            rank: side - 1 - self.rank,
        }
    }

    /// Parse a name like `c3`, `C3` or `p16`. Files go up to `p`, ranks up to 16.
    #[must_use]
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let file = chars.next()?.to_ascii_lowercase();
        if !file.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if digits.starts_with('0') {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        let file = file as u8 - b'a';
        if file >= MAX_SIDE || rank == 0 || rank > MAX_SIDE {
            return None;
        }
        Some(Square::new(file, rank - 1))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for file in 0..MAX_SIDE {
            for rank in 0..MAX_SIDE {
                let s = Square::new(file, rank);
                assert_eq!(Square::parse(&s.to_string()), Some(s));
            }
        }
    }

    #[test]
    fn bad_names_are_refused() {
        for bad in [
            "", "c", "3", "c0", "c17", "q1", "c03", "c3x", "ç3", "c١", "c-3",
        ] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
        assert_eq!(Square::parse("C3"), Some(Square::new(2, 2)));
    }
}
