//! What the end-to-end tests of the chat adapters (`tests/tests/telegram/`,
//! `tests/tests/discord.rs`) share: a bot running in-process until it is stopped, its
//! temporary database, bounded waits, the board pictures, random play, and reading the
//! messages the fakes recorded (their words and buttons).

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use ugolki_core::game::Game;

/// The longest any test waits for one thing to happen.
pub const WAIT: Duration = Duration::from_secs(30);

/// A new, empty directory for one test's database, and the database's path in it:
/// `ugolki-{platform}-{name}-…/bot.db` in the temporary directory. Every call gets a
/// directory of its own, even for the same name.
pub fn temp_db(platform: &str, name: &str) -> PathBuf {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "ugolki-{platform}-{name}-{}-{n}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("bot.db")
}

/// The database URL of a `SQLite` file.
pub fn sqlite_url(db: &Path) -> String {
    format!("sqlite://{}", db.display())
}

/// What a bot's `run` is given to wait on: it stops when this completes.
pub type Shutdown = Pin<Box<dyn Future<Output = ()> + Send>>;

/// A bot running in a task of its own: stop it to restart on the same database.
pub struct RunningBot {
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<Result<(), String>>,
}

impl RunningBot {
    /// Start `run` (a platform's `run` with its options) with a shutdown signal.
    pub fn spawn<F>(run: impl FnOnce(Shutdown) -> F) -> RunningBot
    where
        F: Future<Output = Result<(), String>> + Send + 'static,
    {
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(run(Box::pin(async move {
            let _ = stopped.await;
        })));
        RunningBot {
            stop: Some(stop),
            task,
        }
    }

