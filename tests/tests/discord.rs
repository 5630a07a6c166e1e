//! The Discord adapter end to end, in-process, against the fake Discord (REST and gateway)
//! on 127.0.0.1: slash commands, buttons, a thread per game, typed moves, boards as PNG
//! attachments, stale buttons, flags, 429s and a gateway resume. Every wait is bounded.

use std::time::Duration;
use ugolki_bots::discord::{run, Options};
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_core::words::{english, Msg};
use ugolki_tests::e2e::{
    data_of, decodes, has_button, health_becomes, safe_moves, says, sqlite_url, temp_db, text,
    ChildBot, Rng, RunningBot, WAIT,
};
use ugolki_tests::fake_discord::{Failure, FakeDiscord, FakeUser, OptionValue, SentMessage};
use ugolki_tests::said::{
    challenge_parts, challenges, first_sentence, fits, game_line, game_over, hole, hole_msg,
    in_order, lead, played, played_by, played_infix, played_move, players,
};

/// How far inside a bucket's window a call waited out by serenity may fall (its resets
/// are kept by the wall clock, the fake's windows by the monotonic one).
const CLOCK_EDGE: Duration = Duration::from_millis(5);

/// The bot's options on the fake, with a database of its own named `name`: commands in
/// the test guild, every shard, no metrics, no content intent, no pages.
fn options(fake: &FakeDiscord, name: &str) -> Options {
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
trait StartDiscord {
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
}

struct Server {
    fake: FakeDiscord,
    alice: FakeUser,
    bob: FakeUser,
    /// Typed moves mention the bot (`@bot c3-d4`): all that reaches a bot without the
    /// content intent in a server.
    mention_bot: bool,
}

impl Server {
    async fn new() -> Server {
        let fake = FakeDiscord::start().await;
        Server {
            fake,
            alice: FakeDiscord::user(21, "alice"),
            bob: FakeDiscord::user(22, "bob"),
            mention_bot: false,
        }
    }

    /// Wait until the bot is connected and its commands are registered.
    async fn ready(&self) {
        let ok = self
            .fake
            .wait_until(WAIT, |f| f.commands().iter().any(|c| c.name == "challenge"))
            .await;
        assert!(ok, "commands registered: {:?}", self.fake.commands());
    }

    /// Every message of the bot, in every channel and thread.
    fn all(&self) -> Vec<SentMessage> {
        let mut channels = vec![FakeDiscord::CHANNEL_ID];
        channels.extend(self.fake.threads().iter().map(|t| t.id));
        channels
            .into_iter()
            .flat_map(|c| self.fake.messages(c))
            .collect()
    }

    async fn expect(&self, what: &str, f: impl Fn(&SentMessage) -> bool) -> SentMessage {
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

    async fn expect_text(&self, part: &str) -> SentMessage {
        self.expect(part, |m| text(m).contains(part)).await
    }

    /// What an interaction got back privately (its edited original or its follow-ups).
    async fn private_answer(&self, id: u64) -> String {
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

    fn press(&self, who: &FakeUser, m: &SentMessage, label: &str) -> u64 {
        self.fake.button(m.channel, who, m.id, &data_of(m, label))
    }

    /// Play `game` on in `channel` with random legal moves, alternating typed text and
    /// `/move`, each answered with its board; stops at the game's end or after `max` plies.
    async fn play_random(&self, channel: u64, game: &mut Game, seed: u64, max: usize) {
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
    async fn start_game(&self, variant: &str, time: &str) -> SentMessage {
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

// One story: challenge, accept, thread, a whole game, its boards.
#[allow(clippy::too_many_lines)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_by_slash_command_is_accepted_by_button_and_played_in_a_thread() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "game");
    s.ready().await;
    // Every command carries its description in every language, installs on servers and
    // on accounts, and works in servers, the bot's DMs and a user's own DMs (a
    // user-installed app).
    let commands = s.fake.commands();
    assert!(
        commands.iter().any(|c| c.name == "challenge") && commands.iter().any(|c| c.name == "play")
    );
    for c in commands {
        assert!(c.description_localizations.contains_key("ru"), "{c:#?}");
        assert_eq!(c.integration_types, [0, 1], "{}", c.name);
        assert_eq!(c.contexts, Some(vec![0, 1, 2]), "{}", c.name);
    }
    let board = s.start_game("classic3x3", "none").await;
    // No Activity set up: no button to open one.
    assert!(!has_button(&board, &english(&Msg::BtnOpenBoard)));
    let thread = s
        .fake
        .threads()
        .into_iter()
        .next()
        .expect("a thread for the game");
    assert_eq!(
        board.channel, thread.id,
        "the board is in the game's thread"
    );
    // The challenge lost its buttons.
    let taken = english(&Msg::ChallengeTaken {
        id: 1,
        by: "bob".into(),
        game: 1,
    });
    let ok = s
        .fake
        .wait_until(WAIT, |f| {
            f.messages(FakeDiscord::CHANNEL_ID)
                .iter()
                .any(|m| says(m, &taken) && m.components.is_empty())
        })
        .await;
    assert!(ok, "{:#?}", s.fake.messages(FakeDiscord::CHANNEL_ID));
    // /move suggests the legal moves of the player's game, as typed so far.
    let id = s.fake.autocomplete(
        thread.id,
        &s.alice,
        "move",
        &[("move", OptionValue::Focused("c3".into()))],
        "en-US",
    );
    let ok = s
        .fake
        .wait_until(WAIT, |f| {
            f.interaction(id).is_some_and(|r| !r.choices.is_empty())
        })
        .await;
    let choices: Vec<String> = s
        .fake
        .interaction(id)
        .map(|r| r.choices.iter().map(|(n, _)| n.clone()).collect())
        .unwrap_or_default();
    assert!(ok, "no suggestions");
    assert_eq!(choices, ["c3-d3", "c3-c4"]);
    // A full Corners game: typed moves in the thread and /move, to its end by the rules.
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    s.play_random(thread.id, &mut game, 0x5eed, 200).await;
    assert!(game.ending().is_some());
    s.expect_text(&game_over(1)).await;
    // A full Damas game in its own thread, to its end (no pieces or no move, D5) or, if
    // random play drags on, a resignation.
    let board = s.start_game("damas", "none").await;
    let mut game = Game::new(&Rules::Damas { flying: true });
    s.play_random(board.channel, &mut game, 0xda5, 300).await;
    if game.ending().is_none() {
        let newest = s
            .expect("the newest board", |m| {
                m.channel == board.channel && !m.components.is_empty()
            })
            .await;
        let who = if game.turn() == ugolki_core::Color::White {
            &s.alice
        } else {
            &s.bob
        };
        s.press(who, &newest, &english(&Msg::BtnResign));
        s.expect_text(&game_line(2)).await;
    } else {
        s.expect_text(&game_over(2)).await;
    }
    // An illegal move is answered.
    let boards: Vec<SentMessage> = s
        .fake
        .messages(thread.id)
        .into_iter()
        .filter(|m| !m.attachments.is_empty())
        .collect();
    assert!(boards.len() > 20);
    for b in &boards {
        assert!(decodes(&b.attachments[0].bytes), "board {} decodes", b.id);
    }
    bot.stop().await;
}

/// Two challenges in one channel, accepted in the other order: each game's thread grows
/// from its own challenge's message (it used to take the newest challenge's, failing for
/// good the second time and putting that game's boards in the channel).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_accepted_out_of_order_each_get_their_own_thread() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "threads");
    s.ready().await;
    let accept = english(&Msg::BtnAccept);
    let mut challenges = Vec::new();
    for variant in ["classic3x3", "damas"] {
        s.fake.slash_command(
            FakeDiscord::CHANNEL_ID,
            &s.alice,
            "challenge",
            &[
                ("opponent", OptionValue::User(s.bob.clone())),
                ("variant", OptionValue::String(variant.into())),
                ("time", OptionValue::String("none".into())),
            ],
            "en-US",
        );
        let n = challenges.len() + 1;
        let challenge = challenge_parts(&Msg::ChallengeTo {
            id: n as i64,
            from: "alice".into(),
            to: hole(),
            terms: hole_msg(),
            wish: None,
            minutes: 0,
            pair_limit: false,
            buttons: false,
        });
        let c = s
            .expect("a challenge", |m| {
                in_order(&text(m), &challenge) && has_button(m, &accept)
            })
            .await;
        challenges.push(c);
    }
    // The second challenge first (game #1), then the first (game #2).
    for (game, c) in [(1, &challenges[1]), (2, &challenges[0])] {
        s.press(&s.bob, c, &accept);
        let ok = s
            .fake
            .wait_until(WAIT, |f| {
                f.threads().iter().any(|t| {
                    t.name == english(&Msg::ThreadName { id: game }) && t.starter == Some(c.id)
                })
            })
            .await;
        assert!(ok, "game #{game}: {:#?}", s.fake.threads());
    }
    // Both boards are in their threads, none in the channel.
    let threads = s.fake.threads();
    assert_eq!(threads.len(), 2, "{threads:#?}");
    for t in &threads {
        let ok = s
            .fake
            .wait_until(WAIT, |f| {
                f.messages(t.id).iter().any(|m| !m.attachments.is_empty())
            })
            .await;
        assert!(ok, "no board in {}", t.name);
    }
    assert!(s
        .fake
        .messages(FakeDiscord::CHANNEL_ID)
        .iter()
        .all(|m| m.attachments.is_empty()));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_moves_buttons_stale_presses_and_a_flag() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "buttons");
    s.ready().await;
    let first = s.start_game("damas", "10s+0").await;
    let thread = first.channel;
    // The running clock is a Discord timestamp the client counts down.
    assert!(text(&first).contains("<t:"), "{}", text(&first));
    s.fake.message_create(thread, &s.alice, "a3-a4", &[]);
    s.expect_text(&lead(&Msg::Refused {
        text: "a3-a4".into(),
        reason: hole_msg(),
    }))
    .await;
    // Taking the buttons off the old board is slowed down (429s), so a player can still
    // press one after the game moved on: the press is refused privately as out of date.
    s.fake.fail_next(
        4,
        &["edit_message"],
        Failure::TooManyRequests {
            retry_after_ms: 100,
        },
    );
    s.fake.message_create(thread, &s.alice, "11-15", &[]);
    s.expect_text(&played_by("alice")).await;
    let resign = english(&Msg::BtnResign);
    let id = s.press(&s.bob, &first, &resign);
    assert!(s
        .private_answer(id)
        .await
        .contains(&english(&Msg::ButtonStale)));
    // Then the old board loses its buttons after all.
    let ok = s
        .fake
        .wait_until(WAIT, |f| {
            f.message(first.channel, first.id)
                .is_some_and(|m| m.components.is_empty())
        })
        .await;
    assert!(ok, "the old board keeps its buttons");
    // Plain-text commands with the prefix work too.
    s.fake
        .message_create(FakeDiscord::CHANNEL_ID, &s.bob, "!games", &[]);
    s.expect_text(&lead(&Msg::GamesLine {
        id: 1,
        rules: Box::new(Rules::Damas { flying: true }),
        opponent: hole(),
        my_turn: false,
        here: true,
    }))
    .await;
    let carol = FakeDiscord::user(23, "carol");
    let board = s
        .expect("the newest board", |m| says(m, &played_by("alice")))
        .await;
    let id = s.press(&carol, &board, &resign);
    assert!(s
        .private_answer(id)
        .await
        .contains(&english(&Msg::ButtonNotYours)));
    s.fake.message_create(thread, &s.bob, "22-18", &[]);
    s.expect_text(&played_by("bob")).await;
    // Nobody types: alice's ten seconds run out.
    s.expect_text(&english(&Msg::Flagged {
        id: 1,
        loser: "alice".into(),
        winner: "bob".into(),
    }))
    .await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_and_resign_by_buttons_through_429s_and_a_gateway_resume() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "resume");
    s.ready().await;
    let board = s.start_game("classic3x3", "none").await;
    let thread = board.channel;
    // A 429 on sending messages is waited out; nothing is lost.
    s.fake.fail_next(
        2,
        &["create_message"],
        Failure::TooManyRequests {
            retry_after_ms: 300,
        },
    );
    s.fake.message_create(thread, &s.alice, "c3-d3", &[]);
    s.expect_text(&played("alice", "c3-d3")).await;
    // The gateway drops; serenity resumes; a move sent meanwhile arrives exactly once.
    assert!(s.fake.disconnect());
    s.fake.message_create(thread, &s.bob, "f6-e6", &[]);
    s.expect_text(&played("bob", "f6-e6")).await;
    let ok = s.fake.wait_until(WAIT, |f| f.resume_count() >= 1).await;
    assert!(ok, "resumed");
    assert_eq!(
        s.all()
            .iter()
            .filter(|m| says(m, &played("bob", "f6-e6")))
            .count(),
        1
    );
    let board = s
        .expect("the newest board", |m| says(m, &played_by("bob")))
        .await;
    s.press(&s.alice, &board, &english(&Msg::BtnOfferDraw));
    let offered = first_sentence(&Msg::DrawOffered {
        by: "alice".into(),
        to: hole(),
        buttons: false,
    });
    let offer = s
        .expect("an offer", |m| {
            says(m, &offered) && !m.components.is_empty()
        })
        .await;
    s.press(&s.bob, &offer, &english(&Msg::BtnDeclineDraw));
    let declined = s
        .expect_text(&english(&Msg::DrawDeclined { by: "bob".into() }))
        .await;
    s.press(&s.bob, &declined, &english(&Msg::BtnResign));
    s.expect_text(&english(&Msg::Resigned {
        id: 1,
        loser: "bob".into(),
        winner: "alice".into(),
    }))
    .await;
    bot.stop().await;
}

/// Creating a message cannot be doubled by a retry: Discord creates the board, but its answer
/// is lost (a 500 to the bot); the outbox sends the row again with the same enforced nonce,
/// and Discord answers with the message it made. The channel shows the move's board once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_create_whose_answer_is_lost_is_retried_without_a_second_message() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "answer-lost");
    s.ready().await;
    let board = s.start_game("classic3x3", "none").await;
    let thread = board.channel;
    s.fake
        .fail_next(1, &["create_message"], Failure::AnswerLost);
    s.fake.message_create(thread, &s.alice, "c3-d3", &[]);
    s.expect_text(&played("alice", "c3-d3")).await;
    // The next move's answer proves the lane went on past the retried row.
    s.fake.message_create(thread, &s.bob, "f6-e6", &[]);
    s.expect_text(&played("bob", "f6-e6")).await;
    let creates: Vec<_> = s
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.route == "create_message" && says_call(c, &played("alice", "c3-d3")))
        .collect();
    assert!(
        creates.len() >= 2,
        "the lost create was retried: {creates:#?}"
    );
    assert!(creates[0].failed, "{creates:#?}");
    let nonces: std::collections::BTreeSet<_> = creates
        .iter()
        .map(|c| c.body["nonce"].to_string())
        .collect();
    assert_eq!(nonces.len(), 1, "one nonce for the row: {nonces:?}");
    assert_eq!(
        s.all()
            .iter()
            .filter(|m| says(m, &played("alice", "c3-d3")))
            .count(),
        1,
        "the board is shown once"
    );
    assert!(creates.iter().all(|c| c.body["enforce_nonce"] == true));
    bot.stop().await;
}

