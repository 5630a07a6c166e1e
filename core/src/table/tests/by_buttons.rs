//! Playing by buttons: pieces, then destinations and Back; a destination plays the move
//! through the typed path. Whole games by presses alone, a forced capture, a confirmation,
//! and bystanders who change nothing.

use super::*;
use crate::engine::{self, Level};

impl Room {
    /// The player to move plays `text` by buttons alone: the piece's button from the board
    /// `board` offered, then the destination's from the pick. The replies to the move.
    async fn play_by_buttons(&self, who: &str, board: &[Action], text: &str) -> Vec<Outgoing> {
        let squares: Vec<Square> = text
            .split(['-', 'x'])
            .map(|s| Square::parse(s).expect("a square"))
            .collect();
        let (from, to) = (squares[0], *squares.last().unwrap());
        let pick = board
            .iter()
            .copied()
            .find(|a| matches!(a, Action::ShowMoves { from: f, .. } if *f == from))
            .unwrap_or_else(|| panic!("{text}: no button for {from} in {board:?}"));
        let out = self.press(who, pick).await;
        assert!(
            matches!(out.as_slice(), [o] if matches!(o.message, Msg::Picked { .. })),
            "{out:#?}"
        );
        let go = out[0]
            .actions
            .iter()
            .copied()
            .find(|a| matches!(a, Action::MoveTo { to: t, .. } if *t == to))
            .unwrap_or_else(|| panic!("{text}: no button for {to} in {:?}", out[0].actions));
        self.press(who, go).await
    }
}

/// The buttons of the newest board among `out`.
fn board_buttons(out: &[Outgoing]) -> Vec<Action> {
    out.iter()
        .rev()
        .find(|o| o.board().is_some())
        .map(|o| o.actions.clone())
        .unwrap_or_default()
}

/// Plays a whole game of `terms` between alice and bob by presses only, each side choosing
/// with a weak engine; checks what each board offers. Whether a compulsory capture came up.
async fn whole_game_by_buttons(terms: &str) -> bool {
    let c = chat().await;
    let id = c.start(terms).await;
    let mut board: Vec<Action> = {
        let live = c.table.live(id).await.unwrap().unwrap();
        live.buttons()
    };
    let mut forced = false;
    for ply in 0..600u64 {
        let g = c.table.live(id).await.unwrap().unwrap().game;
        if g.ending().is_some() {
            break;
        }
        // The board offers exactly the pieces that can move (only capturers when forced).
        let picks: Vec<Square> = board
            .iter()
            .filter_map(|a| match a {
                Action::ShowMoves { from, .. } => Some(*from),
                _ => None,
            })
            .collect();
        assert_eq!(picks, g.movable(), "ply {ply}");
        if g.must_capture() {
            forced = true;
            for from in &picks {
                assert!(
                    g.legal_move_texts()
                        .iter()
                        .filter(|t| t.starts_with(&from.to_string()))
                        .all(|t| t.contains('x')),
                    "{from} offered but cannot capture"
                );
            }
        }
        let who = if g.turn() == Color::White {
            "alice"
        } else {
            "bob"
        };
        let mv = engine::choose(&g, Level::new(1).unwrap().settings(ply)).unwrap();
        let out = c.play_by_buttons(who, &board, &mv.text).await;
        assert!(
            out.iter()
                .any(|o| matches!(o.message, Msg::AfterMove { .. })),
            "{}: {out:#?}",
            mv.text
        );
        board = board_buttons(&out);
    }
    let g = c.table.live(id).await.unwrap().unwrap().game;
    assert!(g.ending().is_some(), "the game ended by the rules");
    assert_eq!(c.status(id).await.0, GameStatus::Finished);
    // The record is one legal game.
    let mut replay = crate::game::Game::new(&c.row(id).await.rules);
    for m in c.moves(id).await {
        replay.play_text(&m).unwrap();
    }
    forced
}

