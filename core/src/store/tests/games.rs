//! Games: accepted once, moves appended at their ply only, endings settled, damaged rows
//! refused with an error. On both backends.

use super::{challenge, game, on_both, player, T0};
use crate::color::Color;
use crate::game::{EndCause, GameResult, Rules};
use crate::store::{Accepted, Checked, Finish, GameStatus, MoveUpdate, NewGame, Store, StoreError};

on_both!(
    a_challenge_is_accepted_once_and_stakes_are_held,
    moves_append_at_their_ply_only_and_once_per_message,
    an_ending_is_stored_once_with_its_cause,
    turn_marks_and_offers_change_only_the_turn_they_name,
    a_delivery_report_moves_the_clock_and_its_timer_once,
    lists_of_games_by_chat_player_and_pair,
    a_damaged_row_is_an_error_not_a_panic,
    a_takeback_deletes_the_moves_after_it_and_is_counted,
    watched_games_stand_as_their_rows_in_one_read,
);

fn new_game(c: &crate::store::ChallengeRow, white: i64, black: i64, stake: Option<i64>) -> NewGame {
    NewGame {
        rules: c.rules.clone(),
        start_position: None,
        white_id: white,
        black_id: black,
        rated: c.rated,
        stake,
        time_control: "5+0".into(),
        bank_ms: 300_000,
        movetime_ms: None,
        monitor: false,
        now: T0,
    }
}

/// A move whose check read the clock started at `started` (and no draw offer).
pub(super) fn step(
    text: &str,
    message: Option<&str>,
    due: Option<i64>,
    started: i64,
) -> MoveUpdate {
    MoveUpdate {
        message: message.map(|m| ("test".into(), "room".into(), m.into())),
        text: text.into(),
        auto: false,
        white_ms: 300_000,
        black_ms: 300_000,
        turn_started_at: T0 + 1000,
        draw_offer_by: None,
        finish: None,
        due_at: due,
        checked: Checked {
            turn_started_at: started,
            draw_offer_by: None,
        },
    }
}

async fn a_challenge_is_accepted_once_and_stakes_are_held(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let c = challenge(&store, "room", &a, Some(&b), "damas", true, Some(400)).await;
    let g = match store
        .accept_challenge(
            c.id,
            &new_game(&c, a.id, b.id, Some(400)),
            crate::store::Says::nothing(),
        )
        .await
        .unwrap()
    {
        Accepted::Started(g) => *g,
        other => panic!("{other:?}"),
    };
    assert_eq!(g.status, GameStatus::Active);
    assert_eq!(g.rules, Rules::Damas { flying: true });
    assert_eq!((g.white_ms, g.black_ms, g.ply), (300_000, 300_000, 0));
    assert_eq!(g.due_at, Some(T0), "due at once until the table says when");
    assert_eq!((g.platform.as_str(), g.chat.as_str()), ("test", "room"));
    assert_eq!(store.chips(a.id).await.unwrap(), 600);
    assert_eq!(store.chips(b.id).await.unwrap(), 600);
    assert_eq!(
        store
            .accept_challenge(
                c.id,
                &new_game(&c, a.id, b.id, Some(400)),
                crate::store::Says::nothing()
            )
            .await
            .unwrap(),
        Accepted::Gone
    );
    // A stake one of them cannot cover: nothing is held, the challenge stays open.
    let c2 = challenge(&store, "room", &a, Some(&b), "damas", true, Some(700)).await;
    assert_eq!(
        store
            .accept_challenge(
                c2.id,
                &new_game(&c2, a.id, b.id, Some(700)),
                crate::store::Says::nothing()
            )
            .await
            .unwrap(),
        Accepted::NotEnoughChips
    );
    assert_eq!(store.chips(a.id).await.unwrap(), 600);
    assert_eq!(
        store.challenge(c2.id).await.unwrap().unwrap().status,
        crate::store::ChallengeStatus::Open
    );
}

