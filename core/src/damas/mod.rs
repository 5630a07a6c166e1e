//! Damas (Spanish/Portuguese 8×8 checkers): RULES.md D1–D7.
//!
//! [`Position`] is an immutable value with `legal_moves()` and `play()`; [`Game`] adds the
//! history and the end of the game. Kings fly unless the table chose short kings.

mod game;
mod moves;
mod notation;
mod position;
mod query;
pub mod squares;
mod text;

pub use game::{EndReason, Game, Outcome};
pub use moves::{IllegalMove, Move};
pub use notation::{numeric, parse_move, typed_squares, MoveError, MoveErrorKind};
pub use position::Position;
pub use query::Piece;
pub use text::DamasTextError;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