/// Whether the message a REST call creates says `part` (its content or an embed's
/// description).
fn says_call(call: &ugolki_tests::fake_discord::Call, part: &str) -> bool {
    let content = call.body["content"].as_str().unwrap_or_default();
    let embeds = call.body["embeds"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    content.contains(part)
        || embeds
            .iter()
            .any(|e| e["description"].as_str().is_some_and(|d| d.contains(part)))
}

/// `--metrics`: `/health` is 200 once the gateway's shard is connected (and the store
/// answers); `/metrics` shows the delivery queue of Discord replies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_is_up_once_the_shard_is_connected() {
    let s = Server::new().await;
    let addr = ugolki_tests::free_addr();
    let bot = RunningBot::start_with(&s.fake, "health", Some(addr));
    assert_eq!(health_becomes(addr, 200).await, (200, "ok\n".into()));
    let (code, text) = ugolki_tests::http(addr, "GET", "/metrics", &[], "", WAIT).await;
    assert_eq!(code, 200);
    assert!(
        text.contains("ugolki_outbox_depth{platform=\"discord\"}"),
        "{text}"
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_by_buttons_edit_the_board_and_play() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "buttons");
    s.ready().await;
    let first = s.start_game("classic3x3", "none").await;
    let channel = first.channel;
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let (resign, back) = (english(&Msg::BtnResign), english(&Msg::BtnBack));
    for ply in 0..6 {
        let board = s
            .expect("the newest board with its buttons", |m| {
                m.channel == channel && !m.attachments.is_empty() && has_button(m, &resign)
            })
            .await;
        // Five buttons to a row, five rows at most.
        assert!(board.components.len() <= 5 && board.components.iter().all(|r| r.len() <= 5));
        let mv = game.legal_move_texts()[ply % 2].clone();
        let squares: Vec<&str> = mv.split('-').collect();
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let who = if game.turn() == ugolki_core::Color::White {
            &s.alice
        } else {
            &s.bob
        };
        s.press(who, &board, from);
        // The same message is edited: its buttons become the destinations and Back.
        let picked = s
            .expect("the destinations", |m| {
                m.id == board.id && has_button(m, &back)
            })
            .await;
        s.press(who, &picked, to);
        game.play_text(&mv).unwrap();
        s.expect_text(&played_move(&mv)).await;
    }
    bot.stop().await;
}

