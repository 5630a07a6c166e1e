//! Hostile input, round two: every answer bounded, numbers said as typed, a bare
//! `/decline` that asks.

use super::*;
use crate::words::{render, Lang, LISTED};
use proptest::prelude::*;

/// The smallest text a platform takes in one message (Discord's 2,000 characters).
const PLATFORM_LIMIT: usize = 2000;

/// Every reply, rendered in every language, within the platform's limit.
fn all_fit(out: &[Outgoing]) {
    for o in out {
        for lang in Lang::all() {
            let text = render(&o.message, lang);
            assert!(
                text.chars().count() <= PLATFORM_LIMIT,
                "{} characters in {}: {text}",
                text.chars().count(),
                lang.code()
            );
        }
    }
}

/// `n` players each challenge bob; the challenges' ids, oldest first.
async fn challenged_by(c: &Room, n: usize) -> Vec<i64> {
    let mut ids = Vec::new();
    for i in 0..n {
        let out = c.say(&format!("p{i}"), "/challenge @bob").await;
        match out.first().map(|o| head(&o.message)) {
            Some(Msg::ChallengeTo { id, .. }) => ids.push(*id),
            other => panic!("{other:?}"),
        }
    }
    ids
}

#[tokio::test]
async fn f3_a_bare_accept_lists_the_newest_few_and_counts_the_rest() {
    let c = chat().await;
    let ids = challenged_by(&c, 25).await;
    let out = c.say("bob", "/accept").await;
    all_fit(&out);
    let m = only_private(&out);
    let Msg::WhichChallenge {
        list,
        first,
        more,
        decline,
    } = &m
    else {
        panic!("{m:?}")
    };
    let listed: Vec<i64> = list
        .0
        .iter()
        .map(|b| match b {
            Msg::ChallengeBrief { id, .. } => *id,
            other => panic!("{other:?}"),
        })
        .collect();
    let newest: Vec<i64> = ids.iter().rev().take(LISTED).copied().collect();
    assert_eq!(listed, newest);
    assert_eq!((*first, *more, *decline), (newest[0], 15, false));
    let english = crate::words::english(&m);
    assert!(english.contains(", and 15 more."), "{english}");
    assert!(
        english.ends_with(&format!("/accept {}.", newest[0])),
        "{english}"
    );
    for lang in Lang::all() {
        let text = render(&m, lang);
        assert!(text.contains(" 15") && text.contains("/accept"), "{text}");
        assert!(!text.contains("/decline"), "{text}");
    }
    assert!(c.store.active_games().await.unwrap().is_empty(), "no game");
}

#[tokio::test]
async fn f3_a_bare_decline_with_several_open_asks_which_and_declines_nothing() {
    let c = chat().await;
    let ids = challenged_by(&c, 3).await;
    let m = c.refused("bob", "/decline").await;
    let Msg::WhichChallenge {
        first,
        more,
        decline,
        ..
    } = &m
    else {
        panic!("{m:?}")
    };
    assert_eq!((*first, *more, *decline), (ids[2], 0, true));
    for lang in Lang::all() {
        let text = render(&m, lang);
        assert!(text.contains(&format!("/decline {}", ids[2])), "{text}");
    }
    // Nothing was declined: each can still be accepted or declined by number.
    let out = c.say("bob", &format!("/decline {}", ids[0])).await;
    assert!(
        matches!(head(&out[0].message), Msg::Declined { id, .. } if *id == ids[0]),
        "{out:#?}"
    );
    // With one left for bob... two: still asks; with one, a bare /decline takes it.
    c.say("bob", &format!("/decline {}", ids[1])).await;
    let out = c.say("bob", "/decline").await;
    assert!(
        matches!(head(&out[0].message), Msg::Declined { id, .. } if *id == ids[2]),
        "{out:#?}"
    );
}

