//! One type over both games, so the table, the renderer and the command line never match on
//! rules internals: they ask for the side to move, play typed text, read the outcome.

use crate::color::Color;
use crate::corners;
use crate::damas;
use crate::square::Square;

/// Which game, with its rules settings: a Corners variant, or Damas with its king rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rules {
    Corners(corners::Variant),
    Damas { flying: bool },
}

impl Rules {
    /// A short id: the Corners variant id, or `damas` / `damas-short`.
    #[must_use]
    pub fn id(&self) -> String {
        match self {
            Rules::Corners(v) => v.id.clone(),
            Rules::Damas { flying: true } => "damas".into(),
            Rules::Damas { flying: false } => "damas-short".into(),
        }
    }

    /// Parse an id as [`Rules::id`] writes it.
    pub fn from_id(id: &str) -> Result<Rules, corners::VariantError> {
        match id {
            "damas" => Ok(Rules::Damas { flying: true }),
            "damas-short" => Ok(Rules::Damas { flying: false }),
            other => corners::Variant::by_id(other).map(Rules::Corners),
        }
    }
}

/// Why a game ended, as the store keeps it: a code, never prose, so a record can be told in
/// any language. Covers the rules of both games and the table's own endings (T1, T2, D6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndCause {
    /// C5: the winner completed its target.
    Completed,
    /// C5: both completed on the same move number.
    BothCompleted { move_no: u16 },
    /// C6: this side ended a move in its own home after the deadline.
    ReturnedHome(Color),
    /// C6: this side still had a piece at home at the deadline.
    LeftHomeLate(Color),
    /// C6: both sides still had pieces at home at the deadline.
    BothLeftHomeLate,
    /// C7: the move limit; pieces in target per side.
    Limit { white: u32, black: u32 },
    /// C7 / Damas federation rule: the same position for the third time.
    Repetition,
    /// C7: this side had no legal move (a draw in Corners).
    NoLegalMove(Color),
    /// C7: White had completed and Black could not reply.
    NoReply,
    /// D5: this side has no pieces left.
    NoPieces(Color),
    /// D5: this side's pieces cannot move.
    CannotMove(Color),
    /// T1: this side's time ran out.
    Flag(Color),
    /// T2: this side resigned.
    Resigned(Color),
    /// T2: a draw offer was accepted.
    Agreed,
    /// T2: voided before both sides moved.
    Aborted,
    /// Voided: the bot was removed from the game's chat, or blocked there.
    ChatGone,
    /// D6: this side was idle past the monitor's limit and the opponent claimed.
    Abandoned(Color),
    /// F1: this side never made its first move (its time ran out, it resigned, or it was
    /// claimed idle): the game is aborted.
    NoFirstMove(Color),
}

