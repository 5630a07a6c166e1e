//! The bot removed from a group, or blocked: the chat's games are void, its challenges
//! cancelled, and nothing is posted there again — learnt from `my_chat_member`, or, when
//! that is missed, from the first call Telegram refuses with 403.

use crate::harness::{
    expect_in, quick, start_game, temp_db, Group, RunningBot, StartTelegram, WAIT,
};
use std::path::Path;
use std::time::Instant;
use ugolki_core::words::{english, Msg};
pub use ugolki_tests::e2e::cause_of;
use ugolki_tests::said::played;

/// The calls the bot made for `chat` since `since`.
pub fn calls_for(g: &Group, chat: i64, since: Instant) -> Vec<String> {
    g.fake
        .calls()
        .into_iter()
        .filter(|c| c.time >= since && chat_of(&c.params) == Some(chat))
        .map(|c| c.method)
        .collect()
}

/// A call's `chat_id`: a number in JSON bodies, a string in multipart ones.
fn chat_of(params: &serde_json::Value) -> Option<i64> {
    let id = &params["chat_id"];
    id.as_i64()
        .or_else(|| id.as_str().and_then(|s| s.parse().ok()))
}

/// A game on a 3-second clock with both sides' first moves played: its flag falls soon.
pub async fn on_the_clock(g: &Group) {
    start_game(g, "classic3x3 3s+0").await;
    let (a, b) = (g.alice.first_name.as_str(), g.bob.first_name.as_str());
    g.send_text(&g.alice, "/m c3-d3");
    g.expect_text(&played(a, "c3-d3")).await;
    g.send_text(&g.bob, "/m f6-e6");
    g.expect_text(&played(b, "f6-e6")).await;
}