#[tokio::test]
async fn a_whole_corners_game_is_played_by_buttons_only() {
    whole_game_by_buttons("classic3x3 none casual").await;
}

#[tokio::test]
async fn d3_a_whole_damas_game_by_buttons_offers_only_capturers_when_a_capture_is_forced() {
    assert!(
        whole_game_by_buttons("damas none").await,
        "a compulsory capture came up and only capturing pieces were offered"
    );
}

#[tokio::test]
async fn c6_a_losing_move_pressed_as_buttons_waits_for_confirm() {
    let c = chat().await;
    let g = c
        .game_from("classic3x3", "8/8/4b3/4w3/8/1b6/2bw4/8 w 41", "none")
        .await;
    let board = c.table.live(g).await.unwrap().unwrap().buttons();
    let out = c.play_by_buttons("alice", &board, "d2-b2").await;
    let confirm = Action::Confirm { game: g, ply: 0 };
    assert!(
        matches!(out.as_slice(), [o] if matches!(o.message, Msg::ConfirmNeeded { .. }) && o.actions == [confirm]),
        "{out:#?}"
    );
    assert!(
        c.moves(g).await.is_empty(),
        "not played before the confirmation"
    );
    let out = c.press("alice", confirm).await;
    assert!(
        out.iter().any(|o| matches!(
            o.message,
            Msg::RulesResult {
                cause: EndCause::ReturnedHome(Color::White),
                ..
            }
        )),
        "{out:#?}"
    );
    assert_eq!(c.moves(g).await, ["d2-b2"]);
}

#[tokio::test]
async fn move_buttons_pressed_by_others_change_nothing() {
    let c = chat().await;
    let g = c.start("").await;
    let pick = Action::ShowMoves {
        game: g,
        ply: 0,
        from: sq("c3"),
    };
    let go = Action::MoveTo {
        game: g,
        ply: 0,
        from: sq("c3"),
        to: sq("d3"),
    };
    let back = Action::Back { game: g, ply: 0 };
    let row = c.row(g).await;
    for a in [pick, go, back] {
        assert_eq!(
            c.refused_press("carol", a).await,
            Msg::ButtonNotYours,
            "{a:?}"
        );
        assert_eq!(c.refused_press("bob", a).await, Msg::NotYourTurn, "{a:?}");
    }
    assert_eq!(c.row(g).await, row, "nothing changed");
    // A destination that is not one (d4 from c3) is out of date, not a move.
    let bad = Action::MoveTo {
        game: g,
        ply: 0,
        from: sq("c3"),
        to: sq("e5"),
    };
    assert_eq!(c.refused_press("alice", bad).await, Msg::ButtonStale);
    assert!(c.moves(g).await.is_empty());
    // Back gives the pieces again, and a press at an old ply is refused.
    let out = c.press("alice", back).await;
    assert_eq!(
        board_squares(&out[0].actions),
        c.table.live(g).await.unwrap().unwrap().game.movable()
    );
    c.say("alice", "c3-d3").await;
    assert_eq!(c.refused_press("alice", go).await, Msg::ButtonStale);
}

/// An adapter may hand the table the same press twice (a retried update): a destination
/// refused once is not refused again, whatever the reason — a destination is a move, whose
/// message id is recorded only when it is handled (found by the conversation fuzz).
#[tokio::test]
async fn a_repeated_refused_destination_press_is_answered_once() {
    let c = chat().await;
    let g = c.start("").await;
    let go = Action::MoveTo {
        game: g,
        ply: 0,
        from: sq("c3"),
        to: sq("d3"),
    };
    let stale = Action::MoveTo {
        game: g,
        ply: 5,
        from: sq("c3"),
        to: sq("d3"),
    };
    for (who, a, refusal) in [
        ("carol", go, Msg::ButtonNotYours),
        ("bob", go, Msg::NotYourTurn),
        ("alice", stale, Msg::ButtonStale),
    ] {
        let press = c.pressing(who, a);
        let first = c.table.handle(&press).await;
        assert!(
            matches!(first.as_slice(), [o] if o.message == refusal),
            "{who}: {first:?}"
        );
        assert!(c.table.handle(&press).await.is_empty(), "{who}: the repeat");
    }
    assert!(c.moves(g).await.is_empty());
}

