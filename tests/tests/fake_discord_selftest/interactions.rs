//! Interactions: a direct ephemeral answer, autocomplete, a button press acknowledged with
//! a follow-up (read, edited, deleted through the webhook routes), a second answer refused,
//! a select menu, a message updated in place, and a command answered after Discord's 3 s.

use crate::commands::{register_commands, slash_in_every_context};
use crate::handler::LateAnswer;
use crate::harness::{alice, all_intents, bob, connect, discord_code, png, Bot, WAIT};
use serde_json::json;
use serenity::all::{
    ChannelId, CreateActionRow, CreateAttachment, CreateButton, CreateInteractionResponse,
    CreateMessage, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption, InteractionId,
    MessageId,
};
use std::time::Duration;
use ugolki_tests::fake_discord::{FakeDiscord, OptionValue};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_and_interactions() {
    let fake = FakeDiscord::start().await;
    let bot = connect(&fake, all_intents()).await;

    register_commands(&fake, &bot).await;
    slash_in_every_context(&fake, &bot).await;
    // Answered after Discord's 3 s: 404 "Unknown interaction" (started now, checked below).
    let slow = fake.slash_command(FakeDiscord::CHANNEL_ID, &bob(), "slow", &[], "en-US");

    answer_and_autocomplete(&fake, &bot).await;
    buttons(&fake, &bot).await;

    // The late answer.
    assert!(bot.wait_seen(&fake, |s| s.late.is_some()).await);
    assert_eq!(bot.seen().late, Some(LateAnswer::Refused(10_062)));
    let record = fake.interaction(slow).expect("/slow");
    assert_eq!((record.response_type, record.rejected_callbacks), (None, 1));
    assert!(!record.answered_within(Duration::from_secs(3)));

    bot.stop().await;
}

async fn answer_and_autocomplete(fake: &FakeDiscord, bot: &Bot) {
    let alice = alice();
    // A direct answer (type 4), ephemeral.
    let code = [("code", OptionValue::String("ru".into()))];
    let lang = fake.slash_command(FakeDiscord::CHANNEL_ID, &alice, "lang", &code, "ru");
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(lang)
            .is_some_and(|i| i.original.is_some()))
            .await
    );
    let record = fake.interaction(lang).expect("/lang");
    assert_eq!(record.response_type, Some(4));
    assert!(record.ephemeral());
    let original = record.original.expect("the response");
    assert_eq!(
        (original.content.as_str(), original.edits),
        ("Language saved", 0)
    );

    // Autocomplete.
    let typing = [("code", OptionValue::Focused("ру".into()))];
    let ac = fake.autocomplete(FakeDiscord::CHANNEL_ID, &alice, "lang", &typing, "ru");
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(ac)
            .is_some_and(|i| i.response_type == Some(8)))
            .await
    );
    let choices = fake.interaction(ac).expect("autocomplete").choices;
    assert_eq!(choices[0], ("ру (Russian)".to_owned(), json!("ru")));
    assert_eq!(
        bot.seen().autocomplete,
        vec![("lang".to_owned(), "ру".to_owned())]
    );
}

