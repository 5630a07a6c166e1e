//! A group under Telegram's privacy mode, with another bot posting there: bare commands
//! and plain text do not reach the bot, `/m@bot` and replies do, and `/help` says so.

use crate::harness::{
    play_random_by, quick, says, start_game, temp_db, Group, Rng, RunningBot, StartTelegram,
};
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_core::words::{english, Msg};
use ugolki_tests::fake_telegram::FakeTelegram;
use ugolki_tests::said::game_over;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_under_privacy_mode_plays_a_whole_game_by_addressed_commands_and_replies() {
    let g = Group::new().await;
    let db = temp_db("privacy");
    let bot = RunningBot::start(&g.fake, &db, quick());
    let bot_name = FakeTelegram::BOT_USERNAME;
    start_game(&g, "classic3x3 none casual").await;
    // Another bot posts: from now on a bare command is not the bot's to see.
    g.fake.other_bot_posts(&g.chat, "Welcome to the group!");
    let withheld = g.fake.withheld(g.chat.id);
    g.fake.send_text(&g.chat, &g.alice, "/m c3-d3");
    g.fake.send_text(&g.chat, &g.alice, "c3-d3");
    assert_eq!(
        g.fake.withheld(g.chat.id),
        withheld + 2,
        "privacy mode held them back"
    );
    // `/help@bot` reaches it, and says how to move here.
    g.fake
        .send_text(&g.chat, &g.alice, &format!("/help@{bot_name}"));
    let how = english(&Msg::HelpCommandsOnly {
        bot: bot_name.into(),
    });
    let help = g.expect_text(&how).await;
    assert!(says(&help, &format!("/m@{bot_name} c3-d4")), "{help:#?}");
    // A whole game by `/m@bot` and replies to the board, the other bot posting between.
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0x9e1);
    let command = format!("/m@{bot_name}");
    for _ in 0..200 {
        if game.ending().is_some() {
            break;
        }
        g.fake.other_bot_posts(&g.chat, "a word from the other bot");
        if play_random_by(&g, &mut game, &mut rng, 2, &command)
            .await
            .is_empty()
        {
            break;
        }
    }
    assert!(game.ending().is_some(), "the game ended by its rules");
    g.expect_text(&game_over(1)).await;
    bot.stop().await;
}