fn board_squares(actions: &[Action]) -> Vec<Square> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::ShowMoves { from, .. } => Some(*from),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn every_board_marks_the_pieces_that_can_move_and_those_that_must_capture() {
    let c = chat().await;
    let g = c.start("").await;
    let out = c.say("alice", "/board").await;
    let view = c.view(&out[0]).await;
    // Everything but a1, which has neither a free neighbour nor a jump.
    assert_eq!(
        view.movable,
        ["b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"].map(sq)
    );
    assert!(!view.must_capture);
    assert_eq!(c.moves(g).await.len(), 0);
    // Damas: the first position of a game where a capture is compulsory marks only the
    // pieces that can capture, as such.
    let mut game = crate::game::Game::new(&Rules::from_id("damas").unwrap());
    let mut seen = false;
    for ply in 0..200u64 {
        if game.ending().is_some() {
            break;
        }
        let view = crate::view::BoardView::of_game(&game);
        assert_eq!(view.movable, game.movable());
        if game.must_capture() {
            assert!(view.must_capture);
            let all = game.legal_move_texts();
            for from in &view.movable {
                assert!(all
                    .iter()
                    .filter(|t| t.starts_with(&from.to_string()))
                    .all(|t| t.contains('x')));
            }
            seen = true;
            break;
        }
        assert!(!view.must_capture);
        let moves = game.legal_move_texts();
        let k = usize::try_from(engine::splitmix(ply) % moves.len() as u64).unwrap();
        game.play_text(&moves[k]).unwrap();
    }
    assert!(seen, "a capture came up");
}

#[tokio::test]
async fn move_buttons_naming_squares_off_the_board_are_refused_not_panics() {
    let c = chat().await;
    let g = c.start("").await;
    let off = sq("p16");
    for a in [
        Action::ShowMoves {
            game: g,
            ply: 0,
            from: off,
        },
        Action::MoveTo {
            game: g,
            ply: 0,
            from: off,
            to: sq("c3"),
        },
        Action::MoveTo {
            game: g,
            ply: 0,
            from: sq("c3"),
            to: off,
        },
    ] {
        let m = c.refused_press("alice", a).await;
        assert!(
            matches!(m, Msg::NoMovesFrom { .. } | Msg::ButtonStale),
            "{a:?}: {m:?}"
        );
    }
    assert!(c.moves(g).await.is_empty());
    // The same in Damas.
    let d = c.game_from("damas", "W:W22:B18", "none").await;
    let a = Action::MoveTo {
        game: d,
        ply: 0,
        from: off,
        to: off,
    };
    assert_eq!(c.refused_press("alice", a).await, Msg::ButtonStale);
}

#[tokio::test]
async fn the_board_as_it_stands_is_there_for_an_adapter_that_lost_it() {
    let c = chat().await;
    let id = c.start("classic3x3 5+3").await;
    let out = c
        .table
        .board_now(id, Lang::EN)
        .await
        .expect("a running game");
    assert!(
        matches!(out.message, Msg::BoardCaption { id: i, .. } if i == id),
        "{out:#?}"
    );
    assert_eq!(out.slot, Some(SlotUse::Replace(Slot::Board(id))));
    assert_eq!(out.ply, None, "showing it again starts no clock");
    assert!(out.board().is_some());
    let live = c.table.live(id).await.unwrap().unwrap();
    assert_eq!(out.actions, live.buttons());
    c.say("alice", "/resign").await;
    assert!(
        c.table.board_now(id, Lang::EN).await.is_none(),
        "a game over has none"
    );
}
