//! How replies get to the group: once and in order through 429s, server errors and "not
//! modified" edits, nothing lost or repeated over a restart, a group upgraded to a
//! supergroup that keeps its game, and forty moves in a minute under the real flood limits.

use crate::harness::{
    expect_in, play_random, quick, says, start_game, temp_db, Group, Rng, RunningBot,
    StartTelegram, WAIT,
};
use std::time::{Duration, Instant};
use ugolki_bots::telegram::Limits;
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_tests::fake_telegram::{Call, Failure, FakeTelegram, SentMessage};
use ugolki_tests::said::{played, played_infix};

/// A group upgraded to a supergroup gets a new chat id: its game goes on there, whether
/// the bot reads the upgrade's service message or learns it from a call that failed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_upgraded_to_a_supergroup_keeps_its_game() {
    let g = Group::new().await;
    let db = temp_db("migrate");
    let bot = RunningBot::start(&g.fake, &db, quick());
    start_game(&g, "classic3x3 none").await;
    g.fake.send_text(&g.chat, &g.alice, "/m c3-d3");
    g.expect_text(&played("Alice", "c3-d3")).await;
    // Announced: the game is in the new chat, and a move typed there plays.
    let first = FakeTelegram::group(-1_001_001, "Board games");
    g.fake.migrate(&g.chat, &first, &g.alice, true);
    g.fake.send_text(&first, &g.bob, "/m f6-e6");
    expect_in(&g.fake, &first, &played("Bob", "f6-e6")).await;
    // Not announced: a move sent in the old chat just before the upgrade is answered in
    // the new one (the answer to the old one failed, naming it), and the game lives there.
    let second = FakeTelegram::group(-1_001_002, "Board games");
    g.fake.migrate(&first, &second, &g.alice, false);
    g.fake.send_text(&first, &g.alice, "/m c2-d2");
    expect_in(&g.fake, &second, &played("Alice", "c2-d2")).await;
    g.fake.send_text(&second, &g.bob, "/m f7-f6");
    expect_in(&g.fake, &second, &played("Bob", "f7-f6")).await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replies_arrive_once_and_in_order_through_429s_and_500s() {
    let g = Group::new().await;
    let db = temp_db("flaky");
    let bot = RunningBot::start(&g.fake, &db, quick());
    start_game(&g, "classic3x3 none").await;
    let sends = [
        "sendphoto",
        "sendmessage",
        "editmessagecaption",
        "editmessagetext",
        "editmessagereplymarkup",
        "editmessagemedia",
    ];
    g.fake
        .fail_next(3, &sends, Failure::TooManyRequests { retry_after: 1 });
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(7);
    let mut played_moves = play_random(&g, &mut game, &mut rng, 4).await;
    // One server error (teloxide's client sleeps 10 s after it, then we retry).
    g.fake
        .fail_next(1, &["sendphoto", "editmessagemedia"], Failure::ServerError);
    played_moves.extend(play_random(&g, &mut game, &mut rng, 2).await);
    // "message is not modified" on an edit is taken as done.
    g.fake.fail_next(
        2,
        &[
            "editmessagereplymarkup",
            "editmessagecaption",
            "editmessagetext",
        ],
        Failure::NotModified,
    );
    played_moves.extend(play_random(&g, &mut game, &mut rng, 2).await);
    let calls = g.fake.calls();
    assert!(
        calls.iter().filter(|c| c.failed).count() >= 4,
        "failures were injected"
    );
    // Every move's board once, in the order played (posted, or edited in place).
    let a_move = played_infix();
    let captions: Vec<String> = g
        .shown()
        .into_iter()
        .filter_map(|m| m.caption)
        .filter(|c| c.contains(&a_move))
        .collect();
    let expected: Vec<String> = played_moves
        .iter()
        .enumerate()
        .map(|(i, mv)| played(if i % 2 == 0 { "Alice" } else { "Bob" }, mv))
        .collect();
    assert_eq!(captions.len(), expected.len(), "{captions:#?}");
    for (c, e) in captions.iter().zip(&expected) {
        assert!(c.starts_with(e.as_str()), "{c} / {e}");
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_mid_game_loses_and_repeats_nothing() {
    let g = Group::new().await;
    let db = temp_db("restart");
    let bot = RunningBot::start(&g.fake, &db, quick());
    start_game(&g, "classic3x3 none").await;
    g.fake.send_text(&g.chat, &g.alice, "/m c3-d3");
    g.expect_text(&played("Alice", "c3-d3")).await;
    bot.stop().await;
    // Bob moves while the bot is down.
    g.fake.send_text(&g.chat, &g.bob, "/m f6-e6");
    let before = g.shown().len();
    let bot = RunningBot::start(&g.fake, &db, quick());
    g.expect_text(&played("Bob", "f6-e6")).await;
    g.fake.send_text(&g.chat, &g.alice, "/m d3-d4");
    g.expect_text(&played("Alice", "d3-d4")).await;
    // Nothing was answered twice: one board per move since the restart (posted, or
    // edited in place).
    let after: Vec<SentMessage> = g.shown().into_iter().skip(before).collect();
    let moves = after.iter().filter(|m| says(m, &played_infix())).count();
    assert_eq!(moves, 2, "{after:#?}");
    assert_eq!(
        g.shown()
            .iter()
            .filter(|m| says(m, &played("Alice", "c3-d3")))
            .count(),
        1
    );
    assert_eq!(g.fake.pending_updates(), 0, "every update confirmed");
    bot.stop().await;
}

/// Forty moves in a minute in one group, under Telegram's real limits (twenty messages a
/// minute in a group): boards overtaken by later moves are dropped, so the game never
/// falls behind by more than the limit requires.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forty_moves_in_a_minute_in_a_group_never_stall() {
    let g = Group::new().await;
    let db = temp_db("fast");
    let bot = RunningBot::start(&g.fake, &db, Limits::default());
    start_game(&g, "classic3x3 none").await;
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(42);
    let started = Instant::now();
    let mut last = String::new();
    for i in 0..40 {
        let moves: Vec<String> = game
            .legal_move_texts()
            .into_iter()
            .filter(|m| {
                let mut g2 = game.clone();
                g2.play_text(m).is_ok() && g2.ending().is_none()
            })
            .collect();
        let mv = rng.pick(&moves).clone();
        let who = g.who(game.turn() == ugolki_core::Color::White);
        g.fake.send_text(&g.chat, who, &format!("/m {mv}"));
        game.play_text(&mv).expect("legal");
        last = played(if who.id == g.alice.id { "Alice" } else { "Bob" }, &mv);
        // 40 moves in 60 s.
        let next = started + Duration::from_millis(1500 * (i + 1));
        tokio::time::sleep_until(next.into()).await;
    }
    let last_sent = Instant::now();
    let ok = g
        .fake
        .wait_until(WAIT, |f| {
            f.messages(g.chat.id).iter().any(|m| says(m, &last))
        })
        .await;
    if !ok {
        let calls: Vec<String> = g
            .fake
            .calls()
            .iter()
            .map(|c| {
                format!(
                    "{:?} {} {} {:?}",
                    c.time.duration_since(started),
                    c.method,
                    c.failed,
                    c.error
                )
            })
            .collect();
        panic!(
            "last board missing; calls:\n{}\nmessages: {:#?}",
            calls.join("\n"),
            g.messages()
                .iter()
                .map(|m| (m.id, m.caption.clone(), m.text.clone()))
                .collect::<Vec<_>>()
        );
    }
    let board = g.expect_text(&last).await;
    let behind = board.sent_at.saturating_duration_since(last_sent);
    let boards = g.messages().iter().filter(|m| m.photo.is_some()).count();
    eprintln!("40 moves in 60 s: {boards} boards sent, the last {behind:?} after the last move");
    // The limit allows a message every 3 s on average; the last board is never a queue
    // of old boards behind.
    assert!(
        behind < Duration::from_secs(8),
        "the last board came {behind:?} late"
    );
    // And the limits were kept: at most 20 calls in any minute, a second apart.
    let calls: Vec<Instant> = g
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.method.starts_with("send") || c.method.starts_with("edit"))
        .map(|c| c.time)
        .collect();
    for (i, t) in calls.iter().enumerate() {
        let in_minute = calls[i..]
            .iter()
            .take_while(|u| u.duration_since(*t) < Duration::from_secs(60))
            .count();
        assert!(in_minute <= 20, "{in_minute} calls in a minute");
    }
    one_call_per_board(&g, started, last_sent);
    bot.stop().await;
}

