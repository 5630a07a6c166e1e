//! Game threads archived by Discord: unarchived by the next move, a press or a flag.

use crate::harness::*;

/// A game's thread archives after a time that fits its clock (a day a move: three days;
/// untimed: a week), as Discord archives inactive threads. In an archived thread a press
/// that edits the board unarchives it first, and a move's new board is posted all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archived_threads_are_unarchived_by_the_next_move_or_edit() {
    let s = Server::new().await;
    let bot = RunningBot::start(&s.fake, "archive");
    s.ready().await;
    let board = s.start_game("classic3x3", "1d").await;
    let thread = |id: u64| {
        s.fake
            .threads()
            .into_iter()
            .find(|t| t.id == id)
            .expect("the game's thread")
    };
    assert_eq!(
        thread(board.channel).auto_archive,
        4320,
        "a day a move: three days"
    );
    // Three days without a message: archived. A press edits the board there.
    s.fake.pass_minutes(4320);
    assert!(thread(board.channel).archived);
    s.press(&s.alice, &board, "c3");
    let back = english(&Msg::BtnBack);
    let picked = s
        .expect("the destinations", |m| {
            m.id == board.id && has_button(m, &back)
        })
        .await;
    assert!(!thread(board.channel).archived, "the edit unarchived it");
    // Archived again: the move's new board is posted there all the same.
    s.fake.pass_minutes(4320);
    s.press(&s.alice, &picked, "d3");
    s.expect_text(&played_move("c3-d3")).await;
    assert!(!thread(board.channel).archived);
    // An untimed game's thread stays a week.
    let other = s.start_game("classic3x3", "none").await;
    assert_eq!(thread(other.channel).auto_archive, 10080);
    bot.stop().await;
}

/// A timer in an archived thread: the thread archives while nobody moves, the bot is
/// restarted (Discord's `GUILD_CREATE` sends no archived thread, so its cache does not hold
/// it), and the flag that falls then is posted in the game's thread, which that unarchives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falling_in_an_archived_thread_is_posted_there_and_unarchives_it() {
    let s = Server::new().await;
    s.fake.grant_intents(FakeDiscord::INTENT_MESSAGE_CONTENT);
    let options = Options {
        message_content: true,
        ..options(&s.fake, "archived-flag")
    };
    let again = options.clone();
    let bot = RunningBot::spawn(|stopped| run(options, stopped));
    s.ready().await;
    let board = s.start_game("damas", "10s+0").await;
    let thread = board.channel;
    let archived = |id: u64| {
        s.fake
            .threads()
            .into_iter()
            .find(|t| t.id == id)
            .expect("the game's thread")
            .archived
    };
    s.fake.message_create(thread, &s.alice, "11-15", &[]);
    s.expect_text(&played_by("alice")).await;
    s.fake.message_create(thread, &s.bob, "22-18", &[]);
    s.expect_text(&played_by("bob")).await;
    bot.stop().await;
    // An hour (a ten-second game's archive duration) without a message: archived.
    s.fake.pass_minutes(60);
    assert!(archived(thread));
    let bot = RunningBot::spawn(|stopped| run(again, stopped));
    let flag = s
        .expect_text(&english(&Msg::Flagged {
            id: 1,
            loser: "alice".into(),
            winner: "bob".into(),
        }))
        .await;
    assert_eq!(flag.channel, thread, "in the game's thread");
    assert!(!archived(thread), "the flag's message unarchived it");
    bot.stop().await;
}
