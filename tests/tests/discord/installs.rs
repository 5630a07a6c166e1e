//! The app installed to a user's account: a game on one message in a DM, and in a server
//! that never added the bot.

use crate::harness::*;

// One story, from the command to the game's end on one message: splitting it would
// scatter its state.
#[allow(clippy::too_many_lines)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_installed_challenge_in_a_dm_is_played_on_one_message_by_buttons() {
    let s = Server::new().await;
    let bot = RunningBot::start_in(&s.fake, "private", None, None);
    s.ready().await;
    // alice and bob added the app to their accounts; alice challenges bob in their own DM,
    // which the bot is not part of.
    s.fake.install_for_user(&s.alice);
    s.fake.install_for_user(&s.bob);
    let private = s.fake.private_channel(&[&s.alice, &s.bob]);
    let id = s.fake.slash_command(
        private,
        &s.alice,
        "challenge",
        &[
            ("opponent", OptionValue::User(s.bob.clone())),
            ("variant", OptionValue::String("classic3x3".into())),
            ("time", OptionValue::String("none".into())),
            ("color", OptionValue::String("white".into())),
        ],
        "en-US",
    );
    let newest = |what: &'static str, f: Box<dyn Fn(&SentMessage) -> bool + Send + Sync>| {
        let fake = &s.fake;
        async move {
            let ok = fake
                .wait_until(WAIT, |x| x.messages(private).iter().any(&f))
                .await;
            assert!(ok, "{what}: {:#?}", fake.messages(private));
            fake.messages(private)
                .into_iter()
                .rev()
                .find(|m| f(m))
                .expect("found")
        }
    };
    // The command's own response is the challenge, for everyone in the DM.
    let accept = english(&Msg::BtnAccept);
    let challenge = newest(
        "the challenge",
        Box::new(move |m: &SentMessage| !m.ephemeral && !m.loading && has_button(m, &accept)),
    )
    .await;
    assert_eq!(challenge.interaction, Some(id));
    s.press(&s.bob, &challenge, &english(&Msg::BtnAccept));
    // The same message becomes the board, and the whole game is played on it, by buttons.
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0xd_0a11_u64);
    let (resign, back) = (english(&Msg::BtnResign), english(&Msg::BtnBack));
    for _ in 0..400 {
        if game.ending().is_some() {
            break;
        }
        let board_id = challenge.id;
        let (r, b) = (resign.clone(), back.clone());
        let board = newest(
            "the board",
            Box::new(move |m: &SentMessage| {
                m.id == board_id
                    && !m.attachments.is_empty()
                    && !has_button(m, &b)
                    && has_button(m, &r)
            }),
        )
        .await;
        // Random moves, but none that loses at once (C6 asks for a confirmation first).
        let moves = safe_moves(&game);
        if moves.is_empty() {
            break;
        }
        let mv = rng.pick(&moves).clone();
        let squares: Vec<&str> = mv.split('-').collect();
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let who = if game.turn() == ugolki_core::Color::White {
            &s.alice
        } else {
            &s.bob
        };
        s.press(who, &board, from);
        let b = back.clone();
        let picked = newest(
            "the destinations",
            Box::new(move |m: &SentMessage| m.id == board_id && has_button(m, &b)),
        )
        .await;
        s.press(who, &picked, to);
        game.play_text(&mv).unwrap();
        let played = played_move(&mv);
        newest(
            "the move",
            Box::new(move |m: &SentMessage| m.id == board_id && says(m, &played)),
        )
        .await;
    }
    if game.ending().is_some() {
        let over = game_over(1);
        newest(
            "the result",
            Box::new(move |m: &SentMessage| says(m, &over)),
        )
        .await;
    } else {
        // No move left that does not lose at once: resign, by button, on that message.
        let board_id = challenge.id;
        let board = s.fake.message(private, board_id).expect("the board");
        let who = if game.turn() == ugolki_core::Color::White {
            &s.alice
        } else {
            &s.bob
        };
        s.press(who, &board, &resign);
        // (After ten moves or fewer a resignation annuls the game.)
        let resigned = Msg::Resigned {
            id: 1,
            loser: hole(),
            winner: hole(),
        };
        let annulled = Msg::ResignedAnnulled {
            id: 1,
            loser: hole(),
        };
        newest(
            "the resignation",
            Box::new(move |m: &SentMessage| fits(&text(m), &resigned) || fits(&text(m), &annulled)),
        )
        .await;
    }
    // /help there says plainly what is different.
    s.fake
        .slash_command(private, &s.alice, "help", &[], "en-US");
    let help = english(&Msg::DiscordPrivateHelp);
    newest(
        "the help for this chat",
        Box::new(move |m: &SentMessage| says(m, &help)),
    )
    .await;
    // Everything there went through the interactions: nothing was posted to the channel.
    assert!(
        s.fake
            .messages(private)
            .iter()
            .all(|m| m.interaction.is_some()),
        "{:#?}",
        s.fake.messages(private)
    );
    bot.stop().await;
}

