//! The built-in opponent's first form: the automatic move the table plays when a Damas
//! `movetime` runs out (D6). Until a real search exists it is the legal move that is best by
//! a simple rule — material first (a king is worth three men), then how far the men have
//! come — with ties going to the first move in (from, to) order.

use crate::color::Color;
use crate::damas::{Move, Position};

fn score(pos: &Position, side: Color) -> i32 {
    let mut s = 0;
    for (sq, piece) in pos.pieces() {
        let advance = if piece.color == Color::White {
            i32::from(sq.rank)
        } else {
            7 - i32::from(sq.rank)
        };
        let value = if piece.king { 300 } else { 100 + advance * 2 };
        s += if piece.color == side { value } else { -value };
    }
    s
}

/// The automatic move for the side to move, if it has one.
#[must_use]
pub fn damas_auto_move(pos: &Position) -> Option<Move> {
    let me = pos.turn();
    let mut best: Option<(i32, Move)> = None;
    for m in pos.legal_moves() {
        let s = score(&pos.play_unchecked(&m), me);
        if best.as_ref().is_none_or(|(b, _)| s > *b) {
            best = Some((s, m));
        }
    }
    best.map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d6_auto_move_is_legal_and_takes_material() {
        let start = Position::start(true);
        let m = damas_auto_move(&start).unwrap();
        assert!(start.legal_moves().contains(&m));
        // With a choice of captures it takes the king (quality) as the rules force anyway;
        // with quiet moves it prefers a move that does not hang a piece.
        let p = Position::from_fen("W:W12,9:B15,32", true).unwrap();
        assert_eq!(damas_auto_move(&p).unwrap().to_string(), "b3xd5");
        let none = Position::from_fen("W:W24:B28,31", true).unwrap();
        assert_eq!(damas_auto_move(&none), None);
    }
}
