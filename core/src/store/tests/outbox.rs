//! The outbox in the store: rows written with what they answer, read back in order, one
//! sender per chat (a lease that lapses when it runs out or its holder dies), marks with
//! their slots, pruning, and a chat that moves taking its unsent rows, slots and threads.
//! On both backends.

use super::{game, on_both, player, T0};
use crate::store::{OutRow, Outcome, Report, Reported, SlotChange, SlotRow, Store, ThreadRow};

on_both!(
    outbox_rows_are_kept_with_the_message_they_answer_once,
    outbox_a_chat_has_one_sender_until_its_lease_lapses_or_its_holder_dies,
    outbox_marks_keep_or_drop_the_slot_and_count_the_calls,
    outbox_old_rows_are_pruned_and_the_depth_reported,
    outbox_a_moved_chat_takes_its_unsent_rows_slots_and_threads,
    outbox_old_boards_to_strip_are_kept_by_lane_until_stripped_or_their_chat_goes,
    outbox_marks_written_at_once_each_get_their_own_slot_and_report,
    outbox_a_run_of_marks_comes_to_what_they_do_one_after_the_other,
    outbox_a_mark_the_database_refuses_fails_alone_not_its_run,
    outbox_a_forums_topics_go_out_in_their_groups_lane,
    outbox_a_commit_hands_its_rows_with_their_ids_to_its_lanes_sender,
    outbox_a_lease_is_renewed_only_as_its_holder_left_it,
    outbox_a_commit_tells_other_processes_of_the_lanes_this_one_does_not_hold,
);

