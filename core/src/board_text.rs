//! The board part of position text (DESIGN.md "Position text"), shared by both games:
//! ranks from the top down separated by `/`, a letter per piece, a number for a run of
//! empty squares (it may exceed 9 on a 16×16 board).

use crate::square::Square;
use thiserror::Error;

/// Longest position text read at all.
pub const MAX_POSITION_TEXT: usize = 1024;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardTextError {
    #[error("the position is empty")]
    Empty,
    #[error("the position text is too long")]
    TooLong,
    #[error("expected {expected} ranks separated by '/', found {found}")]
    RankCount { found: usize, expected: usize },
    #[error("rank {rank} describes {found} squares, expected {expected}")]
    RankLength {
        rank: usize,
        found: usize,
        expected: usize,
    },
    #[error("unknown piece letter '{0}'")]
    UnknownPiece(char),
    #[error("'{0}' is a Damas king; Corners has no kings")]
    KingInCorners(char),
    #[error("an empty run of 0 squares in rank {0}")]
    ZeroRun(usize),
    #[error("missing {0} after the board")]
    Missing(&'static str),
    #[error("side to move must be 'w' or 'b', not '{0}'")]
    BadSide(String),
    #[error("move number must be a number from 1 to 9999, not '{0}'")]
    BadMoveNumber(String),
    #[error("unexpected '{0}' after the position")]
    Extra(String),
}

/// Read a board of side `side`; `letters` are the piece letters the game knows. Returns the
/// occupied squares with their letters, in a1, b1, … order.
pub fn parse_board(
    text: &str,
    side: u8,
    letters: &[char],
) -> Result<Vec<(Square, char)>, BoardTextError> {
    let side_n = usize::from(side);
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != side_n {
        return Err(BoardTextError::RankCount {
            found: ranks.len(),
            expected: side_n,
        });
    }
    let mut out = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank_no = side_n - i; // rank name as printed, top rank first
        let mut file = 0usize;
        let mut chars = rank_text.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut run = c.to_digit(10).unwrap_or(0) as usize;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    chars.next();
                    // Saturate: any run this long is reported as a wrong rank length.
                    run = (run * 10 + d as usize).min(10_000);
                }
                if run == 0 {
                    return Err(BoardTextError::ZeroRun(rank_no));
                }
                file += run;
            } else if letters.contains(&c) {
                if file < side_n {
                    out.push((Square::new(file as u8, (rank_no - 1) as u8), c));
                }
                file += 1;
            } else if matches!(c, 'W' | 'B') {
                return Err(BoardTextError::KingInCorners(c));
            } else {
                return Err(BoardTextError::UnknownPiece(c));
            }
        }
        if file != side_n {
            return Err(BoardTextError::RankLength {
                rank: rank_no,
                found: file,
                expected: side_n,
            });
        }
    }
    out.sort_by_key(|(s, _)| s.index(side));
    Ok(out)
}

/// Write a board of side `side`; `piece` names the letter on a square, if any.
pub fn format_board(side: u8, piece: impl Fn(Square) -> Option<char>) -> String {
    let mut out = String::with_capacity(usize::from(side) * (usize::from(side) + 1));
    for rank in (0..side).rev() {
        let mut run = 0;
        for file in 0..side {
            match piece(Square::new(file, rank)) {
                Some(c) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(c);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Split position text into the board and the remaining fields, checking its length.
pub fn split_fields(text: &str) -> Result<(&str, Vec<&str>), BoardTextError> {
    if text.len() > MAX_POSITION_TEXT {
        return Err(BoardTextError::TooLong);
    }
    let mut fields = text.split_whitespace();
    let board = fields.next().ok_or(BoardTextError::Empty)?;
    Ok((board, fields.collect()))
}
