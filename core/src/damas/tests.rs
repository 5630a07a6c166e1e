//! Rule tests for Damas; every name carries the rule id it pins.

use super::*;
use crate::color::Color;
use crate::square::Square;
use proptest::prelude::*;

// The tests read refusals and results in English, through the catalogue.
crate::english_for_tests!(MoveError, Outcome);

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// A position from piece lists: `"b3 Kc4"` (K marks a king).
fn setup(white: &str, black: &str, turn: Color, flying: bool) -> Position {
    let mut pieces = Vec::new();
    for (list, color) in [(white, Color::White), (black, Color::Black)] {
        for item in list.split_whitespace() {
            let (king, name) = item.strip_prefix('K').map_or((false, item), |r| (true, r));
            assert!(
                squares::is_playing(sq(name)),
                "{name} is not a playing square"
            );
            pieces.push((sq(name), Piece { color, king }));
        }
    }
    Position::from_pieces(&pieces, turn, flying)
}

fn white(w: &str, b: &str) -> Position {
    setup(w, b, Color::White, true)
}

fn moves(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(ToString::to_string).collect()
}

#[test]
fn d7_perft_from_the_start() {
    let start = Position::start(true);
    let want = [7, 49, 302, 1469, 7361, 36473, 177_532, 828_783, 3_860_866];
    for (d, w) in want.iter().enumerate() {
        assert_eq!(start.perft(d as u32 + 1), *w, "depth {}", d + 1);
    }
}

#[test]
#[ignore = "slow in debug builds; run with --release -- --ignored"]
fn d7_perft_depth_10() {
    assert_eq!(Position::start(true).perft(10), 17_743_464);
}

#[test]
fn d3_short_king_perft_pinned() {
    // No published figures: pinned once the flying figures above matched.
    let start = Position::start(false);
    // Kings first appear at depth 9, where the short rule gives 9 more leaves.
    let want = [7, 49, 302, 1469, 7361, 36473, 177_532, 828_783, 3_860_875];
    for (d, w) in want.iter().enumerate() {
        assert_eq!(start.perft(d as u32 + 1), *w, "depth {}", d + 1);
    }
}

#[test]
fn d1_start_position_and_geometry() {
    let p = Position::start(true);
    assert_eq!(
        p.to_text(),
        "b1b1b1b1/1b1b1b1b/b1b1b1b1/8/8/1w1w1w1w/w1w1w1w1/1w1w1w1w w"
    );
    assert_eq!(
        p.to_fen(),
        "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32"
    );
    assert!(p.piece_at(sq("h1")).is_some(), "h1 is a playing square");
    assert!(p.piece_at(sq("a1")).is_none());
    assert_eq!(
        moves(&p),
        ["b3-a4", "b3-c4", "d3-c4", "d3-e4", "f3-e4", "f3-g4", "h3-g4"]
    );
}

#[test]
fn d2_men_never_move_or_capture_backward() {
    // Black's d3 stands behind White's e4, with c2 free beyond it.
    let p = white("e4", "d3 a8");
    assert_eq!(moves(&p), ["e4-d5", "e4-f5"]);
    let err = Game::from_position(p).play_text("e4xc2").unwrap_err();
    assert_eq!(err.reason(), "men move and capture forward only");
}

#[test]
fn d2_a_man_takes_a_king() {
    let p = white("b3", "Kc4 a8");
    assert_eq!(moves(&p), ["b3xd5"]);
    let after = p.play(&p.legal_moves()[0]).unwrap();
    assert_eq!(after.count(Color::Black), (1, 0));
}

#[test]
fn d2_promotion_ends_a_capture() {
    // e6 takes d7 and lands on c8, where a king could go on over b7; a man stops, crowned.
    let p = white("e6", "d7 b7");
    assert_eq!(moves(&p), ["e6xc8"]);
    let after = p.play(&p.legal_moves()[0]).unwrap();
    assert_eq!(
        after.piece_at(sq("c8")),
        Some(Piece {
            color: Color::White,
            king: true
        })
    );
    assert!(after.piece_at(sq("b7")).is_some());
}

