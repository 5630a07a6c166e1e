//! Damas for the search: hashing, move ordering and the evaluation — material (a king is
//! worth about three men), how far the men have come, the guard of the back rank (men that
//! stop the opponent from crowning), and mobility (free squares in front of the men).

use super::search::{End, Node};
use super::zobrist::{fold, KEYS};
use crate::color::Color;
use crate::damas::{Move, Position};

#[derive(Clone, Copy, Debug)]
pub(crate) struct DamasNode(pub Position);

const MAN: i32 = 100;
const FLYING_KING: i32 = 320;
const SHORT_KING: i32 = 250;
/// A man's worth by rank travelled (0 = its own back rank).
const ADVANCE: [i32; 8] = [0, 2, 4, 7, 11, 16, 24, 0];
const GUARD: i32 = 12;
const MOBILITY: i32 = 2;
const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF << 56;
const NOT_FILE_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_FILE_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// Squares in front of `men` (one step forward for `side`).
fn forward(men: u64, side: Color) -> u64 {
    match side {
        Color::White => ((men << 9) & NOT_FILE_A) | ((men << 7) & NOT_FILE_H),
        Color::Black => ((men >> 7) & NOT_FILE_A) | ((men >> 9) & NOT_FILE_H),
    }
}

fn side_score(p: &Position, side: Color) -> i32 {
    let me = side.index();
    let mine = p.pieces[me];
    let men = mine & !p.kings;
    let kings = mine & p.kings;
    let king = if p.flying() { FLYING_KING } else { SHORT_KING };
    let mut s = MAN * men.count_ones() as i32 + king * kings.count_ones() as i32;
    let mut b = men;
    while b != 0 {
        let sq = b.trailing_zeros();
        let rank = (sq / 8) as usize;
        s += ADVANCE[if side == Color::White { rank } else { 7 - rank }];
        b &= b - 1;
    }
    let back = if side == Color::White { RANK_1 } else { RANK_8 };
    let opponent_men = p.pieces[1 - me] & !p.kings;
    if opponent_men != 0 {
        s += GUARD * (men & back).count_ones() as i32;
    }
    let empty = !(p.pieces[0] | p.pieces[1]);
    s += MOBILITY * (forward(men, side) & empty).count_ones() as i32;
    s
}

impl Node for DamasNode {
    type Move = Move;
    type Ctx = ();

    fn legal(&self, out: &mut Vec<Move>) {
        self.0.generate(out);
    }

    fn after(&self, _ctx: &(), m: &Move) -> (DamasNode, Option<End>) {
        // D5 (no pieces, no moves) is found by the search when the side to move has no
        // legal move.
        (DamasNode(self.0.play_unchecked(m)), None)
    }

    fn turn(&self) -> Color {
        self.0.turn()
    }

    fn key(&self) -> u64 {
        let p = &self.0;
        let mut h = fold(&KEYS.piece[0], &[p.pieces[0]])
            ^ fold(&KEYS.piece[1], &[p.pieces[1]])
            ^ fold(&KEYS.king, &[p.kings]);
        if p.turn() == Color::Black {
            h ^= KEYS.black_to_move;
        }
        h
    }

    fn eval(&self, _ctx: &()) -> i32 {
        let me = self.0.turn();
        side_score(&self.0, me) - side_score(&self.0, me.opponent())
    }

    fn order(&self, _ctx: &(), m: &Move) -> i32 {
        // Captures are forced anyway; among them more and kings first. Then crowning.
        let crown = if self.0.kings & (1u64 << m.from) == 0 {
            let far = if self.0.turn() == Color::White {
                RANK_8
            } else {
                RANK_1
            };
            i32::from(far & (1u64 << m.to) != 0) * 50
        } else {
            0
        };
        m.capture_count() as i32 * 100 + m.kings_taken() as i32 * 50 + crown
    }

    fn id(m: &Move) -> u32 {
        u32::from(m.from) * 256 + u32::from(m.to)
    }

    fn noisy(&self, moves: &[Move]) -> bool {
        moves.first().is_some_and(Move::is_capture)
    }
}
