//! The real `ugolki console --script` binary on a scripted game.

use std::path::Path;
use std::process::{Command, Output};

/// Run `ugolki console --script` on a database and board folder in `dir`.
fn console(dir: &Path, script: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ugolki"))
        .args(["console", "--db"])
        .arg(dir.join("t.db"))
        .arg("--boards")
        .arg(dir.join("boards"))
        .arg("--script")
        .arg(script)
        .output()
        .expect("runs")
}

/// Run `ugolki console` with its input piped in, part by part: each part written, then (if
/// its second field is not empty) its output waited for, then its pause in ms (time passing
/// between lines, as a player's would). With `script`, as `--script /dev/stdin` (each line
/// echoed).
fn console_piped(dir: &Path, script: bool, parts: &[(&str, &str, u64)]) -> Output {
    use std::io::{BufRead as _, Write as _};
    let mut command = Command::new(env!("CARGO_BIN_EXE_ugolki"));
    command
        .args(["console", "--db"])
        .arg(dir.join("t.db"))
        .arg("--boards")
        .arg(dir.join("boards"));
    if script {
        command.args(["--script", "/dev/stdin"]);
    }
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let said = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let reader = {
        let (said, stdout) = (said.clone(), child.stdout.take().expect("stdout"));
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                let mut said = said.lock().expect("not poisoned");
                said.push_str(&line);
                said.push('\n');
            }
        })
    };
    let mut stdin = child.stdin.take().expect("stdin");
    for (text, wait_for, pause) in parts {
        stdin.write_all(text.as_bytes()).expect("written");
        stdin.flush().expect("flushed");
        // Bounded: 30 s at most for the answer.
        for _ in 0..3000 {
            if wait_for.is_empty() || said.lock().expect("not poisoned").contains(wait_for) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        std::thread::sleep(std::time::Duration::from_millis(*pause));
    }
    drop(stdin);
    let status = child.wait().expect("ends");
    reader.join().expect("read");
    let stdout = said.lock().expect("not poisoned").clone().into_bytes();
    Output {
        status,
        stdout,
        stderr: Vec::new(),
    }
}

#[test]
fn console_script_plays_a_game_and_writes_boards() {
    let dir = std::env::temp_dir().join(format!("ugolki-console-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script = dir.join("game.txt");
    std::fs::write(
        &script,
        "# alice and bob at one keyboard\n\
         alice: /challenge @bob classic3x4 3+2 white\n\
         bob: /accept\n\
         alice: d3-e3\n\
         bob: e6-e5\n\
         carol: nice game\n\
         bob: e5-e4\n\
         this line has no name\n\
         alice: /draw\n\
         bob: /draw\n",
    )
    .expect("script");
    let out = console(&dir, &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in [
        "> alice: /challenge @bob classic3x4 3+2 white",
        "bot: alice challenges bob: Corners, classic 3×4 · 3+2 · rated (alice takes White) — challenge #1.",
        "bot: Game #1: alice (White) vs bob (Black)",
        "bot: alice played d3-e3.",
        "bot: bob played e6-e5.",
        "bot → bob: Not your turn.",
        "console: write lines as NAME: text",
        "bot: alice offers a draw.",
        "bot: Game #1: draw agreed (T2).",
        "    a b c d e f g h",
    ] {
        assert!(stdout.contains(want), "missing {want:?} in:\n{stdout}");
    }
    assert!(!stdout.contains("bot: nice"), "chatter gets no answer");
    let pngs: Vec<_> = std::fs::read_dir(dir.join("boards"))
        .expect("boards written")
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "png"))
        .collect();
    assert_eq!(pngs.len(), 4, "accept, two moves, the end");
    for p in &pngs {
        let bytes = std::fs::read(p.path()).expect("png");
        assert_eq!(&bytes[..4], b"\x89PNG");
        assert!(
            stdout.contains(&p.path().display().to_string()),
            "path printed"
        );
    }
    // The game is stored: a second run sees it finished and its record.
    std::fs::write(&script, "alice: /record 1\n").expect("script");
    let out = console(&dir, &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "bot: Game #1, alice – bob, Corners, classic 3×4: 1. d3-e3 e6-e5 — draw, draw agreed"
        ),
        "{stdout}"
    );
}

