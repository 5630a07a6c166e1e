//! A typed move to its board, end to end: the fake Telegram takes `/m c3-d3` from a player
//! in a group, the bot reads it by long polling, the table commits it with its reply in
//! the outbox, the chat's sender draws the board and uploads it; the time is from the
//! update's injection to the board arriving at the fake (a `sendPhoto`, or the group's
//! board edited in place by `editMessageMedia` while it is still in view). Reported as p50 / p99 /
//! max over a few hundred moves, on `SQLite` and (with `DATABASE_URL_PG`) on `PostgreSQL`.
//!
//! The flood limits are scaled down (5 ms a chat): Telegram's group pacing is the
//! platform's rule, not our latency. A bench binary (`harness = false`), not criterion: a
//! distribution of single events is wanted, not a mean of a tight loop.
//!
//! `cargo bench -p ugolki-tests --bench move_latency` (add `DATABASE_URL_PG=postgres://…`).

use std::time::{Duration, Instant};
use ugolki_bots::telegram::{run, Limits, Options};
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_core::words::{english, Msg};
use ugolki_tests::e2e::{data_of, safe_moves, says, sqlite_url, temp_db, Rng, RunningBot, WAIT};
use ugolki_tests::fake_telegram::{FakeChat, FakeTelegram, FakeUser};
use ugolki_tests::said::{challenges, played, players};

/// Games played per database, and plies at most per game.
const GAMES: usize = 3;
const PLIES: usize = 100;

/// Alice and Bob on the fake, a game at a time, each in a group of its own.
struct Room {
    fake: FakeTelegram,
    chat: FakeChat,
    alice: FakeUser,
    bob: FakeUser,
}

impl Room {
    async fn new() -> Room {
        let fake = FakeTelegram::start().await;
        Room {
            fake,
            chat: FakeTelegram::group(-1000, "Board games"),
            alice: FakeTelegram::user(11, "Alice", Some("alice"), Some("en")),
            bob: FakeTelegram::user(12, "Bob", Some("bob"), Some("en")),
        }
    }

    /// Wait until the group shows `part` (a message posted, or a board edited in place,
    /// after `since`); when it first did.
    async fn arrived(&self, part: &str, since: Instant) -> Instant {
        let first = |f: &FakeTelegram| {
            f.shown(self.chat.id)
                .into_iter()
                .find(|m| m.shown_at >= since && says(m, part))
                .map(|m| m.shown_at)
        };
        let ok = self.fake.wait_until(WAIT, |f| first(f).is_some()).await;
        assert!(ok, "no {part:?}");
        first(&self.fake).expect("arrived")
    }

    /// A new group: Alice challenges Bob there; he accepts by the button.
    async fn start_game(&mut self, n: usize) {
        self.chat = FakeTelegram::group(-1000 - i64::try_from(n).unwrap_or(0), "Board games");
        self.fake.add_chat(&self.chat);
        self.fake.send_text(
            &self.chat,
            &self.alice,
            "/challenge @bob classic3x3 none white",
        );
        let to_bob = [challenges("Alice", "@bob"), challenges("Alice", "Bob")];
        let ok = self
            .fake
            .wait_until(WAIT, |f| {
                f.messages(self.chat.id)
                    .iter()
                    .filter(|m| to_bob.iter().any(|c| says(m, c)) && !m.buttons.is_empty())
                    .count()
                    >= 1
            })
            .await;
        assert!(ok, "a challenge");
        let challenge = self
            .fake
            .messages(self.chat.id)
            .into_iter()
            .rev()
            .find(|m| to_bob.iter().any(|c| says(m, c)) && !m.buttons.is_empty())
            .expect("challenge");
        let data = data_of(&challenge, &english(&Msg::BtnAccept));
        let pressed = Instant::now();
        self.fake.press(&self.chat, &self.bob, challenge.id, &data);
        self.arrived(&players("Alice", "Bob"), pressed).await;
    }
}

/// Milliseconds of every typed move to its board, on `database_url`.
async fn measure(database_url: String) -> Vec<f64> {
    let mut room = Room::new().await;
    let bot = RunningBot::spawn(|stopped| {
        run(
            Options {
                token: FakeTelegram::TOKEN.into(),
                api_url: Some(room.fake.api_url()),
                database_url,
                webhook: None,
                webhook_secret: None,
                metrics: None,
                limits: Limits {
                    per_chat: Duration::from_millis(5),
                    per_group: 10_000,
                    group_window: Duration::from_secs(60),
                    per_second: 10_000,
                },
                inline_chats: Vec::new(),
                web: None,
            },
            stopped,
        )
    });
    let mut took = Vec::new();
    let mut rng = Rng(2026);
    for n in 1..=GAMES {
        room.start_game(n).await;
        let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
        for _ in 0..PLIES {
            let moves = safe_moves(&game);
            if game.ending().is_some() || moves.is_empty() {
                break;
            }
            let mv = rng.pick(&moves).clone();
            let white = game.turn() == ugolki_core::Color::White;
            let (who, name) = if white {
                (&room.alice, "Alice")
            } else {
                (&room.bob, "Bob")
            };
            let said = played(name, &mv);
            let typed = Instant::now();
            room.fake.send_text(&room.chat, who, &format!("/m {mv}"));
            let at = room.arrived(&said, typed).await;
            took.push(at.duration_since(typed).as_secs_f64() * 1000.0);
            game.play_text(&mv).expect("legal");
            // A player reads the board before answering.
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    bot.stop().await;
    took
}

fn report(what: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    // The nearest rank: the value `percent` of the way up the sorted samples.
    let at = |percent: usize| ms[(ms.len() - 1) * percent / 100];
    println!(
        "move_latency/{what}: {} moves, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ms.len(),
        at(50),
        at(99),
        ms.last().copied().unwrap_or(0.0)
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    // `cargo bench` passes `--bench`; a filter naming neither backend runs both.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    if wanted("sqlite") {
        let db = temp_db("bench", "latency");
        report("sqlite", measure(sqlite_url(&db)).await);
    }
    if wanted("postgres") {
        match ugolki_tests::pg::Database::create("move_latency").await {
            Some(db) => report("postgres", measure(db.url.clone()).await),
            None => println!("move_latency/postgres: skipped (DATABASE_URL_PG is unset)"),
        }
    }
}
