//! Games in a server's threads: a challenge taken by button, its thread, typed moves, `/move`,
//! boards by buttons, stale presses, flags, draws and resignations, and a game against the
//! bot.

use crate::harness::*;

// One story: challenge, accept, thread, a whole game, its boards.
#[allow(clippy::too_many_lines)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_by_slash_command_is_accepted_by_button_and_played_in_a_thread() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "game");
    s.ready().await;
    // Every command carries its description in every language, installs on servers and
    // on accounts, and works in servers, the bot's DMs and a user's own DMs (a
    // user-installed app).
    let commands = s.fake.commands();
    assert!(
        commands.iter().any(|c| c.name == "challenge") && commands.iter().any(|c| c.name == "play")
    );
    for c in commands {
        assert!(c.description_localizations.contains_key("ru"), "{c:#?}");
        assert_eq!(c.integration_types, [0, 1], "{}", c.name);
        assert_eq!(c.contexts, Some(vec![0, 1, 2]), "{}", c.name);
    }
    let board = s.start_game("classic3x3", "none").await;
    // No Activity set up: no button to open one.
    assert!(!has_button(&board, &english(&Msg::BtnOpenBoard)));
    let thread = s
        .fake
        .threads()
        .into_iter()
        .next()
        .expect("a thread for the game");
    assert_eq!(
        board.channel, thread.id,
        "the board is in the game's thread"
    );
    // The challenge lost its buttons.
    let taken = english(&Msg::ChallengeTaken {
        id: 1,
        by: "bob".into(),
        game: 1,
    });
    let ok = s
        .fake
        .wait_until(WAIT, |f| {
            f.messages(FakeDiscord::CHANNEL_ID)
                .iter()
                .any(|m| says(m, &taken) && m.components.is_empty())
        })
        .await;
    assert!(ok, "{:#?}", s.fake.messages(FakeDiscord::CHANNEL_ID));
    // /move suggests the legal moves of the player's game, as typed so far.
    let id = s.fake.autocomplete(
        thread.id,
        &s.alice,
        "move",
        &[("move", OptionValue::Focused("c3".into()))],
        "en-US",
    );
    let ok = s
        .fake
        .wait_until(WAIT, |f| {
            f.interaction(id).is_some_and(|r| !r.choices.is_empty())
        })
        .await;
    let choices: Vec<String> = s
        .fake
        .interaction(id)
        .map(|r| r.choices.iter().map(|(n, _)| n.clone()).collect())
        .unwrap_or_default();
    assert!(ok, "no suggestions");
    assert_eq!(choices, ["c3-d3", "c3-c4"]);
    // A full Corners game: typed moves in the thread and /move, to its end by the rules.
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    s.play_random(thread.id, &mut game, 0x5eed, 200).await;
    assert!(game.ending().is_some());
    s.expect_text(&game_over(1)).await;
    // A full Damas game in its own thread, to its end (no pieces or no move, D5) or, if
    // random play drags on, a resignation.
    let board = s.start_game("damas", "none").await;
    let mut game = Game::new(&Rules::Damas { flying: true });
    s.play_random(board.channel, &mut game, 0xda5, 300).await;
    if game.ending().is_none() {
        let newest = s
            .expect("the newest board", |m| {
                m.channel == board.channel && !m.components.is_empty()
            })
            .await;
        let who = if game.turn() == ugolki_core::Color::White {
            &s.alice
        } else {
            &s.bob
        };
        s.resign(who, &newest, 2).await;
        s.expect_text(&game_line(2)).await;
    } else {
        s.expect_text(&game_over(2)).await;
    }
    // An illegal move is answered.
    let boards: Vec<SentMessage> = s
        .fake
        .messages(thread.id)
        .into_iter()
        .filter(|m| !m.attachments.is_empty())
        .collect();
    assert!(boards.len() > 20);
    for b in &boards {
        assert!(decodes(&b.attachments[0].bytes), "board {} decodes", b.id);
    }
    bot.stop().await;
}