/// The platform contract as the console shows it: buttons under their message, a press by
/// label, private replies, and edits of a living message.
#[test]
fn console_buttons_accept_a_challenge_and_resign_a_game() {
    let dir = std::env::temp_dir().join(format!("ugolki-console-buttons-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = console_piped(
        &dir,
        true,
        &[
            (
                "alice: /challenge @bob classic3x3 5+3 white\n\
                 bob: [Accept]\n\
                 alice: c3-d3\n\
                 carol: [Resign]\n\
                 bob: f6-e6\n\
                 bob: [Offer draw]\n\
                 alice: [Decline draw]\n\
                 bob: [Abort]\n\
                 alice: [Resign]\n",
                "Resign game #1?",
                1100,
            ),
            // Pressed again a moment after the question: it resigns.
            ("alice: [Resign]\nalice: [Resign]\n", "", 0),
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for want in [
        "bot: [Accept] [Decline] [Cancel]",
        "> bob: [Accept]",
        "bot (edits challenge #1): Challenge #1 accepted by bob: game #1.",
        "bot: Game #1: alice (White) vs bob (Black)",
        "[Resign] [Offer draw] [Abort]",
        "bot → carol: That button is not for you.",
        "bot: bob offers a draw.",
        "[Resign] [Accept draw] [Decline draw]",
        "bot: alice declined the draw.",
        // After both have moved, an older board's Abort is out of date.
        "bot → bob: That button is out of date: the game has moved on.",
        "bot: Game #1: alice resigned — bob wins (T2).",
        // The final board has no buttons: the newest Resign is out of date.
        "bot → alice: That button is out of date: the game has moved on.",
    ] {
        assert!(stdout.contains(want), "missing {want:?} in:\n{stdout}");
    }
    // The first press of Resign asks; the second, a moment later, resigns.
    let ask = ugolki_core::words::english(&ugolki_core::words::Msg::ResignAsk {
        id: 1,
        seconds: ugolki_core::table::RESIGN_WINDOW_MS / 1000,
    });
    let asked = stdout.find(&format!("bot → alice: {ask}")).expect(&stdout);
    let resigned = stdout.find("alice resigned").expect(&stdout);
    assert!(asked < resigned, "{stdout}");
}

#[test]
fn two_runs_in_the_same_second_are_both_answered() {
    let dir = std::env::temp_dir().join(format!("ugolki-console-twice-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script = dir.join("s.txt");
    std::fs::write(&script, "bob: /chips\n").expect("script");
    for _ in 0..2 {
        let out = console(&dir, &script);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("bot: bob has 1000 chips."), "{stdout}");
    }
}

/// `/lang ru` in the console: what follows reads in Russian for that player, and in
/// Portuguese for the one who chose it.
#[test]
fn console_lang_switches_a_players_replies() {
    let dir = std::env::temp_dir().join(format!("ugolki-console-lang-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script = dir.join("lang.txt");
    std::fs::write(
        &script,
        "alice: /lang ru\n\
         alice: /challenge @bob classic3x3 5+3 white\n\
         bob: [Accept]\n\
         alice: c3-d3\n\
         bob: /lang pt\n\
         bob: f6-e6\n\
         alice: a1-a2\n",
    )
    .expect("script");
    let out = console(&dir, &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for want in [
        "bot: Ваш язык теперь — Русский.",
        "bot: alice вызывает bob",
        "bot: alice ходит c3-d3.",
        "bot: bob jogou f6-e6.",
        "bot → alice: a1-a2: клетка a2 занята",
    ] {
        assert!(stdout.contains(want), "missing {want:?} in:\n{stdout}");
    }
}

#[test]
fn console_plays_the_bot_and_reviews_the_game_as_a_gif() {
    let dir = std::env::temp_dir().join(format!("ugolki-console-bot-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script = dir.join("bot.txt");
    std::fs::write(
        &script,
        "alice: /play bot 1 classic3x3 none white\n\
         alice: c3-d3\n\
         alice: /hint\n\
         alice: /resign\n\
         alice: /review\n",
    )
    .expect("script");
    let out = console(&dir, &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for want in [
        "bot: Game #1: alice (White) vs Bot L1 (Black)",
        "bot: alice played c3-d3.",
        "bot: Bot L1 played ",
        "bot → alice: Hint for game #1: ",
        "bot: Game #1: alice – Bot L1, one move.",
        "bot: [replay] ",
    ] {
        assert!(stdout.contains(want), "missing {want:?} in:\n{stdout}");
    }
    let gif = stdout
        .lines()
        .find_map(|l| l.strip_prefix("bot: [replay] "))
        .expect("a replay path");
    let bytes = std::fs::read(gif).expect("the GIF was written");
    assert!(bytes.starts_with(b"GIF89a"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn console_training_solo_in_22_moves_is_the_proven_minimum_and_undo_takes_back() {
    let dir = std::env::temp_dir().join(format!("ugolki-console-solo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script = dir.join("solo.txt");
    // A detour taken back, then a 22-move crossing (found by the engine's beam search).
    let route = "c2-c4 c3-c5 c5-d5 a3-c3-c5-e5 e5-e6 a1-a3-c3-c5-e5-e7 e7-f7 \
        c1-a1-a3-c3-c5-e5-e7-g7 g7-g8 b2-b4-d4-d6-f6-f8-h8 a2-a3 a3-c3-c5-e5-e7-g7 b1-b2 \
        h8-h7 b2-b4-d4-d6-f6-f8-h8-h6 b3-b4 b4-d4-d6-f6-f8-h8 c4-d4 d4-d6-f6-f8 d5-d6 d6-f6 \
        e6-g6";
    let mut lines = String::from("alice: /train solo\nalice: c3-d3\nalice: /undo\n");
    for m in route.split_whitespace() {
        lines.push_str("alice: ");
        lines.push_str(m);
        lines.push('\n');
    }
    std::fs::write(&script, lines).expect("script");
    let out = console(&dir, &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for want in [
        "bot: Training #1, Corners, training (classic 3×3; solo): cross to the far corner",
        "The proven minimum is 22 moves.",
        "bot: Game #1: alice took back 1 move.",
        "bot: Training #1: alice crossed in 22 moves. That is the proven minimum: a perfect crossing!",
    ] {
        assert!(stdout.contains(want), "missing {want:?} in:\n{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn console_plays_a_whole_classic_game_by_button_presses_only() {
    use ugolki_core::engine::{self, Level};
    use ugolki_core::game::{Game, Rules};
    let dir = std::env::temp_dir().join(format!("ugolki-console-presses-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    // A whole game chosen by a weak engine, then written as presses: the piece, then where.
    let mut g = Game::new(&Rules::from_id("classic3x3").unwrap());
    let mut script =
        String::from("alice: /challenge @bob classic3x3 none casual white\nbob: /accept\n");
    let mut ply = 0u64;
    while g.ending().is_none() && ply < 400 {
        let who = if ply.is_multiple_of(2) {
            "alice"
        } else {
            "bob"
        };
        let mv = engine::choose(&g, Level::new(1).unwrap().settings(ply)).unwrap();
        let squares: Vec<&str> = mv.text.split('-').collect();
        for sq in [squares[0], squares[squares.len() - 1]] {
            script.push_str(who);
            script.push_str(": [");
            script.push_str(sq);
            script.push_str("]\n");
        }
        g.play_text(&mv.text).unwrap();
        ply += 1;
    }
    assert!(g.ending().is_some(), "the line ends the game");
    let path = dir.join("presses.txt");
    std::fs::write(&path, &script).expect("script");
    let out = console(&dir, &path);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        !stdout.contains("console: "),
        "every press was a button:\n{stdout}"
    );
    assert!(
        !stdout.contains("bot → "),
        "no press was refused:\n{stdout}"
    );
    // Each move was announced, and the game ended by the rules.
    assert_eq!(stdout.matches(" played ").count(), g.plies(), "{stdout}");
    assert!(stdout.contains("bot: Game #1 over: "), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Piped in (not a terminal, so no live timers): what fell due while a line was coming —
/// here F1's abort, a second into a `1s+0` game White never moved in — happens before the
/// line is handled, so `/record` right after it shows the game over, not still on; and
/// what fell due after the last line is said when the input ends.
#[test]
fn a_piped_console_fires_what_fell_due_before_the_next_line() {
    let dir = std::env::temp_dir().join(format!("ugolki-console-piped-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let game = "alice: /challenge @bob classic3x3 1s+0 black\nbob: /accept\n";
    let out = console_piped(
        &dir,
        false,
        &[
            // F1's deadline for White's first move is the clock's second; wait it out.
            (game, "", 2500),
            ("bob: /record 1\n", "", 0),
            // A second game whose abort falls after the last line: said before the run ends.
            (game, "", 2500),
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let aborted = stdout.find("Game #1 aborted").expect(&stdout);
    let record = stdout.find("Game #1, bob – alice").expect(&stdout);
    assert!(aborted < record, "the abort first:\n{stdout}");
    // The record ends with the result (" — void, …"), as a finished game's does.
    let line = stdout[record..].lines().next().unwrap_or_default();
    assert!(line.contains(" — void"), "{line}");
    assert!(
        stdout.contains("Game #2 aborted"),
        "at the input's end:\n{stdout}"
    );
}
