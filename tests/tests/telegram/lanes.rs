//! Updates of different chats are handled at once, each chat's in order: a slow update in
//! one chat holds up no other.

use crate::harness::{
    play_random, quick, says, start_game, temp_db, Group, Rng, RunningBot, StartTelegram, WAIT,
};
use std::time::{Duration, Instant};
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_core::words::{english, Msg};
use ugolki_tests::e2e::{sqlite_url, ChildBot};
use ugolki_tests::fake_telegram::Failure;
use ugolki_tests::said::{played, played_infix};

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

/// The process killed while one chat's update is still being handled, after later updates
/// of another chat were done: the stored offset had not passed the unfinished one, so the
/// next process reads it again and plays the move behind it, once, and the other chat's
/// moves, read again too, are not played or answered twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_mid_update_loses_it_not_and_repeats_nothing_after_it() {
    let slow = Group::new().await;
    let fast = slow.another(-1006, "Quick games");
    let db = temp_db("lanes-crash");
    let bot = ChildBot::spawn(
        "lanes::bot_in_a_child_process",
        &[
            (CHILD_API, slow.fake.api_url()),
            (CHILD_DB, sqlite_url(&db)),
        ],
    );
    start_game(&fast, "classic3x3 none casual").await;
    let board = start_game(&slow, "classic3x3 none casual").await;
    slow.fake
        .fail_next(1, &["answercallbackquery"], Failure::Slow { millis: 5_000 });
    slow.fake
        .press(&slow.chat, &slow.alice, board.id, "not a button of ours");
    slow.fake.send_text(&slow.chat, &slow.alice, "/m c3-d3");
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0xc4a5);
    let moves = play_random(&fast, &mut game, &mut rng, 2).await;
    assert_eq!(moves.len(), 2);
    let moves_shown = |g: &Group| {
        g.shown()
            .iter()
            .filter(|m| says(m, &played_infix()))
            .count()
    };
    assert_eq!(moves_shown(&fast), 2);
    // The other group's boards are marked sent (a kill between a send and its mark may
    // repeat that send, as the README says: not what this test is about).
    let lane = fast.chat.id.to_string();
    assert!(
        crate::removed::all_sent(&db, &lane).await,
        "the other group's boards marked sent"
    );
    // Killed while the press waits for its answer, Alice's move queued behind it.
    bot.kill();
    let move_answered = |g: &Group| {
        g.shown()
            .iter()
            .filter(|m| says(m, &played("Alice", "c3-d3")))
            .count()
    };
    assert_eq!(move_answered(&slow), 0, "the move was behind the press");
    let bot = RunningBot::start(&slow.fake, &db, quick());
    slow.expect_text(&played("Alice", "c3-d3")).await;
    let all_read = slow
        .fake
        .wait_until(WAIT, |f| f.pending_updates() == 0)
        .await;
    assert!(all_read, "every update confirmed at last");
    // The other group's moves were read again and not played again; its game goes on.
    let more = play_random(&fast, &mut game, &mut rng, 1).await;
    assert_eq!(more.len(), 1);
    assert_eq!(moves_shown(&fast), 3, "{:#?}", fast.shown());
    assert_eq!(move_answered(&slow), 1, "{:#?}", slow.shown());
    bot.stop().await;
}

/// Where [`bot_in_a_child_process`] finds the Bot API and the database.
const CHILD_API: &str = "UGOLKI_CHILD_TELEGRAM_API";
const CHILD_DB: &str = "UGOLKI_CHILD_DATABASE_URL";

/// Not a test of its own: the bot [`a_crash_mid_update_loses_it_not_and_repeats_nothing_after_it`]
/// runs in a child process, to kill it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run in a child process by a_crash_mid_update_loses_it_not_and_repeats_nothing_after_it"]
async fn bot_in_a_child_process() {
    let (Ok(api), Ok(db)) = (std::env::var(CHILD_API), std::env::var(CHILD_DB)) else {
        panic!("{CHILD_API} and {CHILD_DB} name the fake and the database");
    };
    let options = ugolki_bots::telegram::Options {
        token: ugolki_tests::fake_telegram::FakeTelegram::TOKEN.into(),
        api_url: Some(api),
        database_url: db,
        webhook: None,
        webhook_secret: None,
        metrics: None,
        limits: quick(),
        inline_chats: Vec::new(),
        web: None,
    };
    let ran = ugolki_bots::telegram::run(options, std::future::pending()).await;
    panic!("the bot ended before it was killed: {ran:?}");
}

/// A `/review` (a search per ply and an animation of every ply, CPU-bound) in one group
/// delays no move in another group by 100 ms or more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_in_one_chat_delays_no_move_in_another() {
    let slow = Group::new().await;
    let fast = slow.another(-1008, "Quick games");
    let db = temp_db("lanes-review");
    let bot = RunningBot::start(&slow.fake, &db, quick());
    start_game(&slow, "classic3x3 none casual").await;
    let mut reviewed = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0x4e71);
    let plies = play_random(&slow, &mut reviewed, &mut rng, 60).await.len();
    slow.fake.send_text(&slow.chat, &slow.alice, "/resign");
    slow.expect_text(&ugolki_tests::said::game_line(1)).await;
    start_game(&fast, "classic3x3 none casual").await;
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    // Each move's time with nothing else going on, then while the review is made.
    let mut quiet = Duration::ZERO;
    for _ in 0..4 {
        let t = Instant::now();
        assert_eq!(play_random(&fast, &mut game, &mut rng, 1).await.len(), 1);
        quiet = quiet.max(t.elapsed());
    }
    let intro = english(&Msg::ReviewIntro {
        id: 1,
        white: "Alice".into(),
        black: "Bob".into(),
        moves: i64::try_from(plies.div_ceil(2)).unwrap(),
    });
    let review_shown = |g: &Group| {
        g.shown()
            .iter()
            .any(|m| says(m, &intro) && m.photo.is_some())
    };
    slow.fake.send_text(&slow.chat, &slow.alice, "/review 1");
    let mut busy = Vec::new();
    let mut during = 0;
    for _ in 0..6 {
        let t = Instant::now();
        assert_eq!(play_random(&fast, &mut game, &mut rng, 1).await.len(), 1);
        busy.push(t.elapsed());
        if !review_shown(&slow) {
            during += 1;
        }
    }
    assert!(
        during >= 2,
        "the review was being made while moves were played"
    );
    for took in &busy {
        assert!(
            took.saturating_sub(quiet) < Duration::from_millis(100),
            "a move took {took:?} during the review, {quiet:?} at most without: {busy:?}"
        );
    }
    let done = slow
        .fake
        .wait_until(WAIT, |f| {
            slow.shown_of(f)
                .iter()
                .any(|m| says(m, &intro) && m.photo.is_some())
        })
        .await;
    assert!(done, "the review arrived");
    bot.stop().await;
}
