//! The harness of the Telegram tests: a bot started on the fake Bot API with flood limits
//! scaled down, a group with Alice and Bob in it, waits for the bot's messages there, and
//! games started and played on through the bot.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use ugolki_bots::telegram::{run, Limits, Options};
use ugolki_core::game::Game;
use ugolki_core::words::{english, Msg};
pub use ugolki_tests::e2e::{data_of, decodes, has_button, says, Rng, RunningBot, WAIT};
use ugolki_tests::e2e::{safe_moves, sqlite_url};
use ugolki_tests::fake_telegram::{FakeChat, FakeTelegram, FakeUser, SentMessage};
use ugolki_tests::said::{challenges, played, played_infix, players};

/// Flood limits scaled down, so that games in tests take seconds.
pub fn quick() -> Limits {
    Limits {
        per_chat: Duration::from_millis(5),
        per_group: 10_000,
        group_window: Duration::from_secs(60),
        per_second: 10_000,
    }
}

/// A new database for the test `name`.
pub fn temp_db(name: &str) -> PathBuf {
    ugolki_tests::e2e::temp_db("tg", name)
}

/// The bot's options on the fake, polling, with `db` and `limits`.
pub fn polling(fake: &FakeTelegram, db: &Path, limits: Limits) -> Options {
    Options {
        token: FakeTelegram::TOKEN.into(),
        api_url: Some(fake.api_url()),
        database_url: sqlite_url(db),
        webhook: None,
        webhook_secret: None,
        metrics: None,
        limits,
        inline_chats: Vec::new(),
        web: None,
    }
}

/// Starting the Telegram bot: stop it to restart on the same database.
pub trait StartTelegram {
    /// On the fake, polling, with `db` and `limits`.
    fn start(fake: &FakeTelegram, db: &Path, limits: Limits) -> Self;
    /// With these options.
    fn start_with(options: Options) -> Self;
}

impl StartTelegram for RunningBot {
    fn start(fake: &FakeTelegram, db: &Path, limits: Limits) -> RunningBot {
        RunningBot::start_with(polling(fake, db, limits))
    }

    fn start_with(options: Options) -> RunningBot {
        RunningBot::spawn(|stopped| run(options, stopped))
    }
}

/// A group on the fake with Alice and Bob in it (or one topic of a forum group).
pub struct Group {
    /// Shared by the groups of one test ([`Group::another`]).
    pub fake: Arc<FakeTelegram>,
    pub chat: FakeChat,
    /// The forum topic the players write in, if the chat is a forum's.
    pub topic: Option<i64>,
    pub alice: FakeUser,
    pub bob: FakeUser,
}

impl Group {
    pub async fn new() -> Group {
        let fake = FakeTelegram::start().await;
        let chat = FakeTelegram::group(-1001, "Board games");
        fake.add_chat(&chat);
        Group {
            fake: Arc::new(fake),
            chat,
            topic: None,
            alice: FakeTelegram::user(11, "Alice", Some("alice"), Some("en")),
            bob: FakeTelegram::user(12, "Bob", Some("bob"), Some("en")),
        }
    }

    /// Another group `id` on the same fake, with Carol (13) and Dave (14) in it in the
    /// places of Alice and Bob.
    pub fn another(&self, id: i64, title: &str) -> Group {
        let chat = FakeTelegram::group(id, title);
        self.fake.add_chat(&chat);
        Group {
            fake: self.fake.clone(),
            chat,
            topic: None,
            alice: FakeTelegram::user(13, "Carol", Some("carol"), Some("en")),
            bob: FakeTelegram::user(14, "Dave", Some("dave"), Some("en")),
        }
    }

    /// A forum group `id` on a new fake, and two topics in it: the first with Alice and
    /// Bob, the second with Carol (13) and Dave (14).
    pub async fn forum(id: i64) -> (Group, Group) {
        let fake = Arc::new(FakeTelegram::start().await);
        let chat = FakeTelegram::forum(id, "Board games forum");
        fake.add_chat(&chat);
        let alice = FakeTelegram::user(11, "Alice", Some("alice"), Some("en"));
        let first = fake.create_topic(&chat, &alice, "Corners");
        let second = fake.create_topic(&chat, &alice, "Damas");
        let one = Group {
            fake: fake.clone(),
            chat: chat.clone(),
            topic: Some(first),
            alice,
            bob: FakeTelegram::user(12, "Bob", Some("bob"), Some("en")),
        };
        let two = Group {
            fake,
            chat,
            topic: Some(second),
            alice: FakeTelegram::user(13, "Carol", Some("carol"), Some("en")),
            bob: FakeTelegram::user(14, "Dave", Some("dave"), Some("en")),
        };
        (one, two)
    }

