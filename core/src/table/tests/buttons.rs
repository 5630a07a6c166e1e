//! Buttons: the actions a reply carries, and what pressing them does. Challenge buttons name
//! their challenge; game buttons name their game and the ply they were offered at, and are
//! refused privately (changing nothing) when out of date or pressed by someone else.

use super::*;

/// alice challenges bob (alice White); the challenge id, with its buttons checked.
async fn challenge(c: &Room) -> i64 {
    let out = c.say("alice", "/challenge @bob white").await;
    let Msg::ChallengeTo { id, .. } = out[0].message else {
        panic!("{out:#?}")
    };
    assert_eq!(
        without_squares(&out[0].actions),
        [
            Action::Accept { challenge: id },
            Action::Decline { challenge: id },
            Action::Cancel { challenge: id },
        ]
    );
    id
}

#[tokio::test]
async fn a_challenge_accepted_by_button_starts_the_game() {
    let c = chat().await;
    let id = challenge(&c).await;
    let out = c.press("bob", Action::Accept { challenge: id }).await;
    assert_eq!(out.len(), 2, "{out:#?}");
    let (taken, board) = (&out[0], &out[1]);
    let g = board.game.expect("the board names its game");
    assert_eq!(
        taken.message,
        Msg::ChallengeTaken {
            id,
            by: "bob".into(),
            game: g
        }
    );
    assert_eq!(taken.audience, Audience::Chat);
    assert_eq!(taken.slot, Some(SlotUse::Edit(Slot::Challenge(id))));
    assert!(
        taken.actions.is_empty(),
        "an answered challenge has no buttons"
    );
    assert!(
        matches!(&board.message, Msg::GameStarted { id: i, white, black, .. }
            if *i == g && white == "alice" && black == "bob"),
        "{board:#?}"
    );
    assert_eq!(board.audience, Audience::Chat);
    assert_eq!(board.slot, Some(SlotUse::Replace(Slot::Board(g))));
    assert_eq!(board.ply, Some(0));
    assert_eq!(
        without_squares(&board.actions),
        [
            Action::Resign { game: g, ply: 0 },
            Action::OfferDraw { game: g, ply: 0 },
            Action::Abort { game: g, ply: 0 },
        ]
    );
    let view = c.view(board).await;
    assert!(!view.flip, "White moves first");
    assert_eq!(view.to_move, Some(Color::White));
    assert_eq!(c.status(g).await.0, GameStatus::Active);
    assert!(c.store.open_challenges().await.unwrap().is_empty());
    // The same button again, pressed later: the challenge is gone.
    assert_eq!(
        c.refused_press("bob", Action::Accept { challenge: id })
            .await,
        Msg::NoSuchChallenge { id }
    );
}

#[tokio::test]
async fn challenge_buttons_decline_and_cancel_only_for_their_people() {
    let c = chat().await;
    let id = challenge(&c).await;
    assert_eq!(
        c.refused_press("carol", Action::Accept { challenge: id })
            .await,
        Msg::ChallengeForSomeoneElse { id }
    );
    assert_eq!(
        c.refused_press("carol", Action::Decline { challenge: id })
            .await,
        Msg::OnlyTargetDeclines { buttons: false }
    );
    assert_eq!(
        c.refused_press("bob", Action::Cancel { challenge: id })
            .await,
        Msg::OnlyAuthorCancels
    );
    assert_eq!(
        c.refused_press("alice", Action::Accept { challenge: id })
            .await,
        Msg::OwnChallenge { buttons: false }
    );
    let out = c.press("bob", Action::Decline { challenge: id }).await;
    assert_eq!(
        messages(&out),
        [Msg::Declined {
            id,
            by: "bob".into(),
            challenger: "alice".into()
        }]
    );
    assert_eq!(out[0].slot, Some(SlotUse::Edit(Slot::Challenge(id))));
    assert!(out[0].actions.is_empty());
    let id = challenge(&c).await;
    let out = c.press("alice", Action::Cancel { challenge: id }).await;
    assert_eq!(messages(&out), [Msg::Cancelled { id }]);
    assert_eq!(out[0].slot, Some(SlotUse::Edit(Slot::Challenge(id))));
    assert!(c.store.open_challenges().await.unwrap().is_empty());
    assert!(c.store.active_games().await.unwrap().is_empty());
}

