//! The transposition table: what a search learned about a position (its best move, a score
//! and whether that score is exact or a bound), found again by the position's key when
//! another move order reaches it. One entry per slot, kept when deeper or newer.

/// How a stored score bounds the true one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    Exact,
    /// The true score is at least this (a cut-off: the move was too good).
    Lower,
    /// The true score is at most this (no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub key: u64,
    pub best: u32,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
}

pub(crate) struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        let n = 1usize << bits;
        Table {
            slots: vec![None; n],
            mask: n - 1,
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        // The low bits index; the whole key is compared on a probe.
        (key as usize) & self.mask
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.slot(key)].filter(|e| e.key == key)
    }

    pub fn store(&mut self, e: Entry) {
        let i = self.slot(e.key);
        let keep = self.slots[i].is_some_and(|old| old.key != e.key && old.depth > e.depth + 2);
        if !keep {
            self.slots[i] = Some(e);
        }
    }
}
