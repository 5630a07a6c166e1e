//! Corners position text: `5bbb/5bbb/5bbb/8/8/www5/www5/www5 w 1` — the board, the side
//! to move, and the number of the move about to be played.

use super::position::Position;
use super::variant::Variant;
use crate::board_text::{format_board, parse_board, split_fields, BoardTextError};
use crate::color::Color;

impl Position {
    /// Read position text for `variant`. The move number may be left out (then 1).
    pub fn from_text(variant: &Variant, text: &str) -> Result<Position, BoardTextError> {
        let (board, fields) = split_fields(text)?;
        let pieces = parse_board(board, variant.side, &['w', 'b'])?;
        let turn = match fields.first() {
            None => return Err(BoardTextError::Missing("the side to move ('w' or 'b')")),
            Some(&"w") => Color::White,
            Some(&"b") => Color::Black,
            Some(other) => return Err(BoardTextError::BadSide(other.chars().take(20).collect())),
        };
        let move_no = match fields.get(1) {
            None => 1,
            Some(n) => n
                .parse::<u16>()
                .ok()
                .filter(|n| (1..=9999).contains(n))
                .ok_or_else(|| BoardTextError::BadMoveNumber(n.chars().take(20).collect()))?,
        };
        if let Some(extra) = fields.get(2) {
            return Err(BoardTextError::Extra(extra.chars().take(20).collect()));
        }
        let of = |c: char| -> Vec<_> {
            pieces
                .iter()
                .filter(|(_, l)| *l == c)
                .map(|(s, _)| *s)
                .collect()
        };
        Ok(Position::from_pieces(
            variant,
            &of('w'),
            &of('b'),
            turn,
            move_no,
        ))
    }

    /// Position text, as [`Position::from_text`] reads it.
    #[must_use]
    pub fn to_text(&self) -> String {
        let board = format_board(self.side(), |s| self.piece_at(s).map(Color::letter));
        format!("{board} {} {}", self.turn().letter(), self.move_number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_print_as_design_md_says() {
        let v = Variant::by_id("classic3x3").unwrap();
        assert_eq!(
            Position::start(&v).to_text(),
            "5bbb/5bbb/5bbb/8/8/www5/www5/www5 w 1"
        );
        let h = Variant::by_id("halma16").unwrap();
        assert_eq!(
            Position::start(&h).to_text(),
            "11bbbbb/11bbbbb/12bbbb/13bbb/14bb/16/16/16/16/16/16/ww14/www13/wwww12/wwwww11/wwwww11 w 1"
        );
    }

    #[test]
    fn malformed_position_text_gets_a_clear_error() {
        let v = Variant::by_id("classic3x3").unwrap();
        let err = |t: &str| Position::from_text(&v, t).unwrap_err().to_string();
        assert_eq!(err(""), "the position is empty");
        assert_eq!(
            err("8/8/8/8/8/8/8 w 1"),
            "expected 8 ranks separated by '/', found 7"
        );
        assert_eq!(
            err("9/8/8/8/8/8/8/8 w 1"),
            "rank 8 describes 9 squares, expected 8"
        );
        assert_eq!(err("7x/8/8/8/8/8/8/8 w 1"), "unknown piece letter 'x'");
        assert_eq!(
            err("7W/8/8/8/8/8/8/8 w 1"),
            "'W' is a Damas king; Corners has no kings"
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/8"),
            "missing the side to move ('w' or 'b') after the board"
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/8 x"),
            "side to move must be 'w' or 'b', not 'x'"
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/8 w 0"),
            "move number must be a number from 1 to 9999, not '0'"
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/8 w 1 z"),
            "unexpected 'z' after the position"
        );
        assert_eq!(
            err("0/8/8/8/8/8/8/8 w"),
            "an empty run of 0 squares in rank 8"
        );
        let h = Variant::by_id("halma16").unwrap();
        let e = Position::from_text(&h, &format!("{}/17 w 1", ["16"; 15].join("/"))).unwrap_err();
        assert_eq!(e.to_string(), "rank 1 describes 17 squares, expected 16");
        assert!(Position::from_text(&h, "99999999999999999999/8 w").is_err());
    }
}
