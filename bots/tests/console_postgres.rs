//! Two `ugolki console` processes on one `PostgreSQL` database, fed the same game's moves at
//! the same time (as a webhook retried to another worker would be): the stored game is one
//! legal game with each move once, and each move is answered once — by whichever process
//! holds the chat's outbox lease when the answer is sent, so across the two outputs.
//! Skipped, with the reason printed, without `DATABASE_URL_PG`.

use std::path::Path;
use std::process::{Command, Output};
use ugolki_core::corners::{Game, Variant};
use ugolki_core::store::Store;

#[path = "../../tests/src/pg.rs"]
mod pg;

/// A console process on the database, as session `session`, reading `script` (or, with
/// none, its standard input).
fn console(url: &str, dir: &Path, script: Option<&Path>, session: &str) -> std::process::Child {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ugolki"));
    c.args(["console", "--boards"])
        .arg(dir.join("boards"))
        .args(["--session", session])
        .env("DATABASE_URL", url)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    if let Some(script) = script {
        c.arg("--script").arg(script);
    }
    c.spawn().expect("runs")
}

/// A console process fed line by line, its output read as it comes.
struct Fed {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
    reader: std::thread::JoinHandle<()>,
    // Its standard error, drained as it comes so a chatty log cannot block it.
    errors: std::thread::JoinHandle<String>,
    said: String,
}

impl Fed {
    fn start(mut child: std::process::Child) -> Self {
        use std::io::BufRead;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut stderr = child.stderr.take().expect("stderr");
        let errors = std::thread::spawn(move || {
            use std::io::Read;
            let mut err = String::new();
            let _ = stderr.read_to_string(&mut err);
            err
        });
        Self {
            child,
            stdin,
            lines,
            reader,
            errors,
            said: String::new(),
        }
    }

    fn feed(&mut self, text: &str) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().expect("open");
        stdin.write_all(text.as_bytes()).expect("fed");
        stdin.flush().expect("fed");
    }

    /// The lines said since the last call, kept; whether one contains `answer`.
    fn heard(&mut self, answer: &str) -> bool {
        let mut found = false;
        for line in self.lines.try_iter() {
            found |= line.contains(answer);
            self.said.push_str(&line);
            self.said.push('\n');
        }
        found
    }
}

/// Wait (at most 20 s) for a line containing `answer` from either process.
fn wait_for(procs: &mut [Fed; 2], answer: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::time::Instant::now() < deadline {
        let (a, b) = (procs[0].heard(answer), procs[1].heard(answer));
        if a || b {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!(
        "no answer {answer:?}; said so far:\n{}\n---\n{}",
        procs[0].said, procs[1].said
    );
}

impl Fed {
    /// Closes its input, waits for it to end, and returns all it said.
    fn finish(mut self) -> String {
        drop(self.stdin.take());
        let status = self.child.wait().expect("waits");
        self.reader.join().expect("reader");
        let mut said = self.said;
        for line in self.lines.try_iter() {
            said.push_str(&line);
            said.push('\n');
        }
        let err = self.errors.join().expect("stderr reader");
        assert!(status.success(), "{said}\n{err}");
        said
    }
}

fn finished(child: std::process::Child) -> Output {
    let out = child.wait_with_output().expect("waits");
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// 40 plies of classic 3×3 that repeat no position and do not end the game.
fn line() -> Vec<String> {
    let v = Variant::classic3x3();
    let mut g = Game::new(&v);
    let mut seen = std::collections::HashSet::from([g.position().repetition_key()]);
    let mut out = Vec::new();
    while out.len() < 40 {
        let pos = *g.position();
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|m| {
                let next = pos.play_unchecked(*m);
                !seen.contains(&next.repetition_key()) && next.has_legal_moves()
            })
            .expect("a fresh move");
        g.play(mv).expect("legal");
        seen.insert(g.position().repetition_key());
        out.push(ugolki_core::notation::join_path(
            &g.moves().last().expect("played").path,
            "-",
        ));
    }
    out
}

#[test]
fn two_console_processes_on_postgres_play_each_move_once() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let Some(db) = rt.block_on(pg::Database::create("two_console_processes")) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("ugolki-consoles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    // The game is made once; then both processes get every move.
    let setup = dir.join("setup.txt");
    std::fs::write(
        &setup,
        "alice: /challenge @bob classic3x3 none casual white\nbob: /accept\n",
    )
    .expect("script");
    let out = finished(console(&db.url, &dir, Some(&setup), "setup"));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("bot: Game #1: alice (White) vs bob (Black)"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let line = line();
    let mut procs = [
        Fed::start(console(&db.url, &dir, None, "moves")),
        Fed::start(console(&db.url, &dir, None, "moves")),
    ];
    // Moves 1–10 are made by the first process and 11–20 by the second, each answer waited
    // for: both must play moves the other made (its cache catches up from the store).
    // Moves 21–40 go to both at once, first to one, then to the other: each is played by
    // whichever wins, answered once and refused by nobody.
    for (i, m) in line.iter().enumerate() {
        let text = format!("{}: {m}\n", if i % 2 == 0 { "alice" } else { "bob" });
        let after = i.div_ceil(2) + 1;
        let answer = format!(" played {m}. Move {after} ");
        if i < 20 {
            // The other is given the line too once it is answered, as a retried delivery
            // of the same message (the same session and line number): it says nothing.
            let (x, y) = if i < 10 { (0, 1) } else { (1, 0) };
            procs[x].feed(&text);
            wait_for(&mut procs, &answer);
            procs[y].feed(&text);
        } else {
            let (x, y) = if i % 2 == 0 { (0, 1) } else { (1, 0) };
            procs[x].feed(&text);
            procs[y].feed(&text);
            std::thread::sleep(std::time::Duration::from_millis(40));
        }
    }
    let outputs: Vec<String> = procs.into_iter().map(Fed::finish).collect();
    let said = outputs.concat();
    let share: Vec<usize> = outputs
        .iter()
        .map(|o| o.matches(" played ").count())
        .collect();
    eprintln!("moves answered by each process: {share:?}");
    for (i, m) in line.iter().enumerate() {
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        // The caption names the move number after the move: one answer per ply.
        let after = i.div_ceil(2) + 1;
        let answered = said
            .matches(&format!("bot: {who} played {m}. Move {after} "))
            .count();
        assert_eq!(
            answered,
            1,
            "move {} ({m}) answered {answered} times:\n{said}",
            i + 1
        );
    }
    assert!(!said.contains("Not your turn"), "{said}");
    let stored = rt.block_on(async {
        let store = Store::connect(&db.url).await.expect("store");
        let row = store.game(1).await.expect("read").expect("game 1");
        let moves = store.moves(1).await.expect("moves");
        store.close().await;
        (row, moves)
    });
    assert!(stored.0.is_active());
    assert_eq!(stored.1, line, "one legal game, each move once, in order");
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}
