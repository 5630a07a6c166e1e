//! What every Discord test shares: the bot's options on the fake, starting it, and a
//! server with Alice and Bob and the waits on what the bot posted.

pub use std::time::Duration;
pub use ugolki_bots::discord::{run, Options};
pub use ugolki_core::corners::Variant;
pub use ugolki_core::game::{Game, Rules};
pub use ugolki_core::words::{english, Msg};
pub use ugolki_tests::e2e::{
    cause_of, data_of, decodes, has_button, health_becomes, safe_moves, says, sqlite_url, temp_db,
    text, ChildBot, Rng, RunningBot, WAIT,
};
pub use ugolki_tests::fake_discord::{Failure, FakeDiscord, FakeUser, OptionValue, SentMessage};
pub use ugolki_tests::said::{
    challenge_parts, challenges, first_sentence, fits, game_line, game_over, hole, hole_msg,
    in_order, lead, played, played_by, played_infix, played_move, players,
};

/// How far inside a bucket's window a call waited out by serenity may fall (its resets
/// are kept by the wall clock, the fake's windows by the monotonic one).
pub const CLOCK_EDGE: Duration = Duration::from_millis(5);

/// The bot's options on the fake, with a database of its own named `name`: commands in
/// the test guild, every shard, no metrics, no content intent, no pages.
pub fn options(fake: &FakeDiscord, name: &str) -> Options {
    Options {
        token: FakeDiscord::TOKEN.into(),
        api_url: None,
        api_at: Some(fake.api_at()),
        database_url: sqlite_url(&temp_db("dc", name)),
        guild: Some(FakeDiscord::GUILD_ID),
        shards: None,
        metrics: None,
        message_content: false,
        web: None,
        client_secret: None,
    }
}

/// Starting the Discord bot on the fake, with a database of its own named `name`.
pub trait StartDiscord {
    fn start(fake: &FakeDiscord, name: &str) -> Self;
    fn start_with(fake: &FakeDiscord, name: &str, metrics: Option<std::net::SocketAddr>) -> Self;
    /// With `guild` None the commands are registered globally (as in production), so
    /// they reach DMs too.
    fn start_in(
        fake: &FakeDiscord,
        name: &str,
        metrics: Option<std::net::SocketAddr>,
        guild: Option<u64>,
    ) -> Self;
    /// As [`StartDiscord::start`], with the path of its database, which the test reads
    /// beside the running bot.
    fn start_reading(fake: &FakeDiscord, name: &str) -> (Self, std::path::PathBuf)
    where
        Self: Sized;
}

impl StartDiscord for RunningBot {
    fn start(fake: &FakeDiscord, name: &str) -> RunningBot {
        RunningBot::start_with(fake, name, None)
    }

    fn start_with(
        fake: &FakeDiscord,
        name: &str,
        metrics: Option<std::net::SocketAddr>,
    ) -> RunningBot {
        RunningBot::start_in(fake, name, metrics, Some(FakeDiscord::GUILD_ID))
    }

    fn start_in(
        fake: &FakeDiscord,
        name: &str,
        metrics: Option<std::net::SocketAddr>,
        guild: Option<u64>,
    ) -> RunningBot {
        // Typed moves in the server: the content intent, switched on in the portal.
        fake.grant_intents(FakeDiscord::INTENT_MESSAGE_CONTENT);
        let options = Options {
            guild,
            metrics,
            message_content: true,
            ..options(fake, name)
        };
        RunningBot::spawn(|stopped| run(options, stopped))
    }

    fn start_reading(fake: &FakeDiscord, name: &str) -> (RunningBot, std::path::PathBuf) {
        let db = temp_db("dc", &format!("{name}-db"));
        fake.grant_intents(FakeDiscord::INTENT_MESSAGE_CONTENT);
        let options = Options {
            database_url: sqlite_url(&db),
            message_content: true,
            ..options(fake, name)
        };
        (RunningBot::spawn(|stopped| run(options, stopped)), db)
    }
}

