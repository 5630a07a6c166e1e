//! The Corners rules on bitboards, generic over the board width (`u64` 8×8, `U256` 16×16).
//!
//! Everything here is set-wise: steps are shifts, a jump chain is a flood fill over the jump
//! graph (pieces never move while a chain is made, so the graph is fixed and the squares a
//! chain can reach are its closure), and "is this piece blocked" (C8) is answered for every
//! piece at once. Nothing allocates on the move-generation path.

use crate::bits::{Bits, Dir};
use crate::color::Color;

/// The variant's rules in the form move generation wants them (see `Variant` for the data).
// Each flag is one rule of C10's table, on or off for a variant.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Rules<B> {
    /// Home squares per side (index by `Color::index`); each side's target is the other's home.
    pub home: [B; 2],
    /// Eight directions (diagonal variants, Halma) rather than four.
    pub diagonal: bool,
    /// C8: a move may not newly block an opponent piece.
    pub no_blocking: bool,
    /// C6: every piece must have left home after Black's move with this number; 0 = no rule.
    pub deadline: u16,
    /// C7: the game ends after Black's move with this number; 0 = no limit.
    pub limit: u16,
    /// Halma: a piece that stands in its target never leaves it.
    pub target_lock: bool,
    /// Training solo: White alone; the turn never passes and every move has its number.
    pub solo: bool,
}

impl<B: Bits> Rules<B> {
    #[inline(always)]
    pub fn dirs(&self) -> &'static [Dir] {
        if self.diagonal {
            &Dir::ALL
        } else {
            &Dir::ORTHOGONAL
        }
    }

    #[inline(always)]
    pub fn target(&self, side: Color) -> B {
        self.home[side.opponent().index()]
    }
}

/// A Corners position: both sides' pieces, whose turn, and the number of the move to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Board<B> {
    pub pieces: [B; 2],
    pub turn: Color,
    pub move_no: u16,
    pub rules: Rules<B>,
}

/// What the no-blocking check (C8) needs about the opponent, computed once per position.
#[derive(Clone, Copy)]
struct BlockWatch<B> {
    /// Opponent pieces that can still move: the ones a move must not freeze.
    free: B,
    /// Squares within two steps of such a piece: only a move ending here can freeze one.
    near: B,
}

