//! The Telegram adapter end to end, in-process, against the fake Bot API on 127.0.0.1:
//! games in a group by `/m`, replies and buttons, boards as photos, stale buttons, flags,
//! flaky APIs, restarts, and a fast game under the real flood limits. Every wait is bounded.

use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use ugolki_bots::telegram::{run, Limits, Options, MAX_EXTRA_PICTURES};
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_tests::fake_telegram::{
    CallbackAnswer, Failure, FakeChat, FakeTelegram, FakeUser, InlineAnswer, SentMessage,
};

const WAIT: Duration = Duration::from_secs(30);

/// Flood limits scaled down, so that games in tests take seconds.
fn quick() -> Limits {
    Limits {
        per_chat: Duration::from_millis(5),
        per_group: 10_000,
        group_window: Duration::from_secs(60),
        per_second: 10_000,
    }
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ugolki-tg-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("bot.db")
}

/// A running bot: stop it to restart on the same database.
struct RunningBot {
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<Result<(), String>>,
}

impl RunningBot {
    fn start(fake: &FakeTelegram, db: &std::path::Path, limits: Limits) -> RunningBot {
        RunningBot::start_with(Options {
            token: FakeTelegram::TOKEN.into(),
            api_url: Some(fake.api_url()),
            database_url: format!("sqlite://{}", db.display()),
            webhook: None,
            webhook_secret: None,
            metrics: None,
            limits,
            inline_chats: Vec::new(),
        })
    }

    fn start_with(options: Options) -> RunningBot {
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(run(options, async move {
            let _ = stopped.await;
        }));
        RunningBot {
            stop: Some(stop),
            task,
        }
    }

    async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let done = tokio::time::timeout(WAIT, &mut self.task).await;
        assert!(
            matches!(done, Ok(Ok(Ok(())))),
            "the bot stops cleanly: {done:?}"
        );
    }
}

struct Group {
    fake: FakeTelegram,
    chat: FakeChat,
    alice: FakeUser,
    bob: FakeUser,
}

impl Group {
    async fn new() -> Group {
        let fake = FakeTelegram::start().await;
        let chat = FakeTelegram::group(-1001, "Board games");
        fake.add_chat(&chat);
        Group {
            fake,
            chat,
            alice: FakeTelegram::user(11, "Alice", Some("alice"), Some("en")),
            bob: FakeTelegram::user(12, "Bob", Some("bob"), Some("en")),
        }
    }

    fn messages(&self) -> Vec<SentMessage> {
        self.fake.messages(self.chat.id)
    }

    /// Wait until a bot message in the group satisfies `f`; that message.
    async fn expect(&self, what: &str, f: impl Fn(&SentMessage) -> bool) -> SentMessage {
        let ok = self
            .fake
            .wait_until(WAIT, |fake| fake.messages(self.chat.id).iter().any(&f))
            .await;
        assert!(ok, "no message {what}: {:#?}", self.messages());
        self.messages()
            .into_iter()
            .rev()
            .find(|m| f(m))
            .expect("found")
    }

    /// A message whose text or caption contains `part`.
    async fn expect_text(&self, part: &str) -> SentMessage {
        self.expect(part, |m| says(m, part)).await
    }

    fn who(&self, white_to_move: bool) -> &FakeUser {
        if white_to_move {
            &self.alice
        } else {
            &self.bob
        }
    }

    /// The newest board message (a photo).
    fn board(&self) -> SentMessage {
        self.messages()
            .into_iter()
            .rev()
            .find(|m| m.photo.is_some())
            .expect("a board")
    }

    /// Press the button `label` on message `m`.
    fn press(&self, who: &FakeUser, m: &SentMessage, label: &str) -> String {
        self.fake.press(&self.chat, who, m.id, &data_of(m, label))
    }
}

fn says(m: &SentMessage, part: &str) -> bool {
    m.text.as_deref().is_some_and(|t| t.contains(part))
        || m.caption.as_deref().is_some_and(|t| t.contains(part))
}

fn decodes(png: &[u8]) -> bool {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let Ok(mut reader) = decoder.read_info() else {
        return false;
    };
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    reader.next_frame(&mut buf).is_ok()
}

/// A small deterministic generator for the test's random games.
struct Rng(u64);

impl Rng {
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        &items[(self.0 % items.len() as u64) as usize]
    }
}

/// Challenge with `terms`, accepted by bob's button press; returns the board message.
async fn start_game(g: &Group, terms: &str) -> SentMessage {
    g.fake.send_text(
        &g.chat,
        &g.alice,
        &format!(
            "/challenge@{} @bob {terms} white",
            FakeTelegram::BOT_USERNAME
        ),
    );
    let challenge = g
        .expect("a challenge with buttons", |m| {
            says(m, "challenges") && !m.buttons.is_empty()
        })
        .await;
    g.press(&g.bob, &challenge, "Accept");
    let board = g.expect_text("(White) vs").await;
    // The challenge message lost its buttons once accepted.
    let ok = g
        .fake
        .wait_until(WAIT, |f| {
            f.messages(g.chat.id)
                .iter()
                .any(|m| m.id == challenge.id && m.buttons.is_empty())
        })
        .await;
    assert!(ok, "the challenge keeps its buttons: {:#?}", g.messages());
    board
}