fn color_code(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl EndCause {
    /// The stored code: `completed`, `both-completed:24`, `flag:white`, `limit:5:3`, …
    #[must_use]
    pub fn code(&self) -> String {
        match *self {
            EndCause::Completed => "completed".into(),
            EndCause::BothCompleted { move_no } => format!("both-completed:{move_no}"),
            EndCause::ReturnedHome(c) => format!("returned-home:{}", color_code(c)),
            EndCause::LeftHomeLate(c) => format!("left-home-late:{}", color_code(c)),
            EndCause::BothLeftHomeLate => "both-left-home-late".into(),
            EndCause::Limit { white, black } => format!("limit:{white}:{black}"),
            EndCause::Repetition => "repetition".into(),
            EndCause::NoLegalMove(c) => format!("no-legal-move:{}", color_code(c)),
            EndCause::NoReply => "no-reply".into(),
            EndCause::NoPieces(c) => format!("no-pieces:{}", color_code(c)),
            EndCause::CannotMove(c) => format!("cannot-move:{}", color_code(c)),
            EndCause::Flag(c) => format!("flag:{}", color_code(c)),
            EndCause::Resigned(c) => format!("resigned:{}", color_code(c)),
            EndCause::Agreed => "agreed".into(),
            EndCause::Aborted => "aborted".into(),
            EndCause::ChatGone => "chat-gone".into(),
            EndCause::Abandoned(c) => format!("abandoned:{}", color_code(c)),
            EndCause::NoFirstMove(c) => format!("no-first-move:{}", color_code(c)),
        }
    }

    /// Read a code as [`EndCause::code`] writes it.
    #[must_use]
    pub fn from_code(code: &str) -> Option<EndCause> {
        let mut parts = code.split(':');
        let head = parts.next()?;
        let rest: Vec<&str> = parts.collect();
        let color = || match rest.as_slice() {
            ["white"] => Some(Color::White),
            ["black"] => Some(Color::Black),
            _ => None,
        };
        let cause = match (head, rest.as_slice()) {
            ("completed", []) => EndCause::Completed,
            ("both-completed", [n]) => EndCause::BothCompleted {
                move_no: n.parse().ok()?,
            },
            ("returned-home", _) => EndCause::ReturnedHome(color()?),
            ("left-home-late", _) => EndCause::LeftHomeLate(color()?),
            ("both-left-home-late", []) => EndCause::BothLeftHomeLate,
            ("limit", [w, b]) => EndCause::Limit {
                white: w.parse().ok()?,
                black: b.parse().ok()?,
            },
            ("repetition", []) => EndCause::Repetition,
            ("no-legal-move", _) => EndCause::NoLegalMove(color()?),
            ("no-reply", []) => EndCause::NoReply,
            ("no-pieces", _) => EndCause::NoPieces(color()?),
            ("cannot-move", _) => EndCause::CannotMove(color()?),
            ("flag", _) => EndCause::Flag(color()?),
            ("resigned", _) => EndCause::Resigned(color()?),
            ("agreed", []) => EndCause::Agreed,
            ("aborted", []) => EndCause::Aborted,
            ("chat-gone", []) => EndCause::ChatGone,
            ("abandoned", _) => EndCause::Abandoned(color()?),
            ("no-first-move", _) => EndCause::NoFirstMove(color()?),
            _ => return None,
        };
        Some(cause)
    }
}

/// How a finished game came out, as the store keeps it: a side won, a draw, or void (aborted
/// or annulled: it never counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "table",
    derive(sqlx::Type),
    sqlx(type_name = "game_result", rename_all = "lowercase")
)]
pub enum GameResult {
    White,
    Black,
    Draw,
    Void,
}

impl GameResult {
    /// A decided game: the winner, or a draw.
    #[must_use]
    pub const fn decided(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::White) => GameResult::White,
            Some(Color::Black) => GameResult::Black,
            None => GameResult::Draw,
        }
    }

    /// `white`, `black`, `draw` or `void`, as the store and the catalogue name it.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            GameResult::White => "white",
            GameResult::Black => "black",
            GameResult::Draw => "draw",
            GameResult::Void => "void",
        }
    }

    /// The side that won, if one did.
    #[must_use]
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::White => Some(Color::White),
            GameResult::Black => Some(Color::Black),
            GameResult::Draw | GameResult::Void => None,
        }
    }
}

/// How a game ended by its rules: the winner (None = draw), the cause, the rule id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Color>,
    pub cause: EndCause,
    /// `C5`, `D5`, …
    pub rule: &'static str,
}

impl From<corners::Outcome> for Ending {
    fn from(o: corners::Outcome) -> Ending {
        use corners::EndReason as R;
        let cause = match o.reason {
            R::Completed => EndCause::Completed,
            R::BothCompleted { move_no } => EndCause::BothCompleted { move_no },
            R::ReturnedHome(c) => EndCause::ReturnedHome(c),
            R::LeftHomeLate(c) => EndCause::LeftHomeLate(c),
            R::BothLeftHomeLate => EndCause::BothLeftHomeLate,
            R::Limit { white, black } => EndCause::Limit { white, black },
            R::Repetition => EndCause::Repetition,
            R::NoMoves(c) => EndCause::NoLegalMove(c),
            R::NoReply => EndCause::NoReply,
        };
        Ending {
            winner: o.winner,
            cause,
            rule: o.rule(),
        }
    }
}

