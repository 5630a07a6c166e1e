//! REST, step by step within the gateway test: a message with a PNG attachment and
//! buttons (a multipart upload), reads into serenity's models, edits that drop buttons and
//! replace or add files, deletes, a channel added later, a create repeated with its
//! enforced nonce, and Discord's own checks.

use crate::harness::{alice, discord_code, png, raw_get, sent, sent_in, Bot};
use serde_json::json;
use serenity::all::{
    AttachmentId, ChannelId, CreateActionRow, CreateAttachment, CreateButton, CreateMessage,
    EditMessage, GuildId, MessageId, Nonce,
};
use ugolki_tests::fake_discord::FakeDiscord;

pub async fn attachment_and_buttons(fake: &FakeDiscord, bot: &Bot) -> u64 {
    let alice = alice();
    // A message with a PNG attachment and two buttons (multipart upload).
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "!board", &[]);
    assert!(bot.wait_seen(fake, |s| sent_in(s, "board")).await);
    let (_, board_id) = sent(bot, "board").expect("the board");
    let board = fake
        .message(FakeDiscord::CHANNEL_ID, board_id)
        .expect("the board message");
    assert_eq!(board.content, "Your move");
    assert_eq!(board.attachments.len(), 1);
    assert_eq!(board.attachments[0].filename, "board.png");
    assert_eq!(board.attachments[0].content_type, "image/png");
    assert_eq!(board.attachments[0].bytes, png(3, 2));
    assert_eq!(board.json["attachments"][0]["width"], json!(3));
    assert_eq!(
        board.components,
        vec![vec![
            ("A1".to_owned(), "move:a1".to_owned()),
            ("Resign".to_owned(), "resign".to_owned())
        ]]
    );
    let upload = fake
        .calls()
        .into_iter()
        .find(|c| c.route == "create_message" && !c.files.is_empty())
        .expect("the multipart call");
    assert_eq!(
        upload.files,
        vec![("board.png".to_owned(), png(3, 2).len())]
    );
    assert_eq!(upload.body["attachments"][0]["id"], json!(0));
    // The attachment's URL serves the bytes.
    let url = board.json["attachments"][0]["url"].as_str().expect("url");
    let path = url.strip_prefix(&fake.api_base()).expect("on the fake");
    let (status, _, bytes) = raw_get(fake, path, false).await;
    assert_eq!((status, bytes), (200, png(3, 2)));
    board_id
}

pub async fn rest_reads_and_edit(fake: &FakeDiscord, bot: &Bot, board_id: u64) {
    // REST reads deserialize into serenity's models.
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    let fetched = bot
        .http
        .get_message(channel, MessageId::new(board_id))
        .await
        .expect("get_message");
    assert_eq!(fetched.attachments[0].dimensions(), Some((3, 2)));
    assert_eq!(fetched.components[0].components.len(), 2);
    let general = bot.http.get_channel(channel).await.expect("get_channel");
    assert_eq!(general.guild().map(|c| c.name), Some("general".to_owned()));
    let partial = bot
        .http
        .get_guild(GuildId::new(FakeDiscord::GUILD_ID))
        .await
        .expect("get_guild");
    assert_eq!(partial.owner_id.get(), FakeDiscord::OWNER_ID);
    let me = bot.http.get_current_user().await.expect("get_current_user");
    assert!(me.bot && me.discriminator.is_none());
    let app = bot
        .http
        .get_current_application_info()
        .await
        .expect("application");
    assert_eq!(app.id.get(), FakeDiscord::APP_ID);
    assert_eq!(app.owner.map(|o| o.id.get()), Some(FakeDiscord::OWNER_ID));
    let gateway = bot.http.get_bot_gateway().await.expect("gateway/bot");
    assert_eq!((gateway.url, gateway.shards), (fake.gateway_url(), 1));

    // An edit with `components: []` removes the buttons; the attachment stays.
    let edited = channel
        .edit_message(
            &bot.http,
            MessageId::new(board_id),
            EditMessage::new().content("Game over").components(vec![]),
        )
        .await
        .expect("edit");
    assert!(edited.components.is_empty() && edited.edited_timestamp.is_some());
    let board = fake
        .message(FakeDiscord::CHANNEL_ID, board_id)
        .expect("the board message");
    assert_eq!(
        (board.content.as_str(), board.edits, board.attachments.len()),
        ("Game over", 1, 1)
    );
    assert!(board.components.is_empty());
    let update = format!("MESSAGE_UPDATE {board_id} Game over");
    assert!(bot.wait_seen(fake, |s| s.events.contains(&update)).await);

    // A new image in place of the old one (a multipart PATCH whose `attachments` names only
    // the new file), then a second file next to the kept one.
    let old = board.attachments[0].id;
    let replaced = channel
        .edit_message(
            &bot.http,
            MessageId::new(board_id),
            EditMessage::new().new_attachment(CreateAttachment::bytes(png(4, 4), "board.png")),
        )
        .await
        .expect("a new image");
    assert_eq!(replaced.attachments.len(), 1);
    assert_ne!(replaced.attachments[0].id.get(), old);
    let board = fake
        .message(FakeDiscord::CHANNEL_ID, board_id)
        .expect("the board message");
    assert_eq!(board.attachments[0].bytes, png(4, 4));
    assert_eq!(board.content, "Game over");
    let two = channel
        .edit_message(
            &bot.http,
            MessageId::new(board_id),
            EditMessage::new()
                .keep_existing_attachment(AttachmentId::new(board.attachments[0].id))
                .new_attachment(CreateAttachment::bytes(png(1, 1), "extra.png")),
        )
        .await
        .expect("two files");
    let names: Vec<&str> = two
        .attachments
        .iter()
        .map(|a| a.filename.as_str())
        .collect();
    assert_eq!(names, ["board.png", "extra.png"]);
    let board = fake
        .message(FakeDiscord::CHANNEL_ID, board_id)
        .expect("the board message");
    assert_eq!(board.attachments[1].bytes, png(1, 1));
    assert_eq!(board.edits, 3);
}

