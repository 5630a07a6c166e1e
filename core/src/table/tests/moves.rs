//! Moves: who may move, why a move is refused, repeats and races, several games at once,
//! and the commands that show a game.

use super::*;

#[tokio::test]
async fn challenge_accept_and_first_move_with_board() {
    let c = chat().await;
    let id = c.start("classic3x4 3+2").await;
    let out = c.say("alice", "d3-e3").await;
    assert_eq!(out.len(), 1);
    let o = &out[0];
    assert_eq!(
        o.message,
        Msg::AfterMove {
            mover: "alice".into(),
            recorded: "d3-e3".into(),
            status: Box::new(Msg::Status {
                move_no: 1,
                clocks: Some(Box::new(Msg::StatusClocks {
                    white: "alice".into(),
                    white_clock: Duration(182_000),
                    black: "bob".into(),
                    black_clock: Duration(180_000),
                })),
                deadline: Some(40),
                limit: Some(80),
                to_move: "bob".into(),
            }),
            offer_declined: false,
        }
    );
    assert_eq!(o.audience, Audience::Chat);
    assert_eq!(o.slot, Some(SlotUse::Replace(Slot::Board(id))));
    assert_eq!((o.game, o.ply), (Some(id), Some(1)));
    assert_eq!(without_squares(&o.actions), game_buttons(id, 1));
    let board = c.view(o).await;
    assert!(board.flip, "oriented for Black, who moves next");
    assert_eq!(board.last_path, [sq("d3"), sq("e3")]);
    assert_eq!(board.to_move, Some(Color::Black));
    assert_eq!(
        (board.white_clock_ms, board.black_clock_ms),
        (Some(182_000), Some(180_000))
    );
    assert_eq!(
        (board.white.as_str(), board.black.as_str()),
        ("alice", "bob")
    );
    assert!(board
        .pieces
        .iter()
        .any(|p| p.square == sq("e3") && p.color == Color::White));
    assert!(!board.pieces.iter().any(|p| p.square == sq("d3")));
    assert_eq!(c.moves(id).await, ["d3-e3"]);
}

#[tokio::test]
async fn c2_only_players_move_in_turn_and_bad_moves_get_a_reason() {
    let c = chat().await;
    let id = c.start("").await;
    assert_eq!(c.refused("bob", "f6-e6").await, Msg::NotYourTurn);
    assert!(
        c.say("carol", "c3-d3").await.is_empty(),
        "a bystander's move-shaped text is not for us"
    );
    assert_eq!(
        c.refused("carol", &format!("/move {id} c3-d3")).await,
        Msg::NotYourGame { id }
    );
    assert_eq!(
        c.refused("alice", "c3-e5").await,
        Msg::Refused {
            text: "c3-e5".into(),
            reason: Box::new(Msg::IllUnreachable {
                from: sq("c3"),
                to: sq("e5")
            }),
        }
    );
    // C2, said precisely: a diagonal step where pieces move orthogonally, one jump's
    // shape over an empty square, a move onto its own square.
    for (typed, reason) in [
        (
            "c3-d4",
            Msg::IllNotDiagonally {
                from: sq("c3"),
                to: sq("d4"),
            },
        ),
        ("c3-c5", Msg::IllNothingToJump { square: sq("c4") }),
        ("c3-c3", Msg::IllSameSquare { square: sq("c3") }),
    ] {
        assert_eq!(
            c.refused("alice", typed).await,
            Msg::Refused {
                text: typed.into(),
                reason: Box::new(reason)
            }
        );
    }
    assert_eq!(
        c.refused("alice", "a1-b1").await,
        Msg::Refused {
            text: "a1-b1".into(),
            reason: Box::new(Msg::IllOccupied { square: sq("b1") }),
        }
    );
    assert!(c.say("alice", "hello there").await.is_empty());
    assert_eq!(
        c.refused("alice", &format!("/move {} c3-d3", id + 5)).await,
        Msg::NoSuchGame { id: id + 5 }
    );
    assert!(c.moves(id).await.is_empty(), "nothing was played");
    assert!(matches!(
        c.said("alice", "c3 d3").await,
        Msg::AfterMove { ref recorded, .. } if recorded == "c3-d3"
    ));
    assert_eq!(c.moves(id).await, ["c3-d3"]);
}