/// Whether every outbox row of lane `lane` is marked sent (waited for, at most 5 s), read
/// beside the running bot (read-only).
pub async fn all_sent(db: &Path, lane: &str) -> bool {
    use sqlx::ConnectOptions;
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(db)
        .read_only(true);
    let mut conn = options.connect().await.expect("the database");
    for _ in 0..500 {
        let unsent: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE lane = $1 AND sent_at IS NULL")
                .bind(lane)
                .fetch_one(&mut conn)
                .await
                .expect("read");
        if unsent == 0 {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn removed_from_a_group_the_bot_voids_its_games_and_posts_there_no_more() {
    let g = Group::new().await;
    let h = g.another(-1003, "Other games");
    let db = temp_db("removed");
    let bot = RunningBot::start(&g.fake, &db, quick());
    // A game on a 3-second clock with both sides moved, in the group the bot leaves, and
    // one in another group, which flags as usual.
    on_the_clock(&g).await;
    on_the_clock(&h).await;
    let removed = Instant::now();
    g.fake.remove_bot(&g.chat, &g.alice, true);
    assert_eq!(cause_of(&db, 1).await.as_deref(), Some("chat-gone"));
    // The other group's flag falls; the group the bot left hears nothing.
    expect_in(
        &g.fake,
        &h.chat,
        &english(&Msg::Flagged {
            id: 2,
            loser: "Carol".into(),
            winner: "Dave".into(),
        }),
    )
    .await;
    assert_eq!(calls_for(&g, g.chat.id, removed), Vec::<String>::new());
    bot.stop().await;
}

/// `my_chat_member` missed: the first call Telegram refuses (403, kicked) closes the chat
/// — the games still running there void — and the bot tries no other call for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_post_closes_the_chat_when_the_removal_was_missed() {
    let g = Group::new().await;
    let db = temp_db("removed-403");
    let bot = RunningBot::start(&g.fake, &db, quick());
    // Game 1 flags soon; game 2 has no clock; a challenge stays open.
    on_the_clock(&g).await;
    start_game(&g, "classic3x3 none").await;
    g.fake.remove_bot(&g.chat, &g.alice, false);
    // The first call for the chat after the removal is refused — the flag's board, or a
    // last call of the second game's start still under way — and the chat closes: the
    // untimed game is void, the timed one flagged or void too.
    let first = cause_of(&db, 1).await.expect("game 1 ended");
    assert!(first.starts_with("flag") || first == "chat-gone", "{first}");
    assert_eq!(cause_of(&db, 2).await.as_deref(), Some("chat-gone"));
    // One call refused (it may have reached the fake just before the removal, and been
    // answered after it), and none after it.
    let refused: Vec<_> = g
        .fake
        .calls()
        .into_iter()
        .filter(|c| chat_of(&c.params) == Some(g.chat.id))
        .filter(|c| c.error.as_deref().is_some_and(|e| e.contains("kicked")))
        .collect();
    assert_eq!(
        refused.len(),
        1,
        "one refused call, no retries: {refused:#?}"
    );
    let after = calls_for(&g, g.chat.id, refused[0].time);
    assert_eq!(after.len(), 1, "nothing tried after it: {after:?}");
    bot.stop().await;
}

/// Alice's private chat with the bot, on `g`'s fake: a game against the engine there, on a
/// 3-second clock, Alice's first move played and the engine's answered.
async fn private_game_on_the_clock(g: &Group) -> Group {
    let p = g.alices_private_chat();
    p.send_text(&p.alice, "/play bot 1 classic3x3 3s+0 white");
    p.expect("the board", |m| m.photo.is_some()).await;
    p.send_text(&p.alice, "/m c3-d3");
    p.expect_text(&played(&p.alice.first_name, "c3-d3")).await;
    // The engine's answer is the next board: Alice's clock runs from it.
    let ok = p
        .fake
        .wait_until(WAIT, |f| {
            p.messages_of(f)
                .iter()
                .filter(|m| m.photo.is_some())
                .count()
                >= 3
        })
        .await;
    assert!(ok, "the engine answered: {:#?}", p.messages());
    p
}

/// Blocked in a private chat, as Telegram tells it (`my_chat_member`, status `kicked`): the
/// game against the engine there is void, so its flag never falls into a chat nobody can
/// read, and nothing is posted there again. A game in a group goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocked_in_a_private_chat_the_bot_voids_its_game_and_posts_there_no_more() {
    let g = Group::new().await;
    let db = temp_db("blocked");
    let bot = RunningBot::start(&g.fake, &db, quick());
    let p = private_game_on_the_clock(&g).await;
    start_game(&g, "classic3x3 none").await;
    let blocked = Instant::now();
    g.fake.block_bot(&g.alice, true);
    assert_eq!(cause_of(&db, 1).await.as_deref(), Some("chat-gone"));
    // The group's game is Alice's too, and goes on.
    g.send_text(&g.alice, "/m c3-d3");
    g.expect_text(&played(&g.alice.first_name, "c3-d3")).await;
    // Past the private game's flag: nothing was tried there.
    tokio::time::sleep(std::time::Duration::from_secs(4)).await;
    assert_eq!(calls_for(&p, p.chat.id, blocked), Vec::<String>::new());
    bot.stop().await;
}

/// Blocked, and the `my_chat_member` update missed: the flag's board is refused with 403
/// "bot was blocked by the user", which closes the chat; nothing is tried there after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocked_unannounced_the_first_refused_call_closes_the_private_chat() {
    let g = Group::new().await;
    let db = temp_db("blocked-403");
    let bot = RunningBot::start(&g.fake, &db, quick());
    let p = private_game_on_the_clock(&g).await;
    g.fake.block_bot(&g.alice, false);
    let cause = cause_of(&db, 1).await.expect("the game ended");
    assert!(cause.starts_with("flag") || cause == "chat-gone", "{cause}");
    let ok = g
        .fake
        .wait_until(WAIT, |f| {
            f.calls().iter().any(|c| {
                chat_of(&c.params) == Some(p.chat.id)
                    && c.error.as_deref().is_some_and(|e| e.contains("blocked"))
            })
        })
        .await;
    assert!(ok, "a call was refused");
    let refused: Vec<_> = g
        .fake
        .calls()
        .into_iter()
        .filter(|c| chat_of(&c.params) == Some(p.chat.id))
        .filter(|c| c.error.as_deref().is_some_and(|e| e.contains("blocked")))
        .collect();
    // Another timer (a reminder, the engine) would have had 3 s to try.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let after = calls_for(&p, p.chat.id, refused[0].time);
    assert_eq!(after.len(), 1, "nothing tried after the refusal: {after:?}");
    bot.stop().await;
}
