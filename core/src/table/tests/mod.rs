//! The table through `Table::handle`, on an in-memory database and a fake clock. The tests
//! compare typed replies (`Msg` values, audiences, slots, buttons, board views), never
//! English sentences. This file holds the shared room; each topic has its own file.

use super::*;
use crate::color::Color;
use crate::game::EndCause;
use crate::game::{GameResult, Rules};
use crate::square::Square;
use crate::store::{GameRow, GameStatus, NewChallenge, NewGame};
use crate::words::{Duration, List};

mod bot;
mod buttons;
mod by_buttons;
mod challenges;
mod clocks;
mod endings;
mod fair_play;
mod fuzz;
mod gone;
mod hostile;
mod languages;
mod moves;
mod options;
mod outbox;
mod processes;
mod ratings;
mod restart;
mod tournaments;
mod training;

const T0: i64 = 1_767_225_600_000; // 2026-01-01 00:00 UTC
const MIN: i64 = 60_000;

struct Room {
    table: Table,
    time: FakeTime,
    store: Store,
    next_id: std::sync::atomic::AtomicU64,
    chat: ChatRef,
}

async fn chat() -> Room {
    chat_with(Config::default()).await
}

/// A room on a table with `config`.
async fn chat_with(config: Config) -> Room {
    let store = Store::connect("sqlite::memory:").await.unwrap();
    let time = FakeTime::at(T0);
    let table = Table::open(store.clone(), Arc::new(time.clone()), config)
        .await
        .unwrap();
    Room {
        table,
        time,
        store,
        next_id: std::sync::atomic::AtomicU64::new(1),
        chat: ChatRef::new(Platform::Test, "room", ChatKind::Group),
    }
}

/// A Room whose chat is one message played by buttons (Telegram's inline mode).
async fn one_message_room() -> Room {
    let mut c = chat().await;
    c.chat = ChatRef::new(Platform::Test, "AgAAAexample", ChatKind::OneMessage);
    c
}

/// A group chat of the tests' platform.
fn room(id: &str) -> ChatRef {
    ChatRef::new(Platform::Test, id, ChatKind::Group)
}

fn user(name: &str) -> User {
    User {
        id: format!("id-{}", name.to_lowercase()),
        name: name.to_string(),
        handle: Some(name.to_lowercase()),
    }
}

fn sq(text: &str) -> Square {
    Square::parse(text).unwrap()
}

/// The messages of some replies, in order.
fn messages(out: &[Outgoing]) -> Vec<Msg> {
    out.iter().map(|o| o.message.clone()).collect()
}

/// The first line of a message: a result without the rating changes that follow it.
fn head(m: &Msg) -> &Msg {
    match m {
        Msg::Lines(lines) => &lines[0],
        other => other,
    }
}

/// `Ratings: alice 1015 (+15), bob 985 (−15).`: (name, rating after, change) per player.
fn ratings(changes: &[(&str, i64, i64)]) -> Msg {
    Msg::RatingChanges {
        changes: List(
            changes
                .iter()
                .map(|&(name, after, delta)| Msg::RatingChange {
                    name: name.into(),
                    after,
                    sign: match delta.signum() {
                        1 => "plus",
                        -1 => "minus",
                        _ => "zero",
                    }
                    .into(),
                    delta: delta.abs(),
                })
                .collect(),
        ),
    }
}

/// A result followed by the rating changes it caused.
fn rated(result: Msg, changes: &[(&str, i64, i64)]) -> Msg {
    Msg::Lines(vec![result, ratings(changes)])
}

/// The result of a rated game won by alice (White) between two 1000-rated newcomers.
fn alice_won(result: Msg) -> Msg {
    rated(result, &[("alice", 1015, 15), ("bob", 985, -15)])
}

/// A message's buttons without the square buttons of playing by buttons.
fn without_squares(actions: &[Action]) -> Vec<Action> {
    actions.iter().copied().filter(|a| !a.is_square()).collect()
}

/// The buttons of a running game at `ply` without a draw offer.
fn game_buttons(game: i64, ply: i64) -> Vec<Action> {
    let mut out = vec![
        Action::Resign { game, ply },
        Action::OfferDraw { game, ply },
    ];
    if ply < 2 {
        out.push(Action::Abort { game, ply });
    }
    out
}

impl Room {
    fn origin(&self, who: &str) -> Origin {
        let n = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Origin::message(self.chat.clone(), user(who), format!("m{n}"))
    }

    /// A typed message; every `@word` is a mention the adapter resolved.
    fn incoming(&self, who: &str, text: &str) -> Incoming {
        let mentions = text
            .split_whitespace()
            .filter_map(|w| w.strip_prefix('@'))
            .map(|w| Mention::User(user(w)))
            .collect();
        Incoming::text(self.origin(who), text, mentions)
    }

    /// A button press, with a fresh message id.
    fn pressing(&self, who: &str, action: Action) -> Incoming {
        Incoming {
            origin: self.origin(who),
            input: Input::Action(action),
        }
    }

    async fn say(&self, who: &str, text: &str) -> Vec<Outgoing> {
        self.table.handle(&self.incoming(who, text)).await
    }

    async fn press(&self, who: &str, action: Action) -> Vec<Outgoing> {
        self.table.handle(&self.pressing(who, action)).await
    }

    /// The messages of the replies.
    async fn msgs(&self, who: &str, text: &str) -> Vec<Msg> {
        messages(&self.say(who, text).await)
    }

