//! Players, chats, languages, challenges and the small facts, on both backends.

use super::{challenge, game, on_both, player, T0};
use crate::color::ColorChoice;
use crate::store::{ChallengeStatus, Store};

on_both!(
    players_are_made_once_and_their_names_refreshed,
    chats_remember_players_and_languages,
    a_chat_moved_takes_its_games_challenges_and_language_along,
    challenges_open_close_once_and_are_counted,
    counters_and_message_ids_survive,
);

async fn players_are_made_once_and_their_names_refreshed(store: Store) {
    let a = store
        .player_for("test", "u1", "Alice", Some("Alice"), T0)
        .await
        .unwrap();
    assert_eq!(
        (a.name.as_str(), a.handle.as_deref(), a.lang.as_deref()),
        ("Alice", Some("alice"), None)
    );
    assert_eq!(
        store.chips(a.id).await.unwrap(),
        1000,
        "R: 1000 chips to start"
    );
    // Seen again with a new name and no handle: the same player, the handle kept.
    let again = store
        .player_for("test", "u1", "Alice B.", None, T0 + 1)
        .await
        .unwrap();
    assert_eq!(again.id, a.id);
    assert_eq!(
        (again.name.as_str(), again.handle.as_deref()),
        ("Alice B.", Some("alice"))
    );
    // Another platform's u1 is someone else.
    let other = store
        .player_for("discord", "u1", "Alice", None, T0)
        .await
        .unwrap();
    assert_ne!(other.id, a.id);
    assert_eq!(store.player(a.id).await.unwrap(), Some(again.clone()));
    assert_eq!(store.player(999_999).await.unwrap(), None);
    assert_eq!(
        store.player_by_handle("test", "@ALICE").await.unwrap(),
        Some(again)
    );
    assert_eq!(
        store.player_by_handle("discord", "alice").await.unwrap(),
        None
    );
    assert_eq!(
        store
            .player_by_platform_id("test", "u1")
            .await
            .unwrap()
            .map(|p| p.id),
        Some(a.id)
    );
    assert_eq!(
        store.player_by_platform_id("test", "u2").await.unwrap(),
        None
    );
    store
        .set_player_lang(a.id, Some("ru"), crate::store::Says::nothing(), 0)
        .await
        .unwrap();
    assert_eq!(
        store.player(a.id).await.unwrap().unwrap().lang.as_deref(),
        Some("ru")
    );
    store
        .set_player_lang(a.id, None, crate::store::Says::nothing(), 0)
        .await
        .unwrap();
    assert_eq!(store.player(a.id).await.unwrap().unwrap().lang, None);
    assert_eq!(store.chips(999_999).await.unwrap(), 0);
}

async fn chats_remember_players_and_languages(store: Store) {
    let a = player(&store, "alice").await;
    store.note_chat_player("test", "room", a.id).await.unwrap();
    store.note_chat_player("test", "room", a.id).await.unwrap();
    assert_eq!(store.chat_lang("test", "room").await.unwrap(), None);
    store
        .set_chat_lang("test", "room", Some("pt"), crate::store::Says::nothing(), 0)
        .await
        .unwrap();
    assert_eq!(
        store.chat_lang("test", "room").await.unwrap().as_deref(),
        Some("pt")
    );
    store
        .set_chat_lang("test", "room", None, crate::store::Says::nothing(), 0)
        .await
        .unwrap();
    assert_eq!(store.chat_lang("test", "room").await.unwrap(), None);
    assert_eq!(store.chat_lang("test", "elsewhere").await.unwrap(), None);
}

