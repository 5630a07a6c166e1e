//! Discord's rate limits as the fake enforces them, seen by serenity: bucket headers on
//! every answer, a 429 (not carried out) past a bucket, the global limit, and serenity's
//! ratelimiter (the bot's production path) keeping a burst free of 429s.

use crate::harness::{all_intents, connect, connect_proxied, raw_get, SECOND};
use serenity::all::{ChannelId, GuildId, HttpError};
use std::time::{Duration, Instant};
use ugolki_tests::fake_discord::FakeDiscord;

fn header(headers: &[(String, String)], name: &str) -> Option<String> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_its_bucket_counting_down() {
    let fake = FakeDiscord::start().await;
    let path = format!("/api/v10/channels/{}", FakeDiscord::CHANNEL_ID);
    let (status, first, _) = raw_get(&fake, &path, true).await;
    assert_eq!(status, 200);
    let (_, second, _) = raw_get(&fake, &path, true).await;
    assert_eq!(header(&first, "x-ratelimit-limit").as_deref(), Some("50"));
    assert_eq!(
        header(&first, "x-ratelimit-remaining").as_deref(),
        Some("49")
    );
    assert_eq!(
        header(&second, "x-ratelimit-remaining").as_deref(),
        Some("48")
    );
    let bucket = header(&first, "x-ratelimit-bucket").expect("a bucket");
    assert_eq!(bucket.len(), 32);
    assert_eq!(header(&second, "x-ratelimit-bucket"), Some(bucket.clone()));
    let after: f64 = header(&first, "x-ratelimit-reset-after")
        .and_then(|v| v.parse().ok())
        .expect("reset-after");
    assert!(after > 0.0 && after <= 1.0, "{after}");
    let reset: f64 = header(&first, "x-ratelimit-reset")
        .and_then(|v| v.parse().ok())
        .expect("reset");
    assert!(reset > 1.7e9, "epoch seconds: {reset}");
    // Another route has its own bucket (hash); another channel its own count.
    let other = format!("/api/v10/guilds/{}", FakeDiscord::GUILD_ID);
    let (_, guild, _) = raw_get(&fake, &other, true).await;
    assert_ne!(header(&guild, "x-ratelimit-bucket"), Some(bucket));
    assert_eq!(
        header(&guild, "x-ratelimit-remaining").as_deref(),
        Some("49")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_a_limiter_is_refused_past_its_bucket() {
    let fake = FakeDiscord::start().await;
    // Through a proxy serenity does not limit itself: Discord's 5 messages per 5 s in a
    // channel are all it gets.
    let bot = connect_proxied(&fake, all_intents()).await;
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    for i in 0..5 {
        channel
            .say(&bot.http, format!("m{i}"))
            .await
            .expect("within");
    }
    let err = channel.say(&bot.http, "m5").await.expect_err("over");
    let serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(response.status_code.as_u16(), 429);
    assert_eq!(
        fake.messages(FakeDiscord::CHANNEL_ID).len(),
        5,
        "not carried out"
    );
    let limited = fake.rate_limited();
    assert_eq!(limited.len(), 1, "{limited:#?}");
    assert_eq!(limited[0].route, "create_message");
    // It came seconds before its window ended: an overrun, not a clock's edge.
    assert!(limited[0].early.is_some_and(|e| e > SECOND), "{limited:#?}");
    assert_eq!(fake.overran(Duration::from_millis(5)).len(), 1);
    // Another channel is another bucket.
    ChannelId::new(FakeDiscord::OTHER_CHANNEL_ID)
        .say(&bot.http, "elsewhere")
        .await
        .expect("its own bucket");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serenitys_limiter_keeps_a_burst_within_its_bucket() {
    let fake = FakeDiscord::start().await;
    fake.set_route_limit("create_message", 3, SECOND);
    let bot = connect(&fake, all_intents()).await;
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    let started = Instant::now();
    for i in 0..8 {
        channel.say(&bot.http, format!("m{i}")).await.expect("sent");
    }
    // 8 messages at 3 a second: serenity waited for two window ends, and was never refused.
    assert!(started.elapsed() >= 2 * SECOND, "{:?}", started.elapsed());
    let limited = fake.rate_limited();
    assert!(limited.is_empty(), "{limited:#?}");
    let contents: Vec<_> = fake
        .messages(FakeDiscord::CHANNEL_ID)
        .into_iter()
        .map(|m| m.content)
        .collect();
    let want: Vec<_> = (0..8).map(|i| format!("m{i}")).collect();
    assert_eq!(contents, want, "each once, in order");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_global_429_is_waited_out_and_retried() {
    let fake = FakeDiscord::start().await;
    let bot = connect(&fake, all_intents()).await;
    fake.set_global_limit(3);
    // Let the connection's own calls leave the global window.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    let guild = GuildId::new(FakeDiscord::GUILD_ID);
    for _ in 0..2 {
        channel.to_channel(&bot.http).await.expect("channel");
        bot.http.get_guild(guild).await.expect("guild");
        bot.http.get_current_user().await.expect("me");
    }
    // Six calls in three buckets at 3 a second: one of them met the global limit, and
    // serenity tried it again once the limit's retry-after (1 s) had passed.
    let calls = fake.calls();
    let refused: Vec<_> = calls
        .iter()
        .enumerate()
        .filter(|(_, c)| c.status == 429 && !c.failed)
        .collect();
    assert!(!refused.is_empty(), "{calls:#?}");
    for (i, call) in refused {
        let retry = calls[i + 1..]
            .iter()
            .find(|c| c.path == call.path && c.status == 200)
            .expect("retried");
        assert!(
            retry.time.duration_since(call.time) >= SECOND,
            "retried after {:?}",
            retry.time.duration_since(call.time)
        );
    }
    bot.stop().await;
}

/// Many window ends in a row, each waited out by serenity to the instant the headers name:
/// the fake's `reset-after` never names an instant inside the window (it is rounded up),
/// so a client that waits what it is told never overruns (serenity's wall-clock resets
/// may still land a hair inside a window: a clock's edge, not an overrun).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_the_reset_the_headers_name_never_overruns() {
    let fake = FakeDiscord::start().await;
    // 2 a window of 50 ms (40 requests a second, under the global 50): the second of each
    // window is told a reset that is not a whole number of milliseconds away.
    fake.set_route_limit("create_message", 2, Duration::from_millis(50));
    let bot = connect(&fake, all_intents()).await;
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    for i in 0..80 {
        channel.say(&bot.http, format!("m{i}")).await.expect("sent");
    }
    let limited = fake.rate_limited();
    assert!(
        limited.is_empty(),
        "{} refused: {limited:#?}",
        limited.len()
    );
    assert_eq!(fake.messages(FakeDiscord::CHANNEL_ID).len(), 80);
    bot.stop().await;
}
