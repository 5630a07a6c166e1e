//! The command-line contract of DESIGN.md for Corners: exact output formats.

use ugolki_tests::ugolki;

#[test]
fn moves_lists_full_paths_sorted_by_from_then_to() {
    let r = ugolki(
        &["moves", "--game", "corners", "--variant", "classic3x3"],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "b1-d1", "c1-d1", "a2-a4", "b2-d2", "b2-b4", "c2-d2", "c2-c4", "a3-a4", "b3-d3",
            "b3-b4", "c3-d3", "c3-c4"
        ]
    );
}

#[test]
fn moves_prints_every_landing_square_of_a_chain() {
    // After 1. c3-d3 f6-e6, a3 can jump b3 to c3 and d3 to e3.
    let pos = "5bbb/5bbb/4b1bb/8/8/ww1w4/www5/www5 w 2";
    let r = ugolki(
        &[
            "moves",
            "--game",
            "corners",
            "--variant",
            "classic3x3",
            "--position",
            pos,
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.lines().any(|l| l == "a3-c3-e3"), "{}", r.stdout);
    assert!(r.stdout.lines().all(|l| !l.is_empty()));
}

#[test]
fn perft_prints_the_leaf_count_only() {
    let r = ugolki(
        &[
            "perft",
            "--game",
            "corners",
            "--variant",
            "classic3x4",
            "--depth",
            "3",
        ],
        "",
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, "4412\n"));
    let r = ugolki(
        &[
            "perft",
            "--game",
            "corners",
            "--variant",
            "diagonal3x3",
            "--depth",
            "2",
        ],
        "",
    );
    assert_eq!(r.stdout, "677\n");
}