// One story, from the command to the game's end on one message: splitting it would
// scatter its state.
#[allow(clippy::too_many_lines)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_installed_challenge_in_a_dm_is_played_on_one_message_by_buttons() {
    let s = Server::new().await;
    let bot = RunningBot::start_in(&s.fake, "private", None, None);
    s.ready().await;
    // alice and bob added the app to their accounts; alice challenges bob in their own DM,
    // which the bot is not part of.
    s.fake.install_for_user(&s.alice);
    s.fake.install_for_user(&s.bob);
    let private = s.fake.private_channel(&[&s.alice, &s.bob]);
    let id = s.fake.slash_command(
        private,
        &s.alice,
        "challenge",
        &[
            ("opponent", OptionValue::User(s.bob.clone())),
            ("variant", OptionValue::String("classic3x3".into())),
            ("time", OptionValue::String("none".into())),
            ("color", OptionValue::String("white".into())),
        ],
        "en-US",
    );
    let newest = |what: &'static str, f: Box<dyn Fn(&SentMessage) -> bool + Send + Sync>| {
        let fake = &s.fake;
        async move {
            let ok = fake
                .wait_until(WAIT, |x| x.messages(private).iter().any(&f))
                .await;
            assert!(ok, "{what}: {:#?}", fake.messages(private));
            fake.messages(private)
                .into_iter()
                .rev()
                .find(|m| f(m))
                .expect("found")
        }
    };
    // The command's own response is the challenge, for everyone in the DM.
    let accept = english(&Msg::BtnAccept);
    let challenge = newest(
        "the challenge",
        Box::new(move |m: &SentMessage| !m.ephemeral && !m.loading && has_button(m, &accept)),
    )
    .await;
    assert_eq!(challenge.interaction, Some(id));
    s.press(&s.bob, &challenge, &english(&Msg::BtnAccept));
    // The same message becomes the board, and the whole game is played on it, by buttons.
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0xd_0a11_u64);
    let (resign, back) = (english(&Msg::BtnResign), english(&Msg::BtnBack));
    for _ in 0..400 {
        if game.ending().is_some() {
            break;
        }
        let board_id = challenge.id;
        let (r, b) = (resign.clone(), back.clone());
        let board = newest(
            "the board",
            Box::new(move |m: &SentMessage| {
                m.id == board_id
                    && !m.attachments.is_empty()
                    && !has_button(m, &b)
                    && has_button(m, &r)
            }),
        )
        .await;
        // Random moves, but none that loses at once (C6 asks for a confirmation first).
        let moves = safe_moves(&game);
        if moves.is_empty() {
            break;
        }
        let mv = rng.pick(&moves).clone();
        let squares: Vec<&str> = mv.split('-').collect();
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let who = if game.turn() == ugolki_core::Color::White {
            &s.alice
        } else {
            &s.bob
        };
        s.press(who, &board, from);
        let b = back.clone();
        let picked = newest(
            "the destinations",
            Box::new(move |m: &SentMessage| m.id == board_id && has_button(m, &b)),
        )
        .await;
        s.press(who, &picked, to);
        game.play_text(&mv).unwrap();
        let played = played_move(&mv);
        newest(
            "the move",
            Box::new(move |m: &SentMessage| m.id == board_id && says(m, &played)),
        )
        .await;
    }
    if game.ending().is_some() {
        let over = game_over(1);
        newest(
            "the result",
            Box::new(move |m: &SentMessage| says(m, &over)),
        )
        .await;
    } else {
        // No move left that does not lose at once: resign, by button, on that message.
        let board_id = challenge.id;
        let board = s.fake.message(private, board_id).expect("the board");
        let who = if game.turn() == ugolki_core::Color::White {
            &s.alice
        } else {
            &s.bob
        };
        s.press(who, &board, &resign);
        // (After ten moves or fewer a resignation annuls the game.)
        let resigned = Msg::Resigned {
            id: 1,
            loser: hole(),
            winner: hole(),
        };
        let annulled = Msg::ResignedAnnulled {
            id: 1,
            loser: hole(),
        };
        newest(
            "the resignation",
            Box::new(move |m: &SentMessage| fits(&text(m), &resigned) || fits(&text(m), &annulled)),
        )
        .await;
    }
    // /help there says plainly what is different.
    s.fake
        .slash_command(private, &s.alice, "help", &[], "en-US");
    let help = english(&Msg::DiscordPrivateHelp);
    newest(
        "the help for this chat",
        Box::new(move |m: &SentMessage| says(m, &help)),
    )
    .await;
    // Everything there went through the interactions: nothing was posted to the channel.
    assert!(
        s.fake
            .messages(private)
            .iter()
            .all(|m| m.interaction.is_some()),
        "{:#?}",
        s.fake.messages(private)
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_bot_by_the_play_command_is_answered_by_the_bot() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "play");
    s.ready().await;
    // (The fake refuses a command that is not registered.)
    s.fake.slash_command(
        FakeDiscord::CHANNEL_ID,
        &s.alice,
        "play",
        &[
            ("level", OptionValue::Integer(1)),
            ("variant", OptionValue::String("classic3x3".into())),
            ("time", OptionValue::String("none".into())),
            ("color", OptionValue::String("white".into())),
        ],
        "en-US",
    );
    let board = s
        .expect("the game's board", |m| {
            says(m, &players("alice", "Bot L1")) && has_button(m, "c3")
        })
        .await;
    // alice plays by buttons; the bot answers with nobody else there.
    s.press(&s.alice, &board, "c3");
    let back = english(&Msg::BtnBack);
    let picked = s
        .expect("the destinations", |m| {
            m.id == board.id && has_button(m, &back)
        })
        .await;
    s.press(&s.alice, &picked, "d3");
    s.expect_text(&played("alice", "c3-d3")).await;
    let answered = s
        .expect("the bot's move", |m| {
            says(m, &played_infix()) && !says(m, &played_by("alice"))
        })
        .await;
    assert!(!answered.attachments.is_empty(), "{answered:#?}");
    bot.stop().await;
}

