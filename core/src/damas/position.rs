//! The Damas position and its move generator (D1–D4), on `u64` bitboards.
//!
//! Squares are bit `rank * 8 + file`; only the 32 playing squares (file + rank odd: b1, d1,
//! f1, h1, a2, …) are ever occupied. Captures are found by a depth-first search that keeps
//! its path on the stack and leaves taken pieces on the board until the move ends (D4).

use super::moves::{Move, MAX_HOPS};
use crate::color::Color;

/// Directions by index: north-east, north-west, south-east, south-west.
const DELTAS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
/// White men go north (NE, NW), Black men south (SE, SW).
const FORWARD: [[usize; 2]; 2] = [[0, 1], [2, 3]];
const ALL_DIRS: [usize; 4] = [0, 1, 2, 3];
const NONE: u8 = 64;

/// `NEIGHBOUR[sq][d]`: the diagonal neighbour of `sq` in direction `d`, or `NONE`.
const NEIGHBOUR: [[u8; 4]; 64] = {
    let mut t = [[NONE; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut d = 0;
        while d < 4 {
            let (nf, nr) = (f + DELTAS[d].0, r + DELTAS[d].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[sq][d] = (nr * 8 + nf) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// The 32 playing squares.
pub const PLAYING: u64 = {
    let mut m = 0u64;
    let mut sq = 0;
    while sq < 64 {
        if (sq % 8 + sq / 8) % 2 == 1 {
            m |= 1 << sq;
        }
        sq += 1;
    }
    m
};

const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF << 56;
const NOT_FILE_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_FILE_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

#[inline]
fn bit(sq: u8) -> u64 {
    1u64 << sq
}

/// Every square of `set` moved one step in direction `d`.
#[inline]
fn shift(set: u64, d: usize) -> u64 {
    match d {
        0 => (set << 9) & NOT_FILE_A,
        1 => (set << 7) & NOT_FILE_H,
        2 => (set >> 7) & NOT_FILE_A,
        _ => (set >> 9) & NOT_FILE_H,
    }
}

/// The opposite direction.
#[inline]
fn back(d: usize) -> usize {
    3 - d
}

/// A Damas position: pieces, kings, side to move, and the king rule of the table (D3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) pieces: [u64; 2],
    pub(crate) kings: u64,
    pub(crate) turn: Color,
    pub(crate) flying: bool,
}

/// What the capture search needs that does not change while it runs.
struct Search<'a> {
    from: u8,
    occ: u64,
    opp: u64,
    kings: u64,
    dirs: &'a [usize],
    flying: bool,
    /// Where this piece's moves start in the output (for removing duplicates).
    first: usize,
}

impl Position {
    /// The start position (D1): White on ranks 1–3, Black on 6–8, White to move.
    #[must_use]
    pub fn start(flying: bool) -> Position {
        Position {
            pieces: [PLAYING & 0x00FF_FFFF, PLAYING & (0xFF_FFFF << 40)],
            kings: 0,
            turn: Color::White,
            flying,
        }
    }

    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Whether kings fly (D3 option `flying`, default on) or step.
    #[must_use]
    pub fn flying(&self) -> bool {
        self.flying
    }

    #[inline]
    fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// Men and kings of `side`.
    #[must_use]
    pub fn count(&self, side: Color) -> (u32, u32) {
        let p = self.pieces[side.index()];
        (
            (p & !self.kings).count_ones(),
            (p & self.kings).count_ones(),
        )
    }

    /// All legal moves (D2–D4), in generation order; see `legal_moves` for sorted ones.
    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        self.captures(out);
        if out.is_empty() {
            self.quiet_moves(out);
        } else {
            keep_best_captures(out);
        }
    }

    /// Number of legal moves; captures are listed into `buf`, quiet moves only counted.
    pub(crate) fn count_legal(&self, buf: &mut Vec<Move>) -> u64 {
        buf.clear();
        self.captures(buf);
        if buf.is_empty() {
            self.count_quiet()
        } else {
            keep_best_captures(buf);
            buf.len() as u64
        }
    }

    fn forward(&self) -> &'static [usize] {
        &FORWARD[self.turn.index()]
    }

    /// The mover's men that can take something (set-wise: an opponent piece next to them
    /// forward with an empty square behind it). Kings are searched directly.
    fn capturing_men(&self) -> u64 {
        let men = self.pieces[self.turn.index()] & !self.kings;
        let opp = self.pieces[self.turn.opponent().index()];
        let empty = PLAYING & !self.occupied();
        self.forward().iter().fold(0, |acc, &d| {
            acc | shift(shift(empty, back(d)) & opp, back(d))
        }) & men
    }

    /// Every complete capture (D4), one per (from, to, captured set), before the laws of
    /// quantity and quality are applied.
    pub(crate) fn captures_unfiltered(&self, out: &mut Vec<Move>) {
        self.captures(out);
    }

    fn captures(&self, out: &mut Vec<Move>) {
        let own = self.pieces[self.turn.index()];
        let mut set = self.capturing_men() | (own & self.kings);
        if set == 0 {
            return;
        }
        let opp = self.pieces[self.turn.opponent().index()];
        while set != 0 {
            let from = set.trailing_zeros() as u8;
            set &= set - 1;
            let is_king = self.kings & bit(from) != 0;
            let search = Search {
                from,
                occ: self.occupied() & !bit(from), // the piece has left its square
                opp,
                kings: self.kings,
                dirs: if is_king { &ALL_DIRS } else { self.forward() },
                flying: is_king && self.flying,
                first: out.len(),
            };
            let mut path = [0u8; MAX_HOPS];
            search.extend(from, 0, 0, &mut path, 0, out);
        }
    }

    /// Steps: men one square forward, kings any distance (flying) or one square.
    fn quiet_moves(&self, out: &mut Vec<Move>) {
        let own = self.pieces[self.turn.index()];
        let empty = PLAYING & !self.occupied();
        let men = own & !self.kings;
        for &d in self.forward() {
            let mut targets = shift(men, d) & empty;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                out.push(step(NEIGHBOUR[usize::from(to)][back(d)], to));
            }
        }
        let mut kings = own & self.kings;
        while kings != 0 {
            let from = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            for d in ALL_DIRS {
                let mut to = NEIGHBOUR[usize::from(from)][d];
                while to != NONE && empty & bit(to) != 0 {
                    out.push(step(from, to));
                    if !self.flying {
                        break;
                    }
                    to = NEIGHBOUR[usize::from(to)][d];
                }
            }
        }
    }

    fn count_quiet(&self) -> u64 {
        let own = self.pieces[self.turn.index()];
        let empty = PLAYING & !self.occupied();
        let men = own & !self.kings;
        let mut n: u64 = self
            .forward()
            .iter()
            .map(|&d| u64::from((shift(men, d) & empty).count_ones()))
            .sum();
        let kings = own & self.kings;
        if kings != 0 {
            for d in ALL_DIRS {
                if self.flying {
                    // Slide every king at once: each round moves the survivors one square.
                    let mut ray = shift(kings, d) & empty;
                    while ray != 0 {
                        n += u64::from(ray.count_ones());
                        ray = shift(ray, d) & empty;
                    }
                } else {
                    n += u64::from((shift(kings, d) & empty).count_ones());
                }
            }
        }
        n
    }

    /// The position after a legal move (D2: a man ending on the far rank is crowned).
    #[must_use]
    pub fn play_unchecked(&self, mv: &Move) -> Position {
        let mut next = *self;
        let me = self.turn.index();
        let (from, to) = (bit(mv.from), bit(mv.to));
        // XOR moves the piece; a king that comes back to its own square stays put.
        let moved = if mv.from == mv.to { 0 } else { from | to };
        next.pieces[me] ^= moved;
        next.pieces[1 - me] &= !mv.captured;
        next.kings &= !mv.captured;
        if self.kings & from != 0 {
            next.kings ^= moved;
        } else {
            let far = if self.turn == Color::White {
                RANK_8
            } else {
                RANK_1
            };
            next.kings |= to & far;
        }
        next.turn = self.turn.opponent();
        next
    }

    /// Leaf count of the legal-move tree (moves by (from, to, captured set), D7).
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        let mut bufs: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
        self.perft_with(depth, &mut bufs)
    }

    fn perft_with(&self, depth: u32, bufs: &mut [Vec<Move>]) -> u64 {
        let Some((buf, rest)) = bufs.split_first_mut() else {
            return 1;
        };
        if depth == 1 {
            return self.count_legal(buf);
        }
        self.generate(buf);
        buf.iter()
            .map(|m| self.play_unchecked(m).perft_with(depth - 1, rest))
            .sum()
    }
}

