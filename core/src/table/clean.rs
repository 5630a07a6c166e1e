//! Text from a chat, made safe to read and to echo: characters that display as nothing or
//! reorder what follows (zero-width, bidi controls, soft hyphens), terminal escape
//! sequences and other control characters are removed before the table reads a word. So
//! `/chal\u{200B}lenge` is `/challenge`, as it looks, and no reply repeats them.

use std::borrow::Cow;

/// Characters that change how text displays without showing themselves.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' // soft hyphen
        | '\u{034F}' // combining grapheme joiner
        | '\u{061C}' // Arabic letter mark
        | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' // Hangul fillers
        | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}' // zero-width space, joiners, LRM, RLM
        | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
        | '\u{2060}'..='\u{206F}' // word joiner, invisible operators, bidi isolates
        | '\u{FE00}'..='\u{FE0F}' // variation selectors
        | '\u{FEFF}' // byte order mark
        | '\u{FFF9}'..='\u{FFFB}'
        | '\u{E0000}'..='\u{E007F}' // tags
    )
}

/// The text without invisible characters, escape sequences and control characters (a tab
/// or a line break becomes a space, a carriage return is dropped). Borrowed when there was
/// nothing to remove.
#[must_use]
pub fn clean(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| invisible(c) || (c.is_control() && c != ' '))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1B}' {
            // ESC [ … final byte (CSI), ESC ] … BEL or ESC \ (OSC), or ESC + one character.
            match chars.peek() {
                Some('[') => {
                    chars.next();
                    for d in chars.by_ref() {
                        if ('\u{40}'..='\u{7E}').contains(&d) {
                            break;
                        }
                    }
                }
                Some(']') => {
                    chars.next();
                    while let Some(d) = chars.next() {
                        if d == '\u{07}' || (d == '\u{1B}' && chars.next_if_eq(&'\\').is_some()) {
                            break;
                        }
                    }
                }
                Some(_) => {
                    chars.next();
                }
                None => {}
            }
            continue;
        }
        if c == '\r' {
            // Dropped, never a break: `\r\n` is one line break, and a stray CR inside a
            // word (`/ac\rcept`) does not split it.
            continue;
        }
        if matches!(c, '\t' | '\n') {
            out.push(' ');
        } else if !(invisible(c) || c.is_control()) {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_and_control_characters_are_removed() {
        assert_eq!(clean("/chal\u{200B}lenge @bob"), "/challenge @bob");
        assert_eq!(clean("c3\u{202E}-d3\u{2069}"), "c3-d3");
        assert_eq!(clean("\u{1B}[31m/help\u{1B}[0m"), "/help");
        assert_eq!(clean("\u{1B}]0;title\u{07}/games"), "/games");
        assert_eq!(clean("a\u{0}b\u{7F}c\u{85}d"), "abcd");
        assert_eq!(clean("two\tlines\nhere"), "two lines here");
        // A carriage return is dropped: CRLF is one break, and a CR splits no word.
        assert_eq!(clean("/ac\rcept"), "/accept");
        assert_eq!(clean("one\r\ntwo"), "one two");
        assert_eq!(
            clean("\u{FEFF}сarol"),
            "сarol",
            "letters of any script stay"
        );
        assert!(matches!(clean("plain c3-d3"), Cow::Borrowed(_)));
    }
}
