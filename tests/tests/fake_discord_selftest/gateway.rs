//! The gateway: READY and the guild in serenity's cache, heartbeats, messages both ways,
//! threads and DMs (one test that also runs the REST steps of `rest.rs`), a dropped
//! connection resumed with the missed events replayed once, and message content only with
//! its intent, and two shards splitting the guild and the DMs.

use crate::harness::{alice, all_intents, connect, sent_in, Bot, SECOND, WAIT};
use crate::rest::{attachment_and_buttons, deletes_and_errors, nonces, rest_reads_and_edit};
use serenity::all::{ApplicationId, ChannelId, ChannelType, CreateThread, GatewayIntents, UserId};
use ugolki_tests::fake_discord::FakeDiscord;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gateway_messages_attachments_buttons_threads() {
    let fake = FakeDiscord::start().await;
    let bot = connect(&fake, all_intents()).await;

    ready_and_cache(&fake, &bot).await;
    let pong = say_and_echo(&fake, &bot).await;
    let board = attachment_and_buttons(&fake, &bot).await;
    rest_reads_and_edit(&fake, &bot, board).await;
    threads(&fake, &bot).await;
    direct_messages(&fake, &bot).await;
    nonces(&fake, &bot).await;
    deletes_and_errors(&fake, &bot, pong).await;
    bot.stop().await;
}

async fn ready_and_cache(fake: &FakeDiscord, bot: &Bot) {
    // The gateway: `?v=10`, one IDENTIFY with the client's intents; READY and the guild.
    assert_eq!(fake.gateway_query(), "v=10");
    assert_eq!(fake.identify_count(), 1);
    assert_eq!(fake.intents(), Some(all_intents().bits()));
    {
        let seen = bot.seen();
        assert_eq!(seen.ready[0].0, FakeDiscord::BOT_ID);
        assert_eq!(seen.ready[0].1, Some(1));
        assert_eq!(seen.guilds, vec![(FakeDiscord::GUILD_ID, 2, true)]);
    }
    // serenity's cache took the guild, and the application id came from READY.
    let guild = bot
        .cache
        .guild(FakeDiscord::GUILD_ID)
        .expect("the guild in the cache")
        .clone();
    assert_eq!(guild.name, FakeDiscord::GUILD_NAME);
    assert!(guild
        .channels
        .contains_key(&ChannelId::new(FakeDiscord::CHANNEL_ID)));
    assert_eq!(guild.roles.len(), 2);
    assert_eq!(bot.cache.current_user().id.get(), FakeDiscord::BOT_ID);
    assert_eq!(
        bot.http.application_id().map(ApplicationId::get),
        Some(FakeDiscord::APP_ID)
    );
    assert!(
        bot.wait_seen(fake, |s| s.events.contains(&format!(
            "CACHE_READY [GuildId({})]",
            FakeDiscord::GUILD_ID
        )))
        .await
    );
    // Heartbeats (every second here) are acknowledged.
    assert!(
        fake.wait_until(3 * SECOND, |f| f.heartbeat_count() >= 1)
            .await
    );
}

async fn say_and_echo(fake: &FakeDiscord, bot: &Bot) -> u64 {
    // A message reaches the handler; `ChannelId::say` answers it.
    let alice = alice();
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "!say", &[]);
    assert!(
        fake.wait_until(WAIT, |f| f.messages(FakeDiscord::CHANNEL_ID).len() == 1)
            .await
    );
    let pong = fake.messages(FakeDiscord::CHANNEL_ID).remove(0);
    assert_eq!(pong.content, "pong");
    assert!(!pong.ephemeral && pong.attachments.is_empty() && pong.components.is_empty());
    {
        let seen = bot.seen();
        let (channel, content, bot_author, guild) = &seen.messages[0];
        assert_eq!(
            (*channel, content.as_str(), *bot_author, *guild),
            (
                FakeDiscord::CHANNEL_ID,
                "!say",
                false,
                Some(FakeDiscord::GUILD_ID)
            )
        );
    }
    // The bot's own message comes back as MESSAGE_CREATE, as on Discord.
    assert!(
        bot.wait_seen(fake, |s| s.messages.iter().any(|m| m.1 == "pong" && m.2))
            .await
    );
    pong.id
}

