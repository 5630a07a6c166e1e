//! The console as hostile users and careless operators use it: bytes that are not text,
//! lines too long to read, a second process on the same database, two started at once.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ugolki-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn console_cmd(db: &Path, dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ugolki"));
    c.arg("console")
        .arg("--db")
        .arg(db)
        .arg("--boards")
        .arg(dir.join("boards"));
    c
}

/// Feed `input` on stdin (not a terminal) and collect the output.
fn feed(db: &Path, dir: &Path, input: &[u8]) -> Output {
    let mut child = console_cmd(db, dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("written");
    child.wait_with_output().expect("ends")
}

#[test]
fn a_line_that_is_not_text_is_answered_and_the_session_goes_on() {
    let dir = temp_dir("bytes");
    let out = feed(
        &dir.join("t.db"),
        &dir,
        b"a: /chips\nb: caf\xe9\na: /chips\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("console: that line is not UTF-8 text; it was ignored"),
        "{stdout}"
    );
    assert_eq!(
        stdout.matches("bot: a has 1000 chips.").count(),
        2,
        "{stdout}"
    );
}

/// A bidi override in a name is cleaned away as in any message (the console's names are
/// whoever types them: there is nobody to impersonate), and never echoed.
#[test]
fn a_name_with_a_bidi_override_is_cleaned_and_never_echoed() {
    let dir = temp_dir("bidi");
    let out = feed(
        &dir.join("t.db"),
        &dir,
        "al\u{202e}ice: /chips\nbob: /chips\n".as_bytes(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("bot: alice has 1000 chips."), "{stdout}");
    assert!(!stdout.contains('\u{202e}'), "{stdout}");
    assert!(stdout.contains("bot: bob has 1000 chips."), "{stdout}");
}

#[test]
fn an_over_long_line_cut_inside_a_character_is_skipped_alone() {
    let dir = temp_dir("long");
    // 4,096 bytes end in the middle of a two-byte character.
    let mut input = b"a: ".to_vec();
    input.extend("é".repeat(3000).as_bytes());
    input.extend(b"\na: /chips\n");
    let out = feed(&dir.join("t.db"), &dir, &input);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("that line is longer than 4096 bytes; it was ignored"),
        "{stdout}"
    );
    assert!(stdout.contains("bot: a has 1000 chips."), "{stdout}");
}

/// Start a console that stays up (its input kept open) and wait until it answers.
fn serving(db: &Path, dir: &Path) -> std::process::Child {
    let mut child = console_cmd(db, dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let stdin = child.stdin.as_mut().expect("stdin");
    writeln!(stdin, "alice: /chips").expect("written");
    stdin.flush().expect("flushed");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        line.clear();
        if std::io::BufRead::read_line(&mut stdout, &mut line).unwrap_or(0) == 0 {
            break;
        }
        if line.contains("alice has") {
            return child;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the first console never answered");
}

#[test]
fn a_second_process_on_the_same_database_refuses_to_start() {
    let dir = temp_dir("second");
    let db = dir.join("t.db");
    let mut first = serving(&db, &dir);
    let script = dir.join("q.txt");
    std::fs::write(&script, "bob: /chips\n").expect("script");
    let second = console_cmd(&db, &dir)
        .arg("--script")
        .arg(&script)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("is in use by another ugolki process (pid "),
        "{stderr}"
    );
    assert!(
        !String::from_utf8_lossy(&second.stdout).contains("bob has"),
        "the second process served nothing"
    );
    first.kill().expect("killed");
    let _ = first.wait();
    // Once the first is gone, the database is free again.
    let again = console_cmd(&db, &dir)
        .arg("--script")
        .arg(&script)
        .output()
        .expect("runs");
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("bot: bob has 1000 chips."),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
}

#[test]
fn two_processes_started_together_on_a_new_database_never_race_the_migrations() {
    for round in 0..5 {
        let dir = temp_dir(&format!("race{round}"));
        let db = dir.join("new.db");
        let script = dir.join("q.txt");
        std::fs::write(&script, "bob: /chips\n").expect("script");
        let spawn = || {
            console_cmd(&db, &dir)
                .arg("--script")
                .arg(&script)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("starts")
        };
        let (a, b) = (spawn(), spawn());
        let outs = [
            a.wait_with_output().expect("a"),
            b.wait_with_output().expect("b"),
        ];
        let served = outs
            .iter()
            .filter(|o| String::from_utf8_lossy(&o.stdout).contains("bot: bob has 1000 chips."))
            .count();
        assert!(served >= 1, "round {round}: nobody served");
        for o in &outs {
            let stderr = String::from_utf8_lossy(&o.stderr);
            assert!(!stderr.contains("migrations"), "round {round}: {stderr}");
            assert!(
                o.status.success() || stderr.contains("in use by another ugolki process"),
                "round {round}: {stderr}"
            );
        }
    }
}

#[test]
fn a_perft_too_deep_to_finish_gives_up_at_its_timeout() {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_ugolki"))
        .args([
            "perft",
            "--game",
            "damas",
            "--depth",
            "64",
            "--timeout",
            "1",
        ])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("did not finish in 1 s"), "{stderr}");
    assert!(started.elapsed() < Duration::from_secs(30));
}

/// The peak resident memory of process `pid`, in KiB (Linux: `VmHWM` in its status).
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

/// A 100 MiB line through a pipe is refused as it passes the limit and skipped as it comes:
/// the console's peak memory stays under 64 MiB, and the next line is answered.
#[test]
fn a_hundred_mib_line_keeps_memory_flat_and_the_next_line_is_answered() {
    use std::io::BufRead;
    use std::sync::mpsc;
    let dir = temp_dir("huge-line");
    let mut child = console_cmd(&dir.join("t.db"), &dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        stdin.write_all(b"a: ").expect("written");
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..100 {
            stdin.write_all(&chunk).expect("written");
        }
        stdin.write_all(b"\na: /chips\n").expect("written");
        // Kept open until the answer is read and the memory measured.
        let _ = done_rx.recv_timeout(Duration::from_secs(120));
    });
    let stdout = child.stdout.take().expect("stdout");
    let (line_tx, line_rx) = mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().take(1000) {
            let Ok(line) = line else { break };
            if line_tx.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen = Vec::new();
    while !seen
        .iter()
        .any(|l: &String| l.contains("bot: a has 1000 chips."))
    {
        let left = deadline.saturating_duration_since(Instant::now());
        match line_rx.recv_timeout(left) {
            Ok(line) => seen.push(line),
            Err(e) => panic!("no answer to the next line ({e}): {seen:#?}"),
        }
    }
    let peak = peak_kib(child.id());
    let _ = done_tx.send(());
    writer.join().expect("writer");
    let status = child.wait().expect("ends");
    reader.join().expect("reader");
    assert!(status.success());
    assert!(
        seen.iter()
            .any(|l| l.contains("that line is longer than 4096 bytes; it was ignored")),
        "{seen:#?}"
    );
    assert!(peak < 64 * 1024, "peak memory {peak} KiB");
}

/// An invisible character after a name or a mention is cleaned, as everywhere else, and a
/// carriage return inside a command is dropped, not a break.
#[test]
fn invisible_characters_and_stray_carriage_returns_are_cleaned_not_blamed() {
    let dir = temp_dir("invisible");
    let out = feed(
        &dir.join("t.db"),
        &dir,
        "alice\u{200B}: /chips\nalice: /challenge @bob\u{200B}\nbob: /ac\rcept\n".as_bytes(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("bot: alice has 1000 chips."), "{stdout}");
    assert!(!stdout.contains("is not a name"), "{stdout}");
    assert!(stdout.contains("bot: Game #1"), "{stdout}");
}
