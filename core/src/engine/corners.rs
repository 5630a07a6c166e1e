//! Corners for the search: hashing, move ordering and the evaluation of a race.
//!
//! The evaluation follows what strong Halma and Ugolki programs weigh: how far each piece
//! still has to go to a free square of its target (the race itself), pieces already in the
//! target, the straggler left furthest behind (the last piece decides the race), pieces
//! still at home as the C6 deadline nears, and a tempo for the side to move — Black moves
//! last (C5: White completing first still lets Black draw by completing on the same move),
//! so the move in hand is worth about half a step.

use super::search::{End, Node};
use super::zobrist::{fold, KEYS};
use crate::color::Color;
use crate::corners::{Move, Position};
use crate::square::Square;

#[derive(Clone, Copy, Debug)]
pub(crate) struct CornersNode(pub Position);

/// The fixed facts of the game being searched.
pub(crate) struct Ctx {
    width: u8,
    diagonal: bool,
    /// Target squares per side (the other side's home), as (file, rank).
    targets: [Vec<(i32, i32)>; 2],
    /// Per side, the centre of its target (×2, to stay in integers): where moves head.
    centre: [(i32, i32); 2],
}

impl Ctx {
    pub fn new(pos: &Position) -> Ctx {
        let sets = pos.sets();
        let w = sets.width;
        let squares = |limbs: &[u64; 4]| -> Vec<(i32, i32)> {
            let mut out = Vec::new();
            for (l, &limb) in limbs.iter().enumerate() {
                let mut b = limb;
                while b != 0 {
                    let i = l * 64 + b.trailing_zeros() as usize;
                    let s = Square::from_index(i, w);
                    out.push((i32::from(s.file), i32::from(s.rank)));
                    b &= b - 1;
                }
            }
            out
        };
        // White's target is Black's home and the other way round.
        let targets = [squares(&sets.home[1]), squares(&sets.home[0])];
        let centre = |t: &[(i32, i32)]| {
            let n = i32::try_from(t.len().max(1)).unwrap_or(1);
            (
                t.iter().map(|p| p.0).sum::<i32>() * 2 / n,
                t.iter().map(|p| p.1).sum::<i32>() * 2 / n,
            )
        };
        Ctx {
            width: w,
            diagonal: sets.diagonal,
            centre: [centre(&targets[0]), centre(&targets[1])],
            targets,
        }
    }

    #[inline]
    fn dist(&self, a: (i32, i32), b: (i32, i32)) -> i32 {
        let (df, dr) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
        if self.diagonal {
            df.max(dr)
        } else {
            df + dr
        }
    }

    fn at(&self, i: usize) -> (i32, i32) {
        let s = Square::from_index(i, self.width);
        (i32::from(s.file), i32::from(s.rank))
    }
}

fn each(limbs: &[u64; 4], mut f: impl FnMut(usize)) {
    for (l, &limb) in limbs.iter().enumerate() {
        let mut b = limb;
        while b != 0 {
            f(l * 64 + b.trailing_zeros() as usize);
            b &= b - 1;
        }
    }
}

fn has(limbs: &[u64; 4], i: usize) -> bool {
    limbs[i / 64] >> (i % 64) & 1 == 1
}

/// Weights, in tenths of a step.
const STEP: i32 = 10;
const IN_TARGET: i32 = 6;
const STRAGGLER: i32 = 4;
const TEMPO: i32 = 5;

/// How well `side` is doing in the race (higher is better).
fn race(pos: &Position, sets: &crate::corners::Sets, ctx: &Ctx, side: Color) -> i32 {
    let me = side.index();
    let target = &ctx.targets[me];
    let own = &sets.pieces[me];
    let w = ctx.width;
    // Target squares this side has not filled yet.
    let free: Vec<(i32, i32)> = target
        .iter()
        .copied()
        .filter(|&(f, r)| {
            let i =
                Square::new(u8::try_from(f).unwrap_or(0), u8::try_from(r).unwrap_or(0)).index(w);
            !has(own, i)
        })
        .collect();
    let mut sum = 0;
    let mut worst = 0;
    let mut home = 0;
    let mut in_target = 0;
    let target_count = target.len();
    each(own, |i| {
        let p = ctx.at(i);
        if has(&sets.home[1 - me], i) {
            in_target += 1;
            return;
        }
        if has(&sets.home[me], i) {
            home += 1;
        }
        let d = free.iter().map(|&t| ctx.dist(p, t)).min().unwrap_or(0);
        sum += d;
        worst = worst.max(d);
    });
    let _ = target_count;
    let mut score = -STEP * sum - STRAGGLER * worst + IN_TARGET * in_target;
    // C6: every piece must be out of home by the deadline; the nearer it is, the more a
    // piece still at home costs.
    if let Some(deadline) = pos.deadline() {
        let left = i32::from(deadline) - i32::from(pos.move_number());
        if left >= 0 && home > 0 {
            score -= home * (20 + 400 / (left + 1));
        }
    }
    score
}

impl Node for CornersNode {
    type Move = Move;
    type Ctx = Ctx;

    fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        out.extend(self.0.legal_moves());
    }

    fn after(&self, _ctx: &Ctx, m: &Move) -> (CornersNode, Option<End>) {
        let next = self.0.play_unchecked(*m);
        let end = crate::corners::end_of_game(&self.0, *m, &next, false);
        (CornersNode(next), end.map(|o| End::of(o.winner)))
    }

    fn turn(&self) -> Color {
        self.0.turn()
    }

    fn key(&self) -> u64 {
        let s = self.0.sets();
        let mut h = fold(&KEYS.piece[0], &s.pieces[0]) ^ fold(&KEYS.piece[1], &s.pieces[1]);
        if self.0.turn() == Color::Black {
            h ^= KEYS.black_to_move;
        }
        // The move number matters near the deadline and the limit.
        h ^ u64::from(self.0.move_number()).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn eval(&self, ctx: &Ctx) -> i32 {
        let sets = self.0.sets();
        let me = self.0.turn();
        race(&self.0, &sets, ctx, me) - race(&self.0, &sets, ctx, me.opponent()) + TEMPO
    }

    fn order(&self, ctx: &Ctx, m: &Move) -> i32 {
        let me = self.0.turn().index();
        let c = ctx.centre[me];
        let twice = |s: Square| (i32::from(s.file) * 2, i32::from(s.rank) * 2);
        ctx.dist(twice(m.from), c) - ctx.dist(twice(m.to), c)
    }

    fn id(m: &Move) -> u32 {
        let w = 16;
        u32::try_from(m.from.index(w) * 256 + m.to.index(w)).unwrap_or(0)
    }
}
