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
pub mod square;
#[cfg(feature = "table")]
pub mod store;
#[cfg(feature = "table")]
pub mod table;
pub mod view;
#[cfg(feature = "words")]
pub mod words;

pub use color::Color;
pub use square::Square;