pub async fn deletes_and_errors(fake: &FakeDiscord, bot: &Bot, pong: u64) {
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    // A deleted message is gone.
    channel
        .delete_message(&bot.http, MessageId::new(pong))
        .await
        .expect("delete");
    assert!(fake.message(FakeDiscord::CHANNEL_ID, pong).is_none());
    let deleted = format!("MESSAGE_DELETE {pong}");
    assert!(bot.wait_seen(fake, |s| s.events.contains(&deleted)).await);

    // A channel added later arrives as CHANNEL_CREATE and lands in the cache.
    let lobby_channel = fake.add_text_channel("lobby");
    assert!(
        bot.wait_seen(fake, |s| s
            .events
            .iter()
            .any(|e| e == "CHANNEL_CREATE lobby"))
            .await
    );
    let cached = bot
        .cache
        .guild(FakeDiscord::GUILD_ID)
        .is_some_and(|g| g.channels.contains_key(&ChannelId::new(lobby_channel)));
    assert!(cached);

    // Discord's checks answer like Discord.
    let too_long = channel.say(&bot.http, "x".repeat(2001)).await;
    assert!(too_long.is_err(), "serenity itself refuses 2001 characters");
    let empty = bot
        .http
        .send_message(channel, Vec::new(), &json!({"content": ""}))
        .await
        .expect_err("empty");
    assert_eq!(discord_code(&empty), Some(50_006));
    let duplicate = CreateActionRow::Buttons(vec![
        CreateButton::new("x").label("1"),
        CreateButton::new("x").label("2"),
    ]);
    let err = channel
        .send_message(
            &bot.http,
            CreateMessage::new()
                .content("dup")
                .components(vec![duplicate]),
        )
        .await
        .expect_err("duplicate custom ids");
    assert_eq!(discord_code(&err), Some(50_035));
}

pub async fn nonces(fake: &FakeDiscord, bot: &Bot) {
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    let before = fake.messages(FakeDiscord::CHANNEL_ID).len();
    let create = |nonce: &str, enforce: bool| {
        CreateMessage::new()
            .content("once")
            .nonce(Nonce::String(nonce.to_owned()))
            .enforce_nonce(enforce)
    };
    // The same create twice with an enforced nonce: one message, the same one both times.
    let first = channel
        .send_message(&bot.http, create("ugolki41", true))
        .await
        .expect("first");
    let again = channel
        .send_message(&bot.http, create("ugolki41", true))
        .await
        .expect("repeated");
    assert_eq!(first.id, again.id);
    assert_eq!(fake.messages(FakeDiscord::CHANNEL_ID).len(), before + 1);
    // Another nonce, or one not enforced, is another message.
    let other = channel
        .send_message(&bot.http, create("ugolki42", true))
        .await
        .expect("another nonce");
    let loose = channel
        .send_message(&bot.http, create("ugolki41", false))
        .await
        .expect("not enforced");
    assert!(other.id != first.id && loose.id != first.id && loose.id != other.id);
    assert_eq!(fake.messages(FakeDiscord::CHANNEL_ID).len(), before + 3);
    // Discord's limit: a string nonce of at most 25 characters.
    let long = channel
        .send_message(&bot.http, create(&"n".repeat(26), true))
        .await
        .expect_err("a nonce over 25 characters");
    assert_eq!(discord_code(&long), Some(50_035));
}