async fn a_chat_moved_takes_its_games_challenges_and_language_along(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let g = game(&store, "room", &a, &b, "classic3x3", true, None).await;
    let c = challenge(&store, "room", &b, None, "damas", false, None).await;
    store.note_chat_player("test", "room", a.id).await.unwrap();
    store
        .set_chat_lang("test", "room", Some("pt"), crate::store::Says::nothing(), 0)
        .await
        .unwrap();
    let elsewhere = game(&store, "other", &a, &b, "classic3x4", false, None).await;
    assert_eq!(store.move_chat("test", "room", "super").await.unwrap(), 1);
    let moved = store.active_games_in("test", "super", a.id).await.unwrap();
    assert_eq!(moved.iter().map(|r| r.id).collect::<Vec<_>>(), [g.id]);
    assert!(store
        .active_games_in("test", "room", a.id)
        .await
        .unwrap()
        .is_empty());
    let open = store.open_challenges_in("test", "super").await.unwrap();
    assert_eq!(open.iter().map(|r| r.id).collect::<Vec<_>>(), [c.id]);
    assert_eq!(
        store.chat_lang("test", "super").await.unwrap().as_deref(),
        Some("pt")
    );
    assert_eq!(store.chat_lang("test", "room").await.unwrap(), None);
    // The other chat's game stays; moving again moves nothing.
    assert_eq!(
        store.game(elsewhere.id).await.unwrap().unwrap().chat,
        "other"
    );
    assert_eq!(store.move_chat("test", "room", "super").await.unwrap(), 0);
}

async fn challenges_open_close_once_and_are_counted(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let first = challenge(&store, "room", &a, Some(&b), "classic3x4", true, None).await;
    let second = challenge(&store, "room", &a, None, "damas-short", false, Some(5)).await;
    challenge(&store, "other", &b, None, "halma16", false, None).await;
    assert_eq!(first.rules.id(), "classic3x4");
    assert_eq!(first.color, ColorChoice::White);
    assert_eq!(first.status, ChallengeStatus::Open);
    assert_eq!(
        store.challenge(first.id).await.unwrap(),
        Some(first.clone())
    );
    let open = store.open_challenges_in("test", "room").await.unwrap();
    assert_eq!(
        open.iter().map(|c| c.id).collect::<Vec<_>>(),
        [second.id, first.id],
        "newest first"
    );
    assert_eq!(open[0].stake, Some(5));
    assert_eq!(open[0].target_id, None);
    // (open now, made in the last minute)
    assert_eq!(
        store.challenges_by(a.id, T0, T0 - 60_000).await.unwrap(),
        (2, 2)
    );
    assert!(store
        .close_challenge(
            first.id,
            ChallengeStatus::Declined,
            crate::store::Says::nothing(),
            0
        )
        .await
        .unwrap());
    assert!(
        !store
            .close_challenge(
                first.id,
                ChallengeStatus::Cancelled,
                crate::store::Says::nothing(),
                0
            )
            .await
            .unwrap(),
        "closed once"
    );
    assert_eq!(
        store.challenge(first.id).await.unwrap().unwrap().status,
        ChallengeStatus::Declined
    );
    assert_eq!(
        store.challenges_by(a.id, T0, T0 - 60_000).await.unwrap(),
        (1, 2)
    );
    // An hour later nothing is recent, and the open one has expired.
    assert_eq!(
        store
            .challenges_by(a.id, T0 + 3_600_000, T0 + 3_540_000)
            .await
            .unwrap(),
        (0, 0)
    );
}

async fn counters_and_message_ids_survive(store: Store) {
    assert_eq!(store.counter("offset").await.unwrap(), None);
    store.set_counter("offset", 41).await.unwrap();
    store.set_counter("offset", 42).await.unwrap();
    assert_eq!(store.counter("offset").await.unwrap(), Some(42));
    assert!(store.first_sight("test", "room", "m1", T0).await.unwrap());
    assert!(!store
        .first_sight("test", "room", "m1", T0 + 5)
        .await
        .unwrap());
    assert!(store.first_sight("test", "other", "m1", T0).await.unwrap());
    assert!(store.seen("test", "room", "m1").await.unwrap());
    assert!(!store.seen("test", "room", "m2").await.unwrap());
    assert_eq!(store.forget_messages(T0).await.unwrap(), 0);
    assert_eq!(store.forget_messages(T0 + 1).await.unwrap(), 2);
    assert!(!store.seen("test", "room", "m1").await.unwrap());
    store.ping().await.unwrap();
}
