//! What the operator sees and runs: `/health` and `/metrics` while the Bot API answers and
//! while it fails, and several processes on one `PostgreSQL` database, one polling and one
//! standing by.

use crate::harness::{polling, quick, start_game, temp_db, Group, RunningBot, StartTelegram, WAIT};
use std::time::Duration;
use ugolki_bots::telegram::Options;
use ugolki_core::corners::Variant;
use ugolki_core::words::{english, Msg};
use ugolki_tests::e2e::{health_becomes, sqlite_url};
use ugolki_tests::fake_telegram::{Failure, FakeTelegram};
use ugolki_tests::said::{corners_rules_lead, played};

/// `--metrics`: `/health` is 200 while the store answers and the Bot API does, 503 while
/// polling fails; `/metrics` counts moves, their latency, 429s, retries and the queues.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_and_health_tell_the_operator_how_the_bot_is() {
    let g = Group::new().await;
    let db = temp_db("metrics");
    let addr = ugolki_tests::free_addr();
    let bot = RunningBot::start_with(Options {
        token: FakeTelegram::TOKEN.into(),
        api_url: Some(g.fake.api_url()),
        database_url: sqlite_url(&db),
        webhook: None,
        webhook_secret: None,
        metrics: Some(addr),
        limits: quick(),
        inline_chats: Vec::new(),
        web: None,
    });
    assert_eq!(health_becomes(addr, 200).await, (200, "ok\n".into()));
    // A game, one move, one send answered 429 first.
    let board = start_game(&g, "classic3x3 none casual").await;
    g.fake.fail_next(
        1,
        &["sendphoto", "editmessagemedia"],
        Failure::TooManyRequests { retry_after: 1 },
    );
    g.fake.reply_text(&g.chat, &g.alice, "c3-d3", board.id);
    g.expect_text(&played("Alice", "c3-d3")).await;
    let (code, text) = ugolki_tests::http(addr, "GET", "/metrics", &[], "", WAIT).await;
    assert_eq!(code, 200);
    let value = |name: &str| -> f64 {
        text.lines()
            .find(|l| l.starts_with(name) && !l.starts_with('#'))
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in:\n{text}"))
    };
    assert!(value("ugolki_moves_total") >= 1.0);
    assert!(value("ugolki_move_reply_seconds_count") >= 1.0);
    assert!(
        text.contains("ugolki_move_reply_seconds_bucket{le=\"0.005\"}"),
        "{text}"
    );
    assert!(value("ugolki_platform_429_total{platform=\"telegram\"}") >= 1.0);
    assert!(value("ugolki_platform_retries_total{platform=\"telegram\"}") >= 1.0);
    assert!(value("ugolki_outbox_depth{platform=\"telegram\"}") >= 0.0);
    assert!(value("ugolki_games_in_play") >= 0.0);
    assert!(value("ugolki_timers_fired_total") >= 0.0);
    // Polling fails (the Bot API answers 500): the platform is down until it answers again.
    g.fake.fail_next(1, &["getupdates"], Failure::ServerError);
    let down = health_becomes(addr, 503).await;
    assert_eq!(down, (503, "the platform connection is down\n".into()));
    assert_eq!(health_becomes(addr, 200).await.0, 200);
    bot.stop().await;
}

/// Several processes on one `PostgreSQL` database poll one bot: one polls, the other stands
/// by (the Bot API serves one poller per bot) and takes over when the first stops.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_poller_per_bot_and_a_standby_takes_over() {
    let Some(db) = ugolki_tests::pg::Database::create("standby").await else {
        return;
    };
    let g = Group::new().await;
    let start = |g: &Group| {
        RunningBot::start_with(Options {
            token: FakeTelegram::TOKEN.into(),
            api_url: Some(g.fake.api_url()),
            database_url: db.url.clone(),
            webhook: None,
            webhook_secret: None,
            metrics: None,
            limits: quick(),
            inline_chats: Vec::new(),
            web: None,
        })
    };
    let first = start(&g);
    let ok = g
        .fake
        .wait_until(WAIT, |f| f.calls().iter().any(|c| c.method == "getupdates"))
        .await;
    assert!(ok, "the first process polls");
    let second = start(&g);
    g.fake.send_text(&g.chat, &g.alice, "/help");
    g.expect_text(&english(&Msg::Help)).await;
    // The standby never asked for updates: one deleteWebhook (the poller's start) so far.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let starts = |f: &FakeTelegram| {
        f.calls()
            .iter()
            .filter(|c| c.method == "deletewebhook")
            .count()
    };
    assert_eq!(starts(&g.fake), 1, "only one process polls");
    first.stop().await;
    // The standby takes over and answers.
    let ok = g.fake.wait_until(WAIT, |f| starts(f) == 2).await;
    assert!(ok, "the standby took over polling");
    g.fake.send_text(&g.chat, &g.bob, "/rules");
    g.expect_text(&corners_rules_lead(Variant::classic3x3()))
        .await;
    second.stop().await;
    drop(db);
}

/// A token the Bot API refuses (401 Unauthorized) ends the start at once, naming the
/// variable to fix: no "trying again" with growing waits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_ends_the_start_at_once_naming_the_variable() {
    let g = Group::new().await;
    let db = temp_db("wrong-token");
    let options = Options {
        token: "123:WRONG".into(),
        ..polling(&g.fake, &db, quick())
    };
    let started = std::time::Instant::now();
    let ended = tokio::time::timeout(
        WAIT,
        ugolki_bots::telegram::run(options, std::future::pending()),
    )
    .await
    .expect("the start ends");
    let err = ended.expect_err("a refused token");
    assert!(
        err.contains("TELOXIDE_TOKEN") && err.contains("401"),
        "{err}"
    );
    // Not retried: well under the first backoff's half a second.
    assert!(
        started.elapsed() < Duration::from_millis(400),
        "{:?}",
        started.elapsed()
    );
}

/// A token revoked while the bot runs (`BotFather`'s `/revoke`) ends the process with the same
/// message, at once rather than after a backoff.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_revoked_while_running_ends_the_process_naming_the_variable() {
    let g = Group::new().await;
    let db = temp_db("revoked-token");
    let options = polling(&g.fake, &db, quick());
    let run = tokio::spawn(ugolki_bots::telegram::run(options, std::future::pending()));
    g.fake.send_text(&g.chat, &g.alice, "/help");
    g.expect_text(&english(&Msg::Help)).await;
    g.fake.revoke_token();
    let ended = tokio::time::timeout(WAIT, run)
        .await
        .expect("the process ends")
        .expect("no panic");
    let err = ended.expect_err("a revoked token");
    assert!(
        err.contains("TELOXIDE_TOKEN") && err.contains("401"),
        "{err}"
    );
}