impl From<damas::Outcome> for Ending {
    fn from(o: damas::Outcome) -> Ending {
        use damas::EndReason as R;
        let cause = match o.reason {
            R::NoPieces(c) => EndCause::NoPieces(c),
            R::NoMoves(c) => EndCause::CannotMove(c),
            R::Repetition => EndCause::Repetition,
        };
        Ending {
            winner: o.winner,
            cause,
            rule: o.rule(),
        }
    }
}

/// Why a typed move was refused, as data (the words are in the catalogue).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefusalKind {
    /// The text is not a move at all.
    Text(crate::notation::MoveTextError),
    /// A Damas square number outside 1–32.
    BadNumber(String),
    Corners(corners::IllegalMove),
    Damas(damas::IllegalMove),
}

/// A refused move: the tidied text and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub text: String,
    pub kind: RefusalKind,
}

impl From<corners::MoveError> for Refusal {
    fn from(e: corners::MoveError) -> Refusal {
        Refusal {
            text: e.text,
            kind: match e.kind {
                corners::MoveErrorKind::Text(t) => RefusalKind::Text(t),
                corners::MoveErrorKind::Illegal(i) => RefusalKind::Corners(i),
            },
        }
    }
}

impl From<damas::MoveError> for Refusal {
    fn from(e: damas::MoveError) -> Refusal {
        Refusal {
            text: e.text,
            kind: match e.kind {
                damas::MoveErrorKind::Text(t) => RefusalKind::Text(t),
                damas::MoveErrorKind::BadNumber(n) => RefusalKind::BadNumber(n),
                damas::MoveErrorKind::Illegal(i) => RefusalKind::Damas(i),
            },
        }
    }
}

/// A game of either kind. (The Corners game is the larger; games are few and long-lived,
/// so boxing it would buy nothing.)
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Game {
    Corners(corners::Game),
    Damas(damas::Game),
}

impl Game {
    /// A new game from the start position.
    #[must_use]
    pub fn new(rules: &Rules) -> Game {
        match rules {
            Rules::Corners(v) => Game::Corners(corners::Game::new(v)),
            Rules::Damas { flying } => Game::Damas(damas::Game::new(*flying)),
        }
    }

    /// A game from position text (the game's own format).
    pub fn from_text(rules: &Rules, text: &str) -> Result<Game, String> {
        match rules {
            Rules::Corners(v) => corners::Position::from_text(v, text)
                .map(|p| Game::Corners(corners::Game::from_position(v, p)))
                .map_err(|e| e.to_string()),
            Rules::Damas { flying } => damas::Position::from_text(text, *flying)
                .map(|p| Game::Damas(damas::Game::from_position(p)))
                .map_err(|e| e.to_string()),
        }
    }

    #[must_use]
    pub fn turn(&self) -> Color {
        match self {
            Game::Corners(g) => g.position().turn(),
            Game::Damas(g) => g.position().turn(),
        }
    }

    /// Number of half-moves played.
    #[must_use]
    pub fn plies(&self) -> usize {
        match self {
            Game::Corners(g) => g.moves().len(),
            Game::Damas(g) => g.moves().len(),
        }
    }

    /// Whether `side` has made a move in this game (F1: a game where a side never moved is
    /// aborted, not lost).
    #[must_use]
    pub fn has_moved(&self, side: Color) -> bool {
        let first = match self {
            Game::Corners(g) => g.start().turn(),
            Game::Damas(g) => g.start().turn(),
        };
        self.plies() >= if side == first { 1 } else { 2 }
    }

    /// Board side: 8, or 16 for Halma.
    #[must_use]
    pub fn side(&self) -> u8 {
        match self {
            Game::Corners(g) => g.position().side(),
            Game::Damas(_) => 8,
        }
    }

    /// Whether pieces ever stand on `sq`: every square of a Corners board, the dark ones of
    /// a Damas board (D1).
    #[must_use]
    pub fn is_playing_square(&self, sq: Square) -> bool {
        match self {
            Game::Corners(_) => sq.is_on(self.side()),
            Game::Damas(_) => sq.is_on(8) && crate::damas::squares::is_playing(sq),
        }
    }