fn row(chat: &str, n: i64) -> OutRow {
    OutRow {
        platform: "test".into(),
        chat_id: chat.into(),
        chat_kind: "group".into(),
        lane: chat.into(),
        place: None,
        audience: "chat".into(),
        sender_id: None,
        sender_name: None,
        reply_to: None,
        slot_use: None,
        slot_kind: None,
        slot_id: None,
        game_id: Some(n),
        ply: None,
        message: format!(r#"{{"k":"game-number","id":{n}}}"#),
        lang: "en".into(),
        actions: String::new(),
        picture: None,
    }
}

/// A row for topic `topic` of forum group `group`.
fn topic_row(group: &str, topic: &str, n: i64) -> OutRow {
    let chat = crate::table::ChatRef::topic(crate::table::Platform::Test, group, topic);
    OutRow {
        chat_id: chat.id.clone(),
        chat_kind: chat.kind.as_str().into(),
        lane: chat.lane().into(),
        ..row(group, n)
    }
}

async fn outbox_a_forums_topics_go_out_in_their_groups_lane(store: Store) {
    let rows = vec![
        topic_row("-100", "4", 1),
        row("-100", 2),
        topic_row("-100", "9", 3),
        row("-200", 4),
    ];
    store.say(None, rows, T0).await.unwrap();
    // The group's lane holds its own rows and its topics', in the order written, each
    // with its own chat.
    let lane = store.unsent("test", "-100", 10).await.unwrap();
    let chats: Vec<&str> = lane.iter().map(|q| q.row.chat_id.as_str()).collect();
    assert_eq!(chats, ["-100/4", "-100", "-100/9"]);
    assert_eq!(lane[0].row.chat_kind, "topic");
    let mut waiting = store.chats_waiting("test", "a", T0, 10).await.unwrap();
    waiting.sort();
    assert_eq!(waiting, ["-100", "-200"], "lanes, not topics");
    // One lease for the group and its topics.
    store.resume("a", T0, None).await.unwrap();
    store.resume("b", T0, None).await.unwrap();
    assert!(store
        .claim_chat("test", "-100", "a", T0, T0 + 15_000)
        .await
        .unwrap());
    assert!(!store
        .claim_chat("test", "-100", "b", T0, T0 + 15_000)
        .await
        .unwrap());
    let mut told = store.signal().changed().await;
    told.sort();
    assert_eq!(
        told,
        [
            ("test".into(), "-100".into()),
            ("test".into(), "-200".into())
        ],
        "senders are woken by lane"
    );
}

async fn outbox_rows_are_kept_with_the_message_they_answer_once(store: Store) {
    let seen = Some(("test", "room", "m1"));
    assert!(store
        .say(seen, vec![row("room", 1), row("room", 2)], T0)
        .await
        .unwrap());
    // The same message again: nothing more is written.
    assert!(!store.say(seen, vec![row("room", 3)], T0).await.unwrap());
    store.say(None, vec![row("other", 4)], T0).await.unwrap();
    let rows = store.unsent("test", "room", 10).await.unwrap();
    let games: Vec<Option<i64>> = rows.iter().map(|q| q.row.game_id).collect();
    assert_eq!(
        games,
        [Some(1), Some(2)],
        "in the order written, that chat's only"
    );
    assert_eq!(rows[0].row, row("room", 1), "read back as written");
    // This process's senders were told of both chats.
    let mut told = store.signal().changed().await;
    told.sort();
    assert_eq!(
        told,
        [
            ("test".into(), "other".into()),
            ("test".into(), "room".into())
        ]
    );
}

async fn outbox_a_chat_has_one_sender_until_its_lease_lapses_or_its_holder_dies(store: Store) {
    store.resume("a", T0, None).await.unwrap();
    store.resume("b", T0, Some(T0)).await.unwrap();
    let claim = |holder: &'static str, now: i64| {
        let store = store.clone();
        async move {
            store
                .claim_chat("test", "room", holder, now, now + 15_000)
                .await
                .unwrap()
        }
    };
    assert!(claim("a", T0).await);
    assert!(claim("a", T0 + 10).await, "its holder keeps it");
    assert!(!claim("b", T0 + 20).await, "held by a live process");
    // The lease runs out while a still beats: b may take it.
    store.beat("a", T0 + 15_500).await.unwrap();
    store.beat("b", T0 + 15_500).await.unwrap();
    assert!(claim("b", T0 + 15_600).await);
    assert!(!claim("a", T0 + 15_700).await);
    // b dies (no heartbeat for over a second): a takes the chat at once, lease or not.
    store.beat("a", T0 + 17_000).await.unwrap();
    assert!(claim("a", T0 + 17_000).await);
    // Let go: anyone may take it.
    store.release_chat("test", "room", "a").await.unwrap();
    store.beat("b", T0 + 17_100).await.unwrap();
    assert!(claim("b", T0 + 17_100).await);
    // Waiting chats: those whose lease a holder may take (its own, or free ones).
    store
        .say(None, vec![row("room", 1), row("hall", 2)], T0)
        .await
        .unwrap();
    let mut free_for_a = store
        .chats_waiting("test", "a", T0 + 17_200, 10)
        .await
        .unwrap();
    free_for_a.sort();
    assert_eq!(free_for_a, ["hall"], "room is b's");
    let mut free_for_b = store
        .chats_waiting("test", "b", T0 + 17_200, 10)
        .await
        .unwrap();
    free_for_b.sort();
    assert_eq!(free_for_b, ["hall", "room"]);
    store.release_leases_of("b").await.unwrap();
    store.clear_leases().await.unwrap();
    assert!(claim("a", T0 + 17_300).await);
}

