//! Two platforms on one `PostgreSQL` database: a Telegram process and a Discord process
//! (each on its fake) serve one store, and either may fire any game's timer. Flags,
//! reminders and expiries of each platform's games must arrive at that platform only —
//! twenty of each, on each — and the Discord fake must see no call for a Telegram chat
//! (nor the Telegram fake one for a Discord channel).
//!
//! The games are made by a third table on the same database, dated back with a clock of
//! its own, so that a reminder (due three quarters into a day's move) and an expiry (ten
//! minutes after a challenge) are due at once instead of in hours; the adapters' processes
//! run on the real clock and fire them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use ugolki_core::store::Store;
use ugolki_core::table::{
    ChatKind, ChatRef, Config, FakeTime, Incoming, Mention, Origin, Outgoing, Platform, SystemTime,
    Table, TimeSource, User,
};
use ugolki_core::words::{english, Duration, Msg};
use ugolki_tests::e2e::{RunningBot, Shown, WAIT};
use ugolki_tests::fake_discord::FakeDiscord;
use ugolki_tests::fake_telegram::FakeTelegram;
use ugolki_tests::pg::Database;

/// Of each kind, on each platform.
const EACH: usize = 20;
const HOUR: i64 = 3_600_000;
/// The Telegram group the Telegram games are in.
const GROUP: i64 = -1001;

/// The table that makes the games, on its own clock.
struct Seeder {
    table: Table,
    time: FakeTime,
    next: AtomicU64,
}

/// What was made on one platform: the games that will flag, those that will be reminded
/// (with who is reminded), and the challenges that will expire (with who made them).
#[derive(Default)]
struct Made {
    flags: Vec<(i64, String, String)>,
    reminders: Vec<(i64, String)>,
    expiries: Vec<(i64, String)>,
}

impl Seeder {
    async fn open(url: &str) -> Seeder {
        let store = Store::connect(url).await.expect("store");
        let time = FakeTime::at(SystemTime.now_ms());
        let config = Config {
            max_open_challenges: 1000,
            max_challenges_per_minute: 1000,
            max_active_games: 1000,
            ..Config::default()
        };
        let table = Table::open(store, Arc::new(time.clone()), config)
            .await
            .expect("table");
        Seeder {
            table,
            time,
            next: AtomicU64::new(1),
        }
    }

    /// Set the clock `ago` ms before now.
    fn back(&self, ago: i64) {
        self.time.set(SystemTime.now_ms() - ago);
    }

    async fn say(
        &self,
        chat: &ChatRef,
        who: &User,
        text: &str,
        to: Option<&User>,
    ) -> Vec<Outgoing> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let origin = Origin::message(chat.clone(), who.clone(), format!("seed{n}"));
        let mentions = to
            .map(|u| vec![Mention::User(u.clone())])
            .unwrap_or_default();
        self.table
            .handle(&Incoming::text(origin, text, mentions))
            .await
    }

    /// `a` challenges `b` on `terms` with White: the challenge's id.
    async fn challenge(&self, chat: &ChatRef, a: &User, b: &User, terms: &str) -> i64 {
        let handle = b.handle.as_deref().expect("a handle");
        let out = self
            .say(
                chat,
                a,
                &format!("/challenge @{handle} {terms} white"),
                Some(b),
            )
            .await;
        out.iter()
            .find_map(|o| match o.message {
                Msg::ChallengeTo { id, .. } => Some(id),
                _ => None,
            })
            .unwrap_or_else(|| panic!("a challenge: {out:#?}"))
    }

    /// `b` accepts: the game's id.
    async fn accept(&self, chat: &ChatRef, b: &User) -> i64 {
        let out = self.say(chat, b, "/accept", None).await;
        out.iter()
            .find_map(|o| match o.message {
                Msg::GameStarted { id, .. } => Some(id),
                _ => None,
            })
            .unwrap_or_else(|| panic!("a game: {out:#?}"))
    }

    /// Twenty games of each kind in `chat`, between players `base..`.
    async fn make(&self, chat: &ChatRef, base: u64) -> Made {
        let user = |i: usize| {
            let id = base + i as u64;
            User {
                id: id.to_string(),
                name: format!("P{id}"),
                handle: Some(format!("p{id}")),
            }
        };
        let mut made = Made::default();
        for i in 0..EACH {
            let (a, b) = (user(2 * i), user(2 * i + 1));
            // A day a move, begun nineteen hours ago: the reminder (at eighteen) is due.
            // (The challenge is made now: one made then would have expired.)
            self.back(0);
            self.challenge(chat, &a, &b, "classic3x3 1d").await;
            self.back(19 * HOUR);
            let game = self.accept(chat, &b).await;
            made.reminders.push((game, a.name.clone()));
        }
        for i in 0..EACH {
            let (a, b) = (user(100 + 2 * i), user(101 + 2 * i));
            // Challenges live ten minutes: an hour ago, it has expired.
            self.back(HOUR);
            let id = self.challenge(chat, &a, &b, "classic3x3 none").await;
            made.expiries.push((id, a.name.clone()));
        }
        for i in 0..EACH {
            let (a, b) = (user(200 + 2 * i), user(201 + 2 * i));
            // Three seconds each, a move each, now: White's flag falls in seconds.
            self.back(0);
            self.challenge(chat, &a, &b, "classic3x3 3s+0").await;
            let game = self.accept(chat, &b).await;
            for (who, mv) in [(&a, "c3-d3"), (&b, "f6-e6")] {
                let out = self.say(chat, who, &format!("/m {mv}"), None).await;
                assert!(out.iter().any(|o| o.game == Some(game)), "{mv}: {out:#?}");
            }
            made.flags.push((game, a.name.clone(), b.name.clone()));
        }
        made
    }
}

