//! Rule tests for Corners; every name carries the rule id it pins.

use super::reference::Reference;
use super::*;
use crate::color::Color;
use crate::square::Square;
use proptest::prelude::*;

// The tests read refusals and results in English, through the catalogue.
crate::english_for_tests!(MoveError, Outcome);

fn v(id: &str) -> Variant {
    Variant::by_id(id).unwrap()
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn mv(text: &str) -> Move {
    let (a, b) = text.split_once('-').unwrap();
    Move::new(sq(a), sq(b))
}

fn pos(id: &str, text: &str) -> Position {
    Position::from_text(&v(id), text).unwrap()
}

fn game_at(id: &str, text: &str) -> Game {
    Game::from_position(&v(id), pos(id, text))
}

fn names(squares: &[Square]) -> Vec<String> {
    squares.iter().map(ToString::to_string).collect()
}

fn perft_row(id: &str, depths: &[u64]) {
    let start = Position::start(&v(id));
    for (d, want) in depths.iter().enumerate() {
        assert_eq!(start.perft(d as u32 + 1), *want, "{id} depth {}", d + 1);
    }
}

// ---- Perft: the independently computed figures (C2 moves, C8 filter) ----

#[test]
fn c2_c8_perft_classic3x3() {
    perft_row("classic3x3", &[12, 144, 2784, 53824]);
}

#[test]
fn c2_c8_perft_classic3x4() {
    perft_row("classic3x4", &[14, 196, 4412, 99569]);
}

#[test]
fn c2_c8_perft_square4x4() {
    perft_row("square4x4", &[16, 260, 6524, 164_590]);
}

#[test]
fn c2_perft_diagonal3x3() {
    perft_row("diagonal3x3", &[26, 677, 23547, 828_210]);
}

/// Variants without published figures: pinned after the plain reference generator
/// (`reference.rs`) agreed with the engine on them.
#[test]
fn c2_perft_other_variants_pinned() {
    perft_row("diagonal3x4", &[33, 1107, 49318, 2_248_422]);
    perft_row("triangle", &[24, 576, 20050, 700_034]);
    perft_row("classic4x3", &[14, 196, 4412, 99569]);
    perft_row("halma16", &[40, 1600, 85440, 4_562_496]);
}

#[test]
fn c2_c8_engine_agrees_with_the_plain_reference_at_depth_3() {
    for id in STANDARD_IDS.iter().chain(&[
        "training:classic3x3,diag,blocking=off",
        "training:diagonal3x3,ortho,blocking=on",
    ]) {
        let var = v(id);
        let start = Position::start(&var);
        let depth = if var.side == 16 { 2 } else { 3 };
        assert_eq!(
            start.perft(depth),
            Reference::new(&var).perft(&start, depth),
            "{id}"
        );
    }
}

// ---- C2 moves ----

#[test]
fn c2_jump_chain_may_not_revisit_its_start() {
    let p = pos("classic3x3", "8/8/8/3w4/2w1w3/2wb4/8/8 w 10");
    // White c3: over d3 to e3, over e4 to e5, over d5 to c5, over c4 to c3 = its start.
    let err = p
        .check_path(&[sq("c3"), sq("e3"), sq("e5"), sq("c5"), sq("c3")])
        .unwrap_err();
    assert_eq!(err, IllegalMove::Revisit(sq("c3")));
    assert!(p.legal_moves().iter().all(|m| m.from != m.to));
    assert_eq!(
        Game::from_position(&v("classic3x3"), p)
            .play_text("c3-c3")
            .unwrap_err()
            .to_string(),
        "c3-c3: c3-c3 goes nowhere: a move ends on another square (rule C2)"
    );
    // The chain may stop anywhere on the way.
    let d = names(&p.destinations(sq("c3")));
    for stop in ["e3", "e5", "c5"] {
        assert!(d.contains(&stop.to_string()), "{stop} in {d:?}");
    }
}

#[test]
fn c2_steps_and_jumps_cannot_be_mixed() {
    let p = Position::start(&v("classic3x3"));
    let err = p.check_path(&[sq("c3"), sq("d3"), sq("f3")]).unwrap_err();
    assert_eq!(err, IllegalMove::Mixed);
    let mut g = Game::new(&v("classic3x3"));
    assert_eq!(
        g.play_text("c3-d3-f3").unwrap_err().to_string(),
        "c3-d3-f3: a move is one step, or a chain of jumps: a step cannot be chained (rule C2)"
    );
    assert_eq!(g.moves().len(), 0, "nothing was played");
    // Two steps are refused alike, with the same words (no jump in them).
    let err = p.check_path(&[sq("c3"), sq("d3"), sq("e3")]).unwrap_err();
    assert_eq!(err, IllegalMove::Mixed);
}

#[test]
fn c2_jumps_go_over_either_colour_and_land_on_empty_squares_only() {
    let p = pos("classic3x3", "8/8/8/8/8/2b5/2w5/8 w 5");
    assert!(p.legal_moves().contains(&mv("c2-c4")));
    let p = pos("classic3x3", "8/8/8/8/2w5/2b5/2w5/8 w 5");
    assert_eq!(p.check(mv("c2-c4")), Err(IllegalMove::Occupied(sq("c4"))));
}

#[test]
fn c2_orthogonal_variants_never_move_diagonally_eight_direction_ones_do() {
    let p = pos("classic3x3", "8/8/8/8/8/8/8/w7 w 5");
    assert_eq!(names(&p.destinations(sq("a1"))), ["b1", "a2"]);
    let p = pos("diagonal3x3", "8/8/8/8/8/8/1b6/w7 w 5");
    assert_eq!(names(&p.destinations(sq("a1"))), ["b1", "a2", "c3"]);
}

// ---- C3 notation ----

#[test]
fn c3_start_and_end_play_the_shortest_chain() {
    // a1 reaches c3 in two jumps (via c1 or a3) and in four (via c1, e1, e3).
    let p = pos("classic3x3", "8/8/8/8/8/1b1b4/b1b1b3/wb1b4 w 5");
    let (m, path) = parse_move(&p, "a1 c3").unwrap();
    assert_eq!(m, mv("a1-c3"));
    // Ties go to the lowest square walking back from the end: c1 before a3.
    assert_eq!(names(&path), ["a1", "c1", "c3"]);
    for text in ["a1-c3", "A1C3", "a1:c3", "a1c3"] {
        assert_eq!(parse_move(&p, text).unwrap().1, path, "{text}");
    }
    // A full path is kept as typed when it is a legal chain.
    let (_, typed) = parse_move(&p, "a1-a3-c3").unwrap();
    assert_eq!(names(&typed), ["a1", "a3", "c3"]);
}

#[test]
fn c3_refusals_say_why() {
    let g = Game::new(&v("classic3x3"));
    let err = |t: &str| g.clone().play_text(t).unwrap_err().to_string();
    assert_eq!(err("e3-e5"), "e3-e5: no piece of yours on e3");
    assert_eq!(err("f6-f5"), "f6-f5: no piece of yours on f6");
    assert_eq!(err("a1-b1"), "a1-b1: b1 is occupied");
    assert_eq!(
        err("c3-c5"),
        "c3-c5: there is no piece on c4 to jump over (rule C2)"
    );
    assert_eq!(
        err("c3-e5"),
        "c3-e5: the piece on c3 cannot reach e5: no step or chain of jumps leads there (rule C2)"
    );
    assert_eq!(
        err("c3-d4"),
        "c3-d4: c3-d4 is diagonal: in this variant pieces step and jump only up, down, left and right (rule C2)"
    );
    assert_eq!(
        err("c3-e3-e5"),
        "c3-e3-e5: there is no piece on d3 to jump over (rule C2)"
    );
    assert_eq!(err("c3-i3"), "c3-i3: i3 is not on this board");
    assert_eq!(err("c3"), "c3: a move names at least two squares");
    assert_eq!(err("hello"), "hello: 'hello' is not a square");
    assert_eq!(
        err("c3-f4"),
        "c3-f4: the piece on c3 cannot reach f4: no step or chain of jumps leads there (rule C2)"
    );
    // In a diagonal variant a diagonal step is a step.
    let d = Game::new(&v("diagonal3x3"));
    assert!(d.clone().play_text("c3-d4").is_ok());
}

#[test]
fn c3_c4_record_is_paired_and_keeps_full_paths() {
    let mut g = Game::new(&v("classic3x3"));
    for m in ["c3-d3", "f6-e6", "a3-e3", "e6-e5"] {
        g.play_text(m).unwrap();
    }
    assert_eq!(g.record(), "1. c3-d3 f6-e6 2. a3-c3-e3 e6-e5");
    let mut g = Game::from_position(
        &v("classic3x3"),
        Position::start(&v("classic3x3")).play(mv("c3-d3")).unwrap(),
    );
    g.play_text("f6-e6").unwrap();
    g.play_text("d3-d4").unwrap();
    assert_eq!(g.record(), "1... f6-e6 2. d3-d4");
    assert_eq!(
        record_moves("1. c3-d3 f6-e6 2.b3-b4 1-0"),
        ["c3-d3", "f6-e6", "b3-b4"]
    );
    // A chat's `/record` reply, in two parts, as it is copied out of the chat.
    let reply = "Game #3, alice – bob, classic 3×3: 1. c3-d3 f6-e6\n\
                 Game #3, continued: 2. b3-b4 — alice wins, black resigned";
    assert_eq!(record_moves(reply), ["c3-d3", "f6-e6", "b3-b4"]);
    let reply = "Партия #3, alice – bob, уголки 3×3: 1... f6-e6 2. d3-d4";
    assert_eq!(record_moves(reply), ["f6-e6", "d3-d4"]);
}

// ---- C5 Black has the last move ----

/// White one step (e6-f6) from completing, Black one step (d3-c3) from completing.
const BOTH_CLOSE: &str = "5www/5www/4w1ww/8/7b/bb1b4/bbb5/bbb5 w 30";

#[test]
fn c5_both_complete_on_the_same_move_number_is_a_draw() {
    let mut g = game_at("classic3x3", BOTH_CLOSE);
    assert_eq!(
        g.play(mv("e6-f6")).unwrap(),
        None,
        "Black still plays move 30"
    );
    let o = g.play(mv("d3-c3")).unwrap().unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(o.reason, EndReason::BothCompleted { move_no: 30 });
    assert_eq!(o.to_string(), "draw (both completed target on move 30)");
    assert_eq!(o.rule(), "C5");
}

#[test]
fn c5_white_completes_and_black_does_not_white_wins() {
    let mut g = game_at("classic3x3", BOTH_CLOSE);
    g.play(mv("e6-f6")).unwrap();
    let o = g.play(mv("h4-h3")).unwrap().unwrap();
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(o.to_string(), "white wins (completed target)");
}

#[test]
fn c5_black_completes_first_wins_at_once() {
    let mut g = game_at("classic3x3", BOTH_CLOSE);
    g.play(mv("e6-e5")).unwrap();
    let o = g.play(mv("d3-c3")).unwrap().unwrap();
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(o.reason, EndReason::Completed);
    assert_eq!(g.play(mv("e5-e4")), Err(IllegalMove::GameOver));
}

// ---- C6 leaving home on time ----

#[test]
fn c6_deadline_one_side_still_at_home_loses() {
    // Move 40, Black to move; White still has a1 at home, Black has left.
    let mut g = game_at("classic3x3", "8/8/8/3bb3/3w4/8/8/w7 b 40");
    let o = g.play(mv("e5-e6")).unwrap().unwrap();
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(o.to_string(), "black wins (white left home late)");
    assert_eq!(o.rule(), "C6");
}

#[test]
fn c6_deadline_both_at_home_is_a_draw() {
    let mut g = game_at("classic3x3", "7b/8/8/3bb3/3w4/8/8/w7 b 40");
    let o = g.play(mv("e5-e6")).unwrap().unwrap();
    assert_eq!(
        o,
        Outcome {
            winner: None,
            reason: EndReason::BothLeftHomeLate
        }
    );
}

#[test]
fn c6_deadline_is_checked_after_blacks_move_with_its_number_only() {
    let mut g = game_at("classic3x3", "8/8/8/3bb3/3w4/8/8/w7 b 39");
    assert_eq!(g.play(mv("e5-e6")).unwrap(), None);
    let mut g = game_at("classic3x3", "8/8/8/3bb3/3w4/8/8/w7 w 40");
    assert_eq!(
        g.play(mv("d4-c4")).unwrap(),
        None,
        "White's move 40 is not checked"
    );
}

/// Move 41, White to play: d2 can jump c2 to b2 (home) and on over b3 to b4.
const AFTER_DEADLINE: &str = "8/8/4b3/4w3/8/1b6/2bw4/8 w 41";

#[test]
fn c6_chain_through_own_home_ending_outside_is_fine() {
    let mut g = game_at("classic3x3", AFTER_DEADLINE);
    let p = *g.position();
    assert!(!p.returns_home_late(mv("d2-b4")));
    assert_eq!(names(&p.path(mv("d2-b4"))), ["d2", "b2", "b4"]);
    assert_eq!(g.play(mv("d2-b4")).unwrap(), None);
}

#[test]
fn c6_move_ending_in_own_home_after_deadline_loses_and_is_flagged() {
    let mut g = game_at("classic3x3", AFTER_DEADLINE);
    assert!(
        g.position().returns_home_late(mv("d2-b2")),
        "the bot asks to confirm"
    );
    let o = g.play(mv("d2-b2")).unwrap().unwrap();
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(
        o.to_string(),
        "black wins (white returned home after the deadline)"
    );
    // Before the deadline has passed the same move is ordinary.
    let p = pos("classic3x3", &AFTER_DEADLINE.replace("w 41", "w 40"));
    assert!(!p.returns_home_late(mv("d2-b2")));
}

#[test]
fn c6_c8_diagonal_piece_blocked_in_home_by_opponent_is_exempt() {
    // White a1 is blocked: a2, b1, b2 taken and a3, c1, c3 behind them taken, by Black.
    let text = "8/8/8/4b3/3w4/b1b5/bb6/wbb5 b 30";
    let mut g = game_at("diagonal3x3", text);
    assert_eq!(g.position().blocked(Color::White), [sq("a1")]);
    assert!(g.position().late_at_home(Color::White).is_empty());
    assert_eq!(g.play(mv("e5-f5")).unwrap(), None, "no one is late");
}

#[test]
fn c6_a_piece_excused_at_the_deadline_does_not_lose_later_when_freed() {
    // White's a1, a2, b1, b2 are blocked at move 30 with Black among their stoppers.
    let mut g = game_at("diagonal3x3", "8/8/8/8/bbbb2wb/bbbb4/wwbb4/wwbb4 b 30");
    assert_eq!(
        g.play(mv("h4-h3")).unwrap(),
        None,
        "excused at the deadline"
    );
    assert_eq!(g.play(mv("g4-g5")).unwrap(), None);
    // Black's move 31 frees b2 (it can jump to d4): the deadline is not checked again.
    assert_eq!(g.play(mv("d4-e5")).unwrap(), None);
    assert!(!g.position().late_at_home(Color::White).is_empty());
    assert!(g.position().legal_moves().iter().any(|m| *m == mv("b2-d4")));
}

#[test]
fn c6_blocked_only_by_own_pieces_is_not_exempt() {
    // a1 is blocked, but only by White's own pieces: it still counts as at home.
    let p = pos("diagonal3x3", "8/8/8/4b3/8/w1w5/ww6/www5 b 30");
    assert!(p.blocked(Color::White).contains(&sq("a1")));
    assert!(p.late_at_home(Color::White).contains(&sq("a1")));
}

#[test]
fn c6_classic_variants_have_no_exemption() {
    // The same blocked a1 in classic 3×3 (deadline 40) counts as late.
    let mut g = game_at("classic3x3", "8/8/8/4b3/3w4/b7/b7/wbb5 b 40");
    assert_eq!(g.position().blocked(Color::White), [sq("a1")]);
    let o = g.play(mv("e5-f5")).unwrap().unwrap();
    assert_eq!(o.reason, EndReason::LeftHomeLate(Color::White));
}

// ---- C7 limit, repetition, no moves ----

#[test]
fn c7_threefold_repetition_is_a_draw() {
    let mut g = Game::new(&v("classic3x3"));
    let shuffle = ["c3-d3", "f6-e6", "d3-c3", "e6-f6"];
    for m in shuffle {
        assert_eq!(g.play_text(m).unwrap(), None);
    }
    for m in &shuffle[..3] {
        assert_eq!(g.play_text(m).unwrap(), None);
    }
    let o = g.play_text("e6-f6").unwrap().unwrap();
    assert_eq!(o.to_string(), "draw (threefold repetition)");
    assert_eq!(g.position().move_number(), 5, "move numbers do not count");
}

#[test]
fn c7_game_limit_after_blacks_80th_move() {
    // White has 2 in target (f6, g6), Black 1 (a1); nobody at home... (deadline passed).
    let text = "8/8/5ww1/8/3b4/8/8/b7 b 80";
    let mut g = game_at("classic3x3", text);
    let o = g.play(mv("d4-d5")).unwrap().unwrap();
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(o.to_string(), "white wins (move limit, 2 to 1 in target)");
    let mut g = game_at("classic3x3", &text.replace("b 80", "b 79"));
    assert_eq!(g.play(mv("d4-d5")).unwrap(), None);
    let mut g = game_at("classic3x3", "8/8/5w2/8/3b4/8/8/b7 b 80");
    let o = g.play(mv("d4-d5")).unwrap().unwrap();
    assert_eq!(
        o,
        Outcome {
            winner: None,
            reason: EndReason::Limit { white: 1, black: 1 }
        }
    );
}

#[test]
fn c7_no_legal_move_is_a_draw() {
    // Diagonal 3×3: Black's only piece h8 is hemmed in by g8, g7, h7 with f8 and h6
    // behind; f6 (behind g7) is its last way out, and White steps there.
    let mut g = game_at("diagonal3x3", "5wwb/6ww/7w/4w3/8/8/8/8 w 10");
    let o = g.play(mv("e5-f6")).unwrap().unwrap();
    assert_eq!(
        o,
        Outcome {
            winner: None,
            reason: EndReason::NoMoves(Color::Black)
        }
    );
    assert_eq!(o.to_string(), "draw (black has no legal move)");
}

#[test]
fn c7_white_completed_and_black_cannot_reply_white_wins() {
    // White fills f6–h8 with e5-f6; Black's only piece a8 is shut in by White.
    let text = "bww2www/ww3www/w1w3ww/4w3/8/8/8/8 w 50";
    let mut g = game_at("diagonal3x3", text);
    let o = g.play(mv("e5-f6")).unwrap().unwrap();
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(o.reason, EndReason::NoReply);
}

// ---- C8 no blocking ----

#[test]
fn c8_rules_example_black_may_not_block_c2() {
    let var = v("square4x4");
    let p = Position::start(&var).play(mv("d3-e3")).unwrap();
    assert_eq!(
        p.check_path(&[sq("e6"), sq("e4"), sq("e2")]),
        Err(IllegalMove::WouldBlock(sq("c2")))
    );
    assert!(!p.legal_moves().contains(&mv("e6-e2")));
    let mut g = Game::from_position(&var, p);
    assert_eq!(
        g.play_text("e6-e4-e2").unwrap_err().to_string(),
        "e6-e4-e2: that would block the piece on c2 (rule C8)"
    );
    assert_eq!(
        g.play_text("e6 e2").unwrap_err().reason(),
        "that would block the piece on c2 (rule C8)"
    );
    assert_eq!(*g.position(), p, "nothing changed");
}

#[test]
fn c8_pieces_blocked_by_their_own_colour_do_not_stop_moves() {
    let var = v("classic3x3");
    let p = Position::start(&var);
    // a1 and h8 sit blocked by their own pieces from the start; every move is still legal.
    assert!(p.blocked(Color::Black).contains(&sq("h8")));
    assert_eq!(p.count_moves(), 12);
    // A move that leaves the mover's own piece blocked is fine too.
    let p = pos("classic3x3", "8/8/8/8/8/w7/1w6/www5 w 5");
    assert_eq!(
        p.check(mv("b2-a2")),
        Ok(()),
        "own a1 is then blocked: allowed"
    );
    let after = p.play(mv("b2-a2")).unwrap();
    assert!(after.blocked(Color::White).contains(&sq("a1")));
}

#[test]
fn c8_blocking_is_allowed_in_diagonal_variants() {
    // Black h8 in a corner, White closes the last exit: legal on diagonal boards.
    let p = pos("diagonal3x3", "5wwb/6ww/7w/4w3/8/8/8/8 w 10");
    assert!(p.check(mv("e5-f6")).is_ok());
    // Orthogonally (classic) the same kind of move is refused: h8's exits are g8 (f8
    // behind) and h7 (h6 behind); g7-g8 closes the last one.
    let p = pos("classic3x3", "5w1b/6ww/7w/8/8/8/8/8 w 10");
    assert_eq!(p.check(mv("g7-g8")), Err(IllegalMove::WouldBlock(sq("h8"))));
    let p = pos("classic3x3", "4w2b/7w/7w/8/8/8/8/8 w 10");
    assert_eq!(p.check(mv("e8-f8")), Ok(()), "g8 is still open");
}

// ---- C9 order of the end checks ----

#[test]
fn c9_completion_comes_before_the_deadline() {
    // Black completes on its move 40 while it still has h8 at home: C5 decides first.
    let text = "7b/8/8/8/4w3/bb1b4/bbb5/bbb5 b 40";
    let mut g = game_at("classic3x3", text);
    let o = g.play(mv("d3-c3")).unwrap().unwrap();
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(o.reason, EndReason::Completed);
}

#[test]
fn c9_deadline_comes_before_the_limit() {
    let var = v("training:classic3x3,deadline=5,limit=5");
    // Black's move 5: White still has a1 at home and more pieces in target: deadline wins.
    let p = Position::from_text(&var, "8/8/5ww1/8/3b4/8/8/w7 b 5").unwrap();
    let mut g = Game::from_position(&var, p);
    let o = g.play(mv("d4-d5")).unwrap().unwrap();
    assert_eq!(o.reason, EndReason::LeftHomeLate(Color::White));
}

// ---- Halma's target lock (C10) ----

#[test]
fn c10_halma_piece_in_target_stays_in_target() {
    let var = v("halma16");
    let text = format!("{}/15w/{} w 20", ["16"; 4].join("/"), ["16"; 11].join("/"));
    let p = Position::from_text(&var, &text).unwrap();
    // p12 is in White's target (o12, p12): it may go to o12 or p13 but not to p11.
    let d = names(&p.destinations(sq("p12")));
    assert!(d.contains(&"o12".to_string()) && d.contains(&"p13".to_string()));
    assert!(!d.iter().any(|s| s == "p11" || s == "o11"));
    assert_eq!(
        p.check(mv("p12-p11")),
        Err(IllegalMove::TargetLocked(sq("p12")))
    );
    // Outside the target a piece moves freely.
    let text = format!("{}/15w/{} w 20", ["16"; 5].join("/"), ["16"; 10].join("/"));
    let p = Position::from_text(&var, &text).unwrap();
    assert_eq!(p.destinations(sq("p11")).len(), 5);
}

// ---- Properties ----

fn any_variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(STANDARD_IDS.to_vec()).prop_map(v)
}