#[test]
fn d2_a_capture_typed_on_past_the_crowning_square_is_told_it_ends_there() {
    // c6 takes d7 and is crowned on e8; a king could go on over f7 to g6, a man cannot.
    let p = white("c6", "d7 f7");
    assert_eq!(moves(&p), ["c6xe8"]);
    let err = Game::from_position(p).play_text("c6xe8xg6").unwrap_err();
    assert_eq!(
        err.reason(),
        "a man crowned on e8 stops there: its move ends (D2)"
    );
}

/// D5: a position given with no pieces of the side not to move is over (its side lost),
/// not a game to play on.
#[test]
fn d5_a_position_without_the_waiting_sides_pieces_is_over() {
    let p = Position::from_text("8/8/8/8/8/8/8/1w6 w", true).unwrap();
    let g = Game::from_position(p);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: EndReason::NoPieces(Color::Black)
        })
    );
}

#[test]
fn d2_a_man_reaching_the_far_rank_by_a_step_is_crowned() {
    let p = white("b7", "g8");
    let list = p.legal_moves();
    let step = list.iter().find(|m| m.to() == sq("a8")).unwrap();
    let after = p.play(step).unwrap();
    assert_eq!(after.piece_at(sq("a8")).map(|p| p.king), Some(true));
}

#[test]
fn d4_capture_is_compulsory() {
    let p = white("b3 h3", "c4 a8");
    assert_eq!(moves(&p), ["b3xd5"]);
    let err = Game::from_position(p).play_text("h3-g4").unwrap_err();
    assert_eq!(err.reason(), "a capture is compulsory");
}

#[test]
fn d4_quantity_beats_quality() {
    // b3 can take two men (c4, e6); h3 can take one king (g4). Two pieces win.
    let p = white("b3 h3 d7", "c4 e6 Kg4");
    assert_eq!(moves(&p), ["b3xd5xf7"]);
    let err = Game::from_position(p).play_text("h3xf5").unwrap_err();
    assert_eq!(err.reason(), "you must take the most pieces possible (2)");
}

#[test]
fn d4_a_capture_stopped_short_is_told_it_must_go_on() {
    // b3 takes c4 and lands on d5, from where it must go on over c6 to b7.
    let p = white("b3 h3", "c4 c6");
    assert_eq!(moves(&p), ["b3xd5xb7"]);
    for typed in ["b3xd5", "b3-d5", "b3:d5"] {
        let err = Game::from_position(p).play_text(typed).unwrap_err();
        assert_eq!(err.reason(), "you must take the most pieces possible (2)");
    }
    // A step where a capture is due is still told that a capture is compulsory.
    let err = Game::from_position(p).play_text("h3-g4").unwrap_err();
    assert_eq!(err.reason(), "a capture is compulsory");
}

#[test]
fn d4_quality_decides_between_equal_counts() {
    let p = white("b3 h3", "c4 Kg4");
    assert_eq!(moves(&p), ["h3xf5"]);
    let err = Game::from_position(p).play_text("b3xd5").unwrap_err();
    assert_eq!(
        err.reason(),
        "you must take the most kings possible (1) among captures of 1"
    );
}

#[test]
fn d4_free_landing_after_a_flying_capture() {
    let p = white("Kh1", "e4");
    assert_eq!(moves(&p), ["h1xd5", "h1xc6", "h1xb7", "h1xa8"]);
}

#[test]
fn d4_landing_forced_by_a_continuation() {
    // Landing on c6 lets the king go on over b5 to a4: it must land there and go on.
    let p = white("Kh1", "e4 b5");
    assert_eq!(moves(&p), ["h1xc6xa4"]);
    let err = Game::from_position(p).play_text("h1xd5").unwrap_err();
    assert_eq!(err.reason(), "you must take the most pieces possible (2)");
}

#[test]
fn d4_captured_pieces_block_until_the_move_ends() {
    // After e4xb7 (taking c6), the way back south-east to g2 runs over c6, still on the
    // board: the king may not go on, so every capture takes one piece.
    let p = white("Ke4", "c6 g2");
    assert_eq!(moves(&p), ["e4xh1", "e4xb7", "e4xa8"]);
    assert!(p.legal_moves().iter().all(|m| m.capture_count() == 1));
}

