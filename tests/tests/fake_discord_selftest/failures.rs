//! Failures the fake injects or answers with, as serenity (its ratelimiter off) sees them:
//! 429s surfaced without a retry, with Discord's headers and body, 500s, and an unknown
//! token refused.

use crate::harness::{all_intents, connect, connect_proxied, discord_code, raw_get, SECOND};
use serde_json::json;
use serenity::all::{ChannelId, HttpBuilder, HttpError};
use std::time::Instant;
use ugolki_tests::fake_discord::{Failure, FakeDiscord};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn injected_failures_surface_without_retry() {
    let fake = FakeDiscord::start().await;
    let bot = connect_proxied(&fake, all_intents()).await;
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);

    // 429: with its ratelimiter disabled (needed for the proxy), serenity does not retry; the
    // error carries the status, but not Discord's `retry_after` (the body has no `code`, so
    // serenity reports its own decoding message with code -1).
    fake.fail_next(
        1,
        &["create_message"],
        Failure::TooManyRequests {
            retry_after_ms: 500,
        },
    );
    let started = Instant::now();
    let err = channel.say(&bot.http, "one").await.expect_err("429");
    assert!(started.elapsed() < SECOND, "no wait for retry_after");
    let serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(response.status_code.as_u16(), 429);
    assert_eq!(response.error.code, -1);
    let calls: Vec<_> = fake
        .calls()
        .into_iter()
        .filter(|c| c.route == "create_message")
        .collect();
    assert_eq!(calls.len(), 1, "no retry");
    assert!(calls[0].failed);
    assert_eq!(calls[0].status, 429);
    assert!(fake.messages(FakeDiscord::CHANNEL_ID).is_empty());
    // The bot's own retry goes through.
    channel.say(&bot.http, "one").await.expect("retry");
    assert_eq!(fake.messages(FakeDiscord::CHANNEL_ID).len(), 1);

    // 429 headers and body, as Discord sends them.
    fake.fail_next(
        1,
        &["get_channel"],
        Failure::TooManyRequests {
            retry_after_ms: 1500,
        },
    );
    let path = format!("/api/v10/channels/{}", FakeDiscord::CHANNEL_ID);
    let (status, headers, body) = raw_get(&fake, &path, true).await;
    assert_eq!(status, 429);
    let header = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    assert_eq!(header("retry-after").as_deref(), Some("2"));
    assert_eq!(header("x-ratelimit-remaining").as_deref(), Some("0"));
    assert_eq!(header("x-ratelimit-reset-after").as_deref(), Some("1.500"));
    assert_eq!(header("x-ratelimit-scope").as_deref(), Some("user"));
    let body: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(
        body,
        json!({"message": "You are being rate limited.", "retry_after": 1.5, "global": false})
    );

    // 500: also surfaced at once.
    fake.fail_next(2, &[], Failure::ServerError);
    let err = channel.say(&bot.http, "two").await.expect_err("500");
    assert_eq!(discord_code(&err), Some(0));
    let err = bot.http.get_current_user().await.expect_err("500");
    let serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(response.status_code.as_u16(), 500);
    bot.http.get_current_user().await.expect("rules used up");

    // An unknown token is refused.
    let stranger = HttpBuilder::new("wrong")
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    let err = stranger.get_current_user().await.expect_err("401");
    assert_eq!(err_status(&err), Some(401));
    // As Discord: `GET /gateway` is served to anyone (the gateway then refuses the token).
    stranger
        .get_gateway()
        .await
        .expect("GET /gateway needs no token");

    bot.stop().await;
}

fn err_status(e: &serenity::Error) -> Option<u16> {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => Some(r.status_code.as_u16()),
        _ => None,
    }
}

/// Permissions denied in a channel: Discord answers 403 50013 "Missing Permissions" to
/// what needs them (a file, a thread), and takes what does not (plain text).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn denied_permissions_are_answered_50013() {
    use serenity::all::{ChannelId, CreateAttachment, CreateMessage, CreateThread};
    let fake = FakeDiscord::start().await;
    let bot = connect(&fake, all_intents()).await;
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    fake.deny_bot(
        FakeDiscord::CHANNEL_ID,
        FakeDiscord::ATTACH_FILES | FakeDiscord::CREATE_PUBLIC_THREADS,
    );
    channel.say(&bot.http, "text is fine").await.expect("sent");
    let file = CreateMessage::new().add_file(CreateAttachment::bytes(vec![1, 2, 3], "a.png"));
    let err = channel
        .send_message(&bot.http, file)
        .await
        .expect_err("50013");
    assert_eq!(discord_code(&err), Some(50_013));
    let err = channel
        .create_thread(&bot.http, CreateThread::new("game"))
        .await
        .expect_err("50013");
    assert_eq!(discord_code(&err), Some(50_013));
    bot.stop().await;
}
