//! Without the privileged Message Content intent: a server plays by buttons, `/move` and
//! mentions; DMs take typed moves.

use crate::harness::*;

/// Without `--message-content` (the intent not switched on in the portal) the bot starts,
/// a whole game is played by buttons, `/move` and moves typed to `@bot`; a move typed
/// without the mention never reaches it; `/help` says how moves are made in this server.
/// Asking for the intent where the portal has it off ends the start, naming the fix.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_content_intent_a_server_plays_by_move_buttons_and_mentions() {
    let mut s = Server::new().await;
    let options = options(&s.fake, "no-content");
    // Asked for where it is off: 4014, and the operator is told what to do.
    let asking = Options {
        message_content: true,
        web: None,
        database_url: sqlite_url(&temp_db("dc", "no-content-asked")),
        ..options.clone()
    };
    let ended = tokio::time::timeout(WAIT, run(asking, std::future::pending()))
        .await
        .expect("the start ends");
    let err = ended.expect_err("refused");
    assert!(
        err.contains("MESSAGE_CONTENT") && err.contains("--message-content"),
        "{err}"
    );
    assert_eq!(s.fake.refused_identifies(), [4014]);
    let bot = RunningBot::spawn(|stopped| run(options, stopped));
    s.ready().await;
    assert_eq!(
        s.fake
            .intents()
            .map(|i| i & FakeDiscord::INTENT_MESSAGE_CONTENT),
        Some(0)
    );
    let board = s.start_game("classic3x3", "none").await;
    let help = s
        .fake
        .slash_command(board.channel, &s.alice, "help", &[], "en-US");
    let how = english(&Msg::HelpMentionsOnly {
        bot: FakeDiscord::BOT_NAME.into(),
    });
    let said = s.expect_text(&how).await;
    assert_eq!(said.channel, board.channel, "{help}");
    // Typed without the mention: the bot sees an empty message, and nothing is played.
    s.fake.message_create(board.channel, &s.alice, "c3-d3", &[]);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!s.all().iter().any(|m| says(m, &played_infix())));
    s.mention_bot = true;
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    s.play_random(board.channel, &mut game, 0x5eed, 300).await;
    assert!(game.ending().is_some(), "the game ended by its rules");
    s.expect_text(&game_over(1)).await;
    bot.stop().await;
}

/// Without the content intent Discord still gives a bot the text of DMs: a game against
/// the bot started by `/play` in alice's DM with it is played by moves typed there, and each
/// is answered with its board and the bot's reply.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_content_intent_moves_typed_in_a_dm_are_played() {
    let s = Server::new().await;
    let options = Options {
        guild: None,
        ..options(&s.fake, "no-content-dm")
    };
    let bot = RunningBot::spawn(|stopped| run(options, stopped));
    s.ready().await;
    let dm = s.fake.dm_channel(&s.alice);
    s.fake.slash_command(
        dm,
        &s.alice,
        "play",
        &[
            ("level", OptionValue::Integer(1)),
            ("variant", OptionValue::String("classic3x3".into())),
            ("time", OptionValue::String("none".into())),
            ("color", OptionValue::String("white".into())),
        ],
        "en-US",
    );
    let in_dm =
        |f: &dyn Fn(&SentMessage) -> bool| s.fake.messages(dm).iter().filter(|m| f(m)).count();
    let board = s
        .fake
        .wait_until(WAIT, |_| {
            in_dm(&|m| says(m, &players("alice", "Bot L1"))) > 0
        })
        .await;
    assert!(board, "{:#?}", s.fake.messages(dm));
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0xd1a1);
    for ply in 0..3 {
        let moves = safe_moves(&game);
        let mv = rng.pick(&moves).clone();
        s.fake.message_create(dm, &s.alice, &mv, &[]);
        let answered = s
            .fake
            .wait_until(WAIT, |_| in_dm(&|m| says(m, &played("alice", &mv))) > 0)
            .await;
        assert!(
            answered,
            "typed {mv} (ply {ply}): {:#?}",
            s.fake.messages(dm)
        );
        game.play_text(&mv).expect("legal");
        // The bot's reply, read back from its board's caption.
        let replied = s
            .fake
            .wait_until(WAIT, |_| {
                in_dm(&|m| says(m, &played_infix()) && !says(m, &played_by("alice"))) > ply
            })
            .await;
        assert!(replied, "the bot's move after {mv}");
        let theirs = s
            .fake
            .messages(dm)
            .into_iter()
            .filter(|m| says(m, &played_infix()) && !says(m, &played_by("alice")))
            .nth(ply)
            .expect("the bot's move");
        assert!(!theirs.attachments.is_empty(), "{theirs:#?}");
        let reply = game
            .legal_move_texts()
            .into_iter()
            .find(|m| says(&theirs, &played_move(m)))
            .unwrap_or_else(|| panic!("a legal reply: {}", text(&theirs)));
        game.play_text(&reply).expect("legal");
    }
    bot.stop().await;
}
