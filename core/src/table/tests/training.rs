//! The training room (RULES.md C10 `training`): `/train` solo, against the bot and against
//! a person; `/undo`; hints; the solo count against the proven minima.

use super::*;

/// Crossings found by the engine's beam search (`engine::solo`), each as short as the
/// proven minimum of RULES.md for its variant.
const CLASSIC_22: &str = "c2-c4 c3-c5 c5-d5 a3-c3-c5-e5 e5-e6 a1-a3-c3-c5-e5-e7 e7-f7 \
    c1-a1-a3-c3-c5-e5-e7-g7 g7-g8 b2-b4-d4-d6-f6-f8-h8 a2-a3 a3-c3-c5-e5-e7-g7 b1-b2 h8-h7 \
    b2-b4-d4-d6-f6-f8-h8-h6 b3-b4 b4-d4-d6-f6-f8-h8 c4-d4 d4-d6-f6-f8 d5-d6 d6-f6 e6-g6";
const DIAGONAL_15: &str = "c3-d4 a1-c3-e5 e5-f6 c1-c3-e5-g7 a3-c3-e5 b1-d3-d5-f5-f7-h7 \
    a2-c4-e4-e6-g6-g8 c2-a2-c4-e4-e6-g6 b2-c3 b3-d3-d5-f5-f7 f6-h8 d4-f6-h6 c3-d4 d4-f6-f8 e5-f6";
const TRIANGLE_18: &str = "b1-d3 a1-c3-e3 e3-f4 c1-c3-e3-g5 b2-d2-d4 a2-c4-e4-g4-g6 a4-a2-c4 \
    a3-c3-e5 b3-d5-f5-h7 d1-b3-d5-f5-h5-f7 f4-h6-f6-f8 c2-e4-e6-g8-e8 c4-e4-e6-g8 d3-d5-f5-h5 \
    d4-f6-h6-h8 g5-g7 e5-f6 f6-h6";

fn route(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

impl Room {
    /// `/train …` that starts a solo: its game id, after checking what it says.
    async fn solo(&self, words: &str, minimum: i64) -> i64 {
        let out = self.say("alice", &format!("/train {words}")).await;
        match out.as_slice() {
            [o] => match &o.message {
                Msg::SoloStarted { id, minimum: m, .. } => {
                    assert_eq!(*m, minimum, "{out:#?}");
                    assert!(o.board().is_some());
                    *id
                }
                other => panic!("not a solo: {other:?}"),
            },
            other => panic!("{other:#?}"),
        }
    }

    /// Plays `moves` as alice; the replies to the last one.
    async fn play_all(&self, moves: &[&str]) -> Vec<Outgoing> {
        let mut last = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            last = self.say("alice", m).await;
            assert!(
                last.iter()
                    .any(|o| matches!(o.message, Msg::AfterMove { .. })),
                "move {} {m}: {last:#?}",
                i + 1
            );
        }
        last
    }
}

impl Room {
    /// `/review N` by alice: its lines.
    async fn review(&self, id: i64) -> Vec<Msg> {
        let out = self.say("alice", &format!("/review {id}")).await;
        match out.first().map(|o| &o.message) {
            Some(Msg::Lines(lines)) => lines.clone(),
            _ => panic!("{out:#?}"),
        }
    }
}

fn crossed(out: &[Outgoing]) -> Msg {
    out.iter()
        .map(|o| head(&o.message).clone())
        .find(|m| matches!(m, Msg::SoloCrossed { .. }))
        .unwrap_or_else(|| panic!("no crossing said: {out:#?}"))
}

#[tokio::test]
async fn training_solo_crossing_of_classic_3x3_in_22_moves_is_reported_optimal() {
    let c = chat().await;
    let id = c.solo("classic3x3 solo", 22).await;
    let row = c.row(id).await;
    assert!(!row.rated, "the training room is unrated");
    assert_eq!(
        row.time_control, "none",
        "practice has no clock unless asked"
    );
    let out = c.play_all(&route(CLASSIC_22)).await;
    assert_eq!(
        crossed(&out),
        Msg::SoloCrossed {
            id,
            who: "alice".into(),
            moves: 22,
            minimum: 22,
            optimal: true
        }
    );
    assert_eq!(c.status(id).await.0, GameStatus::Finished);
    assert_eq!(c.moves(id).await.len(), 22);
}

