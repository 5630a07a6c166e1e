//! The harness of the fake Discord's self-test: a serenity client built as the bot will
//! build it and connected to the fake, the users, small PNGs, Discord's error codes and a
//! raw HTTP GET.

use crate::handler::{lock, Handler, Seen};
use serenity::all::{
    Cache, Client, ClientBuilder, GatewayIntents, HttpBuilder, HttpError, ShardManager,
};
use serenity::http::Http;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;
use ugolki_tests::fake_discord::{FakeDiscord, FakeUser};

pub const SECOND: Duration = Duration::from_secs(1);
pub const WAIT: Duration = Duration::from_secs(10);

/// A small valid RGB PNG.
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("PNG header");
    let pixels = vec![200_u8; (width * height * 3) as usize];
    writer.write_image_data(&pixels).expect("PNG data");
    writer.finish().expect("PNG end");
    out
}

/// A running serenity client connected to the fake.
pub struct Bot {
    pub http: Arc<Http>,
    pub cache: Arc<Cache>,
    pub shards: Arc<ShardManager>,
    pub task: JoinHandle<serenity::Result<()>>,
    pub seen: Arc<Mutex<Seen>>,
}

impl Bot {
    pub fn seen(&self) -> MutexGuard<'_, Seen> {
        lock(&self.seen)
    }

    /// Wait (at most `WAIT`) until `f` holds for what the handler saw.
    pub async fn wait_seen(&self, fake: &FakeDiscord, f: impl Fn(&Seen) -> bool) -> bool {
        fake.wait_until(WAIT, |_| f(&self.seen())).await
    }

    pub async fn stop(self) {
        self.shards.shutdown_all().await;
        let ended = tokio::time::timeout(WAIT, self.task).await;
        assert!(ended.is_ok(), "the client did not stop");
        let errors = &lock(&self.seen).errors;
        assert!(errors.is_empty(), "{errors:#?}");
    }
}

pub fn all_intents() -> GatewayIntents {
    GatewayIntents::GUILDS
        | GatewayIntents::GUILD_MESSAGES
        | GatewayIntents::DIRECT_MESSAGES
        | GatewayIntents::MESSAGE_CONTENT
}

/// Build the client as the bot will (`https://discord.com` at the fake's HTTPS door,
/// serenity's ratelimiter on), start it, wait for READY and the guild (the application has
/// `MESSAGE_CONTENT` switched on).
pub async fn connect(fake: &FakeDiscord, intents: GatewayIntents) -> Bot {
    connect_by(fake, intents, fake.http(FakeDiscord::TOKEN)).await
}

/// [`connect`] through a REST proxy (`DISCORD_API_URL`): the proxy limits, so serenity's
/// ratelimiter is off.
pub async fn connect_proxied(fake: &FakeDiscord, intents: GatewayIntents) -> Bot {
    let http = HttpBuilder::new(FakeDiscord::TOKEN)
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    connect_by(fake, intents, http).await
}

async fn connect_by(fake: &FakeDiscord, intents: GatewayIntents, http: Http) -> Bot {
    // The test application has the content intent switched on in the Developer Portal.
    fake.grant_intents(FakeDiscord::INTENT_MESSAGE_CONTENT);
    let handler = Handler::default();
    let seen = Arc::clone(&handler.seen);
    let mut client: Client = ClientBuilder::new_with_http(http, intents)
        .event_handler(handler)
        .await
        .expect("the client");
    let bot = Bot {
        http: Arc::clone(&client.http),
        cache: Arc::clone(&client.cache),
        shards: Arc::clone(&client.shard_manager),
        task: tokio::spawn(async move { client.start().await }),
        seen,
    };
    assert!(fake.wait_until(WAIT, FakeDiscord::connected).await);
    assert!(
        bot.wait_seen(fake, |s| !s.ready.is_empty() && !s.guilds.is_empty())
            .await,
        "READY and GUILD_CREATE"
    );
    bot
}

pub fn alice() -> FakeUser {
    FakeDiscord::user(101, "alice")
}

pub fn bob() -> FakeUser {
    FakeDiscord::user(102, "bob")
}

/// The id of the message the handler sent as `what`.
pub fn sent(bot: &Bot, what: &str) -> Option<(u64, u64)> {
    bot.seen()
        .sent
        .iter()
        .find(|(w, _, _)| w == what)
        .map(|(_, c, m)| (*c, *m))
}

pub fn sent_in(s: &Seen, what: &str) -> bool {
    s.sent.iter().any(|(w, _, _)| w == what)
}

/// Discord's JSON error code of a failed REST call.
pub fn discord_code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// A plain HTTP/1.1 GET on the fake: status, headers, body.
pub async fn raw_get(
    fake: &FakeDiscord,
    path: &str,
    auth: bool,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut stream = tokio::net::TcpStream::connect(fake.addr())
        .await
        .expect("connect");
    let mut request = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
        fake.addr()
    );
    if auth {
        let _ = write!(request, "Authorization: Bot {}\r\n", FakeDiscord::TOKEN);
    }
    request += "\r\n";
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut raw))
        .await
        .expect("in time")
        .expect("read");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header block");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    (status, headers, raw[split + 4..].to_vec())
}
