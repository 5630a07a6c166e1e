//! Everything a chat message can be: `ugolki_core::table::command::parse` must answer
//! (a command, move text, an error message, or "not for us") and never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ugolki_core::table::command::{looks_like_move, move_shaped, parse, Parsed};
use ugolki_core::table::Mention;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text: &str = &text;

    let _ = looks_like_move(text);

    // No mentions, as for plain text, on a platform with and without a bot @name.
    for bot in [Some("ugolki_bot"), None] {
        if let Ok(Some(Parsed::MoveText(t))) = parse(text, &[], bot) {
            // Move text is only ever plain text that looks like a move.
            assert!(!t.starts_with('/'), "move text that is a command: {t:?}");
            assert!(
                move_shaped(&t),
                "move text that does not look like one: {t:?}"
            );
        }
    }

    // The mentions an adapter would find: every `@handle` word, as the unit tests do.
    let mentions: Vec<Mention> = text
        .split_whitespace()
        .filter_map(|w| w.strip_prefix('@'))
        .filter(|w| !w.is_empty())
        .take(4)
        .map(|w| Mention::Handle(w.to_string()))
        .collect();
    let _ = parse(text, &mentions, Some("ugolki_bot"));
    let _ = parse(text, &mentions, None);
});
