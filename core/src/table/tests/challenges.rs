//! Challenges: made, accepted, declined, cancelled, expired; to a player, to a handle, or
//! open to anyone.

use super::*;

#[tokio::test]
async fn a_challenge_is_a_living_message_with_its_buttons() {
    let c = chat().await;
    let out = c.say("alice", "/challenge @bob classic3x4 3+2 white").await;
    assert_eq!(out.len(), 1);
    let o = &out[0];
    let Msg::ChallengeTo {
        id,
        from,
        to,
        terms,
        wish,
        minutes,
        pair_limit,
        buttons,
    } = &o.message
    else {
        panic!("{o:#?}")
    };
    let id = *id;
    assert!(!pair_limit);
    assert!(!buttons, "an ordinary chat names the commands");
    assert_eq!((from.as_str(), to.as_str()), ("alice", "bob"));
    assert_eq!((*wish, *minutes), (Some(Color::White), 10));
    assert!(
        matches!(
            **terms,
            Msg::Terms {
                rated: true,
                stake: None,
                monitor: false,
                ..
            }
        ),
        "{terms:?}"
    );
    assert_eq!(o.audience, Audience::Chat);
    assert_eq!(o.slot, Some(SlotUse::Replace(Slot::Challenge(id))));
    assert_eq!(
        o.actions,
        [
            Action::Accept { challenge: id },
            Action::Decline { challenge: id },
            Action::Cancel { challenge: id },
        ]
    );
    assert!(o.board().is_none() && o.game.is_none());
}

#[tokio::test]
async fn challenge_expires_and_cannot_be_accepted_after() {
    let c = chat().await;
    c.say("alice", "/challenge @bob").await;
    c.time.advance(10 * MIN - 1);
    assert!(c.table.fire_due().await.is_empty());
    c.time.advance(1);
    let out = c.table.fire_due().await;
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0].message,
        Msg::Expired {
            id: 1,
            challenger: "alice".into()
        }
    );
    assert_eq!(out[0].slot, Some(SlotUse::Edit(Slot::Challenge(1))));
    assert!(
        out[0].actions.is_empty(),
        "an expired challenge has no buttons"
    );
    assert_eq!(c.refused("bob", "/accept").await, Msg::NoChallengeForYou);
    assert_eq!(
        c.refused_press("bob", Action::Accept { challenge: 1 })
            .await,
        Msg::NoSuchChallenge { id: 1 }
    );
}

#[tokio::test]
async fn open_challenges_are_for_anyone_but_the_challenger() {
    let c = chat().await;
    let out = c.say("alice", "/challenge damas 5+3").await;
    let Msg::ChallengeOpen { id, ref from, .. } = out[0].message else {
        panic!("{out:#?}")
    };
    assert_eq!(from, "alice");
    assert_eq!(
        out[0].actions,
        [
            Action::Accept { challenge: id },
            Action::Cancel { challenge: id }
        ]
    );
    assert_eq!(
        c.refused("alice", "/accept").await,
        Msg::OwnChallenge { buttons: false }
    );
    let out = c.msgs("carol", "/accept").await;
    assert!(
        matches!(&out[0], Msg::ChallengeTaken { id: i, by, .. } if *i == id && by == "carol"),
        "{out:#?}"
    );
    assert!(
        matches!(&out[1], Msg::GameStarted { white, black, .. }
            if [white.as_str(), black.as_str()].contains(&"carol")
                && [white.as_str(), black.as_str()].contains(&"alice")),
        "{out:#?}"
    );
    assert_eq!(c.refused("dave", "/accept").await, Msg::NoChallengeForYou);
}

#[tokio::test]
async fn challenges_refuse_self_and_crowds_and_nonsense() {
    let c = chat().await;
    assert_eq!(
        c.refused("alice", "/challenge @alice").await,
        Msg::SelfChallenge
    );
    assert_eq!(
        c.refused("alice", "/challenge @bob @carol").await,
        Msg::OneAtATime
    );
    assert_eq!(
        c.refused("alice", "/challenge @bob blitz").await,
        Msg::CmdChallengeWord {
            word: "blitz".into()
        }
    );
    assert_eq!(
        c.refused("carol", "/decline 99").await,
        Msg::NoSuchChallenge { id: 99 }
    );
    c.say("alice", "/challenge @bob").await;
    assert_eq!(
        c.refused("carol", "/accept 1").await,
        Msg::ChallengeForSomeoneElse { id: 1 }
    );
    assert_eq!(
        c.refused("carol", "/decline 1").await,
        Msg::OnlyTargetDeclines { buttons: false }
    );
    let out = c.say("bob", "/decline").await;
    assert_eq!(
        messages(&out),
        [Msg::Declined {
            id: 1,
            by: "bob".into(),
            challenger: "alice".into()
        }]
    );
    assert_eq!(out[0].audience, Audience::Chat);
    assert_eq!(out[0].slot, Some(SlotUse::Edit(Slot::Challenge(1))));
    assert!(out[0].actions.is_empty());
    c.say("alice", "/challenge @bob").await;
    assert_eq!(c.refused("bob", "/cancel").await, Msg::NothingToCancel);
    assert_eq!(c.refused("bob", "/cancel 2").await, Msg::OnlyAuthorCancels);
    let out = c.say("alice", "/cancel").await;
    assert_eq!(messages(&out), [Msg::Cancelled { id: 2 }]);
    assert_eq!(out[0].slot, Some(SlotUse::Edit(Slot::Challenge(2))));
    assert!(c.store.active_games().await.unwrap().is_empty());
    assert!(c.store.open_challenges().await.unwrap().is_empty());
}