#[tokio::test]
async fn a_repeated_message_is_handled_once() {
    let c = chat().await;
    let id = c.start("").await;
    let msg = c.incoming("alice", "c3-d3");
    assert_eq!(c.table.handle(&msg).await.len(), 1);
    assert!(c.table.handle(&msg).await.is_empty());
    assert_eq!(c.moves(id).await.len(), 1);
}

fn played(m: &Msg, who: &str, what: &str) -> bool {
    matches!(m, Msg::AfterMove { mover, recorded, .. } if mover == who && recorded == what)
}

#[tokio::test]
async fn two_games_at_once_in_one_chat() {
    let c = chat().await;
    let g1 = c.start("").await;
    c.say("alice", "/challenge @carol white").await;
    let g2 = c.say("carol", "/accept").await[1].game.unwrap();
    let several = Msg::SeveralGames {
        ids: List(vec![Msg::GameNumber { id: g1 }, Msg::GameNumber { id: g2 }]),
        first: g1,
    };
    // A move's answer shows the move typed, named by the game's number.
    let typed = Msg::SeveralGamesMove {
        ids: List(vec![Msg::GameNumber { id: g1 }, Msg::GameNumber { id: g2 }]),
        first: g1,
        text: "c3-d3".into(),
    };
    assert_eq!(c.refused("alice", "c3-d3").await, typed);
    assert_eq!(c.refused("alice", "/move c3-d3").await, typed);
    for lang in crate::words::Lang::all() {
        let text = crate::words::render(&typed, lang);
        for example in [format!("/move {g1} c3-d3"), format!("/resign {g1}")] {
            assert!(text.contains(&example), "{lang:?}: {text}");
        }
    }
    // A long move is echoed cut, and said to be.
    let long = format!("c3-d3{}", "-e3".repeat(400));
    let cut = c.refused("alice", &long).await;
    assert!(
        matches!(&cut, Msg::SeveralGamesMove { text, .. } if text == "c3-d3-e3-e3-e3-e3-e3…"),
        "{cut:?}"
    );
    // `/moves c3` (a square, not a move) gets the general answer.
    assert_eq!(c.refused("alice", "/moves c3").await, several);
    for lang in crate::words::Lang::all() {
        let text = crate::words::render(&several, lang);
        assert!(
            text.contains(&format!("/move {g1} c3-d4")),
            "{lang:?}: {text}"
        );
    }
    // Any other command of one game asks the same, and the answer shows how to name the
    // game to that command.
    for command in ["resign", "board", "draw", "hint", "record"] {
        let asked = Msg::SeveralGamesFor {
            ids: List(vec![Msg::GameNumber { id: g1 }, Msg::GameNumber { id: g2 }]),
            first: g1,
            command: command.into(),
        };
        assert_eq!(c.refused("alice", &format!("/{command}")).await, asked);
        for lang in crate::words::Lang::all() {
            let text = crate::words::render(&asked, lang);
            assert!(
                text.contains(&format!("/{command} {g1}")),
                "{lang:?}: {text}"
            );
        }
    }
    assert!(played(
        &c.said("alice", &format!("/move {g2} c3-d3")).await,
        "alice",
        "c3-d3"
    ));
    assert!(played(&c.said("carol", "f6-e6").await, "carol", "f6-e6"));
    assert!(played(
        &c.said("alice", &format!("/move {g1} b3-b4")).await,
        "alice",
        "b3-b4"
    ));
    assert!(played(&c.said("bob", "f6-f5").await, "bob", "f6-f5"));
    assert_eq!(c.moves(g1).await, ["b3-b4", "f6-f5"]);
    assert_eq!(c.moves(g2).await, ["c3-d3", "f6-e6"]);
    let rules = crate::game::Rules::from_id("classic3x3").unwrap();
    let line = |id, opponent: &str| Msg::GamesLine {
        id,
        rules: Box::new(rules.clone()),
        opponent: opponent.into(),
        my_turn: true,
        here: true,
    };
    assert_eq!(
        c.said("alice", "/games").await,
        Msg::Lines(vec![line(g1, "bob"), line(g2, "carol")])
    );
}

