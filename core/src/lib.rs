//! ugolki-core: the rules of Corners and Damas, notation, clocks, ratings and the chat
//! table of the ugolki bot. No platform code and no pixels live here.

pub mod bits;
pub mod board_text;
pub mod clock;
pub mod color;
pub mod corners;
pub mod damas;
pub mod engine;
pub mod game;
pub mod notation;
pub mod rating;
pub mod settlement;
pub mod square;
#[cfg(feature = "table")]
pub mod store;
#[cfg(feature = "table")]
pub mod table;
pub mod tournament;
pub mod view;
#[cfg(feature = "words")]
pub mod words;

pub use color::Color;
pub use square::Square;

/// Tests of the rules read refusals and results in English, through the catalogue (the
/// rules keep them as data): `Display` for a game's move error and outcome, and
/// `reason()` for the error alone.
#[cfg(test)]
#[macro_export]
macro_rules! english_for_tests {
    ($error:ty, $outcome:ty) => {
        impl std::fmt::Display for $error {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let r = $crate::game::Refusal::from(self.clone());
                f.write_str(&$crate::words::english(&$crate::words::Msg::from(&r)))
            }
        }

        impl $error {
            fn reason(&self) -> String {
                let r = $crate::game::Refusal::from(self.clone());
                $crate::words::english(&$crate::words::refusal(&r.kind))
            }
        }

        impl std::fmt::Display for $outcome {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let e = $crate::game::Ending::from(*self);
                f.write_str(&$crate::words::english(&$crate::words::Msg::ResultLine {
                    winner: e.winner,
                    ended: true,
                    cause: Some(e.cause),
                }))
            }
        }
    };
}