async fn threads(fake: &FakeDiscord, bot: &Bot) {
    let (alice, channel) = (alice(), ChannelId::new(FakeDiscord::CHANNEL_ID));
    // A thread from the user's message (it gets the message's id), and a message in it.
    let start = fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "!thread", &[]);
    assert!(bot.wait_seen(fake, |s| sent_in(s, "thread")).await);
    let threads = fake.threads();
    assert_eq!(threads.len(), 1);
    assert_eq!(
        (threads[0].id, threads[0].parent, threads[0].name.as_str()),
        (start, FakeDiscord::CHANNEL_ID, "Game 1")
    );
    assert_eq!(threads[0].starter, Some(start));
    let in_thread = fake.messages(threads[0].id);
    assert_eq!(in_thread.len(), 1);
    assert_eq!(in_thread[0].content, "Game started");
    assert_eq!(bot.seen().threads, vec![start]);
    let created = format!("THREAD_CREATE {start}");
    assert!(bot.wait_seen(fake, |s| s.events.contains(&created)).await);
    let cached = bot
        .cache
        .guild(FakeDiscord::GUILD_ID)
        .map(|g| g.threads.len());
    assert_eq!(cached, Some(1));
    // A user writes in the thread: the event has the guild.
    fake.message_create(threads[0].id, &alice, "gg", &[]);
    assert!(
        bot.wait_seen(fake, |s| s.messages.iter().any(|m| m.1 == "gg"
            && m.0 == start
            && m.3 == Some(FakeDiscord::GUILD_ID)))
            .await
    );
    // A reply to the thread's starter (its `referenced_message` carries the `thread`).
    fake.message_reply(FakeDiscord::CHANNEL_ID, &alice, "nice", start);
    assert!(
        bot.wait_seen(fake, |s| s.messages.iter().any(|m| m.1 == "nice"))
            .await
    );
    // A thread without a message.
    let lobby = channel
        .create_thread(
            &bot.http,
            CreateThread::new("Lobby").kind(ChannelType::PublicThread),
        )
        .await
        .expect("create_thread");
    assert_eq!(lobby.kind, ChannelType::PublicThread);
    assert_eq!(fake.threads().len(), 2);
}

async fn direct_messages(fake: &FakeDiscord, bot: &Bot) {
    let alice = alice();
    // A DM channel, and a message in it.
    let dm = UserId::new(alice.id)
        .create_dm_channel(&bot.http)
        .await
        .expect("create_dm_channel");
    assert_eq!(dm.recipient.id.get(), alice.id);
    dm.id.say(&bot.http, "hello in private").await.expect("DM");
    assert_eq!(fake.dm_channel(&alice), dm.id.get());
    assert_eq!(fake.messages(dm.id.get())[0].content, "hello in private");
    fake.message_create(dm.id.get(), &alice, "hi bot", &[]);
    assert!(
        bot.wait_seen(fake, |s| s
            .messages
            .iter()
            .any(|m| m.1 == "hi bot" && m.3.is_none()))
            .await
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disconnect_resumes_and_replays_once() {
    let fake = FakeDiscord::start().await;
    let bot = connect(&fake, all_intents()).await;
    let alice = alice();
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "before", &[]);
    assert!(
        bot.wait_seen(&fake, |s| s.messages.iter().any(|m| m.1 == "before"))
            .await
    );

    assert!(fake.disconnect());
    assert!(!fake.connected());
    // Dispatched while the shard is away: kept and replayed on RESUME.
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "while away", &[]);
    assert!(
        fake.wait_until(WAIT, |f| f.resume_count() == 1 && f.connected())
            .await
    );
    assert!(bot.wait_seen(&fake, |s| s.resumed == 1).await);
    assert!(
        bot.wait_seen(&fake, |s| s.messages.iter().any(|m| m.1 == "while away"))
            .await
    );
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "after", &[]);
    assert!(
        bot.wait_seen(&fake, |s| s.messages.iter().any(|m| m.1 == "after"))
            .await
    );
    // A few heartbeats later: each message arrived exactly once, and no new IDENTIFY.
    let beats = fake.heartbeat_count();
    assert!(
        fake.wait_until(3 * SECOND, |f| f.heartbeat_count() >= beats + 2)
            .await
    );
    {
        let seen = bot.seen();
        for text in ["before", "while away", "after"] {
            let n = seen.messages.iter().filter(|m| m.1 == text).count();
            assert_eq!(n, 1, "{text}");
        }
        assert_eq!(seen.ready.len(), 1);
    }
    assert_eq!((fake.identify_count(), fake.resume_count()), (1, 1));
    assert_eq!(fake.invalid_session_count(), 0);

    // A second disconnection resumes again.
    assert!(fake.disconnect());
    assert!(
        fake.wait_until(WAIT, |f| f.resume_count() == 2 && f.connected())
            .await
    );
    assert_eq!(fake.identify_count(), 1);

    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn message_content_needs_the_intent() {
    let fake = FakeDiscord::start().await;
    let intents = GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES;
    let bot = connect(&fake, intents).await;
    let alice = alice();
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "secret", &[]);
    let mention = format!("<@{}> play", FakeDiscord::BOT_ID);
    fake.message_create(
        FakeDiscord::CHANNEL_ID,
        &alice,
        &mention,
        &[&FakeDiscord::bot_user()],
    );
    assert!(bot.wait_seen(&fake, |s| s.messages.len() == 2).await);
    // serenity runs each event's handler in a task of its own: the order may differ.
    let mut contents: Vec<String> = bot.seen().messages.iter().map(|m| m.1.clone()).collect();
    contents.sort();
    assert_eq!(contents, vec![String::new(), mention]);
    // Without DIRECT_MESSAGES, DMs do not arrive at all.
    let dm = fake.dm_channel(&alice);
    fake.message_create(dm, &alice, "psst", &[]);
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "last", &[]);
    assert!(bot.wait_seen(&fake, |s| s.messages.len() == 3).await);
    assert!(bot.seen().messages.iter().all(|m| m.0 != dm));
    bot.stop().await;
}