#[tokio::test]
async fn concurrent_messages_for_one_game_never_apply_twice() {
    let c = chat().await;
    let id = c.start("").await;
    // Two different texts for the same move, sent at once: exactly one is played.
    let a = c.incoming("alice", "c3-d3");
    let b = c.incoming("alice", "c3 d3");
    let (ra, rb) = tokio::join!(c.table.handle(&a), c.table.handle(&b));
    let played = [ra, rb]
        .iter()
        .filter(|r| r.iter().any(|o| matches!(o.message, Msg::AfterMove { .. })))
        .count();
    assert_eq!(played, 1);
    assert_eq!(c.moves(id).await.len(), 1);
}

#[tokio::test]
async fn the_same_message_twice_at_once_is_played_and_answered_once() {
    let c = chat().await;
    let id = c.start("").await;
    let msg = c.incoming("alice", "c3-d3");
    let (a, b) = tokio::join!(c.table.handle(&msg), c.table.handle(&msg));
    assert_eq!(a.len() + b.len(), 1, "one answer: {a:?} {b:?}");
    assert_eq!(c.moves(id).await.len(), 1);
    // A refused move is recorded too: re-sent later, when it would be legal, it stays unplayed.
    let early = c.incoming("bob", "f6-e6");
    let msg2 = c.incoming("alice", "b3-b4");
    assert_eq!(only_private(&c.table.handle(&msg2).await), Msg::NotYourTurn);
    c.table.handle(&early).await;
    assert!(
        c.table.handle(&msg2).await.is_empty(),
        "the re-sent refused move is ignored"
    );
    assert_eq!(c.moves(id).await.len(), 2);
}

#[tokio::test]
async fn boards_moves_help_and_rules() {
    let c = chat().await;
    let id = c.start("").await;
    let out = c.say("alice", "/moves c3").await;
    assert_eq!(
        messages(&out),
        [Msg::MovesFrom {
            square: sq("c3"),
            list: "d3, c4".into()
        }]
    );
    let b = c.view(&out[0]).await;
    assert_eq!(b.selected, Some(sq("c3")));
    assert_eq!(b.destinations.len(), 2);
    assert!(!b.flip, "alice sees her own side");
    assert_eq!(
        c.refused("alice", "/moves a1").await,
        Msg::NoMovesFrom { square: sq("a1") }
    );
    assert_eq!(
        c.refused("alice", "/moves zz").await,
        Msg::BadSquare { text: "zz".into() }
    );
    let out = c.say("bob", "/board").await;
    assert!(matches!(out[0].message, Msg::BoardCaption { id: i, .. } if i == id));
    assert!(out[0].board().unwrap().flip, "bob sees his own side");
    assert_eq!(out[0].slot, Some(SlotUse::Replace(Slot::Board(id))));
    assert_eq!(out[0].ply, None, "showing the board again starts no clock");
    assert_eq!(without_squares(&out[0].actions), game_buttons(id, 0));
    assert_eq!(c.said("carol", "/help").await, Msg::Help);
    assert!(matches!(
        c.said("carol", "/rules diagonal3x3").await,
        Msg::RulesCorners {
            diagonal: true,
            deadline: Some(30),
            limit: Some(80),
            ..
        }
    ));
    assert_eq!(
        c.said("carol", "/rules damas").await,
        Msg::RulesDamas { flying: true }
    );
    // D3: the words a challenge takes name the short kings too.
    for words in [
        "damas short",
        "short damas",
        "Damas-Short",
        "checkers short",
    ] {
        assert_eq!(
            c.said("carol", &format!("/rules {words}")).await,
            Msg::RulesDamas { flying: false },
            "{words}"
        );
    }
    assert_eq!(
        c.refused("carol", "/frobnicate").await,
        Msg::CmdUnknown {
            name: "frobnicate".into()
        }
    );
    assert_eq!(
        c.refused("carol", &format!("/help {}", "x".repeat(600)))
            .await,
        Msg::CmdTooLong {
            max: command::MAX_MESSAGE
        }
    );
}