pub struct Server {
    pub fake: FakeDiscord,
    pub alice: FakeUser,
    pub bob: FakeUser,
    /// Typed moves mention the bot (`@bot c3-d4`): all that reaches a bot without the
    /// content intent in a server.
    pub mention_bot: bool,
}

impl Server {
    pub async fn new() -> Server {
        let fake = FakeDiscord::start().await;
        Server {
            fake,
            alice: FakeDiscord::user(21, "alice"),
            bob: FakeDiscord::user(22, "bob"),
            mention_bot: false,
        }
    }

    /// Wait until the bot is connected and its commands are registered.
    pub async fn ready(&self) {
        let ok = self
            .fake
            .wait_until(WAIT, |f| f.commands().iter().any(|c| c.name == "challenge"))
            .await;
        assert!(ok, "commands registered: {:?}", self.fake.commands());
    }

    /// Every message of the bot, in every channel and thread.
    pub fn all(&self) -> Vec<SentMessage> {
        let mut channels = vec![FakeDiscord::CHANNEL_ID];
        channels.extend(self.fake.threads().iter().map(|t| t.id));
        channels
            .into_iter()
            .flat_map(|c| self.fake.messages(c))
            .collect()
    }

    pub async fn expect(&self, what: &str, f: impl Fn(&SentMessage) -> bool) -> SentMessage {
        let ok = self
            .fake
            .wait_until(WAIT, |_| self.all().iter().any(&f))
            .await;
        assert!(
            ok,
            "no message {what}: {:#?}",
            self.all().iter().map(text).collect::<Vec<_>>()
        );
        self.all().into_iter().rev().find(|m| f(m)).expect("found")
    }

    pub async fn expect_text(&self, part: &str) -> SentMessage {
        self.expect(part, |m| text(m).contains(part)).await
    }

