//! The fake Telegram Bot API server, driven by a real teloxide `Bot`.

use std::time::{Duration, Instant};

use serde_json::json;
use teloxide::prelude::*;
use teloxide::types::{
    BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, InputFile, InputMedia, InputMediaPhoto,
    MaybeInaccessibleMessage, MessageEntityKind, MessageId, ReplyParameters, UpdateKind,
};
use teloxide::{ApiError, RequestError};
use ugolki_tests::fake_telegram::{Failure, FakeTelegram};

fn bot(fake: &FakeTelegram) -> Bot {
    let url = fake.api_url().parse().expect("a valid URL");
    Bot::new(FakeTelegram::TOKEN).set_api_url(url)
}

/// A small valid RGB PNG, `width` x `height`, every pixel `rgb`.
fn png(width: u32, height: u32, rgb: [u8; 3]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("PNG header");
    let pixels: Vec<u8> = (0..width * height).flat_map(|_| rgb).collect();
    writer.write_image_data(&pixels).expect("PNG data");
    writer.finish().expect("PNG end");
    out
}

/// Decode a PNG: width, height and the first pixel.
fn decode(bytes: &[u8]) -> (u32, u32, [u8; 3]) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("PNG info");
    let mut buf = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut buf).expect("PNG frame");
    (info.width, info.height, [buf[0], buf[1], buf[2]])
}

fn keyboard(rows: &[&[(&str, &str)]]) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new(rows.iter().map(|row| {
        row.iter()
            .map(|(text, data)| InlineKeyboardButton::callback(*text, *data))
            .collect::<Vec<_>>()
    }))
}

fn buttons(rows: &[&[(&str, &str)]]) -> Vec<Vec<(String, String)>> {
    rows.iter()
        .map(|row| {
            row.iter()
                .map(|(t, d)| ((*t).to_owned(), (*d).to_owned()))
                .collect()
        })
        .collect()
}

const SECOND: Duration = Duration::from_secs(1);

#[tokio::test]
async fn get_me_and_long_polling() {
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);

    let me = bot.get_me().await.expect("getMe");
    assert!(me.user.is_bot);
    assert_eq!(me.username(), FakeTelegram::BOT_USERNAME);
    assert_eq!(me.user.id.0, FakeTelegram::BOT_ID as u64);
    assert!(me.can_join_groups);
    assert!(!me.can_read_all_group_messages);
    assert!(me.supports_inline_queries, "inline mode is on in the fake");

    // Nothing pending: a long poll waits min(timeout, 2 s), then answers [].
    let started = Instant::now();
    let none = bot.get_updates().timeout(1).await.expect("getUpdates");
    assert!(none.is_empty());
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(900) && waited < 2 * SECOND,
        "{waited:?}"
    );

    // A long poll returns as soon as an update is injected. Plain text in groups is what
    // this checks: privacy mode off (see its own test).
    fake.set_privacy(false);
    let group = FakeTelegram::group(-100, "Corners club");
    let alice = FakeTelegram::user(7, "Alice", Some("alice"), Some("en"));
    let poll = tokio::spawn({
        let bot = bot.clone();
        async move {
            let started = Instant::now();
            let updates = bot.get_updates().timeout(10).await.expect("getUpdates");
            (updates, started.elapsed())
        }
    });
    assert!(
        fake.wait_until(SECOND, |f| f
            .calls()
            .iter()
            .filter(|c| c.method == "getupdates")
            .count()
            == 2)
            .await
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    let text = "/challenge@ugolki_test_bot @bob";
    let id = fake.send_text(&group, &alice, text);
    assert_eq!(id, 1);
    let (updates, waited) = poll.await.expect("the poll task");
    assert!(waited < 2 * SECOND, "{waited:?}");
    assert_eq!(updates.len(), 1);
    assert_eq!(updates[0].id.0, 1);
    let UpdateKind::Message(message) = &updates[0].kind else {
        panic!("{:?}", updates[0].kind)
    };
    assert_eq!(message.id, MessageId(1));
    assert_eq!(message.chat.id, ChatId(-100));
    assert_eq!(message.chat.title(), Some("Corners club"));
    assert_eq!(message.text(), Some(text));
    let from = message.from.as_ref().expect("from");
    assert_eq!((from.id.0, from.username.as_deref()), (7, Some("alice")));
    assert_eq!(from.language_code.as_deref(), Some("en"));
    let entities = message.entities().expect("entities");
    assert_eq!(entities.len(), 2);
    assert_eq!(entities[0].kind, MessageEntityKind::BotCommand);
    assert_eq!((entities[0].offset, entities[0].length), (0, 26));
    assert_eq!(entities[1].kind, MessageEntityKind::Mention);
    assert_eq!((entities[1].offset, entities[1].length), (27, 4));
    let parsed = message.parse_entities().expect("entities");
    assert_eq!(parsed[0].text(), "/challenge@ugolki_test_bot");
    assert_eq!(parsed[1].text(), "@bob");

    // Without an offset the update stays; an offset confirms it.
    assert_eq!(fake.pending_updates(), 1);
    assert_eq!(bot.get_updates().await.expect("getUpdates").len(), 1);
    let second = fake.send_text(&group, &alice, "hi");
    assert_eq!(second, 2);
    let updates = bot.get_updates().offset(2).await.expect("getUpdates");
    assert_eq!(updates.len(), 1);
    assert_eq!(updates[0].id.0, 2);
    assert_eq!(fake.pending_updates(), 1);
    let updates = bot.get_updates().offset(3).await.expect("getUpdates");
    assert!(updates.is_empty());
    assert_eq!(fake.pending_updates(), 0);

    // Method names arrive capitalised and are recorded in lower case, with their params.
    let calls = fake.calls();
    assert_eq!(calls[0].method, "getme");
    assert_eq!(calls.last().expect("calls").params["offset"], json!(3));
    assert!(calls.iter().all(|c| !c.failed && c.error.is_none()));
}

