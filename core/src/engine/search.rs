//! The search, the same for both games: iterative deepening over a principal-variation
//! alpha-beta (negamax), with a transposition table, the table's move first, then the
//! game's own ordering and a history of moves that caused cut-offs. It stops when its node
//! or time budget is spent and answers with the deepest iteration it finished.

use super::tt::{Bound, Entry, Table};
use crate::color::Color;
use std::time::Instant;

/// A won game scores `MATE - plies` for the winner (sooner is better).
pub(crate) const MATE: i32 = 1_000_000;
/// Scores beyond this are wins or losses found by the search, not evaluations.
const MATE_BOUND: i32 = MATE - 10_000;

/// How a move ended the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    Won(Color),
    Drawn,
}

impl End {
    pub fn of(winner: Option<Color>) -> End {
        winner.map_or(End::Drawn, End::Won)
    }
}

/// A game as the search sees it.
pub(crate) trait Node: Copy {
    type Move: Copy + PartialEq;
    /// What the evaluation needs that does not change during a game (targets, distances).
    type Ctx;
    fn legal(&self, out: &mut Vec<Self::Move>);
    /// The position after `m` and, when the move ends the game, its winner (None: a draw).
    fn after(&self, ctx: &Self::Ctx, m: &Self::Move) -> (Self, Option<End>);
    fn turn(&self) -> Color;
    fn key(&self) -> u64;
    /// The position's worth for the side to move (centipawn-like units).
    fn eval(&self, ctx: &Self::Ctx) -> i32;
    /// How promising `m` looks before searching it (higher first).
    fn order(&self, ctx: &Self::Ctx, m: &Self::Move) -> i32;
    /// A small number naming the move (for the history and the table): from × 256 + to.
    fn id(m: &Self::Move) -> u32;
    /// Whether the side to move has a capture pending (the search looks one ply further).
    fn noisy(&self, _moves: &[Self::Move]) -> bool {
        false
    }
    /// Whether a position at the horizon needs its moves generated before it is evaluated:
    /// to see that the side to move has none, or a capture to look past. `false` for a game
    /// whose `after` already ends the game when the side to move is left without a move,
    /// and which has nothing noisy (Corners: most positions searched are at the horizon).
    const MOVES_AT_HORIZON: bool = true;
}

/// When a search must stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Deepest iteration (plies).
    pub depth: u8,
    /// Positions visited at most.
    pub nodes: u64,
    /// Wall-clock milliseconds at most (None: no time limit, for reproducible searches).
    pub millis: Option<u64>,
}

/// What an iteration found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Found<M> {
    pub best: M,
    pub score: i32,
    pub depth: u8,
}

/// Counters of a finished search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub nodes: u64,
    pub depth: u8,
    pub millis: u64,
}

pub(crate) struct Search<'a, N: Node> {
    ctx: &'a N::Ctx,
    tt: Table,
    history: Vec<i32>,
    bufs: Vec<Vec<N::Move>>,
    /// Per ply, the moves with their ordering keys (reused, not allocated per position).
    keyed: Vec<Vec<(i32, N::Move)>>,
    budget: Budget,
    started: Instant,
    pub nodes: u64,
    stopped: bool,
    /// The deepest iteration that finished (a partial one after it may still change the
    /// move `run` answers with).
    completed: Option<Found<N::Move>>,
}

const MAX_PLY: usize = 128;