/// A Resign button's second press resigns only within its window, by the same player, at
/// the same ply: a double tap, a late press, the opponent's press or a move in between
/// each leave the game running and ask again.
#[tokio::test]
async fn t2_resign_button_asks_before_it_resigns() {
    let c = chat().await;
    let g = c.start("").await;
    c.say("alice", "c3-d3").await;
    let resign = |ply| Action::Resign { game: g, ply };
    let ask = Msg::ResignAsk {
        id: g,
        seconds: RESIGN_WINDOW_MS / 1000,
    };
    assert_eq!(only_private(&c.press("bob", resign(1)).await), ask);
    // A double tap: the same press twice, asked again, the game unchanged.
    c.time.advance(RESIGN_SECOND_MS / 2);
    assert_eq!(only_private(&c.press("bob", resign(1)).await), ask);
    assert_eq!(c.row(g).await.status, GameStatus::Active);
    // Too late: asked again (and the window starts anew).
    c.time.advance(RESIGN_WINDOW_MS + 1);
    assert_eq!(only_private(&c.press("bob", resign(1)).await), ask);
    // Alice's question is her own, and it leaves bob's standing: each side's second press
    // counts for that side only.
    c.time.advance(RESIGN_SECOND_MS / 2);
    assert_eq!(only_private(&c.press("alice", resign(1)).await), ask);
    assert_eq!(c.row(g).await.status, GameStatus::Active);
    c.time.advance(RESIGN_SECOND_MS / 2);
    let out = c.press("bob", resign(1)).await;
    assert_eq!(
        head(&out[0].message),
        &Msg::Resigned {
            id: g,
            loser: "bob".into(),
            winner: "alice".into()
        },
        "bob's question stood beside alice's"
    );
    let g = c.start("").await;
    c.say("alice", "c3-d3").await;
    let resign = |ply| Action::Resign { game: g, ply };
    let ask = Msg::ResignAsk {
        id: g,
        seconds: RESIGN_WINDOW_MS / 1000,
    };
    let before = c.row(g).await;
    assert_eq!(only_private(&c.press("alice", resign(1)).await), ask);
    // A move in between: the buttons of the new board ask anew.
    c.say("bob", "f6-e6").await;
    c.time.advance(RESIGN_SECOND_MS);
    assert_eq!(only_private(&c.press("alice", resign(2)).await), ask);
    let row = c.row(g).await;
    assert_eq!((row.status, row.ply), (GameStatus::Active, 2));
    assert_eq!(row.result, before.result, "no result yet");
    // The second press in time resigns; a typed /resign needs none.
    c.time.advance(RESIGN_WINDOW_MS);
    let out = c.press("alice", resign(2)).await;
    assert_eq!(
        head(&out[0].message),
        &Msg::Resigned {
            id: g,
            loser: "alice".into(),
            winner: "bob".into()
        }
    );
    assert_eq!(c.row(g).await.status, GameStatus::Finished);
    let g2 = c.start("").await;
    c.say("alice", "c3-d3").await;
    assert!(matches!(
        head(&c.said("bob", &format!("/resign {g2}")).await),
        Msg::Resigned { .. }
    ));
}