    /// What an interaction got back privately (its edited original or its follow-ups).
    pub async fn private_answer(&self, id: u64) -> String {
        let ok = self
            .fake
            .wait_until(WAIT, |f| {
                f.interaction(id).is_some_and(|r| {
                    r.followups.iter().any(|m| m.ephemeral)
                        || r.original
                            .as_ref()
                            .is_some_and(|m| m.ephemeral && !m.loading)
                })
            })
            .await;
        let r = self.fake.interaction(id).expect("interaction");
        assert!(ok, "no private answer: {r:#?}");
        r.followups
            .iter()
            .chain(r.original.as_ref())
            .map(|m| m.content.clone())
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub fn press(&self, who: &FakeUser, m: &SentMessage, label: &str) -> u64 {
        self.fake.button(m.channel, who, m.id, &data_of(m, label))
    }

    /// Resign game `game` by `m`'s Resign button, as a player does: the first press is
    /// answered privately with the question, and the second, a moment later, resigns.
    pub async fn resign(&self, who: &FakeUser, m: &SentMessage, game: i64) {
        let label = english(&Msg::BtnResign);
        let asked = self.private_answer(self.press(who, m, &label)).await;
        let ask = english(&Msg::ResignAsk {
            id: game,
            seconds: ugolki_core::table::RESIGN_WINDOW_MS / 1000,
        });
        assert!(asked.contains(&ask), "{asked}");
        tokio::time::sleep(std::time::Duration::from_millis(
            ugolki_core::table::RESIGN_SECOND_MS.unsigned_abs() + 100,
        ))
        .await;
        self.press(who, m, &label);
    }

    /// Play `game` on in `channel` with random legal moves, alternating typed text and
    /// `/move`, each answered with its board; stops at the game's end or after `max` plies.
    pub async fn play_random(&self, channel: u64, game: &mut Game, seed: u64, max: usize) {
        let s = self;
        let thread_id = channel;
        let mut rng = Rng(seed);
        let a_move = played_infix();
        let start = s.all().iter().filter(|m| says(m, &a_move)).count();
        for i in 0..max {
            let ply = start + i;
            if game.ending().is_some() {
                break;
            }
            // Moves that lose at once (C6) ask for a confirmation first: not chosen here.
            let moves = safe_moves(game);
            if moves.is_empty() {
                break;
            }
            let mv = rng.pick(&moves).clone();
            let who = if game.turn() == ugolki_core::Color::White {
                &s.alice
            } else {
                &s.bob
            };
            if i % 2 == 0 && s.mention_bot {
                let me = FakeDiscord::bot_user();
                let typed = format!("<@{}> {mv}", me.id);
                s.fake.message_create(thread_id, who, &typed, &[&me]);
            } else if i % 2 == 0 {
                s.fake.message_create(thread_id, who, &mv, &[]);
            } else {
                s.fake.slash_command(
                    thread_id,
                    who,
                    "move",
                    &[("move", OptionValue::String(mv.clone()))],
                    "en-US",
                );
            }
            // The same move may have been played before: count the answers, not find one.
            let want = played(&who.name, &mv);
            let ok = s
                .fake
                .wait_until(WAIT, |_| {
                    s.all().iter().filter(|m| says(m, &a_move)).count() > ply
                })
                .await;
            assert!(
                ok,
                "no answer to {want} in {thread_id}: {:#?} {:#?}",
                s.all()
                    .iter()
                    .rev()
                    .take(3)
                    .map(|m| (m.channel, text(m)))
                    .collect::<Vec<_>>(),
                s.fake.threads()
            );
            let last = s
                .all()
                .into_iter()
                .filter(|m| says(m, &a_move))
                .nth(ply)
                .expect("answer");
            assert!(says(&last, &want), "{} / {want}", text(&last));
            game.play_text(&mv).expect("legal");
        }
        // Discord's buckets (5 messages per 5 s in a channel, and the rest) held: serenity's
        // ratelimiter waited instead of being refused (to within a clock's edge: it keeps
        // resets by the wall clock; a refusal is retried after its retry-after).
        let overran = s.fake.overran(CLOCK_EDGE);
        let before: Vec<_> = overran
            .first()
            .map(|l| {
                let channel = l.path.split('/').nth(2).unwrap_or_default().to_owned();
                s.fake
                    .calls()
                    .into_iter()
                    .filter(|c| c.path.split('/').nth(2) == Some(channel.as_str()))
                    .filter(|c| c.time <= l.time)
                    .filter(|c| l.time.duration_since(c.time) < Duration::from_secs(6))
                    .map(|c| (c.route, c.status, l.time.duration_since(c.time)))
                    .collect()
            })
            .unwrap_or_default();
        assert!(
            overran.is_empty(),
            "refused by Discord's limits: {overran:#?}; its channel's calls before: {before:#?}"
        );
    }

    /// alice challenges bob by slash command; bob accepts by button. The board.
    pub async fn start_game(&self, variant: &str, time: &str) -> SentMessage {
        let id = self.fake.slash_command(
            FakeDiscord::CHANNEL_ID,
            &self.alice,
            "challenge",
            &[
                ("opponent", OptionValue::User(self.bob.clone())),
                ("variant", OptionValue::String(variant.into())),
                ("time", OptionValue::String(time.into())),
                ("color", OptionValue::String("white".into())),
            ],
            "en-US",
        );
        let accept = english(&Msg::BtnAccept);
        let challenge = self
            .expect("a challenge with buttons", |m| {
                says(m, &challenges("alice", "bob")) && has_button(m, &accept)
            })
            .await;
        let record = self.fake.interaction(id).expect("interaction");
        assert!(
            record.answered_within(Duration::from_secs(3)),
            "{record:#?}"
        );
        let before: Vec<u64> = self.all().iter().map(|m| m.id).collect();
        self.press(&self.bob, &challenge, &accept);
        let board = self
            .expect("the new game's board", |m| {
                says(m, &players("alice", "bob")) && !before.contains(&m.id)
            })
            .await;
        assert!(!board.attachments.is_empty(), "{board:#?}");
        board
    }
}