/// `/help` in a group says how moves reach the bot where the platform gives it only some
/// messages (Telegram's privacy mode, Discord without the content intent); a private chat
/// and a group that gives it everything get the plain help.
#[tokio::test]
async fn help_in_a_group_says_how_moves_reach_the_bot_there() {
    let config = |group_reading| Config {
        bot_name: Some("ugolki_bot".into()),
        group_reading,
        ..Config::default()
    };
    let c = chat_with(config(GroupReading::CommandsAndReplies)).await;
    assert_eq!(
        c.said("carol", "/help").await,
        Msg::Lines(vec![
            Msg::Help,
            Msg::HelpCommandsOnly {
                bot: "ugolki_bot".into()
            }
        ])
    );
    let mut private = chat_with(config(GroupReading::CommandsAndReplies)).await;
    private.chat = ChatRef::new(Platform::Test, "carol", ChatKind::Private);
    assert_eq!(private.said("carol", "/help").await, Msg::Help);
    let c = chat_with(config(GroupReading::Mentions)).await;
    assert_eq!(
        c.said("carol", "/help").await,
        Msg::Lines(vec![
            Msg::Help,
            Msg::HelpMentionsOnly {
                bot: "ugolki_bot".into()
            }
        ])
    );
    let c = chat_with(config(GroupReading::Everything)).await;
    assert_eq!(c.said("carol", "/help").await, Msg::Help);
}

#[tokio::test]
async fn replies_follow_the_senders_language_hint() {
    let c = chat().await;
    let mut msg = c.incoming("carol", "/help");
    msg.origin.locale = Some("en-GB".into());
    let out = c.table.handle(&msg).await;
    assert_eq!(out[0].lang, crate::words::Lang::EN);
    assert_eq!(out[0].message, Msg::Help);
    let mut msg = c.incoming("carol", "/help");
    msg.origin.locale = Some("xx".into());
    assert_eq!(
        c.table.handle(&msg).await[0].lang,
        crate::words::Lang::EN,
        "a language we do not speak falls back to English"
    );
}

/// A group that became a supergroup has a new chat id: its running game goes on there —
/// moves typed in the new chat play, and a timer's line (a flag) goes to the new chat.
#[tokio::test]
async fn a_chat_moved_to_a_new_id_keeps_its_game_and_clock() {
    let mut c = chat().await;
    let id = c.start("classic3x3 1+0").await;
    c.say("alice", "c3-d3").await;
    c.table.chat_moved(Platform::Test, "room", "super").await;
    // In the old chat the game is gone; in the new one Bob's move plays.
    assert!(
        c.say("bob", "f6-e6").await.is_empty(),
        "not for the old chat"
    );
    c.chat = room("super");
    let out = c.say("bob", "f6-e6").await;
    assert!(
        out.iter()
            .any(|o| matches!(o.message, Msg::AfterMove { .. }) && o.chat.id == "super"),
        "{out:#?}"
    );
    c.time.advance(2 * 60_000);
    let out = c.table.fire_due().await;
    assert!(
        out.iter().any(|o| o.chat.id == "super"
            && match &o.message {
                Msg::Lines(lines) =>
                    matches!(lines.first(), Some(Msg::Flagged { id: g, .. }) if *g == id),
                m => matches!(m, Msg::Flagged { id: g, .. } if *g == id),
            }),
        "{out:#?}"
    );
    // Said again (the new chat announces it too): nothing more moves.
    c.table.chat_moved(Platform::Test, "room", "super").await;
    assert_eq!(c.row(id).await.chat, "super");
}