async fn moves_append_at_their_ply_only_and_once_per_message(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    let saved = store
        .commit_move(
            g.id,
            0,
            T0 + 1000,
            &step("c3-d3", Some("m1"), Some(T0 + 301_000), T0),
            crate::store::Says::nothing(),
        )
        .await
        .unwrap();
    assert_eq!(saved.game.ply, 1);
    assert_eq!(saved.game.due_at, Some(T0 + 301_000));
    assert!(saved.ratings.is_empty());
    // The same ply again: another message got there first.
    assert!(matches!(
        store
            .commit_move(
                g.id,
                0,
                T0 + 1000,
                &step("c3-c4", Some("m2"), None, T0),
                crate::store::Says::nothing()
            )
            .await,
        Err(StoreError::Conflict)
    ));
    // The same message again at the next ply: a repeat, nothing written.
    assert!(matches!(
        store
            .commit_move(
                g.id,
                1,
                T0 + 2000,
                &step("f6-e6", Some("m1"), None, T0 + 1000),
                crate::store::Says::nothing()
            )
            .await,
        Err(StoreError::Repeat)
    ));
    assert_eq!(store.game(g.id).await.unwrap().unwrap().ply, 1);
    // Checked against a clock that has moved since (a delivery report): refused too.
    assert!(store.delivered(g.id, 1, T0 + 1500, 10_000).await.unwrap());
    assert!(matches!(
        store
            .commit_move(
                g.id,
                1,
                T0 + 2000,
                &step("f6-e6", None, None, T0 + 1000),
                crate::store::Says::nothing()
            )
            .await,
        Err(StoreError::Conflict)
    ));
    store
        .commit_move(
            g.id,
            1,
            T0 + 2000,
            &step("f6-e6", None, None, T0 + 1500),
            crate::store::Says::nothing(),
        )
        .await
        .unwrap();
    assert_eq!(store.moves(g.id).await.unwrap(), ["c3-d3", "f6-e6"]);
    // A replay catching up from ply 1 to a row read at ply 2 gets just the move between;
    // one to a row read at ply 1 (before the second move) gets nothing past it.
    assert_eq!(store.moves_between(g.id, 1, 2).await.unwrap(), ["f6-e6"]);
    assert_eq!(store.moves_between(g.id, 0, 1).await.unwrap(), ["c3-d3"]);
    assert!(matches!(
        store.moves_between(g.id, 0, 3).await,
        Err(StoreError::Corrupt(_))
    ));
    assert!(store.seen("test", "room", "m1").await.unwrap());
    assert!(!store.seen("test", "room", "m2").await.unwrap());
}

async fn an_ending_is_stored_once_with_its_cause(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    let finish = Finish {
        result: GameResult::Black,
        cause: EndCause::Flag(Color::White),
        rule: "T1".into(),
        abandoned_by: None,
    };
    let saved = store
        .finish_game(
            g.id,
            0,
            &finish,
            (0, 299_000),
            T0 + 5000,
            crate::store::Says::nothing(),
        )
        .await
        .unwrap();
    assert_eq!(saved.game.status, GameStatus::Finished);
    assert_eq!(saved.game.result, Some(GameResult::Black));
    assert_eq!(saved.game.end_reason.as_deref(), Some("flag:white"));
    assert_eq!(saved.game.finished_at, Some(T0 + 5000));
    assert_eq!((saved.game.white_ms, saved.game.black_ms), (0, 299_000));
    assert_eq!(saved.game.due_at, None, "a finished game has no timer");
    assert!(saved.ratings.is_empty(), "casual");
    assert!(matches!(
        store
            .finish_game(
                g.id,
                0,
                &finish,
                (0, 0),
                T0 + 6000,
                crate::store::Says::nothing()
            )
            .await,
        Err(StoreError::Conflict)
    ));
    // A void ending leaves the game aborted.
    let g2 = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    let void = Finish {
        result: GameResult::Void,
        cause: EndCause::Aborted,
        rule: "T2".into(),
        abandoned_by: None,
    };
    let saved = store
        .finish_game(
            g2.id,
            0,
            &void,
            (300_000, 300_000),
            T0,
            crate::store::Says::nothing(),
        )
        .await
        .unwrap();
    assert_eq!(saved.game.status, GameStatus::Aborted);
    // A move that ends the game ends it in the same transaction.
    let g3 = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    let mut last = step("c3-d3", None, Some(T0 + 9_999), T0);
    last.finish = Some(Finish {
        result: GameResult::White,
        cause: EndCause::Completed,
        rule: "C5".into(),
        abandoned_by: None,
    });
    let saved = store
        .commit_move(g3.id, 0, T0 + 7000, &last, crate::store::Says::nothing())
        .await
        .unwrap();
    assert_eq!(saved.game.status, GameStatus::Finished);
    assert_eq!(saved.game.result, Some(GameResult::White));
    assert_eq!(saved.game.due_at, None);
    assert_eq!(store.games_in_play().await.unwrap(), 0);
}