#[tokio::test]
async fn messages_keyboards_replies_and_callbacks() {
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    let group = FakeTelegram::group(-200, "Damas");
    let alice = FakeTelegram::user(7, "Alice", Some("alice"), None);
    let bob = FakeTelegram::user(8, "Bob", None, Some("ru"));

    // Sending to a chat nobody wrote in: "chat not found", as Telegram does.
    let err = bot
        .send_message(ChatId(-200), "hello")
        .await
        .expect_err("unknown chat");
    assert!(
        matches!(err, RequestError::Api(ApiError::ChatNotFound)),
        "{err:?}"
    );

    let asked = fake.send_text(&group, &alice, "/new");
    let rows: &[&[(&str, &str)]] = &[&[("Accept", "accept:1"), ("Decline", "decline:1")]];
    let sent = bot
        .send_message(ChatId(-200), "Alice challenges you")
        .reply_markup(keyboard(rows))
        .reply_parameters(ReplyParameters::new(MessageId(asked as i32)))
        .await
        .expect("sendMessage");
    assert_eq!(
        sent.id,
        MessageId(2),
        "message ids are shared with the users' messages"
    );
    assert_eq!(sent.text(), Some("Alice challenges you"));
    assert_eq!(sent.from.as_ref().map(|u| u.is_bot), Some(true));
    assert_eq!(sent.reply_to_message().map(|m| m.id), Some(MessageId(1)));
    assert_eq!(sent.reply_markup(), Some(&keyboard(rows)));

    let messages = fake.messages(-200);
    assert_eq!(messages.len(), 1, "only the bot's messages");
    assert_eq!(messages[0].id, 2);
    assert_eq!(messages[0].text.as_deref(), Some("Alice challenges you"));
    assert_eq!(messages[0].buttons, buttons(rows));
    assert_eq!(messages[0].reply_to, Some(1));
    assert_eq!(messages[0].edits, 0);

    // A reply to the bot's message carries it in full.
    let reply = fake.reply_text(&group, &bob, "ok", 2);
    assert_eq!(reply, 3);
    // A button press: a callback query with the data and the message.
    let query_id = fake.press(&group, &bob, 2, "accept:1");
    let updates = bot.get_updates().await.expect("getUpdates");
    assert_eq!(updates.len(), 3);
    let UpdateKind::Message(replied) = &updates[1].kind else {
        panic!("{:?}", updates[1].kind)
    };
    let original = replied.reply_to_message().expect("reply_to_message");
    assert_eq!(original.id, MessageId(2));
    assert_eq!(original.text(), Some("Alice challenges you"));
    assert_eq!(
        original.from.as_ref().map(|u| u.username.as_deref()),
        Some(Some("ugolki_test_bot"))
    );
    let UpdateKind::CallbackQuery(query) = &updates[2].kind else {
        panic!("{:?}", updates[2].kind)
    };
    assert_eq!(query.id.0, query_id);
    assert_eq!(query.data.as_deref(), Some("accept:1"));
    assert_eq!(query.from.id.0, 8);
    let Some(MaybeInaccessibleMessage::Regular(on)) = &query.message else {
        panic!("{query:?}")
    };
    assert_eq!((on.id, on.chat.id), (MessageId(2), ChatId(-200)));
    assert_eq!(on.reply_markup(), Some(&keyboard(rows)));

    bot.answer_callback_query(query.id.clone())
        .text("You cannot accept your own challenge")
        .show_alert(true)
        .await
        .expect("answerCallbackQuery");
    let answers = fake.callback_answers();
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0].id, query_id);
    assert_eq!(
        answers[0].text.as_deref(),
        Some("You cannot accept your own challenge")
    );
    assert!(answers[0].show_alert);
    // A query is answered once, as in Telegram.
    let err = bot
        .answer_callback_query(query.id.clone())
        .await
        .expect_err("answered twice");
    assert!(
        matches!(err, RequestError::Api(ApiError::InvalidQueryId)),
        "{err:?}"
    );
}

#[tokio::test]
async fn text_edits_and_chat_ids() {
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    let group = FakeTelegram::group(-200, "Damas");
    let bob = FakeTelegram::user(8, "Bob", None, Some("ru"));
    fake.send_text(&group, &bob, "/new");
    let rows: &[&[(&str, &str)]] = &[&[("Accept", "accept:1")]];
    let sent = bot
        .send_message(ChatId(-200), "Alice challenges you")
        .reply_markup(keyboard(rows))
        .await
        .expect("sendMessage");
    assert_eq!(sent.id, MessageId(2));
    assert_eq!(fake.messages(-200)[0].buttons, buttons(rows));

    // Text edits; an edit without reply_markup removes the keyboard, as in Telegram.
    bot.edit_message_text(ChatId(-200), MessageId(2), "Bob accepted")
        .await
        .expect("editMessageText");
    let messages = fake.messages(-200);
    assert_eq!(messages[0].text.as_deref(), Some("Bob accepted"));
    assert!(messages[0].buttons.is_empty());
    assert_eq!(messages[0].edits, 1);
    // The same edit again changes nothing: "message is not modified".
    let err = bot
        .edit_message_text(ChatId(-200), MessageId(2), "Bob accepted")
        .await
        .expect_err("not modified");
    assert!(
        matches!(err, RequestError::Api(ApiError::MessageNotModified)),
        "{err:?}"
    );
    let err = bot
        .edit_message_text(ChatId(-200), MessageId(99), "x")
        .await
        .expect_err("no such message");
    assert!(
        matches!(err, RequestError::Api(ApiError::MessageToEditNotFound)),
        "{err:?}"
    );
    // Users' messages are not the bot's to edit.
    let err = bot
        .edit_message_text(ChatId(-200), MessageId(1), "x")
        .await
        .expect_err("not ours");
    assert!(
        matches!(err, RequestError::Api(ApiError::MessageCantBeEdited)),
        "{err:?}"
    );

    // A private chat, with the chat id as a string in the request.
    let private = FakeTelegram::private(&bob);
    fake.add_chat(&private);
    bot.send_message(
        teloxide::types::Recipient::ChannelUsername("8".into()),
        "hi Bob",
    )
    .await
    .expect("sendMessage with a string chat id");
    assert_eq!(fake.messages(8)[0].text.as_deref(), Some("hi Bob"));
    assert_eq!(
        fake.calls().last().expect("calls").params["chat_id"],
        json!("8")
    );
}

