//! Corners (Ugolki): RULES.md C1–C10.
//!
//! [`Position`] is an immutable value with `legal_moves()` and `play()`; [`Game`] adds the
//! history and the end of the game; [`Variant`] holds every difference between variants.

mod board;
mod game;
mod moves;
mod notation;
mod position;
mod text;
mod variant;

pub use crate::notation::record_moves;
pub(crate) use game::end_of_game;
pub use game::{EndReason, Game, Outcome, PlayedMove};
pub use moves::{IllegalMove, Move};
pub use notation::{format_record, parse_move, MoveError, MoveErrorKind};
pub(crate) use position::Sets;
pub use position::{Position, RepetitionKey};
pub use variant::{Directions, HomeError, Variant, VariantError, STANDARD_IDS};

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