/// A token Discord refuses (401 on the HTTP API, gateway close 4004) ends the start at once,
/// naming the variable to fix, whether the bot asks for its shards (`/gateway/bot`) or is
/// given them (the gateway's identify).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_ends_the_start_at_once_naming_the_variable() {
    let fake = FakeDiscord::start().await;
    for shards in [None, Some((0, 0, 1))] {
        let options = Options {
            token: "WRONG-TOKEN".into(),
            shards,
            ..options(&fake, "wrong-token")
        };
        let ended = tokio::time::timeout(WAIT, run(options, std::future::pending()))
            .await
            .expect("the start ends");
        let err = ended.expect_err("a refused token");
        assert!(err.contains("DISCORD_TOKEN"), "{shards:?}: {err}");
    }
}

/// A token reset in the Developer Portal while the bot runs: the gateway drops the session
/// and closes the next IDENTIFY or RESUME with 4004. The process ends at once, naming the
/// variable to fix, instead of reconnecting forever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_reset_while_running_ends_the_process_on_the_gateways_4004() {
    let s = Server::new().await;
    let options = options(&s.fake, "token-reset");
    let running = tokio::spawn(run(options, std::future::pending()));
    s.ready().await;
    assert_eq!(s.fake.refused_identifies(), Vec::<u16>::new());
    s.fake.reset_token();
    let ended = tokio::time::timeout(WAIT, running)
        .await
        .expect("the process ends on 4004")
        .expect("the run does not panic");
    let err = ended.expect_err("a refused token");
    assert!(
        err.contains("DISCORD_TOKEN") && err.contains("4004"),
        "{err}"
    );
    assert_eq!(s.fake.refused_identifies(), [4004]);
}

/// `--shards 0-0 --total 1` runs exactly shard 0 of 1: one IDENTIFY, with `[0, 1]`, and
/// none refused (serenity's `start_shard_range` counts its range's end in: one shard more,
/// which the gateway refuses with 4010, forever, if it is passed one past the last).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shard_range_runs_exactly_its_shards() {
    let s = Server::new().await;
    let options = Options {
        shards: Some((0, 0, 1)),
        ..options(&s.fake, "shard-range")
    };
    let bot = RunningBot::spawn(|stopped| run(options, stopped));
    s.ready().await;
    // Shards start five seconds apart: a second one would have tried by now.
    tokio::time::sleep(Duration::from_secs(6)).await;
    assert_eq!(s.fake.identify_count(), 1);
    assert_eq!(s.fake.refused_identifies(), Vec::<u16>::new());
    bot.stop().await;
}

/// Without `--message-content` (the intent not switched on in the portal) the bot starts,
/// a whole game is played by buttons, `/move` and moves typed to `@bot`; a move typed
/// without the mention never reaches it; `/help` says how moves are made in this server.
/// Asking for the intent where the portal has it off ends the start, naming the fix.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_content_intent_a_server_plays_by_move_buttons_and_mentions() {
    let mut s = Server::new().await;
    let options = options(&s.fake, "no-content");
    // Asked for where it is off: 4014, and the operator is told what to do.
    let asking = Options {
        message_content: true,
        web: None,
        database_url: sqlite_url(&temp_db("dc", "no-content-asked")),
        ..options.clone()
    };
    let ended = tokio::time::timeout(WAIT, run(asking, std::future::pending()))
        .await
        .expect("the start ends");
    let err = ended.expect_err("refused");
    assert!(
        err.contains("MESSAGE_CONTENT") && err.contains("--message-content"),
        "{err}"
    );
    assert_eq!(s.fake.refused_identifies(), [4014]);
    let bot = RunningBot::spawn(|stopped| run(options, stopped));
    s.ready().await;
    assert_eq!(
        s.fake
            .intents()
            .map(|i| i & FakeDiscord::INTENT_MESSAGE_CONTENT),
        Some(0)
    );
    let board = s.start_game("classic3x3", "none").await;
    let help = s
        .fake
        .slash_command(board.channel, &s.alice, "help", &[], "en-US");
    let how = english(&Msg::HelpMentionsOnly {
        bot: FakeDiscord::BOT_NAME.into(),
    });
    let said = s.expect_text(&how).await;
    assert_eq!(said.channel, board.channel, "{help}");
    // Typed without the mention: the bot sees an empty message, and nothing is played.
    s.fake.message_create(board.channel, &s.alice, "c3-d3", &[]);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!s.all().iter().any(|m| says(m, &played_infix())));
    s.mention_bot = true;
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    s.play_random(board.channel, &mut game, 0x5eed, 300).await;
    assert!(game.ending().is_some(), "the game ended by its rules");
    s.expect_text(&game_over(1)).await;
    bot.stop().await;
}