#[tokio::test]
async fn photos_captions_and_keyboard_edits() {
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    let group = FakeTelegram::group(-300, "Boards");
    let alice = FakeTelegram::user(7, "Alice", None, None);
    fake.send_text(&group, &alice, "/board");

    let board = png(3, 2, [10, 200, 30]);
    let rows: &[&[(&str, &str)]] = &[&[("a1", "m:a1"), ("b2", "m:b2")], &[("Resign", "resign")]];
    let sent = bot
        .send_photo(ChatId(-300), InputFile::memory(board.clone()))
        .caption("White to move")
        .reply_markup(keyboard(rows))
        .await
        .expect("sendPhoto");
    assert_eq!(sent.id, MessageId(2));
    assert_eq!(sent.caption(), Some("White to move"));
    let sizes = sent.photo().expect("photo sizes");
    assert_eq!((sizes[0].width, sizes[0].height), (3, 2));
    assert_eq!(sizes[0].file.size as usize, board.len());
    assert_eq!(sent.reply_markup(), Some(&keyboard(rows)));

    // The multipart call, as JSON: the photo replaced by its length.
    let call = fake
        .calls()
        .into_iter()
        .find(|c| c.method == "sendphoto")
        .expect("sendPhoto call");
    assert_eq!(call.params["photo"], json!({"bytes": board.len()}));
    assert_eq!(call.params["caption"], json!("White to move"));
    assert_eq!(call.params["chat_id"], json!("-300"));
    assert_eq!(
        call.params["reply_markup"]["inline_keyboard"][1][0]["callback_data"],
        json!("resign")
    );

    let messages = fake.messages(-300);
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].caption.as_deref(), Some("White to move"));
    assert_eq!(messages[0].photo.as_deref(), Some(&board[..]));
    assert_eq!(
        decode(messages[0].photo.as_ref().expect("photo")),
        (3, 2, [10, 200, 30])
    );
    assert_eq!(messages[0].buttons, buttons(rows));

    // Caption edit keeping the keyboard.
    let edited = bot
        .edit_message_caption(ChatId(-300), MessageId(2))
        .caption("Black to move")
        .reply_markup(keyboard(rows))
        .await
        .expect("editMessageCaption");
    assert_eq!(edited.caption(), Some("Black to move"));
    assert!(edited.edit_date().is_some());
    let messages = fake.messages(-300);
    assert_eq!(messages[0].caption.as_deref(), Some("Black to move"));
    assert_eq!(messages[0].buttons, buttons(rows));
    assert_eq!(messages[0].edits, 1);

    // New media (multipart with the file attached to `media`).
    let next = png(4, 4, [0, 0, 0]);
    let media = InputMedia::Photo(
        InputMediaPhoto::new(InputFile::memory(next.clone())).caption("Game over"),
    );
    let edited = bot
        .edit_message_media(ChatId(-300), MessageId(2), media)
        .reply_markup(keyboard(rows))
        .await
        .expect("editMessageMedia");
    assert_eq!(edited.caption(), Some("Game over"));
    let messages = fake.messages(-300);
    assert_eq!(
        decode(messages[0].photo.as_ref().expect("photo")),
        (4, 4, [0, 0, 0])
    );
    assert_eq!(messages[0].edits, 2);
    let call = fake
        .calls()
        .into_iter()
        .rfind(|c| c.method == "editmessagemedia")
        .expect("call");
    assert_eq!(call.params["media"]["media"], json!({"bytes": next.len()}));

    // Buttons removed: editMessageReplyMarkup without a markup.
    let edited = bot
        .edit_message_reply_markup(ChatId(-300), MessageId(2))
        .await
        .expect("editMessageReplyMarkup");
    assert!(edited.reply_markup().is_none());
    let messages = fake.messages(-300);
    assert!(messages[0].buttons.is_empty());
    assert_eq!(messages[0].caption.as_deref(), Some("Game over"));
    assert_eq!(messages[0].edits, 3);
    let err = bot
        .edit_message_reply_markup(ChatId(-300), MessageId(2))
        .await
        .expect_err("already removed");
    assert!(
        matches!(err, RequestError::Api(ApiError::MessageNotModified)),
        "{err:?}"
    );

    // A photo sent again by its file_id.
    let file_id = sizes[0].file.id.clone();
    let again = bot
        .send_photo(ChatId(-300), InputFile::file_id(file_id))
        .await
        .expect("sendPhoto by file_id");
    assert_eq!(again.id, MessageId(3));
    assert_eq!(fake.messages(-300)[1].photo.as_deref(), Some(&board[..]));
}

#[tokio::test]
async fn commands_webhook_and_unknown_methods() {
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);

    bot.set_my_commands([
        BotCommand::new("challenge", "Challenge someone"),
        BotCommand::new("help", "How to play"),
    ])
    .await
    .expect("setMyCommands");
    bot.set_my_commands([BotCommand::new("challenge", "Вызвать на игру")])
        .language_code("ru")
        .await
        .expect("setMyCommands ru");
    let pair = |c: &str, d: &str| (c.to_owned(), d.to_owned());
    assert_eq!(
        fake.commands(),
        vec![
            (
                None,
                vec![
                    pair("challenge", "Challenge someone"),
                    pair("help", "How to play")
                ]
            ),
            (
                Some("ru".to_owned()),
                vec![pair("challenge", "Вызвать на игру")]
            ),
        ]
    );
    let ru = bot
        .get_my_commands()
        .language_code("ru")
        .await
        .expect("getMyCommands");
    assert_eq!(ru, vec![BotCommand::new("challenge", "Вызвать на игру")]);
    let err = bot
        .set_my_commands([BotCommand::new("/Start", "x")])
        .await
        .expect_err("an invalid command");
    assert!(matches!(err, RequestError::Api(_)), "{err:?}");
    bot.delete_my_commands()
        .language_code("ru")
        .await
        .expect("deleteMyCommands");
    assert_eq!(fake.commands().len(), 1);

    bot.set_webhook("https://example.invalid/hook".parse().expect("URL"))
        .await
        .expect("setWebhook");
    assert_eq!(
        fake.webhook().as_deref(),
        Some("https://example.invalid/hook")
    );
    let info = bot.get_webhook_info().await.expect("getWebhookInfo");
    assert_eq!(
        info.url.map(String::from),
        Some("https://example.invalid/hook".to_owned())
    );
    let err = bot
        .get_updates()
        .await
        .expect_err("getUpdates while a webhook is set");
    assert!(matches!(err, RequestError::Api(_)), "{err:?}");
    bot.delete_webhook().await.expect("deleteWebhook");
    assert_eq!(fake.webhook(), None);
    assert_eq!(
        bot.get_webhook_info().await.expect("getWebhookInfo").url,
        None
    );

    let err = bot
        .delete_message(ChatId(1), MessageId(1))
        .await
        .expect_err("not implemented");
    let RequestError::Api(ApiError::Unknown(description)) = err else {
        panic!("{err:?}")
    };
    assert_eq!(description, "Not Found: method not found");
}

