//! The console as a person runs it (stdin a terminal): timers fire and print by themselves.
//! Uses util-linux `script` to give the console a terminal; skipped where it is missing.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn interactive_console_announces_a_flag_without_anyone_typing() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` here to give the console a terminal");
        return;
    }
    let dir = std::env::temp_dir().join(format!("ugolki-tty-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cmd = format!(
        "{} console --db {} --boards {}",
        env!("CARGO_BIN_EXE_ugolki"),
        dir.join("t.db").display(),
        dir.join("boards").display()
    );
    let log = dir.join("typescript");
    let mut child = Command::new("script")
        .args(["-q", "-f", "-e", "-c", &cmd])
        .arg(&log)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("script runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        // Both sides move (F1: a side that never moved is aborted, not flagged), then
        // alice's five seconds run out.
        .write_all(b"alice: /challenge @bob 5s+0 white\nbob: /accept\nalice: c3-d3\nbob: f6-e6\n")
        .expect("typed");
    stdin.flush().expect("flushed");
    // Wait (at most 20 s) for the flag that nobody types for.
    let start = Instant::now();
    let mut seen = String::new();
    while start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(250));
        seen = std::fs::read_to_string(&log).unwrap_or_default();
        if seen.contains("ran out of time") {
            break;
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        seen.contains("Game #1: alice ran out of time — bob wins (T1)."),
        "{seen}"
    );
}