/// D3, C1: `/rules` without words, from a player in a game here, is that game's rules (a
/// short-kings Damas game's kings step); from anyone else, both games' usual rules.
#[tokio::test]
async fn d3_rules_asked_in_a_game_are_that_games_own() {
    let c = chat().await;
    c.start("damas short").await;
    assert_eq!(
        c.said("alice", "/rules").await,
        Msg::RulesDamas { flying: false }
    );
    assert_eq!(
        c.said("bob", "/rules").await,
        Msg::RulesDamas { flying: false }
    );
    assert!(matches!(c.said("carol", "/rules").await, Msg::Lines(l) if l.len() == 2));
}

/// `/help` names every other command of the menu, in every language (an alias aside: `/start`
/// is `/help`, `/m` is `/move`), so a player finds languages and tournaments there.
#[test]
fn help_names_every_command_in_every_language() {
    for lang in crate::words::Lang::all() {
        let help = crate::words::render(&Msg::Help, lang);
        for name in command::MENU
            .iter()
            .filter(|c| !matches!(**c, "start" | "help" | "m"))
        {
            let named = help.match_indices(&format!("/{name}")).any(|(at, m)| {
                !help[at + m.len()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric)
            });
            assert!(named, "{lang:?}: /{name} is not in /help");
        }
    }
}

/// `/help` from the Discord app where the bot is no member (a one-message chat) also says
/// what is different there; nowhere else.
#[tokio::test]
async fn help_on_discords_one_message_chats_says_what_differs_there() {
    let c = chat().await;
    let user = User {
        id: "7".into(),
        name: "alice".into(),
        handle: None,
    };
    let asked = |platform: Platform, kind| Incoming {
        // (Each its own interaction: a repeated id is handled once.)
        origin: Origin::interaction(
            ChatRef::new(platform, "55", kind),
            user.clone(),
            format!("i:{platform:?}{kind:?}"),
        ),
        input: Input::Command(Command::Help),
    };
    let out = c
        .table
        .handle(&asked(Platform::Discord, ChatKind::OneMessage))
        .await;
    let said: Vec<&Msg> = out.iter().map(|o| &o.message).collect();
    assert_eq!(said, [&Msg::Help, &Msg::DiscordPrivateHelp]);
    for (platform, kind) in [
        (Platform::Discord, ChatKind::Private),
        (Platform::Telegram, ChatKind::OneMessage),
    ] {
        let out = c.table.handle(&asked(platform, kind)).await;
        let said: Vec<&Msg> = out.iter().map(|o| &o.message).collect();
        assert_eq!(said, [&Msg::Help], "{platform:?} {kind:?}");
    }
}

/// D1: `/moves` on a square no piece stands on in Damas (a light one) says so, as a move
/// from it does, rather than that nothing can move from it now.
#[tokio::test]
async fn d1_moves_from_a_light_square_names_it_not_a_playing_square() {
    let c = chat().await;
    c.start("damas").await;
    assert_eq!(
        c.refused("alice", "/moves c3").await,
        Msg::IllNotPlaying { square: sq("c3") }
    );
    assert!(matches!(
        c.said("alice", "/moves d3").await,
        Msg::MovesFrom { square, .. } if square == sq("d3")
    ));
    assert_eq!(
        c.refused("alice", "/moves d1").await,
        Msg::NoMovesFrom { square: sq("d1") },
        "a playing square whose piece cannot move"
    );
}