/// F3: a bare `/cancel` with several of one's own challenges open asks which and cancels
/// none; a number (a Cancel button's) of one no longer open is told it is not open.
#[tokio::test]
async fn f3_a_bare_cancel_with_several_open_asks_which_and_cancels_nothing() {
    let c = chat().await;
    let mut ids = Vec::new();
    for to in ["bob", "carol"] {
        let out = c.say("alice", &format!("/challenge @{to}")).await;
        match out.first().map(|o| head(&o.message)) {
            Some(Msg::ChallengeTo { id, .. }) => ids.push(*id),
            other => panic!("{other:?}"),
        }
    }
    let m = c.refused("alice", "/cancel").await;
    let Msg::WhichToCancel { list, first, more } = &m else {
        panic!("{m:?}")
    };
    assert_eq!((*first, *more, list.0.len()), (ids[1], 0, 2));
    for lang in Lang::all() {
        let text = render(&m, lang);
        assert!(text.contains(&format!("/cancel {}", ids[1])), "{text}");
        assert!(text.contains(&format!("#{}", ids[0])), "{text}");
    }
    // Nothing was cancelled: the newest goes by number, then its old number is not open…
    let out = c.say("alice", &format!("/cancel {}", ids[1])).await;
    assert!(
        matches!(head(&out[0].message), Msg::Cancelled { id } if *id == ids[1]),
        "{out:#?}"
    );
    assert_eq!(
        c.refused("alice", &format!("/cancel {}", ids[1])).await,
        Msg::NoSuchChallenge { id: ids[1] }
    );
    // …and with one left, a bare /cancel takes it.
    let out = c.say("alice", "/cancel").await;
    assert!(
        matches!(head(&out[0].message), Msg::Cancelled { id } if *id == ids[0]),
        "{out:#?}"
    );
    assert_eq!(c.refused("alice", "/cancel").await, Msg::NothingToCancel);
}

#[tokio::test]
async fn games_lists_ten_and_says_how_many_more() {
    let c = chat().await;
    for i in 0..13 {
        let p = format!("q{i}");
        c.say(&p, "/challenge @bob").await;
        let out = c.say("bob", "/accept").await;
        assert!(
            out.iter().any(|o| o.board().is_some()),
            "game {i}: {out:#?}"
        );
    }
    let out = c.say("bob", "/games").await;
    all_fit(&out);
    let Msg::Lines(lines) = &out[0].message else {
        panic!("{out:#?}")
    };
    assert_eq!(lines.len(), LISTED + 1);
    assert_eq!(lines[LISTED], Msg::AndMore { count: 3 });
}

#[tokio::test]
async fn numbers_out_of_range_are_said_as_typed_never_rounded() {
    let c = chat().await;
    // In range, but no such challenge: the number exactly (Fluent keeps numbers as f64).
    let m = c.refused("bob", "/accept 9223372036854775807").await;
    assert_eq!(m, Msg::NoSuchChallenge { id: i64::MAX });
    for lang in Lang::all() {
        let text = render(&m, lang);
        assert!(text.contains("9223372036854775807"), "{text}");
    }
    // Past any number a game or challenge can have: one clear answer, as typed.
    for (line, typed) in [
        ("/accept 9223372036854775808", "9223372036854775808"),
        ("/move 9223372036854775808 a1-a1", "9223372036854775808"),
        ("/board #0", "0"),
    ] {
        let m = c.refused("bob", line).await;
        assert_eq!(
            m,
            Msg::NoSuchNumber {
                typed: typed.into()
            },
            "{line}"
        );
        for lang in Lang::all() {
            assert!(render(&m, lang).contains(&format!("#{typed}")), "{line}");
        }
    }
    // A bare `#` is echoed as typed, not as nothing.
    let m = c.refused("bob", "/accept #").await;
    assert_eq!(crate::words::english(&m), "'#' is not a game number.");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// However many challenges, games and rated players there are, no single reply to the
    /// commands that list them outgrows a platform's message.
    #[test]
    fn no_list_outgrows_a_message(challenges in 0_usize..40, games in 0_usize..14, rated in 0_usize..14) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            let c = chat().await;
            for i in 0..games {
                c.say(&format!("g{i}"), "/challenge @bob").await;
                c.say("bob", "/accept").await;
            }
            // Rated games played to their end fill the leaderboard.
            for i in 0..rated {
                let p = format!("r{i}");
                c.say(&p, "/challenge @carol").await;
                c.say("carol", "/accept").await;
                c.say(&p, "/resign").await;
            }
            challenged_by(&c, challenges).await;
            for line in ["/accept", "/decline", "/games", "/top", "/rating", "/top month"] {
                all_fit(&c.say("bob", line).await);
                all_fit(&c.say("carol", line).await);
            }
        });
    }
}

