//! Webhook mode: the bot registers its URL with a secret token and takes updates posted to
//! its listener only with that secret.

use crate::harness::{polling, quick, temp_db, Group, RunningBot, StartTelegram, WAIT};
use ugolki_bots::telegram::Options;
use ugolki_core::words::{english, Msg};
use ugolki_tests::e2e::sqlite_url;
use ugolki_tests::fake_telegram::FakeTelegram;

/// POST `body` to `addr` at `path` over plain HTTP/1.1; the status code.
async fn post(addr: std::net::SocketAddr, path: &str, secret: Option<&str>, body: &str) -> u16 {
    let mut headers = vec!["Content-Type: application/json".to_string()];
    if let Some(s) = secret {
        headers.push(format!("X-Telegram-Bot-Api-Secret-Token: {s}"));
    }
    ugolki_tests::http(addr, "POST", path, &headers, body, WAIT)
        .await
        .0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_mode_takes_updates_posted_with_the_secret_only() {
    let g = Group::new().await;
    let db = temp_db("webhook");
    // A free loopback port for the bot's listener.
    let listen = ugolki_tests::free_addr();
    // The public https URL Telegram posts to; the TLS proxy in front forwards to `listen`.
    let url = "https://bot.example.com/tg-hook".to_string();
    g.fake.proxy_webhook_to(listen);
    let options = Options {
        token: FakeTelegram::TOKEN.into(),
        api_url: Some(g.fake.api_url()),
        database_url: sqlite_url(&db),
        webhook: Some((url::Url::parse(&url).expect("url"), listen)),
        webhook_secret: None,
        metrics: None,
        limits: quick(),
        inline_chats: Vec::new(),
        web: None,
    };
    let bot = RunningBot::start_with(options);
    let ok = g
        .fake
        .wait_until(WAIT, |f| f.webhook().as_deref() == Some(url.as_str()))
        .await;
    assert!(ok, "setWebhook was called with {url}");
    let secret = g
        .fake
        .calls()
        .into_iter()
        .find(|c| c.method == "setwebhook")
        .and_then(|c| c.params["secret_token"].as_str().map(str::to_string))
        .expect("a secret token");
    let update = r#"{"update_id": 1, "message": {"message_id": 1, "date": 0,
        "chat": {"id": -1001, "type": "group", "title": "Board games"},
        "from": {"id": 11, "is_bot": false, "first_name": "Alice", "username": "alice"},
        "text": "/help", "entities": [{"type": "bot_command", "offset": 0, "length": 5}]}}"#;
    assert_eq!(
        post(listen, "/tg-hook", None, update).await,
        401,
        "no secret"
    );
    assert_eq!(post(listen, "/tg-hook", Some("guess"), update).await, 401);
    assert_eq!(
        post(listen, "/tg-hook", Some(&secret), "{nonsense").await,
        400
    );
    assert_eq!(post(listen, "/tg-hook", Some(&secret), update).await, 200);
    g.expect_text(&english(&Msg::Help)).await;
    bot.stop().await;
}

/// A webhook URL Telegram would refuse (plain http, a port it does not post to, a loopback
/// address) stops the start with a message that says why, before `setWebhook` is asked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_telegram_would_refuse_stops_the_start_saying_why() {
    let g = Group::new().await;
    let db = temp_db("webhook-refused");
    let listen = ugolki_tests::free_addr();
    for (url, why) in [
        ("http://bot.example.com/tg-hook", "https"),
        (
            "https://bot.example.com:8080/tg-hook",
            "443, 80, 88 and 8443",
        ),
        ("https://127.0.0.1:8443/tg-hook", "loopback or private"),
    ] {
        let options = Options {
            webhook: Some((url::Url::parse(url).expect("url"), listen)),
            ..polling(&g.fake, &db, quick())
        };
        let ended = tokio::time::timeout(
            WAIT,
            ugolki_bots::telegram::run(options, std::future::pending()),
        )
        .await
        .expect("the start ends at once");
        let err = ended.expect_err("refused");
        assert!(
            err.contains("--webhook") && err.contains(why),
            "{url}: {err}"
        );
    }
    assert!(
        !g.fake.calls().iter().any(|c| c.method == "setwebhook"),
        "setWebhook is not asked for a URL Telegram refuses"
    );
}

/// `allowed_updates` is Telegram's to keep: a list one `getUpdates` or `setWebhook` gave
/// holds until another call changes it. After a deployment that polled for messages only,
/// the webhook asks again for every kind the bot takes, so presses (`callback_query`) and
/// the bot's own membership (`my_chat_member`) reach it: a challenge accepted by its button
/// starts the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_asks_for_the_updates_it_takes_whatever_was_asked_before() {
    let g = Group::new().await;
    let before = format!("/bot{}/getUpdates", FakeTelegram::TOKEN);
    let (status, body) = ugolki_tests::http(
        g.fake.addr(),
        "POST",
        &before,
        &["Content-Type: application/json".to_string()],
        r#"{"timeout": 0, "allowed_updates": ["message"]}"#,
        WAIT,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let listen = ugolki_tests::free_addr();
    let url = "https://bot.example.com/tg-hook";
    g.fake.proxy_webhook_to(listen);
    let options = Options {
        webhook: Some((url::Url::parse(url).expect("url"), listen)),
        ..polling(&g.fake, &temp_db("webhook-updates"), quick())
    };
    let bot = RunningBot::start_with(options);
    let set = g
        .fake
        .wait_until(WAIT, |f| f.webhook().as_deref() == Some(url))
        .await;
    assert!(set, "setWebhook was called");
    let asked = g
        .fake
        .calls()
        .into_iter()
        .find(|c| c.method == "setwebhook")
        .map(|c| c.params["allowed_updates"].clone())
        .expect("setWebhook");
    let asked = asked
        .as_str()
        .and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok())
        .unwrap_or(asked);
    for kind in ["message", "callback_query", "my_chat_member"] {
        assert!(
            asked
                .as_array()
                .is_some_and(|a| a.iter().any(|k| k == kind)),
            "{kind} in {asked}"
        );
    }
    // The press goes through the webhook: the game starts.
    crate::harness::start_game(&g, "classic3x3 none casual").await;
    assert!(g.fake.pushed_updates() >= 2, "pushed to the webhook");
    bot.stop().await;
}