/// Without the content intent Discord still gives a bot the text of DMs: a game against
/// the bot started by `/play` in alice's DM with it is played by moves typed there, and each
/// is answered with its board and the bot's reply.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_content_intent_moves_typed_in_a_dm_are_played() {
    let s = Server::new().await;
    let options = Options {
        guild: None,
        ..options(&s.fake, "no-content-dm")
    };
    let bot = RunningBot::spawn(|stopped| run(options, stopped));
    s.ready().await;
    let dm = s.fake.dm_channel(&s.alice);
    s.fake.slash_command(
        dm,
        &s.alice,
        "play",
        &[
            ("level", OptionValue::Integer(1)),
            ("variant", OptionValue::String("classic3x3".into())),
            ("time", OptionValue::String("none".into())),
            ("color", OptionValue::String("white".into())),
        ],
        "en-US",
    );
    let in_dm =
        |f: &dyn Fn(&SentMessage) -> bool| s.fake.messages(dm).iter().filter(|m| f(m)).count();
    let board = s
        .fake
        .wait_until(WAIT, |_| {
            in_dm(&|m| says(m, &players("alice", "Bot L1"))) > 0
        })
        .await;
    assert!(board, "{:#?}", s.fake.messages(dm));
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0xd1a1);
    for ply in 0..3 {
        let moves = safe_moves(&game);
        let mv = rng.pick(&moves).clone();
        s.fake.message_create(dm, &s.alice, &mv, &[]);
        let answered = s
            .fake
            .wait_until(WAIT, |_| in_dm(&|m| says(m, &played("alice", &mv))) > 0)
            .await;
        assert!(
            answered,
            "typed {mv} (ply {ply}): {:#?}",
            s.fake.messages(dm)
        );
        game.play_text(&mv).expect("legal");
        // The bot's reply, read back from its board's caption.
        let replied = s
            .fake
            .wait_until(WAIT, |_| {
                in_dm(&|m| says(m, &played_infix()) && !says(m, &played_by("alice"))) > ply
            })
            .await;
        assert!(replied, "the bot's move after {mv}");
        let theirs = s
            .fake
            .messages(dm)
            .into_iter()
            .filter(|m| says(m, &played_infix()) && !says(m, &played_by("alice")))
            .nth(ply)
            .expect("the bot's move");
        assert!(!theirs.attachments.is_empty(), "{theirs:#?}");
        let reply = game
            .legal_move_texts()
            .into_iter()
            .find(|m| says(&theirs, &played_move(m)))
            .unwrap_or_else(|| panic!("a legal reply: {}", text(&theirs)));
        game.play_text(&reply).expect("legal");
    }
    bot.stop().await;
}

/// Two shards, as Discord recommends them in `GET /gateway/bot`: the bot runs both
/// (`[0, 2]` and `[1, 2]`), registers its commands once however many READYs arrive, plays a
/// game in the guild (its events come on shard 1) and answers in a DM (shard 0).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_shards_play_in_the_guild_and_answer_dms_and_register_once() {
    let s = Server::new().await;
    s.fake.set_shard_count(2);
    let bot = RunningBot::start_in(&s.fake, "two-shards", None, None);
    s.ready().await;
    // serenity starts the second shard 5 s after the first.
    let both = s
        .fake
        .wait_until(2 * WAIT, |f| f.identified_shards().len() == 2)
        .await;
    assert!(both, "{:?}", s.fake.identified_shards());
    let mut shards = s.fake.identified_shards();
    shards.sort_unstable();
    assert_eq!(shards, [[0, 2], [1, 2]]);
    let board = s.start_game("classic3x3", "none").await;
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    s.play_random(board.channel, &mut game, 0x5a4d, 4).await;
    let dm = s.fake.dm_channel(&s.alice);
    let id = s.fake.slash_command(dm, &s.alice, "help", &[], "en-US");
    let answered = s
        .fake
        .wait_until(WAIT, |f| {
            f.interaction(id)
                .is_some_and(|r| r.answered_within(Duration::from_secs(3)))
        })
        .await;
    assert!(answered, "{:#?}", s.fake.interaction(id));
    let writes = s
        .fake
        .calls()
        .iter()
        .filter(|c| c.route == "set_commands")
        .count();
    assert_eq!(writes, 1, "registered once, not per READY");
    bot.stop().await;
}

/// The commands are registered once: a restart (or a second shard's READY) reads what
/// Discord has and, finding it as the bot lays it out, writes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_registered_once_and_compared_before_they_are_overwritten() {
    let s = Server::new().await;
    let routes = |route: &str| s.fake.calls().iter().filter(|c| c.route == route).count();
    let bot = RunningBot::start(&s.fake, "register");
    s.ready().await;
    assert_eq!(routes("set_commands"), 1);
    bot.stop().await;
    let bot = RunningBot::start(&s.fake, "register");
    let read = s
        .fake
        .wait_until(WAIT, |_| routes("get_commands") >= 2)
        .await;
    assert!(read, "the second start reads the commands");
    s.ready().await;
    // A little while for a write that should not come.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        routes("set_commands"),
        1,
        "nothing changed: nothing written"
    );
    bot.stop().await;
}

/// A game's thread archives after a time that fits its clock (a day a move: three days;
/// untimed: a week), as Discord archives inactive threads. In an archived thread a press
/// that edits the board unarchives it first, and a move's new board is posted all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archived_threads_are_unarchived_by_the_next_move_or_edit() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "archive");
    s.ready().await;
    let board = s.start_game("classic3x3", "1d").await;
    let thread = |id: u64| {
        s.fake
            .threads()
            .into_iter()
            .find(|t| t.id == id)
            .expect("the game's thread")
    };
    assert_eq!(
        thread(board.channel).auto_archive,
        4320,
        "a day a move: three days"
    );
    // Three days without a message: archived. A press edits the board there.
    s.fake.pass_minutes(4320);
    assert!(thread(board.channel).archived);
    s.press(&s.alice, &board, "c3");
    let back = english(&Msg::BtnBack);
    let picked = s
        .expect("the destinations", |m| {
            m.id == board.id && has_button(m, &back)
        })
        .await;
    assert!(!thread(board.channel).archived, "the edit unarchived it");
    // Archived again: the move's new board is posted there all the same.
    s.fake.pass_minutes(4320);
    s.press(&s.alice, &picked, "d3");
    s.expect_text(&played_move("c3-d3")).await;
    assert!(!thread(board.channel).archived);
    // An untimed game's thread stays a week.
    let other = s.start_game("classic3x3", "none").await;
    assert_eq!(thread(other.channel).auto_archive, 10080);
    bot.stop().await;
}

