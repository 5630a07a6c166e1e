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
pub mod store;
pub mod table;

pub use color::Color;
pub use square::Square;