async fn turn_marks_and_offers_change_only_the_turn_they_name(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    store
        .set_draw_offer(
            g.id,
            0,
            Some(Color::White),
            crate::store::Says::nothing(),
            0,
        )
        .await
        .unwrap();
    assert_eq!(
        store.game(g.id).await.unwrap().unwrap().draw_offer_by,
        Some(Color::White)
    );
    assert!(matches!(
        store
            .set_draw_offer(g.id, 3, None, crate::store::Says::nothing(), 0)
            .await,
        Err(StoreError::Conflict)
    ));
    store
        .set_pending_move(g.id, 0, Some("c3-c4"))
        .await
        .unwrap();
    let row = store.game(g.id).await.unwrap().unwrap();
    assert_eq!(
        (row.pending_move.as_deref(), row.pending_ply),
        (Some("c3-c4"), Some(0))
    );
    store.set_pending_move(g.id, 0, None).await.unwrap();
    let row = store.game(g.id).await.unwrap().unwrap();
    assert_eq!((row.pending_move, row.pending_ply), (None, None));
    store
        .set_reminded(g.id, 0, Some(T0 + 50), crate::store::Says::nothing(), 0)
        .await
        .unwrap();
    assert!(
        matches!(
            store
                .set_reminded(g.id, 0, None, crate::store::Says::nothing(), 0)
                .await,
            Err(StoreError::Conflict)
        ),
        "reminded once a turn"
    );
    store
        .set_idle_noticed(g.id, 0, Some(T0 + 60), crate::store::Says::nothing(), 0)
        .await
        .unwrap();
    assert!(matches!(
        store
            .set_idle_noticed(g.id, 0, None, crate::store::Says::nothing(), 0)
            .await,
        Err(StoreError::Conflict)
    ));
    let row = store.game(g.id).await.unwrap().unwrap();
    assert_eq!(
        (row.reminded_ply, row.idle_noticed_ply, row.due_at),
        (Some(0), Some(0), Some(T0 + 60))
    );
}

async fn a_delivery_report_moves_the_clock_and_its_timer_once(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    store.set_due(g.id, Some(T0 + 300_000)).await.unwrap();
    // Reported 4 s late, credit capped at 3 s.
    assert!(store.delivered(g.id, 0, T0 + 4000, 3000).await.unwrap());
    let row = store.game(g.id).await.unwrap().unwrap();
    assert_eq!(
        (row.turn_started_at, row.due_at),
        (T0 + 3000, Some(T0 + 303_000))
    );
    assert!(
        !store.delivered(g.id, 0, T0 + 5000, 3000).await.unwrap(),
        "only the first report counts"
    );
    assert!(!store.delivered(g.id, 7, T0 + 5000, 3000).await.unwrap());
    // A report from before the move gives nothing.
    let g2 = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    assert!(store.delivered(g2.id, 0, T0 - 10, 3000).await.unwrap());
    assert_eq!(
        store.game(g2.id).await.unwrap().unwrap().turn_started_at,
        T0
    );
}

