//! Clocks and timers: flags (T1), increments, correspondence reminders, Damas move time and
//! the activity monitor (D6), fair clocks from board delivery reports, and the real timer
//! loop.

use super::*;

#[tokio::test]
async fn t1_flag_falls_when_time_runs_out_even_if_nobody_types() {
    let c = chat().await;
    let id = c.start("1+0").await;
    // Both sides have moved (a side that never moved is not flagged but aborted: F1).
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    c.say("alice", "b3-b4").await;
    // Black's minute runs from alice's move (no delivery report: no credit).
    assert_eq!(c.table.next_deadline().await, Some(T0 + MIN));
    c.time.advance(MIN - 1);
    assert!(c.table.fire_due().await.is_empty());
    c.time.advance(1);
    let out = c.table.fire_due().await;
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0].message,
        alice_won(Msg::Flagged {
            id,
            loser: "bob".into(),
            winner: "alice".into()
        })
    );
    assert_eq!(out[0].audience, Audience::Chat);
    assert_eq!(out[0].slot, Some(SlotUse::Replace(Slot::Board(id))));
    let board = c.view(&out[0]).await;
    assert_eq!(board.black_clock_ms, Some(0));
    assert_eq!(board.to_move, None);
    assert_eq!(
        c.status(id).await,
        (
            GameStatus::Finished,
            Some(GameResult::White),
            Some("T1".into())
        )
    );
    assert_eq!(c.row(id).await.end_reason.as_deref(), Some("flag:black"));
}

#[tokio::test]
async fn t1_a_move_racing_its_own_flag_loses() {
    let c = chat().await;
    let id = c.start("1+0").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    c.time.advance(MIN);
    // The timer has not fired yet, but the move comes too late.
    assert_eq!(
        c.said("alice", "b3-b4").await,
        rated(
            Msg::Flagged {
                id,
                loser: "alice".into(),
                winner: "bob".into()
            },
            &[("alice", 985, -15), ("bob", 1015, 15)]
        )
    );
    assert_eq!(
        c.moves(id).await,
        ["c3-d3", "f6-e6"],
        "the late move is not played"
    );
    assert!(
        c.table.fire_due().await.is_empty(),
        "the flag is announced once"
    );
    assert_eq!(c.cause(id).await, Some(EndCause::Flag(Color::White)));
}

#[tokio::test]
async fn t1_fischer_increment_is_added_after_the_own_move() {
    let c = chat().await;
    let id = c.start("1+5").await;
    c.time.advance(10_000);
    c.say("alice", "c3-d3").await;
    let g = c.row(id).await;
    assert_eq!((g.white_ms, g.black_ms), (55_000, 60_000));
    assert_eq!(g.turn_started_at, T0 + 10_000);
}

#[tokio::test]
async fn t1_correspondence_reminds_then_flags() {
    let c = chat().await;
    let id = c.start("1d").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    c.time.advance(18 * 60 * MIN);
    let out = c.table.fire_due().await;
    assert_eq!(
        messages(&out),
        [Msg::Reminder {
            id,
            who: "alice".into(),
            left: Duration(6 * 60 * MIN)
        }]
    );
    assert_eq!(out[0].game, Some(id));
    assert!(c.table.fire_due().await.is_empty(), "one reminder");
    c.time.advance(6 * 60 * MIN);
    let out = c.table.fire_due().await;
    assert_eq!(
        head(&out[0].message),
        &Msg::Flagged {
            id,
            loser: "alice".into(),
            winner: "bob".into()
        }
    );
}

#[tokio::test]
async fn d6_damas_movetime_plays_for_the_idle_player_and_monitor_claims() {
    let c = chat().await;
    let id = c.start("damas movetime 30s monitor").await;
    // Both sides have made their first move (before it, the move time aborts: F1).
    c.say("alice", "11-15").await;
    c.say("bob", "21-17").await;
    c.time.advance(30_000);
    let out = c.table.fire_due().await;
    assert!(
        matches!(&out[0].message, Msg::AutoMoved { id: i, who, .. } if *i == id && who == "alice"),
        "{out:#?}"
    );
    assert!(out[0].board().is_some());
    assert_eq!(c.moves(id).await.len(), 3);
    // bob idles; alice may claim after the idle limit (3 min) — before 10 moves: annulled.
    c.time.advance(20_000);
    assert_eq!(c.refused("bob", "/claim").await, Msg::ClaimOnOwnTurn);
    assert_eq!(
        c.refused("alice", "/claim").await,
        Msg::ClaimTooEarly {
            who: "bob".into(),
            idle: Duration(20_000),
            limit: Duration(3 * MIN)
        }
    );
}