async fn outbox_marks_keep_or_drop_the_slot_and_count_the_calls(store: Store) {
    store
        .say(None, vec![row("room", 1), row("room", 2)], T0)
        .await
        .unwrap();
    let rows = store.unsent("test", "room", 10).await.unwrap();
    let living = SlotRow {
        message_id: "55".into(),
        place: Some("thread".into()),
        photo: true,
        buttons: true,
        state: None,
    };
    let keep = SlotChange::Keep {
        platform: "test",
        chat: "room",
        slot: ("board", 7),
        row: &living,
    };
    store
        .mark_sent(rows[0].id, (Outcome::Sent, 2), Some(keep), T0 + 100)
        .await
        .unwrap();
    assert_eq!(
        store.slot("test", "room", "board", 7).await.unwrap(),
        Some(living)
    );
    let left = store.unsent("test", "room", 10).await.unwrap();
    assert_eq!(left.len(), 1);
    let drop = SlotChange::Drop {
        platform: "test",
        chat: "room",
        slot: ("board", 7),
    };
    store
        .mark_sent(left[0].id, (Outcome::Overtaken, 0), Some(drop), T0 + 200)
        .await
        .unwrap();
    assert_eq!(store.slot("test", "room", "board", 7).await.unwrap(), None);
    assert!(store.unsent("test", "room", 10).await.unwrap().is_empty());
    // The calls a sender taking the chat over must count: two, at T0 + 100.
    assert_eq!(
        store.recent_calls("test", "room", T0).await.unwrap(),
        [(T0 + 100, 2)]
    );
    assert!(store
        .recent_calls("test", "room", T0 + 100)
        .await
        .unwrap()
        .is_empty());
}

async fn outbox_old_rows_are_pruned_and_the_depth_reported(store: Store) {
    store.say(None, vec![row("room", 1)], T0).await.unwrap();
    store
        .say(None, vec![row("room", 2)], T0 + 1000)
        .await
        .unwrap();
    let depth = store.outbox_depth().await.unwrap();
    assert_eq!(depth.len(), 1);
    assert_eq!((depth[0].unsent, depth[0].oldest), (2, Some(T0)));
    let rows = store.unsent("test", "room", 10).await.unwrap();
    store
        .mark_sent(rows[0].id, (Outcome::Sent, 1), None, T0 + 10)
        .await
        .unwrap();
    // Sent before T0 + 500 goes; unsent before T0 + 500 would be given up: none is.
    assert_eq!(
        store.prune_outbox(T0 + 500, T0 + 500).await.unwrap(),
        (1, 0)
    );
    assert_eq!(
        store.prune_outbox(T0 + 500, T0 + 2000).await.unwrap(),
        (0, 1),
        "a row nobody sent for long enough is given up"
    );
    assert!(store.outbox_depth().await.unwrap().is_empty());
}

async fn outbox_a_moved_chat_takes_its_unsent_rows_slots_and_threads(store: Store) {
    store.say(None, vec![row("-1", 1)], T0).await.unwrap();
    let living = SlotRow {
        message_id: "9".into(),
        place: None,
        photo: false,
        buttons: true,
        state: None,
    };
    store
        .set_slot("test", "-1", ("challenge", 3), &living, T0)
        .await
        .unwrap();
    let thread = ThreadRow {
        game_id: 4,
        chat_id: "-1".into(),
        thread_id: "77".into(),
    };
    store.set_thread("test", &thread, T0).await.unwrap();
    assert_eq!(
        store.thread_parent("test", "77").await.unwrap(),
        Some("-1".into())
    );
    // A thread's newest game is the one an Activity launched there shows.
    let later = ThreadRow {
        game_id: 6,
        ..thread.clone()
    };
    store.set_thread("test", &later, T0).await.unwrap();
    assert_eq!(store.thread_game("test", "77").await.unwrap(), Some(6));
    assert_eq!(store.thread_game("test", "78").await.unwrap(), None);
    assert_eq!(store.thread_game("other", "77").await.unwrap(), None);
    store.move_chat("test", "-1", "-100").await.unwrap();
    assert!(store.unsent("test", "-1", 10).await.unwrap().is_empty());
    assert_eq!(store.unsent("test", "-100", 10).await.unwrap().len(), 1);
    assert_eq!(
        store.slot("test", "-1", "challenge", 3).await.unwrap(),
        None
    );
    assert_eq!(
        store.slot("test", "-100", "challenge", 3).await.unwrap(),
        Some(living)
    );
    assert_eq!(
        store.thread_of("test", 4).await.unwrap().map(|t| t.chat_id),
        Some("-100".into())
    );
}

