//! A deliberately plain Corners move generator, written straight from the words of C2 and
//! C8 (grid of squares, depth-first chains, the full "stopper holds a mover's piece" test),
//! used only by tests to check the bitboard engine on many positions.

use super::{Position, Variant};
use crate::color::Color;
use crate::square::Square;
use std::collections::BTreeSet;

pub struct Reference {
    side: i32,
    dirs: Vec<(i32, i32)>,
    no_blocking: bool,
    lock: bool,
    target: [Vec<Square>; 2],
}

type Grid = Vec<Vec<Option<Color>>>;

/// What a grid coordinate holds: off the board, an empty square, or a piece.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Off,
    Empty,
    Piece(Color),
}

impl Reference {
    pub fn new(v: &Variant) -> Reference {
        let mut dirs = vec![(0, 1), (1, 0), (0, -1), (-1, 0)];
        if v.directions == super::Directions::Eight {
            dirs.extend([(1, 1), (1, -1), (-1, -1), (-1, 1)]);
        }
        Reference {
            side: i32::from(v.side),
            dirs,
            no_blocking: v.blocking_forbidden,
            lock: v.target_lock,
            target: [v.black_home(), v.white_home.clone()],
        }
    }

    fn grid(&self, p: &Position) -> Grid {
        let mut g = vec![vec![None; self.side as usize]; self.side as usize];
        for c in [Color::White, Color::Black] {
            for s in p.pieces(c) {
                g[s.file as usize][s.rank as usize] = Some(c);
            }
        }
        g
    }

    fn at(&self, g: &Grid, f: i32, r: i32) -> Cell {
        if f >= 0 && r >= 0 && f < self.side && r < self.side {
            g[f as usize][r as usize].map_or(Cell::Empty, Cell::Piece)
        } else {
            Cell::Off
        }
    }

    fn blocked(&self, g: &Grid, f: i32, r: i32) -> bool {
        self.dirs
            .iter()
            .all(|(df, dr)| match self.at(g, f + df, r + dr) {
                Cell::Off => true,
                Cell::Empty => false,
                Cell::Piece(_) => self.at(g, f + 2 * df, r + 2 * dr) != Cell::Empty,
            })
    }

    fn stoppers(&self, g: &Grid, f: i32, r: i32) -> Vec<Color> {
        let mut out = Vec::new();
        for (df, dr) in &self.dirs {
            if let Cell::Piece(c) = self.at(g, f + df, r + dr) {
                out.push(c);
                if let Cell::Piece(c2) = self.at(g, f + 2 * df, r + 2 * dr) {
                    out.push(c2);
                }
            }
        }
        out
    }

    fn chains(
        &self,
        g: &Grid,
        f: i32,
        r: i32,
        seen: &mut Vec<(i32, i32)>,
        out: &mut BTreeSet<(i32, i32)>,
        ok: &dyn Fn(i32, i32) -> bool,
    ) {
        for (df, dr) in &self.dirs {
            let (mf, mr, lf, lr) = (f + df, r + dr, f + 2 * df, r + 2 * dr);
            if matches!(self.at(g, mf, mr), Cell::Piece(_))
                && self.at(g, lf, lr) == Cell::Empty
                && !seen.contains(&(lf, lr))
                && ok(lf, lr)
            {
                seen.push((lf, lr));
                out.insert((lf, lr));
                self.chains(g, lf, lr, seen, out, ok);
                seen.pop();
            }
        }
    }

    /// Legal moves as (from, to), sorted by square order.
    pub fn moves(&self, p: &Position) -> Vec<(Square, Square)> {
        let me = p.turn();
        let mut g = self.grid(p);
        let mut result = Vec::new();
        let target = &self.target[me.index()];
        for from in p.pieces(me) {
            let (f, r) = (i32::from(from.file), i32::from(from.rank));
            let locked = self.lock && target.contains(&from);
            let ok =
                |lf: i32, lr: i32| !locked || target.contains(&Square::new(lf as u8, lr as u8));
            let mut dests = BTreeSet::new();
            for (df, dr) in &self.dirs {
                if self.at(&g, f + df, r + dr) == Cell::Empty && ok(f + df, r + dr) {
                    dests.insert((f + df, r + dr));
                }
            }
            g[f as usize][r as usize] = None; // the piece has left while it jumps
            self.chains(&g, f, r, &mut vec![(f, r)], &mut dests, &ok);
            g[f as usize][r as usize] = Some(me);
            for (tf, tr) in dests {
                let to = Square::new(tf as u8, tr as u8);
                if self.no_blocking && self.blocks(&g, me, (f, r), (tf, tr)) {
                    continue;
                }
                result.push((from, to));
            }
        }
        result.sort_by_key(|(a, b)| (a.index(p.side()), b.index(p.side())));
        result
    }

    fn blocks(&self, g: &Grid, me: Color, from: (i32, i32), to: (i32, i32)) -> bool {
        let mut after = g.clone();
        after[from.0 as usize][from.1 as usize] = None;
        after[to.0 as usize][to.1 as usize] = Some(me);
        for f in 0..self.side {
            for r in 0..self.side {
                if after[f as usize][r as usize] == Some(me.opponent())
                    && self.blocked(&after, f, r)
                    && !self.blocked(g, f, r)
                    && self.stoppers(&after, f, r).contains(&me)
                {
                    return true;
                }
            }
        }
        false
    }

    pub fn perft(&self, p: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves(p)
            .into_iter()
            .map(|(a, b)| self.perft(&p.play_unchecked(super::Move::new(a, b)), depth - 1))
            .sum()
    }
}