    /// The one reply to the whole chat, and its message.
    async fn said(&self, who: &str, text: &str) -> Msg {
        let out = self.say(who, text).await;
        assert_eq!(out.len(), 1, "{who}: {text}: {out:#?}");
        assert_eq!(out[0].audience, Audience::Chat, "{who}: {text}");
        out[0].message.clone()
    }

    /// A refusal: exactly one reply, for the sender alone. Its message.
    async fn refused(&self, who: &str, text: &str) -> Msg {
        only_private(&self.say(who, text).await)
    }

    /// A refused button press: exactly one reply, for the presser alone. Its message.
    async fn refused_press(&self, who: &str, action: Action) -> Msg {
        only_private(&self.press(who, action).await)
    }

    async fn reopen(self) -> Room {
        let Room {
            store,
            time,
            chat,
            next_id,
            ..
        } = self;
        let table = Table::open(store.clone(), Arc::new(time.clone()), Config::default())
            .await
            .unwrap();
        Room {
            table,
            time,
            store,
            next_id,
            chat,
        }
    }

    async fn player(&self, name: &str) -> crate::store::Player {
        let u = user(name);
        self.store
            .player_for(
                Platform::Test.as_str(),
                &u.id,
                &u.name,
                u.handle.as_deref(),
                T0,
            )
            .await
            .unwrap()
    }

    /// A game between alice (White) and bob (Black) from a position, as a test shortcut.
    async fn game_from(&self, rules: &str, position: &str, tc: &str) -> i64 {
        let a = self.player("alice").await;
        let b = self.player("bob").await;
        let now = self.time.now_ms();
        let c = self
            .store
            .create_challenge(
                &NewChallenge {
                    platform: Platform::Test.as_str().into(),
                    chat: self.chat.id.clone(),
                    chat_kind: self.chat.kind.as_str().into(),
                    challenger_id: a.id,
                    target_id: Some(b.id),
                    target_handle: None,
                    rules: Rules::from_id(rules).unwrap(),
                    time_control: tc.into(),
                    rated: false,
                    color: crate::color::ColorChoice::White,
                    movetime_ms: None,
                    monitor: false,
                    stake: None,
                    created_at: now,
                    expires_at: now + MIN,
                },
                crate::store::Says::nothing(),
            )
            .await
            .unwrap();
        let bank = match crate::clock::TimeControl::parse(tc).unwrap() {
            crate::clock::TimeControl::Fischer { base_ms, .. } => base_ms,
            _ => 0,
        };
        let g = self
            .store
            .accept_challenge(
                c.id,
                &NewGame {
                    rules: Rules::from_id(rules).unwrap(),
                    start_position: Some(position.into()),
                    white_id: a.id,
                    black_id: b.id,
                    rated: false,
                    stake: None,
                    time_control: tc.into(),
                    bank_ms: bank,
                    movetime_ms: None,
                    monitor: false,
                    now,
                },
                crate::store::Says::nothing(),
            )
            .await
            .unwrap();
        match g {
            crate::store::Accepted::Started(g) => g.id,
            other => panic!("{other:?}"),
        }
    }

    /// A reply's board, drawn as the sender would draw it.
    async fn view(&self, o: &Outgoing) -> crate::view::BoardView {
        let picture = o.picture.as_ref().expect("a picture");
        match self.table.draw_picture(picture, o.lang).await {
            Ok(PictureView::Board(v)) => *v,
            other => panic!("not a board: {other:?}"),
        }
    }

    async fn row(&self, id: i64) -> GameRow {
        self.store.game(id).await.unwrap().unwrap()
    }

    async fn moves(&self, id: i64) -> Vec<String> {
        self.store.moves(id).await.unwrap()
    }

    /// (status, result, rule) as stored.
    async fn status(&self, id: i64) -> (GameStatus, Option<GameResult>, Option<String>) {
        let g = self.row(id).await;
        (g.status, g.result, g.end_rule)
    }

    /// The stored end cause, read back from its code.
    async fn cause(&self, id: i64) -> Option<EndCause> {
        let code = self.row(id).await.end_reason?;
        Some(EndCause::from_code(&code).unwrap_or_else(|| panic!("bad code {code}")))
    }

    /// alice challenges bob with `terms` and bob accepts; alice is White. Returns the game id.
    async fn start(&self, terms: &str) -> i64 {
        let out = self
            .say("alice", &format!("/challenge @bob {terms} white"))
            .await;
        assert!(
            matches!(out.as_slice(), [o] if matches!(o.message, Msg::ChallengeTo { .. })),
            "{out:#?}"
        );
        let out = self.say("bob", "/accept").await;
        assert_eq!(out.len(), 2, "{out:#?}");
        assert!(
            matches!(out[0].message, Msg::ChallengeTaken { .. }),
            "{out:#?}"
        );
        assert!(
            matches!(&out[1].message, Msg::GameStarted { white, black, .. } if white == "alice" && black == "bob"),
            "{out:#?}"
        );
        assert!(out[1].board().is_some());
        out[1].game.expect("the board names its game")
    }
}

fn only_private(out: &[Outgoing]) -> Msg {
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(out[0].audience, Audience::Sender, "{out:#?}");
    assert!(out[0].actions.is_empty() && out[0].board().is_none());
    out[0].message.clone()
}