async fn lists_of_games_by_chat_player_and_pair(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let c = player(&store, "carol").await;
    let g1 = game(&store, "room", &a, &b, "classic3x3", true, None).await;
    let g2 = game(&store, "room", &c, &a, "damas", true, None).await;
    let g3 = game(&store, "hall", &b, &a, "classic3x3", false, None).await;
    let ids = |v: Vec<crate::store::GameRow>| v.into_iter().map(|g| g.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store.active_games_in("test", "room", a.id).await.unwrap()),
        [g1.id, g2.id]
    );
    assert_eq!(
        ids(store.active_games_in("test", "room", b.id).await.unwrap()),
        [g1.id]
    );
    assert_eq!(
        ids(store.active_games_of(a.id).await.unwrap()),
        [g1.id, g2.id, g3.id]
    );
    assert_eq!(store.games_in_play().await.unwrap(), 3);
    // F2 counts rated games of a pair, either way round, since a moment.
    assert_eq!(
        store.rated_games_between(b.id, a.id, T0).await.unwrap(),
        [Rules::from_id("classic3x3").unwrap()]
    );
    assert!(store
        .rated_games_between(a.id, b.id, T0 + 1)
        .await
        .unwrap()
        .is_empty());
}

async fn a_damaged_row_is_an_error_not_a_panic(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    store
        .exec("UPDATE games SET rules = 'no-such-variant'")
        .await
        .unwrap();
    let read = store.game(g.id).await;
    assert!(matches!(read, Err(StoreError::Db(_))), "{read:?}");
    // A move record with a hole is corrupt, said so.
    let g2 = game(&store, "room", &a, &b, "classic3x4", false, None).await;
    store
        .exec("INSERT INTO moves (game_id, ply, text, played_at, auto) SELECT MAX(id), 1, 'c3-d3', 0, FALSE FROM games")
        .await
        .unwrap();
    assert!(matches!(
        store.moves(g2.id).await,
        Err(StoreError::Corrupt(_))
    ));
}

async fn a_takeback_deletes_the_moves_after_it_and_is_counted(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    for (ply, text) in ["c3-d3", "f6-e6", "d3-d4"].iter().enumerate() {
        let ply = i64::try_from(ply).unwrap();
        // Each move starts the next turn at T0 + 1000 (what `step` stores).
        let started = if ply == 0 { T0 } else { T0 + 1000 };
        store
            .commit_move(
                g.id,
                ply,
                T0 + 1000,
                &step(text, None, None, started),
                crate::store::Says::nothing(),
            )
            .await
            .unwrap();
    }
    store
        .set_draw_offer(
            g.id,
            3,
            Some(Color::White),
            crate::store::Says::nothing(),
            0,
        )
        .await
        .unwrap();
    // Back to one ply: two moves go, the rest of the row says where the game now stands.
    let row = store
        .take_back(
            g.id,
            3,
            1,
            (250_000, 260_000),
            T0 + 9000,
            Some(T0 + 99_000),
            crate::store::Says::nothing(),
        )
        .await
        .unwrap();
    assert_eq!((row.ply, row.takebacks), (1, 1));
    assert_eq!((row.white_ms, row.black_ms), (250_000, 260_000));
    assert_eq!(row.turn_started_at, T0 + 9000);
    assert_eq!(row.due_at, Some(T0 + 99_000));
    assert_eq!(row.draw_offer_by, None);
    assert_eq!(store.moves(g.id).await.unwrap(), ["c3-d3"]);
    // A takeback decided at a ply the game has left changes nothing.
    assert!(matches!(
        store
            .take_back(g.id, 3, 2, (0, 0), T0, None, crate::store::Says::nothing())
            .await,
        Err(StoreError::Conflict)
    ));
    // Nor one that would go forward, or below the start.
    assert!(matches!(
        store
            .take_back(g.id, 1, 1, (0, 0), T0, None, crate::store::Says::nothing())
            .await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store
            .take_back(g.id, 1, -1, (0, 0), T0, None, crate::store::Says::nothing())
            .await,
        Err(StoreError::Conflict)
    ));
    // The game goes on from there, at the ply after the takeback.
    store
        .commit_move(
            g.id,
            1,
            T0 + 10_000,
            &step("f6-f5", None, None, T0 + 9000),
            crate::store::Says::nothing(),
        )
        .await
        .unwrap();
    assert_eq!(store.moves(g.id).await.unwrap(), ["c3-d3", "f6-f5"]);
    assert_eq!(store.game(g.id).await.unwrap().unwrap().takebacks, 1);
}

