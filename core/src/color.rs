//! The two sides of every game here.

use std::fmt;

/// A side. White moves first in both games. (In the store: `white` / `black`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "table",
    derive(sqlx::Type),
    sqlx(type_name = "colour", rename_all = "lowercase")
)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-side arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `white` / `black`, as result lines and messages print it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The letter used in position text: `w` / `b`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The colour a challenger asks for. (In the store: `white` / `black` / `random`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "table",
    derive(sqlx::Type),
    sqlx(type_name = "colour_choice", rename_all = "lowercase")
)]
pub enum ColorChoice {
    White,
    Black,
    /// Drawn when the challenge is accepted.
    Random,
}

impl ColorChoice {
    /// The side asked for, if one was.
    #[must_use]
    pub const fn side(self) -> Option<Color> {
        match self {
            ColorChoice::White => Some(Color::White),
            ColorChoice::Black => Some(Color::Black),
            ColorChoice::Random => None,
        }
    }
}