#[tokio::test]
async fn injected_failures_and_mentions() {
    let fake = FakeTelegram::start().await;
    // Plain text in groups is what these check: privacy mode off (see its own test).
    fake.set_privacy(false);
    let bot = bot(&fake);
    let group = FakeTelegram::group(-400, "Club");
    let alice = FakeTelegram::user(7, "Алиса", Some("alice"), None);
    let bob = FakeTelegram::user(8, "Bob", None, None);

    // 429 surfaces as RetryAfter, once; the next call goes through.
    fake.send_text(&group, &alice, "/new");
    fake.fail_next(
        1,
        &["sendmessage"],
        Failure::TooManyRequests { retry_after: 7 },
    );
    let err = bot.send_message(ChatId(-400), "x").await.expect_err("429");
    let RequestError::RetryAfter(after) = err else {
        panic!("{err:?}")
    };
    assert_eq!(after.seconds(), 7);
    assert!(
        fake.messages(-400).is_empty(),
        "nothing is stored for a failed call"
    );
    let sent = bot
        .send_message(ChatId(-400), "x")
        .await
        .expect("sendMessage");
    assert_eq!(sent.id, MessageId(2));

    // An injected NotModified, whatever the edit.
    fake.fail_next(1, &["editmessagetext"], Failure::NotModified);
    let err = bot
        .edit_message_text(ChatId(-400), sent.id, "y")
        .await
        .expect_err("400");
    assert!(
        matches!(err, RequestError::Api(ApiError::MessageNotModified)),
        "{err:?}"
    );
    assert_eq!(fake.messages(-400)[0].text.as_deref(), Some("x"));
    assert_eq!(fake.messages(-400)[0].edits, 0);

    // An empty method list matches everything but getUpdates.
    fake.fail_next(2, &[], Failure::TooManyRequests { retry_after: 1 });
    assert!(bot.get_updates().await.is_ok());
    assert!(matches!(
        bot.get_me().await,
        Err(RequestError::RetryAfter(_))
    ));
    assert!(matches!(
        bot.get_me().await,
        Err(RequestError::RetryAfter(_))
    ));
    assert!(bot.get_me().await.is_ok());
    let failed: Vec<String> = fake
        .calls()
        .into_iter()
        .filter(|c| c.failed)
        .map(|c| c.method)
        .collect();
    assert_eq!(failed, ["sendmessage", "editmessagetext", "getme", "getme"]);

    // text_mention, with UTF-16 offsets (a Cyrillic name, an emoji before it).
    let text = "🎲 /play with Алиса";
    fake.send_text_with_mention(&group, &bob, text, &alice);
    let updates = bot.get_updates().offset(2).await.expect("getUpdates");
    let UpdateKind::Message(message) = &updates[0].kind else {
        panic!("{:?}", updates[0].kind)
    };
    let entities = message.entities().expect("entities");
    assert_eq!(
        entities.len(),
        1,
        "a /command not at the start is not one here: {entities:?}"
    );
    let MessageEntityKind::TextMention { user } = &entities[0].kind else {
        panic!("{entities:?}")
    };
    assert_eq!(user.id.0, 7);
    assert_eq!((entities[0].offset, entities[0].length), (14, 5));
    assert_eq!(
        message.parse_entities().expect("entities")[0].text(),
        "Алиса"
    );
}

/// The one call answered with a 500: teloxide sleeps 10 s after any 5xx answer inside its
/// client, so the self-test makes exactly one such call.
#[tokio::test]
async fn injected_server_error() {
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    fake.fail_next(1, &["getme"], Failure::ServerError);
    let err = bot.get_me().await.expect_err("500");
    let RequestError::Api(ApiError::Unknown(description)) = err else {
        panic!("{err:?}")
    };
    assert_eq!(description, "Internal Server Error");
    let calls = fake.calls();
    assert_eq!(calls.len(), 1);
    assert!(calls[0].failed);
}

