//! Delivery against Discord's own failures: a create whose answer is lost is not doubled
//! (its enforced nonce), and a reply to a deleted message is posted all the same.

use crate::harness::*;

/// Creating a message cannot be doubled by a retry: Discord creates the board, but its answer
/// is lost (a 500 to the bot); the outbox sends the row again with the same enforced nonce,
/// and Discord answers with the message it made. The channel shows the move's board once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_create_whose_answer_is_lost_is_retried_without_a_second_message() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "answer-lost");
    s.ready().await;
    let board = s.start_game("classic3x3", "none").await;
    let thread = board.channel;
    s.fake
        .fail_next(1, &["create_message"], Failure::AnswerLost);
    s.fake.message_create(thread, &s.alice, "c3-d3", &[]);
    s.expect_text(&played("alice", "c3-d3")).await;
    // The next move's answer proves the lane went on past the retried row.
    s.fake.message_create(thread, &s.bob, "f6-e6", &[]);
    s.expect_text(&played("bob", "f6-e6")).await;
    let creates: Vec<_> = s
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.route == "create_message" && says_call(c, &played("alice", "c3-d3")))
        .collect();
    assert!(
        creates.len() >= 2,
        "the lost create was retried: {creates:#?}"
    );
    assert!(creates[0].failed, "{creates:#?}");
    let nonces: std::collections::BTreeSet<_> = creates
        .iter()
        .map(|c| c.body["nonce"].to_string())
        .collect();
    assert_eq!(nonces.len(), 1, "one nonce for the row: {nonces:?}");
    assert_eq!(
        s.all()
            .iter()
            .filter(|m| says(m, &played("alice", "c3-d3")))
            .count(),
        1,
        "the board is shown once"
    );
    assert!(creates.iter().all(|c| c.body["enforce_nonce"] == true));
    bot.stop().await;
}

/// Whether the message a REST call creates says `part` (its content or an embed's
/// description).
fn says_call(call: &ugolki_tests::fake_discord::Call, part: &str) -> bool {
    let content = call.body["content"].as_str().unwrap_or_default();
    let embeds = call.body["embeds"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    content.contains(part)
        || embeds
            .iter()
            .any(|e| e["description"].as_str().is_some_and(|d| d.contains(part)))
}

/// A reply to a typed command is posted even if that message was deleted before the reply
/// went out (held here by a 429): Discord refuses a reply to a missing message unless it is
/// told to post it as a plain message then (`fail_if_not_exists: false`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_to_a_deleted_message_is_posted_all_the_same() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "deleted");
    s.ready().await;
    let board = s.start_game("classic3x3", "none").await;
    s.fake.fail_next(
        1,
        &["create_message"],
        Failure::TooManyRequests {
            retry_after_ms: 1000,
        },
    );
    let typed = s
        .fake
        .message_create(board.channel, &s.alice, "!rules damas", &[]);
    let held = s
        .fake
        .wait_until(WAIT, |f| {
            f.calls()
                .iter()
                .any(|c| c.failed && c.route == "create_message")
        })
        .await;
    assert!(held, "the reply's post was held by a 429");
    s.fake.delete_message(board.channel, typed);
    let rules = english(&Msg::RulesDamas { flying: true });
    let first = rules.lines().next().expect("a line");
    let posted = s.expect_text(first).await;
    assert_eq!(posted.channel, board.channel);
    bot.stop().await;
}

/// A long command is answered, not ignored: 1,100 Cyrillic letters are within Discord's
/// 2,000 characters (though 2,200 bytes), and the table says its limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_cyrillic_command_is_told_it_is_too_long() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "long-cyrillic");
    s.ready().await;
    let board = s.start_game("classic3x3", "none").await;
    let long = format!("!rules {}", "я".repeat(1100));
    assert!(long.len() > 2000 && long.chars().count() <= 2000);
    s.fake.message_create(board.channel, &s.alice, &long, &[]);
    let max = ugolki_core::table::command::MAX_MESSAGE;
    let said = s.expect_text(&english(&Msg::CmdTooLong { max })).await;
    assert_eq!(said.channel, board.channel);
    bot.stop().await;
}
