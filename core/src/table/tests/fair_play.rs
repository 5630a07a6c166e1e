//! Fair play through the table (F1 first move, F2 repeated pairs, F3 who accepts what) and
//! hostile text: invisible characters, bidi overrides, look-alike names, retyped moves,
//! picture floods and long records.

use super::*;

const DAY: i64 = 86_400_000;

/// A message from a user made by hand (a name that is not its handle, odd characters).
fn from_user(c: &Room, u: &User, text: &str, mentions: Vec<Mention>) -> Incoming {
    let mut origin = c.origin(&u.name);
    origin.user = u.clone();
    Incoming::text(origin, text, mentions)
}

/// The rating rows (player, kind, rating, month, monthly) of everybody.
async fn all_ratings(c: &Room) -> Vec<(i64, String, i64, String, i64)> {
    c.store.all_ratings().await.unwrap()
}

/// A Corners game started by `Room::start` (alice White): both sides make a first move.
async fn both_move(c: &Room, white: &str, black: &str) {
    for (who, m) in [("alice", white), ("bob", black)] {
        let out = c.said(who, m).await;
        assert!(matches!(out, Msg::AfterMove { .. }), "{who}: {m}: {out:?}");
    }
}

/// The stored end of a game aborted because `side` never moved (F1).
async fn assert_f1_void(c: &Room, id: i64, side: Color) {
    assert_eq!(
        c.status(id).await,
        (
            GameStatus::Aborted,
            Some(GameResult::Void),
            Some("F1".into())
        )
    );
    assert_eq!(
        c.row(id).await.end_reason,
        Some(format!("no-first-move:{}", side.name()))
    );
    assert_eq!(c.cause(id).await, Some(EndCause::NoFirstMove(side)));
}

/// The one message a timer sends when a game ends by F1: the final board, captioned.
fn f1_board(out: &[Outgoing], id: i64, who: &str) {
    assert_eq!(out.len(), 1, "{out:#?}");
    let expected = Msg::NoFirstMove {
        id,
        who: who.into(),
    };
    assert_eq!(
        out[0].message, expected,
        "no rating lines: nothing is rated"
    );
    assert_eq!(out[0].audience, Audience::Chat);
    assert_eq!(out[0].slot, Some(SlotUse::Replace(Slot::Board(id))));
    assert!(out[0].actions.is_empty(), "a finished game has no buttons");
    let board = out[0].board().expect("the final board");
    assert_eq!(board.to_move, None);
    assert!(!board.flip, "a void game: White's view");
    assert_eq!(board.info, expected);
}

// ---- F1: a side that never moved aborts the game, never loses it ----

#[tokio::test]
async fn f1_flag_before_blacks_first_move_aborts_a_rated_game() {
    let c = chat().await;
    let id = c.start("15s+0").await;
    assert!(c.row(id).await.rated, "classic 3×3 is rated");
    c.say("alice", "c3-d3").await;
    c.time.advance(15_000 - 1);
    assert!(c.table.fire_due().await.is_empty());
    c.time.advance(1);
    let out = c.table.fire_due().await;
    f1_board(&out, id, "bob");
    assert_f1_void(&c, id, Color::Black).await;
    assert!(all_ratings(&c).await.is_empty(), "nobody's rating changes");
    assert!(c.store.all_rating_history().await.unwrap().is_empty());
    assert!(c.table.fire_due().await.is_empty(), "said once");
    assert_eq!(c.table.next_deadline().await, None);
    assert_eq!(c.moves(id).await, ["c3-d3"]);
}

#[tokio::test]
async fn f1_flag_before_whites_first_move_aborts_typed_or_timed() {
    let c = chat().await;
    let id = c.start("15s+0").await;
    c.time.advance(15_000);
    let out = c.table.fire_due().await;
    f1_board(&out, id, "alice");
    assert_f1_void(&c, id, Color::White).await;
    // A first move typed after the time ran out (the timer has not fired yet): the same.
    let id = c.start("15s+0").await;
    c.time.advance(15_000);
    assert_eq!(
        c.said("alice", "c3-d3").await,
        Msg::NoFirstMove {
            id,
            who: "alice".into()
        }
    );
    assert!(c.moves(id).await.is_empty(), "the late move is not played");
    assert!(c.table.fire_due().await.is_empty(), "said once");
    assert_f1_void(&c, id, Color::White).await;
    assert!(all_ratings(&c).await.is_empty());
}

