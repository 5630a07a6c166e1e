//! Application commands: global commands with localizations registered (and again, with
//! the same ids), listed, a locale Discord does not know refused, a guild command; and a
//! slash command in a guild, in the bot's DM, in a DM between users and in a server where
//! only the user installed the app.

use crate::harness::{alice, bob, discord_code, Bot, WAIT};
use serde_json::json;
use serenity::all::{
    ChannelId, Command, CommandOptionType, CreateCommand, CreateCommandOption, GuildId,
    InstallationContext, InteractionContext,
};
use std::time::{Duration, Instant};
use ugolki_tests::fake_discord::{FakeDiscord, OptionValue};

pub fn commands() -> Vec<CreateCommand> {
    vec![
        CreateCommand::new("challenge")
            .description("Challenge a player")
            .name_localized("ru", "вызов")
            .description_localized("ru", "Вызвать игрока")
            .add_option(
                CreateCommandOption::new(CommandOptionType::User, "opponent", "Who to play")
                    .required(true),
            )
            .add_option(
                CreateCommandOption::new(CommandOptionType::String, "variant", "Which game")
                    .add_string_choice("Corners", "corners")
                    .add_string_choice("Damas", "damas"),
            )
            .add_option(CreateCommandOption::new(
                CommandOptionType::Integer,
                "stake",
                "Points at stake",
            ))
            .add_option(CreateCommandOption::new(
                CommandOptionType::Boolean,
                "rated",
                "Rated game",
            ))
            .integration_types(vec![InstallationContext::Guild, InstallationContext::User])
            .contexts(vec![
                InteractionContext::Guild,
                InteractionContext::BotDm,
                InteractionContext::PrivateChannel,
            ]),
        CreateCommand::new("lang")
            .description("Choose a language")
            .add_option(
                CreateCommandOption::new(CommandOptionType::String, "code", "Language")
                    .required(true)
                    .set_autocomplete(true),
            ),
        CreateCommand::new("slow").description("Answered too late"),
    ]
}

pub async fn register_commands(fake: &FakeDiscord, bot: &Bot) {
    // Global commands with localizations.
    let registered = Command::set_global_commands(&bot.http, commands())
        .await
        .expect("set_global_commands");
    assert_eq!(registered.len(), 3);
    let challenge = &registered[0];
    assert_eq!(
        challenge
            .name_localizations
            .as_ref()
            .and_then(|l| l.get("ru"))
            .map(String::as_str),
        Some("вызов")
    );
    assert_eq!(challenge.options.len(), 4);
    assert!(challenge.options[0].required);
    let stored = fake.commands();
    assert_eq!(stored.len(), 3);
    assert_eq!(
        (stored[0].guild, stored[0].name.as_str()),
        (None, "challenge")
    );
    assert_eq!(stored[0].id, challenge.id.get());
    assert_eq!(stored[0].description_localizations["ru"], "Вызвать игрока");
    assert_eq!(stored[0].integration_types, vec![0, 1]);
    assert_eq!(stored[0].contexts, Some(vec![0, 1, 2]));
    assert_eq!(stored[1].integration_types, vec![0], "Discord's default");
    // Registering again keeps the ids; GET lists them (localizations only when asked).
    let again = Command::set_global_commands(&bot.http, commands())
        .await
        .expect("again");
    assert_eq!(again[0].id, challenge.id);
    let listed = bot.http.get_global_commands().await.expect("get");
    assert!(listed[0].name_localizations.is_none());
    let listed = bot
        .http
        .get_global_commands_with_localizations()
        .await
        .expect("get with localizations");
    assert!(listed[0].name_localizations.is_some());
    // A locale Discord does not know is refused.
    let bad = CreateCommand::new("bad")
        .description("Bad locale")
        .name_localized("en", "bad");
    let err = Command::create_global_command(&bot.http, bad)
        .await
        .expect_err("the locale en");
    assert_eq!(discord_code(&err), Some(50_035));
    // A guild command.
    GuildId::new(FakeDiscord::GUILD_ID)
        .set_commands(
            &bot.http,
            vec![CreateCommand::new("admin").description("Guild only")],
        )
        .await
        .expect("guild commands");
    assert_eq!(
        fake.commands()
            .iter()
            .filter(|c| c.guild == Some(FakeDiscord::GUILD_ID))
            .count(),
        1
    );
}