/// A timer in an archived thread: the thread archives while nobody moves, the bot is
/// restarted (Discord's `GUILD_CREATE` sends no archived thread, so its cache does not hold
/// it), and the flag that falls then is posted in the game's thread, which that unarchives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falling_in_an_archived_thread_is_posted_there_and_unarchives_it() {
    let s = Server::new().await;
    s.fake.grant_intents(FakeDiscord::INTENT_MESSAGE_CONTENT);
    let options = Options {
        message_content: true,
        ..options(&s.fake, "archived-flag")
    };
    let again = options.clone();
    let bot = RunningBot::spawn(|stopped| run(options, stopped));
    s.ready().await;
    let board = s.start_game("damas", "10s+0").await;
    let thread = board.channel;
    let archived = |id: u64| {
        s.fake
            .threads()
            .into_iter()
            .find(|t| t.id == id)
            .expect("the game's thread")
            .archived
    };
    s.fake.message_create(thread, &s.alice, "11-15", &[]);
    s.expect_text(&played_by("alice")).await;
    s.fake.message_create(thread, &s.bob, "22-18", &[]);
    s.expect_text(&played_by("bob")).await;
    bot.stop().await;
    // An hour (a ten-second game's archive duration) without a message: archived.
    s.fake.pass_minutes(60);
    assert!(archived(thread));
    let bot = RunningBot::spawn(|stopped| run(again, stopped));
    let flag = s
        .expect_text(&english(&Msg::Flagged {
            id: 1,
            loser: "alice".into(),
            winner: "bob".into(),
        }))
        .await;
    assert_eq!(flag.channel, thread, "in the game's thread");
    assert!(!archived(thread), "the flag's message unarchived it");
    bot.stop().await;
}

/// Where [`bot_in_a_child_process`] finds the fake's `discord.com`, its database and the
/// address of its `/metrics`.
const CHILD_AT: &str = "UGOLKI_CHILD_DISCORD_AT";
const CHILD_DB: &str = "UGOLKI_CHILD_DATABASE_URL";
const CHILD_METRICS: &str = "UGOLKI_CHILD_METRICS";

/// Not a test of its own: the bot of [`a_games_thread_is_found_with_no_store_read_per_message`]
/// runs in a process of its own, so that its `/metrics` counts its reads and no other test's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run in a child process by a_games_thread_is_found_with_no_store_read_per_message"]
async fn bot_in_a_child_process() {
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("{name} is set"));
    let options = Options {
        token: FakeDiscord::TOKEN.into(),
        api_url: None,
        api_at: Some(ugolki_bots::discord::ApiAt {
            addr: var(CHILD_AT).parse().expect("an address"),
            ca_der: ugolki_tests::fake_discord::CA_DER.to_vec(),
        }),
        database_url: var(CHILD_DB),
        guild: Some(FakeDiscord::GUILD_ID),
        shards: None,
        metrics: Some(var(CHILD_METRICS).parse().expect("an address")),
        message_content: true,
        web: None,
        client_secret: None,
    };
    // Until the test kills it.
    let ended = run(options, std::future::pending()).await;
    panic!("the bot ended: {ended:?}");
}

/// The bot's count of channels it looked up in the store (the cache did not hold them).
async fn thread_lookups(metrics: std::net::SocketAddr) -> u64 {
    let (code, text) = ugolki_tests::http(metrics, "GET", "/metrics", &[], "", WAIT).await;
    assert_eq!(code, 200, "{text}");
    text.lines()
        .find_map(|l| l.strip_prefix("ugolki_discord_thread_lookups_total "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no thread lookups counted: {text}"))
}

/// A game's thread is found from serenity's cache: a game of typed moves and `/move`, with
/// chatter in the channel and the thread between them, reads no channel from the store.
/// After a restart the archived thread is not in the cache (`GUILD_CREATE` sends active
/// threads only): the moves typed there cost one read between them, not one each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_thread_is_found_with_no_store_read_per_message() {
    let s = Server::new().await;
    s.fake.grant_intents(FakeDiscord::INTENT_MESSAGE_CONTENT);
    let metrics = ugolki_tests::free_addr();
    let env = [
        (CHILD_AT, s.fake.api_at().addr.to_string()),
        (CHILD_DB, sqlite_url(&temp_db("dc", "lookups"))),
        (CHILD_METRICS, metrics.to_string()),
    ];
    let bot = ChildBot::spawn("bot_in_a_child_process", &env);
    s.ready().await;
    let board = s.start_game("classic3x3", "none").await;
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    // Someone else in the server, who only chats.
    let carol = FakeDiscord::user(23, "carol");
    for round in 0..3 {
        s.play_random(board.channel, &mut game, 0x100c + round, 4)
            .await;
        for place in [FakeDiscord::CHANNEL_ID, board.channel] {
            s.fake.message_create(place, &carol, "what a game", &[]);
        }
    }
    assert_eq!(
        thread_lookups(metrics).await,
        0,
        "every channel from the cache"
    );
    bot.kill();
    s.fake.pass_minutes(10_080);
    let bot = ChildBot::spawn("bot_in_a_child_process", &env);
    let (code, why) = health_becomes(metrics, 200).await;
    assert_eq!(code, 200, "{why}");
    s.play_random(board.channel, &mut game, 0x200c, 6).await;
    let lookups = thread_lookups(metrics).await;
    assert!(lookups <= 1, "{lookups} reads for one thread");
    bot.kill();
}

/// Permissions taken from the bot in a channel: a command there is answered, to the one who
/// asked, with what is missing by name; nothing is posted. Elsewhere it plays as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_permissions_are_named_to_the_one_who_asked() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "permissions");
    s.ready().await;
    s.fake.deny_bot(
        FakeDiscord::CHANNEL_ID,
        FakeDiscord::ATTACH_FILES | FakeDiscord::CREATE_PUBLIC_THREADS,
    );
    let id = s.fake.slash_command(
        FakeDiscord::CHANNEL_ID,
        &s.alice,
        "challenge",
        &[("opponent", OptionValue::User(s.bob.clone()))],
        "en-US",
    );
    let said = s.private_answer(id).await;
    let want = english(&Msg::MissingPermissions {
        list: "Attach Files, Create Public Threads".into(),
    });
    assert!(said.contains(&want), "{said}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        s.fake
            .messages(FakeDiscord::CHANNEL_ID)
            .iter()
            .all(|m| m.ephemeral),
        "nothing posted: {:#?}",
        s.fake.messages(FakeDiscord::CHANNEL_ID)
    );
    bot.stop().await;
}

