//! Every reply is an outbox row written with the change it tells of: read back as it was
//! made, in order, and drawn only when sent. Answers to a press for its presser alone go
//! back through the press (not kept); a timer's words go to its game's platform.

use super::*;
use crate::store::Queued;

/// The chat's unsent rows, read back.
async fn kept(c: &Room) -> Vec<(Queued, Outgoing)> {
    let rows = c
        .store
        .unsent(c.chat.platform.as_str(), &c.chat.id, 100)
        .await
        .unwrap();
    rows.into_iter()
        .map(|q| {
            let o = Outgoing::from_row(&q.row).expect("a row reads back");
            (q, o)
        })
        .collect()
}

/// A reply as it reads back from its row (kept, not answered through an interaction).
fn as_kept(o: &Outgoing) -> Outgoing {
    Outgoing {
        direct: false,
        stored: true,
        // Only the sender's id and name are kept.
        sender: o.sender.clone().map(|u| User { handle: None, ..u }),
        ..o.clone()
    }
}

/// The next rows of the chat are exactly `out`, in order; they are marked sent.
async fn next_rows_are(c: &Room, out: &[Outgoing]) {
    let rows = kept(c).await;
    let read: Vec<Outgoing> = rows.iter().map(|(_, o)| o.clone()).collect();
    let want: Vec<Outgoing> = out.iter().filter(|o| !o.direct).map(as_kept).collect();
    assert_eq!(read, want);
    for (q, _) in rows {
        c.store
            .mark_sent(
                q.id,
                (crate::store::Outcome::Sent, 1),
                None,
                c.time.now_ms(),
            )
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn every_reply_is_kept_in_the_outbox_in_order_as_it_was_made() {
    let c = chat().await;
    let out = c.say("alice", "/challenge @bob classic3x3 5+3 white").await;
    next_rows_are(&c, &out).await;
    let out = c.say("bob", "/accept").await;
    assert_eq!(out.len(), 2);
    next_rows_are(&c, &out).await;
    let out = c.say("alice", "c3-d3").await;
    next_rows_are(&c, &out).await;
    // A refusal is kept too, for its sender, answering their message.
    let out = c.say("alice", "c3-d3").await;
    assert_eq!(out[0].audience, Audience::Sender);
    assert!(
        out[0].reply_to.is_some(),
        "it answers the message that asked"
    );
    next_rows_are(&c, &out).await;
    // Read-only answers too.
    let out = c.say("bob", "/board").await;
    next_rows_are(&c, &out).await;
    let out = c.say("bob", "/resign").await;
    next_rows_are(&c, &out).await;
}

#[tokio::test]
async fn a_move_sent_twice_is_told_once() {
    let c = chat().await;
    c.start("none").await;
    next_rows_are(
        &c,
        &kept(&c).await.into_iter().map(|r| r.1).collect::<Vec<_>>(),
    )
    .await;
    let msg = c.incoming("alice", "c3-d3");
    let (a, b) = tokio::join!(c.table.handle(&msg), c.table.handle(&msg));
    assert_eq!(a.len() + b.len(), 1, "{a:#?} {b:#?}");
    let rows = kept(&c).await;
    assert_eq!(rows.len(), 1, "one board in the outbox: {rows:#?}");
    assert!(matches!(rows[0].1.message, Msg::AfterMove { .. }));
}

#[tokio::test]
async fn a_presss_answer_for_its_presser_goes_back_through_the_press() {
    let c = chat().await;
    let g = c.start("none").await;
    let before = kept(&c).await.len();
    let press = Incoming {
        origin: Origin::interaction(c.chat.clone(), user("carol"), "cb:1"),
        input: Input::Action(Action::Resign { game: g, ply: 0 }),
    };
    let out = c.table.handle(&press).await;
    assert!(
        matches!(out.as_slice(), [o] if o.direct && o.message == Msg::ButtonNotYours),
        "{out:#?}"
    );
    assert_eq!(
        kept(&c).await.len(),
        before,
        "nothing kept for a press's answer"
    );
}

#[tokio::test]
async fn on_one_message_a_confirm_pressed_for_goes_on_the_message_too() {
    let c = one_message_room().await;
    let g = c
        .game_from("classic3x3", "8/8/4b3/4w3/8/1b6/2bw4/8 w 41", "none")
        .await;
    let press = |action| Incoming {
        origin: Origin::interaction(c.chat.clone(), user("alice"), "cb:pick"),
        input: Input::Action(action),
    };
    c.table
        .handle(&press(Action::ShowMoves {
            game: g,
            ply: 0,
            from: sq("d2"),
        }))
        .await;
    let mut to = press(Action::MoveTo {
        game: g,
        ply: 0,
        from: sq("d2"),
        to: sq("b2"),
    });
    to.origin.message_id = "cb:to".into();
    let out = c.table.handle(&to).await;
    let confirm = Action::Confirm { game: g, ply: 0 };
    assert!(
        matches!(out.as_slice(), [alert, shown]
            if alert.direct && alert.actions == [confirm]
            && !shown.direct && shown.audience == Audience::Chat && shown.actions == [confirm]),
        "{out:#?}"
    );
    let rows = kept(&c).await;
    let last = &rows.last().expect("kept").1;
    assert!(matches!(
        last.message,
        Msg::ConfirmNeeded { buttons: true, .. }
    ));
}

#[tokio::test]
async fn a_timers_words_go_to_its_games_platform_and_chat() {
    let c = Room {
        chat: ChatRef::new(Platform::Telegram, "-100", ChatKind::Group),
        ..chat().await
    };
    let g = c.start("1+0").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    c.time.advance(2 * MIN);
    let fired = c.table.fire_due().await;
    assert!(
        fired.iter().any(|o| o.chat == c.chat && o.game == Some(g)),
        "{fired:#?}"
    );
    let rows = c.store.unsent("telegram", "-100", 100).await.unwrap();
    let last = Outgoing::from_row(&rows.last().expect("kept").row).unwrap();
    assert_eq!(last.chat, c.chat, "the game's own platform and chat");
    assert!(
        matches!(head(&last.message), Msg::Flagged { id, .. } if *id == g),
        "{last:#?}"
    );
}

#[tokio::test]
async fn pictures_are_drawn_when_sent_from_the_game_as_it_was() {
    let c = chat().await;
    let g = c.start("none").await;
    let first = c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    // The first board, drawn after the next move: the game after one move, White's last
    // move marked, Black to move.
    let view = c.view(&first[0]).await;
    assert_eq!(view.last_path, [sq("c3"), sq("d3")]);
    assert_eq!(view.to_move, Some(Color::Black));
    assert!(view.flip);
    assert_eq!((view.white.as_str(), view.black.as_str()), ("alice", "bob"));
    // A line taken back is no longer there to draw.
    let spec = first[0].board().expect("a board").clone();
    let gone = BoardSpec {
        takebacks: 1,
        ..spec
    };
    assert!(matches!(
        c.table.draw_picture(&Picture::Board(gone), Lang::EN).await,
        Err(DrawError::Gone)
    ));
    let too_far = BoardSpec {
        ply: 9,
        ..first[0].board().unwrap().clone()
    };
    assert!(matches!(
        c.table
            .draw_picture(&Picture::Board(too_far), Lang::EN)
            .await,
        Err(DrawError::Gone)
    ));
    // A spec reads back from its stored form exactly.
    let p = Picture::Board(first[0].board().unwrap().clone());
    assert_eq!(Picture::from_json(&p.to_json()), Some(p));
    let r = Picture::Replay(ReplaySpec { game: g });
    assert_eq!(Picture::from_json(&r.to_json()), Some(r));
}

/// A board committed by another process, one ply ahead of what this one knows of the game,
/// is drawn by playing the spec's move on its own game — not from the store — and the new
/// ply is kept for what comes next. A row written before specs named their move reads back
/// without one (and is drawn from the store).
#[tokio::test]
async fn a_board_one_ply_ahead_is_drawn_by_playing_its_move_here() {
    let c = chat().await;
    // Another "process" on the same store, with a memory of games of its own.
    let other = Table::open(c.store.clone(), Arc::new(c.time.clone()), Config::default())
        .await
        .unwrap();
    let known = |t: &Table, g: i64| {
        let cache = t.cache.lock().unwrap();
        cache.get(&g).map(|(ply, takebacks, _)| (*ply, *takebacks))
    };
    let draw = |o: &Outgoing| {
        let picture = o.picture.clone().expect("a picture");
        let other = &other;
        async move {
            match other.draw_picture(&picture, Lang::EN).await {
                Ok(PictureView::Board(v)) => *v,
                x => panic!("not a board: {x:?}"),
            }
        }
    };
    let g = c.start("none").await;
    let first = c.say("alice", "c3-d3").await;
    // Drawn from the store, the game then kept at that ply.
    draw(&first[0]).await;
    assert_eq!(known(&other, g), Some((1, 0)));
    let second = c.say("bob", "f6-e6").await;
    let spec = second[0].board().expect("a board").clone();
    assert_eq!(spec.last_move.as_deref(), Some("f6-e6"));
    // The game moves on before the other process draws the second board: from the store
    // it would now know the game at ply 3.
    c.say("alice", "b3-b4").await;
    let view = draw(&second[0]).await;
    assert_eq!(view.last_path, [sq("f6"), sq("e6")]);
    assert_eq!(view.to_move, Some(Color::White));
    assert_eq!(known(&other, g), Some((2, 0)), "played here, not read");
    assert_eq!(view, c.view(&second[0]).await, "as this process draws it");
    // A spec without its move (an older row) reads back so, and draws all the same.
    let mut json = Picture::Board(spec.clone()).to_json();
    json.as_object_mut().unwrap().remove("last");
    let Some(Picture::Board(old)) = Picture::from_json(&json) else {
        panic!("an older spec reads back")
    };
    assert_eq!(old.last_move, None);
    let drawn = other.draw_picture(&Picture::Board(old), Lang::EN).await;
    assert!(matches!(drawn, Ok(PictureView::Board(v)) if v.last_path == [sq("f6"), sq("e6")]));
}
