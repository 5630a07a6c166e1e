//! Damas position text, both forms of DESIGN.md: the board form
//! (`b1b1b1b1/1b1b1b1b/b1b1b1b1/8/8/1w1w1w1w/w1w1w1w1/1w1w1w1w w`) and PDN FEN with the
//! Portuguese numbers (`W:W1,2,…,12:B21,…,32`, kings prefixed `K`).

use super::position::Position;
use super::query::Piece;
use super::squares::{from_number, is_playing, number};
use crate::board_text::{
    format_board, parse_board, split_fields, BoardTextError, MAX_POSITION_TEXT,
};
use crate::color::Color;
use crate::square::Square;
use thiserror::Error;

/// Why Damas position text was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DamasTextError {
    #[error(transparent)]
    Board(#[from] BoardTextError),
    #[error("{0} is not a playing square (h1 is; a1 is not)")]
    NotPlaying(Square),
    #[error("{0} has {1} pieces; a side has at most 12")]
    TooMany(Color, usize),
    #[error("a {0} man on {1} stands on the far rank: it would be a king ('{2}')")]
    ManOnFarRank(Color, Square, char),
    #[error("FEN: {0}")]
    Fen(String),
}

impl Position {
    /// Read either form; `flying` is the table's king rule (D3).
    pub fn from_text(text: &str, flying: bool) -> Result<Position, DamasTextError> {
        let t = text.trim();
        if t.starts_with("W:") || t.starts_with("B:") || t.starts_with("[FEN") {
            return Position::from_fen(t, flying);
        }
        let (board, fields) = split_fields(t)?;
        let read = parse_board(board, 8, &['w', 'b', 'W', 'B'])?;
        let turn = match fields.first() {
            None => return Err(BoardTextError::Missing("the side to move ('w' or 'b')").into()),
            Some(&"w") => Color::White,
            Some(&"b") => Color::Black,
            Some(other) => {
                return Err(BoardTextError::BadSide(other.chars().take(20).collect()).into())
            }
        };
        if let Some(extra) = fields.get(1) {
            return Err(BoardTextError::Extra(extra.chars().take(20).collect()).into());
        }
        let pieces: Vec<(Square, Piece)> = read
            .into_iter()
            .map(|(s, c)| {
                let piece = Piece {
                    color: if c.eq_ignore_ascii_case(&'w') {
                        Color::White
                    } else {
                        Color::Black
                    },
                    king: c.is_ascii_uppercase(),
                };
                (s, piece)
            })
            .collect();
        build(&pieces, turn, flying)
    }

    /// Read PDN FEN: `W:W1,2,K3:B21-32` (side, then each side's squares; `K` marks a king;
    /// ranges `a-b` allowed; an optional `[FEN "…"]` wrapper and final `.` are accepted).
    pub fn from_fen(text: &str, flying: bool) -> Result<Position, DamasTextError> {
        if text.len() > MAX_POSITION_TEXT {
            return Err(BoardTextError::TooLong.into());
        }
        let t = text.trim();
        let t = t.strip_prefix("[FEN").map_or(t, |r| {
            r.trim().trim_end_matches(']').trim().trim_matches('"')
        });
        let t = t.trim_end_matches('.');
        let fen = |m: &str| DamasTextError::Fen(m.to_string());
        let mut fields = t.split(':');
        let turn = match fields.next().map(str::trim) {
            Some("W") => Color::White,
            Some("B") => Color::Black,
            _ => return Err(fen("it must start with the side to move, W: or B:")),
        };
        let mut pieces = Vec::new();
        for field in fields {
            let field = field.trim();
            if field.is_empty() {
                continue; // `W:` or a doubled `::` lists no pieces
            }
            let (color, list) = match field.split_at_checked(1) {
                Some(("W", rest)) => (Color::White, rest),
                Some(("B", rest)) => (Color::Black, rest),
                _ => {
                    return Err(fen(&format!(
                        "'{}' must start with W or B",
                        field.chars().take(12).collect::<String>()
                    )))
                }
            };
            for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (king, nums) = match item.strip_prefix('K') {
                    Some(rest) => (true, rest),
                    None => (false, item),
                };
                let parse = |s: &str| -> Result<u8, DamasTextError> {
                    s.trim()
                        .parse::<u8>()
                        .ok()
                        .filter(|n| (1..=32).contains(n))
                        .ok_or_else(|| {
                            fen(&format!(
                                "'{}' is not a square number 1-32",
                                s.chars().take(12).collect::<String>()
                            ))
                        })
                };
                let (a, b) = if let Some((a, b)) = nums.split_once('-') {
                    (parse(a)?, parse(b)?)
                } else {
                    let n = parse(nums)?;
                    (n, n)
                };
                for n in a.min(b)..=a.max(b) {
                    let sq = from_number(n).ok_or_else(|| fen("bad square number"))?;
                    if pieces.iter().any(|(s, _)| *s == sq) {
                        return Err(fen(&format!("square {n} is listed twice")));
                    }
                    pieces.push((sq, Piece { color, king }));
                }
            }
        }
        build(&pieces, turn, flying)
    }

    /// The board form with the side to move.
    #[must_use]
    pub fn to_text(&self) -> String {
        let board = format_board(8, |s| self.piece_at(s).map(Piece::letter));
        format!("{board} {}", self.turn().letter())
    }

    /// PDN FEN with Portuguese numbers, squares in increasing order.
    #[must_use]
    pub fn to_fen(&self) -> String {
        let mut out = String::from(if self.turn() == Color::White {
            "W"
        } else {
            "B"
        });
        for color in [Color::White, Color::Black] {
            let mut list: Vec<(u8, bool)> = self
                .pieces()
                .into_iter()
                .filter(|(_, p)| p.color == color)
                .filter_map(|(s, p)| number(s).map(|n| (n, p.king)))
                .collect();
            list.sort_unstable();
            let items: Vec<String> = list
                .iter()
                .map(|(n, k)| if *k { format!("K{n}") } else { n.to_string() })
                .collect();
            out.push(':');
            out.push(if color == Color::White { 'W' } else { 'B' });
            out.push_str(&items.join(","));
        }
        out
    }
}

fn build(
    pieces: &[(Square, Piece)],
    turn: Color,
    flying: bool,
) -> Result<Position, DamasTextError> {
    for (sq, p) in pieces {
        if !is_playing(*sq) {
            return Err(DamasTextError::NotPlaying(*sq));
        }
        let far = if p.color == Color::White { 7 } else { 0 };
        if !p.king && sq.rank == far {
            return Err(DamasTextError::ManOnFarRank(
                p.color,
                *sq,
                Piece { king: true, ..*p }.letter(),
            ));
        }
    }
    for color in [Color::White, Color::Black] {
        let n = pieces.iter().filter(|(_, p)| p.color == color).count();
        if n > 12 {
            return Err(DamasTextError::TooMany(color, n));
        }
    }
    Ok(Position::from_pieces(pieces, turn, flying))
}
