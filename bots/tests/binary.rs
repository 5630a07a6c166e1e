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
        "illegal move 4: e6-e4: the piece on e6 cannot reach e4\n"
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
