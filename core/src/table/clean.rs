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

/// Look-alikes of the characters commands and moves are written in, read as those: the
/// fullwidth forms (`／help`, `ｂ３-ｄ３`, from East Asian keyboards), mathematical digits
/// (`𝟑`), and hyphens and minus signs between squares (`c3‐d3`). Borrowed when there was
/// none. Applied to what the table reads, not to names.
#[must_use]
pub fn fold_look_alikes(text: &str) -> Cow<'_, str> {
    let fold = |c: char| -> Option<char> {
        match c {
            // Fullwidth ASCII: U+FF01..U+FF5E are U+0021..U+007E shifted.
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(u32::from(c) - 0xFEE0),
            '\u{3000}' => Some(' '), // ideographic space
            // Mathematical bold, double-struck, sans-serif, monospace digits: 5 runs of 10.
            '\u{1D7CE}'..='\u{1D7FF}' => char::from_digit((u32::from(c) - 0x1D7CE) % 10, 10),
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2212}' | '\u{FE63}' => Some('-'),
            _ => None,
        }
    };
    if !text.chars().any(|c| fold(c).is_some()) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(|c| fold(c).unwrap_or(c)).collect())
}

/// Look-alikes of what a typed move is written in, read as those — for text that then
/// reads as a move only, so a name written with them (`@сarol`) stays itself: Cyrillic
/// letters that look like the files (`с3-е5` typed on a Russian keyboard; `р` for
/// Halma's p), `×` and `х` for the capture mark, and en and em dashes (a phone's autocorrection of `-`). Borrowed when there was
/// none.
#[must_use]
pub fn fold_move_look_alikes(text: &str) -> Cow<'_, str> {
    let fold = |c: char| -> Option<char> {
        Some(match c {
            'а' => 'a',
            'с' => 'c',
            'е' => 'e',
            'һ' => 'h',
            'р' => 'p',
            'А' => 'A',
            'В' => 'B',
            'С' => 'C',
            'Е' => 'E',
            'Н' => 'H',
            '×' | 'х' | 'Х' => 'x',
            '–' | '—' => '-',
            _ => return None,
        })
    };
    if !text.chars().any(|c| fold(c).is_some()) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(|c| fold(c).unwrap_or(c)).collect())
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

    #[test]
    fn look_alike_digits_and_slashes_are_read_as_ascii() {
        assert_eq!(fold_look_alikes("b３-d３"), "b3-d3");
        assert_eq!(fold_look_alikes("／help"), "/help");
        assert_eq!(fold_look_alikes("ｃ３－ｄ３"), "c3-d3");
        assert_eq!(fold_look_alikes("c𝟑\u{2010}d𝟛"), "c3-d3");
        assert_eq!(fold_look_alikes("/accept\u{3000}４"), "/accept 4");
        assert!(matches!(fold_look_alikes("Привет c3"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_moves_look_alike_letters_capture_mark_and_dashes_are_read_as_ascii() {
        assert_eq!(fold_move_look_alikes("b3-с4"), "b3-c4");
        assert_eq!(fold_move_look_alikes("С3—Е5"), "C3-E5");
        assert_eq!(fold_move_look_alikes("c3×e5×g7"), "c3xe5xg7");
        assert_eq!(fold_move_look_alikes("c3хe5"), "c3xe5");
        assert_eq!(fold_move_look_alikes("р16-о15"), "p16-о15");
        assert_eq!(fold_move_look_alikes("а1–һ8"), "a1-h8");
        assert!(matches!(fold_move_look_alikes("c3-d3"), Cow::Borrowed(_)));
    }
}
