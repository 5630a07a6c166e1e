//! What the crash tests share: a console process driven through its standard input and
//! read from its standard output, killed with SIGKILL and started again on its database.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The longest wait for an answer.
pub const WAIT: Duration = Duration::from_secs(20);

/// Every line any console printed, in the order read.
pub type Transcript = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

/// How long a console waits between a line's commit and its replies (the console's fault
/// injection hook), so that a kill can fall between them.
pub const REPLY_PAUSE_MS: u64 = 60;

/// One running console, its input and its output lines with the time each was read.
pub struct Console {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Console {
    pub fn start(db: &Path, boards: &Path, transcript: &Transcript) -> Console {
        Console::start_with(db, boards, transcript, &[])
    }

    /// A console with more of the environment set (fault injection).
    pub fn start_with(
        db: &Path,
        boards: &Path,
        transcript: &Transcript,
        env: &[(&str, String)],
    ) -> Console {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ugolki"))
            .arg("console")
            .arg("--db")
            .arg(db)
            .arg("--boards")
            .arg(boards)
            .env(
                ugolki_bots::console::REPLY_PAUSE,
                REPLY_PAUSE_MS.to_string(),
            )
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the console starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        let transcript = transcript.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                transcript
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(line.clone());
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Console {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) -> Instant {
        let at = Instant::now();
        // A write to a process being killed may fail; the driver finds out by the answer.
        let _ = writeln!(self.stdin, "{line}");
        let _ = self.stdin.flush();
        at
    }

    /// The first line containing any of `wanted`, and when it came.
    pub fn wait_for(&self, wanted: &[&str]) -> Option<(Instant, String)> {
        self.wait_collecting(wanted).map(|(at, line, _)| (at, line))
    }

    /// The first line containing any of `wanted`, when it came, and the lines before it.
    pub fn wait_collecting(&self, wanted: &[&str]) -> Option<(Instant, String, Vec<String>)> {
        let deadline = Instant::now() + WAIT;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) if wanted.iter().any(|w| line.contains(w)) => {
                    return Some((at, line, before));
                }
                Ok((_, line)) => before.push(line),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// Close its input and wait for it to end by itself.
    pub fn close(mut self) {
        drop(self.stdin);
        let _ = self.child.wait();
    }

    pub fn kill(mut self) -> Instant {
        let at = Instant::now();
        self.child.kill().expect("SIGKILL");
        let _ = self.child.wait();
        at
    }
}

/// Start a console and wait until it answers (its table is open): the moment it serves,
/// and what it printed first (replies a killed process committed but did not print).
pub fn serve(db: &Path, boards: &Path, transcript: &Transcript) -> (Console, Instant, Vec<String>) {
    let mut c = Console::start(db, boards, transcript);
    c.send("carol: /chips");
    let (at, _, first) = c
        .wait_collecting(&["carol has"])
        .expect("the console answers");
    (c, at, first)
}

pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ugolki-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
