//! What an operator runs into: health and metrics, a refused or reset token, shards,
//! command registration, missing permissions, and no store read per message.

use crate::harness::*;
use ugolki_core::words::render;

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
    let bot = ChildBot::spawn("operators::bot_in_a_child_process", &env);
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
    let bot = ChildBot::spawn("operators::bot_in_a_child_process", &env);
    let (code, why) = health_becomes(metrics, 200).await;
    assert_eq!(code, 200, "{why}");
    s.play_random(board.channel, &mut game, 0x200c, 6).await;
    let lookups = thread_lookups(metrics).await;
    assert!(lookups <= 1, "{lookups} reads for one thread");
    bot.kill();
}

/// Permissions taken from the bot in a channel: a command there is answered, to the one who
/// asked, with what is missing by name, in their language (their `/lang` over their
/// client's); nothing is posted. Elsewhere it plays as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_permissions_are_named_to_the_one_who_asked() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "permissions");
    s.ready().await;
    // Bob reads the bot in Portuguese (his client is in English).
    let pt = ugolki_core::words::Lang::from_tag("pt").expect("Portuguese");
    let id = s.fake.slash_command(
        FakeDiscord::CHANNEL_ID,
        &s.bob,
        "lang",
        &[("language", OptionValue::String("pt".into()))],
        "en-US",
    );
    let set = Msg::LangSet {
        whose: "you".into(),
        lang: Some(Box::new(Msg::LangName { code: "pt".into() })),
    };
    s.expect_text(&render(&set, pt)).await;
    assert!(s.fake.interaction(id).is_some(), "answered");
    let posted = |s: &Server| {
        let all = s.fake.messages(FakeDiscord::CHANNEL_ID);
        all.into_iter().filter(|m| !m.ephemeral).count()
    };
    let before = posted(&s);
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
    let id = s
        .fake
        .slash_command(FakeDiscord::CHANNEL_ID, &s.bob, "games", &[], "en-US");
    let said = s.private_answer(id).await;
    let names = [
        Msg::PermissionName {
            permission: "attach-files".into(),
        },
        Msg::PermissionName {
            permission: "create-public-threads".into(),
        },
    ]
    .map(|m| render(&m, pt))
    .join(", ");
    let want = render(&Msg::MissingPermissions { list: names }, pt);
    assert!(said.contains(&want), "{said}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        posted(&s) == before,
        "nothing posted: {:#?}",
        s.fake.messages(FakeDiscord::CHANNEL_ID)
    );
    bot.stop().await;
}
