//! The training room's solo crossing (RULES.md, training room): White alone, the turn never
//! passes, and the task is to fill the far corner in as few moves as possible.
//!
//! One-player search, not minimax: a beam search finds a short route (the positions of each
//! depth, ranked by how far the pieces still have to go, the best `width` kept); an
//! iterative-deepening search then tries to prove that nothing shorter exists, each piece
//! outside the target needing at least a move of its own. A route is *shortest* when that
//! proof completes, or when it matches the proven minimum of RULES.md for a start position.

use crate::color::Color;
use crate::corners::{Move, Position, Variant};
use crate::square::Square;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Piece sets are already well mixed bits: a multiply-fold hash (as rustc's `FxHasher`)
/// is enough, and several times cheaper than the default `SipHash` on this hot path.
#[derive(Default)]
struct Fold(u64);

impl Hasher for Fold {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type Set = HashSet<[u64; 4], BuildHasherDefault<Fold>>;
type Map = HashMap<[u64; 4], u32, BuildHasherDefault<Fold>>;

/// RULES.md (training room): the fewest moves that cross from the start, by exhaustive
/// search, for the home shapes and move sets where it is known.
const PROVEN_MINIMA: [(&str, u16); 3] = [("classic3x3", 22), ("diagonal3x3", 15), ("triangle", 18)];

/// The proven minimum crossing from the start of `variant`, where one is known: its board,
/// home shape and directions are those of a variant with a proven figure (the deadline,
/// limit and blocking rule do not bear on a solo; Halma's target lock could, so it is off).
#[must_use]
pub fn proven_minimum(variant: &Variant) -> Option<u16> {
    if variant.target_lock {
        return None;
    }
    PROVEN_MINIMA.iter().find_map(|(id, n)| {
        let known = Variant::by_id(id).ok()?;
        (known.side == variant.side
            && known.directions == variant.directions
            && known.white_home == variant.white_home)
            .then_some(*n)
    })
}

/// A way across from a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub moves: Vec<Move>,
    /// Proven to be as short as any (None: not known either way).
    pub shortest: bool,
}

/// What a solo search may spend.
#[derive(Clone, Copy, Debug)]
pub struct SoloBudget {
    /// Positions kept per depth by the beam.
    pub width: usize,
    /// Positions the proof may visit.
    pub proof_nodes: u64,
}

impl SoloBudget {
    /// A hint's budget: well under a second.
    pub const HINT: SoloBudget = SoloBudget {
        width: 2_000,
        proof_nodes: 300_000,
    };
    /// A review's, for each position of a crossing: a route, not a proof.
    pub const REVIEW: SoloBudget = SoloBudget {
        width: 500,
        proof_nodes: 0,
    };
}

/// The fixed facts of one board: how far each square is from the target.
struct Ctx {
    /// Per square: steps to the nearest target square (0 inside).
    to_target: Vec<u32>,
    /// Per square: steps to the target's far corner (pieces head deep, leaving room).
    to_corner: Vec<u32>,
}

impl Ctx {
    fn new(pos: &Position) -> Ctx {
        let sets = pos.sets();
        let w = sets.width;
        let targets: Vec<Square> = squares(&sets.home[1], w);
        let dist = |a: Square, b: Square| -> u32 {
            let df = u32::from(a.file.abs_diff(b.file));
            let dr = u32::from(a.rank.abs_diff(b.rank));
            if sets.diagonal {
                df.max(dr)
            } else {
                df + dr
            }
        };
        let corner = Square::new(w - 1, w - 1);
        let n = usize::from(w) * usize::from(w);
        let mut to_target = Vec::with_capacity(n);
        let mut to_corner = Vec::with_capacity(n);
        for i in 0..n {
            let s = Square::from_index(i, w);
            to_target.push(targets.iter().map(|t| dist(s, *t)).min().unwrap_or(0));
            to_corner.push(dist(s, corner));
        }
        Ctx {
            to_target,
            to_corner,
        }
    }

    /// How far the pieces still have to go, in tenths of a step: the way to the target
    /// counts most, heading for its far corner breaks ties.
    fn distance(&self, pos: &Position) -> u32 {
        let sets = pos.sets();
        let mut total = 0;
        for (l, &limb) in sets.pieces[0].iter().enumerate() {
            let mut b = limb;
            while b != 0 {
                let i = l * 64 + b.trailing_zeros() as usize;
                total += self.to_target[i] * 10 + self.to_corner[i];
                b &= b - 1;
            }
        }
        total
    }

    fn key(pos: &Position) -> [u64; 4] {
        pos.sets().pieces[0]
    }
}

fn squares(limbs: &[u64; 4], w: u8) -> Vec<Square> {
    let mut out = Vec::new();
    for (l, &limb) in limbs.iter().enumerate() {
        let mut b = limb;
        while b != 0 {
            out.push(Square::from_index(l * 64 + b.trailing_zeros() as usize, w));
            b &= b - 1;
        }
    }
    out
}

fn crossed(pos: &Position) -> bool {
    pos.target_complete(Color::White)
}

/// Pieces outside the target: each needs a move of its own, so no route is shorter.
fn lower_bound(pos: &Position) -> u32 {
    let sets = pos.sets();
    sets.pieces[0]
        .iter()
        .zip(sets.home[1].iter())
        .map(|(p, t)| (p & !t).count_ones())
        .sum()
}

/// The moves the search looks at: those the rules allow.
fn moves(pos: &Position) -> Vec<Move> {
    pos.legal_moves()
}

/// A short route across from `pos` (a solo position), and whether it is proven shortest.
/// None when `pos` is not a solo position, or no route was found within the budget.
#[must_use]
pub fn route(pos: &Position, budget: SoloBudget) -> Option<Route> {
    if !pos.is_solo() {
        return None;
    }
    if crossed(pos) {
        return Some(Route {
            moves: Vec::new(),
            shortest: true,
        });
    }
    let ctx = Ctx::new(pos);
    let max_depth = usize::from(pos.limit().map_or(400, |l| {
        l.saturating_sub(pos.move_number()).saturating_add(1)
    }));
    let found = beam(pos, &ctx, budget.width, max_depth)?;
    // Try to prove it, or find shorter, below its length.
    let mut proof = Proof {
        nodes: 0,
        limit: budget.proof_nodes,
        best_depth: Map::default(),
        path: Vec::new(),
    };
    Some(match proof.shortest(pos, found.len()) {
        Proved::Shorter(moves) => Route {
            moves,
            shortest: true,
        },
        Proved::NoneShorter => Route {
            moves: found,
            shortest: true,
        },
        Proved::Unknown => Route {
            moves: found,
            shortest: false,
        },
    })
}

/// One position of a beam layer and how it was reached.
struct Entry {
    pos: Position,
    /// Index in the layer before.
    parent: usize,
    mv: Move,
}

/// The beam: depth by depth, the `width` positions nearest the target.
fn beam(start: &Position, ctx: &Ctx, width: usize, max_depth: usize) -> Option<Vec<Move>> {
    let mut layers: Vec<Vec<Entry>> = Vec::new();
    let mut seen = Set::default();
    seen.insert(Ctx::key(start));
    let mut frontier = vec![*start];
    for _ in 0..max_depth {
        let mut next: Vec<(u32, Entry)> = Vec::new();
        for (parent, pos) in frontier.iter().enumerate() {
            for mv in moves(pos) {
                let child = pos.play_unchecked(mv);
                if !seen.insert(Ctx::key(&child)) {
                    continue;
                }
                let entry = Entry {
                    pos: child,
                    parent,
                    mv,
                };
                if crossed(&child) {
                    layers.push(vec![entry]);
                    return Some(walk_back(&layers));
                }
                next.push((ctx.distance(&child), entry));
            }
        }
        if next.is_empty() {
            return None;
        }
        next.sort_by_key(|(d, _)| *d);
        next.truncate(width.max(1));
        frontier = next.iter().map(|(_, e)| e.pos).collect();
        layers.push(next.into_iter().map(|(_, e)| e).collect());
    }
    None
}

/// The moves to the last layer's only entry, first move first.
fn walk_back(layers: &[Vec<Entry>]) -> Vec<Move> {
    let mut out = Vec::with_capacity(layers.len());
    let mut at = 0;
    for layer in layers.iter().rev() {
        let e = &layer[at];
        out.push(e.mv);
        at = e.parent;
    }
    out.reverse();
    out
}

/// Iterative deepening below a known route's length, with the pieces-outside bound and a
/// table of the fewest moves each position was reached in (a position reached again no
/// sooner has nothing new below it).
struct Proof {
    nodes: u64,
    limit: u64,
    best_depth: Map,
    path: Vec<Move>,
}

impl Proof {
    /// Whether a route shorter than `known` moves exists (the shortest, if so).
    fn shortest(&mut self, start: &Position, known: usize) -> Proved {
        let known = u32::try_from(known).unwrap_or(u32::MAX);
        let mut bound = lower_bound(start);
        while bound < known {
            self.best_depth.clear();
            self.path.clear();
            match self.dfs(start, 0, bound) {
                Step::Found => return Proved::Shorter(std::mem::take(&mut self.path)),
                Step::Exhausted => bound += 1,
                Step::OutOfBudget => return Proved::Unknown,
            }
        }
        Proved::NoneShorter
    }

    fn dfs(&mut self, pos: &Position, g: u32, bound: u32) -> Step {
        if crossed(pos) {
            return Step::Found;
        }
        if g + lower_bound(pos) > bound {
            return Step::Exhausted;
        }
        self.nodes += 1;
        if self.nodes > self.limit {
            return Step::OutOfBudget;
        }
        let key = Ctx::key(pos);
        match self.best_depth.get(&key) {
            Some(&d) if d <= g => return Step::Exhausted,
            _ => {
                self.best_depth.insert(key, g);
            }
        }
        for mv in moves(pos) {
            self.path.push(mv);
            match self.dfs(&pos.play_unchecked(mv), g + 1, bound) {
                Step::Exhausted => {
                    self.path.pop();
                }
                other => return other,
            }
        }
        Step::Exhausted
    }
}

/// What the proof came to.
enum Proved {
    /// A route shorter than the known one, and none shorter than it.
    Shorter(Vec<Move>),
    /// Nothing shorter than the known route.
    NoneShorter,
    /// The budget ran out first.
    Unknown,
}

enum Step {
    Found,
    Exhausted,
    OutOfBudget,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solo_of(id: &str) -> Variant {
        Variant::by_id(id).unwrap().for_training(true).unwrap()
    }

    fn solo(id: &str) -> Position {
        Position::start(&solo_of(id))
    }

    /// `moves` from `pos`, each checked by the rules; the position reached.
    fn replay(pos: &Position, moves: &[Move]) -> Position {
        moves
            .iter()
            .fold(*pos, |p, m| p.play(*m).expect("a legal move"))
    }

    #[test]
    fn proven_minima_are_those_of_rules_md_for_their_shapes_only() {
        assert_eq!(proven_minimum(&solo_of("classic3x3")), Some(22));
        assert_eq!(proven_minimum(&solo_of("diagonal3x3")), Some(15));
        assert_eq!(proven_minimum(&solo_of("triangle")), Some(18));
        // The shape and the directions decide it, whatever the base was called.
        assert_eq!(
            proven_minimum(&Variant::by_id("training:classic3x3,diag,solo").unwrap()),
            Some(15)
        );
        assert_eq!(proven_minimum(&solo_of("classic3x4")), None);
        assert_eq!(
            proven_minimum(&Variant::by_id("training:classic3x3,home=a1-b2,solo").unwrap()),
            None
        );
    }

    #[test]
    fn the_beam_crosses_every_standard_variant_legally() {
        for id in crate::corners::STANDARD_IDS {
            let start = solo(id);
            let r = route(
                &start,
                SoloBudget {
                    width: 100,
                    proof_nodes: 1_000,
                },
            )
            .unwrap_or_else(|| panic!("{id}: no route"));
            let end = replay(&start, &r.moves);
            assert!(crossed(&end), "{id}: the route fills the target");
            assert!(end.is_solo() && end.turn() == Color::White);
            if let Some(min) = proven_minimum(&solo_of(id)) {
                assert!(r.moves.len() >= usize::from(min), "{id}: below the minimum");
            }
        }
    }

    #[test]
    fn near_the_end_the_route_is_proven_shortest() {
        // Three moves from the end of a 22-move crossing: the proof covers every shorter
        // line and finds none.
        let line = [
            "c2-c4",
            "c3-c5",
            "c5-d5",
            "a3-c3-c5-e5",
            "e5-e6",
            "a1-a3-c3-c5-e5-e7",
            "e7-f7",
            "c1-a1-a3-c3-c5-e5-e7-g7",
            "g7-g8",
            "b2-b4-d4-d6-f6-f8-h8",
            "a2-a3",
            "a3-c3-c5-e5-e7-g7",
            "b1-b2",
            "h8-h7",
            "b2-b4-d4-d6-f6-f8-h8-h6",
            "b3-b4",
            "b4-d4-d6-f6-f8-h8",
            "c4-d4",
            "d4-d6-f6-f8",
        ];
        let mut g = crate::corners::Game::new(&solo_of("classic3x3"));
        for m in line {
            g.play_text(m).unwrap();
        }
        let pos = *g.position();
        let r = route(&pos, SoloBudget::HINT).expect("a route");
        assert_eq!(r.moves.len(), 3);
        assert!(r.shortest);
        assert!(crossed(&replay(&pos, &r.moves)));
    }

    #[test]
    fn a_two_sided_position_has_no_solo_route() {
        let pos = Position::start(&Variant::classic3x3());
        assert_eq!(route(&pos, SoloBudget::HINT), None);
    }

    #[test]
    #[ignore = "a measurement: cargo test --release -p ugolki-core --lib -- --ignored solo_widths --nocapture"]
    fn solo_widths() {
        for id in ["classic3x3", "diagonal3x3", "triangle"] {
            let pos = solo(id);
            let ctx = Ctx::new(&pos);
            for width in [1_000, 10_000, 50_000] {
                let t = std::time::Instant::now();
                let r = beam(&pos, &ctx, width, 80).map(|m| m.len());
                println!("{id} width {width}: {r:?} in {:?}", t.elapsed());
            }
        }
    }
}
