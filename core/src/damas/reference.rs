//! A deliberately plain Damas move generator, written from the words of D2–D4 on a grid of
//! squares with a depth-first search, used only by tests to check the bitboard engine.

use super::{Piece, Position};
use crate::color::Color;
use crate::square::Square;
use std::collections::BTreeSet;

type Grid = [[Option<Piece>; 8]; 8];

/// A move as the reference sees it: from, to, the squares taken (sorted), kings taken.
pub type RefMove = (Square, Square, Vec<Square>, usize);

fn on(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

struct Search<'a> {
    grid: &'a Grid,
    me: Color,
    from: (i32, i32),
    king: bool,
    flying: bool,
    out: &'a mut Vec<RefMove>,
}

impl Search<'_> {
    fn piece(&self, f: i32, r: i32) -> Option<Piece> {
        if (f, r) == self.from {
            None // the moving piece has left its square
        } else {
            self.grid[f as usize][r as usize]
        }
    }

    fn dirs(&self) -> Vec<(i32, i32)> {
        let fwd = if self.me == Color::White { 1 } else { -1 };
        if self.king {
            vec![(1, 1), (-1, 1), (1, -1), (-1, -1)]
        } else {
            vec![(1, fwd), (-1, fwd)]
        }
    }

    fn dfs(&mut self, cur: (i32, i32), taken: &mut Vec<(i32, i32)>, kings: usize) {
        let mut went_on = false;
        for (df, dr) in self.dirs() {
            let (mut vf, mut vr) = (cur.0 + df, cur.1 + dr);
            if self.flying {
                while on(vf, vr) && self.piece(vf, vr).is_none() {
                    vf += df;
                    vr += dr;
                }
            }
            if !on(vf, vr) || taken.contains(&(vf, vr)) {
                continue;
            }
            let Some(victim) = self.piece(vf, vr) else {
                continue;
            };
            if victim.color == self.me {
                continue;
            }
            let (mut lf, mut lr) = (vf + df, vr + dr);
            while on(lf, lr) && self.piece(lf, lr).is_none() {
                went_on = true;
                taken.push((vf, vr));
                self.dfs((lf, lr), taken, kings + usize::from(victim.king));
                taken.pop();
                if !self.flying {
                    break;
                }
                lf += df;
                lr += dr;
            }
        }
        if !went_on && !taken.is_empty() {
            let sq = |(f, r): (i32, i32)| Square::new(f as u8, r as u8);
            let mut set: Vec<Square> = taken.iter().map(|t| sq(*t)).collect();
            set.sort_by_key(|s| s.index(8));
            self.out.push((sq(self.from), sq(cur), set, kings));
        }
    }
}

/// Every legal move of `pos`, deduplicated by (from, to, taken set), sorted.
pub fn moves(pos: &Position) -> BTreeSet<(usize, usize, Vec<usize>)> {
    let mut grid: Grid = [[None; 8]; 8];
    for (s, p) in pos.pieces() {
        grid[s.file as usize][s.rank as usize] = Some(p);
    }
    let me = pos.turn();
    let mut caps = Vec::new();
    for (s, p) in pos.pieces().into_iter().filter(|(_, p)| p.color == me) {
        let from = (i32::from(s.file), i32::from(s.rank));
        let mut search = Search {
            grid: &grid,
            me,
            from,
            king: p.king,
            flying: p.king && pos.flying(),
            out: &mut caps,
        };
        search.dfs(from, &mut Vec::new(), 0);
    }
    let key = |m: &RefMove| {
        (
            m.0.index(8),
            m.1.index(8),
            m.2.iter().map(|s| s.index(8)).collect::<Vec<_>>(),
        )
    };
    if let Some(best) = caps.iter().map(|m| (m.2.len(), m.3)).max() {
        return caps
            .iter()
            .filter(|m| (m.2.len(), m.3) == best)
            .map(key)
            .collect();
    }
    let mut quiet = BTreeSet::new();
    let fwd = if me == Color::White { 1 } else { -1 };
    for (s, p) in pos.pieces().into_iter().filter(|(_, p)| p.color == me) {
        let (f, r) = (i32::from(s.file), i32::from(s.rank));
        let dirs: Vec<(i32, i32)> = if p.king {
            vec![(1, 1), (-1, 1), (1, -1), (-1, -1)]
        } else {
            vec![(1, fwd), (-1, fwd)]
        };
        for (df, dr) in dirs {
            let (mut tf, mut tr) = (f + df, r + dr);
            while on(tf, tr) && grid[tf as usize][tr as usize].is_none() {
                quiet.insert((
                    s.index(8),
                    Square::new(tf as u8, tr as u8).index(8),
                    Vec::new(),
                ));
                if !(p.king && pos.flying()) {
                    break;
                }
                tf += df;
                tr += dr;
            }
        }
    }
    quiet
}