#[test]
fn d4_a_piece_cannot_be_jumped_twice_and_a_king_may_end_on_its_start() {
    // A short king on c4 ringed by d5, f5, f3, d3 takes all four and comes home to c4.
    let p = setup("Kc4", "d5 f5 f3 d3", Color::White, false);
    let m = p.legal_moves();
    assert_eq!(m.len(), 1, "both ways round are one move: {:?}", moves(&p));
    assert_eq!(m[0].to_string(), "c4xe6xg4xe2xc4");
    assert_eq!(m[0].capture_count(), 4);
    let after = p.play(&m[0]).unwrap();
    assert_eq!(after.count(Color::Black), (0, 0));
    assert_eq!(after.count(Color::White), (0, 1), "the king is still there");
    assert_eq!(
        after.piece_at(sq("c4")),
        Some(Piece {
            color: Color::White,
            king: true
        })
    );
    // Typing the other way round is the same move.
    let mut g = Game::from_position(p);
    assert!(g.play_text("c4xe2xg4xe6xc4").is_ok());
    // A typed path that jumps d5 twice is refused with the reason.
    let err = Game::from_position(p).play_text("c4xe6xc4xe6").unwrap_err();
    assert_eq!(
        err.reason(),
        "the piece on d5 was already taken in this move"
    );
}

#[test]
fn d3_two_pieces_in_a_row_cannot_be_taken() {
    let p = white("Kh1 b3", "e4 d5");
    assert!(
        p.legal_moves().iter().all(|m| !m.is_capture()),
        "{:?}",
        moves(&p)
    );
    let p = white("b3", "c4 d5");
    assert_eq!(moves(&p), ["b3-a4"]);
}

#[test]
fn d3_short_kings_step_and_take_like_men_in_all_four_directions() {
    let far = "a6";
    assert_eq!(
        setup("Ke4", far, Color::White, false).legal_moves().len(),
        4
    );
    assert_eq!(
        setup("Ke4", far, Color::White, true).legal_moves().len(),
        13
    );
    // A piece two squares away: the flying king takes it, the short king cannot.
    assert_eq!(moves(&setup("Ke4", "g6", Color::White, true)), ["e4xh7"]);
    assert!(setup("Ke4", "g6", Color::White, false)
        .legal_moves()
        .iter()
        .all(|m| !m.is_capture()));
    assert_eq!(moves(&setup("Ke4", "d3", Color::White, false)), ["e4xc2"]);
}

#[test]
fn d5_no_pieces_loses() {
    let mut g = Game::from_position(white("b3", "c4"));
    let o = g.play_text("b3xd5").unwrap().unwrap();
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(o.to_string(), "white wins (black has no pieces left)");
}

#[test]
fn d5_blocked_side_loses() {
    // White's only man a6 faces b7 with c8 behind: no move at all.
    let g = Game::from_position(white("a6", "b7 c8"));
    assert_eq!(
        g.outcome().unwrap().to_string(),
        "black wins (white cannot move)"
    );
}

#[test]
fn d5_threefold_repetition_is_a_draw() {
    let mut g = Game::from_position(white("Kb1", "Kg8"));
    for m in [
        "b1-c2", "g8-h7", "c2-b1", "h7-g8", "b1-c2", "g8-h7", "c2-b1",
    ] {
        assert_eq!(g.play_text(m).unwrap(), None, "{m}");
    }
    assert_eq!(
        g.play_text("h7-g8").unwrap().unwrap().to_string(),
        "draw (threefold repetition)"
    );
}

#[test]
fn d7_notation_forms() {
    let p = Position::start(true);
    let by = |t: &str| parse_move(&p, t).map(|m| m.to_string());
    assert_eq!(by("11-15").unwrap(), "d3-c4");
    assert_eq!(by("d3-c4").unwrap(), "d3-c4");
    assert_eq!(by("D3C4").unwrap(), "d3-c4");
    assert_eq!(
        by("11-33").unwrap_err().reason(),
        "'33' is not a square number (1-32)"
    );
    assert_eq!(
        by("d3-d4").unwrap_err().reason(),
        "d4 is not a playing square"
    );
    assert_eq!(
        by("a5-b6").unwrap_err().reason(),
        "a5 is not a playing square"
    );
    assert_eq!(by("a6-b5").unwrap_err().reason(), "no piece of yours on a6");
    assert_eq!(
        by("b3-d5-f7").unwrap_err().reason(),
        "there is no piece of the opponent to take between b3 and d5"
    );
    assert_eq!(
        by("b3-a4-b5").unwrap_err().reason(),
        "b3-a4 is not a move of this piece"
    );
    assert_eq!(by("b1-a2").unwrap_err().reason(), "a2 is occupied");
    assert_eq!(by("hello").unwrap_err().reason(), "'hello' is not a square");
    // Captures: `x`, `:`, numbers, start and end only.
    let p = white("b3", "c4 e6 a8");
    for t in [
        "b3xd5xf7", "b3:d5:f7", "b3xf7", "12x19x26", "12x26", "b3-f7",
    ] {
        assert_eq!(
            parse_move(&p, t).map(|m| m.to_string()),
            Ok("b3xd5xf7".into()),
            "{t}"
        );
    }
    assert_eq!(numeric(&p.legal_moves()[0]), "12x19x26");
}

