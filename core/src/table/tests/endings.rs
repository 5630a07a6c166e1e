//! Every way a game ends through the table: by the rules of Corners (C5–C7) and Damas (D5),
//! by resignation, agreement or abort (T2), with the stored result, rule and cause code,
//! and the final board.

use super::*;

const NEAR_THE_END: &str = "5www/5www/4w1ww/8/7b/bb1b4/bbb5/bbb5 w 30";

/// A result by the rules, as the table says it after the final move.
fn by_rules(id: i64, winner: Option<Color>, name: &str, cause: EndCause, rule: &str) -> Msg {
    Msg::RulesResult {
        id,
        winner,
        name: name.into(),
        cause,
        rule: rule.into(),
    }
}

/// The replies to a move that ends the game: the final board (captioned with the move, and
/// that the game is over: nobody is to move), then the result. Returns the result.
fn final_move(out: &[Outgoing], id: i64) -> Msg {
    assert_eq!(out.len(), 2, "{out:#?}");
    let (board, result) = (&out[0], &out[1]);
    assert!(
        matches!(&board.message, Msg::AfterMove { status, .. } if **status == Msg::StatusOver),
        "{board:#?}"
    );
    assert_eq!(board.slot, Some(SlotUse::Replace(Slot::Board(id))));
    assert!(board.actions.is_empty(), "a finished game has no buttons");
    assert_eq!(board.ply, None, "a finished game starts no clock");
    let view = board.board().expect("the final board");
    assert_eq!(view.to_move, None);
    assert_eq!(
        &view.info,
        head(&result.message),
        "the header shows the result"
    );
    assert_eq!(result.audience, Audience::Chat);
    assert_eq!(result.game, Some(id));
    result.message.clone()
}

#[tokio::test]
async fn c5_corners_completion_black_first_wins() {
    let c = chat().await;
    let id = c.game_from("classic3x3", NEAR_THE_END, "none").await;
    c.say("alice", "e6-e5").await;
    let out = c.say("bob", "d3-c3").await;
    assert_eq!(
        final_move(&out, id),
        by_rules(id, Some(Color::Black), "bob", EndCause::Completed, "C5")
    );
    assert_eq!(
        c.status(id).await,
        (
            GameStatus::Finished,
            Some(GameResult::Black),
            Some("C5".into())
        )
    );
    assert_eq!(c.row(id).await.end_reason.as_deref(), Some("completed"));
    assert!(
        c.say("alice", "e5-e4").await.is_empty(),
        "no game of alice's is running here"
    );
    assert_eq!(
        c.refused("alice", &format!("/move {id} e5-e4")).await,
        Msg::GameIsOver { id }
    );
}

#[tokio::test]
async fn c5_corners_black_has_the_last_move_draw_and_white_win() {
    let c = chat().await;
    let id = c.game_from("classic3x3", NEAR_THE_END, "none").await;
    let after = c.said("alice", "e6-f6").await;
    assert!(
        matches!(&after, Msg::AfterMove { status, .. }
            if matches!(&**status, Msg::Status { to_move, move_no: 30, .. } if to_move == "bob")),
        "Black still plays move 30: {after:?}"
    );
    let out = c.say("bob", "d3-c3").await;
    assert_eq!(
        final_move(&out, id),
        by_rules(id, None, "", EndCause::BothCompleted { move_no: 30 }, "C5")
    );
    assert_eq!(
        c.cause(id).await,
        Some(EndCause::BothCompleted { move_no: 30 })
    );
    let id2 = c.game_from("classic3x3", NEAR_THE_END, "none").await;
    assert_ne!(id, id2);
    // alice now has one game: the first is over.
    c.say("alice", "e6-f6").await;
    let out = c.say("bob", "h4-h3").await;
    assert_eq!(
        final_move(&out, id2),
        by_rules(id2, Some(Color::White), "alice", EndCause::Completed, "C5")
    );
}

