//! Round-robin tables (Berger's, by the circle method): with `n` entrants (a dummy added
//! when `n` is odd: whoever meets it has the bye), `n - 1` rounds (`n` when odd) in which
//! everyone meets everyone once. The last entrant (or the dummy) keeps its seat and
//! alternates colours; the others turn round it one seat a round. Facing each other across
//! the circle, the one on the upper side takes white at odd distances from the fixed seat
//! and black at even ones, so that every entrant, passing every seat once, has as many
//! whites as blacks but for its one game against the fixed seat: whites and blacks differ
//! by at most one. Games of a round may all run at once.

use super::{Entrant, Pairing};

/// Round `round` (from 0) of a round robin of `n` entrants (numbered from 0).
#[must_use]
pub fn round(n: usize, round: usize) -> Vec<Pairing> {
    if n < 2 {
        return (0..n).map(Pairing::Bye).collect();
    }
    let m = n + n % 2;
    let turning = m - 1;
    let seat = |p: usize| -> Entrant { (p + round) % turning };
    let fixed = m - 1;
    let mut out = Vec::with_capacity(m / 2);
    let mut board = |a: Entrant, b: Entrant| {
        // The dummy (entrant n, when n is odd) means a bye.
        if a >= n {
            out.push(Pairing::Bye(b));
        } else if b >= n {
            out.push(Pairing::Bye(a));
        } else {
            out.push(Pairing::Game { white: a, black: b });
        }
    };
    let first = seat(0);
    if round.is_multiple_of(2) {
        board(first, fixed);
    } else {
        board(fixed, first);
    }
    for k in 1..m / 2 {
        let (upper, lower) = (seat(k), seat(turning - k));
        if k % 2 == 1 {
            board(upper, lower);
        } else {
            board(lower, upper);
        }
    }
    out
}

/// How many rounds a round robin of `n` entrants takes.
#[must_use]
pub fn rounds(n: usize) -> usize {
    if n < 2 {
        0
    } else {
        n + n % 2 - 1
    }
}

#[cfg(test)]
mod tests {
    use super::{round, rounds};
    use crate::tournament::Pairing;
    use std::collections::HashSet;

    #[test]
    fn everyone_meets_everyone_once_with_colours_within_one_and_a_bye_each_when_odd() {
        for n in 2..=12 {
            let mut met = HashSet::new();
            let mut whites = vec![0usize; n];
            let mut blacks = vec![0usize; n];
            let mut byes = vec![0usize; n];
            for r in 0..rounds(n) {
                let mut seen = HashSet::new();
                for p in round(n, r) {
                    match p {
                        Pairing::Game { white, black } => {
                            assert!(seen.insert(white) && seen.insert(black));
                            assert!(
                                met.insert((white.min(black), white.max(black))),
                                "{n}: twice"
                            );
                            whites[white] += 1;
                            blacks[black] += 1;
                        }
                        Pairing::Bye(e) => {
                            assert!(seen.insert(e));
                            byes[e] += 1;
                        }
                    }
                }
                assert_eq!(
                    seen.len(),
                    n,
                    "{n} entrants, round {r}: everyone has a board"
                );
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "{n}: every pair met");
            for e in 0..n {
                assert!(
                    whites[e].abs_diff(blacks[e]) <= 1,
                    "{n}: entrant {e} {whites:?} {blacks:?}"
                );
                assert_eq!(byes[e], n % 2, "{n}: one bye each when odd");
            }
        }
    }
}