/// C10: a solo's review reads every position from White's side (the turn never passes):
/// the proven-minimal crossing has no move that cost anything.
#[tokio::test]
async fn c10_training_solo_review_finds_no_cost_in_a_perfect_crossing() {
    let c = chat().await;
    let id = c.solo("classic3x3 solo", 22).await;
    c.play_all(&route(CLASSIC_22)).await;
    let lines = c.review(id).await;
    assert!(
        matches!(&lines[0], Msg::ReviewIntro { id: i, moves: 22, .. } if *i == id),
        "{lines:?}"
    );
    let costs: Vec<&Msg> = lines
        .iter()
        .filter(|m| {
            matches!(
                m,
                Msg::TurningPoint { .. }
                    | Msg::DecisiveTurningPoint { .. }
                    | Msg::SoloTurningPoint { .. }
            )
        })
        .collect();
    assert!(
        costs.is_empty(),
        "a perfect crossing with costs: {costs:#?}"
    );
    assert!(lines.contains(&Msg::ReviewNoTurningPoints), "{lines:?}");
}

/// C10: a solo's review names the moves a shorter way would have saved, in moves.
#[tokio::test]
async fn c10_training_solo_review_names_the_wasted_moves() {
    let c = chat().await;
    let id = c.solo("diagonal3x3 solo", 15).await;
    // A step out and back first: 17 moves where 15 do.
    let mut moves = vec!["c3-d4", "d4-c3"];
    moves.extend(route(DIAGONAL_15));
    c.play_all(&moves).await;
    let lines = c.review(id).await;
    let costs: Vec<(u32, i64)> = lines
        .iter()
        .filter_map(|m| match m {
            Msg::SoloTurningPoint { move_no, moves, .. } => Some((*move_no, *moves)),
            _ => None,
        })
        .collect();
    assert!(
        !costs.is_empty() && costs.iter().all(|(n, _)| *n <= 2),
        "{lines:#?}"
    );
    assert_eq!(costs.iter().map(|(_, m)| m).sum::<i64>(), 2, "{lines:#?}");
}

#[tokio::test]
async fn training_solo_minima_of_diagonal_and_triangle_are_reported_optimal() {
    for (variant, line, min) in [
        ("diagonal3x3", DIAGONAL_15, 15),
        ("triangle", TRIANGLE_18, 18),
    ] {
        let c = chat().await;
        let id = c.solo(&format!("{variant} solo"), min).await;
        let out = c.play_all(&route(line)).await;
        assert!(
            matches!(crossed(&out), Msg::SoloCrossed { moves, minimum, optimal: true, .. } if moves == min && minimum == min),
            "{variant}: {out:#?}"
        );
        let _ = id;
    }
}

#[tokio::test]
async fn training_solo_crossing_in_more_moves_is_told_the_minimum() {
    let c = chat().await;
    let id = c.solo("solo", 22).await;
    // A step out and back first: 24 moves.
    let mut moves = vec!["c3-d3", "d3-c3"];
    moves.extend(route(CLASSIC_22));
    let out = c.play_all(&moves).await;
    assert_eq!(
        crossed(&out),
        Msg::SoloCrossed {
            id,
            who: "alice".into(),
            moves: 24,
            minimum: 22,
            optimal: false
        }
    );
}

#[tokio::test]
async fn training_solo_of_a_custom_home_has_no_known_minimum_and_only_alice_moves() {
    let c = chat().await;
    let id = c.solo("training:classic3x3,diag,home=a1-b2 solo", 0).await;
    // The turn never passes: alice moves twice in a row, and bob is no player of it.
    c.play_all(&["b2-c3", "c3-d4"]).await;
    assert!(matches!(
        c.refused("bob", "/board").await,
        Msg::NoGameHere | Msg::NotYourGame { .. }
    ));
    assert_eq!(c.moves(id).await, ["b2-c3", "c3-d4"]);
}