#[tokio::test]
async fn f1_stakes_come_back_when_a_side_never_moved() {
    let c = chat().await;
    let chips = |name: &str, chips: i64| Msg::Chips {
        name: name.into(),
        chips,
    };
    // White never moves.
    let id = c.start("damas rated stake 50 1+0").await;
    assert_eq!(c.said("alice", "/chips").await, chips("alice", 950));
    c.time.advance(MIN);
    f1_board(&c.table.fire_due().await, id, "alice");
    assert_f1_void(&c, id, Color::White).await;
    assert_eq!(c.said("alice", "/chips").await, chips("alice", 1000));
    assert_eq!(c.said("bob", "/chips").await, chips("bob", 1000));
    // Black never moves.
    let id = c.start("damas rated stake 50 1+0").await;
    c.say("alice", "11-15").await;
    c.time.advance(MIN);
    f1_board(&c.table.fire_due().await, id, "bob");
    assert_f1_void(&c, id, Color::Black).await;
    assert_eq!(c.said("alice", "/chips").await, chips("alice", 1000));
    assert_eq!(c.said("bob", "/chips").await, chips("bob", 1000));
    assert!(all_ratings(&c).await.is_empty());
}

#[tokio::test]
async fn f1_first_mover_resigning_at_ply_0_aborts() {
    let c = chat().await;
    let id = c.start("").await;
    let out = c.say("alice", "/resign").await;
    f1_board(&out, id, "alice");
    assert_f1_void(&c, id, Color::White).await;
    // The same with the Resign button of the first board.
    let id = c.start("").await;
    c.press("alice", Action::Resign { game: id, ply: 0 }).await;
    c.time.advance(RESIGN_SECOND_MS);
    let out = c.press("alice", Action::Resign { game: id, ply: 0 }).await;
    f1_board(&out, id, "alice");
    assert_f1_void(&c, id, Color::White).await;
    assert!(all_ratings(&c).await.is_empty());
    assert!(c.store.all_rating_history().await.unwrap().is_empty());
}

#[tokio::test]
async fn f1_monitor_claim_before_the_idlers_first_move_aborts() {
    let c = chat().await;
    // bob idles before his first move: alice's claim aborts, and costs bob nothing.
    let id = c.start("damas rated monitor").await;
    c.say("alice", "11-15").await;
    c.time.advance(3 * MIN);
    assert!(matches!(
        messages(&c.table.fire_due().await).as_slice(),
        [Msg::IdleNotice { idler, .. }] if idler == "bob"
    ));
    let out = c.say("alice", "/claim").await;
    f1_board(&out, id, "bob");
    assert_f1_void(&c, id, Color::Black).await;
    assert_eq!(c.row(id).await.ply, 1);
    assert!(
        c.store.all_rating_history().await.unwrap().is_empty(),
        "no abandonment penalty before a first move (F1 over D6)"
    );
    // alice idles at the start: bob's claim aborts too.
    let id = c.start("damas rated monitor").await;
    c.time.advance(3 * MIN);
    let out = c.say("bob", "/claim").await;
    f1_board(&out, id, "alice");
    assert_f1_void(&c, id, Color::White).await;
    assert!(all_ratings(&c).await.is_empty());
}

#[tokio::test]
async fn f1_damas_movetime_before_a_first_move_aborts_instead_of_playing() {
    let c = chat().await;
    let id = c.start("damas movetime 30s").await;
    c.time.advance(30_000);
    let out = c.table.fire_due().await;
    f1_board(&out, id, "alice");
    assert!(c.moves(id).await.is_empty(), "nothing played for alice");
    assert_f1_void(&c, id, Color::White).await;
    let id = c.start("damas movetime 30s").await;
    c.say("alice", "11-15").await;
    c.time.advance(30_000);
    let out = c.table.fire_due().await;
    f1_board(&out, id, "bob");
    assert_eq!(c.moves(id).await.len(), 1, "nothing played for bob");
    assert_f1_void(&c, id, Color::Black).await;
    // Once both have moved, the move time plays for the player (D6).
    let id = c.start("damas movetime 30s").await;
    c.say("alice", "11-15").await;
    c.say("bob", "21-17").await;
    c.time.advance(30_000);
    let out = c.table.fire_due().await;
    assert!(
        matches!(&out[0].message, Msg::AutoMoved { id: i, who, .. } if *i == id && who == "alice"),
        "{out:#?}"
    );
    assert_eq!(c.moves(id).await.len(), 3);
    assert_eq!(c.row(id).await.status, GameStatus::Active);
}