    /// Alice's private chat with the bot, on this group's fake.
    pub fn alices_private_chat(&self) -> Group {
        let p = Group {
            fake: self.fake.clone(),
            chat: FakeTelegram::private(&self.alice),
            topic: None,
            alice: self.alice.clone(),
            bob: self.bob.clone(),
        };
        p.fake.add_chat(&p.chat);
        p
    }

    /// The bot's messages here (in the group's topic, if it is one).
    pub fn messages(&self) -> Vec<SentMessage> {
        self.messages_of(&self.fake)
    }

    /// The bot's messages here, as `fake` has them (inside a wait on it).
    pub fn messages_of(&self, fake: &FakeTelegram) -> Vec<SentMessage> {
        let mut all = fake.messages(self.chat.id);
        all.retain(|m| m.topic == self.topic);
        all
    }

    /// What the bot's messages here showed, in order (a board edited in place once per
    /// change): see [`FakeTelegram::shown`].
    pub fn shown(&self) -> Vec<SentMessage> {
        self.shown_of(&self.fake)
    }

    /// [`Group::shown`] as `fake` has it (inside a wait on it).
    pub fn shown_of(&self, fake: &FakeTelegram) -> Vec<SentMessage> {
        let mut all = fake.shown(self.chat.id);
        all.retain(|m| m.topic == self.topic);
        all
    }

    /// `who` writes `text` here.
    pub fn send_text(&self, who: &FakeUser, text: &str) -> i64 {
        match self.topic {
            Some(t) => self.fake.send_text_in_topic(&self.chat, t, who, text),
            None => self.fake.send_text(&self.chat, who, text),
        }
    }

    /// `who` replies `text` to message `to` here.
    pub fn reply_text(&self, who: &FakeUser, text: &str, to: i64) -> i64 {
        match self.topic {
            Some(t) => self.fake.reply_text_in_topic(&self.chat, t, who, text, to),
            None => self.fake.reply_text(&self.chat, who, text, to),
        }
    }

    /// Wait until a bot message in the group satisfies `f`; that message.
    pub async fn expect(&self, what: &str, f: impl Fn(&SentMessage) -> bool) -> SentMessage {
        let ok = self
            .fake
            .wait_until(WAIT, |fake| self.messages_of(fake).iter().any(&f))
            .await;
        assert!(ok, "no message {what}: {:#?}", self.messages());
        self.messages()
            .into_iter()
            .rev()
            .find(|m| f(m))
            .expect("found")
    }

    /// A message whose text or caption contains `part`.
    pub async fn expect_text(&self, part: &str) -> SentMessage {
        self.expect(part, |m| says(m, part)).await
    }

    /// Wait until a bot message here has shown `part`, even if a later edit of the same
    /// message (the next board, edited in place) has replaced it since.
    pub async fn expect_shown(&self, part: &str) {
        let ok = self
            .fake
            .wait_until(WAIT, |fake| {
                self.shown_of(fake).iter().any(|m| says(m, part))
            })
            .await;
        assert!(ok, "nothing showed {part}: {:#?}", self.shown());
    }

    pub fn who(&self, white_to_move: bool) -> &FakeUser {
        if white_to_move {
            &self.alice
        } else {
            &self.bob
        }
    }

    /// The newest board message (a photo).
    pub fn board(&self) -> SentMessage {
        self.messages()
            .into_iter()
            .rev()
            .find(|m| m.photo.is_some())
            .expect("a board")
    }

    /// Press the button `label` on message `m`.
    pub fn press(&self, who: &FakeUser, m: &SentMessage, label: &str) -> String {
        self.fake.press(&self.chat, who, m.id, &data_of(m, label))
    }

    /// Resign game `game` by `m`'s Resign button, as a player does: the first press is
    /// answered with the question in an alert, and the second, a moment later, resigns.
    pub async fn resign(&self, who: &FakeUser, m: &SentMessage, game: i64) {
        let label = english(&Msg::BtnResign);
        let query = self.press(who, m, &label);
        let ask = english(&Msg::ResignAsk {
            id: game,
            seconds: ugolki_core::table::RESIGN_WINDOW_MS / 1000,
        });
        let ok = self
            .fake
            .wait_until(WAIT, |f| {
                f.callback_answers().iter().any(|a| {
                    a.id == query && a.show_alert && a.text.as_deref() == Some(ask.as_str())
                })
            })
            .await;
        assert!(ok, "not asked: {:?}", self.fake.callback_answers());
        let second = ugolki_core::table::RESIGN_SECOND_MS.unsigned_abs() + 100;
        tokio::time::sleep(Duration::from_millis(second)).await;
        self.press(who, m, &label);
    }
}

