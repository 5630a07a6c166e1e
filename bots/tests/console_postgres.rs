//! Two `ugolki console` processes on one `PostgreSQL` database, fed the same game's moves at
//! the same time (as a webhook retried to another worker would be): the stored game is one
//! legal game with each move once, and each move is answered once. Skipped, with the
//! reason printed, without `DATABASE_URL_PG`.

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
    let mut first = console(&db.url, &dir, None, "moves");
    let mut second = console(&db.url, &dir, None, "moves");
    // Both running (a start beside a live process waits a moment for its heartbeat).
    std::thread::sleep(std::time::Duration::from_millis(1500));
    {
        use std::io::Write;
        let mut a = first.stdin.take().expect("stdin");
        let mut b = second.stdin.take().expect("stdin");
        for (i, m) in line.iter().enumerate() {
            let text = format!("{}: {m}\n", if i % 2 == 0 { "alice" } else { "bob" });
            // The same line to both at once, first to one, then to the other.
            let (x, y) = if i % 2 == 0 {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            x.write_all(text.as_bytes()).expect("fed");
            y.write_all(text.as_bytes()).expect("fed");
            x.flush().expect("fed");
            y.flush().expect("fed");
            std::thread::sleep(std::time::Duration::from_millis(40));
        }
    }
    let (first, second) = (finished(first), finished(second));
    let outputs: Vec<String> = [&first, &second]
        .iter()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .collect();
    let said = outputs.concat();
    let share: Vec<usize> = outputs
        .iter()
        .map(|o| o.matches(" played ").count())
        .collect();
    eprintln!("moves answered by each process: {share:?}");
    assert!(
        share.iter().all(|n| *n > 0),
        "both processes should have won some races: {share:?}"
    );
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