#[test]
fn d7_pdn_export() {
    let mut g = Game::new(true);
    for m in ["11-15", "22-19", "15x22"] {
        g.play_text(m).unwrap();
    }
    let pdn = g.pdn("alice", "bob\"");
    assert!(pdn.contains("[GameType \"24\"]"));
    assert!(pdn.contains("[Black \"bob\"]"));
    assert!(pdn.ends_with("1. 11-15 22-19 2. 15x22 *\n"), "{pdn}");
    assert_eq!(g.record(), "1. d3-c4 e6-d5 2. c4xe6");
}

#[test]
fn d7_position_text_errors() {
    let err = |t: &str| Position::from_text(t, true).unwrap_err().to_string();
    assert_eq!(
        err("8/8/8/8/8/8/8/w7 w"),
        "a1 is not a playing square (h1 is; a1 is not)"
    );
    assert_eq!(
        err("1b6/8/8/8/8/8/8/8 w"),
        "b8 is not a playing square (h1 is; a1 is not)"
    );
    assert_eq!(
        err("w7/8/8/8/8/8/8/8 w"),
        "a white man on a8 stands on the far rank: it would be a king ('W')"
    );
    assert_eq!(
        err("8/8/8/8/8/8/8/8 w 1"),
        "unexpected '1' after the position"
    );
    assert_eq!(err("W:W1,2:B40"), "FEN: '40' is not a square number 1-32");
    assert_eq!(err("W:W1,1:B30"), "FEN: square 1 is listed twice");
    assert_eq!(
        Position::from_fen("X:W1", true).unwrap_err().to_string(),
        "FEN: it must start with the side to move, W: or B:"
    );
    let p = Position::from_text("W:WK5,1-3:B30", true).unwrap();
    assert_eq!(p.to_fen(), "W:W1,2,3,K5:B30");
    assert_eq!(Position::from_text(&p.to_text(), true).unwrap(), p);
}

/// Random positions with up to 12 pieces a side (some kings) and a side to move: dense
/// ones (many captures) and sparse ones (long king moves).
fn random_position() -> impl Strategy<Value = Position> {
    prop_oneof![positions_from(8), positions_from(24)]
}