#[tokio::test]
async fn c6_c7_corners_deadline_limit_and_no_moves() {
    let c = chat().await;
    let id = c
        .game_from("classic3x3", "8/8/8/3bb3/3w4/8/8/w7 b 40", "none")
        .await;
    let out = c.say("bob", "e5-e6").await;
    assert_eq!(
        final_move(&out, id),
        by_rules(
            id,
            Some(Color::Black),
            "bob",
            EndCause::LeftHomeLate(Color::White),
            "C6"
        )
    );
    assert_eq!(
        c.row(id).await.end_reason.as_deref(),
        Some("left-home-late:white")
    );
    let id = c
        .game_from("classic3x3", "8/8/5ww1/8/3b4/8/8/b7 b 80", "none")
        .await;
    let out = c.say("bob", "d4-d5").await;
    assert_eq!(
        final_move(&out, id),
        by_rules(
            id,
            Some(Color::White),
            "alice",
            EndCause::Limit { white: 2, black: 1 },
            "C7"
        )
    );
    assert_eq!(c.row(id).await.end_reason.as_deref(), Some("limit:2:1"));
    let id = c
        .game_from("diagonal3x3", "5wwb/6ww/7w/4w3/8/8/8/8 w 10", "none")
        .await;
    let out = c.say("alice", "e5-f6").await;
    assert_eq!(
        final_move(&out, id),
        by_rules(id, None, "", EndCause::NoLegalMove(Color::Black), "C7")
    );
    assert_eq!(
        c.status(id).await,
        (
            GameStatus::Finished,
            Some(GameResult::Draw),
            Some("C7".into())
        )
    );
}

#[tokio::test]
async fn c6_corners_losing_return_home_asks_for_confirmation() {
    let c = chat().await;
    let id = c
        .game_from("classic3x3", "8/8/4b3/4w3/8/1b6/2bw4/8 w 41", "none")
        .await;
    let out = c.say("alice", "d2-b2").await;
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0].message,
        Msg::ConfirmNeeded {
            recorded: "d2-b2".into(),
            deadline: 40,
            buttons: false
        }
    );
    assert_eq!(out[0].audience, Audience::Sender, "only the mover is asked");
    assert_eq!(out[0].actions, [Action::Confirm { game: id, ply: 0 }]);
    assert!(c.moves(id).await.is_empty());
    assert_eq!(c.refused("bob", "/confirm").await, Msg::NothingToConfirm);
    let out = c.say("alice", "/confirm").await;
    assert_eq!(
        final_move(&out, id),
        by_rules(
            id,
            Some(Color::Black),
            "bob",
            EndCause::ReturnedHome(Color::White),
            "C6"
        )
    );
    assert_eq!(c.moves(id).await, ["d2-b2"]);
}

#[tokio::test]
async fn c7_corners_threefold_repetition_through_the_table() {
    let c = chat().await;
    let id = c.start("").await;
    for (who, m) in [
        ("alice", "c3-d3"),
        ("bob", "f6-e6"),
        ("alice", "d3-c3"),
        ("bob", "e6-f6"),
    ]
    .repeat(2)
    {
        c.say(who, m).await;
    }
    assert_eq!(
        c.status(id).await,
        (
            GameStatus::Finished,
            Some(GameResult::Draw),
            Some("C7".into())
        )
    );
    assert_eq!(c.cause(id).await, Some(EndCause::Repetition));
}

#[tokio::test]
async fn t2_resign_draw_and_abort() {
    let c = chat().await;
    let id = c.start("").await;
    assert_eq!(
        c.said("alice", "/abort").await,
        Msg::Aborted {
            id,
            by: "alice".into()
        }
    );
    assert_eq!(c.status(id).await.1, Some(GameResult::Void));
    assert_eq!(c.cause(id).await, Some(EndCause::Aborted));

    let id = c.start("").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    assert_eq!(c.refused("bob", "/abort").await, Msg::AbortTooLate);
    let out = c.say("alice", "/draw").await;
    assert_eq!(
        messages(&out),
        [Msg::DrawOffered {
            by: "alice".into(),
            to: "bob".into(),
            buttons: false
        }]
    );
    assert_eq!(c.refused("alice", "/draw").await, Msg::DrawAlreadyOffered);
    assert_eq!(c.refused("alice", "/nodraw").await, Msg::NoDrawOffer);
    assert_eq!(
        c.said("bob", "/nodraw").await,
        Msg::DrawDeclined { by: "bob".into() }
    );
    c.say("alice", "/draw").await;
    // A move by bob declines it too; alice's own move leaves her offer standing.
    assert!(matches!(
        c.said("alice", "b3-b4").await,
        Msg::AfterMove {
            offer_declined: false,
            ..
        }
    ));
    assert_eq!(c.row(id).await.draw_offer_by, Some(Color::White));
    assert!(matches!(
        c.said("bob", "e6-e5").await,
        Msg::AfterMove {
            offer_declined: true,
            ..
        }
    ));
    assert_eq!(c.row(id).await.draw_offer_by, None);
    c.say("bob", "/draw").await;
    assert_eq!(
        c.said("alice", "/draw").await,
        rated(
            Msg::DrawAgreed { id },
            &[("alice", 1000, 0), ("bob", 1000, 0)]
        )
    );
    assert_eq!(c.status(id).await.1, Some(GameResult::Draw));
    assert_eq!(c.cause(id).await, Some(EndCause::Agreed));

    let id = c.start("").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    assert_eq!(
        c.said("bob", "/resign").await,
        alice_won(Msg::Resigned {
            id,
            loser: "bob".into(),
            winner: "alice".into()
        })
    );
    assert_eq!(
        c.status(id).await,
        (
            GameStatus::Finished,
            Some(GameResult::White),
            Some("T2".into())
        )
    );
    assert_eq!(
        c.row(id).await.end_reason.as_deref(),
        Some("resigned:black")
    );
}