pub async fn slash_in_every_context(fake: &FakeDiscord, bot: &Bot) {
    let (alice, bob) = (alice(), bob());
    // A slash command in the guild, deferred at once, then its response edited.
    let options = [
        ("opponent", OptionValue::User(bob.clone())),
        ("variant", OptionValue::String("damas".into())),
        ("stake", OptionValue::Integer(5)),
        ("rated", OptionValue::Boolean(true)),
    ];
    let started = Instant::now();
    let id = fake.slash_command(FakeDiscord::CHANNEL_ID, &alice, "challenge", &options, "ru");
    let done = |f: &FakeDiscord| {
        f.interaction(id)
            .and_then(|i| i.original)
            .is_some_and(|m| !m.loading)
    };
    assert!(fake.wait_until(WAIT, done).await);
    let record = fake.interaction(id).expect("the interaction");
    assert_eq!((record.kind, record.response_type), (2, Some(5)));
    assert!(record.answered_within(Duration::from_secs(3)));
    assert!(record.first_callback_at.expect("answered") < started + Duration::from_secs(3));
    let original = record.original.expect("the original response");
    assert_eq!(original.content, format!("Challenge sent to <@{}>", bob.id));
    assert_eq!((original.edits, original.ephemeral), (1, false));
    assert_eq!(original.interaction, Some(id));
    assert_eq!(original.json["type"], json!(20));
    {
        let seen = bot.seen();
        let c = &seen.commands[0];
        assert_eq!(c.name, "challenge");
        assert_eq!(
            (c.user, c.guild, c.member),
            (alice.id, Some(FakeDiscord::GUILD_ID), true)
        );
        assert_eq!(c.locale, "ru");
        assert_eq!(c.context, Some(InteractionContext::Guild));
        assert!(c.guild_install, "the bot's guild installed it");
        assert_eq!(
            (c.opponent, c.opponent_name.as_deref()),
            (Some(bob.id), Some("bob"))
        );
        assert_eq!(c.variant.as_deref(), Some("damas"));
        assert_eq!((c.stake, c.rated), (Some(5), Some(true)));
    }
    // The original response is in the channel (and came back through the gateway).
    assert_eq!(fake.messages(FakeDiscord::CHANNEL_ID).len(), 1);

    // The same command in the user's DM with the bot: `user`, no guild, context 1.
    let dm = fake.dm_channel(&alice);
    let in_dm = fake.slash_command(dm, &alice, "challenge", &options[..1], "en-US");
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(in_dm)
            .is_some_and(|i| i.original.is_some_and(|m| !m.loading)))
            .await
    );
    {
        let seen = bot.seen();
        let c = &seen.commands[1];
        assert_eq!((c.user, c.guild, c.member), (alice.id, None, false));
        assert_eq!(c.context, Some(InteractionContext::BotDm));
    }
    // In a DM between users, for a user who installed the app: context 2.
    fake.install_for_user(&alice);
    let private = fake.private_channel(&[&alice, &bob]);
    let in_private = fake.slash_command(private, &alice, "challenge", &options[..1], "en-US");
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(in_private)
            .is_some_and(|i| i.original.is_some_and(|m| !m.loading)))
            .await
    );
    assert_eq!(
        bot.seen().commands[2].context,
        Some(InteractionContext::PrivateChannel)
    );
    // In a server that never added the bot: the guild context, but only the user's install
    // authorizes it. The interaction is answered; the channel itself is out of reach.
    let elsewhere = fake.foreign_channel("elsewhere");
    let in_foreign = fake.slash_command(elsewhere, &alice, "challenge", &options[..1], "en-US");
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(in_foreign)
            .is_some_and(|i| i.original.is_some_and(|m| !m.loading)))
            .await
    );
    {
        let seen = bot.seen();
        let c = &seen.commands[3];
        assert_eq!(c.context, Some(InteractionContext::Guild));
        assert_eq!(c.guild, Some(FakeDiscord::FOREIGN_GUILD_ID));
        assert!(!c.guild_install, "only the user's install");
    }
    let post = ChannelId::new(elsewhere).say(&bot.http, "hello").await;
    assert_eq!(discord_code(&post.expect_err("no access")), Some(50_001));
}