/// Lines that are each a user's mistake, in a chat where alice and bob play game 1 and
/// carol plays nothing: every answer is for the one who typed it.
const MISTAKES: &[(&str, &str)] = &[
    ("carol", "/rules foo"),
    ("carol", "/rules classic9x9"),
    ("carol", "/rating foo"),
    ("carol", "/top foo"),
    ("carol", "/top damas month foo"),
    ("carol", "/lang xx"),
    ("carol", "/lang"),
    ("carol", "/record 99"),
    ("carol", "/record x"),
    ("carol", "/board"),
    ("carol", "/board 99"),
    ("carol", "/moves c3"),
    ("carol", "/moves 1 c3"),
    ("carol", "/move c3-d3"),
    ("carol", "/resign"),
    ("carol", "/resign 1"),
    ("carol", "/draw 1"),
    ("carol", "/nodraw"),
    ("carol", "/abort 1"),
    ("carol", "/claim"),
    ("carol", "/confirm"),
    ("carol", "/hint"),
    ("carol", "/hint 1"),
    ("carol", "/review 1"),
    ("carol", "/undo"),
    ("carol", "/accept"),
    ("carol", "/accept 5"),
    ("carol", "/decline"),
    ("carol", "/cancel"),
    ("carol", "/cancel 7"),
    ("carol", "/challenge @carol"),
    ("carol", "/challenge @dave foo"),
    ("carol", "/challenge @dave stake 0"),
    ("carol", "/challenge @dave movetime 0"),
    ("carol", "/challenge @dave classic3x3 damas"),
    ("carol", "/play bot 9"),
    ("carol", "/play bot foo"),
    ("carol", "/train foo"),
    ("carol", "/train damas"),
    ("carol", "/frobnicate"),
    ("alice", "/move a1-a1"),
    ("alice", "/move 1 z9-z8"),
    ("alice", "/moves z9"),
    ("alice", "/moves 1 c3 d3"),
    ("bob", "/move c6-d6"),
    ("bob", "/draw 2"),
    ("alice", "/claim"),
    ("alice", "/confirm"),
    ("alice", "/nodraw"),
    ("alice", "/undo"),
    ("alice", "/hint 2"),
    ("alice", "/record 2"),
    ("alice", "/accept 1"),
];

#[tokio::test]
async fn every_mistake_is_answered_to_its_sender_only() {
    let c = chat().await;
    c.say("alice", "/challenge @bob classic3x3 white").await;
    c.say("bob", "/accept").await;
    let mut to_everyone = Vec::new();
    for (who, line) in MISTAKES {
        let out = c.say(who, line).await;
        assert!(!out.is_empty(), "{who}: {line} got no answer");
        for o in &out {
            if o.audience != Audience::Sender {
                to_everyone.push(format!("{who}: {line} -> {:?}", o.message));
            }
        }
    }
    assert!(to_everyone.is_empty(), "{to_everyone:#?}");
    // And nothing changed: the game is as it was, nobody else plays.
    let games = c.store.active_games().await.unwrap();
    assert_eq!(games.len(), 1, "{games:#?}");
}

