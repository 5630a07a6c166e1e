//! Position text for both games: `corners::Position::from_text` for several variants and
//! `damas::Position::from_text` (board form and PDN FEN) with both king rules.
//!
//! When a text is read: `to_text()` read again gives the same text (and the same position),
//! the Damas FEN reads back to the same position, and move generation does not panic and
//! agrees with itself (count, check, play).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use ugolki_core::corners::{self, Variant};
use ugolki_core::damas;

/// How many legal moves of a position get the per-move checks (Halma can have hundreds).
const PER_MOVE: usize = 64;

fn variants() -> &'static [Variant] {
    static VARIANTS: OnceLock<Vec<Variant>> = OnceLock::new();
    VARIANTS.get_or_init(|| {
        [
            "classic3x3",
            "classic3x4",
            "diagonal3x3",
            "triangle",
            "square4x4",
            "halma16",
            "training:halma16,ortho,lock=off,deadline=off,limit=off",
            "training:classic3x3,diag,blocking=on,home=a1-b2.d1",
        ]
        .iter()
        .map(|id| Variant::by_id(id).expect("variant id"))
        .collect()
    })
}

fn check_corners(v: &Variant, text: &str) {
    let Ok(p) = corners::Position::from_text(v, text) else {
        return;
    };
    let printed = p.to_text();
    let again = corners::Position::from_text(v, &printed)
        .unwrap_or_else(|e| panic!("{}: {printed:?} (from {text:?}) is refused: {e}", v.id));
    assert_eq!(again.to_text(), printed, "{}: round trip of {text:?}", v.id);
    assert_eq!(again, p, "{}: {printed:?} reads as another position", v.id);

    let moves = p.legal_moves();
    assert_eq!(
        p.count_moves(),
        moves.len() as u64,
        "{}: count_moves of {printed}",
        v.id
    );
    assert_eq!(
        p.has_legal_moves(),
        !moves.is_empty(),
        "{}: has_legal_moves of {printed}",
        v.id
    );
    for &mv in moves.iter().take(PER_MOVE) {
        if let Err(e) = p.check(mv) {
            panic!(
                "{}: legal move {mv:?} fails check in {printed}: {e:?}",
                v.id
            );
        }
        let path = p.path(mv);
        if let Err(e) = p.check_path(&path) {
            panic!(
                "{}: path {path:?} of {mv:?} refused in {printed}: {e:?}",
                v.id
            );
        }
        let _ = p.returns_home_late(mv);
        let _ = p.play_unchecked(mv).to_text();
    }
    let game = corners::Game::from_position(v, p);
    let _ = game.outcome();
    let _ = game.record();
}

fn check_damas(text: &str, flying: bool) {
    let Ok(p) = damas::Position::from_text(text, flying) else {
        return;
    };
    let printed = p.to_text();
    let again = damas::Position::from_text(&printed, flying)
        .unwrap_or_else(|e| panic!("{printed:?} (from {text:?}) is refused: {e}"));
    assert_eq!(again.to_text(), printed, "round trip of {text:?}");
    assert_eq!(again, p, "{printed:?} reads as another position");
    let fen = p.to_fen();
    let from_fen = damas::Position::from_text(&fen, flying)
        .unwrap_or_else(|e| panic!("FEN {fen:?} (from {text:?}) is refused: {e}"));
    assert_eq!(from_fen, p, "FEN {fen:?} reads as another position");

    let moves = p.legal_moves();
    assert_eq!(
        p.count_moves(),
        moves.len() as u64,
        "count_moves of {printed}"
    );
    assert_eq!(
        p.has_legal_moves(),
        !moves.is_empty(),
        "has_legal_moves of {printed}"
    );
    for mv in moves.iter().take(PER_MOVE) {
        if let Err(e) = p.play(mv) {
            panic!("legal move {mv} refused by play in {printed}: {e:?}");
        }
        let _ = damas::numeric(mv);
    }
    let game = damas::Game::from_position(p);
    let _ = game.outcome();
    let _ = game.pdn("White", "Black");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for v in variants() {
        check_corners(v, text);
    }
    for flying in [true, false] {
        check_damas(text, flying);
    }
});