#[tokio::test]
async fn training_undo_in_a_solo_takes_back_one_move_and_the_game_goes_on() {
    let c = chat().await;
    let id = c.solo("solo", 22).await;
    c.play_all(&["c3-d3", "d3-e3"]).await;
    let out = c.say("alice", "/undo").await;
    assert!(
        matches!(out.as_slice(), [o] if o.message == Msg::Undone { id, who: "alice".into(), plies: 1 } && o.board().is_some()),
        "{out:#?}"
    );
    assert_eq!(c.moves(id).await, ["c3-d3"]);
    assert_eq!(c.row(id).await.takebacks, 1);
    // The position is the one after the first move: e3 is free again, d3 is taken.
    c.play_all(&["d3-d4"]).await;
    assert_eq!(c.moves(id).await, ["c3-d3", "d3-d4"]);
    // The same table after a restart replays the taken-back line the same way.
    let c = c.reopen().await;
    c.play_all(&["d4-d5"]).await;
    assert_eq!(c.moves(id).await, ["c3-d3", "d3-d4", "d4-d5"]);
    for _ in 0..3 {
        c.say("alice", "/undo").await;
    }
    assert_eq!(
        c.refused("alice", "/undo").await,
        Msg::UndoNothing { id },
        "nothing left to take back"
    );
    assert!(c.moves(id).await.is_empty());
}

#[tokio::test]
async fn training_undo_against_the_bot_takes_back_its_reply_too() {
    let c = chat().await;
    let out = c.say("alice", "/train vs bot 1 white").await;
    let id = match out.as_slice() {
        [o] => match &o.message {
            Msg::GameStarted { id, black, .. } if black == "Bot L1" => *id,
            other => panic!("{other:?}"),
        },
        other => panic!("{other:#?}"),
    };
    assert!(c
        .row(id)
        .await
        .rules
        .id()
        .starts_with("training:classic3x3"));
    c.play_all(&["c3-d3"]).await;
    c.time.advance(1000);
    let answered = c.table.fire_due().await;
    assert!(
        answered.iter().any(|o| o.board().is_some()),
        "{answered:#?}"
    );
    assert_eq!(c.moves(id).await.len(), 2);
    let out = c.say("alice", "/undo").await;
    assert!(
        matches!(out.as_slice(), [o] if o.message == Msg::Undone { id, who: "alice".into(), plies: 2 }),
        "{out:#?}"
    );
    assert!(c.moves(id).await.is_empty());
    // Alice to move again; the bot's timer does not move for her.
    c.time.advance(1000);
    assert!(c.table.fire_due().await.is_empty());
    c.play_all(&["c3-c4"]).await;
    // /hint is allowed in the training room.
    c.time.advance(1000);
    c.table.fire_due().await;
    let hint = c.say("alice", "/hint").await;
    assert!(
        matches!(hint.as_slice(), [o] if matches!(o.message, Msg::Hint { .. })),
        "{hint:#?}"
    );
}

#[tokio::test]
async fn training_undo_against_a_person_is_only_before_the_answer() {
    let c = chat().await;
    let out = c.say("alice", "/train triangle vs @bob white").await;
    assert!(
        matches!(out.as_slice(), [o] if matches!(o.message, Msg::ChallengeTo { .. })),
        "{out:#?}"
    );
    let out = c.say("bob", "/accept").await;
    let id = out[1].game.expect("started");
    assert!(!c.row(id).await.rated);
    // Before a move of one's own there is nothing to take back, whoever's turn it is.
    assert_eq!(c.refused("alice", "/undo").await, Msg::UndoNothing { id });
    c.play_all(&["c2-d3"]).await;
    assert_eq!(c.refused("bob", "/undo").await, Msg::UndoNothing { id });
    c.say("bob", "f7-e6").await;
    assert_eq!(c.refused("alice", "/undo").await, Msg::UndoOpponentMoved);
    let out = c.say("bob", "/undo").await;
    assert!(
        matches!(out.as_slice(), [o] if o.message == Msg::Undone { id, who: "bob".into(), plies: 1 }),
        "{out:#?}"
    );
    assert_eq!(c.moves(id).await, ["c2-d3"]);
    // Only players act: someone else's /undo changes nothing.
    assert!(matches!(
        c.refused("carol", "/undo").await,
        Msg::NoGameHere | Msg::NotYourGame { .. }
    ));
    assert_eq!(c.moves(id).await, ["c2-d3"]);
}