/// Each of the 32 squares: 0–5 a piece (2 and 5 kings), anything else empty.
fn positions_from(spread: u8) -> impl Strategy<Value = Position> {
    (
        prop::collection::vec(0u8..spread, 32),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(cells, black, flying)| {
            let mut pieces = Vec::new();
            let (mut nw, mut nb) = (0, 0);
            for (i, c) in cells.iter().enumerate() {
                let sq = squares::from_number(i as u8 + 1).unwrap();
                let (color, king) = match c {
                    0 | 1 => (Color::White, false),
                    2 => (Color::White, true),
                    3 | 4 => (Color::Black, false),
                    5 => (Color::Black, true),
                    _ => continue,
                };
                let far = if color == Color::White { 7 } else { 0 };
                let count = if color == Color::White {
                    &mut nw
                } else {
                    &mut nb
                };
                if *count == 12 {
                    continue;
                }
                *count += 1;
                pieces.push((
                    sq,
                    Piece {
                        color,
                        king: king || sq.rank == far,
                    },
                ));
            }
            let turn = if black { Color::Black } else { Color::White };
            Position::from_pieces(&pieces, turn, flying)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_d7_every_legal_move_replays_from_its_text(p in random_position()) {
        let legal = p.legal_moves();
        prop_assert_eq!(legal.len() as u64, p.count_moves());
        for m in &legal {
            prop_assert_eq!(parse_move(&p, &m.to_string()), Ok(*m));
            prop_assert_eq!(parse_move(&p, &numeric(m)), Ok(*m));
            // Start and end only: the move itself, or "ambiguous" listing every candidate.
            let short = format!("{}{}{}", m.from(), if m.is_capture() { "x" } else { "-" }, m.to());
            let same_ends: Vec<&Move> = legal.iter().filter(|o| o.from() == m.from() && o.to() == m.to()).collect();
            match parse_move(&p, &short) {
                Ok(found) => prop_assert!(same_ends.len() == 1 && found == *m),
                Err(e) => {
                    prop_assert!(same_ends.len() > 1, "{}", e);
                    let reason = e.reason();
                    prop_assert!(reason.starts_with("ambiguous"), "{}", reason);
                    for o in same_ends {
                        prop_assert!(reason.contains(&o.to_string()), "{} lacks {}", reason, o);
                    }
                }
            }
            // Captures all take the same, largest number; pieces are removed, kings kept.
            let after = p.play(m).unwrap();
            let (wm, wk) = after.count(Color::White);
            let (bm, bk) = after.count(Color::Black);
            let (pwm, pwk) = p.count(Color::White);
            let (pbm, pbk) = p.count(Color::Black);
            prop_assert_eq!(wm + wk + bm + bk + m.capture_count(), pwm + pwk + pbm + pbk);
            prop_assert!(after.to_fen() != p.to_fen() || m.from() == m.to());
        }
        if let Some(first) = legal.first() {
            prop_assert!(legal.iter().all(|m| m.capture_count() == first.capture_count()));
        }
        // Both text forms round-trip.
        prop_assert_eq!(Position::from_text(&p.to_text(), p.flying()).unwrap(), p);
        prop_assert_eq!(Position::from_fen(&p.to_fen(), p.flying()).unwrap(), p);
    }

    #[test]
    fn prop_d2_d4_engine_agrees_with_the_plain_reference(p in random_position()) {
        let want = super::reference::moves(&p);
        let got: std::collections::BTreeSet<(usize, usize, Vec<usize>)> = p
            .legal_moves()
            .iter()
            .map(|m| (m.from().index(8), m.to().index(8), m.captured().iter().map(|s| s.index(8)).collect()))
            .collect();
        prop_assert_eq!(got.len(), p.legal_moves().len(), "no move listed twice");
        prop_assert_eq!(got, want, "{}", p.to_fen());
    }

    #[test]
    fn prop_d5_random_games_stay_valid(picks in prop::collection::vec(any::<usize>(), 0..150), flying in any::<bool>()) {
        let mut g = Game::new(flying);
        for pick in picks {
            if g.outcome().is_some() {
                break;
            }
            let legal = g.position().legal_moves();
            prop_assert!(!legal.is_empty());
            let m = legal[pick % legal.len()];
            g.play(&m).unwrap();
            let (wm, wk) = g.position().count(Color::White);
            let (bm, bk) = g.position().count(Color::Black);
            prop_assert!(wm + wk <= 12 && bm + bk <= 12);
        }
        // The record replays to the same position.
        let mut again = Game::new(flying);
        for m in g.moves() {
            again.play_text(&numeric(m)).unwrap();
        }
        prop_assert_eq!(again.position(), g.position());
    }

    #[test]
    fn prop_no_panic_on_any_text(text in ".{0,80}") {
        let p = Position::start(true);
        let _ = parse_move(&p, &text);
        let _ = Position::from_text(&text, true);
        let _ = Position::from_fen(&text, true);
    }

    #[test]
    fn prop_no_panic_on_move_shaped_text(text in "([a-h][1-8]|[0-9]{1,2})([-:x ]([a-h][1-8]|[0-9]{1,2})){1,6}", p in random_position()) {
        let _ = parse_move(&p, &text);
    }
}
#[test]
fn d7_start_and_end_that_name_two_captures_list_both() {
    // Found by a random search: the king on f7 reaches h5 taking two different pairs.
    let p = Position::from_fen("W:WK24,K26:B11,12,13,14,16,22,30", true).unwrap();
    let err = parse_move(&p, "f7xh5").unwrap_err();
    assert_eq!(
        err.reason(),
        "ambiguous: say which: f7xc4xe2xh5 or f7xd5xf3xh5"
    );
    assert_eq!(
        parse_move(&p, "f7xd5xf3xh5").unwrap().to_string(),
        "f7xd5xf3xh5"
    );
}