/// A random legal game: the variant and the move choices (indices into legal moves).
fn random_game() -> impl Strategy<Value = (Variant, Vec<usize>)> {
    (any_variant(), prop::collection::vec(any::<usize>(), 0..120))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn prop_random_games_stay_valid_and_replay_from_text((var, picks) in random_game()) {
        let mut g = Game::new(&var);
        let mut replay = Game::new(&var);
        let count = var.white_home.len();
        for pick in picks {
            if g.outcome().is_some() {
                break;
            }
            let moves = g.position().legal_moves();
            prop_assert!(!moves.is_empty());
            let m = moves[pick % moves.len()];
            let before = *g.position();
            prop_assert_eq!(before.check(m), Ok(()));
            g.play(m).unwrap();
            let p = *g.position();
            // Pieces are conserved and never share a square.
            prop_assert_eq!(p.pieces(Color::White).len(), count);
            prop_assert_eq!(p.pieces(Color::Black).len(), count);
            prop_assert!(p.pieces(Color::White).iter().all(|s| p.piece_at(*s) == Some(Color::White)));
            // Position text round-trips.
            prop_assert_eq!(Position::from_text(&var, &p.to_text()).unwrap(), p);
            // The recorded path replays as text to the same move.
            let path = &g.moves().last().unwrap().path;
            let text = crate::notation::join_path(path, "-");
            let (m2, path2) = parse_move(&before, &text).unwrap();
            prop_assert_eq!(m2, m);
            prop_assert_eq!(&path2, path);
            replay.play_text(&text).unwrap();
        }
        prop_assert_eq!(replay.position(), g.position());
        prop_assert_eq!(replay.outcome(), g.outcome());
        // The record reads back to the same game.
        let mut again = Game::new(&var);
        for t in record_moves(&g.record()) {
            again.play_text(t).unwrap();
        }
        prop_assert_eq!(again.position(), g.position());
    }

    #[test]
    fn prop_engine_matches_reference_on_random_positions(
        var in any_variant(),
        cells in prop::collection::vec(0u8..10, 64),
        black in any::<bool>(),
    ) {
        // Dense random 8×8 (or a corner of 16×16) positions: 0-2 white, 3-5 black, else empty.
        let mut white = Vec::new();
        let mut blk = Vec::new();
        for (i, c) in cells.iter().enumerate() {
            let s = Square::new((i % 8) as u8, (i / 8) as u8);
            let s = if var.side == 16 { Square::new(s.file + 4, s.rank + 4) } else { s };
            match c { 0..=2 => white.push(s), 3..=5 => blk.push(s), _ => {} }
        }
        let turn = if black { Color::Black } else { Color::White };
        let p = Position::from_pieces(&var, &white, &blk, turn, 12);
        let want = Reference::new(&var).moves(&p);
        let got: Vec<(Square, Square)> = p.legal_moves().iter().map(|m| (m.from, m.to)).collect();
        prop_assert_eq!(&got, &want);
        prop_assert_eq!(p.count_moves(), want.len() as u64);
        // `check` agrees with the move list on every piece and square pair of the mover.
        for from in p.pieces(turn) {
            for to in 0..u16::from(var.side) * u16::from(var.side) {
                let to = Square::from_index(usize::from(to), var.side);
                let legal = want.contains(&(from, to));
                prop_assert_eq!(p.check(Move::new(from, to)).is_ok(), legal, "{}-{}", from, to);
            }
        }
        // Every path of a legal move is a legal chain of hops.
        for m in p.legal_moves() {
            let path = p.path(m);
            prop_assert_eq!(p.check_path(&path), Ok(m));
        }
    }

    #[test]
    fn prop_no_panic_on_any_text(text in ".{0,80}", var in any_variant()) {
        let p = Position::start(&var);
        let _ = parse_move(&p, &text);
        let _ = Position::from_text(&var, &text);
        let _ = Variant::by_id(&text);
    }

    #[test]
    fn prop_no_panic_on_move_shaped_text(text in "[a-q][0-9]{1,2}([-: x]?[a-q][0-9]{1,2}){1,5}", var in any_variant()) {
        let mut g = Game::new(&var);
        let _ = g.play_text(&text);
    }
}