fn step(from: u8, to: u8) -> Move {
    let mut path = [0u8; MAX_HOPS];
    path[0] = to;
    Move {
        from,
        to,
        captured: 0,
        kings_taken: 0,
        hops: 1,
        path,
    }
}

/// D4: keep the captures that take the most pieces, then among them the most kings.
fn keep_best_captures(moves: &mut Vec<Move>) {
    let best = moves
        .iter()
        .map(|m| (m.captured.count_ones(), m.kings_taken))
        .max()
        .unwrap_or((0, 0));
    moves.retain(|m| (m.captured.count_ones(), m.kings_taken) == best);
}

impl Search<'_> {
    /// Continue a capture from `sq`: try every jump; where none is possible and something
    /// was taken, the move is complete.
    fn extend(
        &self,
        sq: u8,
        captured: u64,
        kings_taken: u8,
        path: &mut [u8; MAX_HOPS],
        depth: usize,
        out: &mut Vec<Move>,
    ) {
        let mut went_on = false;
        for &d in self.dirs {
            // Find the first piece along the diagonal (only the next square unless flying).
            let mut victim = NEIGHBOUR[usize::from(sq)][d];
            if self.flying {
                while victim != NONE && self.occ & bit(victim) == 0 {
                    victim = NEIGHBOUR[usize::from(victim)][d];
                }
            }
            if victim == NONE || self.opp & bit(victim) == 0 || captured & bit(victim) != 0 {
                continue; // nothing, an own piece, or a piece already taken (it still blocks)
            }
            let taken = captured | bit(victim);
            let kt = kings_taken + u8::from(self.kings & bit(victim) != 0);
            let mut land = NEIGHBOUR[usize::from(victim)][d];
            while land != NONE && self.occ & bit(land) == 0 {
                went_on = true;
                path[depth] = land;
                self.extend(land, taken, kt, path, depth + 1, out);
                if !self.flying {
                    break;
                }
                land = NEIGHBOUR[usize::from(land)][d];
            }
        }
        if !went_on && depth > 0 {
            let duplicate = out[self.first..]
                .iter()
                .any(|m| m.to == sq && m.captured == captured);
            if !duplicate {
                let mut path = *path;
                path[depth..].fill(0); // deeper squares belong to other branches
                out.push(Move {
                    from: self.from,
                    to: sq,
                    captured,
                    kings_taken,
                    hops: depth as u8,
                    path,
                });
            }
        }
    }
}
