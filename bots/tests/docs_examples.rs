//! The examples in the README and the guides, run as written: every `ugolki …` line of a
//! `sh` block that names no placeholder and needs no token, and every `chat` block as a
//! console script. A guide whose example stops working fails here.

use std::path::{Path, PathBuf};
use std::process::Command;
use ugolki_core::words::{english, Msg};

/// The `ugolki` binary run with `args`, the tokens of the environment left out: its exit
/// code and standard output.
fn ugolki(args: &[String]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ugolki"))
        .args(args)
        .env_remove("TELOXIDE_TOKEN")
        .env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL")
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A folder of the test's own.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ugolki-docs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    dir
}

/// The README and the guides.
fn documents() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = vec![root.join("README.md")];
    let mut guides: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    guides.sort();
    paths.extend(guides);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            (p, text)
        })
        .collect()
}

/// The lines of every fenced block of `lang` in `text`.
fn blocks(text: &str, lang: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in text.lines() {
        let fence = line.trim_start();
        match &mut current {
            None if fence == format!("```{lang}") => current = Some(Vec::new()),
            Some(_) if fence.starts_with("```") => out.extend(current.take()),
            Some(lines) => lines.push(fence.to_string()),
            None => {}
        }
    }
    out
}

/// A command that can run here as written: `ugolki` with no placeholder (`ID`, `[…]`,
/// `…`, `A|B`) and no token in front of it. Its arguments, a trailing comment dropped.
fn runnable(line: &str) -> Option<Vec<String>> {
    let line = line.split(" # ").next()?.trim();
    let rest = line.strip_prefix("ugolki ")?;
    let placeholder = |w: &str| {
        w.contains(['[', ']', '|', '…'])
            || (!w.is_empty() && w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
    };
    let words: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
    (!words.iter().any(|w| placeholder(w))).then_some(words)
}

#[test]
fn every_runnable_command_in_the_guides_succeeds() {
    let dir = folder("examples");
    let mut ran = Vec::new();
    for (path, text) in documents() {
        for block in blocks(&text, "sh") {
            for line in block {
                let Some(mut args) = runnable(&line) else {
                    continue;
                };
                // Files the example writes go to a folder of the test's own.
                for i in 1..args.len() {
                    if matches!(args[i - 1].as_str(), "--out" | "--db" | "--boards") {
                        args[i] = dir.join(&args[i]).display().to_string();
                    }
                }
                let (code, _, err) = ugolki(&args);
                assert_eq!(code, 0, "{}: `{line}`: {err}", path.display());
                ran.push(line);
            }
        }
    }
    // The operators' guide's examples at least: the test is not vacuous.
    assert!(ran.len() >= 6, "{ran:#?}");
    assert!(
        ran.iter().any(|l| l.starts_with("ugolki doctor")),
        "{ran:#?}"
    );
}

#[test]
fn the_console_sessions_in_the_guides_play_as_shown() {
    let dir = folder("sessions");
    let mut sessions = 0;
    for (path, text) in documents() {
        for (n, block) in blocks(&text, "chat").into_iter().enumerate() {
            let script = dir.join(format!("session-{n}.txt"));
            std::fs::write(&script, block.join("\n") + "\n").expect("written");
            let db = dir.join(format!("session-{n}.db"));
            let boards = dir.join(format!("boards-{n}"));
            let path_of = |p: &Path| p.display().to_string();
            let args = [
                "console".to_string(),
                "--script".into(),
                path_of(&script),
                "--db".into(),
                path_of(&db),
                "--boards".into(),
                path_of(&boards),
            ];
            let (code, stdout, err) = ugolki(&args);
            assert_eq!(code, 0, "{}: {err}", path.display());
            sessions += 1;
            if block.iter().any(|l| l.ends_with("[Accept draw]")) {
                let agreed = english(&Msg::DrawAgreed { id: 1 });
                assert!(stdout.contains(&agreed), "{stdout}");
            }
        }
    }
    assert!(sessions >= 1);
}
