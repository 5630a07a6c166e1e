//! The public Corners position: an immutable value over the bitboard engine of `board.rs`,
//! on a `u64` for 8×8 boards and a `U256` for 16×16.

use super::board::{Board, Rules};
use super::moves::{IllegalMove, Move};
use super::variant::{Directions, Variant};
use crate::bits::{Bits, U256};
use crate::color::Color;
use crate::square::Square;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Inner {
    Small(Board<u64>),
    Large(Board<U256>),
}

/// A Corners position: pieces, side to move, number of the move about to be played, and the
/// variant's rules. Immutable; [`Position::play`] returns the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position(Inner);

/// The part of a position that repetition compares (C7): the board and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RepetitionKey(Inner);

macro_rules! with_board {
    ($pos:expr, $b:ident => $e:expr) => {
        match &$pos.0 {
            Inner::Small($b) => $e,
            Inner::Large($b) => $e,
        }
    };
}

fn mask<B: Bits>(squares: &[Square], side: u8) -> B {
    squares
        .iter()
        .fold(B::EMPTY, |m, s| m | B::bit(s.index(side)))
}

fn rules<B: Bits>(v: &Variant) -> Rules<B> {
    Rules {
        home: [mask(&v.white_home, v.side), mask(&v.black_home(), v.side)],
        diagonal: v.directions == Directions::Eight,
        no_blocking: v.blocking_forbidden,
        deadline: v.deadline.unwrap_or(0),
        limit: v.limit.unwrap_or(0),
        target_lock: v.target_lock,
        solo: v.solo,
    }
}

fn board<B: Bits>(
    v: &Variant,
    white: &[Square],
    black: &[Square],
    turn: Color,
    move_no: u16,
) -> Board<B> {
    Board {
        pieces: [mask(white, v.side), mask(black, v.side)],
        turn,
        move_no,
        rules: rules(v),
    }
}

fn squares_of<B: Bits>(set: B) -> Vec<Square> {
    set.squares()
        .map(|i| Square::from_index(i, B::WIDTH))
        .collect()
}

impl Position {
    /// The start position of `variant`: both homes full, White to play move 1.
    #[must_use]
    pub fn start(variant: &Variant) -> Position {
        let black = if variant.solo {
            Vec::new()
        } else {
            variant.black_home()
        };
        Position::from_pieces(variant, &variant.white_home, &black, Color::White, 1)
    }

    /// A position from piece lists. Squares off the board are ignored; callers check them
    /// (position text does, with a message).
    #[must_use]
    pub fn from_pieces(
        variant: &Variant,
        white: &[Square],
        black: &[Square],
        turn: Color,
        move_no: u16,
    ) -> Position {
        let on = |v: &[Square]| -> Vec<Square> {
            v.iter()
                .copied()
                .filter(|s| s.is_on(variant.side))
                .collect()
        };
        let (white, black) = (on(white), on(black));
        Position(if variant.side <= 8 {
            Inner::Small(board(variant, &white, &black, turn, move_no))
        } else {
            Inner::Large(board(variant, &white, &black, turn, move_no))
        })
    }

    /// Board side: 8 or 16.
    #[must_use]
    pub fn side(&self) -> u8 {
        match self.0 {
            Inner::Small(_) => 8,
            Inner::Large(_) => 16,
        }
    }

    #[must_use]
    pub fn turn(&self) -> Color {
        with_board!(self, b => b.turn)
    }

    /// The number of the move about to be played (C4): 1 at the start, 2 after Black's first.
    #[must_use]
    pub fn move_number(&self) -> u16 {
        with_board!(self, b => b.move_no)
    }

    /// The deadline (C6) and limit (C7) in force, if any.
    #[must_use]
    pub fn deadline(&self) -> Option<u16> {
        with_board!(self, b => (b.rules.deadline != 0).then_some(b.rules.deadline))
    }

    #[must_use]
    pub fn limit(&self) -> Option<u16> {
        with_board!(self, b => (b.rules.limit != 0).then_some(b.rules.limit))
    }

