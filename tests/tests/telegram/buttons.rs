//! The buttons under a board in a group: a stale button and a press by someone who does not
//! play (each refused privately), presses too old to answer, and moves played by picking a
//! piece and its destination on the board's keyboard.

use crate::harness::{
    first_move_played, quick, start_game, temp_db, Group, Rng, RunningBot, StartTelegram, WAIT,
};
use std::time::{Duration, Instant};
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_core::table::Action;
use ugolki_core::words::{english, render, Lang, Msg};
use ugolki_tests::fake_telegram::{Failure, FakeTelegram};
use ugolki_tests::said::{played, played_move};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_button_gets_an_alert_and_changes_nothing() {
    let g = Group::new().await;
    let db = temp_db("stale");
    let bot = RunningBot::start(&g.fake, &db, quick());
    let first = first_move_played(&g).await;
    // The first board's Resign button is out of date now.
    let query = g.press(&g.bob, &first, &english(&Msg::BtnResign));
    let ok = g
        .fake
        .wait_until(WAIT, |f| f.callback_answers().iter().any(|a| a.id == query))
        .await;
    assert!(ok, "the press is answered");
    let answer = g
        .fake
        .callback_answers()
        .into_iter()
        .find(|a| a.id == query)
        .expect("answer");
    assert!(answer.show_alert, "{answer:?}");
    assert!(
        answer
            .text
            .as_deref()
            .is_some_and(|t| t.contains(&english(&Msg::ButtonStale))),
        "{answer:?}"
    );
    // The game goes on: bob can still move.
    g.fake.send_text(&g.chat, &g.bob, "/m f6-e6");
    g.expect_text(&played("Bob", "f6-e6")).await;
    // A press by someone who does not play is refused the same way, privately.
    let board = g.board();
    let carol = FakeTelegram::user(13, "Carol", Some("carol"), None);
    let query = g.press(&carol, &board, &english(&Msg::BtnResign));
    let not_yours = english(&Msg::ButtonNotYours);
    let ok = g
        .fake
        .wait_until(WAIT, |f| {
            f.callback_answers()
                .iter()
                .any(|a| a.id == query && a.text.as_deref().is_some_and(|t| t.contains(&not_yours)))
        })
        .await;
    assert!(ok, "{:?}", g.fake.callback_answers());
    bot.stop().await;
}

/// A button this version cannot read (left on a message by an older one) is answered as out
/// of date in the presser's own language — their `/lang` over their client's — and changes
/// nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_button_is_answered_in_the_pressers_own_language() {
    let g = Group::new().await;
    let db = temp_db("unreadable");
    let bot = RunningBot::start(&g.fake, &db, quick());
    let ru = Lang::from_tag("ru").expect("Russian");
    // Carol's client is in Italian, and she reads the bot in Russian.
    let carol = FakeTelegram::user(13, "Carol", Some("carol"), Some("it"));
    g.fake.send_text(&g.chat, &carol, "/lang ru");
    let set = Msg::LangSet {
        whose: "you".into(),
        lang: Some(Box::new(Msg::LangName { code: "ru".into() })),
    };
    g.expect_text(&render(&set, ru)).await;
    assert!(Action::parse("v0:resign:7").is_none(), "not this version's");
    let old =
        g.fake
            .left_by_an_older_version(&g.chat, "An old board", &[("Resign", "v0:resign:7")]);
    let answered = |query: String| {
        let fake = g.fake.clone();
        async move {
            let ok = fake
                .wait_until(WAIT, |f| f.callback_answers().iter().any(|a| a.id == query))
                .await;
            assert!(ok, "the press is answered");
            let answers = fake.callback_answers();
            let answer = answers.into_iter().find(|a| a.id == query).expect("answer");
            assert!(answer.show_alert, "{answer:?}");
            answer.text.unwrap_or_default()
        }
    };
    let said = answered(g.fake.press(&g.chat, &carol, old, "v0:resign:7")).await;
    assert_eq!(said, render(&Msg::ButtonStale, ru));
    // Someone who chose nothing reads their client's language (English here).
    let said = answered(g.fake.press(&g.chat, &g.bob, old, "v0:resign:7")).await;
    assert_eq!(said, english(&Msg::ButtonStale));
    // Nothing changed: a game starts as ever.
    start_game(&g, "classic3x3 none").await;
    bot.stop().await;
}