/// The whole teloxide stack: a `Dispatcher` with its default long polling (getWebhookInfo,
/// getMe, getUpdates with offsets) answers an injected message.
#[tokio::test]
async fn dispatcher_round_trip() {
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    let handler = Update::filter_message().endpoint(|bot: Bot, message: Message| async move {
        let text = format!("pong: {}", message.text().unwrap_or_default());
        bot.send_message(message.chat.id, text).await?;
        respond(())
    });
    let mut dispatcher = Dispatcher::builder(bot, handler).build();
    let token = dispatcher.shutdown_token();
    let running = tokio::spawn(async move { dispatcher.dispatch().await });

    let alice = FakeTelegram::user(7, "Alice", None, None);
    let chat = FakeTelegram::private(&alice);
    fake.send_text(&chat, &alice, "ping");
    let replied = fake
        .wait_until(5 * SECOND, |f| !f.messages(7).is_empty())
        .await;
    assert!(replied, "calls: {:?}", fake.calls());
    assert_eq!(fake.messages(7)[0].text.as_deref(), Some("pong: ping"));
    assert_eq!(fake.messages(7)[0].id, 2);
    // The dispatcher confirms the update with its next offset.
    assert!(
        fake.wait_until(5 * SECOND, |f| f.pending_updates() == 0)
            .await
    );
    let methods: Vec<String> = fake.calls().into_iter().map(|c| c.method).collect();
    assert!(
        methods.starts_with(&["getwebhookinfo".to_owned()]),
        "{methods:?}"
    );

    // Shut down: the listener's long poll ends within 2 s.
    for _ in 0..100 {
        if let Ok(stopping) = token.shutdown() {
            tokio::time::timeout(5 * SECOND, stopping)
                .await
                .expect("shutdown");
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::timeout(5 * SECOND, running)
        .await
        .expect("the dispatcher stops")
        .expect("the dispatcher task");
}

/// The updates waiting, read once (offset confirms them).
async fn take_updates(bot: &Bot) -> Vec<teloxide::types::Update> {
    let updates = bot.get_updates().timeout(1).await.expect("getUpdates");
    if let Some(last) = updates.last() {
        let next = i32::try_from(last.id.0).expect("small ids") + 1;
        bot.get_updates()
            .offset(next)
            .timeout(0)
            .await
            .expect("confirm");
    }
    updates
}

#[tokio::test]
async fn inline_queries_chosen_results_and_inline_edits() {
    use teloxide::types::{InlineQueryResult, InlineQueryResultCachedPhoto};
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    let alice = FakeTelegram::user(7, "Alice", Some("alice"), None);
    let store = FakeTelegram::private(&alice);
    fake.add_chat(&store);
    let picture = png(2, 2, [1, 2, 3]);
    let sent = bot
        .send_photo(ChatId(7), InputFile::memory(picture.clone()))
        .await
        .expect("sendPhoto");
    let file = sent.photo().expect("a photo")[0].file.id.clone();

    let id = fake.inline_query(&alice, "damas");
    let updates = take_updates(&bot).await;
    let Some(UpdateKind::InlineQuery(q)) = updates.last().map(|u| &u.kind) else {
        panic!("{updates:#?}")
    };
    assert_eq!((q.id.0.as_str(), q.query.as_str()), (id.as_str(), "damas"));
    let card = |rid: &str, file: teloxide::types::FileId| {
        InlineQueryResult::CachedPhoto(
            InlineQueryResultCachedPhoto::new(rid, file)
                .caption("a card")
                .reply_markup(keyboard(&[&[("Accept", "card")]])),
        )
    };
    // Refused as Telegram refuses them: a duplicate id, a file it does not have.
    let twice = bot
        .answer_inline_query(
            q.id.clone(),
            [card("0", file.clone()), card("0", file.clone())],
        )
        .await;
    assert!(matches!(twice, Err(RequestError::Api(_))), "{twice:?}");
    let unknown = bot
        .answer_inline_query(
            q.id.clone(),
            [card("0", teloxide::types::FileId("nothing".into()))],
        )
        .await;
    assert!(matches!(unknown, Err(RequestError::Api(_))), "{unknown:?}");
    bot.answer_inline_query(q.id.clone(), [card("0", file.clone())])
        .is_personal(true)
        .await
        .expect("answerInlineQuery");
    assert_eq!(fake.inline_answer(&id).expect("answered").results.len(), 1);
    // Answered once only.
    assert!(bot.answer_inline_query(q.id.clone(), []).await.is_err());

    let inline = fake
        .choose_inline_result(&id, "0")
        .expect("an inline message id");
    let updates = take_updates(&bot).await;
    let Some(UpdateKind::ChosenInlineResult(r)) = updates.last().map(|u| &u.kind) else {
        panic!("{updates:#?}")
    };
    assert_eq!(r.inline_message_id.as_deref(), Some(inline.as_str()));
    assert_eq!((r.result_id.as_str(), r.query.as_str()), ("0", "damas"));
    let m = fake.inline_message(&inline).expect("the inline message");
    assert_eq!(m.photo.as_deref(), Some(&picture[..]));
    assert_eq!(m.caption.as_deref(), Some("a card"));

    // A press on it has no message, only the inline message id.
    fake.press_inline(&alice, &inline, "card");
    let updates = take_updates(&bot).await;
    let Some(UpdateKind::CallbackQuery(c)) = updates.last().map(|u| &u.kind) else {
        panic!("{updates:#?}")
    };
    assert!(c.message.is_none());
    assert_eq!(c.inline_message_id.as_deref(), Some(inline.as_str()));

    // Edits by inline id: a caption; a photo already on the server; never an upload.
    bot.edit_message_caption_inline(inline.clone())
        .caption("the board")
        .reply_markup(keyboard(&[&[("c3", "sho:1:0:c3")]]))
        .await
        .expect("editMessageCaption");
    let second = png(3, 3, [9, 9, 9]);
    let upload = InputMedia::Photo(InputMediaPhoto::new(InputFile::memory(second.clone())));
    assert!(bot
        .edit_message_media_inline(inline.clone(), upload)
        .await
        .is_err());
    let stored = bot
        .send_photo(ChatId(7), InputFile::memory(second.clone()))
        .await
        .expect("sendPhoto");
    let second_file = stored.photo().expect("a photo")[0].file.id.clone();
    bot.edit_message_media_inline(
        inline.clone(),
        InputMedia::Photo(InputMediaPhoto::new(InputFile::file_id(second_file)).caption("moved")),
    )
    .await
    .expect("editMessageMedia");
    let m = fake.inline_message(&inline).expect("the inline message");
    assert_eq!(m.photo.as_deref(), Some(&second[..]));
    assert_eq!(m.caption.as_deref(), Some("moved"));
    assert!(
        m.buttons.is_empty(),
        "an edit without a keyboard removes it"
    );
    assert_eq!(m.edits, 2);
    assert!(bot
        .edit_message_caption_inline("no-such-message")
        .caption("x")
        .await
        .is_err());
}

/// A failure for one chat leaves the other chats' calls alone.
#[tokio::test]
async fn a_failure_injected_in_one_chat_fails_that_chat_only() {
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    for (id, title) in [(-500, "A"), (-501, "B")] {
        fake.add_chat(&FakeTelegram::group(id, title));
    }
    fake.fail_next_in(
        -500,
        2,
        &["sendmessage"],
        Failure::TooManyRequests { retry_after: 3 },
    );
    assert!(bot.send_message(ChatId(-501), "b").await.is_ok());
    let err = bot.send_message(ChatId(-500), "a").await.expect_err("429");
    assert!(matches!(err, RequestError::RetryAfter(_)), "{err:?}");
    assert!(bot.send_message(ChatId(-501), "b").await.is_ok());
    assert!(bot.send_message(ChatId(-500), "a").await.is_err());
    assert!(bot.send_message(ChatId(-500), "a").await.is_ok());
    assert_eq!(fake.messages(-500).len(), 1);
    assert_eq!(fake.messages(-501).len(), 2);
}

/// What a test's webhook was posted: the secret header and the update, in order.
type Posts = std::sync::Arc<std::sync::Mutex<Vec<(Option<String>, serde_json::Value)>>>;

/// With a webhook set, each update is posted to it with the secret, one at a time, and
/// stays queued until the webhook answers 2xx.
#[tokio::test]
async fn updates_are_pushed_to_the_webhook_until_it_accepts_them() {
    use std::sync::Arc;
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    // A webhook that refuses the first post and records the rest.
    let seen: Posts = Arc::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let record = seen.clone();
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(
            move |headers: axum::http::HeaderMap, body: axum::body::Bytes| {
                let record = record.clone();
                async move {
                    let secret = headers
                        .get("x-telegram-bot-api-secret-token")
                        .and_then(|v| v.to_str().ok())
                        .map(str::to_string);
                    let update = serde_json::from_slice(&body).unwrap_or_default();
                    let mut seen = record.lock().expect("lock");
                    seen.push((secret, update));
                    if seen.len() == 1 {
                        axum::http::StatusCode::SERVICE_UNAVAILABLE
                    } else {
                        axum::http::StatusCode::OK
                    }
                }
            },
        ),
    );
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    // Telegram posts to the public https URL; the operator's TLS proxy forwards to `addr`.
    fake.proxy_webhook_to(addr);
    bot.set_webhook("https://hooks.example.com:88/hook".parse().expect("url"))
        .secret_token("s3cret")
        .await
        .expect("setWebhook");
    let alice = FakeTelegram::user(7, "Alice", None, None);
    let chat = FakeTelegram::private(&alice);
    fake.send_text(&chat, &alice, "one");
    fake.send_text(&chat, &alice, "two");
    let ok = fake
        .wait_until(5 * SECOND, |f| f.pushed_updates() == 2)
        .await;
    assert!(ok, "pushed: {:?}", seen.lock().expect("lock"));
    assert_eq!(fake.pending_updates(), 0);
    let seen = seen.lock().expect("lock").clone();
    let texts: Vec<&str> = seen
        .iter()
        .map(|(_, u)| u["message"]["text"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(texts, ["one", "one", "two"], "refused, pushed again, next");
    assert!(seen.iter().all(|(s, _)| s.as_deref() == Some("s3cret")));
    assert!(matches!(bot.get_updates().await, Err(RequestError::Api(_))));
    server.abort();
}

/// As the Bot API: `setWebhook` takes only an https URL on port 443, 80, 88 or 8443 whose
/// host is not a reserved address, and says why in Telegram's words otherwise.
#[tokio::test]
async fn set_webhook_refuses_what_telegram_refuses() {
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    for (url, why) in [
        (
            "http://hooks.example.com/hook",
            "An HTTPS URL must be provided",
        ),
        (
            "https://hooks.example.com:8080/hook",
            "only on ports 80, 88, 443 or 8443",
        ),
        ("https://127.0.0.1/hook", "IP address 127.0.0.1 is reserved"),
        ("https://10.1.2.3:8443/hook", "is reserved"),
        ("https://localhost/hook", "is reserved"),
    ] {
        let err = bot
            .set_webhook(url.parse().expect("url"))
            .await
            .expect_err(url);
        assert!(err.to_string().contains(why), "{url}: {err}");
        assert_eq!(fake.webhook(), None, "{url} was not set");
    }
    for url in [
        "https://hooks.example.com/hook",
        "https://hooks.example.com:8443/hook",
        "https://203.0.113.7:80/hook",
    ] {
        bot.set_webhook(url.parse().expect("url")).await.expect(url);
        assert_eq!(fake.webhook().as_deref(), Some(url));
    }
}

/// As the Bot API: a token other than the bot's is answered 401 Unauthorized (teloxide's
/// `InvalidToken`), and after `/revoke` so is the bot's own, a long poll included.
#[tokio::test]
async fn a_wrong_or_revoked_token_is_unauthorized() {
    let fake = FakeTelegram::start().await;
    let wrong = Bot::new("123:WRONG").set_api_url(fake.api_url().parse().expect("a valid URL"));
    let err = wrong.get_me().await.expect_err("a wrong token");
    assert!(
        matches!(err, RequestError::Api(ApiError::InvalidToken)),
        "{err:?}"
    );
    let bot = bot(&fake);
    bot.get_me().await.expect("the bot's token");
    let polling = tokio::spawn({
        let bot = bot.clone();
        async move { bot.get_updates().timeout(20).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    fake.revoke_token();
    let err = tokio::time::timeout(5 * SECOND, polling)
        .await
        .expect("the long poll ends")
        .expect("no panic")
        .expect_err("revoked");
    assert!(
        matches!(err, RequestError::Api(ApiError::InvalidToken)),
        "{err:?}"
    );
    let err = bot.get_me().await.expect_err("revoked");
    assert!(
        matches!(err, RequestError::Api(ApiError::InvalidToken)),
        "{err:?}"
    );
}

/// Two pollers of one bot: the Bot API ends the waiting one with 409 Conflict (teloxide:
/// `TerminatedByOtherGetUpdates`) and serves the newer one.
#[tokio::test]
async fn a_second_poller_ends_the_first_with_409() {
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    let first = tokio::spawn({
        let bot = bot.clone();
        async move { bot.get_updates().timeout(20).await }
    });
    // The first is waiting when the second asks.
    let waiting = fake
        .wait_until(5 * SECOND, |f| {
            f.calls().iter().any(|c| c.method == "getupdates")
        })
        .await;
    assert!(waiting);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let second = tokio::spawn({
        let bot = bot.clone();
        async move { bot.get_updates().timeout(1).await }
    });
    let err = tokio::time::timeout(5 * SECOND, first)
        .await
        .expect("the first poll ends")
        .expect("no panic")
        .expect_err("409");
    assert!(
        matches!(
            err,
            RequestError::Api(ApiError::TerminatedByOtherGetUpdates)
        ),
        "{err:?}"
    );
    let updates = tokio::time::timeout(5 * SECOND, second)
        .await
        .expect("the second poll ends")
        .expect("no panic")
        .expect("the newer poller is served");
    assert!(updates.is_empty());
}

/// A slow Bot API: the call is answered as usual, after the delay.
#[tokio::test]
async fn a_slow_call_is_answered_late_but_answered() {
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    fake.fail_next(1, &["getme"], Failure::Slow { millis: 300 });
    let started = Instant::now();
    let me = bot.get_me().await.expect("getMe");
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(me.username.as_deref(), Some(FakeTelegram::BOT_USERNAME));
    assert!(!fake.calls()[0].failed);
    let started = Instant::now();
    bot.get_me().await.expect("getMe");
    assert!(
        started.elapsed() < Duration::from_millis(300),
        "only the one"
    );
}

/// The texts of the message updates waiting.
async fn texts(bot: &Bot) -> Vec<String> {
    take_updates(bot)
        .await
        .into_iter()
        .filter_map(|u| match u.kind {
            UpdateKind::Message(m) => m.text().map(str::to_owned),
            _ => None,
        })
        .collect()
}

/// Privacy mode, as Telegram documents it: on by default (getMe says the bot cannot read
/// all group messages); in a group the bot gets commands addressed to it, replies to its
/// messages, and bare commands only while it was the last bot to post; plain text never.
/// `/setprivacy` off shows in getMe at once, in a group only once the bot is added again.
#[tokio::test]
async fn privacy_mode_keeps_back_what_telegram_keeps_back() {
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    let group = FakeTelegram::group(-300, "Club");
    let alice = FakeTelegram::user(7, "Alice", Some("alice"), Some("en"));
    fake.add_chat(&group);
    assert!(
        !bot.get_me()
            .await
            .expect("getMe")
            .can_read_all_group_messages
    );
    let posted = bot
        .send_message(ChatId(group.id), "board")
        .await
        .expect("sent");
    let to = |text: &str| fake.send_text(&group, &alice, text);
    to("/help");
    to("c3-d3");
    to(&format!("/help@{}", FakeTelegram::BOT_USERNAME));
    to("/help@other_bot");
    fake.other_bot_posts(&group, "hello");
    to("/m c3-d3");
    fake.reply_text(&group, &alice, "c3-d3", posted.id.0.into());
    let help_for_us = format!("/help@{}", FakeTelegram::BOT_USERNAME);
    assert_eq!(
        texts(&bot).await,
        ["/help", help_for_us.as_str(), "c3-d3"],
        "a bare command while ours was the last bot, one addressed to it, a reply"
    );
    assert_eq!(fake.withheld(group.id), 3);
    // Off in BotFather: getMe says so, the group keeps privacy until the bot is re-added.
    fake.set_privacy(false);
    assert!(
        bot.get_me()
            .await
            .expect("getMe")
            .can_read_all_group_messages
    );
    to("c3-d3");
    assert!(texts(&bot).await.is_empty());
    fake.readd_bot(&group);
    to("c3-d3");
    assert_eq!(texts(&bot).await, ["c3-d3"]);
    // A private chat is never held back.
    let private = FakeTelegram::private(&alice);
    fake.send_text(&private, &alice, "c3-d3");
    assert_eq!(texts(&bot).await, ["c3-d3"]);
}

/// A forum supergroup, as the Bot API has it: a topic is named by the id of the message that
/// created it; people's messages in it carry `message_thread_id` and `is_topic_message`
/// (and, replying to nothing, reply to that creation message); the bot posts into a topic
/// by `message_thread_id`, and a thread the forum does not have is refused.
#[tokio::test]
async fn forum_topics_name_their_messages_and_take_the_bots() {
    use teloxide::types::ThreadId;
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    let forum = FakeTelegram::forum(-100_300, "Club forum");
    let alice = FakeTelegram::user(7, "Alice", Some("alice"), Some("en"));
    fake.add_chat(&forum);
    let topic = fake.create_topic(&forum, &alice, "Corners");
    let command = format!("/help@{}", FakeTelegram::BOT_USERNAME);
    fake.send_text_in_topic(&forum, topic, &alice, &command);
    fake.send_text(&forum, &alice, &command);
    let got: Vec<_> = take_updates(&bot)
        .await
        .into_iter()
        .filter_map(|u| match u.kind {
            UpdateKind::Message(m) => Some(m),
            _ => None,
        })
        .collect();
    assert_eq!(
        got.len(),
        2,
        "privacy mode keeps the creation back: {got:#?}"
    );
    let (in_topic, in_general) = (&got[0], &got[1]);
    assert!(in_topic.is_topic_message);
    assert_eq!(
        in_topic.thread_id,
        Some(ThreadId(MessageId(i32::try_from(topic).unwrap())))
    );
    assert!(in_topic
        .reply_to_message()
        .is_some_and(|r| r.forum_topic_created().is_some()));
    assert!(!in_general.is_topic_message && in_general.thread_id.is_none());
    let thread = ThreadId(MessageId(i32::try_from(topic).unwrap()));
    let posted = bot
        .send_message(ChatId(forum.id), "board")
        .message_thread_id(thread)
        .await
        .expect("posted in the topic");
    assert!(posted.is_topic_message && posted.thread_id == Some(thread));
    bot.send_message(ChatId(forum.id), "general")
        .await
        .expect("posted in General");
    let topics: Vec<Option<i64>> = fake.messages(forum.id).iter().map(|m| m.topic).collect();
    assert_eq!(topics, [Some(topic), None]);
    let refused = bot
        .send_message(ChatId(forum.id), "nowhere")
        .message_thread_id(ThreadId(MessageId(999)))
        .await
        .expect_err("no such topic");
    assert!(
        refused.to_string().contains("message thread not found"),
        "{refused}"
    );
}

/// `allowed_updates`, as teloxide sends it: kinds the bot did not ask for are never sent
/// (updates made after the call), the list holds for later calls that do not say, and an
/// empty list is Telegram's default (everything but `chat_member` and reactions), which
/// includes `my_chat_member`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allowed_updates_keep_back_what_the_bot_did_not_ask_for() {
    use teloxide::types::{AllowedUpdate, UpdateKind};
    let fake = FakeTelegram::start().await;
    fake.set_privacy(false);
    let bot = bot(&fake);
    let group = FakeTelegram::group(-300, "Allowed");
    let alice = FakeTelegram::user(7, "Alice", Some("alice"), Some("en"));
    let kinds = |updates: &[teloxide::types::Update]| -> Vec<&'static str> {
        updates
            .iter()
            .map(|u| match u.kind {
                UpdateKind::Message(_) => "message",
                UpdateKind::MyChatMember(_) => "my_chat_member",
                UpdateKind::CallbackQuery(_) => "callback_query",
                _ => "other",
            })
            .collect()
    };
    // Messages only.
    let none = bot
        .get_updates()
        .allowed_updates([AllowedUpdate::Message])
        .await
        .expect("getUpdates");
    assert!(none.is_empty());
    fake.send_text(&group, &alice, "hello");
    fake.remove_bot(&group, &alice, true);
    let updates = bot.get_updates().await.expect("getUpdates");
    assert_eq!(kinds(&updates), ["message"], "the removal is not sent");
    // An empty list: the default, which has my_chat_member.
    let offset = updates.last().map_or(0, |u| u.id.0 + 1);
    bot.get_updates()
        .offset(i32::try_from(offset).expect("small"))
        .allowed_updates([])
        .await
        .expect("getUpdates");
    fake.readd_bot(&group);
    fake.remove_bot(&group, &alice, true);
    let updates = bot
        .get_updates()
        .offset(i32::try_from(offset).expect("small"))
        .await
        .expect("getUpdates");
    assert_eq!(kinds(&updates), ["my_chat_member"], "{updates:#?}");
}

/// A user who blocks the bot: calls for their chat are refused 403 "bot was blocked by the
/// user" (teloxide's `BotBlocked`), and a `my_chat_member` update says the bot was kicked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blocked_bot_is_refused_403_and_told_by_my_chat_member() {
    use teloxide::types::ChatMemberKind;
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    let alice = FakeTelegram::user(7, "Alice", Some("alice"), Some("en"));
    let chat = FakeTelegram::private(&alice);
    fake.send_text(&chat, &alice, "/start");
    bot.send_message(ChatId(alice.id), "hi")
        .await
        .expect("before the block");
    fake.block_bot(&alice, true);
    let err = bot
        .send_message(ChatId(alice.id), "hi")
        .await
        .expect_err("blocked");
    assert!(
        matches!(err, RequestError::Api(ApiError::BotBlocked)),
        "{err:?}"
    );
    let updates = bot.get_updates().await.expect("getUpdates");
    assert!(
        updates.iter().any(|u| matches!(&u.kind,
            UpdateKind::MyChatMember(m) if matches!(m.new_chat_member.kind, ChatMemberKind::Banned(_))
                && m.chat.id == ChatId(alice.id))),
        "{updates:#?}"
    );
}

/// Mini App buttons as the Bot API takes them: a `web_app` button in a private chat, on
/// https; in a group Telegram answers `BUTTON_TYPE_INVALID` (a `url` button to a `t.me`
/// link is how a group opens a Mini App), and an `http://` Mini App `BUTTON_URL_INVALID`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_app_buttons_only_in_private_chats_and_only_on_https() {
    use teloxide::types::WebAppInfo;
    let fake = FakeTelegram::start().await;
    let bot = bot(&fake);
    let alice = FakeTelegram::user(7, "Alice", Some("alice"), None);
    let dm = FakeTelegram::private(&alice);
    let group = FakeTelegram::group(-300, "Corners");
    fake.send_text(&dm, &alice, "/start");
    fake.send_text(&group, &alice, "/start");
    let app = |url: &str| {
        let url = url.parse().expect("a URL");
        InlineKeyboardMarkup::new([[InlineKeyboardButton::web_app("Open", WebAppInfo { url })]])
    };
    bot.send_message(ChatId(dm.id), "board")
        .reply_markup(app("https://pages.example/app/g/1"))
        .await
        .expect("a Mini App in a private chat");
    let sent = fake.messages(dm.id);
    assert_eq!(
        sent[0].buttons,
        [[(
            "Open".to_owned(),
            "web_app:https://pages.example/app/g/1".to_owned()
        )]]
    );
    let refused = |e: RequestError| e.to_string();
    let err = bot
        .send_message(ChatId(-300), "board")
        .reply_markup(app("https://pages.example/app/g/1"))
        .await
        .expect_err("not in a group");
    assert!(refused(err).contains("BUTTON_TYPE_INVALID"));
    let err = bot
        .send_message(ChatId(dm.id), "board")
        .reply_markup(app("http://pages.example/app/g/1"))
        .await
        .expect_err("not on http");
    assert!(refused(err).contains("BUTTON_URL_INVALID"));
    let link = "https://t.me/ugolki_test_bot/board?startapp=1"
        .parse()
        .expect("a URL");
    bot.send_message(ChatId(-300), "board")
        .reply_markup(InlineKeyboardMarkup::new([[InlineKeyboardButton::url(
            "Open", link,
        )]]))
        .await
        .expect("a link in a group");
}