    /// A training solo: White alone, always to move.
    #[must_use]
    pub fn is_solo(&self) -> bool {
        with_board!(self, b => b.rules.solo)
    }

    fn index(&self, sq: Square) -> Option<usize> {
        sq.is_on(self.side()).then(|| sq.index(self.side()))
    }

    /// Who stands on `sq` (None for an empty square or one off the board).
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Color> {
        let i = self.index(sq)?;
        with_board!(self, b => {
            if b.pieces[0].has(i) {
                Some(Color::White)
            } else if b.pieces[1].has(i) {
                Some(Color::Black)
            } else {
                None
            }
        })
    }

    /// The squares of `side`'s pieces in a1, b1, … order.
    #[must_use]
    pub fn pieces(&self, side: Color) -> Vec<Square> {
        with_board!(self, b => squares_of(b.pieces[side.index()]))
    }

    /// `side`'s home squares.
    #[must_use]
    pub fn home(&self, side: Color) -> Vec<Square> {
        with_board!(self, b => squares_of(b.rules.home[side.index()]))
    }

    /// Every legal move, sorted by (from, to) in square order.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(&mut out);
        out
    }

    /// Every legal move, in the order of [`Position::legal_moves`], appended to `out` (the
    /// search keeps one list per ply rather than allocating one per position).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        with_board!(self, b => {
            let w = self.side();
            b.for_each_move(|from, to| {
                out.push(Move::new(Square::from_index(from, w), Square::from_index(to, w)));
            });
        });
    }

    /// Number of legal moves (no list is built).
    #[must_use]
    pub fn count_moves(&self) -> u64 {
        with_board!(self, b => b.count_moves())
    }

    #[must_use]
    pub fn has_legal_moves(&self) -> bool {
        with_board!(self, b => b.has_moves())
    }

    /// Where the piece on `from` may go (empty if it is not the mover's).
    #[must_use]
    pub fn destinations(&self, from: Square) -> Vec<Square> {
        let Some(i) = self.index(from) else {
            return Vec::new();
        };
        if self.piece_at(from) != Some(self.turn()) {
            return Vec::new();
        }
        with_board!(self, b => squares_of(b.destinations(i)))
    }

    /// Check a move; `Ok` means it may be played.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let (Some(from), Some(to)) = (self.index(mv.from), self.index(mv.to)) else {
            let off = if mv.from.is_on(self.side()) {
                mv.to
            } else {
                mv.from
            };
            return Err(IllegalMove::OffBoard(off));
        };
        if self.piece_at(mv.from) != Some(self.turn()) {
            return Err(IllegalMove::NoPieceOfYours(mv.from));
        }
        if mv.from == mv.to {
            return Err(IllegalMove::SameSquare(mv.from));
        }
        if self.piece_at(mv.to).is_some() {
            return Err(IllegalMove::Occupied(mv.to));
        }
        with_board!(self, b => {
            if b.leaves_locked_target(from, to) {
                return Err(IllegalMove::TargetLocked(mv.from));
            }
            if !b.is_step(from, to) && b.jump_path(from, to).is_none() {
                return Err(self.why_unreachable(mv, b.jump_over(from, to), b.rules.diagonal));
            }
            if let Some(v) = b.would_block(from, to) {
                return Err(IllegalMove::WouldBlock(Square::from_index(v, self.side())));
            }
        });
        Ok(())
    }

    /// Why no step or chain takes `mv.from` to `mv.to`, as precisely as can be said: a
    /// diagonal neighbour in a variant that moves orthogonally, one jump's shape over an
    /// empty square (`over`, its middle), or else just that it cannot get there.
    fn why_unreachable(&self, mv: Move, over: Option<usize>, diagonal: bool) -> IllegalMove {
        let (df, dr) = (
            i32::from(mv.to.file) - i32::from(mv.from.file),
            i32::from(mv.to.rank) - i32::from(mv.from.rank),
        );
        if !diagonal && df.abs() == 1 && dr.abs() == 1 {
            return IllegalMove::NotDiagonally(mv.from, mv.to);
        }
        match over {
            Some(mid) => IllegalMove::NothingToJump(Square::from_index(mid, self.side())),
            None => IllegalMove::Unreachable(mv.from, mv.to),
        }
    }

    /// The position after `mv`, or why it is illegal.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// The position after `mv` without checking it: for moves from [`Position::legal_moves`].
    #[must_use]
    pub fn play_unchecked(&self, mv: Move) -> Position {
        let w = self.side();
        let (from, to) = (mv.from.index(w), mv.to.index(w));
        Position(match &self.0 {
            Inner::Small(b) => Inner::Small(b.play(from, to)),
            Inner::Large(b) => Inner::Large(b.play(from, to)),
        })
    }

    /// The full path of a legal move: `[from, to]` for a step, every landing square of the
    /// shortest jump chain otherwise (ties: walking back from `to`, the lowest square in
    /// a1, b1, …, h1, a2 order is taken at each hop).
    #[must_use]
    pub fn path(&self, mv: Move) -> Vec<Square> {
        let w = self.side();
        let (from, to) = (mv.from.index(w), mv.to.index(w));
        with_board!(self, b => {
            if b.is_step(from, to) {
                vec![mv.from, mv.to]
            } else {
                b.jump_path(from, to).map_or_else(
                    || vec![mv.from, mv.to],
                    |p| p.into_iter().map(|i| Square::from_index(i, w)).collect(),
                )
            }
        })
    }

    /// Check a full path typed by a player: every hop a jump over an occupied square onto an
    /// empty one, no square landed on twice, and the move it makes legal.
    pub fn check_path(&self, path: &[Square]) -> Result<Move, IllegalMove> {
        let (first, last) = match path {
            [a, .., b] => (*a, *b),
            _ => return Err(IllegalMove::TooShort),
        };
        if let Some(off) = path.iter().find(|s| !s.is_on(self.side())) {
            return Err(IllegalMove::OffBoard(*off));
        }
        let mv = Move::new(first, last);
        if path.len() == 2 {
            self.check(mv)?;
            return Ok(mv);
        }
        if self.piece_at(first) != Some(self.turn()) {
            return Err(IllegalMove::NoPieceOfYours(first));
        }
        let w = self.side();
        with_board!(self, b => {
            for (i, hop) in path.windows(2).enumerate() {
                let (a, z) = (hop[0].index(w), hop[1].index(w));
                if path[..=i].contains(&hop[1]) {
                    return Err(IllegalMove::Revisit(hop[1]));
                }
                if b.is_step(a, z) {
                    return Err(IllegalMove::Mixed);
                }
                let Some(mid) = b.jump_over(a, z) else {
                    return Err(IllegalMove::NotAJump(hop[0], hop[1]));
                };
                // The moving piece has left `first`, so nothing stands there to jump over.
                if mid == first.index(w) || !b.occupied().has(mid) {
                    return Err(IllegalMove::NothingToJump(Square::from_index(mid, w)));
                }
                if b.occupied().has(z) {
                    return Err(IllegalMove::Occupied(hop[1]));
                }
                if b.leaves_locked_target(first.index(w), z) {
                    return Err(IllegalMove::TargetLocked(first));
                }
            }
        });
        self.check(mv)?;
        Ok(mv)
    }

    /// C6: whether `mv` ends in the mover's home after the deadline (it loses; ask first).
    #[must_use]
    pub fn returns_home_late(&self, mv: Move) -> bool {
        self.index(mv.to)
            .is_some_and(|to| with_board!(self, b => b.returns_home_late(to)))
    }

    /// Pieces of `side` standing in its target.
    #[must_use]
    pub fn in_target(&self, side: Color) -> u32 {
        with_board!(self, b => b.in_target(side))
    }

    /// Whether `side` fills every square of its target (C1).
    #[must_use]
    pub fn target_complete(&self, side: Color) -> bool {
        with_board!(self, b => b.target_complete(side))
    }

    /// Pieces of `side` still at home that count against the deadline (C6).
    #[must_use]
    pub fn late_at_home(&self, side: Color) -> Vec<Square> {
        with_board!(self, b => squares_of(b.late_at_home(side)))
    }

    /// The moves `side` still makes before C6's check (after Black's move with the
    /// deadline's number), the move about to be played included; `None` with no deadline
    /// ahead, or one the game's limit (C7, a training room's) comes before.
    #[must_use]
    pub fn moves_before_deadline(&self, side: Color) -> Option<i32> {
        let deadline = self.deadline().filter(|d| self.move_number() <= *d)?;
        if self.limit().is_some_and(|limit| limit < deadline) {
            return None;
        }
        let left = i32::from(deadline) - i32::from(self.move_number()) + 1;
        Some(if side == Color::White && self.turn() == Color::Black {
            left - 1
        } else {
            left
        })
    }

    /// C6 by counting: whether `side` cannot empty its home before the check, since a move
    /// takes one piece out at most: it has more pieces at home than moves left, or, to
    /// move, as many, none of which has a move out now. Only where blocking is forbidden:
    /// elsewhere a piece at home can still be blocked in and excused by the time of the
    /// check.
    #[must_use]
    pub fn too_late_to_leave_home(&self, side: Color) -> bool {
        let no_blocking = with_board!(self, b => b.rules.no_blocking);
        let Some(left) = self.moves_before_deadline(side).filter(|_| no_blocking) else {
            return false;
        };
        let home = i64::from(with_board!(self, b => b.late_at_home(side).count()));
        let left = i64::from(left);
        !self.is_solo()
            && (home > left
                || (home == left && home > 0 && side == self.turn() && !self.can_leave_home_now()))
    }

    /// Whether the side to move has a move from its home to outside it.
    #[must_use]
    pub fn can_leave_home_now(&self) -> bool {
        let home = self.home(self.turn());
        self.pieces(self.turn())
            .into_iter()
            .filter(|p| home.contains(p))
            .any(|p| self.destinations(p).iter().any(|to| !home.contains(to)))
    }

    /// Pieces of `side` that can neither step nor jump (C8).
    #[must_use]
    pub fn blocked(&self, side: Color) -> Vec<Square> {
        with_board!(self, b => squares_of(b.blocked(side)))
    }

    /// Leaf count of the legal-move tree (moves identified by (from, to)). Game ends are not
    /// applied: this counts move generation, as every published Corners perft does.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        with_board!(self, b => b.perft(depth))
    }

    /// What threefold repetition compares: pieces and side to move, not the move number.
    #[must_use]
    pub fn repetition_key(&self) -> RepetitionKey {
        let mut inner = self.0;
        match &mut inner {
            Inner::Small(b) => b.move_no = 0,
            Inner::Large(b) => b.move_no = 0,
        }
        RepetitionKey(inner)
    }
}