/// A user-installed `/challenge` in a server that never added the bot (its interaction is
/// authorized by the user's install only): the game is played on the interaction's own
/// message, as in a DM between users; nothing is posted to the channel, where the bot has
/// no access, and no permission is asked for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_installed_challenge_in_a_server_without_the_bot_plays_on_its_message() {
    let s = Server::new().await;
    let bot = RunningBot::start_in(&s.fake, "foreign", None, None);
    s.ready().await;
    s.fake.install_for_user(&s.alice);
    s.fake.install_for_user(&s.bob);
    let channel = s.fake.foreign_channel("elsewhere");
    let id = s.fake.slash_command(
        channel,
        &s.alice,
        "challenge",
        &[
            ("opponent", OptionValue::User(s.bob.clone())),
            ("variant", OptionValue::String("classic3x3".into())),
            ("time", OptionValue::String("none".into())),
            ("color", OptionValue::String("white".into())),
        ],
        "en-US",
    );
    let newest = |what: &'static str, f: Box<dyn Fn(&SentMessage) -> bool + Send + Sync>| {
        newest_in(&s.fake, channel, what, f)
    };
    let accept = english(&Msg::BtnAccept);
    let challenge = newest(
        "the challenge",
        Box::new(move |m: &SentMessage| !m.ephemeral && !m.loading && has_button(m, &accept)),
    )
    .await;
    assert_eq!(challenge.interaction, Some(id));
    s.press(&s.bob, &challenge, &english(&Msg::BtnAccept));
    let resign = english(&Msg::BtnResign);
    let at = challenge.id;
    let board = newest(
        "the board on the same message",
        Box::new(move |m: &SentMessage| {
            m.id == at && !m.attachments.is_empty() && has_button(m, &resign)
        }),
    )
    .await;
    // A move by buttons, on that message.
    s.press(&s.alice, &board, "c3");
    let back = english(&Msg::BtnBack);
    let picked = newest(
        "the destinations",
        Box::new(move |m: &SentMessage| m.id == at && has_button(m, &back)),
    )
    .await;
    s.press(&s.alice, &picked, "d3");
    let played = played_move("c3-d3");
    newest(
        "the move",
        Box::new(move |m: &SentMessage| m.id == at && says(m, &played)),
    )
    .await;
    // The bot never tried the channel itself.
    let tried: Vec<String> = s
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.route == "create_message" || c.route == "create_thread")
        .map(|c| c.route)
        .collect();
    assert!(tried.is_empty(), "{tried:?}");
    bot.stop().await;
}

/// The newest message in `channel` that satisfies `f`, waited for.
async fn newest_in(
    fake: &FakeDiscord,
    channel: u64,
    what: &str,
    f: Box<dyn Fn(&SentMessage) -> bool + Send + Sync>,
) -> SentMessage {
    let ok = fake
        .wait_until(WAIT, |x| x.messages(channel).iter().any(&f))
        .await;
    assert!(ok, "{what}: {:#?}", fake.messages(channel));
    fake.messages(channel)
        .into_iter()
        .rev()
        .find(|m| f(m))
        .expect("found")
}

/// A reply to a typed command is posted even if that message was deleted before the reply
/// went out (held here by a 429): Discord refuses a reply to a missing message unless it is
/// told to post it as a plain message then (`fail_if_not_exists: false`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_to_a_deleted_message_is_posted_all_the_same() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "deleted");
    s.ready().await;
    let board = s.start_game("classic3x3", "none").await;
    s.fake.fail_next(
        1,
        &["create_message"],
        Failure::TooManyRequests {
            retry_after_ms: 1000,
        },
    );
    let typed = s
        .fake
        .message_create(board.channel, &s.alice, "!rules damas", &[]);
    let held = s
        .fake
        .wait_until(WAIT, |f| {
            f.calls()
                .iter()
                .any(|c| c.failed && c.route == "create_message")
        })
        .await;
    assert!(held, "the reply's post was held by a 429");
    s.fake.delete_message(board.channel, typed);
    let rules = english(&Msg::RulesDamas { flying: true });
    let first = rules.lines().next().expect("a line");
    let posted = s.expect_text(first).await;
    assert_eq!(posted.channel, board.channel);
    bot.stop().await;
}