/// A user-installed `/challenge` in a server that never added the bot (its interaction is
/// authorized by the user's install only): the game is played on the interaction's own
/// message, as in a DM between users; nothing is posted to the channel, where the bot has
/// no access, and no permission is asked for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_installed_challenge_in_a_server_without_the_bot_plays_on_its_message() {
    let s = Server::new().await;
    let bot = RunningBot::start_in(&s.fake, "foreign", None, None);
    s.ready().await;
    s.fake.install_for_user(&s.alice);
    s.fake.install_for_user(&s.bob);
    let channel = s.fake.foreign_channel("elsewhere");
    let id = s.fake.slash_command(
        channel,
        &s.alice,
        "challenge",
        &[
            ("opponent", OptionValue::User(s.bob.clone())),
            ("variant", OptionValue::String("classic3x3".into())),
            ("time", OptionValue::String("none".into())),
            ("color", OptionValue::String("white".into())),
        ],
        "en-US",
    );
    let newest = |what: &'static str, f: Box<dyn Fn(&SentMessage) -> bool + Send + Sync>| {
        newest_in(&s.fake, channel, what, f)
    };
    let accept = english(&Msg::BtnAccept);
    let challenge = newest(
        "the challenge",
        Box::new(move |m: &SentMessage| !m.ephemeral && !m.loading && has_button(m, &accept)),
    )
    .await;
    assert_eq!(challenge.interaction, Some(id));
    s.press(&s.bob, &challenge, &english(&Msg::BtnAccept));
    let resign = english(&Msg::BtnResign);
    let at = challenge.id;
    let board = newest(
        "the board on the same message",
        Box::new(move |m: &SentMessage| {
            m.id == at && !m.attachments.is_empty() && has_button(m, &resign)
        }),
    )
    .await;
    // A move by buttons, on that message.
    s.press(&s.alice, &board, "c3");
    let back = english(&Msg::BtnBack);
    let picked = newest(
        "the destinations",
        Box::new(move |m: &SentMessage| m.id == at && has_button(m, &back)),
    )
    .await;
    s.press(&s.alice, &picked, "d3");
    let played = played_move("c3-d3");
    newest(
        "the move",
        Box::new(move |m: &SentMessage| m.id == at && says(m, &played)),
    )
    .await;
    // The bot never tried the channel itself.
    let tried: Vec<String> = s
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.route == "create_message" || c.route == "create_thread")
        .map(|c| c.route)
        .collect();
    assert!(tried.is_empty(), "{tried:?}");
    bot.stop().await;
}

/// The newest message in `channel` that satisfies `f`, waited for.
async fn newest_in(
    fake: &FakeDiscord,
    channel: u64,
    what: &str,
    f: Box<dyn Fn(&SentMessage) -> bool + Send + Sync>,
) -> SentMessage {
    let ok = fake
        .wait_until(WAIT, |x| x.messages(channel).iter().any(&f))
        .await;
    assert!(ok, "{what}: {:#?}", fake.messages(channel));
    fake.messages(channel)
        .into_iter()
        .rev()
        .find(|m| f(m))
        .expect("found")
}

/// A public answer made by editing an interaction's deferred response (the app where the
/// bot is no member) pings nobody either, whatever a player's name says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_saying_everyone_in_a_one_message_answer_pings_nobody() {
    let s = Server::new().await;
    let bot = RunningBot::start_in(&s.fake, "private-pings", None, None);
    s.ready().await;
    let loud = FakeDiscord::user(31, "@everyone");
    s.fake.install_for_user(&loud);
    s.fake.install_for_user(&s.bob);
    let private = s.fake.private_channel(&[&loud, &s.bob]);
    s.fake.slash_command(
        private,
        &loud,
        "challenge",
        &[
            ("opponent", OptionValue::User(s.bob.clone())),
            ("variant", OptionValue::String("classic3x3".into())),
            ("time", OptionValue::String("none".into())),
        ],
        "en-US",
    );
    let accept = english(&Msg::BtnAccept);
    let ok = s
        .fake
        .wait_until(WAIT, |f| {
            f.messages(private)
                .iter()
                .any(|m| !m.loading && has_button(m, &accept))
        })
        .await;
    let messages = s.fake.messages(private);
    assert!(ok, "{messages:#?}");
    let challenge = messages
        .iter()
        .find(|m| has_button(m, &accept))
        .expect("the challenge");
    assert!(text(challenge).contains("@everyone"), "{challenge:#?}");
    assert_eq!(
        challenge.json["mention_everyone"], false,
        "{:#?}",
        challenge.json
    );
    bot.stop().await;
}