#[test]
fn replay_prints_position_move_number_and_result() {
    let r = ugolki(
        &[
            "replay",
            "--game",
            "corners",
            "--variant",
            "classic3x3",
            "c3-d3",
            "f6-e6",
            "a3-e3",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "position: 5bbb/5bbb/4b1bb/8/8/1w1ww3/www5/www5 b 2\nmove: 2\nresult: ongoing\n"
    );
}

#[test]
fn replay_reads_a_record_on_stdin_and_reports_repetition() {
    let record = "1. c3-d3 f6-e6 2. d3-c3 e6-f6 3. c3-d3 f6-e6 4. d3-c3 e6-f6\n";
    let r = ugolki(
        &["replay", "--game", "corners", "--variant", "classic3x3"],
        record,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .ends_with("move: 5\nresult: draw (threefold repetition)\n"),
        "{}",
        r.stdout
    );
}

/// A `/record` reply copied out of the chat, heading, parts and result included, replays as
/// its moves (C3's record).
#[test]
fn c3_replay_reads_a_chats_record_reply_as_it_is_copied() {
    let reply = "Game #7, alice – bob, classic 3×3: 1. c3-d3 f6-e6 2. d3-c3\n\
                 Game #7, continued: 2... e6-f6 — alice (white) wins, black resigned\n";
    let r = ugolki(
        &["replay", "--game", "corners", "--variant", "classic3x3"],
        reply,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("move: 3\n"), "{}", r.stdout);
    // Moves written as the chat reads them: a Cyrillic с, an em dash, fullwidth digits.
    let r = ugolki(
        &["replay", "--variant", "classic3x3", "с3—d3", "f６-e６"],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("move: 2\n"), "{}", r.stdout);
}

#[test]
fn replay_reports_every_kind_of_end() {
    let cases = [
        // C5 both complete on move 30.
        (
            "classic3x3",
            "5www/5www/4w1ww/8/7b/bb1b4/bbb5/bbb5 w 30",
            "e6-f6 d3-c3",
            "draw (both completed target on move 30)",
        ),
        (
            "classic3x3",
            "5www/5www/4w1ww/8/7b/bb1b4/bbb5/bbb5 w 30",
            "e6-f6 h4-h3",
            "white wins (completed target)",
        ),
        (
            "classic3x3",
            "5www/5www/4w1ww/8/7b/bb1b4/bbb5/bbb5 w 30",
            "e6-e5 d3-c3",
            "black wins (completed target)",
        ),
        // C6 deadline and late return.
        (
            "classic3x3",
            "8/8/8/3bb3/3w4/8/8/w7 b 40",
            "e5-e6",
            "black wins (white left home late)",
        ),
        (
            "classic3x3",
            "7b/8/8/3bb3/3w4/8/8/w7 b 40",
            "e5-e6",
            "draw (both left home late)",
        ),
        (
            "classic3x3",
            "8/8/4b3/4w3/8/1b6/2bw4/8 w 41",
            "d2-b2",
            "black wins (white returned home after the deadline)",
        ),
        // C7 limit, no moves, no reply.
        (
            "classic3x3",
            "8/8/5ww1/8/3b4/8/8/b7 b 80",
            "d4-d5",
            "white wins (move limit, 2 to 1 in target)",
        ),
        (
            "diagonal3x3",
            "5wwb/6ww/7w/4w3/8/8/8/8 w 10",
            "e5-f6",
            "draw (black has no legal move)",
        ),
        (
            "diagonal3x3",
            "bww2www/ww3www/w1w3ww/4w3/8/8/8/8 w 50",
            "e5-f6",
            "white wins (completed target, black cannot reply)",
        ),
    ];
    for (variant, pos, moves, want) in cases {
        let mut args = vec![
            "replay",
            "--game",
            "corners",
            "--variant",
            variant,
            "--position",
            pos,
        ];
        args.extend(moves.split(' '));
        let r = ugolki(&args, "");
        assert_eq!(r.code, 0, "{pos}: {}", r.stderr);
        let last = r.stdout.lines().last().unwrap_or_default();
        assert_eq!(last, format!("result: {want}"), "{pos} {moves}");
    }
}

#[test]
fn replay_stops_at_an_illegal_move_with_its_place_and_reason() {
    let r = ugolki(
        &[
            "replay",
            "--game",
            "corners",
            "--variant",
            "classic3x3",
            "c3-d3",
            "f6-e6",
            "d3-d5",
        ],
        "",
    );
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        "illegal move 3: d3-d5: there is no piece on d4 to jump over (rule C2)\n"
    );
    let r = ugolki(
        &["replay", "--variant", "square4x4", "d3-e3", "e6-e4-e2"],
        "",
    );
    assert_eq!(
        r.stderr,
        "illegal move 2: e6-e4-e2: that would block the piece on c2 (rule C8)\n"
    );
    let r = ugolki(
        &[
            "replay",
            "--variant",
            "classic3x3",
            "c3-d3",
            "f6-e6",
            "a3-e3",
            "e6-e5",
            "e3-e4",
            "1-0",
        ],
        "",
    );
    assert_eq!(r.code, 1, "arguments are moves, each one");
    assert_eq!(r.stderr, "illegal move 6: 1-0: '1' is not a square\n");
}

#[test]
fn replay_after_the_end_refuses_more_moves() {
    let r = ugolki(
        &[
            "replay",
            "--variant",
            "classic3x3",
            "--position",
            "8/8/8/3bb3/3w4/8/8/w7 b 40",
            "e5-e6",
            "d4-d3",
        ],
        "",
    );
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "illegal move 2: d4-d3: the game is over\n");
}

#[test]
fn bad_arguments_get_a_clear_message_and_exit_2() {
    let r = ugolki(&["moves", "--variant", "classic9x9"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unknown variant 'classic9x9'"),
        "{}",
        r.stderr
    );
    let r = ugolki(
        &[
            "moves",
            "--variant",
            "classic3x3",
            "--position",
            "8/8/8 w 1",
        ],
        "",
    );
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: bad position: expected 8 ranks separated by '/', found 3\n"
    );
    let r = ugolki(&["perft", "--depth", "x"], "");
    assert_eq!(r.code, 2);
    let r = ugolki(&["frobnicate"], "");
    assert_eq!(r.code, 2);
}

#[test]
fn halma_positions_work_on_the_command_line() {
    let r = ugolki(&["perft", "--variant", "halma16", "--depth", "2"], "");
    assert_eq!(r.stdout, "1600\n");
    let r = ugolki(&["replay", "--variant", "halma16", "a1-b1"], "");
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "illegal move 1: a1-b1: b1 is occupied\n");
    let r = ugolki(&["replay", "--variant", "halma16", "e2-f3"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("position: 11bbbbb/"), "{}", r.stdout);
}