/// Marks made at once share a commit (`SQLite` writes a run of them in one query): each
/// still keeps its own slot and gets its own report's answer, beside a move committed in the
/// same moment.
async fn outbox_marks_written_at_once_each_get_their_own_slot_and_report(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let mut games = Vec::new();
    for _ in 0..14 {
        let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
        store.set_due(g.id, Some(T0 + 300_000)).await.unwrap();
        games.push(g.id);
    }
    let rows: Vec<OutRow> = games.iter().map(|g| row("room", *g)).collect();
    store.say(None, rows, T0).await.unwrap();
    let queued = store.unsent("test", "room", 100).await.unwrap();
    assert_eq!(queued.len(), games.len());
    let mut set = tokio::task::JoinSet::new();
    for (i, q) in queued.into_iter().enumerate() {
        let (store, game) = (store.clone(), games[i]);
        set.spawn(async move {
            let living = SlotRow {
                message_id: format!("m{i}"),
                place: None,
                photo: true,
                buttons: i % 3 != 0,
                state: None,
            };
            let slot = SlotChange::Keep {
                platform: "test",
                chat: "room",
                slot: ("board", game),
                row: &living,
            };
            // Even games report the board of their ply (it counts, 1 s late); odd ones a
            // ply the game is not at (it does not).
            let ply = if i % 2 == 0 { 0 } else { 5 };
            let report = Report {
                game,
                ply,
                at: T0 + 1000,
                max_credit_ms: 3000,
            };
            let r = store
                .mark_reported(q.id, (Outcome::Sent, 1), Some(slot), Some(report), T0 + 10)
                .await
                .unwrap();
            (i, r)
        });
    }
    let mover = {
        let store = store.clone();
        let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
        tokio::spawn(async move {
            store
                .commit_move(
                    g.id,
                    0,
                    T0 + 1000,
                    &super::games::step("c3-d3", None, None, T0),
                    crate::store::Says::nothing(),
                )
                .await
                .map(|s| s.game.ply)
        })
    };
    let mut answers = Vec::new();
    for _ in 0..100 {
        let Some(done) = set.join_next().await else {
            break;
        };
        answers.push(done.unwrap());
    }
    answers.sort_by_key(|(i, _)| *i);
    assert_eq!(answers.len(), games.len());
    for (i, r) in &answers {
        let expected = if i % 2 == 0 {
            Reported::Counted {
                due: Some(T0 + 301_000),
            }
        } else {
            Reported::No
        };
        assert_eq!(*r, expected, "mark {i}'s own report");
        let slot = store
            .slot("test", "room", "board", games[*i])
            .await
            .unwrap();
        assert_eq!(
            slot.map(|s| (s.message_id, s.buttons)),
            Some((format!("m{i}"), i % 3 != 0)),
            "mark {i}'s own slot"
        );
    }
    assert_eq!(mover.await.unwrap().unwrap(), 1, "the move beside them");
    assert!(store.unsent("test", "room", 100).await.unwrap().is_empty());
}

