//! A tournament in a group, end to end: a Swiss of four made by the group's admin (a
//! member who is not one is refused), joined by the announcement's button and by `/join`,
//! played round by round to its end, with the standings posted as a picture that decodes.

use crate::harness::{decodes, has_button, quick, temp_db, Group, RunningBot, StartTelegram};
use std::collections::BTreeSet;
use ugolki_core::game::{Game, Rules};
use ugolki_core::words::{english, Msg};
use ugolki_tests::e2e::says;
use ugolki_tests::fake_telegram::{FakeTelegram, FakeUser, SentMessage};
use ugolki_tests::said::{fits, hole, played, tournament_game_announced};

/// A game of tournament #1 announced in `messages`, not in `ended`: (id, White, Black).
fn announced<'a>(
    messages: &[SentMessage],
    players: &[&'a FakeUser],
    ended: &BTreeSet<i64>,
) -> Option<(i64, &'a FakeUser, &'a FakeUser)> {
    let names: Vec<&str> = players.iter().map(|p| p.first_name.as_str()).collect();
    let said = |text: &str| messages.iter().any(|m| says(m, text));
    tournament_game_announced(&names, ended, said).map(|(id, w, b)| (id, players[w], players[b]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_players_play_a_swiss_to_its_end_and_get_the_standings_picture() {
    let g = Group::new().await;
    let carol = FakeTelegram::user(13, "Carol", Some("carol"), Some("en"));
    let dave = FakeTelegram::user(14, "Dave", Some("dave"), Some("en"));
    g.fake.make_admin(&g.chat, &g.alice);
    let db = temp_db("tournament");
    let bot = RunningBot::start(&g.fake, &db, quick());
    let make = "/tournament swiss classic3x3 3+2 casual 3 rounds";
    // Only the group's admins make one.
    g.send_text(&g.bob, make);
    g.expect_text(&english(&Msg::TournamentAdminsOnly)).await;
    // As the table reads it: any case, an alias.
    g.send_text(&g.alice, "/TOURNEY swiss classic3x3 3+2 casual 3 rounds");
    let join = english(&Msg::BtnJoin);
    let card = g
        .expect("the announcement with its buttons", |m| {
            has_button(m, &join)
        })
        .await;
    // Two join by the button, two by typing.
    g.press(&g.alice, &card, &join);
    g.press(&g.bob, &card, &join);
    g.send_text(&carol, "/join");
    g.send_text(&dave, "/join");
    for (n, name) in [(1, "Alice"), (2, "Bob"), (3, "Carol"), (4, "Dave")] {
        g.expect_text(&english(&Msg::TournamentJoined {
            id: 1,
            name: name.into(),
            count: n,
        }))
        .await;
    }
    g.send_text(&g.alice, "/tournament start");
    g.expect_text(&english(&Msg::TournamentStarted {
        id: 1,
        count: 4,
        rounds: Some(3),
        minutes: None,
    }))
    .await;
    // Each game as it is announced: White moves, Black resigns.
    let players = [&g.alice, &g.bob, &carol, &dave];
    let over = Msg::TournamentOver {
        id: 1,
        winner: hole(),
    };
    let mut ended = BTreeSet::new();
    for _ in 0..100 {
        if ended.len() == 6 {
            break;
        }
        let Some((id, white, black)) = announced(&g.messages(), &players, &ended) else {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            continue;
        };
        let first = Game::new(&Rules::from_id("classic3x3").expect("a variant")).legal_move_texts()
            [0]
        .clone();
        g.send_text(white, &format!("/move {id} {first}"));
        g.expect_text(&played(&white.first_name, &first)).await;
        g.send_text(black, &format!("/resign {id}"));
        g.expect_text(&english(&Msg::Resigned {
            id,
            loser: black.first_name.clone(),
            winner: white.first_name.clone(),
        }))
        .await;
        ended.insert(id);
    }
    assert_eq!(ended.len(), 6, "three rounds of two games");
    g.expect("the end", |m| {
        m.text
            .as_deref()
            .or(m.caption.as_deref())
            .is_some_and(|t| fits(t, &over))
    })
    .await;
    // The standings after each round and at the end: pictures that decode.
    let heading = |status: &str, round: Option<i64>| {
        english(&Msg::TournamentStandings {
            id: 1,
            status: status.into(),
            round,
        })
    };
    let final_table = g
        .expect("the final standings", |m| {
            m.photo.is_some() && says(m, &heading("final", None))
        })
        .await;
    assert!(decodes(final_table.photo.as_deref().unwrap_or_default()));
    for round in 1..=2 {
        let table = g
            .expect("a round's standings", |m| {
                m.photo.is_some() && says(m, &heading("live", Some(round)))
            })
            .await;
        assert!(decodes(table.photo.as_deref().unwrap_or_default()));
    }
    bot.stop().await;
}
