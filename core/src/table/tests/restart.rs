//! The table reopened on the same store: games and clocks survive, downtime is credited,
//! message ids are remembered as long as needed.

use super::*;

#[tokio::test]
async fn restart_reloads_games_and_credits_the_downtime() {
    let c = chat().await;
    let id = c.start("5+0").await;
    c.time.advance(10_000);
    c.say("alice", "c3-d3").await;
    c.time.advance(20_000);
    c.say("bob", "f6-e6").await; // bob used 20 s; alice's clock runs from here
    c.time.advance(5_000);
    let before = c.row(id).await;
    let left_before = before.white_ms - (c.time.now_ms() - before.turn_started_at);
    // The bot is down for an hour.
    let c = c.reopen().await;
    c.time.advance(60 * MIN);
    let c = c.reopen().await;
    // Nothing is loaded at a start: the hour is recorded, and the clock gets it back when
    // the game is first touched (here, asking for the board).
    assert!(matches!(
        c.say("alice", "/board").await[0].message,
        Msg::BoardCaption { .. }
    ));
    let after = c.row(id).await;
    let left_after = after.white_ms - (c.time.now_ms() - after.turn_started_at);
    assert!(
        left_after >= left_before && left_after - left_before <= 5_000,
        "{left_before} → {left_after}"
    );
    // The flag timer is armed again, and the game goes on to its end.
    assert!(c.table.next_deadline().await.is_some());
    let out = c.say("alice", "b3-b4").await;
    assert!(
        matches!(&out[0].message, Msg::AfterMove { mover, recorded, .. } if mover == "alice" && recorded == "b3-b4"),
        "{out:#?}"
    );
    assert_eq!(
        c.said("bob", "/resign").await,
        alice_won(Msg::Resigned {
            id,
            loser: "bob".into(),
            winner: "alice".into()
        })
    );
    assert_eq!(c.moves(id).await, ["c3-d3", "f6-e6", "b3-b4"]);
}

#[tokio::test]
async fn restart_keeps_buttons_and_delivery_reports_working() {
    let c = chat().await;
    let id = c.start("5+0").await;
    c.say("alice", "c3-d3").await;
    let c = c.reopen().await;
    // A button offered before the restart still works after it.
    let out = c.press("bob", Action::OfferDraw { game: id, ply: 1 }).await;
    assert_eq!(
        messages(&out),
        [Msg::DrawOffered {
            by: "bob".into(),
            to: "alice".into(),
            buttons: false
        }]
    );
    // The delivery of the board shown before the restart is still credited once.
    c.table.delivered(id, 1, T0 + 3_000).await;
    assert_eq!(c.row(id).await.turn_started_at, T0 + 3_000);
    let c = c.reopen().await;
    c.table.delivered(id, 1, T0 + 6_000).await;
    assert_eq!(c.row(id).await.turn_started_at, T0 + 3_000);
}

#[tokio::test]
async fn old_message_ids_are_forgotten_but_recent_ones_kept() {
    let c = chat().await;
    let msg = c.incoming("alice", "/help");
    assert_eq!(c.table.handle(&msg).await.len(), 1);
    assert_eq!(
        c.store.forget_messages(T0).await.unwrap(),
        0,
        "seen at T0: kept"
    );
    assert!(c.table.handle(&msg).await.is_empty());
    assert_eq!(c.store.forget_messages(T0 + 1).await.unwrap(), 1);
}
