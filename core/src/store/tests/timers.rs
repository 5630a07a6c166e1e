//! Timers in the store: claimed once per lease, found again when a claim dies. On both
//! backends.

use super::{challenge, game, on_both, player, T0};
use crate::store::{ChallengeStatus, Due, Store};

on_both!(
    t1_a_due_timer_is_claimed_by_one_taker_per_lease,
    t1_due_challenges_are_claimed_until_closed,
    t1_claims_from_many_takers_at_once_never_overlap,
);

async fn t1_a_due_timer_is_claimed_by_one_taker_per_lease(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    let h = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    store.set_due(g.id, Some(T0 + 100)).await.unwrap();
    store.set_due(h.id, None).await.unwrap();
    assert_eq!(store.next_due(T0).await.unwrap(), Some(T0 + 100));
    assert!(store.claim_due(T0 + 99, 1000, 10).await.unwrap().is_empty());
    assert_eq!(
        store.claim_due(T0 + 100, 1000, 10).await.unwrap(),
        [Due::Game(g.id)]
    );
    // Held: not due for anyone else, nor in the next due time, until the lease runs out.
    assert!(store
        .claim_due(T0 + 500, 1000, 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(store.next_due(T0 + 500).await.unwrap(), None);
    assert_eq!(store.next_due(T0 + 1100).await.unwrap(), Some(T0 + 100));
    assert_eq!(
        store.claim_due(T0 + 1100, 1000, 10).await.unwrap(),
        [Due::Game(g.id)]
    );
    // Fired: the next due time set, the claim let go.
    store.set_due(g.id, Some(T0 + 5000)).await.unwrap();
    assert_eq!(store.next_due(T0 + 1200).await.unwrap(), Some(T0 + 5000));
    // A failed fire is tried again when it said.
    assert_eq!(
        store.claim_due(T0 + 5000, 1000, 10).await.unwrap(),
        [Due::Game(g.id)]
    );
    store.retry_at(Due::Game(g.id), T0 + 5200).await.unwrap();
    assert!(store
        .claim_due(T0 + 5100, 1000, 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        store.claim_due(T0 + 5200, 1000, 10).await.unwrap(),
        [Due::Game(g.id)]
    );
}

async fn t1_due_challenges_are_claimed_until_closed(store: Store) {
    let a = player(&store, "alice").await;
    let c = challenge(&store, "room", &a, None, "classic3x3", false, None).await;
    let d = challenge(&store, "room", &a, None, "classic3x3", false, None).await;
    assert_eq!(store.next_due(T0).await.unwrap(), Some(c.expires_at));
    assert_eq!(
        store.claim_due(c.expires_at, 1000, 10).await.unwrap(),
        [Due::Challenge(c.id), Due::Challenge(d.id)]
    );
    assert!(store
        .close_challenge(
            c.id,
            ChallengeStatus::Expired,
            crate::store::Says::nothing(),
            0
        )
        .await
        .unwrap());
    // The closed one is gone for good; the other comes back when its lease runs out.
    assert_eq!(
        store
            .claim_due(c.expires_at + 1000, 1000, 10)
            .await
            .unwrap(),
        [Due::Challenge(d.id)]
    );
}

async fn t1_claims_from_many_takers_at_once_never_overlap(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let mut ids = Vec::new();
    for _ in 0..40 {
        let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
        store.set_due(g.id, Some(T0 + 10)).await.unwrap();
        ids.push(g.id);
    }
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..8 {
        let store = store.clone();
        tasks.spawn(async move { store.claim_due(T0 + 10, 60_000, 7).await.unwrap() });
    }
    let mut claimed = Vec::new();
    while let Some(got) = tasks.join_next().await {
        claimed.extend(got.unwrap());
    }
    claimed.sort_unstable();
    let before = claimed.len();
    claimed.dedup();
    assert_eq!(before, claimed.len(), "no timer claimed twice");
    assert_eq!(claimed.len(), 40, "eight takers of seven: every one taken");
}
