//! The Swiss pairer: no pair twice while a pairing without a repeat exists, one bye each,
//! colours within one, by score — over random results (property tests) and a whole
//! 7-player event.

use super::{pair, standings, Standing};
use crate::game::GameResult;
use crate::tournament::{Entrant, Pairing, Played};
use proptest::prelude::*;
use std::collections::HashSet;

/// Whether the entrants not `used` can all be paired without a repeat (a brute force, for
/// small events: the oracle the pairer is checked against).
fn pairable(left: &[Entrant], met: &HashSet<(Entrant, Entrant)>) -> bool {
    let Some((&a, rest)) = left.split_first() else {
        return true;
    };
    rest.iter().enumerate().any(|(i, &b)| {
        if met.contains(&(a.min(b), a.max(b))) {
            return false;
        }
        let mut others = rest.to_vec();
        others.remove(i);
        pairable(&others, met)
    })
}

/// Whether a round without a repeat (and with a bye for someone who had none, if any
/// such) exists at all.
fn round_without_repeat_exists(players: &[Standing], met: &HashSet<(Entrant, Entrant)>) -> bool {
    let all: Vec<Entrant> = players.iter().map(|s| s.entrant).collect();
    if all.len().is_multiple_of(2) {
        return pairable(&all, met);
    }
    let fresh: Vec<Entrant> = players
        .iter()
        .filter(|s| s.byes == 0)
        .map(|s| s.entrant)
        .collect();
    let candidates = if fresh.is_empty() { &all } else { &fresh };
    candidates.iter().any(|&bye| {
        let rest: Vec<Entrant> = all.iter().copied().filter(|&e| e != bye).collect();
        pairable(&rest, met)
    })
}

fn met_of(games: &[Played]) -> HashSet<(Entrant, Entrant)> {
    games
        .iter()
        .map(|g| (g.white.min(g.black), g.white.max(g.black)))
        .collect()
}

/// Play a whole event of `n` entrants over `rounds` rounds with the given results (one
/// per game, cycled), checking every round; the games and byes at the end.
fn event(n: usize, rounds: u32, results: &[u8]) -> (Vec<Played>, Vec<Entrant>) {
    let active: Vec<Entrant> = (0..n).collect();
    let rating = |e: Entrant| 1500 - i64::try_from(e).unwrap() * 10;
    let mut games: Vec<Played> = Vec::new();
    let mut byes: Vec<Entrant> = Vec::new();
    let mut next = 0;
    for round in 1..=rounds {
        let players = standings(&active, rating, &games, &byes);
        let met = met_of(&games);
        let avoidable = round_without_repeat_exists(&players, &met);
        let pairings = pair(&players, &games);
        let mut seen = HashSet::new();
        for p in &pairings {
            match *p {
                Pairing::Game { white, black } => {
                    assert!(seen.insert(white) && seen.insert(black), "{pairings:?}");
                    if avoidable {
                        assert!(
                            !met.contains(&(white.min(black), white.max(black))),
                            "round {round}: {white}-{black} met before, though a round without a repeat exists: {pairings:?}"
                        );
                    }
                    let result = match results[next % results.len()] % 3 {
                        0 => GameResult::White,
                        1 => GameResult::Black,
                        _ => GameResult::Draw,
                    };
                    next += 1;
                    games.push(Played {
                        round,
                        white,
                        black,
                        result: Some(result),
                    });
                }
                Pairing::Bye(e) => {
                    assert!(seen.insert(e));
                    byes.push(e);
                }
            }
        }
        assert_eq!(seen.len(), n, "everyone has a board: {pairings:?}");
        assert!(
            pairings
                .iter()
                .filter(|p| matches!(p, Pairing::Bye(_)))
                .count()
                == n % 2,
            "one bye when odd, none when even"
        );
    }
    (games, byes)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Over random results: never the same two twice while a round without a repeat
    /// exists, never two byes for one entrant (while rounds ≤ entrants), one board each.
    #[test]
    fn the_swiss_pairer_repeats_no_pair_it_can_avoid_and_gives_no_second_bye(
        n in 2usize..11,
        rounds in 1u32..8,
        results in proptest::collection::vec(0u8..3, 1..40),
    ) {
        let rounds = rounds.min(u32::try_from(n).unwrap());
        let (_, byes) = event(n, rounds, &results);
        let distinct: HashSet<_> = byes.iter().collect();
        prop_assert_eq!(distinct.len(), byes.len(), "a second bye: {:?}", byes);
    }
}

#[test]
fn a_swiss_of_seven_over_five_rounds_has_byes_no_repeat_and_colours_within_one() {
    for seed in 0u8..20 {
        let results: Vec<u8> = (0..40u8)
            .map(|i| i.wrapping_mul(7).wrapping_add(seed))
            .collect();
        let (games, byes) = event(7, 5, &results);
        assert_eq!(byes.len(), 5);
        assert_eq!(
            byes.iter().collect::<HashSet<_>>().len(),
            5,
            "five byes, five entrants"
        );
        assert_eq!(met_of(&games).len(), games.len(), "no pair twice");
        for e in 0..7 {
            let whites = games.iter().filter(|g| g.white == e).count();
            let blacks = games.iter().filter(|g| g.black == e).count();
            assert!(
                whites.abs_diff(blacks) <= 1,
                "entrant {e}: {whites} whites, {blacks} blacks (seed {seed})"
            );
        }
    }
}

#[test]
fn the_first_round_pairs_by_rating_with_the_higher_ranked_white() {
    let players = standings(&[0, 1, 2, 3], |e| [1400, 1700, 1500, 1600][e], &[], &[]);
    assert_eq!(
        pair(&players, &[]),
        [
            Pairing::Game { white: 1, black: 3 },
            Pairing::Game { white: 2, black: 0 },
        ]
    );
}

#[test]
fn leaders_meet_and_the_bye_goes_to_the_lowest_without_one() {
    // After one round: 0 and 2 won, 4 had the bye.
    let games = [
        Played {
            round: 1,
            white: 0,
            black: 1,
            result: Some(GameResult::White),
        },
        Played {
            round: 1,
            white: 2,
            black: 3,
            result: Some(GameResult::White),
        },
    ];
    let players = standings(&[0, 1, 2, 3, 4], |_| 1500, &games, &[4]);
    let round = pair(&players, &games);
    // 0, 2 and 4 lead with a point, and 3 — the lowest who had no bye — sits out. 0 and 2
    // both had white: paired, one would have two whites and no black, so 0 meets the next
    // leader, 4 (who takes white), and 2 meets 1 (who takes white).
    assert_eq!(
        round,
        [
            Pairing::Game { white: 4, black: 0 },
            Pairing::Game { white: 1, black: 2 },
            Pairing::Bye(3),
        ]
    );
}
