//! Positions for the button-limit tests: the start and 100 random positions of every
//! variant, and every button list the table could put under a board in them.

use ugolki_core::engine::splitmix;
use ugolki_core::game::{Game, Rules};
use ugolki_core::table::{destination_buttons, pick_buttons, Action};

/// The game's own buttons at most (Resign, Accept draw, Decline draw; or Offer draw and
/// Abort): three.
fn own(id: i64, ply: i64) -> Vec<Action> {
    vec![
        Action::Resign { game: id, ply },
        Action::AcceptDraw { game: id, ply },
        Action::DeclineDraw { game: id, ply },
    ]
}

/// Every button list under a board: the pieces, and each piece's destinations, each with
/// the game's own buttons; over the start and 100 random positions of every variant.
pub fn button_lists() -> Vec<(String, Vec<Action>)> {
    let mut ids: Vec<String> = ugolki_core::corners::STANDARD_IDS
        .iter()
        .map(ToString::to_string)
        .collect();
    ids.extend(["damas".to_string(), "damas-short".to_string()]);
    let mut out = Vec::new();
    let (id, ply) = (i64::MAX, i64::MAX);
    for variant in ids {
        let rules = Rules::from_id(&variant).expect("a variant");
        for k in 0..=100u64 {
            let mut g = Game::new(&rules);
            // Position k: k·3 random plies in (0 is the start), bounded by the game's end.
            for p in 0..k * 3 {
                let moves = g.legal_move_texts();
                if moves.is_empty() || g.ending().is_some() {
                    break;
                }
                let r = splitmix(k << 16 ^ p) % moves.len() as u64;
                g.play_text(&moves[usize::try_from(r).unwrap_or(0)])
                    .expect("legal");
            }
            let mut board = pick_buttons(&g, id, ply);
            board.extend(own(id, ply));
            out.push((format!("{variant} #{k} pieces"), board));
            for from in g.movable() {
                let mut picked = destination_buttons(&g, id, ply, from);
                picked.extend(own(id, ply));
                out.push((format!("{variant} #{k} {from}"), picked));
            }
        }
    }
    out
}