#[tokio::test]
async fn an_at_name_nobody_could_resolve_is_not_an_open_challenge() {
    let c = chat().await;
    let msg = Incoming::text(c.origin("alice"), "/challenge @ghost", Vec::new());
    let out = c.table.handle(&msg).await;
    assert_eq!(
        only_private(&out),
        Msg::UnknownPlayer {
            handle: "ghost".into()
        }
    );
    assert!(c.store.open_challenges().await.unwrap().is_empty());
}

#[tokio::test]
async fn a_challenge_by_handle_waits_for_that_handle() {
    // Telegram knows only @handles: the challenged player may not be registered yet.
    let c = chat().await;
    let msg = Incoming::text(
        c.origin("alice"),
        "/challenge @zed",
        vec![Mention::Handle("@Zed".into())],
    );
    let out = c.table.handle(&msg).await;
    let Msg::Lines(lines) = &out[0].message else {
        panic!("{out:#?}")
    };
    assert!(
        matches!(lines.as_slice(), [Msg::ChallengeTo { from, to, .. }, _] if from == "alice" && to == "@zed"),
        "{out:#?}"
    );
    assert_eq!(
        lines[1],
        Msg::UnseenPlayer {
            handle: "zed".into()
        },
        "zed is told to introduce themselves first"
    );
    assert_eq!(c.refused("bob", "/accept").await, Msg::NoChallengeForYou);
    let out = c.msgs("zed", "/accept").await;
    assert!(
        matches!(&out[..], [Msg::ChallengeTaken { by, game: 1, .. }, Msg::GameStarted { id: 1, .. }] if by == "zed"),
        "{out:#?}"
    );
}

#[tokio::test]
async fn on_one_message_an_open_challenge_may_be_declined_by_anyone_but_its_author() {
    let c = one_message_room().await;
    let out = c.say("alice", "/challenge classic3x3 5+3").await;
    let Msg::ChallengeOpen { id, buttons, .. } = out[0].message else {
        panic!("{out:#?}")
    };
    assert!(buttons, "one message names the buttons, not the commands");
    assert_eq!(
        out[0].actions,
        [
            Action::Accept { challenge: id },
            Action::Decline { challenge: id },
            Action::Cancel { challenge: id },
        ]
    );
    // The author cannot decline or accept their own challenge; it stays open, and the
    // refusals name the button (nothing can be typed here).
    assert_eq!(
        c.refused_press("alice", Action::Decline { challenge: id })
            .await,
        Msg::OnlyTargetDeclines { buttons: true }
    );
    assert_eq!(
        c.refused_press("alice", Action::Accept { challenge: id })
            .await,
        Msg::OwnChallenge { buttons: true }
    );
    let out = c.press("bob", Action::Decline { challenge: id }).await;
    assert_eq!(
        messages(&out),
        [Msg::Declined {
            id,
            by: "bob".into(),
            challenger: "alice".into()
        }]
    );
    assert_eq!(out[0].slot, Some(SlotUse::Edit(Slot::Challenge(id))));
    assert!(c
        .store
        .open_challenges_in("test", &c.chat.id)
        .await
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn in_an_ordinary_chat_an_open_challenge_has_no_decline() {
    let c = chat().await;
    let out = c.say("alice", "/challenge classic3x3 5+3").await;
    let Msg::ChallengeOpen { id, .. } = out[0].message else {
        panic!("{out:#?}")
    };
    assert!(!out[0].actions.contains(&Action::Decline { challenge: id }));
    assert_eq!(
        c.refused_press("bob", Action::Decline { challenge: id })
            .await,
        Msg::OnlyTargetDeclines { buttons: false }
    );
}

#[tokio::test]
async fn on_one_message_a_named_stranger_is_not_told_to_send_start_first() {
    let c = one_message_room().await;
    let msg = Incoming::text(
        c.origin("alice"),
        "/challenge @zed classic3x3 5+3",
        vec![Mention::Handle("zed".into())],
    );
    let out = c.table.handle(&msg).await;
    // One line: no "send /start to me first" (nobody can type here).
    let Msg::ChallengeTo { id, ref to, .. } = out[0].message else {
        panic!("{out:#?}")
    };
    assert_eq!(to, "@zed");
    // zed presses Accept: the press says who he is.
    let out = c.press("zed", Action::Accept { challenge: id }).await;
    assert!(
        matches!(&out[0].message, Msg::ChallengeTaken { by, .. } if by == "zed"),
        "{out:#?}"
    );
}
