//! One type over both games, so the table, the renderer and the command line never match on
//! rules internals: they ask for the side to move, play typed text, read the outcome.

use crate::color::Color;
use crate::corners;
use crate::damas;
use crate::square::Square;
use std::fmt;

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
    pub fn from_id(id: &str) -> Result<Rules, String> {
        match id {
            "damas" => Ok(Rules::Damas { flying: true }),
            "damas-short" => Ok(Rules::Damas { flying: false }),
            other => corners::Variant::by_id(other)
                .map(Rules::Corners)
                .map_err(|e| e.to_string()),
        }
    }

    /// A name for people: `classic 3×3`, `Damas (flying kings)`.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Rules::Corners(v) => format!("Corners, {}", v.name),
            Rules::Damas { flying: true } => "Damas (flying kings)".into(),
            Rules::Damas { flying: false } => "Damas (short kings)".into(),
        }
    }
}

/// How a game ended by its rules: the winner (None = draw), the reason, the rule id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Color>,
    /// `completed target`, `threefold repetition`, …
    pub reason: String,
    /// `C5`, `D5`, …
    pub rule: &'static str,
}

impl fmt::Display for Ending {
    /// `white wins (completed target)`, `draw (threefold repetition)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins ({})", self.reason),
            None => write!(f, "draw ({})", self.reason),
        }
    }
}

impl From<corners::Outcome> for Ending {
    fn from(o: corners::Outcome) -> Ending {
        Ending {
            winner: o.winner,
            reason: o.reason_text(),
            rule: o.rule(),
        }
    }
}

impl From<damas::Outcome> for Ending {
    fn from(o: damas::Outcome) -> Ending {
        Ending {
            winner: o.winner,
            reason: o.reason_text(),
            rule: o.rule(),
        }
    }
}

/// A refused move: the tidied text and the reason a player reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub text: String,
    pub reason: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.text, self.reason)
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
                Err(e) => Err(Refusal {
                    text: e.text.clone(),
                    reason: e.reason(),
                }),
            },
            Game::Damas(g) => match g.play_text(text) {
                Ok(_) => Ok(g
                    .moves()
                    .last()
                    .map(ToString::to_string)
                    .unwrap_or_default()),
                Err(e) => Err(Refusal {
                    text: e.text.clone(),
                    reason: e.reason(),
                }),
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
                        reason: corners::IllegalMove::GameOver.to_string(),
                    });
                }
                match corners::parse_move(g.position(), text) {
                    Ok((mv, path)) => Ok((
                        crate::notation::join_path(&path, "-"),
                        g.position().returns_home_late(mv),
                    )),
                    Err(e) => Err(Refusal {
                        text: e.text.clone(),
                        reason: e.reason(),
                    }),
                }
            }
            Game::Damas(g) => {
                if g.outcome().is_some() {
                    return Err(Refusal {
                        text: text.trim().chars().take(40).collect(),
                        reason: damas::IllegalMove::GameOver.to_string(),
                    });
                }
                damas::parse_move(g.position(), text)
                    .map(|m| (m.to_string(), false))
                    .map_err(|e| Refusal {
                        text: e.text.clone(),
                        reason: e.reason(),
                    })
            }
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

    /// The move the table plays for a player whose move time ran out (Damas `movetime`):
    /// see `engine`. Corners has no automatic moves.
    #[must_use]
    pub fn auto_move_text(&self) -> Option<String> {
        match self {
            Game::Corners(_) => None,
            Game::Damas(g) => crate::engine::damas_auto_move(g.position()).map(|m| m.to_string()),
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