/// The words a reminder of `game` to `who` begins with (before the time left).
fn reminder_lead(game: i64, who: &str) -> String {
    let say = |left| {
        english(&Msg::Reminder {
            id: game,
            who: who.to_string(),
            left: Duration(left),
        })
    };
    let (a, b) = (say(3_600_000), say(7_200_000));
    a.chars()
        .zip(b.chars())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x)
        .collect()
}

/// What must be said on a platform for what was made there.
fn expected(made: &Made) -> Vec<String> {
    let mut want = Vec::new();
    for (id, loser, winner) in &made.flags {
        want.push(english(&Msg::Flagged {
            id: *id,
            loser: loser.clone(),
            winner: winner.clone(),
        }));
    }
    for (id, who) in &made.reminders {
        want.push(reminder_lead(*id, who));
    }
    for (id, challenger) in &made.expiries {
        want.push(english(&Msg::Expired {
            id: *id,
            challenger: challenger.clone(),
        }));
    }
    want
}

/// How many of `words` say each of `want`.
fn counts(words: &[String], want: &[String]) -> Vec<usize> {
    want.iter()
        .map(|w| words.iter().filter(|t| t.contains(w.as_str())).count())
        .collect()
}

fn telegram_words(fake: &FakeTelegram, chat: i64) -> Vec<String> {
    fake.messages(chat).iter().map(Shown::words).collect()
}

fn discord_words(fake: &FakeDiscord) -> Vec<String> {
    let mut channels = vec![FakeDiscord::CHANNEL_ID];
    channels.extend(fake.threads().iter().map(|t| t.id));
    channels
        .into_iter()
        .flat_map(|c| fake.messages(c))
        .map(|m| m.words())
        .collect()
}

/// The Telegram process on `url`, polling the fake: once it polls.
async fn start_telegram(tg: &FakeTelegram, url: &str) -> RunningBot {
    let options = ugolki_bots::telegram::Options {
        token: FakeTelegram::TOKEN.into(),
        api_url: Some(tg.api_url()),
        database_url: url.to_string(),
        webhook: None,
        webhook_secret: None,
        metrics: None,
        limits: ugolki_bots::telegram::Limits {
            per_chat: std::time::Duration::from_millis(5),
            per_group: 10_000,
            group_window: std::time::Duration::from_secs(60),
            per_second: 10_000,
        },
        inline_chats: Vec::new(),
        web: None,
    };
    let bot = RunningBot::spawn(|stopped| ugolki_bots::telegram::run(options, stopped));
    let ok = tg
        .wait_until(WAIT, |f| f.calls().iter().any(|c| c.method == "getupdates"))
        .await;
    assert!(ok, "the Telegram process polls");
    bot
}

