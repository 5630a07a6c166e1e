//! Damas move text (D7): `d3-e4`, `d3xf5xh7`, `d3:f5`, start and end only when one legal
//! capture matches, and the Portuguese numbers (`11-15`, `11x18`).

use super::moves::{IllegalMove, Move, MAX_HOPS};
use super::position::Position;
use super::squares::{from_number, is_playing, number};
use crate::notation::{read_squares, MoveTextError, MAX_MOVE_TEXT};
use crate::square::Square;

/// Why a typed Damas move is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    pub text: String,
    pub kind: MoveErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveErrorKind {
    Text(MoveTextError),
    BadNumber(String),
    Illegal(IllegalMove),
}

/// Read the squares of a move, algebraic or numeric.
fn read(text: &str) -> Result<Vec<Square>, MoveErrorKind> {
    if text.len() > MAX_MOVE_TEXT {
        return Err(MoveErrorKind::Text(MoveTextError::TooLong));
    }
    let t = text.trim();
    let numeric = !t.is_empty()
        && t.chars().any(|c| c.is_ascii_digit())
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | 'x' | 'X' | ':' | ' '));
    if !numeric {
        return read_squares(t)
            .map(|r| r.squares)
            .map_err(MoveErrorKind::Text);
    }
    let mut squares = Vec::new();
    for tok in t.split(['-', 'x', 'X', ':', ' ']).filter(|s| !s.is_empty()) {
        let sq = tok
            .parse::<u8>()
            .ok()
            .and_then(from_number)
            .ok_or_else(|| MoveErrorKind::BadNumber(tok.chars().take(8).collect()))?;
        squares.push(sq);
    }
    if squares.len() < 2 {
        return Err(MoveErrorKind::Text(MoveTextError::OneSquare));
    }
    Ok(squares)
}

/// The squares a typed Damas move names (algebraic or Portuguese numbers), if it reads.
#[must_use]
pub fn typed_squares(text: &str) -> Option<Vec<Square>> {
    read(text).ok()
}

/// Find the legal move `text` names in `pos`. A full capture path may list the landing
/// squares in any order that is a legal capture of the same pieces; it is kept as typed.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let error = |kind| MoveError {
        text: text.trim().chars().take(60).collect(),
        kind,
    };
    let squares = read(text).map_err(error)?;
    let illegal = |e| error(MoveErrorKind::Illegal(e));
    if let Some(s) = squares.iter().find(|s| !is_playing(**s)) {
        return Err(illegal(IllegalMove::NotPlaying(*s)));
    }
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    match pos.piece_at(from) {
        Some(p) if p.color == pos.turn() => {}
        _ => return Err(illegal(IllegalMove::NoPieceOfYours(from))),
    }
    let legal = pos.legal_moves();
    if squares.len() == 2 {
        let candidates: Vec<&Move> = legal
            .iter()
            .filter(|m| m.from() == from && m.to() == to)
            .collect();
        return match candidates.as_slice() {
            [one] => Ok(**one),
            [] => Err(illegal(diagnose(pos, &legal, from, to, None))),
            many => {
                let list: Vec<String> = many.iter().map(ToString::to_string).collect();
                Err(illegal(IllegalMove::Ambiguous(list)))
            }
        };
    }
    let captured = walk_path(pos, &squares).map_err(illegal)?;
    match legal
        .iter()
        .find(|m| m.from() == from && m.to() == to && m.captured == captured)
    {
        Some(m) => {
            let mut typed = *m;
            for (i, s) in squares[1..].iter().enumerate() {
                typed.path[i] = s.index(8) as u8;
            }
            Ok(typed)
        }
        None => Err(illegal(diagnose(pos, &legal, from, to, Some(captured)))),
    }
}

