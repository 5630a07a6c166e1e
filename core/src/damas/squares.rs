//! Damas squares: algebraic names as in Corners, and the Portuguese numbers 1–32
//! (1 = h1, counted right to left and bottom to top; White starts on 1–12).

use crate::square::Square;

/// Whether `sq` is one of the 32 playing squares (D1: h1 is one, a1 is not).
#[must_use]
pub fn is_playing(sq: Square) -> bool {
    sq.is_on(8) && (sq.file + sq.rank) % 2 == 1
}

/// The square with Portuguese number `n` (1–32).
#[must_use]
pub fn from_number(n: u8) -> Option<Square> {
    if !(1..=32).contains(&n) {
        return None;
    }
    let row = (n - 1) / 4;
    let i = (n - 1) % 4;
    Some(Square::new(7 - 2 * i - row % 2, row))
}

/// The Portuguese number of a playing square.
#[must_use]
pub fn number(sq: Square) -> Option<u8> {
    if !is_playing(sq) {
        return None;
    }
    let i = (7 - sq.file - sq.rank % 2) / 2;
    Some(sq.rank * 4 + i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d7_numbers_run_right_to_left_bottom_to_top() {
        let name = |n| from_number(n).unwrap().to_string();
        assert_eq!(
            (1..=8).map(name).collect::<Vec<_>>(),
            ["h1", "f1", "d1", "b1", "g2", "e2", "c2", "a2"]
        );
        assert_eq!(name(12), "b3");
        assert_eq!(name(21), "g6");
        assert_eq!(name(32), "a8");
        for n in 1..=32 {
            assert_eq!(number(from_number(n).unwrap()), Some(n));
        }
        assert_eq!(from_number(0), None);
        assert_eq!(from_number(33), None);
        assert_eq!(
            number(Square::new(0, 0)),
            None,
            "a1 is not a playing square"
        );
    }
}
