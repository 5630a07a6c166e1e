//! Whole games in a group: Corners and Damas by commands, replies and buttons, a refused
//! move, a draw offer declined and a resignation, a flag that falls with nobody typing,
//! challenges by mention, the help, and a game against the built-in bot with its review.

use crate::harness::{
    decodes, play_random, quick, says, start_game, temp_db, Group, Rng, RunningBot, StartTelegram,
    WAIT,
};
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_core::words::{english, Msg};
use ugolki_tests::fake_telegram::{FakeTelegram, SentMessage};
use ugolki_tests::said::{
    challenges, first_sentence, game_line, game_over, game_started, hole, played, played_by, square,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_play_corners_and_damas_in_a_group_by_commands_replies_and_buttons() {
    let g = Group::new().await;
    let db = temp_db("games");
    let bot = RunningBot::start(&g.fake, &db, quick());
    // The menu is registered at start.
    let ok = g
        .fake
        .wait_until(WAIT, |f| {
            f.commands()
                .iter()
                .any(|(_, list)| list.iter().any(|(c, _)| c == "challenge"))
        })
        .await;
    assert!(ok, "setMyCommands: {:?}", g.fake.commands());
    // And in each language the bot speaks, for clients set to it (one call per language,
    // made one after another: wait for the last).
    g.fake.wait_until(WAIT, |f| f.commands().len() >= 4).await;
    let langs: Vec<Option<String>> = g.fake.commands().into_iter().map(|(l, _)| l).collect();
    for code in ["ru", "pt", "it"] {
        assert!(langs.contains(&Some(code.to_string())), "{langs:?}");
    }

    // Corners, to the end of the game by its rules (random play ends by C6 or C7).
    start_game(&g, "classic3x3 none").await;
    // An illegal move gets its reason, as a reply to the one who typed it.
    g.fake.send_text(&g.chat, &g.alice, "/m a1-a2");
    let refused = g
        .expect_text(&english(&Msg::Refused {
            text: "a1-a2".into(),
            reason: Box::new(Msg::IllOccupied {
                square: square("a2"),
            }),
        }))
        .await;
    assert!(refused.reply_to.is_some(), "{refused:#?}");
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0x5eed);
    play_random(&g, &mut game, &mut rng, 200).await;
    assert!(game.ending().is_some(), "the game ended by its rules");
    g.expect_text(&game_over(1)).await;

    // Damas: a draw offered by button and declined by button, then a resignation by button.
    start_game(&g, "damas none").await;
    let mut game = Game::new(&Rules::Damas { flying: true });
    play_random(&g, &mut game, &mut rng, 6).await;
    let board = g.board();
    g.press(&g.alice, &board, &english(&Msg::BtnOfferDraw));
    let offered = first_sentence(&Msg::DrawOffered {
        by: "Alice".into(),
        to: hole(),
        buttons: false,
    });
    let offer = g
        .expect("a draw offer with buttons", |m| {
            says(m, &offered) && !m.buttons.is_empty()
        })
        .await;
    g.press(&g.bob, &offer, &english(&Msg::BtnDeclineDraw));
    let declined = english(&Msg::DrawDeclined { by: "Bob".into() });
    let declined = g.expect("the decline", |m| says(m, &declined)).await;
    g.resign(&g.bob, &declined, 2).await;
    g.expect_text(&english(&Msg::Resigned {
        id: 2,
        loser: "Bob".into(),
        winner: "Alice".into(),
    }))
    .await;

    // Every board arrived as a PNG that decodes; only the newest board has buttons.
    let boards: Vec<SentMessage> = g
        .messages()
        .into_iter()
        .filter(|m| m.photo.is_some())
        .collect();
    assert!(boards.len() > 20, "{} boards", boards.len());
    for b in &boards {
        assert!(
            decodes(b.photo.as_deref().unwrap_or_default()),
            "board {} decodes",
            b.id
        );
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_with_nobody_typing() {
    let g = Group::new().await;
    let db = temp_db("flag");
    let bot = RunningBot::start(&g.fake, &db, quick());
    start_game(&g, "classic3x3 3s+0").await;
    g.fake.send_text(&g.chat, &g.alice, "/m c3-d3");
    g.expect_text(&played("Alice", "c3-d3")).await;
    g.fake.send_text(&g.chat, &g.bob, "/m f6-e6");
    g.expect_text(&played("Bob", "f6-e6")).await;
    // Alice thinks too long; nobody types.
    g.expect_text(&english(&Msg::Flagged {
        id: 1,
        loser: "Alice".into(),
        winner: "Bob".into(),
    }))
    .await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mentions_unknown_users_and_help() {
    let g = Group::new().await;
    let db = temp_db("mentions");
    let bot = RunningBot::start(&g.fake, &db, quick());
    // A text mention (a user without a username) resolves to that user.
    let dana = FakeTelegram::user(14, "Dana", None, None);
    g.fake
        .send_text_with_mention(&g.chat, &g.alice, "/challenge Dana classic3x3 none", &dana);
    g.expect_text(&challenges("Alice", "Dana")).await;
    // An @name the bot has never seen: asked to /start the bot first.
    g.fake.send_text(&g.chat, &g.alice, "/challenge @zed");
    g.expect_text(&english(&Msg::UnseenPlayer {
        handle: "zed".into(),
    }))
    .await;
    g.fake.send_text(&g.chat, &g.bob, "/help");
    g.expect_text(&english(&Msg::Help)).await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_answers_moves_and_a_review_arrives_as_an_animation() {
    let g = Group::new().await;
    let db = temp_db("bot");
    let bot = RunningBot::start(&g.fake, &db, quick());
    g.fake
        .send_text(&g.chat, &g.alice, "/play bot 1 classic3x3 none white");
    g.expect_text(&game_started(1, "Alice", "Bot L1")).await;
    g.fake.send_text(&g.chat, &g.alice, "/m c3-d3");
    // (The engine may answer before the test looks: its board then replaces Alice's, edited
    // in place, so what the board showed is looked at, not only what it shows.)
    g.expect_shown(&played("Alice", "c3-d3")).await;
    // Nobody else types: the engine answers through the table's timer.
    g.expect_text(&played_by("Bot L1")).await;
    g.fake.send_text(&g.chat, &g.alice, "/resign");
    g.expect_text(&game_line(1)).await;
    g.fake.send_text(&g.chat, &g.alice, "/review 1");
    let review = g
        .expect_text(&english(&Msg::ReviewIntro {
            id: 1,
            white: "Alice".into(),
            black: "Bot L1".into(),
            moves: 1,
        }))
        .await;
    let gif = review.photo.expect("the replay is sent as an animation");
    assert!(gif.starts_with(b"GIF89a"), "a GIF");
    bot.stop().await;
}
