//! What goes in and out of the table: messages from a chat, replies and pictures to send.

use crate::color::Color;
use crate::game::Rules;
use crate::square::Square;

/// A person on a platform, as the adapter knows them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct User {
    /// The platform's stable id for the user.
    pub id: String,
    /// What to call them (cached in the store).
    pub name: String,
    /// Their @handle, where the platform has one.
    pub handle: Option<String>,
}

/// Someone named in a message with `@`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mention {
    /// The adapter knows who it is.
    User(User),
    /// Only the handle is known (Telegram `@username`).
    Handle(String),
}

/// One message from a chat.
#[derive(Clone, Debug)]
pub struct Incoming {
    /// `console`, `telegram`, `discord`.
    pub platform: String,
    pub chat: String,
    pub user: User,
    /// The platform's id of this message: a repeat of the same id is ignored.
    pub message_id: String,
    pub text: String,
    /// People named with `@`, in order.
    pub mentions: Vec<Mention>,
}

/// What the renderer needs to draw a board (the core knows no pixels).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    pub rules: Rules,
    pub position: String,
    /// The last move's path, start first.
    pub last_path: Vec<Square>,
    /// Damas pieces the last move took: square and whether it was a king.
    pub taken: Vec<(Square, Color, bool)>,
    pub selected: Option<Square>,
    pub destinations: Vec<Square>,
    /// Black's view (Black's home at the bottom).
    pub flip: bool,
    pub white: String,
    pub black: String,
    pub white_clock: Option<String>,
    pub black_clock: Option<String>,
    /// None when the game is over.
    pub to_move: Option<Color>,
    /// The line under the names: move number, deadline and limit, or the result.
    pub info: String,
}

/// A rating chart to draw: a player's general rating over their rated games of a kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartView {
    pub title: String,
    /// The rating before the first game, then after each game.
    pub points: Vec<i64>,
}

/// One message for a chat: text, and a picture (board or chart) if asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub platform: String,
    pub chat: String,
    pub text: String,
    pub board: Option<BoardView>,
    pub chart: Option<ChartView>,
}
