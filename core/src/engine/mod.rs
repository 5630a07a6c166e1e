//! The built-in opponent, for both games: an iterative-deepening alpha-beta search with a
//! transposition table (`search.rs`, `tt.rs`, `zobrist.rs`) over each game's evaluation
//! (`corners.rs`, `damas.rs`). Pure: no I/O; the only outside fact it reads is the clock,
//! and only when its budget has a time limit.
//!
//! Levels 1–5 run from "beginner" (one ply, choosing at random among moves that are
//! roughly as good as the best) to "strongest" (the whole time budget, always the best).

mod corners;
mod damas;
mod search;
pub mod solo;
mod tt;
mod zobrist;

pub use search::{Budget, Stats};

use crate::game::Game;
use search::{Found, Node, Search};

/// How long level 5 thinks by default (ms): well under a second on a small machine.
pub const DEFAULT_MS: u64 = 500;

/// A strength, 1 (beginner) to 5 (strongest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    pub const WEAKEST: Level = Level(1);
    pub const STRONGEST: Level = Level(5);

    /// A level by its number, if it is one.
    #[must_use]
    pub fn new(n: u8) -> Option<Level> {
        (1..=5).contains(&n).then_some(Level(n))
    }

    #[must_use]
    pub fn number(self) -> u8 {
        self.0
    }

    /// What the level may spend, and how far below the best a move it picks may score.
    #[must_use]
    pub fn settings(self, seed: u64) -> Settings {
        let (depth, nodes, millis, slack) = match self.0 {
            1 => (1, 5_000, None, 250),
            2 => (2, 20_000, None, 80),
            3 => (4, 100_000, None, 20),
            4 => (6, 400_000, Some(DEFAULT_MS / 2), 0),
            _ => (64, u64::MAX, Some(DEFAULT_MS), 0),
        };
        Settings {
            budget: Budget {
                depth,
                nodes,
                millis,
            },
            slack,
            seed,
        }
    }
}

/// How to choose a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub budget: Budget,
    /// Choose at random among moves within this many points of the best (0: the best).
    pub slack: i32,
    /// The randomness's seed (the same seed, the same choice).
    pub seed: u64,
}

impl Settings {
    /// The full search for `millis` ms, always the best move.
    #[must_use]
    pub fn timed(millis: u64) -> Settings {
        Settings {
            budget: Budget {
                depth: 64,
                nodes: u64::MAX,
                millis: Some(millis),
            },
            slack: 0,
            seed: 0,
        }
    }

    /// A reproducible search: at most `nodes` positions, no clock.
    #[must_use]
    pub fn nodes(nodes: u64) -> Settings {
        Settings {
            budget: Budget {
                depth: 64,
                nodes,
                millis: None,
            },
            slack: 0,
            seed: 0,
        }
    }
}

/// The engine's move and what it thinks of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move in notation, as the game records it (`c3-e3-e5`, `b3xd5`).
    pub text: String,
    /// The position's worth for the side to move, in hundredths of a man (Damas) or tenths
    /// of a step (Corners); `±1,000,000 − plies` for a forced win or loss.
    pub score: i32,
    pub stats: Stats,
}

/// A forced win (positive) or loss for the side to move, not an evaluation.
#[must_use]
pub fn is_decisive(score: i32) -> bool {
    search::is_decisive(score)
}

/// The engine's move in `game` for the side to move (None: the game is over or has none).
#[must_use]
pub fn choose(game: &Game, settings: Settings) -> Option<Choice> {
    match game {
        Game::Corners(g) => {
            if g.outcome().is_some() {
                return None;
            }
            let pos = *g.position();
            let ctx = corners::Ctx::new(&pos);
            pick(&corners::CornersNode(pos), &ctx, settings).map(|(m, score, stats)| Choice {
                text: crate::notation::join_path(&pos.path(m), "-"),
                score,
                stats,
            })
        }
        Game::Damas(g) => {
            if g.outcome().is_some() {
                return None;
            }
            let pos = *g.position();
            pick(&damas::DamasNode(pos), &(), settings).map(|(m, score, stats)| Choice {
                text: m.to_string(),
                score,
                stats,
            })
        }
    }
}

/// What the engine makes of a move played: its own choice in that position and what each
/// is worth to the mover, searched to the same depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The engine's move, in notation.
    pub best: String,
    /// Its worth to the mover (the units of [`Choice::score`]).
    pub best_score: i32,
    /// The played move's worth to the mover, at the same depth.
    pub played_score: i32,
    pub depth: u8,
}