    /// Signal the bot to stop and wait (at most `WAIT`) for it to end cleanly.
    pub async fn stop(mut self) {
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

/// A bot in a process of its own, to be killed (SIGKILL) as a crash would: nothing of it
/// runs on, and the OS frees what it held (an in-process "crash" would leave its `SQLite`
/// connections, and their locks, behind). The process is this test binary run again on
/// `test`, an ignored test that runs the bot from the variables `env` gives it.
pub struct ChildBot {
    child: std::process::Child,
}

impl ChildBot {
    /// Run the ignored test `test` (its full name, `module::name`) in a child process.
    pub fn spawn(test: &str, env: &[(&str, String)]) -> ChildBot {
        let exe = std::env::current_exe().expect("the test binary");
        let child = std::process::Command::new(exe)
            .args(["--exact", test, "--ignored", "--test-threads=1", "--quiet"])
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("the child bot starts");
        ChildBot { child }
    }

    /// Kill it where it stands, and wait until it is gone.
    pub fn kill(mut self) {
        self.end();
    }

    fn end(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ChildBot {
    fn drop(&mut self) {
        self.end();
    }
}

/// Whether `png` is a PNG picture that decodes.
pub fn decodes(png: &[u8]) -> bool {
    let Ok(mut reader) = png::Decoder::new(std::io::Cursor::new(png)).read_info() else {
        return false;
    };
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    reader.next_frame(&mut buf).is_ok()
}

/// A small deterministic generator (xorshift) for the tests' random games.
pub struct Rng(pub u64);

impl Rng {
    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        &items[(self.0 % items.len() as u64) as usize]
    }
}

/// The legal moves of `game` that do not lose at once: a move that does (C6) asks for a
/// confirmation first, which random play does not give.
pub fn safe_moves(game: &Game) -> Vec<String> {
    game.legal_move_texts()
        .into_iter()
        .filter(|m| game.check_text(m).is_ok_and(|(_, loses)| !loses))
        .collect()
}

/// Poll `/health` on `addr` until its status is `want` (or `WAIT` passes); the last answer.
pub async fn health_becomes(addr: std::net::SocketAddr, want: u16) -> (u16, String) {
    let deadline = Instant::now() + WAIT;
    let mut last = (0, String::new());
    for _ in 0..3000 {
        last = crate::http(addr, "GET", "/health", &[], "", Duration::from_secs(5)).await;
        if last.0 == want || Instant::now() >= deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    last
}

/// A message of the bot as a fake recorded it: the words a player reads and its buttons.
pub trait Shown {
    /// Its words: on Telegram its text or its caption, on Discord its content and its
    /// embeds' descriptions.
    fn words(&self) -> String;

    /// Whether its words contain `part`.
    fn says(&self, part: &str) -> bool {
        self.words().contains(part)
    }

    /// Its buttons, row by row: `(label, data)` (Telegram's callback data, Discord's custom
    /// id).
    fn button_rows(&self) -> &[Vec<(String, String)>];
}

impl<M: Shown> Shown for &M {
    fn words(&self) -> String {
        (**self).words()
    }

    fn says(&self, part: &str) -> bool {
        (**self).says(part)
    }

    fn button_rows(&self) -> &[Vec<(String, String)>] {
        (**self).button_rows()
    }
}

impl Shown for crate::fake_telegram::SentMessage {
    fn words(&self) -> String {
        [&self.text, &self.caption]
            .into_iter()
            .flatten()
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn says(&self, part: &str) -> bool {
        self.text.as_deref().is_some_and(|t| t.contains(part))
            || self.caption.as_deref().is_some_and(|t| t.contains(part))
    }

    fn button_rows(&self) -> &[Vec<(String, String)>] {
        &self.buttons
    }
}

impl Shown for crate::fake_discord::SentMessage {
    fn words(&self) -> String {
        let mut t = self.content.clone();
        for e in &self.embeds {
            if let Some(d) = e["description"].as_str() {
                t.push('\n');
                t.push_str(d);
            }
        }
        t
    }

    fn button_rows(&self) -> &[Vec<(String, String)>] {
        &self.components
    }
}

/// The words of `m` (see [`Shown::words`]).
pub fn text(m: &impl Shown) -> String {
    m.words()
}

/// Whether the words of `m` contain `part`.
pub fn says(m: &impl Shown, part: &str) -> bool {
    m.says(part)
}

/// Whether `m` has a button labelled `label`.
pub fn has_button(m: &impl Shown, label: &str) -> bool {
    m.button_rows().iter().flatten().any(|(l, _)| l == label)
}

/// The data of the button `label` on `m` (panics, showing `m`, when it has none).
pub fn data_of<M: Shown + std::fmt::Debug>(m: &M, label: &str) -> String {
    m.button_rows()
        .iter()
        .flatten()
        .find(|(l, _)| l == label)
        .map_or_else(|| panic!("no [{label}] on {m:#?}"), |(_, d)| d.clone())
}

/// A move of `game` as two clicks play it — from its first square to its last, the page
/// sending the first legal move with those ends — that does not lose at once, picked by
/// `rng`: the move, and the squares to click.
pub fn clickable(game: &ugolki_core::game::Game, rng: &mut Rng) -> (String, String, String) {
    let legal = game.legal_move_texts();
    let safe = safe_moves(game);
    let ends = |m: &str| {
        let squares: Vec<&str> = m.split(['-', 'x']).collect();
        (
            squares[0].to_string(),
            squares[squares.len() - 1].to_string(),
        )
    };
    let playable: Vec<String> = safe
        .iter()
        .filter_map(|m| legal.iter().find(|l| ends(l) == ends(m)))
        .filter(|first| safe.contains(first))
        .cloned()
        .collect();
    assert!(!playable.is_empty(), "a move of {}", game.record());
    // At random (seeded): always the first would walk into a repetition.
    let mv = rng.pick(&playable).clone();
    let (from, to) = ends(&mv);
    (mv, from, to)
}

/// A game's stored end cause, waited for (the bot closes the chat as it learns of it), read
/// beside the running bot (the database is its own: read-only).
pub async fn cause_of(db: &Path, game: i64) -> Option<String> {
    use sqlx::ConnectOptions;
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(db)
        .read_only(true);
    let mut conn = options.connect().await.expect("the database");
    for _ in 0..1000 {
        let row: Option<(String, Option<String>)> =
            sqlx::query_as("SELECT status, end_reason FROM games WHERE id = $1")
                .bind(game)
                .fetch_optional(&mut conn)
                .await
                .expect("read");
        if let Some((status, reason)) = row.filter(|(s, _)| s != "active") {
            assert_ne!(status, "active");
            return reason;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    None
}