#[tokio::test]
async fn f1_t1_once_both_moved_a_flag_is_a_loss() {
    let c = chat().await;
    let id = c.start("15s+0").await;
    both_move(&c, "c3-d3", "f6-e6").await;
    c.time.advance(15_000);
    let out = c.table.fire_due().await;
    assert_eq!(
        messages(&out),
        [rated(
            Msg::Flagged {
                id,
                loser: "alice".into(),
                winner: "bob".into()
            },
            &[("alice", 985, -15), ("bob", 1015, 15)]
        )]
    );
    assert_eq!(
        c.status(id).await,
        (
            GameStatus::Finished,
            Some(GameResult::Black),
            Some("T1".into())
        )
    );
    assert_eq!(c.cause(id).await, Some(EndCause::Flag(Color::White)));
    // Black to move after both moved: his flag is a loss too.
    let id = c.start("15s+0").await;
    both_move(&c, "c3-d3", "f6-e6").await;
    c.say("alice", "b3-b4").await;
    c.time.advance(15_000);
    let out = c.table.fire_due().await;
    assert!(
        matches!(head(&out[0].message), Msg::Flagged { loser, .. } if loser == "bob"),
        "{out:#?}"
    );
    assert_eq!(c.cause(id).await, Some(EndCause::Flag(Color::Black)));
}

// ---- F2: at most three rated games a day between the same two players ----