/// Challenge with `terms` (the group's first player challenges the second, by their
/// @name), accepted by a button press; returns the board message.
pub async fn start_game(g: &Group, terms: &str) -> SentMessage {
    let (a, b) = (g.alice.first_name.as_str(), g.bob.first_name.as_str());
    let handle = g.bob.username.clone().expect("a username");
    g.send_text(
        &g.alice,
        &format!(
            "/challenge@{} @{handle} {terms} white",
            FakeTelegram::BOT_USERNAME
        ),
    );
    // The second player is @name until the bot has seen them.
    let to_bob = [challenges(a, &format!("@{handle}")), challenges(a, b)];
    let challenge = g
        .expect("a challenge with buttons", |m| {
            to_bob.iter().any(|c| says(m, c)) && !m.buttons.is_empty()
        })
        .await;
    g.press(&g.bob, &challenge, &english(&Msg::BtnAccept));
    let board = g.expect_text(&players(a, b)).await;
    // The challenge message lost its buttons once accepted.
    let ok = g
        .fake
        .wait_until(WAIT, |f| {
            g.messages_of(f)
                .iter()
                .any(|m| m.id == challenge.id && m.buttons.is_empty())
        })
        .await;
    assert!(ok, "the challenge keeps its buttons: {:#?}", g.messages());
    board
}

/// Play `game` on through the bot: moves alternate between `/m` and replies to the board.
/// Stops at the end of the game or after `max_plies`; returns the moves played.
pub async fn play_random(
    g: &Group,
    game: &mut Game,
    rng: &mut Rng,
    max_plies: usize,
) -> Vec<String> {
    play_random_by(g, game, rng, max_plies, "/m").await
}

/// As [`play_random`], the commands typed as `command` (`/m@ugolki_bot` for a group where
/// bare commands do not reach the bot).
pub async fn play_random_by(
    g: &Group,
    game: &mut Game,
    rng: &mut Rng,
    max_plies: usize,
    command: &str,
) -> Vec<String> {
    let mut played_moves = Vec::new();
    let a_move = played_infix();
    // Counted in what was shown: a board edited in place answers as a new one would.
    let answered = g.shown().iter().filter(|m| says(m, &a_move)).count();
    for ply in 0..max_plies {
        if game.ending().is_some() {
            break;
        }
        // Moves that lose at once (C6) ask for a confirmation first: not chosen here.
        let moves = safe_moves(game);
        if moves.is_empty() {
            break;
        }
        let mv = rng.pick(&moves).clone();
        let who = g.who(game.turn() == ugolki_core::Color::White);
        if ply % 2 == 0 {
            g.send_text(who, &format!("{command} {mv}"));
        } else {
            let board = g.board();
            g.reply_text(who, &mv, board.id);
        }
        let name = who.first_name.as_str();
        // The same move may have been played before: count the answers, not find one.
        let before = answered + ply;
        let ok = g
            .fake
            .wait_until(WAIT, |f| {
                g.shown_of(f).iter().filter(|m| says(m, &a_move)).count() > before
            })
            .await;
        assert!(ok, "no answer to {name}'s {mv}");
        let last = g
            .shown()
            .into_iter()
            .filter(|m| says(m, &a_move))
            .nth(before)
            .expect("answer");
        assert!(says(&last, &played(name, &mv)), "{last:#?}");
        game.play_text(&mv).expect("legal");
        played_moves.push(mv);
    }
    played_moves
}

/// An untimed classic game with Alice's first move (c3-d3) played: its first board, whose
/// buttons are out of date now.
pub async fn first_move_played(g: &Group) -> SentMessage {
    let first = start_game(g, "classic3x3 none").await;
    g.fake.send_text(&g.chat, &g.alice, "/m c3-d3");
    g.expect_text(&played("Alice", "c3-d3")).await;
    first
}

/// Wait until a bot message in `chat` says `part`.
pub async fn expect_in(fake: &FakeTelegram, chat: &FakeChat, part: &str) {
    let ok = fake
        .wait_until(WAIT, |f| f.messages(chat.id).iter().any(|m| says(m, part)))
        .await;
    assert!(
        ok,
        "no {part:?} in chat {}: {:#?}",
        chat.id,
        fake.messages(chat.id)
    );
}

/// The number of the game a board's buttons act on.
pub fn game_of(board: &SentMessage) -> i64 {
    board
        .buttons
        .iter()
        .flatten()
        .find_map(|(_, data)| ugolki_core::table::Action::parse(data)?.game())
        .map(|(game, _)| game)
        .expect("the game's buttons")
}