/// A privileged intent the application does not have switched on (Discord's default for
/// `MESSAGE_CONTENT`): the gateway closes with 4014, which serenity reports as
/// `DisallowedGatewayIntents`; once switched on, the same client connects.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_privileged_intent_not_switched_on_is_closed_with_4014() {
    use serenity::all::{ClientBuilder, GatewayError, HttpBuilder};
    let fake = FakeDiscord::start().await;
    let http = HttpBuilder::new(FakeDiscord::TOKEN)
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    let mut client: serenity::Client = ClientBuilder::new_with_http(http, all_intents())
        .await
        .expect("the client");
    let ended = tokio::time::timeout(WAIT, client.start())
        .await
        .expect("the start ends");
    assert!(
        matches!(
            ended,
            Err(serenity::Error::Gateway(
                GatewayError::DisallowedGatewayIntents
            ))
        ),
        "{ended:?}"
    );
    assert_eq!(fake.refused_identifies(), [4014]);
    assert_eq!(fake.identify_count(), 0);
    // Switched on in the portal: READY says so in the application's flags.
    let bot = connect(&fake, all_intents()).await;
    let flags = fake
        .events()
        .iter()
        .find(|(name, _)| name == "READY")
        .map(|(_, d)| d["application"]["flags"].as_u64().unwrap_or(0))
        .expect("READY");
    assert_ne!(flags & (1 << 19), 0, "GATEWAY_MESSAGE_CONTENT_LIMITED");
    bot.stop().await;
}

/// Two shards, as `GET /gateway/bot` recommends: serenity's autosharded client identifies
/// `[0, 2]` and `[1, 2]`; each shard gets its own READY, the guild's `GUILD_CREATE` and
/// messages come on its shard (`(guild_id >> 22) % 2`, 1 here) and DMs on shard 0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_shards_split_the_guild_and_the_dms() {
    use crate::handler::Handler;
    use serenity::all::ClientBuilder;
    let fake = FakeDiscord::start().await;
    fake.set_shard_count(2);
    fake.grant_intents(FakeDiscord::INTENT_MESSAGE_CONTENT);
    let handler = Handler::default();
    let seen = std::sync::Arc::clone(&handler.seen);
    let mut client = ClientBuilder::new_with_http(fake.http(FakeDiscord::TOKEN), all_intents())
        .event_handler(handler)
        .await
        .expect("the client");
    let bot = Bot {
        http: std::sync::Arc::clone(&client.http),
        cache: std::sync::Arc::clone(&client.cache),
        shards: std::sync::Arc::clone(&client.shard_manager),
        task: tokio::spawn(async move { client.start_autosharded().await }),
        seen,
    };
    // serenity starts shards 5 s apart (`max_concurrency` 1).
    let both = fake
        .wait_until(2 * WAIT, |f| f.identified_shards().len() == 2)
        .await;
    assert!(both, "{:?}", fake.identified_shards());
    let mut identified = fake.identified_shards();
    identified.sort_unstable();
    assert_eq!(identified, [[0, 2], [1, 2]]);
    assert!(
        bot.wait_seen(&fake, |s| s.ready.len() == 2 && s.guilds.len() == 1)
            .await
    );
    let alice = alice();
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "in the guild", &[]);
    let dm = fake.dm_channel(&alice);
    fake.message_create(dm, &alice, "in a DM", &[]);
    let guild_on = format!("MESSAGE {}", FakeDiscord::CHANNEL_ID);
    let dm_on = format!("MESSAGE {dm}");
    assert!(
        bot.wait_seen(&fake, |s| {
            s.shard_of.iter().any(|(e, _)| *e == guild_on)
                && s.shard_of.iter().any(|(e, _)| *e == dm_on)
        })
        .await
    );
    let seen = bot.seen().shard_of.clone();
    let on = |event: &str| -> Vec<u32> {
        seen.iter()
            .filter(|(e, _)| e == event)
            .map(|(_, shard)| *shard)
            .collect()
    };
    let mut ready = on("READY");
    ready.sort_unstable();
    assert_eq!(ready, [0, 1]);
    assert_eq!(on("GUILD_CREATE"), [1]);
    assert_eq!(on(&guild_on), [1]);
    assert_eq!(on(&dm_on), [0]);
    bot.stop().await;
}
