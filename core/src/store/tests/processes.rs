//! Heartbeats and outages: clocks get back only the time when no process served the games
//! (the gaps in the union of their heartbeats), once. On both backends.

use super::{game, on_both, player, T0};
use crate::store::Store;

on_both!(
    t1_downtime_is_credited_once_from_the_last_heartbeat,
    t1_no_credit_while_another_process_is_alive,
    t1_the_gap_is_measured_from_the_last_process_to_die,
);

async fn t1_downtime_is_credited_once_from_the_last_heartbeat(store: Store) {
    // The very first start: nobody served before, nothing to credit.
    assert_eq!(store.last_beat_of_others("p1").await.unwrap(), None);
    assert_eq!(store.resume("p1", T0, None).await.unwrap(), None);
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    store.set_due(g.id, Some(T0 + 300_000)).await.unwrap();
    store.beat("p1", T0 + 1000).await.unwrap();
    // p1 dies; p2 starts a minute later, having seen p1's last beat.
    let seen = store.last_beat_of_others("p2").await.unwrap();
    assert_eq!(seen, Some(T0 + 1000));
    assert_eq!(
        store.resume("p2", T0 + 61_000, seen).await.unwrap(),
        Some((T0 + 1000, T0 + 61_000))
    );
    assert_eq!(store.outages().await.unwrap(), [(T0 + 1000, T0 + 61_000)]);
    // The game's clock is credited when it is touched, once, clock and timer together.
    assert!(store
        .credit_outages(g.id, Some(T0), 60_000, T0 + 61_000)
        .await
        .unwrap());
    assert!(
        !store
            .credit_outages(g.id, Some(T0), 60_000, T0 + 61_000)
            .await
            .unwrap(),
        "credited once"
    );
    let row = store.game(g.id).await.unwrap().unwrap();
    assert_eq!(
        (row.turn_started_at, row.due_at, row.credited_until),
        (T0 + 60_000, Some(T0 + 360_000), Some(T0 + 61_000))
    );
    // p2's own start is a heartbeat: a third process starting at once credits nothing.
    let seen = store.last_beat_of_others("p3").await.unwrap();
    assert_eq!(seen, Some(T0 + 61_000));
    assert_eq!(store.resume("p3", T0 + 61_000, seen).await.unwrap(), None);
}

async fn t1_no_credit_while_another_process_is_alive(store: Store) {
    store.resume("p1", T0, None).await.unwrap();
    // p2 looks, waits (the table waits ALIVE_WINDOW_MS), and meanwhile p1 beats: alive.
    let seen = store.last_beat_of_others("p2").await.unwrap();
    store.beat("p1", T0 + 200).await.unwrap();
    assert_eq!(store.resume("p2", T0 + 5000, seen).await.unwrap(), None);
    assert!(store.outages().await.unwrap().is_empty());
    // Two starting together after an outage: the first credits, the second sees its
    // heartbeat arrive and does not.
    store.beat("p1", T0 + 6000).await.unwrap();
    store.beat("p2", T0 + 7000).await.unwrap();
    let seen3 = store.last_beat_of_others("p3").await.unwrap();
    let seen4 = store.last_beat_of_others("p4").await.unwrap();
    assert_eq!(
        store.resume("p3", T0 + 67_000, seen3).await.unwrap(),
        Some((T0 + 7000, T0 + 67_000))
    );
    assert_eq!(store.resume("p4", T0 + 67_000, seen4).await.unwrap(), None);
    assert_eq!(store.outages().await.unwrap(), [(T0 + 7000, T0 + 67_000)]);
}

async fn t1_the_gap_is_measured_from_the_last_process_to_die(store: Store) {
    store.resume("p1", T0, None).await.unwrap();
    store.resume("p2", T0, Some(T0)).await.unwrap();
    // p1 dies at +10 s; p2 serves on until +40 s; p3 starts at +100 s: 60 s without anyone.
    store.beat("p1", T0 + 10_000).await.unwrap();
    store.beat("p2", T0 + 40_000).await.unwrap();
    let seen = store.last_beat_of_others("p3").await.unwrap();
    assert_eq!(
        store.resume("p3", T0 + 100_000, seen).await.unwrap(),
        Some((T0 + 40_000, T0 + 100_000))
    );
}

/// A `PostgreSQL` server that is not there is said with its cause — tried for a few
/// seconds (it may be starting), not for the pool's acquire timeout and then said only as
/// "timed out" (port 1 on the loopback: nothing listens).
#[tokio::test]
async fn an_unreachable_postgresql_is_said_with_its_cause() {
    let started = std::time::Instant::now();
    let Err(e) = Store::connect("postgres://postgres@127.0.0.1:1/ugolki").await else {
        panic!("a store with no server");
    };
    assert!(
        started.elapsed() < std::time::Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    assert!(e.to_string().contains("refused"), "{e}");
}