#[tokio::test]
async fn t2_resign_by_button() {
    let c = chat().await;
    let g = c.start("").await;
    let out = c.say("alice", "c3-d3").await;
    assert_eq!(without_squares(&out[0].actions), game_buttons(g, 1));
    let out = c.press("bob", Action::Resign { game: g, ply: 1 }).await;
    // The first press asks, for bob alone; the game goes on.
    assert_eq!(
        only_private(&out),
        Msg::ResignAsk {
            id: g,
            seconds: RESIGN_WINDOW_MS / 1000
        }
    );
    assert_eq!(c.row(g).await.status, GameStatus::Active);
    c.time.advance(RESIGN_SECOND_MS);
    let out = c.press("bob", Action::Resign { game: g, ply: 1 }).await;
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0].message,
        alice_won(Msg::Resigned {
            id: g,
            loser: "bob".into(),
            winner: "alice".into()
        })
    );
    assert_eq!(out[0].audience, Audience::Chat);
    assert_eq!(out[0].slot, Some(SlotUse::Replace(Slot::Board(g))));
    assert!(out[0].actions.is_empty(), "a finished game has no buttons");
    assert_eq!(
        c.status(g).await,
        (
            GameStatus::Finished,
            Some(GameResult::White),
            Some("T2".into())
        )
    );
    assert_eq!(c.cause(g).await, Some(EndCause::Resigned(Color::Black)));
}

#[tokio::test]
async fn t2_draw_offered_and_accepted_by_button() {
    let c = chat().await;
    let g = c.start("").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    let out = c
        .press("alice", Action::OfferDraw { game: g, ply: 2 })
        .await;
    assert_eq!(out.len(), 1);
    let o = &out[0];
    assert_eq!(
        o.message,
        Msg::DrawOffered {
            by: "alice".into(),
            to: "bob".into(),
            buttons: false
        }
    );
    assert_eq!(o.audience, Audience::Chat);
    assert_eq!(o.game, Some(g));
    assert_eq!(o.slot, Some(SlotUse::Replace(Slot::Board(g))));
    assert_eq!(
        without_squares(&o.actions),
        [
            Action::Resign { game: g, ply: 2 },
            Action::AcceptDraw { game: g, ply: 2 },
            Action::DeclineDraw { game: g, ply: 2 },
        ],
        "no Abort once both sides have moved"
    );
    assert_eq!(c.row(g).await.draw_offer_by, Some(Color::White));
    let out = c.press("bob", Action::AcceptDraw { game: g, ply: 2 }).await;
    assert_eq!(
        messages(&out),
        [rated(
            Msg::DrawAgreed { id: g },
            &[("alice", 1000, 0), ("bob", 1000, 0)]
        )]
    );
    assert!(out[0].actions.is_empty());
    assert!(!out[0].board().unwrap().flip, "a draw: White's view");
    assert_eq!(
        c.status(g).await,
        (
            GameStatus::Finished,
            Some(GameResult::Draw),
            Some("T2".into())
        )
    );
    assert_eq!(c.cause(g).await, Some(EndCause::Agreed));
}

#[tokio::test]
async fn t2_a_draw_offer_before_both_moved_keeps_abort() {
    let c = chat().await;
    let g = c.start("").await;
    let out = c.press("bob", Action::OfferDraw { game: g, ply: 0 }).await;
    assert_eq!(
        without_squares(&out[0].actions),
        [
            Action::Resign { game: g, ply: 0 },
            Action::AcceptDraw { game: g, ply: 0 },
            Action::DeclineDraw { game: g, ply: 0 },
            Action::Abort { game: g, ply: 0 },
        ]
    );
    // Declined, offered again, and accepted by button before anyone moved.
    c.say("alice", "/nodraw").await;
    let out = c.press("bob", Action::OfferDraw { game: g, ply: 0 }).await;
    assert!(matches!(out[0].message, Msg::DrawOffered { .. }));
    let out = c
        .press("alice", Action::AcceptDraw { game: g, ply: 0 })
        .await;
    assert_eq!(
        messages(&out),
        [rated(
            Msg::DrawAgreed { id: g },
            &[("alice", 1000, 0), ("bob", 1000, 0)]
        )]
    );
}

