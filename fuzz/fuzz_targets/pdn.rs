//! Records as `ugolki replay --game damas` reads them on stdin: `notation::record_moves`,
//! then each move played in turn until one is refused (the command stops there too).
//!
//! The game reached must give a PDN (`damas::Game::pdn`) and an algebraic record without
//! panicking, and both must replay to the same game. The same is done for a Corners record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_core::notation::record_moves;

/// Replay as the command line does; returns the game and how many moves were played.
fn replay(rules: &Rules, moves: &[&str]) -> (Game, usize) {
    let mut g = Game::new(rules);
    let mut played = 0;
    for m in moves {
        if g.play_text(m).is_err() {
            break;
        }
        played += 1;
    }
    (g, played)
}

fn same_game(a: &Game, b: &Game, what: &str, record: &str) {
    assert_eq!(
        a.plies(),
        b.plies(),
        "{what}: moves lost replaying {record:?}"
    );
    assert_eq!(a.position_text(), b.position_text(), "{what}: {record:?}");
    assert_eq!(a.ending(), b.ending(), "{what}: {record:?}");
    assert_eq!(a.record(), b.record(), "{what}: {record:?}");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let moves = record_moves(text);

    for flying in [true, false] {
        let rules = Rules::Damas { flying };
        let (game, played) = replay(&rules, &moves);
        assert_eq!(game.plies(), played);
        let Game::Damas(d) = &game else {
            unreachable!("a Damas game");
        };
        let pdn = d.pdn("White", "Black");
        let _ = d.pdn(text, "\"\\\n");

        // The PDN written replays to the same game.
        let from_pdn = record_moves(&pdn);
        let (again, n) = replay(&rules, &from_pdn);
        assert_eq!(n, from_pdn.len(), "PDN move refused: {pdn:?}");
        same_game(&game, &again, "PDN", &pdn);

        // So does the algebraic record.
        let record = game.record();
        let (again, n) = replay(&rules, &record_moves(&record));
        assert_eq!(n, played, "record move refused: {record:?}");
        same_game(&game, &again, "record", &record);
    }

    let rules = Rules::Corners(Variant::classic3x3());
    let (game, played) = replay(&rules, &moves);
    let record = game.record();
    let (again, n) = replay(&rules, &record_moves(&record));
    assert_eq!(n, played, "Corners record move refused: {record:?}");
    same_game(&game, &again, "Corners record", &record);
});
