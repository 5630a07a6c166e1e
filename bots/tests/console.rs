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
        "bot: alice challenges bob: Corners, classic 3×4 · 3+2 · rated (they take White) — challenge #1.",
        "bot: Game #1: alice (White) vs bob (Black)",
        "bot: alice played d3-e3.",
        "bot: bob played e6-e5.",
        "bot: Not your turn.",
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