#[tokio::test]
async fn d4_d5_damas_game_to_the_end_and_records() {
    let c = chat().await;
    let id = c.start("damas").await;
    for (who, m) in [("alice", "11-15"), ("bob", "22-19")] {
        assert!(matches!(
            c.said(who, m).await,
            Msg::AfterMove { ref mover, .. } if mover == who
        ));
    }
    // Taking is compulsory.
    assert_eq!(
        c.refused("alice", "9-13").await,
        Msg::Refused {
            text: "9-13".into(),
            reason: Box::new(Msg::IllCaptureCompulsory)
        }
    );
    let out = c.say("alice", "15x22").await;
    assert_eq!(
        c.view(&out[0]).await.taken.len(),
        1,
        "the taken piece is shown"
    );
    assert_eq!(
        c.said("alice", &format!("/record {id}")).await,
        Msg::Record {
            id,
            white: "alice".into(),
            black: "bob".into(),
            rules: Box::new(crate::game::Rules::Damas { flying: true }),
            moves: "1. d3-c4 e6-d5 2. c4xe6".into(),
            outcome: None,
        }
    );
    let id2 = c.game_from("damas", "W:W12:B15", "none").await;
    let out = c.say("alice", &format!("/move {id2} b3xd5")).await;
    assert_eq!(
        final_move(&out, id2),
        by_rules(
            id2,
            Some(Color::White),
            "alice",
            EndCause::NoPieces(Color::Black),
            "D5"
        )
    );
    assert!(matches!(
        c.said("alice", &format!("/record {id2}")).await,
        Msg::Record { outcome: Some(o), .. } if *o == Msg::RecordResult {
            result: "white".into(),
            name: "alice".into(),
            cause: Some(EndCause::NoPieces(Color::Black)),
        }
    ));
}

#[tokio::test]
async fn d5_damas_blocked_side_and_repetition_through_the_table() {
    let c = chat().await;
    let id = c.game_from("damas", "W:WK7:B8", "none").await;
    let out = c.say("alice", "7-4").await;
    assert_eq!(
        final_move(&out, id),
        by_rules(
            id,
            Some(Color::White),
            "alice",
            EndCause::CannotMove(Color::Black),
            "D5"
        )
    );
    let id = c.game_from("damas", "W:WK4:BK29", "none").await;
    for (who, m) in [
        ("alice", "4-7"),
        ("bob", "29-25"),
        ("alice", "7-4"),
        ("bob", "25-29"),
    ]
    .repeat(2)
    {
        c.say(who, m).await;
    }
    assert_eq!(
        c.status(id).await,
        (
            GameStatus::Finished,
            Some(GameResult::Draw),
            Some("D5".into())
        )
    );
    assert_eq!(c.cause(id).await, Some(EndCause::Repetition));
}

#[tokio::test]
async fn t1_t2_damas_flag_resign_agreed_draw_and_abort() {
    let c = chat().await;
    let id = c.start("damas 1+0").await;
    c.say("alice", "11-15").await;
    c.say("bob", "21-17").await;
    c.say("alice", "9-13").await;
    c.time.advance(MIN);
    let out = c.table.fire_due().await;
    assert_eq!(
        messages(&out),
        [Msg::Flagged {
            id,
            loser: "bob".into(),
            winner: "alice".into()
        }],
        "casual: no ratings"
    );
    let id = c.start("damas").await;
    assert_eq!(
        c.said("alice", "/abort").await,
        Msg::Aborted {
            id,
            by: "alice".into()
        }
    );
    let id = c.start("damas").await;
    c.say("alice", "11-15").await;
    c.say("bob", "/draw").await;
    assert_eq!(c.said("alice", "/draw").await, Msg::DrawAgreed { id });
    let id = c.start("damas").await;
    c.say("alice", "11-15").await;
    c.say("bob", "22-19").await;
    assert_eq!(
        c.said("alice", "/resign").await,
        Msg::Resigned {
            id,
            loser: "alice".into(),
            winner: "bob".into()
        }
    );
    assert_eq!(
        c.status(id).await,
        (
            GameStatus::Finished,
            Some(GameResult::Black),
            Some("T2".into())
        )
    );
    assert_eq!(c.cause(id).await, Some(EndCause::Resigned(Color::White)));
}

