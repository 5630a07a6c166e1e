//! The fake's `OAuth2`, driven by the bot's own Activity sign-in (reqwest on
//! `https://discord.com`, resolved to the fake's HTTPS door): a code is traded once, within
//! its life, by the client it was given to with its secret; the token names its user. And
//! the Activity's launch (`LAUNCH_ACTIVITY`) through serenity, taken only once the
//! application has Activities switched on.

use std::sync::Arc;
use ugolki_bots::web::discord_auth::{DiscordApp, SignInError};
use ugolki_tests::fake_discord::FakeDiscord;

fn app(fake: &FakeDiscord, id: u64, secret: &str) -> Arc<DiscordApp> {
    let client = ugolki_bots::discord::client_for(Some(&fake.api_at()));
    Arc::new(DiscordApp::new(id, secret.to_string(), client))
}

#[tokio::test]
async fn a_code_is_traded_once_by_its_client_with_its_secret_for_its_user() {
    let fake = FakeDiscord::start().await;
    let alice = FakeDiscord::user(21, "alice");
    let ours = app(&fake, FakeDiscord::APP_ID, FakeDiscord::CLIENT_SECRET);
    let code = fake.authorize(&alice, &["identify"]);
    let signed = ours.sign_in(&code).await.expect("signed in");
    assert_eq!(signed.user.id, "21");
    assert_eq!(signed.user.name, "alice");
    assert!(!signed.access_token.is_empty());
    // Spent.
    assert_eq!(
        ours.sign_in(&code).await.err(),
        Some(SignInError::Refused(400))
    );
    // Another secret, or another application's id: the client is refused.
    let code = fake.authorize(&alice, &["identify"]);
    let wrong = app(&fake, FakeDiscord::APP_ID, "not-the-secret");
    assert_eq!(
        wrong.sign_in(&code).await.err(),
        Some(SignInError::Refused(401))
    );
    let other = app(&fake, FakeDiscord::APP_ID + 1, FakeDiscord::CLIENT_SECRET);
    assert_eq!(
        other.sign_in(&code).await.err(),
        Some(SignInError::Refused(401))
    );
    // Without `identify` the token does not say who its user is.
    let code = fake.authorize(&alice, &["guilds"]);
    assert_eq!(
        ours.sign_in(&code).await.err(),
        Some(SignInError::Refused(401))
    );
    // A code no page could have been given is not sent at all.
    let before = fake.oauth_exchanges();
    let odd = ours.sign_in("a b&client_secret=x").await.err();
    assert_eq!(odd, Some(SignInError::BadCode));
    assert_eq!(fake.oauth_exchanges(), before);
}

#[tokio::test]
async fn launch_activity_is_a_response_only_once_activities_are_on() {
    use serenity::all::{
        ChannelId, CreateActionRow, CreateButton, CreateInteractionResponse, CreateMessage,
        InteractionId,
    };
    let fake = FakeDiscord::start().await;
    let http = fake.http(FakeDiscord::TOKEN);
    let alice = FakeDiscord::user(21, "alice");
    let row = CreateActionRow::Buttons(vec![CreateButton::new("activity").label("Open")]);
    let board = CreateMessage::new().content("Board").components(vec![row]);
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    let board = channel.send_message(&http, board).await.expect("board");
    let launch = |press: u64| {
        let token = fake.interaction_token(press).expect("a token");
        let http = &http;
        async move {
            let response = CreateInteractionResponse::LaunchActivity;
            let id = InteractionId::new(press);
            http.create_interaction_response(id, &token, &response, Vec::new())
                .await
        }
    };
    let press = fake.button(FakeDiscord::CHANNEL_ID, &alice, board.id.get(), "activity");
    let refused = launch(press).await.expect_err("no Activity yet");
    assert_eq!(crate::harness::discord_code(&refused), Some(50035));
    assert_eq!(
        fake.interaction(press).expect("the press").response_type,
        None
    );
    fake.enable_activity();
    let press = fake.button(FakeDiscord::CHANNEL_ID, &alice, board.id.get(), "activity");
    launch(press).await.expect("launched");
    let record = fake.interaction(press).expect("the press");
    assert_eq!((record.kind, record.response_type), (3, Some(12)));
    // Switching Activities on gave the application its Entry Point command.
    let entry: Vec<_> = fake
        .commands()
        .into_iter()
        .filter(|c| c.kind == 4)
        .collect();
    assert_eq!(entry.len(), 1);
    assert!(entry[0].guild.is_none());
}
