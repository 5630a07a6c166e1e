//! Tournaments as pure functions of who played whom with what result: the pairings of a
//! Swiss round ([`swiss`]), the Berger tables of a round robin ([`berger`]), an arena's
//! pairing of waiting players and its streak scoring ([`arena`]), and the standings with
//! their tie-breaks ([`standings`]). Nothing here keeps state: the table stores the games
//! and recomputes everything from them, so a restart or a second process gets the same
//! answer.
//!
//! Entrants are numbered from 0 in the order they joined. Scores are kept in half-points
//! (a win 2, a draw 1) so that ties are exact.

pub mod arena;
pub mod berger;
pub mod standings;
pub mod swiss;

use crate::game::GameResult;
use crate::Color;

/// An entrant of a tournament: its place in the order of joining.
pub type Entrant = usize;

/// One game of a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The round it belongs to (Swiss, round robin), or its order of pairing (arena).
    pub round: u32,
    pub white: Entrant,
    pub black: Entrant,
    /// `None` while it runs; a void game counts for nobody.
    pub result: Option<GameResult>,
}

impl Played {
    /// Whether `e` played in it, and with which colour.
    #[must_use]
    pub fn colour_of(&self, e: Entrant) -> Option<Color> {
        if self.white == e {
            Some(Color::White)
        } else if self.black == e {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// `e`'s opponent, if `e` played in it.
    #[must_use]
    pub fn opponent_of(&self, e: Entrant) -> Option<Entrant> {
        match self.colour_of(e)? {
            Color::White => Some(self.black),
            Color::Black => Some(self.white),
        }
    }

    /// What `e` scored, in half-points (a win 2, a draw 1), once the game is decided.
    #[must_use]
    pub fn half_points_of(&self, e: Entrant) -> Option<u32> {
        let colour = self.colour_of(e)?;
        match self.result? {
            GameResult::Draw => Some(1),
            GameResult::Void => None,
            GameResult::White => Some(if colour == Color::White { 2 } else { 0 }),
            GameResult::Black => Some(if colour == Color::Black { 2 } else { 0 }),
        }
    }
}

/// One board of a round: a game, or a player who sits the round out with a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    Game { white: Entrant, black: Entrant },
    Bye(Entrant),
}

/// The formats the bot runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Arena,
    Swiss,
    RoundRobin,
}

/// At most this many players in a tournament.
pub const MAX_PLAYERS: usize = 200;
/// At most this many players in a round robin (everyone plays everyone).
pub const MAX_ROUND_ROBIN: usize = 12;