/// A name that is a word ("nobody") still reads right: the name is introduced as a
/// player's, in every language.
#[tokio::test]
async fn a_name_that_is_a_word_still_reads_right() {
    let c = chat().await;
    let out = c.say("carol", "/rating @nobody").await;
    let m = head(&out[0].message).clone();
    assert_eq!(
        m,
        Msg::NoRatedGames {
            name: "nobody".into()
        }
    );
    assert_eq!(
        crate::words::english(&m),
        "Player nobody has no rated games yet (everyone starts at 1000)."
    );
    for (lang, word) in [("ru", "игрока"), ("it", "giocatore"), ("pt", "jogador")] {
        let text = render(&m, Lang::from_tag(lang).expect(lang));
        assert!(text.contains(&format!("{word} nobody")), "{text}");
    }
}

/// A move typed as plain text is read however long it is (up to a command's length): a
/// long chain from the player to move is played or refused with its reason, never ignored;
/// past that length the player is told the limit.
#[tokio::test]
async fn a_long_plain_text_move_is_answered() {
    let c = chat().await;
    c.say("alice", "/challenge @bob classic3x3 white").await;
    c.say("bob", "/accept").await;
    let chain: Vec<String> = (0..24)
        .map(|i| format!("{}{}", if i % 2 == 0 { 'c' } else { 'e' }, 3 + (i % 2)))
        .collect();
    let text = chain.join("-");
    assert!(text.len() > 64, "{}", text.len());
    let out = c.say("alice", &text).await;
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(out[0].audience, Audience::Sender);
    // The same from someone with no game here stays unanswered (it is not for the bot).
    assert!(c.say("carol", &text).await.is_empty());
    // Past a command's length: the player is told the limit, as for a command; anyone
    // else's stays chatter.
    let past = format!("{text}-{}", "c3-e3-".repeat(80));
    assert!(past.len() > command::MAX_MESSAGE, "{}", past.len());
    let out = c.say("alice", &past).await;
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(
        out[0].message,
        Msg::CmdTooLong {
            max: command::MAX_MESSAGE
        }
    );
    assert_eq!(out[0].audience, Audience::Sender);
    assert!(c.say("carol", &past).await.is_empty());
}

/// Fullwidth and look-alike digits and slashes are read as what they look like, and a
/// move's look-alike letters and dashes too.
#[tokio::test]
async fn look_alike_digits_and_slashes_are_read_as_ascii() {
    let c = chat().await;
    assert!(matches!(
        head(&c.say("alice", "／help").await[0].message),
        Msg::Help
    ));
    c.say("alice", "/challenge @bob classic3x3 white").await;
    c.say("bob", "／accept").await;
    let out = c.say("alice", "ｃ３-ｄ３").await;
    assert!(
        out.iter().any(
            |o| matches!(head(&o.message), Msg::AfterMove { recorded, .. } if recorded == "c3-d3")
        ),
        "{out:#?}"
    );
    // A move's look-alikes: an em dash (a phone's autocorrection), Cyrillic letters.
    for (who, typed, recorded) in [("bob", "f6—f5", "f6-f5"), ("alice", "с2-с3", "c2-c3")] {
        let out = c.say(who, typed).await;
        assert!(
            out.iter().any(|o| matches!(head(&o.message),
                Msg::AfterMove { recorded: r, .. } if r == recorded)),
            "{typed}: {out:#?}"
        );
    }
}

/// Move-shaped text from someone with no game is ignored in a group (it may be for
/// others), but answered in a private chat with the bot, where it can only be for the bot.
#[tokio::test]
async fn move_shaped_text_without_a_game_is_answered_where_it_can_only_be_for_the_bot() {
    let mut c = chat().await;
    assert!(c.say("carol", "c3-d3").await.is_empty(), "a group: ignored");
    c.chat = ChatRef::new(Platform::Test, "carol-dm", ChatKind::Private);
    assert_eq!(c.refused("carol", "c3-d3").await, Msg::NoGameHere);
}