/// The group budget: one call per board shown, from `started` until `until`.
fn one_call_per_board(g: &Group, started: Instant, until: Instant) {
    // The group budget: one call per board shown. Every board is one call (a photo posted,
    // or the board edited in place), and once the group's minute is half used, every call
    // shows a board: old boards lose their buttons only when the group is quiet again.
    let made: Vec<Call> = g
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.time >= started && c.time < until && c.error.is_none())
        .filter(|c| c.method.starts_with("send") || c.method.starts_with("edit"))
        .collect();
    let shows = |c: &Call| matches!(c.method.as_str(), "sendphoto" | "editmessagemedia");
    let board_calls = made.iter().filter(|c| shows(c)).count();
    let edits = made
        .iter()
        .filter(|c| c.method == "editmessagemedia")
        .count();
    eprintln!(
        "{} calls in play: {board_calls} boards, {edits} of them edited in place",
        made.len()
    );
    // (Twenty calls a minute, the first few also taking old boards' buttons off; with
    // every board two calls it would be ten.)
    assert!(board_calls >= 14, "only {board_calls} boards in a minute");
    assert!(edits > 0, "no board was edited in place");
    assert!(
        made.iter().skip(10).all(shows),
        "a call that showed no board while the group was busy: {:?}",
        made.iter().map(|c| c.method.as_str()).collect::<Vec<_>>()
    );
}