/// The engine's judgement of the move that made `after` from `before` (the next move
/// of `before`'s record), on a budget of `nodes` (no clock: the same game, the same
/// judgement). A move that ended the game is worth its result, whether or not the search
/// sees that ending (it does not see repetitions). `None` when `after` has no next move
/// after `before`'s, that move is not legal there, or the game was over before it.
#[must_use]
pub fn judge(before: &Game, after: &Game, nodes: u64) -> Option<Judgement> {
    let budget = Settings::nodes(nodes).budget;
    let mover = before.turn();
    // A result is worth a win or a loss at the next ply, as the search scores one it sees.
    let ended = after.ending().map(|e| match e.winner {
        Some(w) if w == mover => search::MATE - 1,
        Some(_) => -(search::MATE - 1),
        None => 0,
    });
    let judged = |best: String, (best_score, played_score, depth): (i32, i32, u8)| Judgement {
        best,
        best_score,
        played_score,
        depth,
    };
    match (before, after) {
        (Game::Corners(was), Game::Corners(now)) if was.outcome().is_none() => {
            let played = now.moves().get(was.moves().len())?.mv;
            let pos = *was.position();
            let ctx = corners::Ctx::new(&pos);
            let (best, scores) =
                Search::new(&ctx, budget).judge(&corners::CornersNode(pos), &played, ended)?;
            let best = crate::notation::join_path(&pos.path(best), "-");
            Some(judged(best, scores))
        }
        (Game::Damas(was), Game::Damas(now)) if was.outcome().is_none() => {
            let played = *now.moves().get(was.moves().len())?;
            let pos = *was.position();
            let (best, scores) =
                Search::new(&(), budget).judge(&damas::DamasNode(pos), &played, ended)?;
            Some(judged(best.to_string(), scores))
        }
        _ => None,
    }
}

/// The engine's score of every legal move at a shallow `depth`, best first: (move, score
/// for the side to move).
#[must_use]
pub fn score_moves(game: &Game, depth: u8) -> Vec<(String, i32)> {
    let budget = Budget {
        depth,
        nodes: u64::MAX,
        millis: None,
    };
    let mut out = match game {
        Game::Corners(g) if g.outcome().is_none() => {
            let pos = *g.position();
            let ctx = corners::Ctx::new(&pos);
            Search::new(&ctx, budget)
                .score_all(&corners::CornersNode(pos), depth)
                .into_iter()
                .map(|(m, s)| (crate::notation::join_path(&pos.path(m), "-"), s))
                .collect()
        }
        Game::Damas(g) if g.outcome().is_none() => {
            let pos = *g.position();
            Search::new(&(), budget)
                .score_all(&damas::DamasNode(pos), depth)
                .into_iter()
                .map(|(m, s)| (m.to_string(), s))
                .collect()
        }
        _ => Vec::new(),
    };
    out.sort_by_key(|(_, s)| std::cmp::Reverse(*s));
    out
}

fn pick<N: Node>(root: &N, ctx: &N::Ctx, s: Settings) -> Option<(N::Move, i32, Stats)> {
    let mut search = Search::new(ctx, s.budget);
    let found: Found<N::Move> = search.run(root)?;
    let mut best = (found.best, found.score);
    let mut nodes = search.nodes;
    if s.slack > 0 {
        // A weaker level: a random move among those close to the best, each scored by a
        // search as deep as the level's, on a budget of its own. The best move is always
        // among them, and moves the budget left unscored are not chosen.
        let mut scoring = Search::new(ctx, s.budget);
        let mut scored = scoring.score_all(root, found.depth.max(1));
        nodes += scoring.nodes;
        if !scored.iter().any(|(m, _)| *m == found.best) {
            scored.push((found.best, found.score));
        }
        let top = scored
            .iter()
            .map(|(_, sc)| *sc)
            .max()
            .unwrap_or(found.score);
        let near: Vec<_> = scored
            .iter()
            .filter(|(_, sc)| *sc >= top - s.slack)
            .collect();
        if !near.is_empty() {
            let r = splitmix(s.seed) % near.len() as u64;
            let (m, sc) = near[usize::try_from(r).unwrap_or(0)];
            best = (*m, *sc);
        }
    }
    let stats = Stats {
        nodes,
        depth: found.depth,
        millis: search.elapsed_ms(),
    };
    Some((best.0, best.1, stats))
}

/// One step of `splitmix64`: a seed's random number.
#[must_use]
pub fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The automatic move the table plays when a Damas `movetime` runs out (D6): the engine at
/// a fixed node budget, so the same position always gets the same move.
#[must_use]
pub fn damas_auto_move(pos: &crate::damas::Position) -> Option<crate::damas::Move> {
    let found =
        Search::new(&(), Settings::nodes(AUTO_MOVE_NODES).budget).run(&damas::DamasNode(*pos))?;
    Some(found.best)
}

/// The automatic move's budget: a few milliseconds.
const AUTO_MOVE_NODES: u64 = 20_000;

#[cfg(test)]
mod tests;