async fn buttons(fake: &FakeDiscord, bot: &Bot) {
    let bob = bob();
    // A button on the bot's message: acknowledged, then an ephemeral follow-up.
    let channel = ChannelId::new(FakeDiscord::OTHER_CHANNEL_ID);
    let row = CreateActionRow::Buttons(vec![
        CreateButton::new("move:a1").label("A1"),
        CreateButton::new("resign").label("Resign"),
    ]);
    let board = CreateMessage::new()
        .content("Board")
        .add_file(CreateAttachment::bytes(png(2, 2), "board.png"))
        .components(vec![row]);
    let board = channel.send_message(&bot.http, board).await.expect("board");
    let press = fake.button(
        FakeDiscord::OTHER_CHANNEL_ID,
        &bob,
        board.id.get(),
        "move:a1",
    );
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(press)
            .is_some_and(|i| !i.followups.is_empty()))
            .await
    );
    let record = fake.interaction(press).expect("the press");
    assert_eq!((record.kind, record.response_type), (3, Some(6)));
    assert!(record.answered_within(Duration::from_secs(3)));
    assert_eq!(record.original.map(|m| m.id), Some(board.id.get()));
    let followup = &record.followups[0];
    assert!(followup.ephemeral);
    assert_eq!(followup.content, "You pressed move:a1");
    assert_eq!(
        bot.seen().components,
        vec![("move:a1".to_owned(), board.id.get(), bob.id)]
    );
    // An ephemeral message is not visible through the channel.
    let hidden = channel
        .message(&bot.http, MessageId::new(followup.id))
        .await
        .expect_err("ephemeral");
    assert_eq!(discord_code(&hidden), Some(10_008));
    // A second answer to the same interaction is refused, as on Discord.
    let token = fake
        .events()
        .iter()
        .find(|(name, d)| {
            name == "INTERACTION_CREATE" && d["id"].as_str() == Some(press.to_string().as_str())
        })
        .map(|(_, d)| d["token"].as_str().unwrap_or_default().to_owned())
        .expect("the token");
    let twice = bot
        .http
        .create_interaction_response(
            InteractionId::new(press),
            &token,
            &CreateInteractionResponse::Acknowledge,
            Vec::new(),
        )
        .await
        .expect_err("twice");
    assert_eq!(discord_code(&twice), Some(40_060));
    // The follow-up through the webhook routes: read the original, edit, delete.
    let original = bot
        .http
        .get_original_interaction_response(&token)
        .await
        .expect("@original");
    assert_eq!(original.id, board.id);
    let moved = bot
        .http
        .edit_followup_message(
            &token,
            MessageId::new(followup.id),
            &json!({"content": "Moved"}),
            Vec::new(),
        )
        .await
        .expect("edit follow-up");
    assert_eq!(moved.content, "Moved");
    bot.http
        .delete_followup_message(&token, MessageId::new(followup.id))
        .await
        .expect("delete follow-up");
    let record = fake.interaction(press).expect("the press");
    assert!(record.followups.is_empty());

    select_menu(fake, bot).await;
    resign(fake, bot, board.id.get()).await;
}

async fn select_menu(fake: &FakeDiscord, bot: &Bot) {
    let (alice, channel) = (alice(), ChannelId::new(FakeDiscord::OTHER_CHANNEL_ID));
    // A string select menu.
    let menu = CreateSelectMenu::new(
        "variant",
        CreateSelectMenuKind::String {
            options: vec![
                CreateSelectMenuOption::new("Corners", "corners"),
                CreateSelectMenuOption::new("Damas", "damas"),
            ],
        },
    );
    let pick = CreateMessage::new()
        .content("Pick a game")
        .components(vec![CreateActionRow::SelectMenu(menu)]);
    let pick = channel.send_message(&bot.http, pick).await.expect("menu");
    let picked = fake.select(
        FakeDiscord::OTHER_CHANNEL_ID,
        &alice,
        pick.id.get(),
        "variant",
        &["damas"],
    );
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(picked)
            .is_some_and(|i| !i.followups.is_empty()))
            .await
    );
    assert!(bot
        .seen()
        .components
        .contains(&("variant".to_owned(), pick.id.get(), alice.id)));
}

async fn resign(fake: &FakeDiscord, bot: &Bot, board: u64) {
    let alice = alice();
    // "Resign": the message is updated in place (type 7) and loses its buttons. serenity's
    // `CreateInteractionResponseMessage` always sends `attachments: []`, which (as in an edit)
    // drops the message's attachments.
    let resign = fake.button(FakeDiscord::OTHER_CHANNEL_ID, &alice, board, "resign");
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(resign)
            .is_some_and(|i| i.response_type.is_some()))
            .await
    );
    let record = fake.interaction(resign).expect("resign");
    assert_eq!(record.response_type, Some(7));
    let updated = record.original.expect("the board");
    assert_eq!(updated.id, board);
    assert_eq!((updated.content.as_str(), updated.edits), ("Resigned", 1));
    assert!(updated.components.is_empty() && updated.attachments.is_empty());
    let callback = fake
        .calls()
        .into_iter()
        .rfind(|c| c.route == "interaction_callback")
        .expect("the callback");
    assert_eq!(callback.body["type"], json!(7));
    assert_eq!(callback.body["data"]["attachments"], json!([]));
    assert!(bot.seen().components.iter().any(|c| c.0 == "resign"));
}