impl<B: Bits> Board<B> {
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.pieces[0] | self.pieces[1]
    }

    /// Pieces of `set` that can step or jump somewhere, with `occ` the occupied squares.
    /// Purely geometric (C8): the other rules do not enter into it.
    #[inline]
    pub fn mobile(&self, set: B, occ: B) -> B {
        let empty = !occ;
        let mut m = B::EMPTY;
        for &d in self.rules.dirs() {
            let back = d.reverse();
            let step = empty.shift(back); // the neighbour in d is empty
            let jump = (occ & step).shift(back); // neighbour occupied, the square behind empty
            m |= step | jump;
        }
        set & m
    }

    /// Pieces of `side` that can neither step nor jump (C8's "blocked").
    pub fn blocked(&self, side: Color) -> B {
        let own = self.pieces[side.index()];
        own & !self.mobile(own, self.occupied())
    }

    /// The squares that stop the piece on `sq`: occupied neighbours in the step directions
    /// and the occupied squares behind them.
    pub fn stoppers(&self, sq: usize) -> B {
        let occ = self.occupied();
        let mut s = B::EMPTY;
        for &d in self.rules.dirs() {
            let n = B::bit(sq).shift(d);
            if (n & occ).any() {
                s |= n | (n.shift(d) & occ);
            }
        }
        s
    }

    fn block_watch(&self) -> Option<BlockWatch<B>> {
        if !self.rules.no_blocking {
            return None;
        }
        let theirs = self.pieces[self.turn.opponent().index()];
        let free = self.mobile(theirs, self.occupied());
        let mut near = B::EMPTY;
        for &d in self.rules.dirs() {
            let one = free.shift(d);
            near |= one | one.shift(d);
        }
        Some(BlockWatch { free, near })
    }

    /// Opponent pieces that the move `from`→`to` would newly block (C8), whoever the rules.
    /// Only the arrival on `to` can freeze a piece, so this is the whole test.
    #[inline]
    fn frozen_by(&self, watch: &BlockWatch<B>, from: usize, to: usize) -> B {
        let occ = self.occupied() ^ B::bit(from) ^ B::bit(to);
        watch.free & !self.mobile(watch.free, occ)
    }

    /// Squares the piece on `from` may land on with a jump chain (any length ≥ 1).
    #[inline]
    pub fn jump_targets(&self, from: usize, allowed: B) -> B {
        let start = B::bit(from);
        let occ = self.occupied() ^ start; // the piece has left its square
        let landing = !occ & allowed;
        let mut seen = start;
        let mut frontier = start;
        loop {
            let mut next = B::EMPTY;
            for &d in self.rules.dirs() {
                next |= (frontier.shift(d) & occ).shift(d);
            }
            next &= landing & !seen;
            if next.is_empty() {
                return seen ^ start;
            }
            seen |= next;
            frontier = next;
        }
    }

    /// Where the piece on `from` may go at all (Halma's lock applied): squares it may land on.
    #[inline(always)]
    fn allowed_for(&self, from: usize) -> B {
        let target = self.rules.target(self.turn);
        if self.rules.target_lock && target.has(from) {
            target
        } else {
            B::FULL
        }
    }

    #[inline(always)]
    fn step_targets(&self, from: usize, allowed: B) -> B {
        let start = B::bit(from);
        let empty = !self.occupied() & allowed;
        let mut t = B::EMPTY;
        for &d in self.rules.dirs() {
            t |= start.shift(d);
        }
        t & empty
    }

    /// Destinations of the piece on `from` before the no-blocking filter.
    #[inline(always)]
    fn raw_destinations(&self, from: usize) -> B {
        let allowed = self.allowed_for(from);
        self.step_targets(from, allowed) | self.jump_targets(from, allowed)
    }

    #[inline(always)]
    fn filter_blocking(&self, watch: Option<&BlockWatch<B>>, from: usize, dests: B) -> B {
        let Some(w) = watch else { return dests };
        let mut out = dests;
        for to in (dests & w.near).squares() {
            if self.frozen_by(w, from, to).any() {
                out ^= B::bit(to);
            }
        }
        out
    }

    /// Legal destinations of the piece on `from` (which must be the mover's).
    pub fn destinations(&self, from: usize) -> B {
        let watch = self.block_watch();
        self.filter_blocking(watch.as_ref(), from, self.raw_destinations(from))
    }

    /// The first opponent piece (lowest square) the move would newly block, if any.
    pub fn would_block(&self, from: usize, to: usize) -> Option<usize> {
        let watch = self.block_watch()?;
        let frozen = self.frozen_by(&watch, from, to);
        frozen.any().then(|| frozen.first())
    }

    /// Call `f(from, to)` for every legal move, in (from, to) square order.
    #[inline]
    pub fn for_each_move(&self, mut f: impl FnMut(usize, usize)) {
        let watch = self.block_watch();
        for from in self.pieces[self.turn.index()].squares() {
            let dests = self.filter_blocking(watch.as_ref(), from, self.raw_destinations(from));
            for to in dests.squares() {
                f(from, to);
            }
        }
    }

    /// Number of legal moves.
    pub fn count_moves(&self) -> u64 {
        let watch = self.block_watch();
        let mut n = 0u64;
        for from in self.pieces[self.turn.index()].squares() {
            let dests = self.filter_blocking(watch.as_ref(), from, self.raw_destinations(from));
            n += u64::from(dests.count());
        }
        n
    }

    pub fn has_moves(&self) -> bool {
        let watch = self.block_watch();
        self.pieces[self.turn.index()].squares().any(|from| {
            self.filter_blocking(watch.as_ref(), from, self.raw_destinations(from))
                .any()
        })
    }

    /// The position after the mover's piece goes `from`→`to` (legality is the caller's).
    #[inline]
    #[must_use]
    pub fn play(&self, from: usize, to: usize) -> Board<B> {
        let mut next = *self;
        next.pieces[self.turn.index()] ^= B::bit(from) | B::bit(to);
        if self.rules.solo {
            // Nobody to answer: White moves again, and each move is a move of its own.
            next.move_no = self.move_no.saturating_add(1);
            return next;
        }
        if self.turn == Color::Black {
            next.move_no = self.move_no.saturating_add(1);
        }
        next.turn = self.turn.opponent();
        next
    }

    /// Leaf count of the legal-move tree to `depth` (moves identified by (from, to)).
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ => {
                let mut n = 0;
                self.for_each_move(|from, to| n += self.play(from, to).perft(depth - 1));
                n
            }
        }
    }

    /// The shortest jump chain `from`→`to` as landing squares (start included), choosing,
    /// walking back from `to`, the lowest-numbered square (a1, b1, … order) at each hop.
    pub fn jump_path(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        let start = B::bit(from);
        let occ = self.occupied() ^ start;
        let landing = !occ & self.allowed_for(from);
        let mut layers = vec![start];
        let mut seen = start;
        while !seen.has(to) {
            let frontier = *layers.last()?;
            let mut next = B::EMPTY;
            for &d in self.rules.dirs() {
                next |= (frontier.shift(d) & occ).shift(d);
            }
            next &= landing & !seen;
            if next.is_empty() {
                return None;
            }
            seen |= next;
            layers.push(next);
        }
        let mut path = vec![to];
        let mut cur = to;
        for layer in layers.iter().rev().skip(1) {
            let mut from_here = B::EMPTY;
            for &d in self.rules.dirs() {
                let back = d.reverse();
                from_here |= (B::bit(cur).shift(back) & occ).shift(back);
            }
            cur = (from_here & *layer).first();
            path.push(cur);
        }
        path.reverse();
        Some(path)
    }

    /// The middle square of a jump `a`→`b` if it is one in this variant's directions.
    pub fn jump_over(&self, a: usize, b: usize) -> Option<usize> {
        self.rules.dirs().iter().find_map(|&d| {
            let mid = B::bit(a).shift(d);
            (mid.shift(d) == B::bit(b) && mid.any()).then(|| mid.first())
        })
    }

    /// Whether `a` and `b` are neighbours in this variant's step directions.
    pub fn is_step(&self, a: usize, b: usize) -> bool {
        self.rules
            .dirs()
            .iter()
            .any(|&d| B::bit(a).shift(d) == B::bit(b))
    }

    /// Whether the piece on `from` is in its target under Halma's lock and `to` is outside.
    pub fn leaves_locked_target(&self, from: usize, to: usize) -> bool {
        let target = self.rules.target(self.turn);
        self.rules.target_lock && target.has(from) && !target.has(to)
    }

    /// C6: the move ends in the mover's own home after the deadline — it loses at once.
    pub fn returns_home_late(&self, to: usize) -> bool {
        self.rules.deadline != 0
            && self.move_no > self.rules.deadline
            && self.rules.home[self.turn.index()].has(to)
    }

    /// C6: pieces of `side` that still count as "at home" for the deadline — blocked pieces
    /// with an opponent among their stoppers are exempt where blocking is allowed.
    pub fn late_at_home(&self, side: Color) -> B {
        let at_home = self.pieces[side.index()] & self.rules.home[side.index()];
        if self.rules.no_blocking || at_home.is_empty() {
            return at_home;
        }
        let theirs = self.pieces[side.opponent().index()];
        let mut late = at_home;
        for sq in (at_home & self.blocked(side)).squares() {
            if (self.stoppers(sq) & theirs).any() {
                late ^= B::bit(sq);
            }
        }
        late
    }

    pub fn in_target(&self, side: Color) -> u32 {
        (self.pieces[side.index()] & self.rules.target(side)).count()
    }

    pub fn target_complete(&self, side: Color) -> bool {
        let target = self.rules.target(side);
        target.any() && (self.pieces[side.index()] & target) == target
    }
}