/// The presses `every_refused_press_is_answered_to_its_presser_only` makes, on game 1
/// (alice white against bob, at its start) and `open`, alice's challenge to dave.
fn presses_to_refuse(open: i64) -> Vec<(&'static str, Action)> {
    let game_actions = |game: i64, ply: i64| {
        vec![
            Action::Resign { game, ply },
            Action::OfferDraw { game, ply },
            Action::AcceptDraw { game, ply },
            Action::DeclineDraw { game, ply },
            Action::Abort { game, ply },
            Action::Confirm { game, ply },
            Action::Claim { game, ply },
            Action::ShowMoves {
                game,
                ply,
                from: sq("c3"),
            },
            Action::MoveTo {
                game,
                ply,
                from: sq("c3"),
                to: sq("d3"),
            },
            Action::Back { game, ply },
        ]
    };
    let mut presses: Vec<(&'static str, Action)> = Vec::new();
    // Someone else's game; a board overtaken (a ply that was never or is no more); a game
    // that does not exist.
    presses.extend(game_actions(1, 0).into_iter().map(|a| ("carol", a)));
    presses.extend(game_actions(1, 7).into_iter().map(|a| ("alice", a)));
    presses.extend(game_actions(99, 0).into_iter().map(|a| ("alice", a)));
    // Out of turn, and with nothing offered, waiting or claimable.
    presses.extend([
        (
            "bob",
            Action::ShowMoves {
                game: 1,
                ply: 0,
                from: sq("f6"),
            },
        ),
        (
            "bob",
            Action::MoveTo {
                game: 1,
                ply: 0,
                from: sq("f6"),
                to: sq("e6"),
            },
        ),
        ("bob", Action::AcceptDraw { game: 1, ply: 0 }),
        ("alice", Action::DeclineDraw { game: 1, ply: 0 }),
        ("alice", Action::Confirm { game: 1, ply: 0 }),
        ("alice", Action::Claim { game: 1, ply: 0 }),
        // A square with no piece of hers, and a move that is not one.
        (
            "alice",
            Action::ShowMoves {
                game: 1,
                ply: 0,
                from: sq("a1"),
            },
        ),
        (
            "alice",
            Action::MoveTo {
                game: 1,
                ply: 0,
                from: sq("c3"),
                to: sq("h8"),
            },
        ),
    ]);
    // Someone else's challenge, and one that does not exist.
    for who in ["carol", "bob"] {
        presses.push((who, Action::Accept { challenge: open }));
        presses.push((who, Action::Cancel { challenge: open }));
    }
    presses.push(("carol", Action::Decline { challenge: open }));
    for challenge in [99, i64::MAX] {
        presses.push(("alice", Action::Accept { challenge }));
        presses.push(("alice", Action::Decline { challenge }));
        presses.push(("alice", Action::Cancel { challenge }));
    }
    presses
}

/// Every button the table makes, pressed where it must be refused — by someone else, on a
/// board a move has overtaken, on a game or challenge that does not exist, out of turn,
/// with nothing to accept or confirm, on a square that does not move — is answered to the
/// presser alone, and changes nothing.
#[tokio::test]
async fn every_refused_press_is_answered_to_its_presser_only() {
    let c = chat().await;
    c.say("alice", "/challenge @bob classic3x3 white").await;
    c.say("bob", "/accept").await;
    let open = match c
        .say("alice", "/challenge @dave")
        .await
        .first()
        .map(|o| head(&o.message))
    {
        Some(Msg::ChallengeTo { id, .. }) => *id,
        other => panic!("{other:?}"),
    };
    let presses = presses_to_refuse(open);
    let mut to_everyone = Vec::new();
    for (who, action) in &presses {
        let out = c.press(who, *action).await;
        assert!(!out.is_empty(), "{who}: {action:?} got no answer");
        all_fit(&out);
        for o in &out {
            if o.audience != Audience::Sender {
                to_everyone.push(format!("{who}: {action:?} -> {:?}", o.message));
            }
        }
    }
    assert!(to_everyone.is_empty(), "{to_everyone:#?}");
    // Nothing changed: the game at its start, the challenge still open.
    let games = c.store.active_games().await.unwrap();
    assert_eq!(games.len(), 1, "{games:#?}");
    assert_eq!(c.row(1).await.ply, 0);
    let out = c.say("dave", "/accept").await;
    assert!(
        out.iter()
            .any(|o| matches!(head(&o.message), Msg::GameStarted { .. })),
        "the challenge is still open: {out:#?}"
    );
}

/// The attack as it was made: 10,000 players challenge one person. A bare `/accept` and a
/// bare `/decline` list the newest few and count the rest, within one message, and
/// `/accept N` of the oldest still starts its game.
#[tokio::test]
async fn f3_ten_thousand_challenges_to_one_player_are_answered_within_a_message() {
    let c = chat().await;
    let ids = challenged_by(&c, 10_000).await;
    for line in ["/accept", "/decline"] {
        let out = c.say("bob", line).await;
        all_fit(&out);
        let m = only_private(&out);
        let Msg::WhichChallenge { list, more, .. } = &m else {
            panic!("{line}: {m:?}")
        };
        assert_eq!((list.0.len(), *more), (LISTED, 10_000 - LISTED), "{line}");
    }
    let out = c.say("bob", &format!("/accept {}", ids[0])).await;
    assert!(
        out.iter()
            .any(|o| matches!(head(&o.message), Msg::GameStarted { .. })),
        "{out:#?}"
    );
}

/// A player with a platform's numeric id (cards name their sender by it), known to the
/// table from a message of theirs.
async fn known(c: &Room, id: &str, name: &str) -> User {
    let u = User {
        id: id.into(),
        name: name.into(),
        handle: Some(name.to_lowercase()),
    };
    let origin = Origin::message(room("elsewhere"), u.clone(), format!("hello-{id}"));
    c.table
        .handle(&Incoming::text(origin, "/help", Vec::new()))
        .await;
    u
}

/// An inline card's buttons pressed where they must be refused — data not signed by this
/// bot, cut short, out of date, from a sender the bot never met, someone else's challenge,
/// the sender's own Accept — are answered to the presser alone (the press's answer).
#[tokio::test]
async fn every_refused_card_press_is_answered_to_its_presser_only() {
    use crate::table::card_data::card_data;
    let c = one_message_room().await;
    let key = b"the bot's card key";
    let now = u64::try_from(T0 / MIN).unwrap();
    let alice = known(&c, "42", "Alice").await;
    let carol = known(&c, "43", "Carol").await;
    let to_dave = "@dave classic3x3 10+5";
    let signed = card_data(key, true, 42, to_dave, now);
    let presses: Vec<(&User, String)> = vec![
        (&carol, card_data(b"another key", true, 42, to_dave, now)),
        (&carol, signed[..signed.len() - 3].to_string()),
        (&carol, "card:a:42".into()),
        (&carol, "card".into()),
        (&carol, card_data(key, true, 42, to_dave, now - 60)),
        (&carol, card_data(key, true, 777, to_dave, now)),
        (&carol, signed.clone()),
        (&alice, card_data(key, true, 42, "classic3x3 10+5", now)),
    ];
    let mut to_everyone = Vec::new();
    for (i, (who, data)) in presses.iter().enumerate() {
        let out = c
            .table
            .card_pressed(&c.chat, who, format!("press-{i}"), None, key, data)
            .await;
        assert!(!out.is_empty(), "{}: {data} got no answer", who.name);
        all_fit(&out);
        for o in &out {
            if o.audience != Audience::Sender {
                to_everyone.push(format!("{}: {data} -> {:?}", who.name, o.message));
            }
        }
    }
    assert!(to_everyone.is_empty(), "{to_everyone:#?}");
    assert!(c.store.active_games().await.unwrap().is_empty(), "no game");
}
