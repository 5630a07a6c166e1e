//! Typed moves, for both games, on start positions and fixed mid-game positions.
//!
//! For every game: `check_text` and `play_text` must agree (same move, or both refuse), the
//! move as recorded must be read back as the same move, and `read_squares` must read back
//! the squares it joined. The input is also played line by line, to reach other positions,
//! where every legal move's own text must be accepted.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_core::notation::{join_path, read_squares};

fn corners(id: &str) -> Rules {
    Rules::Corners(Variant::by_id(id).expect("standard variant"))
}

/// Play `plies` legal moves chosen by a fixed rule (no randomness: runs are repeatable).
fn advanced(rules: &Rules, plies: usize) -> Game {
    let mut g = Game::new(rules);
    for ply in 0..plies {
        if g.ending().is_some() {
            break;
        }
        let moves = g.legal_move_texts();
        if moves.is_empty() {
            break;
        }
        let pick = (ply * 7 + 3) % moves.len();
        g.play_text(&moves[pick]).expect("a legal move plays");
    }
    g
}

fn games() -> &'static [Game] {
    static GAMES: OnceLock<Vec<Game>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let all_rules = [
            Rules::Corners(Variant::classic3x3()),
            corners("classic3x4"),
            corners("diagonal3x3"),
            corners("triangle"),
            corners("halma16"),
            Rules::Damas { flying: true },
            Rules::Damas { flying: false },
        ];
        let mut out = Vec::new();
        for rules in &all_rules {
            out.push(Game::new(rules));
            out.push(advanced(rules, 6));
            out.push(advanced(rules, 21));
        }
        // Hand-picked positions: jumps, the C6 deadline, Damas kings with captures.
        let fixed = [
            (
                Rules::Corners(Variant::classic3x3()),
                "8/8/8/3w4/2w1w3/2wb4/8/8 w 10",
            ),
            (
                Rules::Corners(Variant::classic3x3()),
                "8/8/4b3/4w3/8/1b6/2bw4/8 w 41",
            ),
            (
                Rules::Corners(Variant::classic3x3()),
                "5www/5www/4w1ww/8/7b/bb1b4/bbb5/bbb5 w 30",
            ),
            (corners("diagonal3x3"), "5wwb/6ww/7w/4w3/8/8/8/8 w 10"),
            (
                Rules::Damas { flying: true },
                "W:WK24,K26:B11,12,13,14,16,22,30",
            ),
            (
                Rules::Damas { flying: false },
                "W:WK24,K26:B11,12,13,14,16,22,30",
            ),
            (
                Rules::Damas { flying: true },
                "B:W9,10,11,14,15,18,K27:BK3,19,20,22,23,24",
            ),
        ];
        for (rules, text) in fixed {
            out.push(Game::from_text(&rules, text).expect("fixed position text"));
        }
        out
    })
}

/// The checks for one text on one game.
fn try_text(game: &Game, text: &str) {
    let checked = game.check_text(text);
    let mut played = game.clone();
    let result = played.play_text(text);
    match (&checked, &result) {
        (Ok((rec, _)), Ok(rec2)) => {
            assert_eq!(
                rec, rec2,
                "check_text and play_text record {text:?} differently"
            );
            // The record names the same move.
            let mut again = game.clone();
            let rec3 = again.play_text(rec).unwrap_or_else(|e| {
                panic!("recorded move {rec:?} (typed {text:?}) is refused: {e:?}")
            });
            assert_eq!(&rec3, rec, "recorded move {rec:?} is read differently");
            assert_eq!(again.position_text(), played.position_text());
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "check_text and play_text refuse {text:?} differently")
        }
        _ => panic!("check_text {checked:?} but play_text {result:?} for {text:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };

    if let Ok(read) = read_squares(text) {
        let joined = join_path(&read.squares, "-");
        let again = read_squares(&joined).expect("joined squares read back");
        assert_eq!(again.squares, read.squares, "{text:?} -> {joined:?}");
    }

    for game in games() {
        try_text(game, text);
    }

    // Line by line from a few start points: deeper positions than the fixed ones.
    let lines: Vec<&str> = text.lines().take(64).collect();
    if lines.len() < 2 {
        return;
    }
    for base in games().iter().step_by(3) {
        let mut g = base.clone();
        for line in &lines {
            if g.play_text(line).is_err() {
                break;
            }
        }
        if g.plies() > base.plies() && g.ending().is_none() {
            for mv in g.legal_move_texts() {
                match g.check_text(&mv) {
                    Ok((rec, _)) => assert_eq!(rec, mv, "legal move read differently"),
                    Err(e) => panic!("legal move {mv:?} refused in {}: {e:?}", g.position_text()),
                }
            }
        }
    }
});