/// Two challenges in one channel, accepted in the other order: each game's thread grows
/// from its own challenge's message (it used to take the newest challenge's, failing for
/// good the second time and putting that game's boards in the channel).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_accepted_out_of_order_each_get_their_own_thread() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "threads");
    s.ready().await;
    let accept = english(&Msg::BtnAccept);
    let mut challenges = Vec::new();
    for variant in ["classic3x3", "damas"] {
        s.fake.slash_command(
            FakeDiscord::CHANNEL_ID,
            &s.alice,
            "challenge",
            &[
                ("opponent", OptionValue::User(s.bob.clone())),
                ("variant", OptionValue::String(variant.into())),
                ("time", OptionValue::String("none".into())),
            ],
            "en-US",
        );
        let n = challenges.len() + 1;
        let challenge = challenge_parts(&Msg::ChallengeTo {
            id: n as i64,
            from: "alice".into(),
            to: hole(),
            terms: hole_msg(),
            wish: None,
            minutes: 0,
            pair_limit: false,
            buttons: false,
        });
        let c = s
            .expect("a challenge", |m| {
                in_order(&text(m), &challenge) && has_button(m, &accept)
            })
            .await;
        challenges.push(c);
    }
    // The second challenge first (game #1), then the first (game #2).
    for (game, c) in [(1, &challenges[1]), (2, &challenges[0])] {
        s.press(&s.bob, c, &accept);
        let ok = s
            .fake
            .wait_until(WAIT, |f| {
                f.threads().iter().any(|t| {
                    t.name == english(&Msg::ThreadName { id: game }) && t.starter == Some(c.id)
                })
            })
            .await;
        assert!(ok, "game #{game}: {:#?}", s.fake.threads());
    }
    // Both boards are in their threads, none in the channel.
    let threads = s.fake.threads();
    assert_eq!(threads.len(), 2, "{threads:#?}");
    for t in &threads {
        let ok = s
            .fake
            .wait_until(WAIT, |f| {
                f.messages(t.id).iter().any(|m| !m.attachments.is_empty())
            })
            .await;
        assert!(ok, "no board in {}", t.name);
    }
    assert!(s
        .fake
        .messages(FakeDiscord::CHANNEL_ID)
        .iter()
        .all(|m| m.attachments.is_empty()));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_moves_buttons_stale_presses_and_a_flag() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "buttons");
    s.ready().await;
    let first = s.start_game("damas", "10s+0").await;
    let thread = first.channel;
    // The running clock is a Discord timestamp the client counts down.
    assert!(text(&first).contains("<t:"), "{}", text(&first));
    s.fake.message_create(thread, &s.alice, "a3-a4", &[]);
    s.expect_text(&lead(&Msg::Refused {
        text: "a3-a4".into(),
        reason: hole_msg(),
    }))
    .await;
    // What a player typed comes back in the refusal, `@everyone` and all: it pings nobody
    // (only a reply's own asker is told, as a reply).
    s.fake
        .message_create(thread, &s.alice, "!move @everyone", &[]);
    let echo = s.expect_text("@everyone").await;
    assert_eq!(echo.json["mention_everyone"], false, "{:#?}", echo.json);
    let pinged: Vec<&str> = echo.json["mentions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u["username"].as_str())
        .collect();
    assert_eq!(pinged, ["alice"], "{:#?}", echo.json);
    // Taking the buttons off the old board is slowed down (429s), so a player can still
    // press one after the game moved on: the press is refused privately as out of date.
    s.fake.fail_next(
        4,
        &["edit_message"],
        Failure::TooManyRequests {
            retry_after_ms: 100,
        },
    );
    s.fake.message_create(thread, &s.alice, "11-15", &[]);
    s.expect_text(&played_by("alice")).await;
    let resign = english(&Msg::BtnResign);
    let id = s.press(&s.bob, &first, &resign);
    assert!(s
        .private_answer(id)
        .await
        .contains(&english(&Msg::ButtonStale)));
    // Then the old board loses its buttons after all.
    let ok = s
        .fake
        .wait_until(WAIT, |f| {
            f.message(first.channel, first.id)
                .is_some_and(|m| m.components.is_empty())
        })
        .await;
    assert!(ok, "the old board keeps its buttons");
    // Plain-text commands with the prefix work too.
    s.fake
        .message_create(FakeDiscord::CHANNEL_ID, &s.bob, "!games", &[]);
    s.expect_text(&lead(&Msg::GamesLine {
        id: 1,
        rules: Box::new(Rules::Damas { flying: true }),
        opponent: hole(),
        my_turn: false,
        here: true,
    }))
    .await;
    let carol = FakeDiscord::user(23, "carol");
    let board = s
        .expect("the newest board", |m| says(m, &played_by("alice")))
        .await;
    let id = s.press(&carol, &board, &resign);
    assert!(s
        .private_answer(id)
        .await
        .contains(&english(&Msg::ButtonNotYours)));
    s.fake.message_create(thread, &s.bob, "22-18", &[]);
    s.expect_text(&played_by("bob")).await;
    // Nobody types: alice's ten seconds run out.
    s.expect_text(&english(&Msg::Flagged {
        id: 1,
        loser: "alice".into(),
        winner: "bob".into(),
    }))
    .await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_and_resign_by_buttons_through_429s_and_a_gateway_resume() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "resume");
    s.ready().await;
    let board = s.start_game("classic3x3", "none").await;
    let thread = board.channel;
    // A 429 on sending messages is waited out; nothing is lost.
    s.fake.fail_next(
        2,
        &["create_message"],
        Failure::TooManyRequests {
            retry_after_ms: 300,
        },
    );
    s.fake.message_create(thread, &s.alice, "c3-d3", &[]);
    s.expect_text(&played("alice", "c3-d3")).await;
    // The gateway drops; serenity resumes; a move sent meanwhile arrives exactly once.
    assert!(s.fake.disconnect());
    s.fake.message_create(thread, &s.bob, "f6-e6", &[]);
    s.expect_text(&played("bob", "f6-e6")).await;
    let ok = s.fake.wait_until(WAIT, |f| f.resume_count() >= 1).await;
    assert!(ok, "resumed");
    assert_eq!(
        s.all()
            .iter()
            .filter(|m| says(m, &played("bob", "f6-e6")))
            .count(),
        1
    );
    let board = s
        .expect("the newest board", |m| says(m, &played_by("bob")))
        .await;
    s.press(&s.alice, &board, &english(&Msg::BtnOfferDraw));
    let offered = first_sentence(&Msg::DrawOffered {
        by: "alice".into(),
        to: hole(),
        buttons: false,
    });
    let offer = s
        .expect("an offer", |m| {
            says(m, &offered) && !m.components.is_empty()
        })
        .await;
    s.press(&s.bob, &offer, &english(&Msg::BtnDeclineDraw));
    let declined = s
        .expect_text(&english(&Msg::DrawDeclined { by: "bob".into() }))
        .await;
    s.resign(&s.bob, &declined, 1).await;
    s.expect_text(&english(&Msg::Resigned {
        id: 1,
        loser: "bob".into(),
        winner: "alice".into(),
    }))
    .await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_by_buttons_edit_the_board_and_play() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "buttons");
    s.ready().await;
    let first = s.start_game("classic3x3", "none").await;
    let channel = first.channel;
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let (resign, back) = (english(&Msg::BtnResign), english(&Msg::BtnBack));
    for ply in 0..6 {
        let board = s
            .expect("the newest board with its buttons", |m| {
                m.channel == channel && !m.attachments.is_empty() && has_button(m, &resign)
            })
            .await;
        // Five buttons to a row, five rows at most.
        assert!(board.components.len() <= 5 && board.components.iter().all(|r| r.len() <= 5));
        let mv = game.legal_move_texts()[ply % 2].clone();
        let squares: Vec<&str> = mv.split('-').collect();
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let who = if game.turn() == ugolki_core::Color::White {
            &s.alice
        } else {
            &s.bob
        };
        s.press(who, &board, from);
        // The same message is edited: its buttons become the destinations and Back.
        let picked = s
            .expect("the destinations", |m| {
                m.id == board.id && has_button(m, &back)
            })
            .await;
        s.press(who, &picked, to);
        game.play_text(&mv).unwrap();
        s.expect_text(&played_move(&mv)).await;
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_bot_by_the_play_command_is_answered_by_the_bot() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "play");
    s.ready().await;
    // (The fake refuses a command that is not registered.)
    s.fake.slash_command(
        FakeDiscord::CHANNEL_ID,
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
    let board = s
        .expect("the game's board", |m| {
            says(m, &players("alice", "Bot L1")) && has_button(m, "c3")
        })
        .await;
    // alice plays by buttons; the bot answers with nobody else there.
    s.press(&s.alice, &board, "c3");
    let back = english(&Msg::BtnBack);
    let picked = s
        .expect("the destinations", |m| {
            m.id == board.id && has_button(m, &back)
        })
        .await;
    s.press(&s.alice, &picked, "d3");
    s.expect_text(&played("alice", "c3-d3")).await;
    let answered = s
        .expect("the bot's move", |m| {
            says(m, &played_infix()) && !says(m, &played_by("alice"))
        })
        .await;
    assert!(!answered.attachments.is_empty(), "{answered:#?}");
    bot.stop().await;
}

