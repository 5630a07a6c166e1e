//! The command-line contract of DESIGN.md for Damas.

use ugolki_tests::ugolki;

#[test]
fn moves_from_the_start() {
    let r = ugolki(&["moves", "--game", "damas"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "b3-a4\nb3-c4\nd3-c4\nd3-e4\nf3-e4\nf3-g4\nh3-g4\n"
    );
}

#[test]
fn moves_list_every_landing_square_of_a_capture() {
    let fen = "W:WK24,K26:B11,12,13,14,16,22,30";
    let r = ugolki(&["moves", "--game", "damas", "--position", fen], "");
    assert_eq!(r.stdout, "f7xc4xe2xh5\nf7xd5xf3xh5\n");
}

#[test]
fn perft_flying_and_short() {
    let r = ugolki(&["perft", "--game", "damas", "--depth", "5"], "");
    assert_eq!(r.stdout, "7361\n");
    let r = ugolki(&["perft", "--game", "damas", "--short", "--depth", "5"], "");
    assert_eq!(r.stdout, "7361\n");
    // Short and flying kings differ once kings can fly.
    let pos = "W:WK1:B32";
    let flying = ugolki(
        &[
            "perft",
            "--game",
            "damas",
            "--depth",
            "1",
            "--position",
            pos,
        ],
        "",
    );
    let short = ugolki(
        &[
            "perft",
            "--game",
            "damas",
            "--short",
            "--depth",
            "1",
            "--position",
            pos,
        ],
        "",
    );
    assert_eq!(
        (flying.stdout.as_str(), short.stdout.as_str()),
        ("6\n", "1\n")
    );
}

#[test]
fn replay_numbers_and_algebraic_and_pdn_on_stdin() {
    let r = ugolki(
        &["replay", "--game", "damas", "11-15", "e6-d5", "15x22"],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "position: b1b1b1b1/1b1b1b1b/b1b1w1b1/8/8/1w3w1w/w1w1w1w1/1w1w1w1w b\nmove: 2\nresult: ongoing\n"
    );
    let pdn = "[Event \"ugolki\"]\n[GameType \"24\"]\n1. 11-15 22-19 2. 15x22 *\n";
    let r2 = ugolki(&["replay", "--game", "damas"], pdn);
    assert_eq!(r2.stdout, r.stdout);
}

#[test]
fn replay_reports_the_end() {
    let r = ugolki(
        &[
            "replay",
            "--game",
            "damas",
            "--position",
            "W:W12:B15",
            "b3xd5",
        ],
        "",
    );
    assert_eq!(
        r.stdout.lines().last(),
        Some("result: white wins (black has no pieces left)")
    );
    let r = ugolki(
        &["replay", "--game", "damas", "--position", "W:W24:B28,31"],
        "",
    );
    assert_eq!(
        r.stdout.lines().last(),
        Some("result: black wins (white cannot move)")
    );
}

#[test]
fn replay_refuses_illegal_moves_with_the_rule() {
    let r = ugolki(
        &[
            "replay",
            "--game",
            "damas",
            "--position",
            "W:W12,9:B15,32",
            "9-13",
        ],
        "",
    );
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "illegal move 1: 9-13: a capture is compulsory\n");
    let r = ugolki(&["replay", "--game", "damas", "--position", "bad"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("error: bad position: "),
        "{}",
        r.stderr
    );
}

#[test]
fn replay_exports_pdn_with_numbers() {
    let r = ugolki(
        &[
            "replay", "--game", "damas", "--pdn", "d3-c4", "e6-d5", "c4xe6",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("[GameType \"24\"]"), "{}", r.stdout);
    assert!(
        r.stdout.ends_with("1. 11-15 22-19 2. 15x22 *\n"),
        "{}",
        r.stdout
    );
    let r = ugolki(
        &[
            "replay",
            "--game",
            "damas",
            "--pdn",
            "--position",
            "W:W12:B15",
            "12x19",
        ],
        "",
    );
    assert!(
        r.stdout.contains("[FEN \"W:W12:B15\"]") && r.stdout.contains("1-0"),
        "{}",
        r.stdout
    );
    let r = ugolki(&["replay", "--pdn", "c3-d3"], "");
    assert_eq!(r.code, 2);
}