/// Follow a typed capture path hop by hop; returns the pieces it takes.
fn walk_path(pos: &Position, squares: &[Square]) -> Result<u64, IllegalMove> {
    let from = squares[0];
    let me = pos.turn();
    let mover = pos
        .piece_at(from)
        .ok_or(IllegalMove::NoPieceOfYours(from))?;
    if squares.len() - 1 > MAX_HOPS {
        return Err(IllegalMove::NotAMove(from, squares[squares.len() - 1]));
    }
    let occupied = |s: Square| s != from && pos.piece_at(s).is_some();
    let mut taken = 0u64;
    for hop in squares.windows(2) {
        let (a, b) = (hop[0], hop[1]);
        let df = i16::from(b.file) - i16::from(a.file);
        let dr = i16::from(b.rank) - i16::from(a.rank);
        if df.abs() != dr.abs() || df == 0 {
            return Err(IllegalMove::NotAMove(a, b));
        }
        let forward = if me == crate::color::Color::White {
            dr > 0
        } else {
            dr < 0
        };
        // A man that reached the far rank in this capture was crowned there, and stopped.
        let far = if me == crate::color::Color::White {
            7
        } else {
            0
        };
        if !mover.king && a != from && a.rank == far {
            return Err(IllegalMove::Crowned(a));
        }
        if !mover.king && !forward {
            return Err(IllegalMove::Backward);
        }
        let dist = df.abs();
        if (!mover.king || !pos.flying()) && dist != 2 {
            return Err(IllegalMove::NotAMove(a, b));
        }
        if occupied(b) {
            return Err(IllegalMove::Occupied(b));
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let mut victim = None;
        for k in 1..dist {
            let s = Square::new(
                (i16::from(a.file) + sf * k) as u8,
                (i16::from(a.rank) + sr * k) as u8,
            );
            if !occupied(s) {
                continue;
            }
            let bit = 1u64 << s.index(8);
            if taken & bit != 0 {
                return Err(IllegalMove::TakenTwice(s));
            }
            match pos.piece_at(s) {
                Some(p) if p.color != me && victim.is_none() => victim = Some(bit),
                _ => return Err(IllegalMove::NothingToTake(a, b)),
            }
        }
        taken |= victim.ok_or(IllegalMove::NothingToTake(a, b))?;
    }
    Ok(taken)
}

/// Why no legal move goes `from`→`to` (taking `captured`, when a path was typed).
fn diagnose(
    pos: &Position,
    legal: &[Move],
    from: Square,
    to: Square,
    captured: Option<u64>,
) -> IllegalMove {
    if to != from && pos.piece_at(to).is_some() {
        return IllegalMove::Occupied(to);
    }
    if let Some(best) = legal.iter().find(|m| m.is_capture()) {
        let raw = pos.all_captures();
        let mine = raw.iter().filter(|m| {
            m.from() == from && m.to() == to && captured.is_none_or(|c| c == m.captured)
        });
        let fewest = mine.map(|m| (m.capture_count(), m.kings_taken())).max();
        return match fewest {
            Some((n, _)) if n < best.capture_count() => IllegalMove::Quantity(best.capture_count()),
            Some(_) => IllegalMove::Quality(best.kings_taken(), best.capture_count()),
            None if captured.is_some() => IllegalMove::Quantity(best.capture_count()),
            // A capture typed as its first hop only, where it must go on (D4).
            None if walk_path(pos, &[from, to]).is_ok_and(|taken| taken != 0) => {
                IllegalMove::Quantity(best.capture_count())
            }
            None => IllegalMove::CaptureCompulsory,
        };
    }
    if let Some(piece) = pos.piece_at(from) {
        let forward = if piece.color == crate::color::Color::White {
            to.rank > from.rank
        } else {
            to.rank < from.rank
        };
        if !piece.king && !forward {
            return IllegalMove::Backward;
        }
    }
    IllegalMove::NotAMove(from, to)
}

/// A move in Portuguese numbers: `11-15`, `11x18x25`.
#[must_use]
pub fn numeric(mv: &Move) -> String {
    let sep = if mv.is_capture() { "x" } else { "-" };
    mv.path()
        .iter()
        .filter_map(|s| number(*s))
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}