/// A monitored Damas game in which bob, after his first move (before it, a claim aborts
/// the game: F1), has idled past the limit; the game's id.
async fn bob_idle(c: &Room) -> i64 {
    let id = c.start("damas monitor").await;
    c.say("alice", "11-15").await;
    c.say("bob", "21-17").await;
    c.say("alice", "9-13").await;
    c.time.advance(3 * MIN);
    id
}

#[tokio::test]
async fn d6_monitor_claim_after_the_idle_limit() {
    let c = chat().await;
    let id = bob_idle(&c).await;
    let out = c.table.fire_due().await;
    assert_eq!(
        messages(&out),
        [Msg::IdleNotice {
            id,
            idler: "bob".into(),
            other: "alice".into(),
            idle: Duration(3 * MIN),
            buttons: false,
        }]
    );
    assert!(c.table.fire_due().await.is_empty(), "said once a turn");
    assert_eq!(
        c.said("alice", "/claim").await,
        Msg::AbandonedVoid {
            id,
            loser: "bob".into()
        }
    );
    assert_eq!(c.status(id).await.1, Some(GameResult::Void));
    assert_eq!(c.cause(id).await, Some(EndCause::Abandoned(Color::Black)));
}

#[tokio::test]
async fn d6_the_idle_notice_carries_a_claim_button_only_the_waiting_player_may_press() {
    // On one message (nothing can be typed) the notice names the button, not /claim.
    let c = one_message_room().await;
    let id = bob_idle(&c).await;
    let out = c.table.fire_due().await;
    let claim = Action::Claim { game: id, ply: 3 };
    assert!(
        matches!(messages(&out)[..], [Msg::IdleNotice { buttons: true, .. }]),
        "{out:#?}"
    );
    assert_eq!(
        out[0].actions,
        [claim],
        "where nothing can be typed, the button claims"
    );
    // The idler cannot claim his own idling; a bystander is not in the game.
    assert_eq!(c.refused_press("bob", claim).await, Msg::ClaimOnOwnTurn);
    assert_eq!(c.refused_press("carol", claim).await, Msg::ButtonNotYours);
    assert_eq!(
        messages(&c.press("alice", claim).await),
        [Msg::AbandonedVoid {
            id,
            loser: "bob".into()
        }]
    );
    assert_eq!(c.cause(id).await, Some(EndCause::Abandoned(Color::Black)));
}

#[tokio::test]
async fn d6_a_game_without_the_monitor_cannot_be_claimed() {
    let c = chat().await;
    let id = c.start("damas").await;
    c.say("alice", "11-15").await;
    c.time.advance(10 * MIN);
    assert_eq!(c.refused("alice", "/claim").await, Msg::NotMonitored { id });
}