#[tokio::test]
async fn t2_draw_declined_by_button_and_by_a_move() {
    let c = chat().await;
    let g = c.start("").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    c.press("alice", Action::OfferDraw { game: g, ply: 2 })
        .await;
    // alice cannot accept her own offer; it stays.
    assert_eq!(
        c.refused_press("alice", Action::AcceptDraw { game: g, ply: 2 })
            .await,
        Msg::DrawAlreadyOffered
    );
    assert_eq!(c.row(g).await.draw_offer_by, Some(Color::White));
    let out = c
        .press("bob", Action::DeclineDraw { game: g, ply: 2 })
        .await;
    assert_eq!(messages(&out), [Msg::DrawDeclined { by: "bob".into() }]);
    assert_eq!(out[0].slot, Some(SlotUse::Replace(Slot::Board(g))));
    assert_eq!(without_squares(&out[0].actions), game_buttons(g, 2));
    assert_eq!(c.row(g).await.draw_offer_by, None);
    // No offer to accept now: the accept button is out of date.
    assert_eq!(
        c.refused_press("bob", Action::AcceptDraw { game: g, ply: 2 })
            .await,
        Msg::ButtonStale
    );
    // An offer standing through the offerer's own move: the new board has the answers.
    c.press("alice", Action::OfferDraw { game: g, ply: 2 })
        .await;
    let out = c.say("alice", "b3-b4").await;
    assert_eq!(
        without_squares(&out[0].actions),
        [
            Action::Resign { game: g, ply: 3 },
            Action::AcceptDraw { game: g, ply: 3 },
            Action::DeclineDraw { game: g, ply: 3 },
        ]
    );
    // bob's move declines it; his board is back to the plain buttons.
    let out = c.say("bob", "e6-e5").await;
    assert!(matches!(
        out[0].message,
        Msg::AfterMove {
            offer_declined: true,
            ..
        }
    ));
    assert_eq!(without_squares(&out[0].actions), game_buttons(g, 4));
}

#[tokio::test]
async fn t2_abort_by_button() {
    let c = chat().await;
    let g = c.start("").await;
    let out = c.say("alice", "c3-d3").await;
    assert!(out[0].actions.contains(&Action::Abort { game: g, ply: 1 }));
    let out = c.press("bob", Action::Abort { game: g, ply: 1 }).await;
    assert_eq!(
        messages(&out),
        [Msg::Aborted {
            id: g,
            by: "bob".into()
        }]
    );
    assert!(out[0].actions.is_empty());
    assert_eq!(c.status(g).await.1, Some(GameResult::Void));
    assert_eq!(c.cause(g).await, Some(EndCause::Aborted));
    // Abort is offered only while it is allowed.
    let g = c.start("").await;
    c.say("alice", "c3-d3").await;
    let out = c.say("bob", "f6-e6").await;
    assert!(!out[0]
        .actions
        .iter()
        .any(|a| matches!(a, Action::Abort { .. })));
    assert_eq!(c.status(g).await.0, GameStatus::Active);
}

#[tokio::test]
async fn a_stale_button_is_refused_privately_and_changes_nothing() {
    let c = chat().await;
    let g = c.start("").await;
    c.say("alice", "c3-d3").await;
    let row = c.row(g).await;
    // Buttons of the board before alice's move.
    for a in [
        Action::Resign { game: g, ply: 0 },
        Action::OfferDraw { game: g, ply: 0 },
        Action::Abort { game: g, ply: 0 },
        Action::DeclineDraw { game: g, ply: 0 },
        Action::Resign { game: g, ply: 7 },
    ] {
        assert_eq!(c.refused_press("bob", a).await, Msg::ButtonStale, "{a:?}");
    }
    assert_eq!(c.row(g).await, row, "nothing changed");
    assert_eq!(c.moves(g).await, ["c3-d3"]);
    // A game that is not in this chat, or does not exist.
    let mut elsewhere = c.pressing("bob", Action::Resign { game: g, ply: 1 });
    elsewhere.origin.chat = room("another room");
    assert_eq!(
        only_private(&c.table.handle(&elsewhere).await),
        Msg::ButtonStale
    );
    assert_eq!(
        c.refused_press(
            "bob",
            Action::Resign {
                game: g + 40,
                ply: 1
            }
        )
        .await,
        Msg::ButtonStale
    );
    assert_eq!(c.row(g).await, row, "nothing changed");
    // A finished game's buttons are all out of date.
    c.press("bob", Action::Resign { game: g, ply: 1 }).await;
    c.time.advance(RESIGN_SECOND_MS);
    c.press("bob", Action::Resign { game: g, ply: 1 }).await;
    let finished = c.row(g).await;
    assert_eq!(finished.status, GameStatus::Finished);
    for a in [
        Action::Resign { game: g, ply: 1 },
        Action::OfferDraw { game: g, ply: 1 },
        Action::Abort { game: g, ply: 1 },
    ] {
        assert_eq!(c.refused_press("alice", a).await, Msg::ButtonStale, "{a:?}");
    }
    assert_eq!(c.row(g).await, finished);
}

