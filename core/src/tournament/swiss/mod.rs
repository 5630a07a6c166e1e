//! The Swiss pairer. The rules it implements, in order of priority:
//!
//! 1. **No pair twice.** Two entrants who have met are not paired again while any pairing
//!    of the round without a repeat exists.
//! 2. **One bye each.** With an odd number of entrants, the lowest-ranked entrant who has
//!    not had a bye sits the round out and scores a point (a bye goes to someone who had one
//!    only when every entrant has).
//! 3. **Colours within one.** An entrant who has had one white more than blacks is not
//!    paired with another such (nor one black more with another such), so that the one with
//!    more blacks takes white and nobody's whites and blacks differ by more than one — while
//!    such a pairing exists.
//! 4. **By score.** Entrants are ranked by score, then rating, then order of joining, and
//!    each in turn, from the top, is paired with the next-ranked entrant the rules above
//!    allow (Monrad's way: the closest in the ranking first), backtracking when a choice
//!    leaves the rest unpairable.
//!
//! Colours: the entrant with fewer whites than blacks (counted against each other) takes
//! white; when equal, the one who had black last; when that is equal too, the higher-ranked
//! takes the colour it did not have last (white in the first round).

use super::{Entrant, Pairing, Played};
use crate::Color;
use std::collections::HashSet;

/// What the pairer knows of an entrant still in the tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub entrant: Entrant,
    /// Half-points (a win 2, a draw 1, a bye 2).
    pub score: u32,
    pub rating: i64,
    pub whites: u32,
    pub blacks: u32,
    /// The colour of its last game.
    pub last: Option<Color>,
    pub byes: u32,
}

impl Standing {
    fn lean(&self) -> i64 {
        i64::from(self.whites) - i64::from(self.blacks)
    }
}

/// The standings the pairer works from: each of `active` (entrants still playing), with
/// what `games` and `byes` (one entry per bye given) gave it; `rating(e)` its rating.
#[must_use]
pub fn standings(
    active: &[Entrant],
    rating: impl Fn(Entrant) -> i64,
    games: &[Played],
    byes: &[Entrant],
) -> Vec<Standing> {
    let mut sorted: Vec<&Played> = games.iter().collect();
    sorted.sort_by_key(|g| g.round);
    active
        .iter()
        .map(|&e| {
            let mut s = Standing {
                entrant: e,
                score: 0,
                rating: rating(e),
                whites: 0,
                blacks: 0,
                last: None,
                byes: 0,
            };
            for g in &sorted {
                let Some(colour) = g.colour_of(e) else {
                    continue;
                };
                match colour {
                    Color::White => s.whites += 1,
                    Color::Black => s.blacks += 1,
                }
                s.last = Some(colour);
                s.score += g.half_points_of(e).unwrap_or(0);
            }
            let had = u32::try_from(byes.iter().filter(|&&b| b == e).count()).unwrap_or(u32::MAX);
            s.byes = had;
            s.score += 2 * had;
            s
        })
        .collect()
}

/// What a level of the search allows.
#[derive(Clone, Copy)]
struct Level {
    repeats: bool,
    colours_free: bool,
    second_bye: bool,
}

/// From strict to loose: each is tried only when the one before finds no pairing.
const LEVELS: [Level; 4] = [
    Level {
        repeats: false,
        colours_free: false,
        second_bye: false,
    },
    Level {
        repeats: false,
        colours_free: true,
        second_bye: false,
    },
    Level {
        repeats: true,
        colours_free: true,
        second_bye: false,
    },
    Level {
        repeats: true,
        colours_free: true,
        second_bye: true,
    },
];

/// Steps of the search at one level before it is given up as too costly (a pairing of
/// 200 entrants takes a few hundred when one exists; this bounds the hopeless cases).
const BUDGET: usize = 2_000_000;

/// The next round's pairings of `players`, given every game played so far (running ones
/// included: their entrants have met). Deterministic: the same input gives the same
/// round, so any process computes it alike.
#[must_use]
pub fn pair(players: &[Standing], games: &[Played]) -> Vec<Pairing> {
    let met: HashSet<(Entrant, Entrant)> = games
        .iter()
        .map(|g| (g.white.min(g.black), g.white.max(g.black)))
        .collect();
    let mut order: Vec<&Standing> = players.iter().collect();
    order.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(b.rating.cmp(&a.rating))
            .then(a.entrant.cmp(&b.entrant))
    });
    for level in LEVELS {
        let byes: Vec<Option<usize>> = if order.len() % 2 == 1 {
            (0..order.len())
                .rev()
                .filter(|&i| level.second_bye || order[i].byes == 0)
                .map(Some)
                .collect()
        } else {
            vec![None]
        };
        for bye in byes {
            let mut used = vec![false; order.len()];
            if let Some(b) = bye {
                used[b] = true;
            }
            let mut pairs = Vec::with_capacity(order.len() / 2);
            let mut budget = BUDGET;
            let search = Search {
                order: &order,
                met: &met,
                level,
            };
            if search.solve(&mut used, &mut pairs, &mut budget) {
                let mut out: Vec<Pairing> = pairs
                    .into_iter()
                    .map(|(i, j)| {
                        let (white, black) = colours(order[i], order[j]);
                        Pairing::Game { white, black }
                    })
                    .collect();
                if let Some(b) = bye {
                    out.push(Pairing::Bye(order[b].entrant));
                }
                return out;
            }
        }
    }
    // Fewer than two entrants: nothing to pair (a lone entrant sits out).
    order.iter().map(|s| Pairing::Bye(s.entrant)).collect()
}

struct Search<'a> {
    order: &'a [&'a Standing],
    met: &'a HashSet<(Entrant, Entrant)>,
    level: Level,
}

impl Search<'_> {
    fn allowed(&self, a: &Standing, b: &Standing) -> bool {
        let pair = (a.entrant.min(b.entrant), a.entrant.max(b.entrant));
        if !self.level.repeats && self.met.contains(&pair) {
            return false;
        }
        self.level.colours_free
            || !((a.lean() >= 1 && b.lean() >= 1) || (a.lean() <= -1 && b.lean() <= -1))
    }

    /// Pair every entrant not `used`, the highest-ranked first, each with the closest
    /// allowed below it; false when none is left pairable (or the budget ran out).
    fn solve(
        &self,
        used: &mut [bool],
        pairs: &mut Vec<(usize, usize)>,
        budget: &mut usize,
    ) -> bool {
        let Some(i) = used.iter().position(|u| !u) else {
            return true;
        };
        used[i] = true;
        for j in i + 1..self.order.len() {
            if used[j] || !self.allowed(self.order[i], self.order[j]) {
                continue;
            }
            if *budget == 0 {
                break;
            }
            *budget -= 1;
            used[j] = true;
            pairs.push((i, j));
            if self.solve(used, pairs, budget) {
                return true;
            }
            pairs.pop();
            used[j] = false;
        }
        used[i] = false;
        false
    }
}

/// Who of a pair (`a` ranked above `b`) takes white.
fn colours(a: &Standing, b: &Standing) -> (Entrant, Entrant) {
    let a_white = match a.lean().cmp(&b.lean()) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal if a.last == b.last => a.last != Some(Color::White),
        // The one who had black last takes white; else the one who had no game yet.
        std::cmp::Ordering::Equal => matches!(
            (a.last, b.last),
            (Some(Color::Black), _) | (None, Some(Color::White))
        ),
    };
    if a_white {
        (a.entrant, b.entrant)
    } else {
        (b.entrant, a.entrant)
    }
}

#[cfg(test)]
mod tests;
