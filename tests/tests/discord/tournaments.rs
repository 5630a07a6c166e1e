//! A tournament in a server's channel, end to end: a Swiss of four made by slash command
//! by a member with Manage Server (one without is refused), joined by the announcement's
//! button and by `/join`, played by `/move` and `/resign` to its end, with the standings
//! posted as a picture that decodes.

use crate::harness::*;
use std::collections::BTreeSet;
use ugolki_tests::said::tournament_game_announced;

/// A game of tournament #1 announced in `messages`, not in `ended`: (id, White, Black).
fn announced<'a>(
    messages: &[SentMessage],
    players: &[&'a FakeUser],
    ended: &BTreeSet<i64>,
) -> Option<(i64, &'a FakeUser, &'a FakeUser)> {
    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
    let said = |text: &str| messages.iter().any(|m| says(m, text));
    tournament_game_announced(&names, ended, said).map(|(id, w, b)| (id, players[w], players[b]))
}

// One story: made, joined, started, played round by round, ended.
#[allow(clippy::too_many_lines)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_players_play_a_swiss_to_its_end_and_get_the_standings_picture() {
    let s = Server::new().await;
    let carol = FakeDiscord::user(23, "carol");
    let dave = FakeDiscord::user(24, "dave");
    s.fake.make_manager(&s.alice);
    let bot = RunningBot::start(&s.fake, "tournament");
    s.ready().await;
    let channel = FakeDiscord::CHANNEL_ID;
    let make = [
        ("what", OptionValue::String("swiss".into())),
        ("variant", OptionValue::String("classic3x3".into())),
        ("time", OptionValue::String("3+2".into())),
        ("settings", OptionValue::String("casual 3 rounds".into())),
    ];
    // Only a member who may manage the server makes one.
    let refused = s
        .fake
        .slash_command(channel, &s.bob, "tournament", &make, "en-US");
    assert_eq!(
        s.private_answer(refused).await,
        english(&Msg::TournamentAdminsOnly)
    );
    s.fake
        .slash_command(channel, &s.alice, "tournament", &make, "en-US");
    let join = english(&Msg::BtnJoin);
    let card = s
        .expect("the announcement with its buttons", |m| {
            has_button(m, &join)
        })
        .await;
    // Two join by the button, two by `/join`, one after another.
    for (n, who) in [&s.alice, &s.bob, &carol, &dave].into_iter().enumerate() {
        if n < 2 {
            s.press(who, &card, &join);
        } else {
            s.fake.slash_command(channel, who, "join", &[], "en-US");
        }
        s.expect_text(&english(&Msg::TournamentJoined {
            id: 1,
            name: who.name.clone(),
            count: n + 1,
        }))
        .await;
    }
    s.fake.slash_command(
        channel,
        &s.alice,
        "tournament",
        &[("what", OptionValue::String("start".into()))],
        "en-US",
    );
    s.expect_text(&english(&Msg::TournamentStarted {
        id: 1,
        count: 4,
        rounds: Some(3),
        minutes: None,
    }))
    .await;
    let players = [&s.alice, &s.bob, &carol, &dave];
    let mut ended = BTreeSet::new();
    for _ in 0..100 {
        if ended.len() == 6 {
            break;
        }
        let Some((id, white, black)) = announced(&s.all(), &players, &ended) else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let first = Game::new(&Rules::from_id("classic3x3").expect("a variant")).legal_move_texts()
            [0]
        .clone();
        // The same player may have played the same first move in an earlier game (its
        // board is in that game's thread): this game's is one more such board.
        let said = played(&white.name, &first);
        let boards = || s.all().iter().filter(|m| text(m).contains(&said)).count();
        let before = boards();
        s.fake.slash_command(
            channel,
            white,
            "move",
            &[
                ("move", OptionValue::String(first.clone())),
                ("game", OptionValue::Integer(id)),
            ],
            "en-US",
        );
        let moved = s.fake.wait_until(WAIT, |_| boards() > before).await;
        assert!(moved, "game #{id}: no board after {said}");
        s.fake.slash_command(
            channel,
            black,
            "resign",
            &[("game", OptionValue::Integer(id))],
            "en-US",
        );
        s.expect_text(&english(&Msg::Resigned {
            id,
            loser: black.name.clone(),
            winner: white.name.clone(),
        }))
        .await;
        ended.insert(id);
    }
    assert_eq!(ended.len(), 6, "three rounds of two games");
    let over = Msg::TournamentOver {
        id: 1,
        winner: hole(),
    };
    s.expect("the end", |m| fits(&text(m), &over)).await;
    let heading = |status: &str, round: Option<i64>| {
        english(&Msg::TournamentStandings {
            id: 1,
            status: status.into(),
            round,
        })
    };
    for (status, round) in [("live", Some(1)), ("live", Some(2)), ("final", None)] {
        let table = s
            .expect("standings with their picture", |m| {
                !m.attachments.is_empty() && says(m, &heading(status, round))
            })
            .await;
        assert!(decodes(&table.attachments[0].bytes), "{status} {round:?}");
    }
    bot.stop().await;
}