/// Kicked from the server: its games are void (T2: the chat is gone), its challenges
/// cancelled, and the bot calls nothing of the server's again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn removed_from_a_server_the_bot_voids_its_games_and_posts_there_no_more() {
    let s = Server::new().await;
    let (bot, db) = RunningBot::start_reading(&s.fake, "removed");
    s.ready().await;
    // An untimed game (nothing but the removal ends it) with a move played.
    let board = s.start_game("classic3x3", "none").await;
    s.fake.message_create(board.channel, &s.alice, "c3-d3", &[]);
    s.expect_text(&played_by("alice")).await;
    let removed = std::time::Instant::now();
    s.fake.remove_bot();
    assert_eq!(cause_of(&db, 1).await.as_deref(), Some("chat-gone"));
    // Nothing more was asked of the server's channels (a board's call already under way
    // may have met the removal: refused, not retried).
    let after: Vec<String> = s
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.time > removed && c.path.starts_with("/channels/"))
        .map(|c| format!("{} {}", c.method, c.path))
        .collect();
    assert!(after.len() <= 1, "{after:#?}");
    bot.stop().await;
}

/// A server's outage (`GUILD_DELETE` with `unavailable`) is not a removal: its games go on;
/// and a removal during it (serenity's cache holds the server no more) still closes them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_servers_outage_closes_nothing_and_a_removal_during_it_closes_its_games() {
    let s = Server::new().await;
    let (bot, db) = RunningBot::start_reading(&s.fake, "outage");
    s.ready().await;
    let board = s.start_game("classic3x3", "none").await;
    s.fake.dispatch(
        "GUILD_DELETE",
        serde_json::json!({"id": FakeDiscord::GUILD_ID.to_string(), "unavailable": true}),
    );
    // The game still takes its moves, after the event had time to be handled (serenity
    // handles each event in a task of its own).
    tokio::time::sleep(Duration::from_millis(300)).await;
    s.fake.message_create(board.channel, &s.alice, "c3-d3", &[]);
    s.expect_text(&played_by("alice")).await;
    s.fake.message_create(board.channel, &s.bob, "f6-e6", &[]);
    s.expect_text(&played_by("bob")).await;
    // Removed while the server is still unavailable.
    s.fake.remove_bot();
    assert_eq!(cause_of(&db, 1).await.as_deref(), Some("chat-gone"));
    bot.stop().await;
}
