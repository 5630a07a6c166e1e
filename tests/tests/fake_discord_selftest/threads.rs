//! Threads as serenity's cache sees them: the bot's thread and a user's (`THREAD_CREATE`),
//! archived after their duration and unarchived by a message (`THREAD_UPDATE`), an archived
//! thread refusing edits, and a new connection's `GUILD_CREATE` with only active threads;
//! and the bot's lookup of a channel's chat (`ugolki_bots::discord::thread_chat`) on it.

use crate::harness::{alice, all_intents, connect, discord_code, Bot, WAIT};
use serenity::all::{
    AutoArchiveDuration, ChannelId, ChannelType, CreateThread, EditMessage, GuildId,
};
use ugolki_bots::discord::thread_chat;
use ugolki_tests::fake_discord::FakeDiscord;

/// Whether serenity's cache holds `thread` and it is archived (`None`: not held).
fn archived(bot: &Bot, thread: ChannelId) -> Option<bool> {
    let guild = bot.cache.guild(GuildId::new(FakeDiscord::GUILD_ID))?;
    let t = guild.threads.iter().find(|t| t.id == thread)?;
    Some(t.thread_metadata.is_some_and(|m| m.archived))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn threads_archive_after_their_duration_and_the_cache_follows() {
    let fake = FakeDiscord::start().await;
    let bot = connect(&fake, all_intents()).await;
    let guild = GuildId::new(FakeDiscord::GUILD_ID);
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    let thread = channel
        .create_thread(
            &bot.http,
            CreateThread::new("a game")
                .kind(ChannelType::PublicThread)
                .auto_archive_duration(AutoArchiveDuration::OneHour),
        )
        .await
        .expect("a thread");
    let mine = thread.id;
    let theirs = ChannelId::new(fake.user_thread(FakeDiscord::CHANNEL_ID, &alice(), "chat"));
    let cached = fake
        .wait_until(WAIT, |_| {
            archived(&bot, mine).is_some() && archived(&bot, theirs).is_some()
        })
        .await;
    assert!(cached, "THREAD_CREATE reached the cache");
    // The bot's thread is in its channel's chat; a user's thread and a channel are their own.
    assert_eq!(thread_chat(&bot.cache, guild, mine), Some(channel));
    assert_eq!(thread_chat(&bot.cache, guild, theirs), Some(theirs));
    assert_eq!(thread_chat(&bot.cache, guild, channel), Some(channel));
    assert_eq!(
        thread_chat(&bot.cache, guild, ChannelId::new(424_242)),
        None
    );

    let board = mine.say(&bot.http, "board").await.expect("posted");
    // An hour without a message: archived, and serenity is told.
    fake.pass_minutes(59);
    assert_eq!(archived(&bot, mine), Some(false));
    fake.pass_minutes(1);
    assert!(
        fake.wait_until(WAIT, |_| archived(&bot, mine) == Some(true))
            .await,
        "THREAD_UPDATE archived"
    );
    assert_eq!(thread_chat(&bot.cache, guild, mine), Some(channel));
    let edit = mine
        .edit_message(&bot.http, board.id, EditMessage::new().content("edited"))
        .await;
    assert_eq!(discord_code(&edit.expect_err("archived")), Some(50_083));
    // A new connection's GUILD_CREATE holds only the active threads.
    let second = connect(&fake, all_intents()).await;
    assert_eq!(archived(&second, mine), None, "archived: not sent");
    assert_eq!(
        thread_chat(&second.cache, guild, mine),
        None,
        "the store must say"
    );
    // The user's thread archives after a day: still active, still sent.
    assert_eq!(archived(&second, theirs), Some(false));
    assert_eq!(thread_chat(&second.cache, guild, theirs), Some(theirs));
    second.stop().await;
    // A message unarchives it.
    mine.say(&bot.http, "a move").await.expect("posted");
    assert!(
        fake.wait_until(WAIT, |_| archived(&bot, mine) == Some(false))
            .await,
        "THREAD_UPDATE unarchived"
    );
    mine.edit_message(&bot.http, board.id, EditMessage::new().content("edited"))
        .await
        .expect("an active thread takes edits");
    bot.stop().await;
}
