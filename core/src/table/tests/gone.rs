//! A chat the bot was removed from (or blocked in): its games void, its challenges
//! cancelled, nothing left to say there, and no timer posting into it again.

use super::*;

#[tokio::test]
async fn a_chat_the_bot_left_voids_its_games_and_cancels_its_challenges() {
    let c = chat().await;
    // A running game on the clock in the chat, with a move played, and an open challenge.
    let id = c.start("classic3x3 5+0 rated").await;
    c.say("alice", "c3-d3").await;
    c.say("carol", "/challenge @dave classic3x3").await;
    // The same players' game in another chat goes on.
    let mut other = chat().await;
    other.table = Table::open(c.store.clone(), Arc::new(c.time.clone()), Config::default())
        .await
        .unwrap();
    other.store = c.store.clone();
    other.chat = room("elsewhere");
    let elsewhere = other.start("classic3x3 5+0 casual").await;

    let closed = c.table.chat_gone(&c.chat, None).await.expect("closed");
    assert_eq!(closed.games, 1);
    assert_eq!(closed.challenges, 1);
    assert!(closed.dropped >= 1, "what waited is not sent");
    let row = c.row(id).await;
    assert_ne!(row.status, GameStatus::Active);
    assert_eq!(row.result, Some(GameResult::Void));
    assert_eq!(c.cause(id).await, Some(EndCause::ChatGone));
    // Unrated: nobody's rating moved.
    let alice = c.player("alice").await;
    assert!(
        c.store
            .rating_history(alice.id, crate::rating::RatingKind::Classic3x3)
            .await
            .unwrap()
            .is_empty(),
        "a void game is not rated"
    );
    let open = c
        .store
        .open_challenges_in(Platform::Test.as_str(), "room")
        .await
        .unwrap();
    assert!(open.is_empty(), "{open:#?}");
    let unsent = c
        .store
        .unsent(Platform::Test.as_str(), "room", 100)
        .await
        .unwrap();
    assert!(
        unsent.is_empty(),
        "nothing waits to be said there: {unsent:#?}"
    );
    // Twenty minutes on: no flag, no expiry, nothing for the chat.
    c.time.advance(20 * MIN);
    for out in c.table.fire_due().await {
        assert_ne!(out.chat.id, "room", "{out:#?}");
    }
    assert_ne!(
        c.row(elsewhere).await.status,
        GameStatus::Active,
        "its timer fired there"
    );
    // Closing again closes nothing more.
    let again = c.table.chat_gone(&c.chat, None).await.expect("closed");
    assert_eq!(again, crate::table::gone::Closed::default());
}

/// A removal read again after a restart (its update replayed) closes only what was there
/// when it happened: a game begun since the bot came back goes on.
#[tokio::test]
async fn an_old_removal_read_again_leaves_what_began_since() {
    let c = chat().await;
    let removed_at = c.time.now_ms();
    c.time.advance(MIN);
    let id = c.start("classic3x3 none casual").await;
    let closed = c
        .table
        .chat_gone(&c.chat, Some(removed_at))
        .await
        .expect("closed");
    assert_eq!(closed.games, 0);
    assert_eq!(c.row(id).await.status, GameStatus::Active);
}