/// The Discord process on `url`, on the fake's guild: once its commands are registered.
async fn start_discord(dc: &FakeDiscord, url: &str) -> RunningBot {
    let options = ugolki_bots::discord::Options {
        token: FakeDiscord::TOKEN.into(),
        api_url: None,
        api_at: Some(dc.api_at()),
        database_url: url.to_string(),
        guild: Some(FakeDiscord::GUILD_ID),
        shards: None,
        metrics: None,
        message_content: false,
        web: None,
        client_secret: None,
    };
    let bot = RunningBot::spawn(|stopped| ugolki_bots::discord::run(options, stopped));
    let ok = dc
        .wait_until(WAIT, |f| f.commands().iter().any(|c| c.name == "challenge"))
        .await;
    assert!(ok, "the Discord process is ready");
    bot
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_platforms_timers_reach_that_platform_only() {
    let Some(db) = Database::create("two_platforms").await else {
        return;
    };
    let tg = FakeTelegram::start().await;
    tg.add_chat(&FakeTelegram::group(GROUP, "Board games"));
    let dc = FakeDiscord::start().await;
    // Sixty timers' messages land in one channel at once; at Discord's 5 a channel per 5 s
    // that is a minute of serenity waiting (as it would in production). This test is about
    // where each platform's timers go, not the pace (the Discord tests keep Discord's).
    for route in ["create_message", "edit_message"] {
        dc.set_route_limit(route, 50, std::time::Duration::from_secs(1));
    }
    let telegram = start_telegram(&tg, &db.url).await;
    let discord = start_discord(&dc, &db.url).await;

    let seeder = Seeder::open(&db.url).await;
    let on_telegram = ChatRef::new(Platform::Telegram, GROUP.to_string(), ChatKind::Group);
    let on_discord = ChatRef::new(
        Platform::Discord,
        FakeDiscord::CHANNEL_ID.to_string(),
        ChatKind::Group,
    );
    let tg_made = seeder.make(&on_telegram, 3000).await;
    let dc_made = seeder.make(&on_discord, 5000).await;
    let (tg_want, dc_want) = (expected(&tg_made), expected(&dc_made));
    assert_eq!(tg_want.len(), 3 * EACH);

    // Each platform hears of its own, once.
    let ok = tg
        .wait_until(2 * WAIT, |f| {
            counts(&telegram_words(f, GROUP), &tg_want)
                .iter()
                .all(|n| *n == 1)
        })
        .await;
    let words = telegram_words(&tg, GROUP);
    assert!(ok, "Telegram: {:?}\n{words:#?}", counts(&words, &tg_want));
    let ok = dc
        .wait_until(2 * WAIT, |f| {
            counts(&discord_words(f), &dc_want).iter().all(|n| *n == 1)
        })
        .await;
    let words = discord_words(&dc);
    assert!(ok, "Discord: {:?}\n{words:#?}", counts(&words, &dc_want));
    // And nothing of the other's.
    assert!(
        counts(&telegram_words(&tg, GROUP), &dc_want)
            .iter()
            .all(|n| *n == 0),
        "a Discord game's words on Telegram"
    );
    assert!(
        counts(&discord_words(&dc), &tg_want)
            .iter()
            .all(|n| *n == 0),
        "a Telegram game's words on Discord"
    );
    let wrong: Vec<String> = dc
        .calls()
        .into_iter()
        .filter(|c| c.path.contains(&GROUP.to_string()) || c.route == "unknown")
        .map(|c| format!("{} {}", c.method, c.path))
        .collect();
    assert!(
        wrong.is_empty(),
        "Discord calls for a Telegram chat: {wrong:?}"
    );
    let channel = FakeDiscord::CHANNEL_ID.to_string();
    let wrong: Vec<String> = tg
        .calls()
        .into_iter()
        .filter(|c| {
            c.params["chat_id"].as_str() == Some(channel.as_str())
                || c.params["chat_id"].as_i64() == Some(1001)
        })
        .map(|c| c.method)
        .collect();
    assert!(
        wrong.is_empty(),
        "Telegram calls for a Discord channel: {wrong:?}"
    );
    drop(seeder);
    telegram.stop().await;
    discord.stop().await;
}
