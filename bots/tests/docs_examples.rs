//! The examples in the README and the guides, run as written: every `ugolki …` line of a
//! `sh` block that names no placeholder and needs no token, and every `chat` block as a
//! console script. The commands that cannot run here (placeholders, tokens) are checked
//! against the binary's `--help`: their subcommands and flags exist. A guide whose example
//! stops working fails here.

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
            // A tournament shown is played to its end.
            if block.iter().any(|l| l.contains("/tournament ")) {
                let over = english(&Msg::TournamentOver {
                    id: 1,
                    winner: "ann".into(),
                });
                assert!(stdout.contains(&over), "{stdout}");
            }
            if block.iter().any(|l| l.ends_with("[Accept draw]")) {
                // The session's first games are numbered from 1.
                let agreed = (1..=9).any(|id| stdout.contains(&english(&Msg::DrawAgreed { id })));
                assert!(agreed, "{stdout}");
            }
        }
    }
    assert!(sessions >= 1);
}

/// What `ugolki ARGS --help` lists: its subcommands' names (for no `ARGS`) or its flags.
fn listed(args: &[&str], subcommands: bool) -> Vec<String> {
    let mut args: Vec<String> = args.iter().map(|a| (*a).to_string()).collect();
    args.push("--help".into());
    let (code, out, err) = ugolki(&args);
    assert_eq!(code, 0, "{args:?}: {err}");
    if subcommands {
        // clap's "Commands:" section: two spaces, the name, its description.
        out.lines()
            .skip_while(|l| !l.starts_with("Commands:"))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .collect()
    } else {
        out.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| w.starts_with("--"))
            .map(|w| w.split(['=', '<', '[']).next().unwrap_or(w).to_string())
            .collect()
    }
}

/// Every command the documents show, placeholders and all: the lines of `sh` blocks and the
/// inline code spans of the prose (which may break across lines), each cut at `&&` and at a
/// trailing comment: those that start with `ugolki` (or `cargo run … --`), from there on.
fn commands_shown(text: &str) -> Vec<Vec<String>> {
    let mut pieces: Vec<String> = blocks(text, "sh").into_iter().flatten().collect();
    let mut prose = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            prose.push_str(line);
            prose.push(' ');
        }
    }
    pieces.extend(prose.split('`').skip(1).step_by(2).map(str::to_string));
    let mut out = Vec::new();
    for piece in pieces {
        let piece = piece.split(" # ").next().unwrap_or_default();
        for part in piece.split("&&") {
            let words: Vec<&str> = part.split_whitespace().collect();
            // Variables set in front (`DISCORD_TOKEN=… ugolki discord`) are not words of it.
            let lead = words.iter().take_while(|w| w.contains('=')).count();
            let start = match words.get(lead) {
                Some(&"ugolki") => Some(lead + 1),
                Some(&"cargo") => words.iter().position(|w| *w == "--").map(|i| i + 1),
                _ => None,
            };
            if let Some(start) = start.filter(|s| *s < words.len()) {
                out.push(words[start..].iter().map(|w| (*w).to_string()).collect());
            }
        }
    }
    out
}

/// The commands shown with placeholders (`ID`, `[--flip]`, `TELOXIDE_TOKEN=… ugolki …`)
/// cannot be run here, but they cannot go stale either: each names a subcommand the binary
/// has, and every flag it shows is one that subcommand takes.
#[test]
fn every_command_shown_names_a_subcommand_and_flags_that_exist() {
    let subcommands = listed(&[], true);
    assert!(
        subcommands.iter().any(|s| s == "telegram"),
        "{subcommands:?}"
    );
    let mut flags = std::collections::HashMap::new();
    let mut checked = 0;
    for (path, text) in documents() {
        for words in commands_shown(&text) {
            let sub = words[0].as_str();
            // `ugolki` as a word of prose (`ugolki-bots`, `ugolki's`) is not a command.
            if !sub.chars().all(|c| c.is_ascii_lowercase()) || sub.len() < 3 {
                continue;
            }
            assert!(
                subcommands.iter().any(|s| s == sub),
                "{}: `ugolki {}`: no subcommand {sub}",
                path.display(),
                words.join(" ")
            );
            let known = flags
                .entry(sub.to_string())
                .or_insert_with(|| listed(&[sub], false));
            for w in &words[1..] {
                let w = w.trim_start_matches(['[', '(']);
                let Some(flag) = w.strip_prefix("--").map(|f| {
                    f.split(['=', ']', ')', ',', '|'])
                        .next()
                        .unwrap_or(f)
                        .to_string()
                }) else {
                    continue;
                };
                if flag.is_empty() {
                    continue;
                }
                assert!(
                    known.iter().any(|k| k.trim_start_matches("--") == flag),
                    "{}: `ugolki {}`: {sub} takes no --{flag} ({known:?})",
                    path.display(),
                    words.join(" ")
                );
            }
            checked += 1;
        }
    }
    // The synopsis and the set-up steps at least.
    assert!(checked >= 20, "only {checked} commands checked");
}