/// Issue 25, the Activity's sign-in: the page posts the code the Embedded App SDK's
/// `authorize` gave it; the server trades it with Discord (its client secret never leaves
/// the server) and seats the reader Discord names. That seat, sent back in a header (a
/// cookie in Discord's frame is a third party's), moves in the reader's game, and the
/// game's thread gets the move's board as for a typed move. A spent code, or no seat,
/// moves nothing.
// One story: the sign-in, its refusals, the launch, and a move from the frame.
#[allow(clippy::too_many_lines)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_activity_reader_signed_in_by_discord_moves_and_the_thread_gets_the_board() {
    use ugolki_tests::http;
    let s = Server::new().await;
    s.fake.grant_intents(FakeDiscord::INTENT_MESSAGE_CONTENT);
    s.fake.enable_activity();
    let addr = ugolki_tests::free_addr();
    let options = Options {
        message_content: true,
        web: Some(ugolki_bots::web::Pages::new(addr, None).expect("pages")),
        client_secret: Some(FakeDiscord::CLIENT_SECRET.into()),
        // Registered globally, beside the Activity's Entry Point, which stays.
        guild: None,
        ..options(&s.fake, "activity")
    };
    let bot = RunningBot::spawn(|stopped| run(options, stopped));
    s.ready().await;
    let commands = s.fake.commands();
    let launch = commands.iter().filter(|c| c.kind == 4).count();
    assert_eq!(launch, 1, "the Entry Point kept: {commands:#?}");
    let board = s.start_game("classic3x3", "none").await;
    // The board opens the Activity in its thread: the button answers LAUNCH_ACTIVITY.
    let open = english(&Msg::BtnOpenBoard);
    assert!(has_button(&board, &open), "{board:#?}");
    let pressed = s.press(&s.alice, &board, &open);
    let launched = s
        .fake
        .wait_until(WAIT, |f| {
            f.interaction(pressed)
                .is_some_and(|r| r.response_type == Some(12))
        })
        .await;
    assert!(launched, "{:#?}", s.fake.interaction(pressed));
    let json = ["Content-Type: application/json".to_string()];
    let sign_in = ugolki_bots::web::DISCORD_SIGN_IN;
    // Alice consents in the Activity; her page trades the code.
    let code = s.fake.authorize(&s.alice, &["identify"]);
    let body = format!(r#"{{"code":"{code}"}}"#);
    let (status, answer) = http(addr, "POST", sign_in, &json, &body, WAIT).await;
    assert_eq!(status, 200, "{answer}");
    assert!(!answer.contains(FakeDiscord::CLIENT_SECRET), "{answer}");
    let answer: serde_json::Value = serde_json::from_str(&answer).expect("JSON");
    let seat = answer["seat"].as_str().expect("a seat").to_string();
    assert!(answer["access_token"]
        .as_str()
        .is_some_and(|t| !t.is_empty()));
    // Good once: the same code again seats nobody.
    let (status, again) = http(addr, "POST", sign_in, &json, &body, WAIT).await;
    assert_eq!(status, 401, "{again}");
    let refused: serde_json::Value = serde_json::from_str(&again).expect("JSON");
    assert_eq!(refused["said"], english(&Msg::WebNotSeated));
    assert_eq!(s.fake.oauth_exchanges(), 2);
    // Without the seat a move is refused, and nothing is played.
    let game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mv = safe_moves(&game)[0].clone();
    let asked = format!(r#"{{"move":"{mv}","ply":0}}"#);
    let path = "/api/g/1/move";
    let (status, _) = http(addr, "POST", path, &json, &asked, WAIT).await;
    assert_eq!(status, 401);
    // With it, Alice's move is played, and her thread gets its board.
    let seated = [json[0].clone(), format!("X-Ugolki-Seat: {seat}")];
    let (status, done) = http(addr, "POST", path, &seated, &asked, WAIT).await;
    assert_eq!((status, done.as_str()), (200, r#"{"done":true}"#));
    let shown = s.expect_text(&played("alice", &mv)).await;
    assert_eq!(shown.channel, board.channel, "in the game's thread");
    // Bob signs in too; his seat knows him as Black.
    let code = s.fake.authorize(&s.bob, &["identify"]);
    let body = format!(r#"{{"code":"{code}"}}"#);
    let (status, answer) = http(addr, "POST", sign_in, &json, &body, WAIT).await;
    assert_eq!(status, 200, "{answer}");
    let answer: serde_json::Value = serde_json::from_str(&answer).expect("JSON");
    let bob_seat = answer["seat"].as_str().expect("a seat").to_string();
    let header = [format!("X-Ugolki-Seat: {bob_seat}")];
    let page = http(addr, "GET", "/app/g/1", &header, "", WAIT).await;
    assert_eq!(page.0, 200);
    assert!(page.1.contains(r#"data-me="black""#), "{}", page.1);
    // The Activity launched in the thread opens that thread's game: signed in first
    // inside the Discord client (which names the frame), else straight to the board; a
    // channel with no game is told to open one from its board.
    let thread = board.channel;
    let plain = format!("/app/discord?channel_id={thread}");
    let (status, _) = http(addr, "GET", &plain, &[], "", WAIT).await;
    assert_eq!(status, 303);
    let launch = format!("{plain}&frame_id=f1&instance_id=i1&platform=desktop");
    let (status, page) = http(addr, "GET", &launch, &[], "", WAIT).await;
    assert_eq!(status, 200);
    let client = format!(r#"data-client="{}""#, FakeDiscord::APP_ID);
    assert!(page.contains(&client), "{page}");
    assert!(!page.contains(FakeDiscord::CLIENT_SECRET));
    let elsewhere = format!("/app/discord?channel_id={}", FakeDiscord::OTHER_CHANNEL_ID);
    let (status, page) = http(addr, "GET", &elsewhere, &[], "", WAIT).await;
    assert_eq!(status, 404);
    assert!(page.contains(&english(&Msg::WebOpenFromChat)), "{page}");
    // In a browser, in the Activity's frame inside a page speaking the Discord client's
    // side: each player consents, the page trades the code and keeps the seat, and the
    // game is played on by clicks, the thread getting every board.
    if let Some(dir) = ugolki_tests::browser::browser() {
        let mut game = game;
        game.play_text(&mv).expect("legal");
        activity_game_by_clicks(&s, &format!("http://{addr}{launch}"), game, &dir).await;
    } else {
        eprintln!("the browser part skipped: no node, chromium or tests/browser/node_modules");
    }
    bot.stop().await;
}

/// Plies played in the Activity's frames, after the first (played through the API).
const ACTIVITY_PLIES: usize = 21;

/// Alice and Bob each open the Activity at `url` (launched in game 1's thread, where
/// `game` stands), signed in through the Discord client; they play [`ACTIVITY_PLIES`] by
/// clicks, each board reaching the thread, and Alice resigns on her page: the thread is
/// told, both pages show the end.
async fn activity_game_by_clicks(s: &Server, url: &str, mut game: Game, dir: &std::path::Path) {
    let mut b = ugolki_tests::browser::Browsers::start(dir);
    for (who, user, side) in [("alice", &s.alice, "white"), ("bob", &s.bob, "black")] {
        let code = s.fake.authorize(user, &["identify"]);
        let exchanges = s.fake.oauth_exchanges();
        let opened = b.ask(who, &format!("discord-open {url} {code}")).await;
        assert_eq!(opened, "/app/g/1", "{who}");
        assert_eq!(
            s.fake.oauth_exchanges(),
            exchanges + 1,
            "{who} traded a code"
        );
        // Seated by the header alone, the page learns its side (Black's board turned).
        let seated = format!("wait #board[data-me={side}]");
        assert_eq!(b.ask(who, &seated).await, "ok", "{who}");
    }
    let mut rng = Rng(0xd15c);
    for ply in 1..=ACTIVITY_PLIES {
        let (who, other) = if ply % 2 == 0 {
            ("alice", "bob")
        } else {
            ("bob", "alice")
        };
        let (mv, from, to) = ugolki_tests::e2e::clickable(&game, &mut rng);
        assert_eq!(b.ask(who, &format!("click {from}")).await, "ok");
        assert_eq!(b.ask(who, &format!("click {to}")).await, "ok");
        let shown = format!("ply {}", ply + 1);
        assert_eq!(b.ask(who, &format!("wait-ply {}", ply + 1)).await, shown);
        assert_eq!(b.ask(other, &format!("wait-ply {}", ply + 1)).await, shown);
        let board = s.expect_text(&played(who, &mv)).await;
        assert_ne!(
            board.channel,
            FakeDiscord::CHANNEL_ID,
            "in the game's thread"
        );
        game.play_text(&mv).expect("legal");
    }
    let resign = english(&Msg::BtnResign);
    assert_eq!(b.ask("alice", &format!("act {resign}")).await, "ok");
    s.expect_text(&english(&Msg::Resigned {
        id: 1,
        loser: "alice".into(),
        winner: "bob".into(),
    }))
    .await;
    for who in ["alice", "bob"] {
        assert_eq!(b.ask(who, "wait #acts:empty").await, "ok", "{who}");
    }
    b.close().await;
}
