//! Games on one inline message: a challenge sent as a card, accepted and played by buttons
//! until a flag falls, a card pressed before its challenge exists (and no cards without a
//! picture chat), a card for a named player and a draw offer on the board, and a losing
//! move that waits for its Confirm button.

use crate::harness::{
    data_of, decodes, has_button, quick, temp_db, RunningBot, StartTelegram, WAIT,
};
use crate::inline::{caption_has, InlineRoom};
use ugolki_core::game::EndCause;
use ugolki_core::words::{english, Msg};
use ugolki_core::Color;
use ugolki_tests::said::{
    challenge_parts, first_sentence, fits, hole, hole_msg, in_order, lead, played, players,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inline_challenge_is_played_on_its_one_message_and_a_flag_edits_it() {
    let r = InlineRoom::new("inline").await;
    // Alice sends one card: it becomes an inline message, and then the challenge.
    assert_eq!(
        r.cards(&r.alice, "classic3x3 3s+0 white")
            .await
            .results
            .len(),
        1
    );
    let inline = r.send(&r.alice, "classic3x3 3s+0 white").await;
    let open = challenge_parts(&Msg::ChallengeOpen {
        id: 1,
        from: "Alice".into(),
        terms: hole_msg(),
        wish: Some(Color::White),
        minutes: 0,
        buttons: true,
    });
    let (accept, cancel) = (english(&Msg::BtnAccept), english(&Msg::BtnCancel));
    let challenge = r
        .expect(&inline, "a challenge", |m| {
            m.caption.as_deref().is_some_and(|c| in_order(c, &open)) && has_button(m, &cancel)
        })
        .await;
    let card_photo = challenge.photo.clone().expect("the card's photo");
    // Carol may not cancel Alice's challenge; Bob accepts: the message becomes the board.
    r.press(&r.carol, &inline, &challenge, &cancel);
    r.press(&r.bob, &inline, &challenge, &accept);
    let mut board = r.expect_caption(&inline, &players("Alice", "Bob")).await;
    assert!(board.photo.as_deref().is_some_and(decodes) && board.photo != Some(card_photo));
    let answers = r.fake.callback_answers();
    let only_author = english(&Msg::OnlyAuthorCancels);
    assert!(
        answers
            .iter()
            .any(|a| a.text.as_deref().is_some_and(|t| t.contains(&only_author))),
        "{answers:#?}"
    );

    // Two moves by buttons, each editing the one message: the keyboard, then photo and caption.
    for (who, other, mv, name) in [
        (&r.alice, &r.bob, "c3-d3", "Alice"),
        (&r.bob, &r.alice, "f6-e6", "Bob"),
    ] {
        // Carol's press and the waiting player's change nothing.
        let (from, to) = mv.split_once('-').unwrap();
        let photo = board.photo.clone();
        r.press(&r.carol, &inline, &board, from);
        let early = r.press(other, &inline, &board, from);
        assert_eq!(
            r.answer(&early).await.text,
            Some(english(&Msg::NotYourTurn))
        );
        let picked = r.pick(who, &inline, &board, from).await;
        assert_eq!(
            picked.photo, photo,
            "a pick edits the keyboard, not the picture"
        );
        r.press(who, &inline, &picked, to);
        board = r.expect_caption(&inline, &played(name, mv)).await;
        assert!(
            board.photo.as_deref().is_some_and(decodes) && board.photo != photo,
            "a move edits the picture"
        );
    }
    let answers = r.fake.callback_answers();
    let not_yours = english(&Msg::ButtonNotYours);
    assert!(
        answers
            .iter()
            .filter(|a| a.text.as_deref() == Some(not_yours.as_str()))
            .count()
            >= 2,
        "{answers:#?}"
    );
    // Nobody presses: Alice's flag falls and the message says so, with no buttons left.
    let flagged = english(&Msg::Flagged {
        id: 1,
        loser: "Alice".into(),
        winner: "Bob".into(),
    });
    let over = r.expect_caption(&inline, &flagged).await;
    assert!(over.buttons.is_empty(), "{over:#?}");
    // Every edit went to the inline message, every photo a file already on Telegram
    // (the fake refuses uploads to inline messages).
    let calls = r.fake.calls();
    let media: Vec<_> = calls
        .iter()
        .filter(|c| c.method == "editmessagemedia")
        .collect();
    assert!(media.len() >= 4, "{media:#?}");
    assert!(media
        .iter()
        .all(|c| c.error.is_none() && c.params["inline_message_id"] == inline.as_str()));
    assert!(
        r.fake.messages(r.pictures.id).len() >= 8 + media.len(),
        "pictures are stored in the picture chat"
    );
    r.bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inline_card_pressed_before_its_challenge_exists_makes_it_and_without_a_picture_chat_there_are_no_cards(
) {
    let r = InlineRoom::new("inline-early").await;
    let accept = english(&Msg::BtnAccept);
    let not_ready = english(&Msg::InlineNotReady);
    // Inline feedback off in BotFather: no chosen result ever comes. The card's button
    // carries the card: Bob's press makes Alice's challenge and accepts it.
    r.fake.set_inline_feedback(false);
    let inline = r.send(&r.alice, "damas 5+3").await;
    let card = r.fake.inline_message(&inline).unwrap();
    r.press(&r.bob, &inline, &card, &accept);
    let started = Msg::GameStarted {
        id: 1,
        white: hole(),
        black: hole(),
        terms: hole_msg(),
        pair_limit: false,
    };
    let board = r
        .expect(&inline, "a board", |m| {
            m.caption.as_deref().is_some_and(|c| fits(c, &started))
        })
        .await;
    assert!(board.photo.as_deref().is_some_and(decodes));
    assert!(has_button(&board, &english(&Msg::BtnResign)));
    // A forged card (another sender) changes nothing.
    let forged = data_of(&card, &accept).replace(":11:", ":12:");
    let answer = r
        .answer(&r.fake.press_inline(&r.alice, &inline, &forged))
        .await;
    assert!(answer
        .text
        .as_deref()
        .is_some_and(|t| t.contains(&not_ready)));
    let after = r.fake.inline_message(&inline).unwrap();
    assert_eq!((after.edits, after.caption), (board.edits, board.caption));
    // A card too long to carry itself asks to wait instead.
    let inline = r
        .send(
            &r.alice,
            "classic3x3 10+5 casual white @a_rather_long_username",
        )
        .await;
    let card = r.fake.inline_message(&inline).unwrap();
    assert_eq!(data_of(&card, &accept), "card");
    let answer = r.answer(&r.press(&r.bob, &inline, &card, &accept)).await;
    assert_eq!(answer.text, Some(not_ready));
    assert_eq!(
        r.fake.inline_message(&inline).unwrap().edits,
        0,
        "nothing changed"
    );
    r.bot.stop().await;

    // Without a picture chat an inline message could never show a board: no cards, and a
    // way to a private chat instead.
    let db = temp_db("inline-none");
    let bot = RunningBot::start(&r.fake, &db, quick());
    let id = r.fake.inline_query(&r.alice, "");
    assert!(
        r.fake
            .wait_until(WAIT, |f| f.inline_answer(&id).is_some())
            .await
    );
    let none = r.fake.inline_answer(&id).expect("answered");
    assert!(none.results.is_empty());
    assert_eq!(
        none.button.as_ref().and_then(|b| b["text"].as_str()),
        Some(english(&Msg::InlineUnavailable).as_str())
    );
    assert_eq!(
        none.button
            .as_ref()
            .and_then(|b| b["start_parameter"].as_str()),
        Some("inline")
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inline_card_for_a_named_player_is_theirs_alone_and_a_draw_offer_keeps_the_moves() {
    let r = InlineRoom::new("inline-named").await;
    let (accept, cancel) = (english(&Msg::BtnAccept), english(&Msg::BtnCancel));
    // A card Alice sends and then withdraws: cancelled.
    let first = r.send(&r.alice, "triangle 5+3").await;
    let challenge = r
        .expect(&first, "a challenge", |m| has_button(m, &cancel))
        .await;
    r.press(&r.alice, &first, &challenge, &cancel);
    let gone = r.expect(&first, "declined", |m| m.buttons.is_empty()).await;
    let cancelled = english(&Msg::Cancelled { id: 1 });
    assert!(
        gone.caption.is_some_and(|c| c.contains(&cancelled)),
        "{:#?}",
        r.fake.inline_message(&first)
    );

    // A card for Dana: Carol's Accept is refused, Dana's starts the game.
    let inline = r.send(&r.alice, "classic3x3 none @dana white").await;
    let to_dana = challenge_parts(&Msg::ChallengeTo {
        id: 2,
        from: "Alice".into(),
        to: "@dana".into(),
        terms: hole_msg(),
        wish: Some(Color::White),
        minutes: 0,
        pair_limit: false,
        buttons: true,
    });
    let challenge = r
        .expect(&inline, "a challenge to Dana", |m| {
            m.caption.as_deref().is_some_and(|c| in_order(c, &to_dana))
        })
        .await;
    r.answer(&r.press(&r.carol, &inline, &challenge, &accept))
        .await;
    assert_eq!(
        r.fake.inline_message(&inline).unwrap().edits,
        challenge.edits,
        "Carol changed nothing"
    );
    r.press(&r.dana, &inline, &challenge, &accept);
    let board = r.expect_caption(&inline, &players("Alice", "Dana")).await;

    // Alice offers a draw by button: the offer goes under the board's caption, with the
    // moves still on the keyboard next to the offer's answers.
    r.press(&r.alice, &inline, &board, &english(&Msg::BtnOfferDraw));
    let offer = Msg::DrawOffered {
        by: "Alice".into(),
        to: "Dana".into(),
        buttons: true,
    };
    let offered = r.expect_caption(&inline, &first_sentence(&offer)).await;
    let caption = offered.caption.clone().unwrap();
    assert!(
        caption.starts_with(&lead(&Msg::BoardCaption {
            id: 1,
            status: hole_msg(),
        })),
        "the board's caption stays: {caption}"
    );
    assert!(caption.contains(&english(&offer)), "{caption}");
    let accept_draw = english(&Msg::BtnAcceptDraw);
    assert!(
        has_button(&offered, "c3") && has_button(&offered, &accept_draw),
        "{offered:#?}"
    );
    r.press(&r.dana, &inline, &offered, &accept_draw);
    let over = r.expect(&inline, "a draw", |m| m.buttons.is_empty()).await;
    let agreed = english(&Msg::DrawAgreed { id: 1 });
    assert!(over.caption.is_some_and(|c| c.contains(&agreed)));
    r.bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_losing_move_on_an_inline_message_waits_for_its_confirm_button() {
    let r = InlineRoom::new("inline-confirm").await;
    // One piece each, to leave home by move 1: going back home at move 2 loses (C6).
    let inline = r
        .send(
            &r.alice,
            "training:classic3x3,home=a1,deadline=1 none white",
        )
        .await;
    let cancel = english(&Msg::BtnCancel);
    let challenge = r
        .expect(&inline, "a challenge", |m| has_button(m, &cancel))
        .await;
    r.press(&r.bob, &inline, &challenge, &english(&Msg::BtnAccept));
    let mut board = r.expect_caption(&inline, &players("Alice", "Bob")).await;
    for (who, from, to, said) in [
        (&r.alice, "a1", "a2", played("Alice", "a1-a2")),
        (&r.bob, "h8", "h7", played("Bob", "h8-h7")),
    ] {
        let picked = r.pick(who, &inline, &board, from).await;
        r.press(who, &inline, &picked, to);
        board = r.expect_caption(&inline, &said).await;
    }
    let picked = r.pick(&r.alice, &inline, &board, "a2").await;
    let id = r.press(&r.alice, &inline, &picked, "a1");
    // The alert says why, and the message carries the Confirm button (nothing can be typed).
    let confirm = english(&Msg::BtnConfirm);
    let asked = r
        .expect(&inline, "a Confirm", |m| has_button(m, &confirm))
        .await;
    let loses = Msg::ConfirmNeeded {
        recorded: "a2-a1".into(),
        deadline: 1,
        buttons: true,
    };
    assert!(caption_has(&asked, &english(&loses)), "{asked:#?}");
    let answer = r.answer(&id).await;
    assert!(answer
        .text
        .is_some_and(|t| t.contains(&first_sentence(&loses))));
    // Bob cannot confirm Alice's move; Alice can, and loses at once.
    r.answer(&r.press(&r.bob, &inline, &asked, &confirm)).await;
    r.press(&r.alice, &inline, &asked, &confirm);
    let result = english(&Msg::RulesResult {
        id: 1,
        winner: Some(Color::Black),
        name: "Bob".into(),
        cause: EndCause::ReturnedHome(Color::White),
        rule: "C6".into(),
    });
    let over = r.expect_caption(&inline, &result).await;
    assert!(over.buttons.is_empty(), "{over:#?}");
    r.bot.stop().await;
}