/// Play `game` on through the bot: moves alternate between `/m` and replies to the board.
/// Stops at the end of the game or after `max_plies`; returns the moves played.
async fn play_random(g: &Group, game: &mut Game, rng: &mut Rng, max_plies: usize) -> Vec<String> {
    let mut played = Vec::new();
    let answered = g.messages().iter().filter(|m| says(m, " played ")).count();
    for ply in 0..max_plies {
        if game.ending().is_some() {
            break;
        }
        // Moves that lose at once (C6) ask for a confirmation first: not chosen here.
        let moves: Vec<String> = game
            .legal_move_texts()
            .into_iter()
            .filter(|m| game.check_text(m).is_ok_and(|(_, loses)| !loses))
            .collect();
        if moves.is_empty() {
            break;
        }
        let mv = rng.pick(&moves).clone();
        let who = g.who(game.turn() == ugolki_core::Color::White);
        if ply % 2 == 0 {
            g.fake.send_text(&g.chat, who, &format!("/m {mv}"));
        } else {
            let board = g.board();
            g.fake.reply_text(&g.chat, who, &mv, board.id);
        }
        let name = if who.id == g.alice.id { "Alice" } else { "Bob" };
        // The same move may have been played before: count the answers, not find one.
        let before = answered + ply;
        let ok = g
            .fake
            .wait_until(WAIT, |f| {
                f.messages(g.chat.id)
                    .iter()
                    .filter(|m| says(m, " played "))
                    .count()
                    > before
            })
            .await;
        assert!(ok, "no answer to {name}'s {mv}");
        let last = g
            .messages()
            .into_iter()
            .filter(|m| says(m, " played "))
            .nth(before)
            .expect("answer");
        assert!(says(&last, &format!("{name} played {mv}.")), "{last:#?}");
        game.play_text(&mv).expect("legal");
        played.push(mv);
    }
    played
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_play_corners_and_damas_in_a_group_by_commands_replies_and_buttons() {
    let g = Group::new().await;
    let db = temp_db("games");
    let bot = RunningBot::start(&g.fake, &db, quick());
    // The menu is registered at start.
    let ok = g
        .fake
        .wait_until(WAIT, |f| {
            f.commands()
                .iter()
                .any(|(_, list)| list.iter().any(|(c, _)| c == "challenge"))
        })
        .await;
    assert!(ok, "setMyCommands: {:?}", g.fake.commands());
    // And in each language the bot speaks, for clients set to it (one call per language,
    // made one after another: wait for the last).
    g.fake.wait_until(WAIT, |f| f.commands().len() >= 4).await;
    let langs: Vec<Option<String>> = g.fake.commands().into_iter().map(|(l, _)| l).collect();
    for code in ["ru", "pt", "it"] {
        assert!(langs.contains(&Some(code.to_string())), "{langs:?}");
    }

    // Corners, to the end of the game by its rules (random play ends by C6 or C7).
    start_game(&g, "classic3x3 none").await;
    // An illegal move gets its reason, as a reply to the one who typed it.
    g.fake.send_text(&g.chat, &g.alice, "/m a1-a2");
    let refused = g.expect_text("a1-a2: a2 is occupied").await;
    assert!(refused.reply_to.is_some(), "{refused:#?}");
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0x5eed);
    play_random(&g, &mut game, &mut rng, 200).await;
    assert!(game.ending().is_some(), "the game ended by its rules");
    g.expect_text("Game #1 over:").await;

    // Damas: a draw offered by button and declined by button, then a resignation by button.
    start_game(&g, "damas none").await;
    let mut game = Game::new(&Rules::Damas { flying: true });
    play_random(&g, &mut game, &mut rng, 6).await;
    let board = g.board();
    g.press(&g.alice, &board, "Offer draw");
    let offer = g
        .expect("a draw offer with buttons", |m| {
            says(m, "offers a draw") && !m.buttons.is_empty()
        })
        .await;
    g.press(&g.bob, &offer, "Decline draw");
    let declined = g
        .expect("the decline", |m| says(m, "Bob declined the draw"))
        .await;
    g.press(&g.bob, &declined, "Resign");
    g.expect_text("Game #2: Bob resigned — Alice wins (T2).")
        .await;

    // Every board arrived as a PNG that decodes; only the newest board has buttons.
    let boards: Vec<SentMessage> = g
        .messages()
        .into_iter()
        .filter(|m| m.photo.is_some())
        .collect();
    assert!(boards.len() > 20, "{} boards", boards.len());
    for b in &boards {
        assert!(
            decodes(b.photo.as_deref().unwrap_or_default()),
            "board {} decodes",
            b.id
        );
    }
    bot.stop().await;
}

/// An untimed classic game with Alice's first move (c3-d3) played: its first board, whose
/// buttons are out of date now.
async fn first_move_played(g: &Group) -> SentMessage {
    let first = start_game(g, "classic3x3 none").await;
    g.fake.send_text(&g.chat, &g.alice, "/m c3-d3");
    g.expect_text("Alice played c3-d3.").await;
    first
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_button_gets_an_alert_and_changes_nothing() {
    let g = Group::new().await;
    let db = temp_db("stale");
    let bot = RunningBot::start(&g.fake, &db, quick());
    let first = first_move_played(&g).await;
    // The first board's Resign button is out of date now.
    let query = g.press(&g.bob, &first, "Resign");
    let ok = g
        .fake
        .wait_until(WAIT, |f| f.callback_answers().iter().any(|a| a.id == query))
        .await;
    assert!(ok, "the press is answered");
    let answer = g
        .fake
        .callback_answers()
        .into_iter()
        .find(|a| a.id == query)
        .expect("answer");
    assert!(answer.show_alert, "{answer:?}");
    assert!(
        answer
            .text
            .as_deref()
            .is_some_and(|t| t.contains("out of date")),
        "{answer:?}"
    );
    // The game goes on: bob can still move.
    g.fake.send_text(&g.chat, &g.bob, "/m f6-e6");
    g.expect_text("Bob played f6-e6.").await;
    // A press by someone who does not play is refused the same way, privately.
    let board = g.board();
    let carol = FakeTelegram::user(13, "Carol", Some("carol"), None);
    let query = g.press(&carol, &board, "Resign");
    let ok = g
        .fake
        .wait_until(WAIT, |f| {
            f.callback_answers().iter().any(|a| {
                a.id == query && a.text.as_deref().is_some_and(|t| t.contains("not for you"))
            })
        })
        .await;
    assert!(ok, "{:?}", g.fake.callback_answers());
    bot.stop().await;
}

/// Telegram refuses an answer to a press that came too late ("query is too old"): it is
/// tried at most twice, and the updates behind it are not held up (they used to wait out
/// 45 s of retries per press).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_press_too_old_to_answer_holds_up_nothing() {
    let g = Group::new().await;
    let db = temp_db("too-old");
    let bot = RunningBot::start(&g.fake, &db, quick());
    let first = first_move_played(&g).await;
    g.fake
        .fail_next(100, &["answercallbackquery"], Failure::QueryTooOld);
    let started = Instant::now();
    for _ in 0..3 {
        g.press(&g.bob, &first, "Resign");
    }
    g.fake.send_text(&g.chat, &g.bob, "/m f6-e6");
    g.expect_text("Bob played f6-e6.").await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the move waited {:?} behind the presses",
        started.elapsed()
    );
    let tries = g
        .fake
        .calls()
        .iter()
        .filter(|c| c.method == "answercallbackquery")
        .count();
    assert!(
        (3..=6).contains(&tries),
        "{tries} answers tried for 3 presses"
    );
    bot.stop().await;
}

