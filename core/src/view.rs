//! What a picture shows, as plain data: the board's pieces and marks, the clocks in
//! milliseconds and the header lines already in the reader's language. The table builds
//! views; the renderer draws them without knowing the rules, the table or the store.

use crate::color::Color;
use crate::game::Game;
use crate::square::Square;

/// Which game's board: it decides square shading (Damas pieces stand on the dark squares).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardKind {
    Corners,
    Damas,
}

impl BoardKind {
    /// Whether `sq` is a dark square: Corners' a1 is dark, as in chess; Damas' playing
    /// squares (h1's colour, D1) are. Every drawing of a board (the picture, the page)
    /// shades by this.
    #[must_use]
    pub fn is_dark(self, sq: Square) -> bool {
        let odd = (sq.file + sq.rank) % 2 == 1;
        match self {
            BoardKind::Corners => !odd,
            BoardKind::Damas => odd,
        }
    }
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceView {
    pub square: Square,
    pub color: Color,
    /// A Damas king.
    pub king: bool,
}

/// A board to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    pub kind: BoardKind,
    /// Board side: 8 or 16.
    pub side: u8,
    pub pieces: Vec<PieceView>,
    /// Home squares, White's then Black's (Corners; empty in Damas).
    pub homes: [Vec<Square>; 2],
    /// The last move's path, start first.
    pub last_path: Vec<Square>,
    /// Pieces the last move took (Damas), drawn faintly.
    pub taken: Vec<PieceView>,
    pub selected: Option<Square>,
    pub destinations: Vec<Square>,
    /// The pieces of the side to move that can move (as on the seeds' site); with
    /// `must_capture`, those that must capture (Damas, a capture is compulsory).
    pub movable: Vec<Square>,
    pub must_capture: bool,
    /// Black's view (Black's home at the bottom).
    pub flip: bool,
    pub white: String,
    pub black: String,
    /// Time left, when the game has a clock.
    pub white_clock_ms: Option<i64>,
    pub black_clock_ms: Option<i64>,
    /// None when the game is over.
    pub to_move: Option<Color>,
    /// The line under the names (move number, deadline and limit, or the result), in the
    /// reader's language.
    pub info: String,
}

impl BoardView {
    /// The time left on the clock that runs now (the side to move's), if there is one.
    #[must_use]
    pub fn running_clock_ms(&self) -> Option<i64> {
        match self.to_move? {
            Color::White => self.white_clock_ms,
            Color::Black => self.black_clock_ms,
        }
    }

    /// The board of a game as it stands, seen from White, with the last move marked, no
    /// names and no clocks.
    #[must_use]
    pub fn of_game(game: &Game) -> BoardView {
        let (kind, side, pieces, homes) = match game {
            Game::Corners(g) => {
                let p = g.position();
                let mut pieces = Vec::new();
                for color in [Color::White, Color::Black] {
                    pieces.extend(p.pieces(color).into_iter().map(|square| PieceView {
                        square,
                        color,
                        king: false,
                    }));
                }
                (
                    BoardKind::Corners,
                    p.side(),
                    pieces,
                    [p.home(Color::White), p.home(Color::Black)],
                )
            }
            Game::Damas(g) => {
                let pieces = g
                    .position()
                    .pieces()
                    .into_iter()
                    .map(|(square, piece)| PieceView {
                        square,
                        color: piece.color,
                        king: piece.king,
                    })
                    .collect();
                (BoardKind::Damas, 8, pieces, [Vec::new(), Vec::new()])
            }
        };
        let (last_path, taken) = game.last_move_marks();
        BoardView {
            kind,
            side,
            pieces,
            homes,
            last_path,
            taken: taken
                .into_iter()
                .map(|(square, color, king)| PieceView {
                    square,
                    color,
                    king,
                })
                .collect(),
            selected: None,
            destinations: Vec::new(),
            movable: game.movable(),
            must_capture: game.must_capture(),
            flip: false,
            white: String::new(),
            black: String::new(),
            white_clock_ms: None,
            black_clock_ms: None,
            to_move: Some(game.turn()),
            info: String::new(),
        }
    }

    /// Nobody to move now (the game is over, whatever ended it: an agreement, a
    /// resignation, a flag, not only the rules): no piece is marked as one that can move.
    pub fn no_turn(&mut self) {
        self.to_move = None;
        self.movable.clear();
        self.must_capture = false;
    }
}

/// A rating chart to draw: a player's general rating over their rated games of a kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartView {
    /// The title, in the reader's language.
    pub title: String,
    /// The rating before the first game, then after each game.
    pub points: Vec<i64>,
    /// The line under it (how many games, the rating now), in the reader's language.
    pub footer: String,
}

/// A tournament's standings to draw, every text in the reader's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingsView {
    pub title: String,
    /// The column headings: place, name, score, games, rating change, performance.
    pub columns: [String; 6],
    pub rows: Vec<StandingsRow>,
    /// Under the table: how many more there are (or nothing).
    pub footer: String,
}

/// One line of the standings, as written (`3½`, `1 ½ 0 +`, `+12`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingsRow {
    pub place: usize,
    pub name: String,
    pub score: String,
    pub marks: String,
    pub change: String,
    pub performance: String,
    /// Paused, or withdrawn: drawn dimmed.
    pub away: bool,
}
