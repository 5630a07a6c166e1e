//! Every sentence a player reads comes from the Fluent catalogue. This test reads the code
//! that builds replies (the table and the chat adapters) and fails on a string literal that
//! looks like prose for people, outside the files allowed to hold words.

use std::path::{Path, PathBuf};

/// Where words for people may be written: the catalogues, the module that renders them, and
/// the command line, whose English output is a stable contract for scripts.
/// (`bots/src/observe.rs` speaks to operators: `/health` and the metrics' descriptions;
/// `bots/src/setup.rs` too: why a start stops; and `bots/src/doctor.rs`, the operator's
/// check of a set-up.)
const ALLOWED: &[&str] = &[
    "core/locales/",
    "core/src/words/",
    "bots/src/cli/",
    "bots/src/observe.rs",
    "bots/src/setup.rs",
    "bots/src/doctor.rs",
];

/// The code that talks to players: the table, and every adapter and the outbox.
const SCANNED: &[&str] = &["core/src/table/", "bots/src/"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            // Tests may say whatever they like.
            if p.file_name().is_some_and(|n| n == "tests") {
                continue;
            }
            rust_files(&p, out);
        } else if p.file_name().is_some_and(|n| n == "tests.rs") {
            // A module's tests in a file of their own (`#[cfg(test)] mod tests;`): the same.
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The string literals of a line of code (comments left out), roughly: enough for prose.
fn literals(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'/') {
            break;
        }
        if c != '"' {
            continue;
        }
        let mut lit = String::new();
        let mut escaped = false;
        for c in chars.by_ref() {
            if escaped {
                escaped = false;
                lit.push(c);
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                break;
            } else {
                lit.push(c);
            }
        }
        out.push(lit);
    }
    out
}

/// Prose: three or more words of letters. Log messages, SQL and operator errors of the
/// process (which go to stderr, not to a chat) are not for players.
fn is_prose(lit: &str) -> bool {
    // Markup (`<p class="x">`) and format holes (`{id}`) are not words; the text between
    // them still is.
    let mut text = String::with_capacity(lit.len());
    let mut depth = 0usize;
    for c in lit.chars() {
        match c {
            '<' | '{' => depth += 1,
            '>' | '}' => depth = depth.saturating_sub(1),
            c if depth == 0 => text.push(c),
            _ => {}
        }
    }
    let words = text
        .split_whitespace()
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        .count();
    let sql = ["SELECT ", "INSERT ", "UPDATE ", "DELETE "]
        .iter()
        .any(|k| lit.trim_start().starts_with(k));
    words >= 3 && !sql && !lit.starts_with("cannot ")
}

#[test]
fn no_words_for_players_outside_the_catalogue() {
    let root = root();
    let mut files = Vec::new();
    for dir in SCANNED {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 5, "the scan found the code: {files:?}");
    let mut found = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&root).expect("inside").display().to_string();
        if ALLOWED.iter().any(|a| rel.starts_with(a)) {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("readable");
        // Logging calls and internal errors (logged, never shown: players read a generic
        // apology) may span lines: skip them until their closing parenthesis.
        let mut in_log = 0i32;
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            // A process's own errors (`Err("…")`, stopping it at start, printed on stderr)
            // are for its operator: players' refusals are `Msg` values, never strings.
            let internal = [
                "tracing::",
                "Corrupt(",
                "#[error(",
                "Err(",
                "map_err(",
                "Error::Other(",
            ];
            if internal.iter().any(|w| line.contains(w)) {
                in_log = 1;
            }
            if in_log > 0 {
                in_log += line.matches('(').count() as i32 - line.matches(')').count() as i32;
                if in_log <= 1 && line.contains(';') {
                    in_log = 0;
                }
                continue;
            }
            for lit in literals(line) {
                if is_prose(&lit) {
                    found.push(format!("{rel}:{}: \"{lit}\"", i + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "words for players belong in core/locales/*/main.ftl (a Msg), found:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_would_see_a_sentence() {
    assert!(is_prose("You have no game in this chat."));
    assert!(!is_prose("SELECT * FROM games WHERE id = ?1"));
    assert!(!is_prose("acc:{challenge}"));
    // Markup is not words; words inside markup are.
    assert!(!is_prose(
        "<p class=\"a b c\"><a href=\"/g/{id}\">{}</a></p>"
    ));
    assert!(is_prose("<p>You have no game here</p>"));
    assert_eq!(
        literals(r#"let x = "a \"b\" c"; // "not this""#),
        [r#"a "b" c"#]
    );
}