/// Marks queued at once go in one run on `SQLite` (one query for the lot), yet come to what
/// they would one after the other: a slot's last change stands (kept, dropped, kept again),
/// and only a board's first report counts, its later ones not.
async fn outbox_a_run_of_marks_comes_to_what_they_do_one_after_the_other(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let mut games = Vec::new();
    for _ in 0..3 {
        let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
        store.set_due(g.id, Some(T0 + 300_000)).await.unwrap();
        games.push(g.id);
    }
    let rows: Vec<OutRow> = (0..6).map(|n| row("room", games[n % 3])).collect();
    store.say(None, rows, T0).await.unwrap();
    let q = store.unsent("test", "room", 100).await.unwrap();
    assert_eq!(q.len(), 6);
    let living = |m: &str| SlotRow {
        message_id: m.into(),
        place: None,
        photo: true,
        buttons: true,
        state: None,
    };
    let (first, second, third, fourth) = (living("a"), living("c"), living("x"), living("z"));
    let keep = |game: i64, row| {
        Some(SlotChange::Keep {
            platform: "test",
            chat: "room",
            slot: ("board", game),
            row,
        })
    };
    let drop = |game: i64| {
        Some(SlotChange::Drop {
            platform: "test",
            chat: "room",
            slot: ("board", game),
        })
    };
    let report = |at| {
        Some(Report {
            game: games[0],
            ply: 0,
            at,
            max_credit_ms: 3000,
        })
    };
    let sent = (Outcome::Sent, 1);
    // All queued before any is awaited (on SQLite each is queued as it is made).
    let marks = vec![
        store.mark_reported_later(q[0].id, sent, keep(games[0], &first), report(T0 + 1000), T0),
        store.mark_reported_later(q[1].id, sent, drop(games[0]), report(T0 + 2000), T0),
        store.mark_reported_later(q[2].id, sent, keep(games[0], &second), None, T0),
        store.mark_reported_later(q[3].id, sent, keep(games[1], &third), None, T0),
        store.mark_reported_later(q[4].id, sent, drop(games[1]), None, T0),
        store.mark_reported_later(q[5].id, sent, drop(games[2]), None, T0),
        store.mark_reported_later(q[5].id, sent, keep(games[2], &fourth), None, T0),
    ];
    let mut answers = Vec::new();
    for m in marks {
        answers.push(m.await.unwrap());
    }
    assert_eq!(
        answers[..2],
        [
            Reported::Counted {
                due: Some(T0 + 301_000)
            },
            Reported::No
        ],
        "the board's first report counts, the second not"
    );
    let shown = |game| {
        let store = store.clone();
        async move {
            let slot = store.slot("test", "room", "board", game).await.unwrap();
            slot.map(|s| s.message_id)
        }
    };
    assert_eq!(
        shown(games[0]).await.as_deref(),
        Some("c"),
        "kept, dropped, kept again"
    );
    assert_eq!(shown(games[1]).await, None, "kept, then dropped");
    assert_eq!(
        shown(games[2]).await.as_deref(),
        Some("z"),
        "dropped, then kept"
    );
    assert!(store.unsent("test", "room", 100).await.unwrap().is_empty());
}

/// A mark the database refuses (here a slot of a kind it does not know) fails alone: the
/// marks queued with it, other chats' included, are written all the same.
async fn outbox_a_mark_the_database_refuses_fails_alone_not_its_run(store: Store) {
    let rows = vec![row("room", 1), row("other", 2), row("room", 3)];
    store.say(None, rows, T0).await.unwrap();
    let mut q = store.unsent("test", "room", 100).await.unwrap();
    q.extend(store.unsent("test", "other", 100).await.unwrap());
    let living = SlotRow {
        message_id: "m".into(),
        place: None,
        photo: false,
        buttons: true,
        state: None,
    };
    let slot = |chat, kind| {
        Some(SlotChange::Keep {
            platform: "test",
            chat,
            slot: (kind, 7),
            row: &living,
        })
    };
    let sent = (Outcome::Sent, 1);
    let marks = vec![
        store.mark_reported_later(q[0].id, sent, slot("room", "board"), None, T0),
        store.mark_reported_later(q[1].id, sent, slot("room", "no such kind"), None, T0),
        store.mark_reported_later(q[2].id, sent, slot("other", "challenge"), None, T0),
    ];
    let mut answers = Vec::new();
    for m in marks {
        answers.push(m.await.is_ok());
    }
    assert_eq!(answers, [true, false, true]);
    let unsent = |chat| {
        let store = store.clone();
        async move {
            let rows = store.unsent("test", chat, 100).await.unwrap();
            rows.iter().map(|r| r.id).collect::<Vec<_>>()
        }
    };
    assert_eq!(
        unsent("room").await,
        [q[1].id],
        "only the refused row waits"
    );
    assert!(unsent("other").await.is_empty());
    let kept = store.slot("test", "other", "challenge", 7).await.unwrap();
    assert_eq!(kept.map(|s| s.message_id).as_deref(), Some("m"));
}

