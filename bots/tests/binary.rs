//! The real `ugolki` binary, as outside checks call it.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn the_binary_speaks_the_contract() {
    let out = Command::new(env!("CARGO_BIN_EXE_ugolki"))
        .args([
            "perft",
            "--game",
            "corners",
            "--variant",
            "classic3x3",
            "--depth",
            "3",
        ])
        .output()
        .expect("runs");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2784\n");

    let mut child = Command::new(env!("CARGO_BIN_EXE_ugolki"))
        .args(["replay", "--game", "corners", "--variant", "classic3x3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"1. c3-d3 f6-e6 2. c2-c3 e6-e4\n")
        .expect("writes");
    let out = child.wait_with_output().expect("finishes");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "illegal move 4: e6-e4: there is no piece on e5 to jump over (rule C2)\n"
    );
}

#[test]
fn a_picture_chat_that_is_not_a_chat_id_is_refused_before_anything_starts() {
    let out = Command::new(env!("CARGO_BIN_EXE_ugolki"))
        .arg("telegram")
        .env("TELOXIDE_TOKEN", "123:TEST")
        // Nothing listens here: had it got that far, it would say so instead.
        .env("TELOXIDE_API_URL", "http://127.0.0.1:9/")
        .env("TELEGRAM_INLINE_CHATS", "-1001, my channel")
        .env("DATABASE_URL", "sqlite::memory:")
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("TELEGRAM_INLINE_CHATS: \"my channel\" is not a chat id"),
        "{err}"
    );
    // The token is never printed.
    assert!(!err.contains("123:TEST"), "{err}");
}

/// A database made by the console in a folder of its own (mode 755), its file given
/// `file_mode`; then `ugolki doctor` on it as a user who is not the folder's owner (root
/// writes whatever a mode says: through `setpriv` as uid 65534 when the tests run as root,
/// else with the folder made read-only): its exit code and what it printed.
fn doctor_as_another_user(name: &str, file_mode: u32) -> (Option<i32>, String) {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).expect("chmod");
    };
    let dir = std::env::temp_dir().join(format!("ugolki-doctor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    mode(&dir, 0o755);
    let db = dir.join("games.db");
    let made = Command::new(env!("CARGO_BIN_EXE_ugolki"))
        .args(["console", "--script", "/dev/null", "--db"])
        .arg(&db)
        .output()
        .expect("runs");
    assert!(made.status.success(), "{made:?}");
    mode(&db, file_mode);
    // The folder is ours: its owner is who the tests run as.
    let root = std::fs::metadata(&dir).is_ok_and(|m| {
        use std::os::unix::fs::MetadataExt;
        m.uid() == 0
    });
    let out = if root {
        // The binary where the unprivileged user can reach it (a link: no copy).
        let bin = dir.join("ugolki");
        std::fs::hard_link(env!("CARGO_BIN_EXE_ugolki"), &bin)
            .or_else(|_| std::fs::copy(env!("CARGO_BIN_EXE_ugolki"), &bin).map(|_| ()))
            .expect("the binary reachable");
        Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&bin)
            .args(["doctor", "--db"])
            .arg(&db)
            .output()
            .expect("setpriv runs (util-linux)")
    } else {
        mode(&dir, 0o555);
        let out = Command::new(env!("CARGO_BIN_EXE_ugolki"))
            .args(["doctor", "--db"])
            .arg(&db)
            .output()
            .expect("runs");
        mode(&dir, 0o755);
        out
    };
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// `ugolki doctor` on a database file its user may read but not write: a ✘ and exit 1,
/// though the file reads as migrated (the bot could not record a move there).
#[test]
fn doctor_crosses_a_database_file_its_user_cannot_write() {
    let (code, stdout) = doctor_as_another_user("ro", 0o444);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("✘ database"), "{stdout}");
    assert!(stdout.contains("not write"), "{stdout}");
}

/// ... and on a file its user may write in a folder it may not: `SQLite` makes its journal
/// (`-wal`, `-shm`) beside the file, so the bot could not open it either. Whether `SQLite`
/// reads the file first or refuses at once (`SQLITE_READONLY_DIRECTORY`: seen to vary from
/// run to run), the folder is named as what this user may not write.
#[test]
fn doctor_crosses_a_database_whose_folder_its_user_cannot_write() {
    let (code, stdout) = doctor_as_another_user("folder", 0o666);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("✘ database"), "{stdout}");
    assert!(
        stdout.contains("but not its folder") || stdout.contains("may not write its folder"),
        "{stdout}"
    );
}

/// `/metrics` of a console reading its lines from a pipe (no live timers there: they fire
/// line by line) still counts the games in play.
#[test]
fn a_piped_consoles_metrics_count_its_games_in_play() {
    use std::io::Read;
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    let dir = std::env::temp_dir().join(format!("ugolki-piped-metrics-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let db = dir.join("games.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ugolki"))
        .args(["console", "--metrics", &addr.to_string(), "--boards"])
        .arg(dir.join("boards"))
        .arg("--db")
        .arg(&db)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawns");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"alice: /challenge @bob classic3x3 white\nbob: /accept\n")
        .expect("writes");
    stdin.flush().expect("flushes");
    let scrape = || -> String {
        let Ok(mut s) = std::net::TcpStream::connect(addr) else {
            return String::new();
        };
        let _ = s.set_read_timeout(Some(std::time::Duration::from_secs(2)));
        let _ = s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let mut text = String::new();
        let _ = s.read_to_string(&mut text);
        text
    };
    let mut seen = String::new();
    for _ in 0..80 {
        seen = scrape();
        if seen.lines().any(|l| l == "ugolki_games_in_play 1") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    drop(stdin);
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        seen.lines().any(|l| l == "ugolki_games_in_play 1"),
        "{seen}"
    );
}
