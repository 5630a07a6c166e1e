//! A forum supergroup: each topic is a chat of its own for the table (its own games, its
//! own boards, posted in that topic), while Telegram counts the group's messages together,
//! so the topics share one pace; the bot removed from the group closes every topic.

use crate::harness::{
    play_random_by, quick, says, start_game, temp_db, Group, Rng, RunningBot, StartTelegram,
};
use crate::removed::{calls_for, cause_of, on_the_clock};
use std::time::{Duration, Instant};
use ugolki_bots::telegram::Limits;
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_core::words::{english, Msg};
use ugolki_tests::fake_telegram::FakeTelegram;
use ugolki_tests::said::{game_over, players};

/// Two games at once in two topics of one forum, under privacy mode (`/m@bot` and replies
/// to the board), their moves interleaved: each topic's boards are its own game's, posted
/// in that topic, and nothing lands in General.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forum_plays_two_games_in_two_topics_at_once() {
    let (one, two) = Group::forum(-100_777).await;
    let db = temp_db("topics");
    let bot = RunningBot::start(&one.fake, &db, quick());
    start_game(&one, "classic3x3 none casual").await;
    start_game(&two, "classic3x3 none casual").await;
    let command = format!("/m@{}", FakeTelegram::BOT_USERNAME);
    let mut games = [
        Game::new(&Rules::Corners(Variant::classic3x3())),
        Game::new(&Rules::Corners(Variant::classic3x3())),
    ];
    let mut rng = Rng(0x70b1c);
    for _ in 0..200 {
        if games.iter().all(|g| g.ending().is_some()) {
            break;
        }
        for (g, game) in [&one, &two].into_iter().zip(games.iter_mut()) {
            if game.ending().is_none() {
                play_random_by(g, game, &mut rng, 2, &command).await;
            }
        }
    }
    assert!(
        games.iter().all(|g| g.ending().is_some()),
        "both games ended"
    );
    one.expect_text(&game_over(1)).await;
    two.expect_text(&game_over(2)).await;
    // Each topic shows its own game only.
    let (ab, cd) = (players("Alice", "Bob"), players("Carol", "Dave"));
    assert!(one.messages().iter().any(|m| says(m, &ab)));
    assert!(two.messages().iter().any(|m| says(m, &cd)));
    assert!(!one
        .messages()
        .iter()
        .any(|m| says(m, &cd) || says(m, &game_over(2))));
    assert!(!two
        .messages()
        .iter()
        .any(|m| says(m, &ab) || says(m, &game_over(1))));
    let general: Vec<_> = one
        .fake
        .messages(one.chat.id)
        .into_iter()
        .filter(|m| m.topic.is_none())
        .collect();
    assert!(general.is_empty(), "posted in General: {general:#?}");
    bot.stop().await;
}

/// A group's limit scaled down to 4 calls a second: twelve answers, six in each of two
/// topics, keep to it together (Telegram counts the group, not the topic), and all arrive.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forums_topics_keep_to_their_groups_limit_together() {
    let (one, two) = Group::forum(-100_778).await;
    let db = temp_db("topics-pace");
    let limits = Limits {
        per_group: 4,
        group_window: Duration::from_secs(1),
        ..quick()
    };
    let bot = RunningBot::start(&one.fake, &db, limits);
    let help = format!("/help@{}", FakeTelegram::BOT_USERNAME);
    let started = Instant::now();
    for _ in 0..6 {
        one.send_text(&one.alice, &help);
        two.send_text(&two.alice, &help);
    }
    let first = english(&Msg::Help);
    let first = first.lines().next().expect("a first line");
    let ok = one
        .fake
        .wait_until(Duration::from_secs(20), |f| {
            [&one, &two]
                .iter()
                .all(|g| g.messages_of(f).iter().filter(|m| says(m, first)).count() == 6)
        })
        .await;
    assert!(
        ok,
        "not all answered: {:#?}",
        one.fake.messages(one.chat.id)
    );
    let calls: Vec<Instant> = one
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.method.starts_with("send") && c.error.is_none())
        .filter(|c| calls_for(&one, one.chat.id, started).contains(&c.method))
        .map(|c| c.time)
        .collect();
    assert_eq!(calls.len(), 12, "one call per answer");
    for (i, at) in calls.iter().enumerate() {
        let in_window = calls[i..]
            .iter()
            .take_while(|t| t.duration_since(*at) < Duration::from_secs(1))
            .count();
        assert!(
            in_window <= 4,
            "{in_window} calls to the group within a second"
        );
    }
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "paced over time"
    );
    bot.stop().await;
}

/// Removed from a forum group, the bot voids the running games of all its topics.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn removed_from_a_forum_the_bot_voids_every_topics_games() {
    let (one, two) = Group::forum(-100_779).await;
    let db = temp_db("topics-removed");
    let bot = RunningBot::start(&one.fake, &db, quick());
    on_the_clock(&one).await;
    on_the_clock(&two).await;
    one.fake.remove_bot(&one.chat, &one.alice, true);
    assert_eq!(cause_of(&db, 1).await.as_deref(), Some("chat-gone"));
    assert_eq!(cause_of(&db, 2).await.as_deref(), Some("chat-gone"));
    bot.stop().await;
}