    /// The last move as recorded, if `text` names it (the same start and end squares, or
    /// the same path): a move retyped after its answer was lost is recognised as played.
    #[must_use]
    pub fn names_last_move(&self, text: &str) -> Option<String> {
        let (path, _) = self.last_move_marks();
        let (first, last) = (path.first()?, path.last()?);
        let typed = match self {
            Game::Corners(_) => crate::notation::read_squares(text).ok()?.squares,
            Game::Damas(_) => crate::damas::typed_squares(text)?,
        };
        let same = typed == path || (typed.len() == 2 && typed[0] == *first && typed[1] == *last);
        if !same {
            return None;
        }
        self.last_move_text()
    }

    /// The number of the move about to be played (C4; counted the same way in Damas).
    #[must_use]
    pub fn move_number(&self) -> u32 {
        match self {
            Game::Corners(g) => u32::from(g.position().move_number()),
            Game::Damas(g) => {
                let black_first = u32::from(g.start().turn() == Color::Black);
                let plies = u32::try_from(g.moves().len()).unwrap_or(u32::MAX - 1);
                1 + plies.saturating_add(black_first) / 2
            }
        }
    }

    /// Play a typed move; returns the move as recorded (`c3-e3-e5`, `b3xd5`).
    pub fn play_text(&mut self, text: &str) -> Result<String, Refusal> {
        match self {
            Game::Corners(g) => match g.play_text(text) {
                Ok(_) => Ok(crate::notation::join_path(
                    &g.moves().last().map(|m| m.path.clone()).unwrap_or_default(),
                    "-",
                )),
                Err(e) => Err(e.into()),
            },
            Game::Damas(g) => match g.play_text(text) {
                Ok(_) => Ok(g
                    .moves()
                    .last()
                    .map(ToString::to_string)
                    .unwrap_or_default()),
                Err(e) => Err(e.into()),
            },
        }
    }

    /// Check a typed move without playing it: the move as it would be recorded, and
    /// whether it loses at once (C6: ending in the own home after the deadline — the table
    /// asks for confirmation first).
    pub fn check_text(&self, text: &str) -> Result<(String, bool), Refusal> {
        match self {
            Game::Corners(g) => {
                if g.outcome().is_some() {
                    return Err(Refusal {
                        text: text.trim().chars().take(40).collect(),
                        kind: RefusalKind::Corners(corners::IllegalMove::GameOver),
                    });
                }
                match corners::parse_move(g.position(), text) {
                    Ok((mv, path)) => Ok((
                        crate::notation::join_path(&path, "-"),
                        g.position().returns_home_late(mv),
                    )),
                    Err(e) => Err(e.into()),
                }
            }
            Game::Damas(g) => {
                if g.outcome().is_some() {
                    return Err(Refusal {
                        text: text.trim().chars().take(40).collect(),
                        kind: RefusalKind::Damas(damas::IllegalMove::GameOver),
                    });
                }
                damas::parse_move(g.position(), text)
                    .map(|m| (m.to_string(), false))
                    .map_err(Refusal::from)
            }
        }
    }

    /// The mover's pieces that have a legal move, in square order (a1, b1, …, a2, …). In
    /// Damas, when a capture is compulsory, only the pieces that can capture.
    #[must_use]
    pub fn movable(&self) -> Vec<Square> {
        let mut v: Vec<Square> = match self {
            Game::Corners(g) if g.outcome().is_none() => {
                g.position().legal_moves().iter().map(|m| m.from).collect()
            }
            Game::Damas(g) if g.outcome().is_none() => g
                .position()
                .legal_moves()
                .iter()
                .map(damas::Move::from)
                .collect(),
            _ => Vec::new(),
        };
        v.sort_by_key(|s| (s.rank, s.file));
        v.dedup();
        v
    }

    /// Whether the side to move must capture (Damas, D3); never in Corners.
    #[must_use]
    pub fn must_capture(&self) -> bool {
        match self {
            Game::Corners(_) => false,
            Game::Damas(g) => {
                g.outcome().is_none()
                    && g.position()
                        .legal_moves()
                        .first()
                        .is_some_and(damas::Move::is_capture)
            }
        }
    }