/// A position's bit sets as the engine reads them: four 64-square limbs (8×8 uses the
/// first), per side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sets {
    pub width: u8,
    pub diagonal: bool,
    /// C8: a blocked piece is illegal here, so none is exempt from the deadline (C6).
    pub no_blocking: bool,
    pub pieces: [[u64; 4]; 2],
    pub home: [[u64; 4]; 2],
}

trait Limbs {
    fn limbs(self) -> [u64; 4];
}

impl Limbs for u64 {
    fn limbs(self) -> [u64; 4] {
        [self, 0, 0, 0]
    }
}

impl Limbs for U256 {
    fn limbs(self) -> [u64; 4] {
        self.0
    }
}

impl Position {
    /// The bit sets of pieces and homes (for the engine's evaluation and hashing).
    pub(crate) fn sets(&self) -> Sets {
        fn of<B: Bits + Limbs>(b: &Board<B>) -> Sets {
            Sets {
                width: B::WIDTH,
                diagonal: b.rules.diagonal,
                no_blocking: b.rules.no_blocking,
                pieces: [b.pieces[0].limbs(), b.pieces[1].limbs()],
                home: [b.rules.home[0].limbs(), b.rules.home[1].limbs()],
            }
        }
        match &self.0 {
            Inner::Small(b) => of(b),
            Inner::Large(b) => of(b),
        }
    }
}