/// The final board is seen from the winner's side, White's on a draw or a void game.
#[tokio::test]
async fn the_final_board_is_seen_from_the_winners_side() {
    let c = chat().await;
    // Black wins by the rules (C5).
    let id = c.game_from("classic3x3", NEAR_THE_END, "none").await;
    c.say("alice", "e6-e5").await;
    let out = c.say("bob", "d3-c3").await;
    assert!(out[0].board().unwrap().flip, "Black won: Black's view");
    // White wins by the rules (C5): Black moved last, the board turns back to White.
    let id2 = c.game_from("classic3x3", NEAR_THE_END, "none").await;
    assert_ne!(id, id2);
    c.say("alice", "e6-f6").await;
    let out = c.say("bob", "h4-h3").await;
    assert!(!out[0].board().unwrap().flip, "White won: White's view");
    // A draw by the rules, made by Black's move: White's view.
    c.game_from("classic3x3", NEAR_THE_END, "none").await;
    c.say("alice", "e6-f6").await;
    let out = c.say("bob", "d3-c3").await;
    assert!(
        matches!(out[1].message, Msg::RulesResult { winner: None, .. }),
        "{out:#?}"
    );
    assert!(!out[0].board().unwrap().flip, "a draw: White's view");
    // White resigns on her move: Black wins (after both moved; before, F1 aborts).
    c.start("").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    let out = c.say("alice", "/resign").await;
    let board = out[0].board().unwrap();
    assert!(board.flip, "Black won by resignation: Black's view");
    assert_eq!(board.to_move, None);
    assert!(out[0].actions.is_empty());
    // Black resigns after White's move: White's view although Black was to move.
    c.start("").await;
    c.say("alice", "c3-d3").await;
    let out = c.say("bob", "/resign").await;
    assert!(!out[0].board().unwrap().flip);
    // White's flag falls: Black's view.
    c.start("1+0").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    c.time.advance(MIN);
    let out = c.table.fire_due().await;
    assert!(matches!(head(&out[0].message), Msg::Flagged { loser, .. } if loser == "alice"));
    assert!(out[0].board().unwrap().flip);
    // An agreed draw after Black's offer: White's view.
    c.start("").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "/draw").await;
    let out = c.say("alice", "/draw").await;
    assert!(!out[0].board().unwrap().flip);
}

/// T2/T3: a game ended by agreement or by resignation — not by the rules — has nobody to
/// move: its last board marks no piece as movable and names no side to move (while the
/// game ran, the same position marked them).
#[tokio::test]
async fn t2_t3_a_board_after_an_agreed_or_resigned_ending_marks_no_piece_as_movable() {
    let c = chat().await;
    for ending in [["/draw", "/draw"], ["/resign", ""]] {
        c.start("").await;
        let running = c.say("alice", "c3-d3").await;
        let board = running
            .iter()
            .find(|o| o.board().is_some())
            .expect("a board");
        let during = c.view(board).await;
        assert!(!during.movable.is_empty() && during.to_move.is_some());
        let mut out = c.say("bob", ending[0]).await;
        if !ending[1].is_empty() {
            out = c.say("alice", ending[1]).await;
        }
        let last = out
            .iter()
            .find(|o| o.board().is_some())
            .unwrap_or_else(|| panic!("{ending:?}: a last board: {out:#?}"));
        let after = c.view(last).await;
        assert_eq!(after.to_move, None, "{ending:?}");
        assert!(after.movable.is_empty(), "{ending:?}: {:?}", after.movable);
        assert!(!after.must_capture, "{ending:?}");
    }
}

/// `/record` with no number when no game is in play here: the player's game just finished
/// (as `/review` takes it), not "no game here"; before any game, still "no game here".
#[tokio::test]
async fn record_without_a_number_after_the_end_is_the_game_just_finished() {
    let c = chat().await;
    assert_eq!(c.refused("alice", "/record").await, Msg::NoGameHere);
    let id = c.start("classic3x3").await;
    c.said("alice", "c3-d3").await;
    c.say("bob", "/resign").await;
    assert!(matches!(
        c.said("alice", "/record").await,
        Msg::Record { id: shown, ref moves, outcome: Some(_), .. } if shown == id && moves == "1. c3-d3"
    ));
    // Another player's finished game here is not theirs to get by default.
    assert_eq!(c.refused("carol", "/record").await, Msg::NoGameHere);
}