impl<'a, N: Node> Search<'a, N> {
    pub fn new(ctx: &'a N::Ctx, budget: Budget) -> Search<'a, N> {
        Search::with_table(ctx, budget, 18)
    }

    /// A search with a transposition table of `2^bits` entries (a small search, a small
    /// table: filling a big one costs more than the search).
    fn with_table(ctx: &'a N::Ctx, budget: Budget, bits: u32) -> Search<'a, N> {
        Search {
            ctx,
            tt: Table::new(bits),
            history: vec![0; 1 << 16],
            bufs: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            keyed: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            budget,
            started: Instant::now(),
            nodes: 0,
            stopped: false,
            completed: None,
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.budget.nodes {
            self.stopped = true;
        } else if self.nodes.trailing_zeros() >= 10 {
            if let Some(ms) = self.budget.millis {
                if self.started.elapsed().as_millis() >= u128::from(ms) {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    pub fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Every root move's score at `depth` (full window): for levels that choose among good
    /// moves, and for the review's "what the engine thinks of the move played".
    pub fn score_all(&mut self, root: &N, depth: u8) -> Vec<(N::Move, i32)> {
        let mut moves = Vec::new();
        root.legal(&mut moves);
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            let score = self.child_score(root, &m, i32::from(depth) - 1, 1, -MATE, MATE);
            if self.stopped {
                break;
            }
            out.push((m, score));
        }
        out
    }

    /// The engine's best move in `root` and what it and `played` are worth to the side to
    /// move, both searched to one depth: the deepest iteration the budget finishes (its
    /// best, not a later partial iteration's), less the root's ply. Scores from different
    /// depths are not comparable (a Corners search that ends on the mover's own ply counts
    /// one more move of theirs), so a move judged against the engine's choice is searched
    /// exactly as deep as the choice. `ended`: the played move's worth when it ended the game
    /// in a way the search does not see (a repetition). `None` when `played` is not legal
    /// in `root`, or re-searching the two moves outruns four budgets.
    pub fn judge(
        &mut self,
        root: &N,
        played: &N::Move,
        ended: Option<i32>,
    ) -> Option<(N::Move, (i32, i32, u8))> {
        let mut moves = Vec::new();
        root.legal(&mut moves);
        if !moves.contains(played) {
            return None;
        }
        self.run(root)?;
        let found = self.completed?;
        let depth = found.depth.max(1);
        let budget = Budget {
            depth,
            nodes: self.budget.nodes.saturating_mul(4),
            millis: None,
        };
        // A quarter of a million entries would hold far more than four budgets' nodes.
        let mut exact = Search::with_table(self.ctx, budget, 14);
        let d = i32::from(depth) - 1;
        let mut score = |m: &N::Move| match ended.filter(|_| m == played) {
            Some(v) => v,
            None => exact.child_score(root, m, d, 1, -MATE, MATE),
        };
        let best = score(&found.best);
        let mine = if *played == found.best {
            best
        } else {
            score(played)
        };
        (!exact.stopped).then_some((found.best, (best, mine, depth)))
    }

    /// Iterative deepening from `root`: the deepest finished iteration's best move.
    pub fn run(&mut self, root: &N) -> Option<Found<N::Move>> {
        let mut moves = Vec::new();
        root.legal(&mut moves);
        if moves.is_empty() {
            return None;
        }
        moves.sort_by_key(|m| -root.order(self.ctx, m));
        let mut found = Found {
            best: moves[0],
            score: 0,
            depth: 0,
        };
        for depth in 1..=self.budget.depth {
            let mut alpha = -MATE;
            let mut best = None;
            for (i, m) in moves.iter().enumerate() {
                let d = i32::from(depth) - 1;
                // The window is the root's own (`child_score` turns it for the child).
                let score = if i == 0 {
                    self.child_score(root, m, d, 1, alpha, MATE)
                } else {
                    let s = self.child_score(root, m, d, 1, alpha, alpha + 1);
                    if s > alpha && !self.stopped {
                        self.child_score(root, m, d, 1, alpha, MATE)
                    } else {
                        s
                    }
                };
                if self.stopped {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    best = Some(*m);
                }
            }
            if self.stopped && depth > 1 {
                // A partial iteration still counts if its first (previous best) move was
                // searched and another beat it.
                if let Some(b) = best {
                    if b != found.best {
                        found.best = b;
                        found.score = alpha;
                    }
                }
                break;
            }
            if let Some(b) = best {
                found = Found {
                    best: b,
                    score: alpha,
                    depth,
                };
                self.completed = Some(found);
                // The best move first in the next iteration.
                let at = moves.iter().position(|m| *m == b).unwrap_or(0);
                moves[..=at].rotate_right(1);
            }
            if self.stopped || alpha.abs() >= MATE_BOUND {
                break;
            }
        }
        Some(found)
    }

    /// The score of `m` played in `n`, for the side to move in `n`.
    fn child_score(
        &mut self,
        n: &N,
        m: &N::Move,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (child, end) = n.after(self.ctx, m);
        self.nodes += 1;
        match end {
            Some(End::Won(w)) if w == n.turn() => MATE - ply as i32,
            Some(End::Won(_)) => -(MATE - ply as i32),
            Some(End::Drawn) => 0,
            None => -self.negamax(&child, depth, ply, -beta, -alpha),
        }
    }

    fn negamax(&mut self, n: &N, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        if !N::MOVES_AT_HORIZON && (depth <= 0 || ply >= MAX_PLY - 1) {
            return n.eval(self.ctx);
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        moves.clear();
        n.legal(&mut moves);
        if moves.is_empty() {
            // No legal move: in both games (D5, C7 via `after`) a side with none has lost
            // unless the rules said otherwise when the move before was played.
            self.bufs[ply] = moves;
            return -(MATE - ply as i32);
        }
        let extend = depth <= 0 && ply < MAX_PLY - 2 && n.noisy(&moves);
        if (depth <= 0 && !extend) || ply >= MAX_PLY - 1 {
            self.bufs[ply] = moves;
            return n.eval(self.ctx);
        }
        let depth = if extend { 1 } else { depth };
        let key = n.key();
        let original_alpha = alpha;
        let mut tt_best = None;
        if let Some(e) = self.tt.probe(key) {
            tt_best = Some(e.best);
            if i32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply);
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if usable {
                    self.bufs[ply] = moves;
                    return s;
                }
            }
        }
        // Order: the table's move, then the game's guess plus the history.
        let mut keyed = std::mem::take(&mut self.keyed[ply]);
        keyed.clear();
        keyed.extend(moves.iter().map(|m| {
            let id = N::id(m);
            let k = if Some(id) == tt_best {
                i32::MAX
            } else {
                n.order(self.ctx, m) * 64 + self.history[id as usize & 0xFFFF].min(1 << 20)
            };
            (k, *m)
        }));
        keyed.sort_unstable_by_key(|(k, _)| std::cmp::Reverse(*k));
        let mut best = -MATE;
        let mut best_id = N::id(&keyed[0].1);
        for (i, (_, m)) in keyed.iter().enumerate() {
            let score = if i == 0 {
                self.child_score(n, m, depth - 1, ply + 1, alpha, beta)
            } else {
                let s = self.child_score(n, m, depth - 1, ply + 1, alpha, alpha + 1);
                if s > alpha && s < beta && !self.stopped {
                    self.child_score(n, m, depth - 1, ply + 1, alpha, beta)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_id = N::id(m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                let h = &mut self.history[N::id(m) as usize & 0xFFFF];
                *h = h.saturating_add(depth * depth);
                break;
            }
        }
        self.bufs[ply] = moves;
        self.keyed[ply] = keyed;
        if !self.stopped {
            let bound = if best <= original_alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.tt.store(Entry {
                key,
                best: best_id,
                score: to_tt(best, ply),
                depth: i16::try_from(depth).unwrap_or(i16::MAX),
                bound,
            });
        }
        best
    }
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    let p = ply as i32;
    if score >= MATE_BOUND {
        score + p
    } else if score <= -MATE_BOUND {
        score - p
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    let p = ply as i32;
    if score >= MATE_BOUND {
        score - p
    } else if score <= -MATE_BOUND {
        score + p
    } else {
        score
    }
}

/// Whether a score is a forced win or loss.
pub(crate) fn is_decisive(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}