/// A named challenge from alice to bob (alice White): its id, `pair_limit`, and whether its
/// terms say rated.
async fn named_challenge(c: &Room, terms: &str) -> (i64, bool, bool) {
    let out = c
        .say("alice", &format!("/challenge @bob {terms} white"))
        .await;
    assert_eq!(out.len(), 1, "{out:#?}");
    match &out[0].message {
        Msg::ChallengeTo {
            id,
            terms,
            pair_limit,
            ..
        } => match &**terms {
            Msg::Terms { rated, .. } => (*id, *pair_limit, *rated),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

/// `/accept` by `who`: the game id, `pair_limit` and whether the terms shown say rated.
async fn accepted(c: &Room, who: &str) -> (i64, bool, bool) {
    let out = c.say(who, "/accept").await;
    assert_eq!(out.len(), 2, "{out:#?}");
    match &out[1].message {
        Msg::GameStarted {
            id,
            terms,
            pair_limit,
            ..
        } => match &**terms {
            Msg::Terms { rated, .. } => (*id, *pair_limit, *rated),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

/// Both move, then bob resigns: alice wins. The result as said.
async fn bob_resigns(c: &Room, id: i64, white: &str, black: &str) -> Msg {
    both_move(c, white, black).await;
    let said = c.said("bob", "/resign").await;
    assert!(
        matches!(head(&said), Msg::Resigned { id: i, .. } if *i == id),
        "{said:?}"
    );
    said
}

fn is_rated_result(m: &Msg) -> bool {
    matches!(m, Msg::Lines(l) if matches!(l.as_slice(), [_, Msg::RatingChanges { .. }]))
}

#[tokio::test]
async fn f2_a_pair_plays_three_rated_games_a_day_per_kind() {
    let c = chat().await;
    for n in 0..3 {
        let (_, limit, rated) = named_challenge(&c, "").await;
        assert!(!limit && rated, "game {n}");
        let (id, limit, rated) = accepted(&c, "bob").await;
        assert!(!limit && rated, "game {n}");
        assert!(c.row(id).await.rated);
        let said = bob_resigns(&c, id, "c3-d3", "f6-e6").await;
        assert!(is_rated_result(&said), "game {n}: {said:?}");
    }
    let before = all_ratings(&c).await;
    // The fourth named challenge says so before it is accepted, and is casual.
    let (_, limit, rated) = named_challenge(&c, "").await;
    assert!(limit, "the challenge says the pair limit is reached");
    assert!(!rated, "its terms say casual");
    let (id, _, rated) = accepted(&c, "bob").await;
    assert!(!rated, "the game's terms say casual");
    assert!(!c.row(id).await.rated);
    assert_eq!(
        bob_resigns(&c, id, "c3-d3", "f6-e6").await,
        Msg::Resigned {
            id,
            loser: "bob".into(),
            winner: "alice".into()
        },
        "no rating lines"
    );
    assert_eq!(all_ratings(&c).await, before, "no rating moved");
    // An open challenge is checked when bob accepts it.
    let out = c.say("alice", "/challenge white").await;
    assert!(
        matches!(&out[0].message, Msg::ChallengeOpen { terms, .. }
            if matches!(**terms, Msg::Terms { rated: true, .. })),
        "{out:#?}"
    );
    let (id, limit, rated) = accepted(&c, "bob").await;
    assert!(limit && !rated, "started casual, and said so");
    assert!(!c.row(id).await.rated);
    assert!(!is_rated_result(
        &bob_resigns(&c, id, "c3-d3", "f6-e6").await
    ));
    assert_eq!(all_ratings(&c).await, before);
    // Another pair is not limited: carol takes alice's open challenge, rated.
    c.say("alice", "/challenge white").await;
    let (id, limit, rated) = accepted(&c, "carol").await;
    assert!(!limit && rated);
    assert!(c.row(id).await.rated);
    c.say("alice", "/abort").await;
    // Another kind is not limited: classic 3×4 is still rated today.
    let (_, limit, rated) = named_challenge(&c, "classic3x4").await;
    assert!(!limit && rated);
    let (id, limit, rated) = accepted(&c, "bob").await;
    assert!(!limit && rated);
    assert!(is_rated_result(
        &bob_resigns(&c, id, "d3-e3", "e6-d6").await
    ));
    assert!(all_ratings(&c).await.iter().any(|r| r.1 == "classic3x4"));
    // The next UTC day the pair plays rated again; void games do not count.
    c.time.set(T0 + DAY);
    for _ in 0..3 {
        let id = c.start("").await;
        assert!(c.row(id).await.rated);
        assert!(matches!(
            c.said("alice", "/abort").await,
            Msg::Aborted { .. }
        ));
    }
    let before = all_ratings(&c).await;
    let (_, limit, rated) = named_challenge(&c, "").await;
    assert!(!limit && rated, "a new day, and three void games");
    let (id, limit, rated) = accepted(&c, "bob").await;
    assert!(!limit && rated);
    assert!(is_rated_result(
        &bob_resigns(&c, id, "c3-d3", "f6-e6").await
    ));
    assert_ne!(all_ratings(&c).await, before);
}

#[tokio::test]
async fn f2_the_limit_is_checked_again_at_acceptance() {
    let c = chat().await;
    // Two rated games played; a third challenge is made, still rated …
    for _ in 0..2 {
        let id = c.start("").await;
        bob_resigns(&c, id, "c3-d3", "f6-e6").await;
    }
    let (_, limit, rated) = named_challenge(&c, "").await;
    assert!(!limit && rated);
    // … but before bob accepts it the pair plays its third rated game (bob's challenge).
    let out = c.say("bob", "/challenge @alice black").await;
    let Msg::ChallengeTo { id: bobs, .. } = out[0].message else {
        panic!("{out:#?}")
    };
    let out = c.say("alice", &format!("/accept {bobs}")).await;
    let id = out[1].game.unwrap();
    assert!(c.row(id).await.rated);
    bob_resigns(&c, id, "c3-d3", "f6-e6").await;
    // Now alice's challenge is accepted: the fourth game of the day starts casual.
    let (id, limit, rated) = accepted(&c, "bob").await;
    assert!(limit && !rated);
    assert!(!c.row(id).await.rated);
}

// ---- F3: who accepts what, and how many challenges ----

/// A named challenge's id from the reply (plain, or with a look-alike warning).
fn challenge_id(out: &[Outgoing]) -> i64 {
    assert_eq!(out.len(), 1, "{out:#?}");
    match head(&out[0].message) {
        Msg::ChallengeTo { id, .. } | Msg::ChallengeOpen { id, .. } => *id,
        other => panic!("{other:?}"),
    }
}

/// (id, from) of each challenge a `WhichChallenge` lists, by id (the list's own order is
/// the table's choice), after checking that its example `first` is the first listed.
fn which(m: &Msg) -> Vec<(i64, String)> {
    let Msg::WhichChallenge { list, first, .. } = m else {
        panic!("{m:?}")
    };
    let mut listed: Vec<(i64, String)> = list
        .0
        .iter()
        .map(|b| match b {
            Msg::ChallengeBrief { id, from, terms } => {
                assert!(matches!(**terms, Msg::Terms { .. }), "{terms:?}");
                (*id, from.clone())
            }
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(Some(*first), listed.first().map(|l| l.0), "{m:?}");
    listed.sort();
    listed
}

#[tokio::test]
async fn f3_a_bare_accept_with_several_challenges_lists_them() {
    let c = chat().await;
    let alices = challenge_id(&c.say("alice", "/challenge @bob white 5+3").await);
    let mut expected = vec![(alices, "alice".to_string())];
    for tc in ["1+0", "3+2", "5+0", "15+10"] {
        let id = challenge_id(&c.say("mallory", &format!("/challenge @bob {tc}")).await);
        expected.push((id, "mallory".into()));
    }
    let m = c.refused("bob", "/accept").await;
    assert_eq!(which(&m), expected);
    // Each brief shows its challenge's own terms.
    let Msg::WhichChallenge { list, .. } = &m else {
        unreachable!()
    };
    assert!(list
        .0
        .iter()
        .any(|b| matches!(b, Msg::ChallengeBrief { id, terms, .. }
        if *id == alices
            && matches!(&**terms, Msg::Terms { time, .. } if time.to_string() == "5+3"))));
    assert!(c.store.active_games().await.unwrap().is_empty(), "no game");
    // The button of a challenge for bob is no use to carol.
    assert_eq!(
        c.refused("carol", &format!("/accept {}", expected[1].0))
            .await,
        Msg::ChallengeForSomeoneElse { id: expected[1].0 }
    );
    // /accept N picks.
    let out = c.say("bob", &format!("/accept {alices}")).await;
    assert_eq!(out.len(), 2, "{out:#?}");
    assert!(matches!(out[0].message, Msg::ChallengeTaken { id, .. } if id == alices));
    assert!(
        matches!(&out[1].message, Msg::GameStarted { white, black, .. } if white == "alice" && black == "bob"),
        "{out:#?}"
    );
    let games = c.store.active_games().await.unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].time_control, "5+3");
    // mallory's four are still open, and still listed.
    assert_eq!(which(&c.refused("bob", "/accept").await), expected[1..]);
    // With one left, a bare /accept takes it.
    for (id, _) in &expected[2..] {
        c.say("mallory", &format!("/cancel {id}")).await;
    }
    let (_, limit, _) = accepted(&c, "bob").await;
    assert!(!limit);
    assert_eq!(c.store.active_games().await.unwrap().len(), 2);
}

#[tokio::test]
async fn f3_five_open_challenges_at_most() {
    let c = chat().await;
    assert_eq!(Config::default().max_open_challenges, 5);
    for who in ["bob", "carol", "dave", "erin", "frank"] {
        challenge_id(&c.say("mallory", &format!("/challenge @{who}")).await);
    }
    assert_eq!(
        c.refused("mallory", "/challenge @grace").await,
        Msg::TooManyChallenges { max: 5 }
    );
    assert_eq!(
        c.refused("mallory", "/challenge").await,
        Msg::TooManyChallenges { max: 5 },
        "open challenges count too"
    );
    // Others are not limited by mallory's.
    challenge_id(&c.say("alice", "/challenge @bob").await);
    // One taken: room for one more.
    c.say("bob", "/decline 1").await;
    challenge_id(&c.say("mallory", "/challenge @grace").await);
    assert_eq!(
        c.refused("mallory", "/challenge @heidi").await,
        Msg::TooManyChallenges { max: 5 }
    );
    // Expired challenges are not open.
    c.time.advance(Config::default().challenge_ttl_ms);
    c.table.fire_due().await;
    challenge_id(&c.say("mallory", "/challenge @heidi").await);
}

#[tokio::test]
async fn f3_ten_new_challenges_a_minute_at_most() {
    let c = chat().await;
    assert_eq!(Config::default().max_challenges_per_minute, 10);
    for n in 0..10 {
        let id = challenge_id(&c.say("mallory", "/challenge @bob").await);
        // Cancelled at once: the open cap is never the reason.
        assert_eq!(
            c.said("mallory", "/cancel").await,
            Msg::Cancelled { id },
            "challenge {n}"
        );
        c.time.advance(1_000);
    }
    assert_eq!(
        c.refused("mallory", "/challenge @bob").await,
        Msg::ChallengeRate { max: 10 }
    );
    challenge_id(&c.say("alice", "/challenge @bob").await);
    // A minute after the first, one more may be made.
    c.time.set(T0 + MIN + 1);
    challenge_id(&c.say("mallory", "/challenge @bob").await);
    assert_eq!(
        c.refused("mallory", "/challenge @carol").await,
        Msg::ChallengeRate { max: 10 }
    );
}

#[tokio::test]
async fn f3_a_look_alike_name_is_pointed_out_with_its_handle() {
    let c = chat().await;
    // `сarol`: the first letter is the Cyrillic U+0441.
    let fake = User {
        id: "id-fake".into(),
        name: "\u{0441}arol".into(),
        handle: Some("c4rol".into()),
    };
    assert_ne!(fake.name, "carol");
    let out = c.say("carol", "/challenge @bob white").await;
    let carols = challenge_id(&out);
    assert!(
        matches!(&out[0].message, Msg::ChallengeTo { from, .. } if from == "carol"),
        "a plain ASCII name equal to its handle is shown alone: {out:#?}"
    );
    let bob = Mention::User(user("bob"));
    let out = c
        .table
        .handle(&from_user(&c, &fake, "/challenge @bob white", vec![bob]))
        .await;
    let fakes = challenge_id(&out);
    let Msg::Lines(lines) = &out[0].message else {
        panic!("{out:#?}")
    };
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(
        matches!(&lines[0], Msg::ChallengeTo { from, to, .. }
            if from == "\u{0441}arol (@c4rol)" && to == "bob"),
        "{lines:#?}"
    );
    assert_eq!(
        lines[1],
        Msg::LookAlike {
            name: "\u{0441}arol".into()
        }
    );
    assert_eq!(
        out[0].actions,
        [
            Action::Accept { challenge: fakes },
            Action::Decline { challenge: fakes },
            Action::Cancel { challenge: fakes }
        ]
    );
    assert!(out[0].text().contains("@c4rol"), "{}", out[0].text());
    // bob's list tells them apart.
    assert_eq!(
        which(&c.refused("bob", "/accept").await),
        [
            (carols, "carol".to_string()),
            (fakes, "\u{0441}arol (@c4rol)".to_string())
        ]
    );
    // Challenging the look-alike is pointed out too.
    let out = c
        .table
        .handle(&from_user(
            &c,
            &user("alice"),
            "/challenge @c4rol",
            vec![Mention::User(fake.clone())],
        ))
        .await;
    let Msg::Lines(lines) = &out[0].message else {
        panic!("{out:#?}")
    };
    assert!(
        matches!(&lines[0], Msg::ChallengeTo { to, .. } if to == "\u{0441}arol (@c4rol)"),
        "{lines:#?}"
    );
    assert_eq!(
        lines[1..],
        [Msg::LookAlike {
            name: "\u{0441}arol".into()
        }]
    );
    // The game names the look-alike with the handle.
    let out = c.say("bob", &format!("/accept {fakes}")).await;
    assert!(
        matches!(&out[1].message, Msg::GameStarted { white, black, .. }
            if white == "\u{0441}arol (@c4rol)" && black == "bob"),
        "{out:#?}"
    );
}

// ---- Hostile text ----

#[tokio::test]
async fn hostile_invisible_characters_inside_commands_and_moves() {
    let c = chat().await;
    let out = c.say("alice", "/chal\u{200B}lenge @bob white").await;
    assert!(
        matches!(&out[0].message, Msg::ChallengeTo { to, .. } if to == "bob"),
        "{out:#?}"
    );
    let out = c.say("bob", "\u{1B}[31m/accept\u{1B}[0m").await;
    let id = out[1].game.expect("the game started");
    let out = c.say("alice", "c3\u{202E}-d3").await;
    assert!(
        matches!(&out[0].message, Msg::AfterMove { recorded, .. } if recorded == "c3-d3"),
        "{out:#?}"
    );
    assert_eq!(c.moves(id).await, ["c3-d3"]);
    let out = c.say("bob", "\u{FEFF}f6\u{2060}-e6\u{200F}").await;
    assert!(
        matches!(&out[0].message, Msg::AfterMove { recorded, .. } if recorded == "f6-e6"),
        "{out:#?}"
    );
    assert_eq!(c.moves(id).await, ["c3-d3", "f6-e6"]);
}

#[tokio::test]
async fn hostile_names_are_stored_and_echoed_without_control_characters() {
    let c = chat().await;
    let eve = User {
        id: "id-eve".into(),
        name: "\u{202E}e\u{200B}ve\u{7}\u{1B}[1m\u{1B}]0;x\u{7}\n".into(),
        handle: Some("eve".into()),
    };
    let out = c
        .table
        .handle(&from_user(
            &c,
            &eve,
            "/challenge @bob",
            vec![Mention::User(user("bob"))],
        ))
        .await;
    assert!(
        matches!(&out[0].message, Msg::ChallengeTo { from, .. } if from == "eve"),
        "{out:#?}"
    );
    let stored = c
        .store
        .player_by_handle(Platform::Test.as_str(), "eve")
        .await
        .unwrap()
        .expect("eve is registered");
    assert_eq!(stored.name, "eve");
    let text = out[0].text();
    assert!(
        !text
            .chars()
            .any(|ch| ch.is_control() || matches!(ch, '\u{200B}' | '\u{202E}')),
        "{text:?}"
    );
    // A name of nothing visible is shown as `?`, with its handle.
    let ghost = User {
        id: "id-ghost".into(),
        name: "\u{200B}\u{202E} \u{7}".into(),
        handle: Some("ghost".into()),
    };
    let out = c
        .table
        .handle(&from_user(
            &c,
            &ghost,
            "/challenge @carol",
            vec![Mention::User(user("carol"))],
        ))
        .await;
    assert!(
        matches!(&out[0].message, Msg::ChallengeTo { from, .. } if from == "? (@ghost)"),
        "{out:#?}"
    );
}

#[tokio::test]
async fn hostile_bad_squares_and_mentions_are_refused() {
    let c = chat().await;
    assert_eq!(
        Config::default().bot_name,
        None,
        "the test room has no bot name"
    );
    assert_eq!(
        c.refused("alice", "/challenge@bob").await,
        Msg::CmdSpaceBeforeAt {
            command: "challenge".into(),
            name: "bob".into()
        },
        "a missing space is not an open challenge"
    );
    assert_eq!(
        c.refused("alice", "/challenge @@bob").await,
        Msg::CmdBadMention {
            word: "@@bob".into()
        }
    );
    assert!(
        c.store.open_challenges().await.unwrap().is_empty(),
        "no challenge was made"
    );
    c.start("").await;
    for sq in ["i9", "p16", "a0"] {
        assert_eq!(
            c.refused("alice", &format!("/moves {sq}")).await,
            Msg::BadSquare { text: sq.into() }
        );
    }
    assert!(matches!(
        messages(&c.say("alice", "/moves c3").await).as_slice(),
        [Msg::MovesFrom { .. }]
    ));
}

#[tokio::test]
async fn hostile_a_retyped_move_is_already_played() {
    let c = chat().await;
    let id = c.start("").await;
    assert_eq!(c.refused("bob", "f6-e6").await, Msg::NotYourTurn);
    c.say("alice", "c3-d3").await;
    let before = c.row(id).await;
    for typed in ["c3-d3", "c3 d3", "C3D3", "/move c3-d3"] {
        assert_eq!(
            c.refused("alice", typed).await,
            Msg::AlreadyPlayed {
                recorded: "c3-d3".into()
            },
            "{typed}"
        );
    }
    assert_eq!(c.refused("alice", "b3-b4").await, Msg::NotYourTurn);
    assert_eq!(c.row(id).await, before, "nothing changed");
    assert_eq!(c.moves(id).await, ["c3-d3"]);
    // A jump chain, retyped by its ends or in full.
    c.say("bob", "f6-e6").await;
    let out = c.say("alice", "a3-e3").await;
    assert!(
        matches!(&out[0].message, Msg::AfterMove { recorded, .. } if recorded == "a3-c3-e3"),
        "{out:#?}"
    );
    for typed in ["a3-e3", "a3-c3-e3", "a3:e3"] {
        assert_eq!(
            c.refused("alice", typed).await,
            Msg::AlreadyPlayed {
                recorded: "a3-c3-e3".into()
            },
            "{typed}"
        );
    }
    assert_eq!(c.moves(id).await, ["c3-d3", "f6-e6", "a3-c3-e3"]);
    // Damas: the move retyped in numbers or squares.
    let c = chat().await;
    let id = c.start("damas").await;
    c.say("alice", "11-15").await;
    let before = c.row(id).await;
    let recorded = c.moves(id).await[0].clone();
    for typed in ["11-15", "d3-c4"] {
        assert_eq!(
            c.refused("alice", typed).await,
            Msg::AlreadyPlayed {
                recorded: recorded.clone()
            },
            "{typed}"
        );
    }
    assert_eq!(c.row(id).await, before);
}

#[tokio::test]
async fn hostile_ten_pictures_a_minute() {
    let c = chat().await;
    assert_eq!(Config::default().max_pictures_per_minute, 10);
    c.start("").await;
    for n in 0..10 {
        let out = if n == 4 {
            c.say("alice", "/moves c3").await
        } else {
            c.say("alice", "/board").await
        };
        assert!(
            matches!(
                out.as_slice(),
                [o] if o.board().is_some()
                    && matches!(o.message, Msg::BoardCaption { .. } | Msg::MovesFrom { .. })
            ),
            "picture {n}: {out:#?}"
        );
    }
    assert_eq!(
        c.refused("alice", "/board").await,
        Msg::TooManyPictures { max: 10 }
    );
    assert_eq!(
        c.refused("alice", "/moves c3").await,
        Msg::TooManyPictures { max: 10 }
    );
    // Per player: bob still sees the board.
    assert!(c.say("bob", "/board").await[0].board().is_some());
    // Moves are not pictures.
    assert!(matches!(
        c.said("alice", "c3-d3").await,
        Msg::AfterMove { .. }
    ));
    c.time.advance(MIN - 1);
    assert_eq!(
        c.refused("alice", "/board").await,
        Msg::TooManyPictures { max: 10 }
    );
    c.time.advance(1);
    assert!(c.say("alice", "/board").await[0].board().is_some());
}

#[tokio::test]
async fn hostile_a_long_record_comes_in_parts() {
    const PART: usize = 1500;
    let c = chat().await;
    let rules = "training:classic3x3,deadline=off,limit=off";
    let id = c.start(&format!("{rules} none")).await;
    // A long game without repetition: each side plays the first legal move that leads to a
    // position not seen before and does not end the game.
    let variant = crate::corners::Variant::by_id(rules).unwrap();
    let mut sim = crate::corners::Game::new(&variant);
    let mut seen = std::collections::HashSet::new();
    seen.insert(sim.position().repetition_key());
    let mut plies = 0;
    while sim.record().len() <= 2 * PART + 100 {
        assert!(plies < 600, "the record grows");
        let pos = *sim.position();
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|m| {
                let after = pos.play_unchecked(*m);
                let mut g = sim.clone();
                !seen.contains(&after.repetition_key()) && matches!(g.play(*m), Ok(None))
            })
            .expect("a fresh move that does not end the game");
        let path = crate::notation::join_path(&pos.path(mv), "-");
        sim.play(mv).unwrap();
        seen.insert(sim.position().repetition_key());
        let who = if plies % 2 == 0 { "alice" } else { "bob" };
        let out = c.said(who, &format!("/move {path}")).await;
        assert!(
            matches!(&out, Msg::AfterMove { recorded, .. } if *recorded == path),
            "{who}: {path}: {out:?}"
        );
        plies += 1;
    }
    assert_eq!(c.row(id).await.status, GameStatus::Active);
    let record = sim.record();
    let out = c.say("carol", &format!("/record {id}")).await;
    assert!(out.len() >= 3, "{} parts", out.len());
    let mut parts = Vec::new();
    for (n, o) in out.iter().enumerate() {
        assert_eq!(o.audience, Audience::Chat);
        assert_eq!(o.game, Some(id));
        let moves = match &o.message {
            Msg::Record {
                id: i,
                white,
                black,
                moves,
                outcome: None,
                ..
            } if n == 0 && *i == id && white == "alice" && black == "bob" => moves,
            Msg::RecordMore { id: i, moves } if n > 0 && *i == id => moves,
            other => panic!("part {n}: {other:?}"),
        };
        // The whole message, its words included, in every language.
        for lang in crate::words::Lang::all() {
            let text = crate::words::render(&o.message, lang);
            let count = text.chars().count();
            assert!(count <= PART, "part {n} in {}: {count}", lang.code());
        }
        assert!(moves.split(' ').next().unwrap().ends_with('.'), "{moves}");
        parts.push(moves.clone());
    }
    assert_eq!(parts.join(" "), record, "nothing lost or repeated");
}

/// A player has at most `max_active_games` running games: a new challenge, an acceptance,
/// `/play bot` and `/train` are refused past it (untimed games against the bot never end
/// by themselves), and nothing is made; finishing one makes room.
#[tokio::test]
async fn a_player_with_the_most_running_games_starts_no_more() {
    let mut c = chat().await;
    c.table = Table::open(
        c.store.clone(),
        Arc::new(c.time.clone()),
        Config {
            max_active_games: 2,
            ..Config::default()
        },
    )
    .await
    .unwrap();
    let first = c.start("classic3x3 none").await;
    c.say("alice", "/play bot 1 classic3x3 none white").await;
    let full = Msg::TooManyGames { max: 2 };
    assert_eq!(
        c.refused("alice", "/play bot 1 damas none white").await,
        full
    );
    assert_eq!(c.refused("alice", "/train classic3x3 solo").await, full);
    assert_eq!(c.refused("alice", "/challenge @carol").await, full);
    // Carol's challenge to Alice is made, but Alice cannot take it.
    c.say("carol", "/challenge @alice").await;
    assert_eq!(c.refused("alice", "/accept").await, full);
    let me = c.player("alice").await;
    assert_eq!(c.store.active_game_count(me.id).await.unwrap(), 2);
    // Bob (one game) is not held back by Alice's count.
    c.say("bob", "/play bot 1 classic3x3 none white").await;
    assert_eq!(
        c.store
            .active_game_count(c.player("bob").await.id)
            .await
            .unwrap(),
        2
    );
    // A game over makes room.
    c.say("alice", &format!("/resign {first}")).await;
    assert!(matches!(
        c.msgs("alice", "/accept").await[..],
        [Msg::ChallengeTaken { .. }, Msg::GameStarted { .. }]
    ));
}