#[tokio::test]
async fn a_button_pressed_by_a_non_player_is_refused_privately() {
    let c = chat().await;
    let g = c.start("").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "/draw").await;
    let row = c.row(g).await;
    for a in [
        Action::Resign { game: g, ply: 1 },
        Action::AcceptDraw { game: g, ply: 1 },
        Action::DeclineDraw { game: g, ply: 1 },
        Action::Abort { game: g, ply: 1 },
        Action::Confirm { game: g, ply: 1 },
        Action::ShowMoves {
            game: g,
            ply: 1,
            from: sq("b3"),
        },
        Action::Resign { game: g, ply: 0 },
    ] {
        assert_eq!(
            c.refused_press("carol", a).await,
            Msg::ButtonNotYours,
            "{a:?}"
        );
    }
    assert_eq!(c.row(g).await, row, "nothing changed");
    assert_eq!(c.moves(g).await, ["c3-d3"]);
}

#[tokio::test]
async fn a_repeated_button_press_is_handled_once() {
    let c = chat().await;
    let g = c.start("").await;
    let press = c.pressing("alice", Action::OfferDraw { game: g, ply: 0 });
    assert_eq!(c.table.handle(&press).await.len(), 1);
    assert!(
        c.table.handle(&press).await.is_empty(),
        "the same press, re-sent"
    );
    assert_eq!(
        c.refused_press("alice", Action::OfferDraw { game: g, ply: 0 })
            .await,
        Msg::DrawAlreadyOffered,
        "a second press is a second offer"
    );
}

#[tokio::test]
async fn c6_a_losing_move_confirmed_by_button() {
    let c = chat().await;
    let g = c
        .game_from("classic3x3", "8/8/4b3/4w3/8/1b6/2bw4/8 w 41", "none")
        .await;
    let out = c.say("alice", "d2-b2").await;
    let confirm = Action::Confirm { game: g, ply: 0 };
    assert_eq!(without_squares(&out[0].actions), [confirm]);
    assert_eq!(c.refused_press("bob", confirm).await, Msg::NothingToConfirm);
    let out = c.press("alice", confirm).await;
    assert!(
        matches!(
            out.last().map(|o| &o.message),
            Some(Msg::RulesResult {
                winner: Some(Color::Black),
                cause: EndCause::ReturnedHome(Color::White),
                ..
            })
        ),
        "{out:#?}"
    );
    assert_eq!(c.moves(g).await, ["d2-b2"]);
    assert_eq!(c.refused_press("alice", confirm).await, Msg::ButtonStale);
}

