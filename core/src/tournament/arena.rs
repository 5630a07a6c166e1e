//! The arena: for a fixed length, whoever finishes a game is paired again at once with
//! another waiting entrant. Scoring as lichess documents it: a win 2 points and a draw 1,
//! doubled (4 and 2) while the entrant is on a streak — after two wins in a row, until a
//! game that is not a win. An entrant who does not make the first move of a game loses it
//! and is paused (not paired) until they come back: the table decides that; here it is a
//! loss like any other.

use super::Entrant;
use crate::rating::Score;

/// An arena entrant's points from its finished games, in the order they ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Points {
    pub points: u32,
    /// Wins in a row at the end (two or more: the next game counts double).
    pub streak: u32,
}

impl Points {
    /// Whether the next game counts double.
    #[must_use]
    pub fn on_fire(self) -> bool {
        self.streak >= 2
    }

    /// After one more game.
    #[must_use]
    pub fn after(self, s: Score) -> Points {
        let times = if self.on_fire() { 2 } else { 1 };
        match s {
            Score::Win => Points {
                points: self.points + 2 * times,
                streak: self.streak + 1,
            },
            Score::Draw => Points {
                points: self.points + times,
                streak: 0,
            },
            Score::Loss => Points {
                points: self.points,
                streak: 0,
            },
        }
    }
}

/// An entrant's points after `games` (its results, in the order the games ended).
#[must_use]
pub fn points(games: impl IntoIterator<Item = Score>) -> Points {
    games.into_iter().fold(Points::default(), Points::after)
}

/// An entrant waiting for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub entrant: Entrant,
    pub points: u32,
    pub rating: i64,
    /// Whom it played last: not paired with them again at once.
    pub last_opponent: Option<Entrant>,
    /// Whites less blacks so far.
    pub lean: i64,
}

/// Pair the waiting entrants: ranked by points, then rating, each with the closest below
/// that is not its last opponent; the one with fewer whites takes white. Two left over who
/// just played each other are swapped into a pair made already when that makes two fresh
/// games. An entrant whose only partner would be a rematch waits — unless nobody would play
/// at all (`others_playing` false and no other pair), when waiting would never end.
/// Deterministic.
#[must_use]
pub fn pair(waiting: &[Waiting], others_playing: bool) -> Vec<(Entrant, Entrant)> {
    let mut order: Vec<&Waiting> = waiting.iter().collect();
    order.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.rating.cmp(&a.rating))
            .then(a.entrant.cmp(&b.entrant))
    });
    let fresh = |a: &Waiting, b: &Waiting| {
        a.last_opponent != Some(b.entrant) && b.last_opponent != Some(a.entrant)
    };
    let mut used = vec![false; order.len()];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for i in 0..order.len() {
        if used[i] {
            continue;
        }
        let Some(j) = (i + 1..order.len()).find(|&j| !used[j] && fresh(order[i], order[j])) else {
            continue;
        };
        used[i] = true;
        used[j] = true;
        pairs.push((i, j));
    }
    // Left over in twos that just met: swap them into a pair from the bottom up.
    let mut left: Vec<usize> = (0..order.len()).filter(|&i| !used[i]).collect();
    while left.len() >= 2 {
        let (one, other) = (left[0], left[1]);
        let fits = |(up, down): (usize, usize), (p, q): (usize, usize)| {
            fresh(order[up], order[p]) && fresh(order[down], order[q])
        };
        let swap = pairs
            .iter()
            .rposition(|&pair| fits(pair, (one, other)) || fits(pair, (other, one)));
        let Some(at) = swap else { break };
        let (up, down) = pairs[at];
        let (p, q) = if fits((up, down), (one, other)) {
            (one, other)
        } else {
            (other, one)
        };
        pairs[at] = (up.min(p), up.max(p));
        pairs.push((down.min(q), down.max(q)));
        left.drain(..2);
    }
    if pairs.is_empty() && !others_playing && left.len() >= 2 {
        // Nobody else would ever come free: a rematch rather than waiting for ever.
        pairs.push((left[0], left[1]));
    }
    pairs.sort_unstable();
    pairs
        .into_iter()
        .map(|(i, j)| {
            let (a, b) = (order[i], order[j]);
            if b.lean < a.lean {
                (b.entrant, a.entrant)
            } else {
                (a.entrant, b.entrant)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{pair, points, Points, Waiting};
    use crate::rating::Score::{Draw, Loss, Win};

    #[test]
    fn two_wins_in_a_row_double_the_next_games_until_one_is_not_won() {
        // 2, 2 (on fire now), 4, 2 (a draw on fire: the streak ends), 2, 0, 1.
        let games = [Win, Win, Win, Draw, Win, Loss, Draw];
        let mut p = Points::default();
        let mut seen = Vec::new();
        for g in games {
            let next = p.after(g);
            seen.push(next.points - p.points);
            p = next;
        }
        assert_eq!(seen, [2, 2, 4, 2, 2, 0, 1]);
        assert_eq!(points(games), p);
        assert_eq!(p.points, 13);
        assert!(!p.on_fire());
        assert!(points([Win, Win]).on_fire());
    }

    fn waiting(entrant: usize, points: u32, last: Option<usize>) -> Waiting {
        Waiting {
            entrant,
            points,
            rating: 1500,
            last_opponent: last,
            lean: 0,
        }
    }

    #[test]
    fn waiting_entrants_meet_the_closest_in_points_but_not_their_last_opponent() {
        // 0 and 1 just played each other: 0 meets 2, 1 meets 3.
        let w = [
            waiting(0, 10, Some(1)),
            waiting(1, 8, Some(0)),
            waiting(2, 6, None),
            waiting(3, 4, None),
        ];
        assert_eq!(pair(&w, true), [(0, 2), (1, 3)]);
        // Alone with the last opponent: wait while others play, meet when nobody does.
        let two = [waiting(0, 10, Some(1)), waiting(1, 8, Some(0))];
        assert!(pair(&two, true).is_empty());
        assert_eq!(pair(&two, false), [(0, 1)]);
        // One alone waits.
        assert!(pair(&[waiting(5, 0, None)], false).is_empty());
    }

    #[test]
    fn two_left_over_who_just_met_are_swapped_into_fresh_games() {
        // Greedily 0 meets 1, and 2 and 3, who just played each other, are left: they are
        // swapped in (0–2, 1–3) rather than left waiting or made to meet again.
        let w = [
            waiting(0, 10, None),
            waiting(1, 9, None),
            waiting(2, 8, Some(3)),
            waiting(3, 7, Some(2)),
        ];
        let pairs = pair(&w, false);
        assert_eq!(pairs, [(0, 2), (1, 3)]);
        for (a, b) in &pairs {
            assert!(
                w[*a].last_opponent != Some(*b) && w[*b].last_opponent != Some(*a),
                "{pairs:?}"
            );
        }
    }

    #[test]
    fn the_one_with_fewer_whites_takes_white() {
        let mut a = waiting(0, 4, None);
        a.lean = 1;
        let b = waiting(1, 2, None);
        assert_eq!(pair(&[a, b], true), [(1, 0)]);
    }
}