/// The real timer loop (system clock, short challenge life): it fires on its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_timers_fires_without_anyone_typing() {
    let store = Store::connect("sqlite::memory:").await.unwrap();
    let config = Config {
        challenge_ttl_ms: 300,
        ..Config::default()
    };
    let table = Arc::new(
        Table::open(store, Arc::new(SystemTime), config)
            .await
            .unwrap(),
    );
    tokio::spawn(table.clone().run_timers());
    let msg = Incoming::text(
        Origin::message(room("room"), user("alice"), "1"),
        "/challenge @bob",
        vec![Mention::User(user("bob"))],
    );
    table.handle(&msg).await;
    // The expiry is written to the outbox, after the challenge itself (bounded: 5 s).
    let mut expired = None;
    for _ in 0..100 {
        let rows = table.store().unsent("test", "room", 10).await.unwrap();
        if let Some(q) = rows.get(1) {
            expired = Outgoing::from_row(&q.row);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let out = expired.expect("a timer message within 5 s");
    assert_eq!(
        out.message,
        Msg::Expired {
            id: 1,
            challenger: "alice".into()
        }
    );
    assert_eq!(out.slot, Some(SlotUse::Edit(Slot::Challenge(1))));
}

// ---- Fair clocks: board delivery reports ----

/// A 5+0 game in a fresh room: alice (White) moves 10 s in, at T; the adapter then reports
/// the board of ply 1 at each `T + delay` given, in order; bob replies at T + 40 s.
/// Returns when bob's clock started (ms after T) and his time left after his move.
async fn bob_after_reports(delays: &[i64]) -> (i64, i64) {
    let c = chat().await;
    let id = c.start("5+0").await;
    c.time.advance(10_000);
    let t = c.time.now_ms();
    let out = c.say("alice", "c3-d3").await;
    assert_eq!(out[0].ply, Some(1), "the board asks for a delivery report");
    for d in delays {
        c.table.delivered(id, 1, t + d).await;
    }
    let started = c.row(id).await.turn_started_at - t;
    c.time.set(t + 40_000);
    assert!(matches!(
        c.said("bob", "f6-e6").await,
        Msg::AfterMove { .. }
    ));
    let row = c.row(id).await;
    assert_eq!(row.white_ms, 290_000, "alice's own clock is untouched");
    assert_eq!(
        row.turn_started_at,
        t + 40_000,
        "alice's clock runs from bob's move"
    );
    (started, row.black_ms)
}

#[tokio::test]
async fn t1_no_delivery_report_gives_no_credit() {
    assert_eq!(bob_after_reports(&[]).await, (0, 260_000));
}

#[tokio::test]
async fn t1_a_delivered_board_starts_the_clock_when_it_arrives() {
    let (started, left) = bob_after_reports(&[4_000]).await;
    assert_eq!(started, 4_000);
    let (_, without) = bob_after_reports(&[]).await;
    assert_eq!(
        left - without,
        4_000,
        "bob has exactly the 4 s of delivery back"
    );
}

#[tokio::test]
async fn t1_a_late_delivery_gives_at_most_ten_seconds() {
    assert_eq!(MAX_DELIVERY_CREDIT_MS, 10_000);
    assert_eq!(
        bob_after_reports(&[30_000]).await,
        (MAX_DELIVERY_CREDIT_MS, 260_000 + MAX_DELIVERY_CREDIT_MS)
    );
    assert_eq!(
        bob_after_reports(&[MAX_DELIVERY_CREDIT_MS]).await,
        (MAX_DELIVERY_CREDIT_MS, 260_000 + MAX_DELIVERY_CREDIT_MS),
        "exactly the limit is credited in full"
    );
}

#[tokio::test]
async fn t1_only_the_first_delivery_report_of_a_ply_counts() {
    assert_eq!(bob_after_reports(&[4_000, 8_000]).await, (4_000, 264_000));
    assert_eq!(bob_after_reports(&[8_000, 4_000]).await, (8_000, 268_000));
}

#[tokio::test]
async fn t1_a_delivery_never_starts_a_clock_before_the_move() {
    assert_eq!(bob_after_reports(&[-5_000]).await, (0, 260_000));
}

#[tokio::test]
async fn t1_a_delivery_report_moves_the_flag_timer() {
    let c = chat().await;
    let id = c.start("1+0").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    c.say("alice", "b3-b4").await;
    assert_eq!(c.table.next_deadline().await, Some(T0 + MIN));
    c.table.delivered(id, 3, T0 + 4_000).await;
    assert_eq!(c.table.next_deadline().await, Some(T0 + MIN + 4_000));
    c.time.advance(MIN);
    assert!(
        c.table.fire_due().await.is_empty(),
        "bob still has the 4 s the delivery took"
    );
    c.time.advance(4_000);
    let out = c.table.fire_due().await;
    assert!(matches!(head(&out[0].message), Msg::Flagged { loser, .. } if loser == "bob"));
    assert_eq!(c.cause(id).await, Some(EndCause::Flag(Color::Black)));
}

#[tokio::test]
async fn t1_a_report_for_another_ply_or_a_finished_game_changes_nothing() {
    let c = chat().await;
    let id = c.start("5+0").await;
    c.say("alice", "c3-d3").await;
    let before = c.row(id).await;
    // The board of the start (ply 0) and a board not yet shown (ply 2).
    c.table.delivered(id, 0, T0 + 4_000).await;
    c.table.delivered(id, 2, T0 + 4_000).await;
    c.table.delivered(id + 1, 0, T0 + 4_000).await;
    assert_eq!(c.row(id).await, before);
    c.say("bob", "/resign").await;
    let finished = c.row(id).await;
    c.table.delivered(id, 1, T0 + 4_000).await;
    assert_eq!(c.row(id).await, finished, "a finished game's clocks stay");
}

#[tokio::test]
async fn t1_the_first_board_starts_whites_clock_on_delivery() {
    let c = chat().await;
    c.say("alice", "/challenge @bob 1+0 white").await;
    let out = c.say("bob", "/accept").await;
    let id = out[1].game.unwrap();
    assert_eq!(out[0].ply, None, "the challenge's answer starts no clock");
    assert_eq!(out[1].ply, Some(0));
    assert_eq!(c.table.next_deadline().await, Some(T0 + MIN));
    c.table.delivered(id, 0, T0 + 2_500).await;
    assert_eq!(c.row(id).await.turn_started_at, T0 + 2_500);
    assert_eq!(c.table.next_deadline().await, Some(T0 + MIN + 2_500));
    // A game without a clock asks for no report.
    let out = c.say("alice", "/challenge @carol none white").await;
    assert!(matches!(out[0].message, Msg::ChallengeTo { .. }));
    let out = c.say("carol", "/accept").await;
    assert!(matches!(out[1].message, Msg::GameStarted { .. }));
    assert_eq!(out[1].ply, None);
}