/// Old boards whose buttons wait for a quiet lane: kept once, read by lane (a forum's
/// topics with their group) oldest first, forgotten when stripped, when their chat moves
/// (its messages cannot be edited any more) or when the bot leaves it.
async fn outbox_old_boards_to_strip_are_kept_by_lane_until_stripped_or_their_chat_goes(
    store: Store,
) {
    use crate::store::StaleButtons;
    use crate::table::{ChatKind, ChatRef, Platform};
    let stale = |chat: ChatRef, m: &str| StaleButtons {
        chat,
        message_id: m.into(),
        place: None,
    };
    let group = ChatRef::new(Platform::Test, "-100", ChatKind::Group);
    let topic = ChatRef::topic(Platform::Test, "-100", "4");
    let other = ChatRef::new(Platform::Test, "-200", ChatKind::Group);
    let (a, b, c) = (
        stale(group.clone(), "7"),
        stale(topic.clone(), "9"),
        stale(other.clone(), "3"),
    );
    store.keep_stale(&a, T0).await.unwrap();
    store.keep_stale(&b, T0 + 1).await.unwrap();
    store.keep_stale(&a, T0 + 2).await.unwrap();
    store.keep_stale(&c, T0).await.unwrap();
    let lane = store.stale_of("test", "-100").await.unwrap();
    assert_eq!(lane, [a.clone(), b.clone()], "once each, oldest first");
    assert_eq!(lane[1].chat.kind, ChatKind::Topic);
    store.drop_stale(&a).await.unwrap();
    assert_eq!(
        store.stale_of("test", "-100").await.unwrap(),
        std::slice::from_ref(&b)
    );
    // The topic's bot was removed with its group; the other group became a supergroup.
    store.forget_chat("test", &topic.id, T0, T0).await.unwrap();
    assert!(store.stale_of("test", "-100").await.unwrap().is_empty());
    store.move_chat("test", "-200", "-1002").await.unwrap();
    assert!(store.stale_of("test", "-200").await.unwrap().is_empty());
    assert!(store.stale_of("test", "-1002").await.unwrap().is_empty());
}

async fn outbox_a_commit_hands_its_rows_with_their_ids_to_its_lanes_sender(store: Store) {
    store
        .say(
            None,
            vec![row("room", 1), row("room", 2), row("hall", 3)],
            T0,
        )
        .await
        .unwrap();
    let signal = store.signal();
    let fresh = signal.take("test", "room");
    assert!(!fresh.unknown, "its own commit: the rows are all there is");
    // The rows as the store keeps them, ids and all: delivering them reads nothing.
    let stored = store.unsent("test", "room", 10).await.unwrap();
    let ids = |q: &[crate::store::Queued]| q.iter().map(|q| q.id).collect::<Vec<_>>();
    assert_eq!(ids(&fresh.rows), ids(&stored));
    for (told, kept) in fresh.rows.iter().zip(&stored) {
        assert_eq!(told.row, kept.row);
        assert_eq!(told.created_at, kept.created_at);
    }
    // Taken once: nothing more until the next commit.
    assert!(signal.take("test", "room").rows.is_empty());
    assert_eq!(signal.take("test", "hall").rows.len(), 1);
    // Told of by someone else (a notice, a look at waiting chats): read the store.
    store.say(None, vec![row("room", 4)], T0).await.unwrap();
    signal.poke("test", "room");
    let fresh = signal.take("test", "room");
    assert!(fresh.unknown && fresh.rows.is_empty());
    // A notice this store sent itself is skipped; another's makes the lane unknown.
    let own = format!("test room\t{}", signal.origin());
    signal.heard(&own);
    let fresh = signal.take("test", "room");
    assert_eq!(
        fresh.unknown,
        signal.origin().is_empty(),
        "own notice skipped"
    );
    signal.heard("test room\tsomeone-else");
    assert!(signal.take("test", "room").unknown);
    signal.heard("test room");
    assert!(
        signal.take("test", "room").unknown,
        "a notice naming no store"
    );
}

