//! Move text shared by both games: reading the squares of a typed move.
//!
//! Players type moves in many shapes (`c3-e5`, `c3 e5`, `C3E5`, `c3:e5`, `c3xe5`); this
//! module turns any of them into the list of squares named. Which move that means is the
//! game's business (`corners::notation`, `damas::notation`).

use crate::square::Square;

/// Longest move text read at all; anything longer is refused before parsing.
pub const MAX_MOVE_TEXT: usize = 256;

/// Why a text is not a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveTextError {
    Empty,
    TooLong,
    BadSquare(String),
    OneSquare,
}

/// The squares of a typed move, and whether the player marked it as a capture (`x`, `:`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveText {
    pub squares: Vec<Square>,
    pub capture_marked: bool,
}

fn is_separator(c: char) -> bool {
    matches!(c, '-' | ':' | 'x' | 'X' | '–' | '—' | ',') || c.is_whitespace()
}

/// Read the squares of a move. Squares may be separated by `-`, `:`, `x`, spaces, or nothing.
pub fn read_squares(text: &str) -> Result<MoveText, MoveTextError> {
    if text.len() > MAX_MOVE_TEXT {
        return Err(MoveTextError::TooLong);
    }
    let text = text.trim();
    if text.is_empty() {
        return Err(MoveTextError::Empty);
    }
    let capture_marked = text.contains([':', 'x', 'X']);
    let mut squares = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if is_separator(c) {
            rest = &rest[c.len_utf8()..];
            continue;
        }
        // A square: one letter, then the digits that follow it.
        let letter_len = c.len_utf8();
        let digits = rest[letter_len..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let end = letter_len + digits;
        let token = &rest[..end.max(letter_len)];
        if let Some(s) = Square::parse(token) {
            squares.push(s);
        } else {
            let word: String = rest
                .chars()
                .take_while(|c| !is_separator(*c))
                .take(12)
                .collect();
            return Err(MoveTextError::BadSquare(word));
        }
        rest = &rest[end.max(letter_len)..];
    }
    match squares.len() {
        0 => Err(MoveTextError::Empty),
        1 => Err(MoveTextError::OneSquare),
        _ => Ok(MoveText {
            squares,
            capture_marked,
        }),
    }
}

/// Join squares with a separator: `c3-e3-e5`, `c3xe5xg7`.
pub fn join_path(path: &[Square], sep: &str) -> String {
    let mut out = String::with_capacity(path.len() * 4);
    for (i, s) in path.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(&s.to_string());
    }
    out
}

/// A paired record (C3, C4): `1. c3-d3 f6-e6 2. d3-e3`. `first_move` numbers the first
/// move; `black_first` starts with Black's half (`1... f6-e6`).
#[must_use]
pub fn paired_record(moves: &[String], first_move: u32, black_first: bool) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let mut number = first_move;
    let mut white_turn = !black_first;
    for (i, m) in moves.iter().enumerate() {
        if white_turn {
            if i > 0 {
                out.push(' ');
            }
            let _ = write!(out, "{number}. ");
        } else if i == 0 {
            let _ = write!(out, "{number}... ");
        } else {
            out.push(' ');
        }
        out.push_str(m);
        if !white_turn {
            number += 1;
        }
        white_turn = !white_turn;
    }
    out
}

/// Split a record (`1. c3-d3 f6-e6 2. …`, bare moves, or PDN) into move texts: move
/// numbers (`12.`, `12...`), result marks (`1-0`, `0-1`, `1/2-1/2`, `*`), PDN tag lines
/// (`[Event "…"]`) and `{comments}` are skipped. A chat's `/record` reply reads too:
/// its heading (`Game #3, alice – bob, classic 3×3:`, in any language) up to the colon
/// before the first move number, and its result after ` — `, are skipped.
#[must_use]
pub fn record_moves(record: &str) -> Vec<&str> {
    record
        .lines()
        .filter(|line| !line.trim_start().starts_with('['))
        .flat_map(|line| {
            let words: Vec<&str> = line
                .split('{')
                .map(|part| part.rsplit('}').next().unwrap_or(""))
                .flat_map(str::split_whitespace)
                // A `/record` reply's result follows a dash no move is written with.
                .take_while(|w| *w != "—")
                .collect();
            // A `/record` reply's heading ends in a colon just before the first number.
            let heading = words
                .windows(2)
                .position(|w| w[0].ends_with(':') && move_number(w[1]))
                .map_or(0, |i| i + 1);
            words.into_iter().skip(heading)
        })
        .filter_map(|tok| {
            let bare = tok.trim_end_matches('.');
            if bare.chars().all(|c| c.is_ascii_digit()) && bare != tok {
                return None; // a move number
            }
            if let Some((n, rest)) = tok.split_once('.') {
                if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) {
                    let rest = rest.trim_start_matches('.');
                    return (!rest.is_empty()).then_some(rest); // `12.c3-d3`
                }
            }
            if matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*") {
                return None;
            }
            Some(tok)
        })
        .collect()
}

/// Whether `word` starts with a move number: `12.`, `12...`, `12.c3-d3`.
fn move_number(word: &str) -> bool {
    word.split_once('.')
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A game as PDN: the seven-tag start (event, players, result), then `tags` (a game type, a
/// variant, a `FEN`), then the paired `moves` and the result. Quotes, backslashes and line
/// breaks are taken out of tag values, so no name can end a tag early.
#[must_use]
pub fn pdn(white: &str, black: &str, result: &str, tags: &[(&str, &str)], moves: &str) -> String {
    use std::fmt::Write as _;
    let clean = |s: &str| s.replace(['"', '\\', '\n', '\r'], "");
    let mut out = String::new();
    let _ = writeln!(out, "[Event \"ugolki\"]");
    let _ = writeln!(out, "[White \"{}\"]", clean(white));
    let _ = writeln!(out, "[Black \"{}\"]", clean(black));
    let _ = writeln!(out, "[Result \"{result}\"]");
    for (tag, value) in tags {
        let _ = writeln!(out, "[{tag} \"{}\"]", clean(value));
    }
    let sep = if moves.is_empty() { "" } else { " " };
    let _ = writeln!(out, "{moves}{sep}{result}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn c3_forgiving_input_shapes_all_read_the_same() {
        for text in [
            "c3-e5",
            "c3 e5",
            "C3E5",
            "c3:e5",
            "  c3 - e5 ",
            "c3–e5",
            "c3xe5",
        ] {
            assert_eq!(
                read_squares(text).unwrap().squares,
                vec![sq("c3"), sq("e5")],
                "{text}"
            );
        }
        assert_eq!(
            read_squares("a16b3p1").unwrap().squares,
            vec![sq("a16"), sq("b3"), sq("p1")]
        );
    }

    #[test]
    fn bad_move_text_gets_a_specific_error() {
        assert_eq!(read_squares(""), Err(MoveTextError::Empty));
        assert_eq!(read_squares(" - "), Err(MoveTextError::Empty));
        assert_eq!(read_squares("c3"), Err(MoveTextError::OneSquare));
        assert_eq!(
            read_squares("c3-z9"),
            Err(MoveTextError::BadSquare("z9".into()))
        );
        assert_eq!(
            read_squares("hello"),
            Err(MoveTextError::BadSquare("hello".into()))
        );
        assert_eq!(
            read_squares(&"c3-".repeat(200)),
            Err(MoveTextError::TooLong)
        );
        assert!(matches!(
            read_squares("c3-é5"),
            Err(MoveTextError::BadSquare(_))
        ));
    }
}