/// The pages' one read of every watched game: each one's ply, status and draw offer as its
/// row has them; an id with no game is left out; none asked, nothing read.
async fn watched_games_stand_as_their_rows_in_one_read(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let one = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    let two = game(&store, "room2", &a, &b, "classic3x3", false, None).await;
    store
        .commit_move(
            one.id,
            0,
            T0 + 1000,
            &step("c3-d3", Some("m1"), None, T0),
            crate::store::Says::nothing(),
        )
        .await
        .unwrap();
    let finish = Finish {
        result: GameResult::White,
        cause: EndCause::Resigned(Color::Black),
        rule: "T2".into(),
        abandoned_by: None,
    };
    store
        .finish_game(
            two.id,
            0,
            &finish,
            (0, 0),
            T0 + 5000,
            crate::store::Says::nothing(),
        )
        .await
        .unwrap();
    let mut read = store.standings_of(&[two.id, 9_999, one.id]).await.unwrap();
    read.sort_by_key(|s| s.id);
    let of = |id: i64| read.iter().find(|s| s.id == id).copied().expect("read");
    assert_eq!(read.len(), 2, "no game 9999: {read:?}");
    assert_eq!((of(one.id).ply, of(one.id).status), (1, GameStatus::Active));
    assert_eq!(of(two.id).status, GameStatus::Finished);
    assert_eq!(of(one.id).draw_offer_by, None);
    assert!(store.standings_of(&[]).await.unwrap().is_empty());
}

/// On an `SQLite` file a move's first read goes to a reader beside the writer (it need not
/// queue behind a batch and its sync): a move checked against it after another commit is
/// refused as a conflict, and once the session locks the game its reads see every commit.
#[tokio::test]
async fn a_session_reads_beside_the_writer_until_it_locks_its_game() {
    let dir = std::env::temp_dir().join(format!("ugolki-session-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("session.db").display());
    let store = Store::connect(&url).await.unwrap();
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    let crate::store::Db::Sqlite(writer) = &store.db else {
        unreachable!("an SQLite file")
    };
    let wait = std::time::Duration::from_secs(5);
    let mut s = store.session().await.unwrap();
    // The writer busy (a batch being written, its sync): the read does not wait for it.
    let busy = writer.lock().await;
    let read = tokio::time::timeout(wait, store.game_in_session(&mut s, g.id))
        .await
        .expect("read beside the writer")
        .unwrap()
        .unwrap();
    let mine = tokio::time::timeout(
        wait,
        store.active_games_in_session(&mut s, "test", "room", a.id),
    )
    .await
    .expect("the player's games read beside the writer")
    .unwrap();
    assert_eq!(mine.iter().map(|r| r.id).collect::<Vec<_>>(), [g.id]);
    drop(busy);
    assert_eq!(read.ply, 0);
    // Another message's move commits meanwhile.
    store
        .commit_move(
            g.id,
            0,
            T0 + 1000,
            &step("c3-d3", Some("m1"), None, T0),
            crate::store::Says::nothing(),
        )
        .await
        .unwrap();
    // Read before it committed, this session's move does not go through ...
    let stale = store
        .commit_move_in_session(
            &mut s,
            g.id,
            read.ply,
            T0 + 1500,
            &step("c3-c4", Some("m2"), None, T0),
            crate::store::Says::nothing(),
        )
        .await;
    assert!(matches!(stale, Err(StoreError::Conflict)), "{stale:?}");
    // ... and under the game's lock it is checked again on the game as it is.
    store.lock_game_in_session(&mut s, g.id).await.unwrap();
    let busy = writer.lock().await;
    let short = std::time::Duration::from_millis(200);
    let through_writer = tokio::time::timeout(short, store.game_in_session(&mut s, g.id)).await;
    assert!(
        through_writer.is_err(),
        "a locked session reads on the writer"
    );
    drop(busy);
    let fresh = store.game_in_session(&mut s, g.id).await.unwrap().unwrap();
    assert_eq!(fresh.ply, 1);
    let mine = store
        .active_games_in_session(&mut s, "test", "room", a.id)
        .await
        .unwrap();
    assert_eq!(mine.iter().map(|r| r.ply).collect::<Vec<_>>(), [1]);
    drop(s);
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}