async fn outbox_a_lease_is_renewed_only_as_its_holder_left_it(store: Store) {
    store.resume("a", T0, None).await.unwrap();
    store.resume("b", T0, None).await.unwrap();
    let until = T0 + 15_000;
    assert!(store
        .claim_chat("test", "room", "a", T0, until)
        .await
        .unwrap());
    // Held without a break: renewed.
    assert!(store
        .renew_chat("test", "room", "a", until, until + 5_000)
        .await
        .unwrap());
    // Not as it was left (another end): not renewed, nothing changed.
    assert!(!store
        .renew_chat("test", "room", "a", until, until + 9_000)
        .await
        .unwrap());
    assert!(!store
        .renew_chat("test", "room", "b", until + 5_000, until + 9_000)
        .await
        .unwrap());
    // Let go, taken by b and let go again: a's lease is to be taken anew, not renewed.
    store.release_chat("test", "room", "a").await.unwrap();
    assert!(store
        .claim_chat("test", "room", "b", T0, until)
        .await
        .unwrap());
    store.release_chat("test", "room", "b").await.unwrap();
    assert!(!store
        .renew_chat("test", "room", "a", until + 5_000, until + 9_000)
        .await
        .unwrap());
    assert!(store
        .claim_chat("test", "room", "a", T0, until)
        .await
        .unwrap());
}

/// The lanes named by the notices heard (`PostgreSQL`), up to a marker told after them;
/// each notice names this store as its sender.
async fn lanes_told(store: &Store, listener: &mut sqlx::postgres::PgListener) -> Vec<String> {
    store.tell("test", "marker").await.unwrap();
    let heard = super::pg::heard_before(listener, "test marker\t").await;
    heard
        .iter()
        .map(|p| {
            let (lane, from) = p.split_once('\t').expect("a tab");
            assert_eq!(from, store.signal().origin(), "the store names itself");
            lane.to_string()
        })
        .collect()
}

async fn outbox_a_commit_tells_other_processes_of_the_lanes_this_one_does_not_hold(store: Store) {
    // `None` on SQLite: one process, no notices; what the signal keeps is checked there.
    let mut listener = store.listen_outbox().await;
    let signal = store.signal();
    let pg = listener.is_some();
    // This process's sender holds "room" for 15 s.
    signal.hold("test", "room", T0 + 15_000);
    store
        .say(None, vec![row("room", 1), row("hall", 2)], T0)
        .await
        .unwrap();
    if let Some(l) = &mut listener {
        assert_eq!(lanes_told(&store, l).await, ["test hall"]);
    }
    // The held lane's sender is told that nobody else was (should it lose the lane).
    assert_eq!(signal.take("test", "room").untold, pg);
    assert!(!signal.take("test", "hall").untold);
    assert!(!signal.take("test", "room").untold, "taken once");
    // A lease about to run out (under 2 s left) is as good as gone: told.
    store
        .say(None, vec![row("room", 3)], T0 + 13_500)
        .await
        .unwrap();
    if let Some(l) = &mut listener {
        assert_eq!(lanes_told(&store, l).await, ["test room"]);
    }
    // A move (one statement on PostgreSQL) tells the same way, and only if it is written.
    let (a, b) = (player(&store, "alice").await, player(&store, "bob").await);
    let g = game(&store, "room", &a, &b, "classic3x3", false, None).await;
    let update = super::games::step("c3-d3", Some("m1"), None, T0);
    let says = || crate::store::Says::Rows(vec![row("room", 4), row("hall", 5)]);
    store
        .commit_move(g.id, 0, T0 + 1000, &update, says())
        .await
        .unwrap();
    let again = store.commit_move(g.id, 0, T0 + 1000, &update, says()).await;
    assert!(again.is_err(), "the same message again writes nothing");
    if let Some(l) = &mut listener {
        assert_eq!(lanes_told(&store, l).await, ["test hall"]);
    }
    assert_eq!(signal.take("test", "room").untold, pg);
    // Let go while rows were being written without a notice: told once they commit.
    let notices = signal.notices(&[row("room", 6)], T0 + 2000);
    assert!(notices.payloads.is_empty(), "held: no notice");
    let mut written = vec![crate::store::Queued::written(0, row("room", 6), T0 + 2000)];
    notices.mark(&mut written);
    assert!(written[0].untold);
    signal.let_go("test", "room");
    store.committed(&written);
    if let Some(l) = &mut listener {
        // (Told from a task of its own, after the commit.)
        let n = tokio::time::timeout(std::time::Duration::from_secs(5), l.recv())
            .await
            .expect("told within 5 s")
            .expect("a notice");
        assert_eq!(n.payload(), format!("test room\t{}", signal.origin()));
        assert_eq!(lanes_told(&store, l).await, Vec::<String>::new(), "once");
    }
    assert!(!signal.take("test", "room").untold, "told already");
    // Not held: every commit there tells.
    store
        .say(None, vec![row("room", 6)], T0 + 2000)
        .await
        .unwrap();
    if let Some(l) = &mut listener {
        assert_eq!(lanes_told(&store, l).await, ["test room"]);
    }
    assert!(!signal.take("test", "room").untold);
}