#[tokio::test]
async fn a_square_button_shows_where_the_piece_can_go() {
    let c = chat().await;
    let g = c.start("").await;
    let out = c
        .press(
            "alice",
            Action::ShowMoves {
                game: g,
                ply: 0,
                from: sq("c3"),
            },
        )
        .await;
    assert_eq!(
        messages(&out),
        [Msg::Picked {
            id: g,
            square: sq("c3"),
            list: "d3, c4".into()
        }]
    );
    // The living message's buttons become the destinations and Back; no new picture.
    assert_eq!(out[0].slot, Some(SlotUse::Edit(Slot::Board(g))));
    assert!(out[0].board().is_none());
    let squares: Vec<Action> = out[0]
        .actions
        .iter()
        .copied()
        .filter(|a| a.is_square())
        .collect();
    assert_eq!(
        squares,
        [
            Action::MoveTo {
                game: g,
                ply: 0,
                from: sq("c3"),
                to: sq("d3")
            },
            Action::MoveTo {
                game: g,
                ply: 0,
                from: sq("c3"),
                to: sq("c4")
            },
        ]
    );
    assert!(out[0].actions.contains(&Action::Back { game: g, ply: 0 }));
    assert!(c.moves(g).await.is_empty(), "showing is not moving");
}

// ---- Buttons racing moves ----
//
// A button's ply is checked again under the game's lock: a move that lands between the
// press and its handling makes the press out of date, and it changes nothing.

/// A button pressed while a move is being played acts at its own ply or not at all.
#[tokio::test]
async fn a_resign_button_racing_the_opponents_move_is_stale_or_first() {
    let c = chat().await;
    let g = c.start("").await;
    c.say("alice", "c3-d3").await;
    // Asked once already: the press that races the move is the one that resigns.
    c.press("alice", Action::Resign { game: g, ply: 1 }).await;
    c.time.advance(RESIGN_SECOND_MS);
    let press = c.pressing("alice", Action::Resign { game: g, ply: 1 });
    let mv = c.incoming("bob", "f6-e6");
    let (pressed, moved) = tokio::join!(c.table.handle(&press), c.table.handle(&mv));
    let row = c.row(g).await;
    if row.ply == 2 {
        // The move went first: the button was out of date.
        assert_eq!(messages(&pressed), [Msg::ButtonStale], "{moved:#?}");
        assert_eq!(row.status, GameStatus::Active);
    } else {
        // The resignation went first: the move came too late.
        assert_eq!(row.ply, 1);
        assert_eq!(row.status, GameStatus::Finished);
    }
}

#[tokio::test]
async fn an_accept_draw_button_racing_a_declining_move_never_makes_a_new_offer() {
    let c = chat().await;
    let g = c.start("").await;
    c.say("alice", "c3-d3").await;
    c.say("alice", "/draw").await;
    let press = c.pressing("bob", Action::AcceptDraw { game: g, ply: 1 });
    let mv = c.incoming("bob", "f6-e6");
    let (pressed, _) = tokio::join!(c.table.handle(&press), c.table.handle(&mv));
    assert!(
        !pressed
            .iter()
            .any(|o| matches!(o.message, Msg::DrawOffered { .. })),
        "pressing Accept draw offered a draw: {pressed:#?}"
    );
    let row = c.row(g).await;
    assert!(
        row.status != GameStatus::Active || row.draw_offer_by.is_none(),
        "{row:#?}"
    );
}

/// A press its client confirmed already (the board page's own second tap) resigns at once,
/// at its ply only: a move that came first makes it out of date, as any button.
#[tokio::test]
async fn t2_a_confirmed_resign_acts_at_once_and_only_at_its_ply() {
    let c = chat().await;
    let g = c.start("").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    let confirmed = |ply| Incoming {
        origin: c.origin("alice"),
        input: Input::Confirmed(Action::Resign { game: g, ply }),
    };
    let out = c.table.handle(&confirmed(1)).await;
    assert_eq!(only_private(&out), Msg::ButtonStale);
    assert_eq!(c.row(g).await.status, GameStatus::Active);
    let out = c.table.handle(&confirmed(2)).await;
    assert_eq!(
        head(&out[0].message),
        &Msg::Resigned {
            id: g,
            loser: "alice".into(),
            winner: "bob".into()
        }
    );
}