/// The group budget when people talk between moves: each board is posted anew (the old one
/// is out of view), one call while the group is busy; the old boards' buttons come off
/// once the group's window is quiet again (meanwhile a press on them is refused as out of
/// date), so that in the end only the newest board has buttons.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_groups_old_boards_lose_their_buttons_once_it_is_quiet() {
    let g = Group::new().await;
    let db = temp_db("quiet");
    // A group's minute in miniature: six calls in three seconds.
    let limits = Limits {
        per_chat: Duration::from_millis(50),
        per_group: 6,
        group_window: Duration::from_secs(3),
        per_second: 30,
    };
    let bot = RunningBot::start(&g.fake, &db, limits);
    start_game(&g, "classic3x3 none").await;
    let carol = FakeTelegram::user(77, "Carol", Some("carol"), Some("en"));
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(7);
    let a_move = played_infix();
    for ply in 0..6 {
        for line in ["nice", "hm", "go on"] {
            g.send_text(&carol, line);
        }
        let moves = ugolki_tests::e2e::safe_moves(&game);
        let mv = rng.pick(&moves).clone();
        let who = g.who(game.turn() == ugolki_core::Color::White);
        g.send_text(who, &format!("/m {mv}"));
        let ok = g
            .fake
            .wait_until(WAIT, |f| {
                g.shown_of(f).iter().filter(|m| says(m, &a_move)).count() > ply
            })
            .await;
        assert!(ok, "no board for {mv}");
        game.play_text(&mv).expect("legal");
    }
    let last_post = g
        .fake
        .calls()
        .iter()
        .rposition(|c| c.method == "sendphoto")
        .expect("boards were posted");
    let quiet = g
        .fake
        .wait_until(WAIT, |f| {
            let photos: Vec<SentMessage> = g
                .messages_of(f)
                .into_iter()
                .filter(|m| m.photo.is_some())
                .collect();
            photos.len() >= 7
                && photos[..photos.len() - 1]
                    .iter()
                    .all(|m| m.buttons.is_empty())
        })
        .await;
    let methods: Vec<String> = g.fake.calls().iter().map(|c| c.method.clone()).collect();
    assert!(quiet, "old boards kept their buttons: {methods:?}");
    assert!(
        !g.board().buttons.is_empty(),
        "the newest board has its buttons"
    );
    // Some were stripped only after play stopped: the group was busy before.
    let late = methods[last_post..]
        .iter()
        .filter(|m| *m == "editmessagereplymarkup")
        .count();
    assert!(
        late >= 2,
        "no old board waited for a quiet group: {methods:?}"
    );
    // No board was edited in place: people talked under each.
    assert!(
        !methods.iter().any(|m| m == "editmessagemedia"),
        "{methods:?}"
    );
    bot.stop().await;
}