    /// The legal move from `from` to `to` as the record writes it (a capture with two
    /// routes to one square: the first in the generator's order), if there is one.
    #[must_use]
    pub fn move_between(&self, from: Square, to: Square) -> Option<String> {
        match self {
            Game::Corners(g) => {
                let pos = g.position();
                let m = corners::Move { from, to };
                pos.check(m)
                    .ok()
                    .map(|()| crate::notation::join_path(&pos.path(m), "-"))
            }
            Game::Damas(g) => g
                .position()
                .legal_moves()
                .into_iter()
                .find(|m| m.from() == from && m.to() == to)
                .map(|m| m.to_string()),
        }
    }

    /// Where the piece on `from` may go (empty if it is not the mover's or cannot move).
    #[must_use]
    pub fn destinations(&self, from: Square) -> Vec<Square> {
        match self {
            Game::Corners(g) => g.position().destinations(from),
            Game::Damas(g) => {
                let mut v: Vec<Square> = g
                    .position()
                    .legal_moves()
                    .iter()
                    .filter(|m| m.from() == from)
                    .map(damas::Move::to)
                    .collect();
                v.dedup();
                v
            }
        }
    }

    /// The last move's path (start first) and, in Damas, the pieces it took: square,
    /// colour, king.
    #[must_use]
    pub fn last_move_marks(&self) -> (Vec<Square>, Vec<(Square, Color, bool)>) {
        match self {
            Game::Corners(g) => (
                g.moves().last().map(|m| m.path.clone()).unwrap_or_default(),
                Vec::new(),
            ),
            Game::Damas(g) => {
                let (Some(m), Some(before)) = (g.moves().last(), g.before_last()) else {
                    return (Vec::new(), Vec::new());
                };
                let taken = m
                    .captured()
                    .into_iter()
                    .filter_map(|s| before.piece_at(s).map(|p| (s, p.color, p.king)))
                    .collect();
                (m.path(), taken)
            }
        }
    }

    /// Deadline (C6) and limit (C7) of a Corners game.
    #[must_use]
    pub fn deadline_and_limit(&self) -> (Option<u16>, Option<u16>) {
        match self {
            Game::Corners(g) => (g.position().deadline(), g.position().limit()),
            Game::Damas(_) => (None, None),
        }
    }

    /// The end of the game by its rules, if reached.
    #[must_use]
    pub fn ending(&self) -> Option<Ending> {
        match self {
            Game::Corners(g) => g.outcome().map(Ending::from),
            Game::Damas(g) => g.outcome().map(Ending::from),
        }
    }

    /// The current position as text.
    #[must_use]
    pub fn position_text(&self) -> String {
        match self {
            Game::Corners(g) => g.position().to_text(),
            Game::Damas(g) => g.position().to_text(),
        }
    }

    /// The paired record: `1. c3-d3 f6-e6 2. …`.
    #[must_use]
    pub fn record(&self) -> String {
        match self {
            Game::Corners(g) => g.record(),
            Game::Damas(g) => g.record(),
        }
    }

    /// The last move played, as the record writes it (`c3-e3-e5`, `b3xd5`).
    #[must_use]
    pub fn last_move_text(&self) -> Option<String> {
        match self {
            Game::Corners(g) => g
                .moves()
                .last()
                .map(|m| crate::notation::join_path(&m.path, "-")),
            Game::Damas(g) => g.moves().last().map(ToString::to_string),
        }
    }

    /// The moves played, each as the record writes it (`c3-e3-e5`, `b3xd5`).
    #[must_use]
    pub fn move_texts(&self) -> Vec<String> {
        match self {
            Game::Corners(g) => g
                .moves()
                .iter()
                .map(|m| crate::notation::join_path(&m.path, "-"))
                .collect(),
            Game::Damas(g) => g.moves().iter().map(ToString::to_string).collect(),
        }
    }

    /// Every legal move as text, sorted by (from, to).
    #[must_use]
    pub fn legal_move_texts(&self) -> Vec<String> {
        match self {
            Game::Corners(g) => {
                let p = g.position();
                p.legal_moves()
                    .into_iter()
                    .map(|m| crate::notation::join_path(&p.path(m), "-"))
                    .collect()
            }
            Game::Damas(g) => g
                .position()
                .legal_moves()
                .iter()
                .map(ToString::to_string)
                .collect(),
        }
    }
}