/// Wait until a bot message in `chat` says `part`.
async fn expect_in(fake: &FakeTelegram, chat: &FakeChat, part: &str) {
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

/// A group upgraded to a supergroup gets a new chat id: its game goes on there, whether
/// the bot reads the upgrade's service message or learns it from a call that failed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_upgraded_to_a_supergroup_keeps_its_game() {
    let g = Group::new().await;
    let db = temp_db("migrate");
    let bot = RunningBot::start(&g.fake, &db, quick());
    start_game(&g, "classic3x3 none").await;
    g.fake.send_text(&g.chat, &g.alice, "/m c3-d3");
    g.expect_text("Alice played c3-d3.").await;
    // Announced: the game is in the new chat, and a move typed there plays.
    let first = FakeTelegram::group(-1_001_001, "Board games");
    g.fake.migrate(&g.chat, &first, &g.alice, true);
    g.fake.send_text(&first, &g.bob, "/m f6-e6");
    expect_in(&g.fake, &first, "Bob played f6-e6.").await;
    // Not announced: a move sent in the old chat just before the upgrade is answered in
    // the new one (the answer to the old one failed, naming it), and the game lives there.
    let second = FakeTelegram::group(-1_001_002, "Board games");
    g.fake.migrate(&first, &second, &g.alice, false);
    g.fake.send_text(&first, &g.alice, "/m c2-d2");
    expect_in(&g.fake, &second, "Alice played c2-d2.").await;
    g.fake.send_text(&second, &g.bob, "/m f7-f6");
    expect_in(&g.fake, &second, "Bob played f7-f6.").await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_with_nobody_typing() {
    let g = Group::new().await;
    let db = temp_db("flag");
    let bot = RunningBot::start(&g.fake, &db, quick());
    start_game(&g, "classic3x3 3s+0").await;
    g.fake.send_text(&g.chat, &g.alice, "/m c3-d3");
    g.expect_text("Alice played c3-d3.").await;
    g.fake.send_text(&g.chat, &g.bob, "/m f6-e6");
    g.expect_text("Bob played f6-e6.").await;
    // Alice thinks too long; nobody types.
    g.expect_text("Game #1: Alice ran out of time — Bob wins (T1).")
        .await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replies_arrive_once_and_in_order_through_429s_and_500s() {
    let g = Group::new().await;
    let db = temp_db("flaky");
    let bot = RunningBot::start(&g.fake, &db, quick());
    start_game(&g, "classic3x3 none").await;
    let sends = [
        "sendphoto",
        "sendmessage",
        "editmessagecaption",
        "editmessagetext",
        "editmessagereplymarkup",
    ];
    g.fake
        .fail_next(3, &sends, Failure::TooManyRequests { retry_after: 1 });
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(7);
    let mut played = play_random(&g, &mut game, &mut rng, 4).await;
    // One server error (teloxide's client sleeps 10 s after it, then we retry).
    g.fake.fail_next(1, &["sendphoto"], Failure::ServerError);
    played.extend(play_random(&g, &mut game, &mut rng, 2).await);
    // "message is not modified" on an edit is taken as done.
    g.fake.fail_next(
        2,
        &[
            "editmessagereplymarkup",
            "editmessagecaption",
            "editmessagetext",
        ],
        Failure::NotModified,
    );
    played.extend(play_random(&g, &mut game, &mut rng, 2).await);
    let calls = g.fake.calls();
    assert!(
        calls.iter().filter(|c| c.failed).count() >= 4,
        "failures were injected"
    );
    // Every move's board once, in the order played.
    let captions: Vec<String> = g
        .messages()
        .into_iter()
        .filter_map(|m| m.caption)
        .filter(|c| c.contains(" played "))
        .collect();
    let expected: Vec<String> = played
        .iter()
        .enumerate()
        .map(|(i, mv)| format!("{} played {mv}.", if i % 2 == 0 { "Alice" } else { "Bob" }))
        .collect();
    assert_eq!(captions.len(), expected.len(), "{captions:#?}");
    for (c, e) in captions.iter().zip(&expected) {
        assert!(c.starts_with(e.as_str()), "{c} / {e}");
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_mid_game_loses_and_repeats_nothing() {
    let g = Group::new().await;
    let db = temp_db("restart");
    let bot = RunningBot::start(&g.fake, &db, quick());
    start_game(&g, "classic3x3 none").await;
    g.fake.send_text(&g.chat, &g.alice, "/m c3-d3");
    g.expect_text("Alice played c3-d3.").await;
    bot.stop().await;
    // Bob moves while the bot is down.
    g.fake.send_text(&g.chat, &g.bob, "/m f6-e6");
    let before = g.messages().len();
    let bot = RunningBot::start(&g.fake, &db, quick());
    g.expect_text("Bob played f6-e6.").await;
    g.fake.send_text(&g.chat, &g.alice, "/m d3-d4");
    g.expect_text("Alice played d3-d4.").await;
    // Nothing was answered twice: one board per move since the restart.
    let after: Vec<SentMessage> = g.messages().into_iter().skip(before).collect();
    let played = after.iter().filter(|m| says(m, " played ")).count();
    assert_eq!(played, 2, "{after:#?}");
    assert_eq!(
        g.messages()
            .iter()
            .filter(|m| says(m, "Alice played c3-d3."))
            .count(),
        1
    );
    assert_eq!(g.fake.pending_updates(), 0, "every update confirmed");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mentions_unknown_users_and_help() {
    let g = Group::new().await;
    let db = temp_db("mentions");
    let bot = RunningBot::start(&g.fake, &db, quick());
    // A text mention (a user without a username) resolves to that user.
    let dana = FakeTelegram::user(14, "Dana", None, None);
    g.fake
        .send_text_with_mention(&g.chat, &g.alice, "/challenge Dana classic3x3 none", &dana);
    g.expect_text("Alice challenges Dana").await;
    // An @name the bot has never seen: asked to /start the bot first.
    g.fake.send_text(&g.chat, &g.alice, "/challenge @zed");
    g.expect_text("send /start to me first").await;
    g.fake.send_text(&g.chat, &g.bob, "/help");
    g.expect_text("/challenge @user").await;
    bot.stop().await;
}

/// Forty moves in a minute in one group, under Telegram's real limits (twenty messages a
/// minute in a group): boards overtaken by later moves are dropped, so the game never
/// falls behind by more than the limit requires.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forty_moves_in_a_minute_in_a_group_never_stall() {
    let g = Group::new().await;
    let db = temp_db("fast");
    let bot = RunningBot::start(&g.fake, &db, Limits::default());
    start_game(&g, "classic3x3 none").await;
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(42);
    let started = Instant::now();
    let mut last = String::new();
    for i in 0..40 {
        let moves: Vec<String> = game
            .legal_move_texts()
            .into_iter()
            .filter(|m| {
                let mut g2 = game.clone();
                g2.play_text(m).is_ok() && g2.ending().is_none()
            })
            .collect();
        let mv = rng.pick(&moves).clone();
        let who = g.who(game.turn() == ugolki_core::Color::White);
        g.fake.send_text(&g.chat, who, &format!("/m {mv}"));
        game.play_text(&mv).expect("legal");
        last = format!(
            "{} played {mv}.",
            if who.id == g.alice.id { "Alice" } else { "Bob" }
        );
        // 40 moves in 60 s.
        let next = started + Duration::from_millis(1500 * (i + 1));
        tokio::time::sleep_until(next.into()).await;
    }
    let last_sent = Instant::now();
    let ok = g
        .fake
        .wait_until(WAIT, |f| {
            f.messages(g.chat.id).iter().any(|m| says(m, &last))
        })
        .await;
    if !ok {
        let calls: Vec<String> = g
            .fake
            .calls()
            .iter()
            .map(|c| {
                format!(
                    "{:?} {} {} {:?}",
                    c.time.duration_since(started),
                    c.method,
                    c.failed,
                    c.error
                )
            })
            .collect();
        panic!(
            "last board missing; calls:\n{}\nmessages: {:#?}",
            calls.join("\n"),
            g.messages()
                .iter()
                .map(|m| (m.id, m.caption.clone(), m.text.clone()))
                .collect::<Vec<_>>()
        );
    }
    let board = g.expect_text(&last).await;
    let behind = board.sent_at.saturating_duration_since(last_sent);
    let boards = g.messages().iter().filter(|m| m.photo.is_some()).count();
    eprintln!("40 moves in 60 s: {boards} boards sent, the last {behind:?} after the last move");
    // The limit allows a message every 3 s on average; the last board is never a queue
    // of old boards behind.
    assert!(
        behind < Duration::from_secs(8),
        "the last board came {behind:?} late"
    );
    // And the limits were kept: at most 20 calls in any minute, a second apart.
    let calls: Vec<Instant> = g
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.method.starts_with("send") || c.method.starts_with("edit"))
        .map(|c| c.time)
        .collect();
    for (i, t) in calls.iter().enumerate() {
        let in_minute = calls[i..]
            .iter()
            .take_while(|u| u.duration_since(*t) < Duration::from_secs(60))
            .count();
        assert!(in_minute <= 20, "{in_minute} calls in a minute");
    }
    bot.stop().await;
}

/// POST `body` to `addr` at `path` over plain HTTP/1.1; the status code.
async fn post(addr: std::net::SocketAddr, path: &str, secret: Option<&str>, body: &str) -> u16 {
    let mut headers = vec!["Content-Type: application/json".to_string()];
    if let Some(s) = secret {
        headers.push(format!("X-Telegram-Bot-Api-Secret-Token: {s}"));
    }
    ugolki_tests::http(addr, "POST", path, &headers, body, WAIT)
        .await
        .0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_mode_takes_updates_posted_with_the_secret_only() {
    let g = Group::new().await;
    let db = temp_db("webhook");
    // A free loopback port for the bot's listener.
    let listen = ugolki_tests::free_addr();
    let url = format!("http://{listen}/tg-hook");
    let (stop, stopped) = oneshot::channel::<()>();
    let options = Options {
        token: FakeTelegram::TOKEN.into(),
        api_url: Some(g.fake.api_url()),
        database_url: format!("sqlite://{}", db.display()),
        webhook: Some((url::Url::parse(&url).expect("url"), listen)),
        webhook_secret: None,
        metrics: None,
        limits: quick(),
        inline_chats: Vec::new(),
    };
    let task = tokio::spawn(run(options, async move {
        let _ = stopped.await;
    }));
    let ok = g
        .fake
        .wait_until(WAIT, |f| f.webhook().as_deref() == Some(url.as_str()))
        .await;
    assert!(ok, "setWebhook was called with {url}");
    let secret = g
        .fake
        .calls()
        .into_iter()
        .find(|c| c.method == "setwebhook")
        .and_then(|c| c.params["secret_token"].as_str().map(str::to_string))
        .expect("a secret token");
    let update = r#"{"update_id": 1, "message": {"message_id": 1, "date": 0,
        "chat": {"id": -1001, "type": "group", "title": "Board games"},
        "from": {"id": 11, "is_bot": false, "first_name": "Alice", "username": "alice"},
        "text": "/help", "entities": [{"type": "bot_command", "offset": 0, "length": 5}]}}"#;
    assert_eq!(
        post(listen, "/tg-hook", None, update).await,
        401,
        "no secret"
    );
    assert_eq!(post(listen, "/tg-hook", Some("guess"), update).await, 401);
    assert_eq!(
        post(listen, "/tg-hook", Some(&secret), "{nonsense").await,
        400
    );
    assert_eq!(post(listen, "/tg-hook", Some(&secret), update).await, 200);
    g.expect_text("/challenge @user").await;
    let _ = stop.send(());
    let done = tokio::time::timeout(WAIT, task).await;
    assert!(matches!(done, Ok(Ok(Ok(())))), "{done:?}");
}

/// Poll `/health` on `addr` until its status is `want` (or `WAIT` passes); the last answer.
async fn health_becomes(addr: std::net::SocketAddr, want: u16) -> (u16, String) {
    let deadline = Instant::now() + WAIT;
    let mut last = (0, String::new());
    for _ in 0..3000 {
        last = ugolki_tests::http(addr, "GET", "/health", &[], "", Duration::from_secs(5)).await;
        if last.0 == want || Instant::now() >= deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    last
}

/// `--metrics`: `/health` is 200 while the store answers and the Bot API does, 503 while
/// polling fails; `/metrics` counts moves, their latency, 429s, retries and the queues.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_and_health_tell_the_operator_how_the_bot_is() {
    let g = Group::new().await;
    let db = temp_db("metrics");
    let addr = ugolki_tests::free_addr();
    let bot = RunningBot::start_with(Options {
        token: FakeTelegram::TOKEN.into(),
        api_url: Some(g.fake.api_url()),
        database_url: format!("sqlite://{}", db.display()),
        webhook: None,
        webhook_secret: None,
        metrics: Some(addr),
        limits: quick(),
        inline_chats: Vec::new(),
    });
    assert_eq!(health_becomes(addr, 200).await, (200, "ok\n".into()));
    // A game, one move, one send answered 429 first.
    let board = start_game(&g, "classic3x3 none casual").await;
    g.fake.fail_next(
        1,
        &["sendphoto"],
        Failure::TooManyRequests { retry_after: 1 },
    );
    g.fake.reply_text(&g.chat, &g.alice, "c3-d3", board.id);
    g.expect_text("Alice played c3-d3.").await;
    let (code, text) = ugolki_tests::http(addr, "GET", "/metrics", &[], "", WAIT).await;
    assert_eq!(code, 200);
    let value = |name: &str| -> f64 {
        text.lines()
            .find(|l| l.starts_with(name) && !l.starts_with('#'))
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in:\n{text}"))
    };
    assert!(value("ugolki_moves_total") >= 1.0);
    assert!(value("ugolki_move_reply_seconds_count") >= 1.0);
    assert!(
        text.contains("ugolki_move_reply_seconds_bucket{le=\"0.005\"}"),
        "{text}"
    );
    assert!(value("ugolki_platform_429_total{platform=\"telegram\"}") >= 1.0);
    assert!(value("ugolki_platform_retries_total{platform=\"telegram\"}") >= 1.0);
    assert!(value("ugolki_outbox_depth{platform=\"telegram\"}") >= 0.0);
    assert!(value("ugolki_games_in_play") >= 0.0);
    assert!(value("ugolki_timers_fired_total") >= 0.0);
    // Polling fails (the Bot API answers 500): the platform is down until it answers again.
    g.fake.fail_next(1, &["getupdates"], Failure::ServerError);
    let down = health_becomes(addr, 503).await;
    assert_eq!(down, (503, "the platform connection is down\n".into()));
    assert_eq!(health_becomes(addr, 200).await.0, 200);
    bot.stop().await;
}

/// Several processes on one `PostgreSQL` database poll one bot: one polls, the other stands
/// by (the Bot API serves one poller per bot) and takes over when the first stops.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_poller_per_bot_and_a_standby_takes_over() {
    let Some(db) = ugolki_tests::pg::Database::create("standby").await else {
        return;
    };
    let g = Group::new().await;
    let start = |g: &Group| {
        RunningBot::start_with(Options {
            token: FakeTelegram::TOKEN.into(),
            api_url: Some(g.fake.api_url()),
            database_url: db.url.clone(),
            webhook: None,
            webhook_secret: None,
            metrics: None,
            limits: quick(),
            inline_chats: Vec::new(),
        })
    };
    let first = start(&g);
    let ok = g
        .fake
        .wait_until(WAIT, |f| f.calls().iter().any(|c| c.method == "getupdates"))
        .await;
    assert!(ok, "the first process polls");
    let second = start(&g);
    g.fake.send_text(&g.chat, &g.alice, "/help");
    g.expect_text("/challenge @user").await;
    // The standby never asked for updates: one deleteWebhook (the poller's start) so far.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let starts = |f: &FakeTelegram| {
        f.calls()
            .iter()
            .filter(|c| c.method == "deletewebhook")
            .count()
    };
    assert_eq!(starts(&g.fake), 1, "only one process polls");
    first.stop().await;
    // The standby takes over and answers.
    let ok = g.fake.wait_until(WAIT, |f| starts(f) == 2).await;
    assert!(ok, "the standby took over polling");
    g.fake.send_text(&g.chat, &g.bob, "/rules");
    g.expect_text("(C1)").await;
    second.stop().await;
    drop(db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_answers_moves_and_a_review_arrives_as_an_animation() {
    let g = Group::new().await;
    let db = temp_db("bot");
    let bot = RunningBot::start(&g.fake, &db, quick());
    g.fake
        .send_text(&g.chat, &g.alice, "/play bot 1 classic3x3 none white");
    g.expect_text("Game #1: Alice (White) vs Bot L1 (Black)")
        .await;
    g.fake.send_text(&g.chat, &g.alice, "/m c3-d3");
    g.expect_text("Alice played c3-d3.").await;
    // Nobody else types: the engine answers through the table's timer.
    g.expect_text("Bot L1 played ").await;
    g.fake.send_text(&g.chat, &g.alice, "/resign");
    g.expect_text("Game #1").await;
    g.fake.send_text(&g.chat, &g.alice, "/review 1");
    let review = g.expect_text("Alice – Bot L1, 2 moves.").await;
    let gif = review.photo.expect("the replay is sent as an animation");
    assert!(gif.starts_with(b"GIF89a"), "a GIF");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_by_buttons_edit_the_board_keyboard_and_play() {
    let g = Group::new().await;
    let db = temp_db("by-buttons");
    let bot = RunningBot::start(&g.fake, &db, quick());
    start_game(&g, "classic3x3 none").await;
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(0xb077_0115);
    for ply in 0..8 {
        let board = g.board();
        // The pieces that can move are the first rows, eight at most to a row.
        assert!(board.buttons.iter().all(|r| r.len() <= 8), "{board:#?}");
        let labels: Vec<String> = board
            .buttons
            .iter()
            .flatten()
            .map(|(t, _)| t.clone())
            .collect();
        assert!(labels.contains(&"Resign".to_string()));
        let moves = game.legal_move_texts();
        let mv = rng.pick(&moves).clone();
        let squares: Vec<&str> = mv.split('-').collect();
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let who = g.who(game.turn() == ugolki_core::Color::White);
        g.press(who, &board, from);
        // The same message is edited in place: its keyboard becomes the destinations.
        let ok = g
            .fake
            .wait_until(WAIT, |f| {
                f.messages(g.chat.id).iter().any(|m| {
                    m.id == board.id && m.buttons.iter().flatten().any(|(t, _)| t == "Back")
                })
            })
            .await;
        assert!(ok, "ply {ply}: no destinations on {:#?}", g.messages());
        let picked = g
            .messages()
            .into_iter()
            .find(|m| m.id == board.id)
            .expect("the board");
        assert!(picked.edits >= 1 && picked.photo.is_some());
        g.press(who, &picked, to);
        game.play_text(&mv).unwrap();
        g.expect_text(&format!(" played {mv}.")).await;
    }
    bot.stop().await;
}

/// Inline mode: a fake Telegram, the operator's picture chat, four users, and a bot that
/// posts its pictures there.
struct InlineRoom {
    fake: FakeTelegram,
    pictures: FakeChat,
    alice: FakeUser,
    bob: FakeUser,
    carol: FakeUser,
    dana: FakeUser,
    bot: RunningBot,
}

impl InlineRoom {
    async fn new(name: &str) -> InlineRoom {
        let fake = FakeTelegram::start().await;
        let operator = FakeTelegram::user(99, "Operator", Some("operator"), Some("en"));
        let pictures = FakeTelegram::private(&operator);
        fake.add_chat(&pictures);
        let db = temp_db(name);
        let bot = RunningBot::start_with(Options {
            token: FakeTelegram::TOKEN.into(),
            api_url: Some(fake.api_url()),
            database_url: format!("sqlite://{}", db.display()),
            webhook: None,
            webhook_secret: None,
            metrics: None,
            limits: quick(),
            inline_chats: vec![pictures.id],
        });
        InlineRoom {
            fake,
            pictures,
            alice: FakeTelegram::user(11, "Alice", Some("alice"), Some("en")),
            bob: FakeTelegram::user(12, "Bob", Some("bob"), Some("en")),
            carol: FakeTelegram::user(13, "Carol", Some("carol"), Some("en")),
            dana: FakeTelegram::user(14, "Dana", Some("dana"), Some("en")),
            bot,
        }
    }

    /// `from` types `@bot query`: the query's id and the bot's answer.
    async fn query(&self, from: &FakeUser, query: &str) -> (String, InlineAnswer) {
        let id = self.fake.inline_query(from, query);
        assert!(
            self.fake
                .wait_until(WAIT, |f| f.inline_answer(&id).is_some())
                .await,
            "inline query {query:?} not answered: {:#?}",
            self.fake
                .calls()
                .iter()
                .filter(|c| c.method == "answerinlinequery")
                .collect::<Vec<_>>()
        );
        let answer = self.fake.inline_answer(&id).expect("answered");
        (id, answer)
    }

    /// The cards `@bot query` offers.
    async fn cards(&self, from: &FakeUser, query: &str) -> InlineAnswer {
        self.query(from, query).await.1
    }

    /// `from` sends the first card `query` offers: the inline message's id.
    async fn send(&self, from: &FakeUser, query: &str) -> String {
        let (id, answer) = self.query(from, query).await;
        let first = answer.results[0]["id"].as_str().expect("a result id");
        self.fake
            .choose_inline_result(&id, first)
            .expect("an inline message id")
    }

    /// Wait until `inline` satisfies `f`; the message then.
    async fn expect(
        &self,
        inline: &str,
        what: &str,
        f: impl Fn(&SentMessage) -> bool,
    ) -> SentMessage {
        let ok = self
            .fake
            .wait_until(WAIT, |fake| {
                fake.inline_message(inline).is_some_and(|m| f(&m))
            })
            .await;
        assert!(
            ok,
            "inline message never {what}: {:#?}",
            self.fake.inline_message(inline)
        );
        self.fake
            .inline_message(inline)
            .expect("the inline message")
    }

    /// Wait until the caption of `inline` contains `part`.
    async fn expect_caption(&self, inline: &str, part: &str) -> SentMessage {
        self.expect(inline, part, |m| caption_has(m, part)).await
    }

    /// `who` presses `label` on `m`, the current state of `inline`: the callback query id.
    fn press(&self, who: &FakeUser, inline: &str, m: &SentMessage, label: &str) -> String {
        self.fake.press_inline(who, inline, &data_of(m, label))
    }

    /// `who` picks the piece on `from`: the message once it offers the destinations.
    async fn pick(
        &self,
        who: &FakeUser,
        inline: &str,
        board: &SentMessage,
        from: &str,
    ) -> SentMessage {
        self.press(who, inline, board, from);
        self.expect(inline, "picked", |m| has_button(m, "Back"))
            .await
    }

    /// The answer to callback query `id`, once it is answered.
    async fn answer(&self, id: &str) -> CallbackAnswer {
        assert!(
            self.fake
                .wait_until(WAIT, |f| f.callback_answers().iter().any(|a| a.id == id))
                .await,
            "press {id} not answered"
        );
        self.fake
            .callback_answers()
            .into_iter()
            .find(|a| a.id == id)
            .expect("answered")
    }
}

/// The callback data of the button `label` on message `m`.
fn data_of(m: &SentMessage, label: &str) -> String {
    m.buttons
        .iter()
        .flatten()
        .find(|(text, _)| text == label)
        .map_or_else(|| panic!("no [{label}] on {m:#?}"), |(_, d)| d.clone())
}

fn has_button(m: &SentMessage, label: &str) -> bool {
    m.buttons.iter().flatten().any(|(t, _)| t == label)
}

fn caption_has(m: &SentMessage, part: &str) -> bool {
    m.caption.as_deref().is_some_and(|c| c.contains(part))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inline_query_is_answered_with_challenge_cards_for_what_it_names() {
    let r = InlineRoom::new("inline-cards").await;
    // `@bot` alone: a card for every game, each a stored photo with Accept and Decline.
    let all = r.cards(&r.alice, "").await;
    assert_eq!(all.results.len(), 8, "{all:#?}");
    assert!(all.is_personal);
    for card in &all.results {
        assert_eq!(card["type"], "photo");
        assert!(card["caption"]
            .as_str()
            .is_some_and(|c| c.starts_with("Alice offers a game: ")));
        let row = &card["reply_markup"]["inline_keyboard"][0];
        assert_eq!(
            (row[0]["text"].as_str(), row[1]["text"].as_str()),
            (Some("Accept"), Some("Decline"))
        );
    }
    assert!(
        all.results[7]["title"]
            .as_str()
            .is_some_and(|t| t.starts_with("Damas")),
        "{:#?}",
        all.results[7]
    );
    // `@bot damas`: Damas at a few time controls; a bad query: no cards, and why.
    assert_eq!(r.cards(&r.alice, "damas").await.results.len(), 4);
    let bad = r.cards(&r.alice, "classic3x3 zebra").await;
    assert!(bad.results.is_empty());
    assert!(
        bad.button
            .as_ref()
            .and_then(|b| b["text"].as_str())
            .is_some_and(|t| t.contains("zebra")),
        "{bad:#?}"
    );
    // `@bot halma16 5+3 @dana`: one card, for Dana only.
    let halma = r.cards(&r.alice, "halma16 5+3 @dana").await;
    assert_eq!(halma.results.len(), 1);
    assert_eq!(halma.results[0]["description"], "Only @dana can accept");
    assert!(halma.results[0]["title"]
        .as_str()
        .is_some_and(|t| t.contains("5+3")));
    r.bot.stop().await;
}

/// Every training room a query names costs an upload to a picture chat, which the games'
/// boards need too: made-up rooms, one per query, stop getting cards (and uploads) after
/// `MAX_EXTRA_PICTURES`, and say why; the standard games' cards go on as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn made_up_training_rooms_cannot_fill_the_picture_chat() {
    let r = InlineRoom::new("inline-extra").await;
    assert_eq!(r.cards(&r.alice, "").await.results.len(), 8);
    let photos = |r: &InlineRoom| {
        r.fake
            .calls()
            .iter()
            .filter(|c| c.method == "sendphoto" && !c.failed)
            .count()
    };
    let before = photos(&r);
    for n in 0..MAX_EXTRA_PICTURES {
        let q = format!("training:classic3x3,limit={} none", 10 + n);
        assert_eq!(r.cards(&r.alice, &q).await.results.len(), 1, "{q}");
    }
    assert_eq!(photos(&r), before + MAX_EXTRA_PICTURES);
    let full = r.cards(&r.alice, "training:classic3x3,limit=99 none").await;
    assert!(full.results.is_empty(), "{full:#?}");
    assert!(
        full.button
            .as_ref()
            .and_then(|b| b["text"].as_str())
            .is_some_and(|t| t.contains("/train")),
        "{full:#?}"
    );
    assert_eq!(photos(&r), before + MAX_EXTRA_PICTURES, "no upload for it");
    // A room already pictured, and the standard games, still have their cards.
    let again = r.cards(&r.alice, "training:classic3x3,limit=10 none").await;
    assert_eq!(again.results.len(), 1);
    assert_eq!(r.cards(&r.bob, "damas").await.results.len(), 4);
    // Built-in games the empty query does not offer are not training rooms: no cap.
    assert_eq!(r.cards(&r.bob, "classic4x3 5+3").await.results.len(), 1);
    r.bot.stop().await;
}

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
    let challenge = r
        .expect(&inline, "a challenge", |m| {
            caption_has(m, "challenge #1")
                && caption_has(m, "Press Accept to play.")
                && has_button(m, "Cancel")
        })
        .await;
    let card_photo = challenge.photo.clone().expect("the card's photo");
    // Carol may not cancel Alice's challenge; Bob accepts: the message becomes the board.
    r.press(&r.carol, &inline, &challenge, "Cancel");
    r.press(&r.bob, &inline, &challenge, "Accept");
    let mut board = r
        .expect_caption(&inline, "Alice (White) vs Bob (Black)")
        .await;
    assert!(board.photo.as_deref().is_some_and(decodes) && board.photo != Some(card_photo));
    let answers = r.fake.callback_answers();
    assert!(
        answers.iter().any(|a| a
            .text
            .as_deref()
            .is_some_and(|t| t.contains("Only the challenger"))),
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
            r.answer(&early).await.text.as_deref(),
            Some("Not your turn.")
        );
        let picked = r.pick(who, &inline, &board, from).await;
        assert_eq!(
            picked.photo, photo,
            "a pick edits the keyboard, not the picture"
        );
        r.press(who, &inline, &picked, to);
        board = r
            .expect_caption(&inline, &format!("{name} played {mv}."))
            .await;
        assert!(
            board.photo.as_deref().is_some_and(decodes) && board.photo != photo,
            "a move edits the picture"
        );
    }
    let answers = r.fake.callback_answers();
    assert!(
        answers
            .iter()
            .filter(|a| a.text.as_deref() == Some("That button is not for you."))
            .count()
            >= 2,
        "{answers:#?}"
    );
    // Nobody presses: Alice's flag falls and the message says so, with no buttons left.
    let over = r
        .expect_caption(&inline, "Alice ran out of time — Bob wins (T1)")
        .await;
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
    // Inline feedback off in BotFather: no chosen result ever comes. The card's button
    // carries the card: Bob's press makes Alice's challenge and accepts it.
    r.fake.set_inline_feedback(false);
    let inline = r.send(&r.alice, "damas 5+3").await;
    let card = r.fake.inline_message(&inline).unwrap();
    r.press(&r.bob, &inline, &card, "Accept");
    let board = r
        .expect(&inline, "a board", |m| {
            caption_has(m, "Game #1: ") && caption_has(m, " vs ")
        })
        .await;
    assert!(board.photo.as_deref().is_some_and(decodes));
    assert!(has_button(&board, "Resign"));
    // A forged card (another sender) changes nothing.
    let forged = data_of(&card, "Accept").replace(":11:", ":12:");
    let answer = r
        .answer(&r.fake.press_inline(&r.alice, &inline, &forged))
        .await;
    assert!(answer
        .text
        .as_deref()
        .is_some_and(|t| t.contains("still being set up")));
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
    assert_eq!(data_of(&card, "Accept"), "card");
    let answer = r.answer(&r.press(&r.bob, &inline, &card, "Accept")).await;
    assert_eq!(
        answer.text.as_deref(),
        Some("This challenge is still being set up: press again in a moment.")
    );
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
        Some("Play with me in a private chat")
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
    // A card Alice sends and then withdraws: cancelled.
    let first = r.send(&r.alice, "triangle 5+3").await;
    let challenge = r
        .expect(&first, "a challenge", |m| has_button(m, "Cancel"))
        .await;
    r.press(&r.alice, &first, &challenge, "Cancel");
    let gone = r.expect(&first, "declined", |m| m.buttons.is_empty()).await;
    assert!(
        gone.caption.is_some_and(|c| c.contains("cancelled")),
        "{:#?}",
        r.fake.inline_message(&first)
    );

    // A card for Dana: Carol's Accept is refused, Dana's starts the game.
    let inline = r.send(&r.alice, "classic3x3 none @dana white").await;
    let challenge = r
        .expect_caption(&inline, "@dana: Accept or Decline below.")
        .await;
    r.answer(&r.press(&r.carol, &inline, &challenge, "Accept"))
        .await;
    assert_eq!(
        r.fake.inline_message(&inline).unwrap().edits,
        challenge.edits,
        "Carol changed nothing"
    );
    r.press(&r.dana, &inline, &challenge, "Accept");
    let board = r
        .expect_caption(&inline, "Alice (White) vs Dana (Black)")
        .await;

    // Alice offers a draw by button: the offer goes under the board's caption, with the
    // moves still on the keyboard next to the offer's answers.
    r.press(&r.alice, &inline, &board, "Offer draw");
    let offered = r.expect_caption(&inline, "Alice offers a draw.").await;
    let caption = offered.caption.clone().unwrap();
    assert!(
        caption.starts_with("Game #1"),
        "the board's caption stays: {caption}"
    );
    assert!(
        caption.contains("Dana: Accept draw or Decline draw below."),
        "{caption}"
    );
    assert!(
        has_button(&offered, "c3") && has_button(&offered, "Accept draw"),
        "{offered:#?}"
    );
    r.press(&r.dana, &inline, &offered, "Accept draw");
    let over = r.expect(&inline, "a draw", |m| m.buttons.is_empty()).await;
    assert!(over.caption.is_some_and(|c| c.contains("draw")));
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
    let challenge = r
        .expect(&inline, "a challenge", |m| has_button(m, "Cancel"))
        .await;
    r.press(&r.bob, &inline, &challenge, "Accept");
    let mut board = r.expect_caption(&inline, " vs Bob").await;
    for (who, from, to, said) in [
        (&r.alice, "a1", "a2", "Alice played a1-a2."),
        (&r.bob, "h8", "h7", "Bob played h8-h7."),
    ] {
        let picked = r.pick(who, &inline, &board, from).await;
        r.press(who, &inline, &picked, to);
        board = r.expect_caption(&inline, said).await;
    }
    let picked = r.pick(&r.alice, &inline, &board, "a2").await;
    let id = r.press(&r.alice, &inline, &picked, "a1");
    // The alert says why, and the message carries the Confirm button (nothing can be typed).
    let asked = r
        .expect(&inline, "a Confirm", |m| has_button(m, "Confirm"))
        .await;
    assert!(
        caption_has(&asked, "Press Confirm to play it anyway."),
        "{asked:#?}"
    );
    let answer = r.answer(&id).await;
    assert!(answer.text.is_some_and(|t| t.contains("(rule C6)")));
    // Bob cannot confirm Alice's move; Alice can, and loses at once.
    r.answer(&r.press(&r.bob, &inline, &asked, "Confirm")).await;
    r.press(&r.alice, &inline, &asked, "Confirm");
    let over = r
        .expect_caption(&inline, "returned home after the deadline (C6)")
        .await;
    assert!(over.buttons.is_empty(), "{over:#?}");
    r.bot.stop().await;
}