#[test]
fn c10_training_solo_turn_never_passes_and_a_full_corner_ends_it() {
    let v = Variant::by_id("training:classic3x3,solo").unwrap();
    assert!(v.solo && v.deadline.is_none() && !v.blocking_forbidden && !v.rated);
    let mut g = Game::new(&v);
    assert!(g.position().pieces(Color::Black).is_empty(), "nobody else");
    g.play_text("c3-d3").unwrap();
    assert_eq!(g.position().turn(), Color::White);
    assert_eq!(
        g.position().move_number(),
        2,
        "each move has its own number"
    );
    g.play_text("d3-d4").unwrap();
    assert_eq!(g.record(), "1. c3-d3 2. d3-d4", "and so has the record");
    g.play_text("d4-d3").unwrap();
    // Back and forth three times is no draw in a solo (repetition does not end it).
    for _ in 0..3 {
        g.play_text("d3-c3").unwrap();
        g.play_text("c3-d3").unwrap();
    }
    assert_eq!(g.outcome(), None);
    // A position one move from the end: the move that fills the corner wins it.
    let target = v.black_home();
    let mut white: Vec<Square> = target[1..].to_vec();
    white.push(Square::new(4, 5)); // e6, next to f6
    let pos = Position::from_pieces(&v, &white, &[], Color::White, 30);
    let mut g = Game::from_position(&v, pos);
    let out = g.play_text("e6-f6").unwrap();
    assert_eq!(
        out,
        Some(Outcome {
            winner: Some(Color::White),
            reason: EndReason::Completed
        })
    );
}

#[test]
fn c10_training_solo_ends_unfinished_at_the_limit() {
    let v = Variant::by_id("training:classic3x3,limit=2,solo").unwrap();
    let mut g = Game::new(&v);
    g.play_text("c3-d3").unwrap();
    let out = g.play_text("d3-e3").unwrap();
    assert!(
        matches!(
            out,
            Some(Outcome {
                winner: None,
                reason: EndReason::Limit { black: 0, .. }
            })
        ),
        "{out:?}"
    );
}
