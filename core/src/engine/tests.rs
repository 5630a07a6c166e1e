use super::*;
use crate::color::Color;
use crate::corners::STANDARD_IDS;
use crate::damas::Position;
use crate::game::Rules;
use proptest::prelude::*;

fn rules_of_every_variant() -> Vec<Rules> {
    let mut all: Vec<Rules> = STANDARD_IDS
        .iter()
        .map(|id| Rules::from_id(id).unwrap())
        .collect();
    all.push(Rules::from_id("damas").unwrap());
    all.push(Rules::from_id("damas-short").unwrap());
    all
}

/// A game of `rules` after `plies` random moves (stopping early if it ends).
fn random_game(rules: &Rules, plies: usize, seed: u64) -> Game {
    let mut g = Game::new(rules);
    let mut s = seed;
    for _ in 0..plies {
        let moves = g.legal_move_texts();
        if moves.is_empty() || g.ending().is_some() {
            break;
        }
        s = splitmix(s);
        let m = &moves[usize::try_from(s % moves.len() as u64).unwrap()];
        g.play_text(m).unwrap();
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The engine's move is always legal, at every level's way of choosing, in random
    /// positions of every variant.
    #[test]
    fn the_engine_never_plays_an_illegal_move(
        variant in 0usize..9,
        plies in 0usize..80,
        seed in any::<u64>(),
        level in 1u8..=3,
    ) {
        let rules = &rules_of_every_variant()[variant];
        let g = random_game(rules, plies, seed);
        let mut settings = Level::new(level).unwrap().settings(seed);
        settings.budget.nodes = settings.budget.nodes.min(3_000);
        match choose(&g, settings) {
            Some(c) => {
                prop_assert!(g.ending().is_none());
                let mut after = g.clone();
                prop_assert!(after.play_text(&c.text).is_ok(), "{} in {}", c.text, g.position_text());
                prop_assert!(g.legal_move_texts().contains(&c.text) || g.check_text(&c.text).is_ok());
            }
            None => prop_assert!(g.ending().is_some() || g.legal_move_texts().is_empty()),
        }
    }
}

#[test]
fn a_timed_search_keeps_to_its_budget() {
    // Generous margin: the clock is read every 1,024 positions, and CI machines are slow.
    for rules in [
        Rules::from_id("halma16").unwrap(),
        Rules::from_id("damas").unwrap(),
    ] {
        let g = Game::new(&rules);
        let started = std::time::Instant::now();
        let c = choose(&g, Settings::timed(100)).unwrap();
        let took = started.elapsed().as_millis();
        assert!(took < 600, "{took} ms for a 100 ms budget");
        assert!(c.stats.depth >= 1);
    }
}

#[test]
fn a_node_budget_gives_the_same_move_every_time() {
    let g = random_game(&Rules::from_id("classic3x3").unwrap(), 10, 7);
    let a = choose(&g, Settings::nodes(20_000)).unwrap();
    let b = choose(&g, Settings::nodes(20_000)).unwrap();
    assert_eq!(
        a,
        Choice {
            stats: a.stats,
            ..b.clone()
        }
    );
    assert!(a.stats.nodes <= 20_000 + 64);
}

#[test]
fn d6_auto_move_is_legal_and_takes_material() {
    let start = Position::start(true);
    let m = damas_auto_move(&start).unwrap();
    assert!(start.legal_moves().contains(&m));
    // A capture is forced, and of two the one that takes more (D4, law of quantity).
    let p = Position::from_fen("W:W12,9:B15,32", true).unwrap();
    assert_eq!(damas_auto_move(&p).unwrap().to_string(), "b3xd5");
    let none = Position::from_fen("W:W24:B28,31", true).unwrap();
    assert_eq!(damas_auto_move(&none), None);
}

#[test]
fn damas_search_finds_a_forced_win() {
    // White king against a lone black man that must walk into it: the search sees the win.
    let p = Position::from_fen("W:WK10:B19", true).unwrap();
    let g = Game::Damas(crate::damas::Game::from_position(p));
    let c = choose(&g, Settings::nodes(200_000)).unwrap();
    assert!(c.score > 0, "{c:?}");
}

#[test]
fn corners_search_finishes_the_race_when_it_can() {
    // White needs one move to complete its target; Black is far from done: the engine
    // completes at once (a forced win the search scores as decisive).
    let rules = Rules::from_id("classic3x3").unwrap();
    let g = Game::from_text(&rules, "5www/5www/4w1ww/8/bbb5/bbb5/bbb5/8 w 30")
        .unwrap_or_else(|e| panic!("{e}"));
    let c = choose(&g, Settings::nodes(50_000)).unwrap();
    let mut after = g.clone();
    after.play_text(&c.text).unwrap();
    let pos = match &after {
        Game::Corners(c) => *c.position(),
        Game::Damas(_) => unreachable!(),
    };
    assert_eq!(pos.in_target(Color::White), 9, "{}", c.text);
}

/// One game between two choosers; +1 if `first` (White) wins, 0 a draw, -1 a loss.
fn duel(rules: &Rules, white: Settings, black: Settings, opening: u64) -> i32 {
    let mut g = random_game(rules, 2, opening);
    for _ in 0..400 {
        if let Some(e) = g.ending() {
            return match e.winner {
                Some(Color::White) => 1,
                Some(Color::Black) => -1,
                None => 0,
            };
        }
        let s = if g.turn() == Color::White {
            white
        } else {
            black
        };
        // A new draw of the dice every move.
        let s = Settings {
            seed: splitmix(s.seed ^ g.plies() as u64),
            ..s
        };
        let c = choose(&g, s).expect("a move while the game is on");
        g.play_text(&c.text).unwrap();
    }
    0
}

#[test]
fn a_searching_level_beats_a_random_mover_in_both_games() {
    // The figures over 100 games per colour are in the README (`ugolki selfplay`); this is
    // the quick check that the search plays the game at all.
    let random = Settings {
        budget: Budget {
            depth: 1,
            nodes: 1_000,
            millis: None,
        },
        slack: i32::MAX / 2,
        seed: 0,
    };
    for id in ["classic3x3", "damas"] {
        let rules = Rules::from_id(id).unwrap();
        let mut score = 0;
        for seed in 0..2 {
            let strong = Level::new(3).unwrap().settings(seed);
            let r = Settings {
                seed: seed + 100,
                ..random
            };
            score += duel(&rules, strong, r, seed);
            score -= duel(&rules, r, strong, seed);
        }
        assert_eq!(score, 4, "{id}: level 3 won {score} of 4 net");
    }
}

/// Plain minimax over the same nodes, evaluation and capture extension, with no pruning and
/// no table: what the search must agree with.
fn minimax<N: search::Node>(n: &N, ctx: &N::Ctx, depth: i32, ply: i32) -> i32 {
    let mut moves = Vec::new();
    n.legal(&mut moves);
    if moves.is_empty() {
        return -(search::MATE - ply);
    }
    let extend = depth <= 0 && n.noisy(&moves);
    if depth <= 0 && !extend {
        return n.eval(ctx);
    }
    let depth = if extend { 1 } else { depth };
    let mut best = -search::MATE;
    for m in &moves {
        let (child, end) = n.after(ctx, m);
        let s = match end {
            Some(search::End::Won(w)) if w == n.turn() => search::MATE - ply - 1,
            Some(search::End::Won(_)) => -(search::MATE - ply - 1),
            Some(search::End::Drawn) => 0,
            None => -minimax(&child, ctx, depth - 1, ply + 1),
        };
        best = best.max(s);
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Alpha-beta with its windows, table and ordering scores the root as plain minimax
    /// does (depth 3: no position is met again with another depth to go).
    #[test]
    fn the_search_scores_as_plain_minimax(variant in 0usize..9, plies in 0usize..40, seed in any::<u64>()) {
        let rules = &rules_of_every_variant()[variant];
        let g = random_game(rules, plies, seed);
        prop_assume!(g.ending().is_none());
        let budget = Budget { depth: 3, nodes: u64::MAX, millis: None };
        let (searched, plain) = match &g {
            Game::Corners(c) => {
                let node = corners::CornersNode(*c.position());
                let ctx = corners::Ctx::new(c.position());
                let found = search::Search::new(&ctx, budget).run(&node).unwrap();
                (found.score, minimax(&node, &ctx, 3, 0))
            }
            Game::Damas(d) => {
                let node = damas::DamasNode(*d.position());
                let found = search::Search::new(&(), budget).run(&node).unwrap();
                (found.score, minimax(&node, &(), 3, 0))
            }
        };
        prop_assert_eq!(searched, plain, "{}", g.position_text());
    }
}
