//! What the rest of the program asks of a Damas position: pieces, sorted legal moves,
//! checked play.

use super::moves::{IllegalMove, Move};
use super::position::Position;
use super::squares::is_playing;
use crate::color::Color;
use crate::square::Square;

/// A Damas piece: a man or a king of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub king: bool,
}

impl Piece {
    /// The letter of position text: `w`, `b` men, `W`, `B` kings.
    #[must_use]
    pub fn letter(self) -> char {
        match (self.color, self.king) {
            (Color::White, false) => 'w',
            (Color::Black, false) => 'b',
            (Color::White, true) => 'W',
            (Color::Black, true) => 'B',
        }
    }
}

impl Position {
    /// A position from pieces (squares must be playing squares; others are ignored).
    #[must_use]
    pub fn from_pieces(pieces: &[(Square, Piece)], turn: Color, flying: bool) -> Position {
        let mut p = Position {
            pieces: [0, 0],
            kings: 0,
            turn,
            flying,
        };
        for (sq, piece) in pieces.iter().filter(|(s, _)| is_playing(*s)) {
            let b = 1u64 << sq.index(8);
            p.pieces[piece.color.index()] |= b;
            if piece.king {
                p.kings |= b;
            }
        }
        p
    }

    /// The same position with the other king rule.
    #[must_use]
    pub fn with_flying(mut self, flying: bool) -> Position {
        self.flying = flying;
        self
    }

    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if !sq.is_on(8) {
            return None;
        }
        let b = 1u64 << sq.index(8);
        let king = self.kings & b != 0;
        if self.pieces[0] & b != 0 {
            Some(Piece {
                color: Color::White,
                king,
            })
        } else if self.pieces[1] & b != 0 {
            Some(Piece {
                color: Color::Black,
                king,
            })
        } else {
            None
        }
    }

    /// Every piece with its square, in a1, b1, … order.
    #[must_use]
    pub fn pieces(&self) -> Vec<(Square, Piece)> {
        (0..64)
            .map(|i| Square::from_index(i, 8))
            .filter_map(|s| self.piece_at(s).map(|p| (s, p)))
            .collect()
    }

    /// Every legal move, sorted by (from, to) in square order, then by path.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.generate(&mut out);
        out.sort_by_key(Move::sort_key);
        out
    }

    /// Every complete capture before the laws of quantity and quality (for explaining why a
    /// capture is refused).
    #[must_use]
    pub fn all_captures(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.captures_unfiltered(&mut out);
        out
    }

    #[must_use]
    pub fn has_legal_moves(&self) -> bool {
        let mut buf = Vec::new();
        self.count_legal(&mut buf) > 0
    }

    #[must_use]
    pub fn count_moves(&self) -> u64 {
        let mut buf = Vec::new();
        self.count_legal(&mut buf)
    }

    /// The position after `mv` if it is legal here.
    pub fn play(&self, mv: &Move) -> Result<Position, IllegalMove> {
        if self.legal_moves().contains(mv) {
            Ok(self.play_unchecked(mv))
        } else {
            Err(IllegalMove::NotAMove(mv.from(), mv.to()))
        }
    }
}
