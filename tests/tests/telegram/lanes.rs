//! Updates of different chats are handled at once, each chat's in order: a slow update in
//! one chat holds up no other.

use crate::harness::{
    play_random, quick, start_game, temp_db, Group, Rng, RunningBot, StartTelegram,
};
use std::time::{Duration, Instant};
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_tests::fake_telegram::Failure;

/// A press in one group waits 1.8 s for the Bot API to take its answer (the adapter gives
/// an answer two seconds); meanwhile
/// a game in another group plays on, each move answered well within 100 ms of delay, and
/// the slow group's own next update still comes after its press.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_update_in_one_chat_holds_up_no_other_chat() {
    let slow = Group::new().await;
    let fast = slow.another(-1002, "Quick games");
    let db = temp_db("lanes");
    let bot = RunningBot::start(&slow.fake, &db, quick());
    start_game(&fast, "classic3x3 none casual").await;
    let board = start_game(&slow, "classic3x3 none casual").await;
    // The press's answer is the slow call (answerCallbackQuery names no chat).
    slow.fake
        .fail_next(1, &["answercallbackquery"], Failure::Slow { millis: 1_800 });
    let pressed = Instant::now();
    slow.fake
        .press(&slow.chat, &slow.alice, board.id, "not a button of ours");
    // Then Alice's move in the slow group: it waits for her press, in order.
    slow.fake.send_text(&slow.chat, &slow.alice, "/m c3-d3");
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0x1a2e);
    let started = Instant::now();
    let moves = play_random(&fast, &mut game, &mut rng, 6).await;
    let took = started.elapsed();
    assert_eq!(moves.len(), 6);
    assert!(
        took < Duration::from_millis(6 * 100),
        "six moves in the other group took {took:?} while one group waited"
    );
    // The slow group is still waiting: the moves did not wait for it.
    assert!(pressed.elapsed() < Duration::from_millis(1_800));
    assert!(
        !slow
            .messages()
            .iter()
            .any(|m| crate::harness::says(m, &ugolki_tests::said::played("Alice", "c3-d3"))),
        "the slow group's move came before its press was done"
    );
    // Then its move is answered, after the press.
    slow.expect_text(&ugolki_tests::said::played("Alice", "c3-d3"))
        .await;
    assert!(pressed.elapsed() >= Duration::from_millis(1_800));
    bot.stop().await;
}

/// A hundred and more updates of one chat queued behind its slow one fill a whole
/// `getUpdates` batch: the poller asks past them, so another chat's move is still answered
/// while they wait their turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_batch_of_one_chats_updates_holds_up_no_other_chat() {
    let slow = Group::new().await;
    let fast = slow.another(-1004, "Quick games");
    let db = temp_db("lanes-full");
    let bot = RunningBot::start(&slow.fake, &db, quick());
    start_game(&fast, "classic3x3 none casual").await;
    let board = start_game(&slow, "classic3x3 none casual").await;
    slow.fake
        .fail_next(1, &["answercallbackquery"], Failure::Slow { millis: 1_800 });
    let pressed = Instant::now();
    for _ in 0..120 {
        slow.fake
            .press(&slow.chat, &slow.alice, board.id, "not a button of ours");
    }
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0xf011);
    let moves = play_random(&fast, &mut game, &mut rng, 2).await;
    assert_eq!(moves.len(), 2);
    assert!(
        pressed.elapsed() < Duration::from_millis(1_800),
        "the other group waited for the slow one: {:?}",
        pressed.elapsed()
    );
    bot.stop().await;
}
