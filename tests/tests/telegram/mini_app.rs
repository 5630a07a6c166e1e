//! The board as the Telegram Mini App, with the bot on the fake Bot API: each player in a
//! browser of their own, signed by their `initData`, plays by clicks; every move made there
//! reaches the group as its usual board, and a resignation from the page ends the game with
//! its result and ratings.

use crate::harness::{polling, quick, start_game, temp_db, Group, RunningBot, StartTelegram};
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_core::rating::RatingKind;
use ugolki_core::words::{english, Msg};
use ugolki_tests::browser::{init_data, Browsers};
use ugolki_tests::e2e::{clickable, Rng};
use ugolki_tests::fake_telegram::FakeTelegram;
use ugolki_tests::said::played;

/// Plies played on the pages before the resignation: more than ten moves, so the game is
/// rated (R: a resignation after ten moves or fewer is annulled).
const PLIES: usize = 22;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_the_mini_app_two_players_play_by_clicks_and_a_resignation_rates_the_game() {
    let dir = ugolki_tests::browser_or_skip!();
    let g = Group::new().await;
    let db = temp_db("mini-app-game");
    let addr = ugolki_tests::free_addr();
    let mut options = polling(&g.fake, &db, quick());
    options.web = Some(ugolki_bots::web::Pages::new(addr, None).expect("pages"));
    let bot = RunningBot::start_with(options);
    let board = start_game(&g, "classic3x3 none rated").await;
    let id = crate::harness::game_of(&board);
    let now = ugolki_bots::now_ms() / 1000;
    let url = format!("http://{addr}/app/g/{id}");
    let mut b = Browsers::start(&dir);
    for (who, user) in [("alice", &g.alice), ("bob", &g.bob)] {
        let init = init_data(FakeTelegram::TOKEN, user.id, &user.first_name, now);
        b.ask(who, &format!("tg-open {url} {init}")).await;
    }
    // Seated by their signatures: each sees their own side.
    assert_eq!(b.ask("alice", "wait #board[data-me=white]").await, "ok");
    assert_eq!(b.ask("bob", "wait #board[data-me=black]").await, "ok");
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0x3a11);
    for ply in 0..PLIES {
        let (who, other, name) = if ply % 2 == 0 {
            ("alice", "bob", &g.alice.first_name)
        } else {
            ("bob", "alice", &g.bob.first_name)
        };
        let (mv, from, to) = clickable(&game, &mut rng);
        assert_eq!(b.ask(who, &format!("click {from}")).await, "ok");
        assert_eq!(b.ask(who, &format!("click {to}")).await, "ok");
        let shown = format!("ply {}", ply + 1);
        assert_eq!(b.ask(who, &format!("wait-ply {}", ply + 1)).await, shown);
        assert_eq!(b.ask(other, &format!("wait-ply {}", ply + 1)).await, shown);
        // The group gets the move's board, as for a typed move.
        g.expect_text(&played(name, &mv)).await;
        game.play_text(&mv).expect("legal");
    }
    // Alice resigns on her page (a second tap, half a second on, as the page asks): the
    // group is told, both pages show the end.
    let resign = english(&Msg::BtnResign);
    assert_eq!(b.ask("alice", &format!("act {resign}")).await, "ok");
    assert_eq!(
        b.ask("alice", "text #said").await,
        english(&Msg::WebResignSure)
    );
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert_eq!(b.ask("alice", &format!("act {resign}")).await, "ok");
    let said = english(&Msg::Resigned {
        id,
        loser: g.alice.first_name.clone(),
        winner: g.bob.first_name.clone(),
    });
    g.expect_text(&said).await;
    for who in ["alice", "bob"] {
        assert_eq!(b.ask(who, "wait #acts:empty").await, "ok", "{who}");
    }
    b.close().await;
    bot.stop().await;
    // Rated: each player's rating moved, the winner's up.
    let store = ugolki_core::store::Store::connect(&ugolki_tests::e2e::sqlite_url(&db))
        .await
        .expect("store");
    let kind = RatingKind::of_rules(&Rules::Corners(Variant::classic3x3())).expect("rated kind");
    for (user, up) in [(&g.alice, false), (&g.bob, true)] {
        let player = store
            .player_by_platform_id("telegram", &user.id.to_string())
            .await
            .expect("read")
            .expect("a player");
        let history = store
            .rating_history(player.id, kind)
            .await
            .expect("history");
        let &(before, after, game_id) = history.last().expect("rated");
        assert_eq!(game_id, id);
        assert_eq!(
            after > before,
            up,
            "{}: {before} → {after}",
            user.first_name
        );
    }
}

/// A page still open when the bot stops (its live stream too) keeps nothing of the bot
/// alive: the stream ends, and the `SQLite` file is free for the next process at once. (A
/// pages' connection left running once held the store, and with it the file's lock.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_open_at_the_stop_ends_with_the_bot_and_frees_its_database() {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let g = Group::new().await;
    let db = temp_db("stop-with-page");
    let addr = ugolki_tests::free_addr();
    let mut options = polling(&g.fake, &db, quick());
    options.web = Some(ugolki_bots::web::Pages::new(addr, None).expect("pages"));
    let bot = RunningBot::start_with(options);
    let board = start_game(&g, "classic3x3 none").await;
    let id = crate::harness::game_of(&board);
    let mut page = tokio::net::TcpStream::connect(addr).await.expect("pages");
    let ask = format!("GET /g/{id}/events HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    page.write_all(ask.as_bytes()).await.expect("asked");
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    // Bounded: the first event (where the game stands) comes at once.
    for _ in 0..50 {
        if String::from_utf8_lossy(&seen).contains("event: ply") {
            break;
        }
        let n = tokio::time::timeout(std::time::Duration::from_secs(5), page.read(&mut buf))
            .await
            .expect("the stream answers")
            .expect("read");
        assert!(
            n > 0,
            "the stream stays open: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buf[..n]);
    }
    assert!(String::from_utf8_lossy(&seen).contains("event: ply"));
    bot.stop().await;
    // The stream has ended: what is left to read runs out (the stream's last chunk, then
    // the connection's close), every read bounded.
    let mut closed = false;
    for _ in 0..50 {
        let read = tokio::time::timeout(std::time::Duration::from_secs(5), page.read(&mut buf));
        match read.await.expect("the stream ends with the bot") {
            Ok(0) | Err(_) => {
                closed = true;
                break;
            }
            Ok(_) => {}
        }
    }
    assert!(closed, "the page's connection closes");
    let store = ugolki_core::store::Store::connect(&ugolki_tests::e2e::sqlite_url(&db)).await;
    assert!(store.is_ok(), "the database is free: {:?}", store.err());
}