/// Telegram refuses an answer to a press that came too late ("query is too old"): it is
/// tried at most twice, and the updates behind it are not held up (they used to wait out
/// 45 s of retries per press).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_press_too_old_to_answer_holds_up_nothing() {
    let g = Group::new().await;
    let db = temp_db("too-old");
    let bot = RunningBot::start(&g.fake, &db, quick());
    let first = first_move_played(&g).await;
    g.fake
        .fail_next(100, &["answercallbackquery"], Failure::QueryTooOld);
    let started = Instant::now();
    for _ in 0..3 {
        g.press(&g.bob, &first, &english(&Msg::BtnResign));
    }
    g.fake.send_text(&g.chat, &g.bob, "/m f6-e6");
    g.expect_text(&played("Bob", "f6-e6")).await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the move waited {:?} behind the presses",
        started.elapsed()
    );
    let tries = g
        .fake
        .calls()
        .iter()
        .filter(|c| c.method == "answercallbackquery")
        .count();
    assert!(
        (3..=6).contains(&tries),
        "{tries} answers tried for 3 presses"
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_by_buttons_edit_the_board_keyboard_and_play() {
    let g = Group::new().await;
    let db = temp_db("by-buttons");
    let bot = RunningBot::start(&g.fake, &db, quick());
    start_game(&g, "classic3x3 none").await;
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0xb077_0115);
    let (resign, back) = (english(&Msg::BtnResign), english(&Msg::BtnBack));
    for ply in 0..8 {
        let board = g.board();
        // The pieces that can move are the first rows, eight at most to a row.
        assert!(board.buttons.iter().all(|r| r.len() <= 8), "{board:#?}");
        let labels: Vec<String> = board
            .buttons
            .iter()
            .flatten()
            .map(|(t, _)| t.clone())
            .collect();
        assert!(labels.contains(&resign));
        let moves = game.legal_move_texts();
        let mv = rng.pick(&moves).clone();
        let squares: Vec<&str> = mv.split('-').collect();
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let who = g.who(game.turn() == ugolki_core::Color::White);
        g.press(who, &board, from);
        // The same message is edited in place: its keyboard becomes the destinations.
        let ok = g
            .fake
            .wait_until(WAIT, |f| {
                f.messages(g.chat.id).iter().any(|m| {
                    m.id == board.id && m.buttons.iter().flatten().any(|(t, _)| *t == back)
                })
            })
            .await;
        assert!(ok, "ply {ply}: no destinations on {:#?}", g.messages());
        let picked = g
            .messages()
            .into_iter()
            .find(|m| m.id == board.id)
            .expect("the board");
        assert!(picked.edits >= 1 && picked.photo.is_some());
        g.press(who, &picked, to);
        game.play_text(&mv).unwrap();
        g.expect_text(&played_move(&mv)).await;
    }
    bot.stop().await;
}

/// With the pages at an `https://` address, a running game's board opens as the Mini App:
/// in a private chat by a `web_app` button to the game's board page, in a group (with
/// `--mini-app`) by a `t.me/<bot>/<app>?startapp=<game>` link, as Telegram allows each
/// (the fake refuses a `web_app` button in a group, and any not on https).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_games_board_opens_as_the_mini_app_by_a_web_app_button_or_a_startapp_link() {
    let g = Group::new().await;
    let db = temp_db("mini-app-buttons");
    let mut options = crate::harness::polling(&g.fake, &db, quick());
    let mut pages =
        ugolki_bots::web::Pages::new(ugolki_tests::free_addr(), Some("https://pages.example"))
            .expect("pages");
    pages.mini_app = Some("board".into());
    options.web = Some(pages);
    let bot = RunningBot::start_with(options);
    let open = english(&Msg::BtnOpenBoard);
    // A group: the startapp link.
    let board = start_game(&g, "classic3x3 none").await;
    let id = crate::harness::game_of(&board);
    let link = board
        .buttons
        .iter()
        .flatten()
        .find(|(text, _)| *text == open)
        .map(|(_, data)| data.clone());
    let want = format!(
        "url:https://t.me/{}/board?startapp={id}",
        FakeTelegram::BOT_USERNAME
    );
    assert_eq!(link.as_deref(), Some(want.as_str()), "{:?}", board.buttons);
    // A private chat: the web_app button.
    let p = g.alices_private_chat();
    p.send_text(&p.alice, "/play bot 1 classic3x3 none white");
    let board = p.expect("the board", |m| m.photo.is_some()).await;
    let button = board
        .buttons
        .iter()
        .flatten()
        .find(|(text, _)| *text == open)
        .map(|(_, data)| data.clone())
        .expect("the Mini App's button");
    let url = button.strip_prefix("web_app:https://pages.example/app/g/");
    assert!(url.is_some_and(|n| n.parse::<i64>().is_ok()), "{button}");
    bot.stop().await;
}