/// `PostgreSQL` writes a run of marks finding each row by its key: its plan scans no table
/// and hashes none, even while the outbox is young (a plan made then is kept for the
/// connection's life, and a hash join over the whole outbox grew with every row sent).
#[tokio::test]
async fn outbox_a_run_of_marks_finds_its_rows_by_their_keys() {
    let name = "outbox_a_run_of_marks_finds_its_rows_by_their_keys";
    let Some(db) = super::pg::TestDb::create(name).await else {
        return;
    };
    let store = db.store().await;
    let run = r#"{"rows": [{"id": 1, "t": 0, "outcome": "sent", "calls": 1}],
        "keep": [{"platform": "test", "chat": "room", "kind": "board", "id": 1, "message": "7",
                  "place": null, "photo": true, "buttons": true, "state": null, "t": 0}],
        "drop": [{"platform": "test", "chat": "room", "kind": "challenge", "id": 2}],
        "reports": [{"game": 1, "ply": 1, "at_ms": 0, "credit": 0}]}"#;
    let runs = store.mark_runs.as_ref().expect("PostgreSQL writes runs");
    let plan = runs.plan(run).await;
    for scan in ["Seq Scan", "Hash Join", "Merge Join"] {
        assert!(!plan.contains(scan), "{scan} in\n{plan}");
    }
    assert!(plan.contains("outbox_pkey"), "{plan}");
    store.close().await;
}

/// On `PostgreSQL` the tables a move's one statement writes (its game, its outbox rows)
/// carry no CHECK of codes: each would be parsed again on every move (migration 0010). The
/// game's own rule stays. (The codes are checked where they are read: `Outgoing::from_row`.)
#[tokio::test]
async fn outbox_a_moves_tables_keep_no_check_postgresql_parses_on_every_move() {
    let name = "outbox_a_moves_tables_keep_no_check_postgresql_parses";
    let Some(db) = super::pg::TestDb::create(name).await else {
        return;
    };
    let store = db.store().await;
    let pool = sqlx::PgPool::connect(&db.url).await.expect("a connection");
    let checks: Vec<(String, String)> = sqlx::query_as(
        "SELECT conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint
         WHERE contype = 'c' AND conrelid::regclass::text IN ('games', 'outbox', 'moves')
         ORDER BY 1, 2",
    )
    .fetch_all(&pool)
    .await
    .expect("the checks");
    assert_eq!(
        checks,
        [(
            "games".to_string(),
            "CHECK ((white_id <> black_id))".to_string()
        )]
    );
    pool.close().await;
    store.close().await;
}
