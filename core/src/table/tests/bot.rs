//! The built-in opponent at the table: `/play bot`, its answers through the timers, `/hint`
//! and `/review`.

use super::*;
use crate::engine::{self, Level};

/// The game a `/play bot` reply started.
fn started(out: &[Outgoing]) -> i64 {
    match out {
        [o] => match &o.message {
            Msg::GameStarted { id, .. } => {
                assert!(o.board().is_some(), "the board comes with the start");
                *id
            }
            other => panic!("not a start: {other:?}"),
        },
        other => panic!("one reply expected: {other:#?}"),
    }
}

impl Room {
    async fn game_now(&self, id: i64) -> crate::game::Game {
        self.table.live(id).await.unwrap().unwrap().game
    }

    /// The bot's turn: its timer is due at once; exactly one answer, the bot's move.
    async fn bot_answers(&self, id: i64) -> String {
        let out = self.table.fire_due().await;
        let boards: Vec<&Outgoing> = out.iter().filter(|o| o.board().is_some()).collect();
        assert_eq!(boards.len(), 1, "one board from the bot: {out:#?}");
        match &boards[0].message {
            Msg::AfterMove {
                mover, recorded, ..
            } => {
                assert!(mover.starts_with("Bot L"), "{mover}");
                assert_eq!(boards[0].game, Some(id));
                recorded.clone()
            }
            other => panic!("not a move: {other:?}"),
        }
    }
}

#[tokio::test]
async fn play_bot_gives_a_whole_game_in_which_the_bot_answers_every_move() {
    let c = chat().await;
    let id = started(&c.say("alice", "/play bot 3 classic3x3 none white").await);
    let row = c.row(id).await;
    assert!(!row.rated, "games against the bot are unrated");
    let mut answered = 0;
    for ply in 0..400u64 {
        let g = c.game_now(id).await;
        if g.ending().is_some() {
            break;
        }
        assert_eq!(g.turn(), Color::White, "alice's turn after every bot move");
        // Alice plays a weak engine's move, so the game ends by the rules.
        let mine = engine::choose(&g, Level::new(1).unwrap().settings(ply)).unwrap();
        let out = c.say("alice", &mine.text).await;
        assert!(
            out.iter()
                .any(|o| matches!(o.message, Msg::AfterMove { .. })),
            "{out:#?}"
        );
        if c.game_now(id).await.ending().is_some() {
            break;
        }
        c.time.advance(1000);
        c.bot_answers(id).await;
        answered += 1;
    }
    let g = c.game_now(id).await;
    assert!(g.ending().is_some(), "the game ended by the rules");
    assert_eq!(c.status(id).await.0, GameStatus::Finished);
    // The record is one legal game, and the bot made every Black move.
    let moves = c.moves(id).await;
    let mut replay = crate::game::Game::new(&Rules::from_id("classic3x3").unwrap());
    for m in &moves {
        replay.play_text(m).unwrap();
    }
    assert_eq!(answered, moves.len() / 2, "{moves:?}");
    // Nothing more is due once the game is over.
    assert!(c.table.fire_due().await.is_empty());
}

#[tokio::test]
async fn the_bot_moves_first_as_white_and_again_after_a_restart() {
    let c = chat().await;
    let id = started(&c.say("alice", "/play bot 2 damas 10+5 black").await);
    c.bot_answers(id).await;
    assert_eq!(c.moves(id).await.len(), 1);
    let g = c.game_now(id).await;
    let mine = engine::choose(&g, Level::new(1).unwrap().settings(0)).unwrap();
    c.say("alice", &mine.text).await;
    // The process goes away before the bot answers: the next one answers.
    let c = c.reopen().await;
    c.bot_answers(id).await;
    assert_eq!(c.moves(id).await.len(), 3);
}

#[tokio::test]
async fn hints_are_for_games_against_the_bot_and_are_legal_moves() {
    let c = chat().await;
    let id = started(&c.say("alice", "/play bot 1 none white").await);
    let hint = c.refused("alice", "/hint").await;
    let Msg::Hint {
        id: hinted,
        recorded,
    } = hint
    else {
        panic!("{hint:?}");
    };
    assert_eq!(hinted, id);
    assert!(c.game_now(id).await.legal_move_texts().contains(&recorded));
    // Bob is not in the game; and between people there are no hints.
    assert_eq!(c.refused("bob", "/hint").await, Msg::NoGameHere);
    let other = Room {
        chat: room("other"),
        ..chat().await
    };
    other.start("none").await;
    assert_eq!(other.refused("alice", "/hint").await, Msg::HintOnlyVsBot);
}

#[tokio::test]
async fn bad_bot_commands_are_refused_and_change_nothing() {
    let c = chat().await;
    assert_eq!(
        c.refused("alice", "/play bot 9").await,
        Msg::CmdBotLevel { max: 5 }
    );
    for too_big in ["/play bot 99999999999999999999999", "/play bot 0"] {
        assert_eq!(
            c.refused("alice", too_big).await,
            Msg::CmdBotLevel { max: 5 }
        );
    }
    assert_eq!(
        c.refused("alice", "/play bot 3 rated").await,
        Msg::BotUnrated
    );
    assert_eq!(c.refused("alice", "/play bot @bob").await, Msg::BotUnrated);
    assert!(c.table.fire_due().await.is_empty());
    assert_eq!(c.refused("alice", "/review").await, Msg::NoGameHere);
}

#[tokio::test]
async fn review_replays_a_finished_game_one_board_per_position() {
    let c = chat().await;
    let id = c.start("none").await;
    assert_eq!(
        c.refused("alice", &format!("/review {id}")).await,
        Msg::ReviewNotOver { id }
    );
    for (who, m) in [("alice", "c3-d3"), ("bob", "f6-e6"), ("alice", "b3-b4")] {
        c.say(who, m).await;
    }
    c.say("bob", "/resign").await;
    let out = c.say("bob", "/review").await;
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(out[0].audience, Audience::Chat);
    let Some(picture) = &out[0].picture else {
        panic!("{out:#?}")
    };
    let Ok(PictureView::Replay(frames)) = c.table.draw_picture(picture, out[0].lang).await else {
        panic!("a replay")
    };
    assert_eq!(frames.len(), 4, "the start and one board per move");
    // Each frame marks the move that led to it.
    assert!(frames[0].last_path.is_empty());
    assert_eq!(frames[1].last_path, vec![sq("c3"), sq("d3")]);
    // The last frame says how the game ended (bob resigned), not a move to come.
    let ended = crate::words::render(
        &Msg::RecordResult {
            result: "white".into(),
            name: "alice".into(),
            cause: Some(crate::game::EndCause::Resigned(crate::color::Color::Black)),
        },
        out[0].lang,
    );
    assert_eq!(frames[3].info, ended);
    assert_ne!(frames[2].info, ended);
    match &out[0].message {
        Msg::Lines(lines) => assert!(
            matches!(&lines[0], Msg::ReviewIntro { id: i, moves: 2, .. } if *i == id),
            "three plies are two moves: {lines:?}"
        ),
        other => panic!("{other:?}"),
    }
}