#[tokio::test]
async fn training_undo_outside_the_training_room_is_refused() {
    let c = chat().await;
    let id = c.start("classic3x3 none casual").await;
    c.play_all(&["c3-d3"]).await;
    assert_eq!(c.refused("alice", "/undo").await, Msg::UndoOnlyTraining);
    assert_eq!(c.moves(id).await, ["c3-d3"]);
}

#[tokio::test]
async fn training_solo_hint_near_the_end_is_on_a_shortest_route() {
    let c = chat().await;
    let id = c.solo("solo", 22).await;
    let line = route(CLASSIC_22);
    c.play_all(&line[..19]).await;
    let out = c.say("alice", "/hint").await;
    let Some(Msg::SoloHint {
        id: hid,
        recorded,
        left,
        shortest,
    }) = out.first().map(|o| o.message.clone())
    else {
        panic!("{out:#?}")
    };
    assert_eq!((hid, left, shortest), (id, 2, true), "{out:#?}");
    assert_eq!(out[0].audience, Audience::Sender);
    // The hinted move is legal and keeps the crossing at 22.
    c.play_all(&[&recorded]).await;
}

#[tokio::test]
async fn training_resigning_a_solo_abandons_it() {
    let c = chat().await;
    let id = c.solo("solo", 22).await;
    c.play_all(&["c3-d3"]).await;
    let out = c.say("alice", "/resign").await;
    assert!(
        out.iter().any(|o| o.message == Msg::SoloAbandoned { id }),
        "{out:#?}"
    );
    assert_eq!(c.status(id).await.0, GameStatus::Aborted);
}

/// A move taken back and played again reaches the same ply: a Resign asked before the
/// takeback is not the question of the position now, and the next press asks anew.
#[tokio::test]
async fn training_a_takeback_lapses_a_resign_asked_before_it() {
    let c = chat().await;
    let id = c.solo("solo", 22).await;
    c.play_all(&["c3-d3"]).await;
    let resign = Action::Resign { game: id, ply: 1 };
    let ask = Msg::ResignAsk {
        id,
        seconds: RESIGN_WINDOW_MS / 1000,
    };
    assert_eq!(only_private(&c.press("alice", resign).await), ask);
    c.say("alice", "/undo").await;
    assert_eq!(c.status(id).await.0, GameStatus::Active);
    c.play_all(&["c3-d3"]).await;
    c.time.advance(RESIGN_SECOND_MS);
    assert_eq!(only_private(&c.press("alice", resign).await), ask);
    assert_eq!(c.status(id).await.0, GameStatus::Active);
    c.time.advance(RESIGN_SECOND_MS);
    let out = c.press("alice", resign).await;
    assert!(
        out.iter().any(|o| o.message == Msg::SoloAbandoned { id }),
        "{out:#?}"
    );
}

#[tokio::test]
async fn training_a_solo_offers_no_draw_and_takes_none() {
    let c = chat().await;
    let id = c.solo("solo", 22).await;
    let live = c.table.live(id).await.unwrap().unwrap();
    let buttons = without_squares(&live.buttons());
    assert_eq!(
        buttons,
        [
            Action::Resign { game: id, ply: 0 },
            Action::Abort { game: id, ply: 0 }
        ],
        "nobody to agree a draw with"
    );
    assert_eq!(c.refused("alice", "/draw").await, Msg::SoloNoDraw);
    assert_eq!(
        c.refused_press("alice", Action::OfferDraw { game: id, ply: 0 })
            .await,
        Msg::SoloNoDraw
    );
    let row = c.store.game(id).await.unwrap().unwrap();
    assert_eq!(row.draw_offer_by, None, "nothing changed");
}
