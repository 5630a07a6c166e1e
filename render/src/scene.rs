//! What to draw: the board's squares and pieces, the marks, the orientation and the header.
//! Built from a game position; the renderer knows no rules.

use crate::sprites::Stone;
use std::fmt::Write as _;
use ugolki_core::corners;
use ugolki_core::damas;
use ugolki_core::{Color, Square};

pub use ugolki_core::view::BoardKind;

/// One player's line in the header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    /// Remaining time as shown (`4:32`), if the game has a clock.
    pub clock: Option<String>,
}

/// The strip above the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    pub white: Player,
    pub black: Player,
    /// Whose turn it is (marked); None when the game is over.
    pub to_move: Option<Color>,
    /// The second line: move number, deadline and limit, or the result.
    pub info: String,
}

/// A board to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    pub kind: BoardKind,
    /// Board side: 8 or 16.
    pub side: u8,
    pub pieces: Vec<(Square, Stone)>,
    /// Home squares per side (Corners), tinted so a player sees the target.
    pub homes: [Vec<Square>; 2],
    /// Pieces taken by the last move, drawn faintly (Damas).
    pub ghosts: Vec<(Square, Stone)>,
    /// Every square of the last move's path, start first.
    pub last_path: Vec<Square>,
    pub selected: Option<Square>,
    pub destinations: Vec<Square>,
    /// Pieces marked as able to move; `must_capture`: marked as having to capture.
    pub movable: Vec<Square>,
    pub must_capture: bool,
    /// Rotate 180° (Black's view: Black's home at the bottom).
    pub flip: bool,
    pub header: Header,
}

fn stone(color: Color, king: bool) -> Stone {
    match (color, king) {
        (Color::White, false) => Stone::WhiteMan,
        (Color::Black, false) => Stone::BlackMan,
        (Color::White, true) => Stone::WhiteKing,
        (Color::Black, true) => Stone::BlackKing,
    }
}

/// The faint version of a piece.
#[must_use]
pub fn ghost(color: Color) -> Stone {
    match color {
        Color::White => Stone::GhostWhite,
        Color::Black => Stone::GhostBlack,
    }
}

impl Header {
    /// "White" and "Black" with no clocks: for pictures outside a table game.
    fn unnamed(to_move: Color, info: String) -> Header {
        let player = |name: &str| Player {
            name: name.into(),
            clock: None,
        };
        Header {
            white: player("White"),
            black: player("Black"),
            to_move: Some(to_move),
            info,
        }
    }
}

impl Scene {
    /// A Corners position with a default header (move number, deadline, limit, turn).
    #[must_use]
    pub fn corners(pos: &corners::Position) -> Scene {
        let mut pieces = Vec::new();
        for c in [Color::White, Color::Black] {
            pieces.extend(pos.pieces(c).into_iter().map(|s| (s, stone(c, false))));
        }
        let mut info = format!("Move {}", pos.move_number());
        if let Some(d) = pos.deadline() {
            let _ = write!(info, " · leave home by {d}");
        }
        if let Some(l) = pos.limit() {
            let _ = write!(info, " · limit {l}");
        }
        Scene::plain(
            BoardKind::Corners,
            pos.side(),
            pieces,
            [pos.home(Color::White), pos.home(Color::Black)],
            Header::unnamed(pos.turn(), info),
        )
    }

    /// A Damas position with a default header.
    #[must_use]
    pub fn damas(pos: &damas::Position) -> Scene {
        let pieces = pos
            .pieces()
            .into_iter()
            .map(|(s, p)| (s, stone(p.color, p.king)))
            .collect();
        let (wm, wk) = pos.count(Color::White);
        let (bm, bk) = pos.count(Color::Black);
        let info = format!(
            "White {wm}+{wk} · Black {bm}+{bk} · {} kings",
            if pos.flying() { "flying" } else { "short" }
        );
        Scene::plain(
            BoardKind::Damas,
            8,
            pieces,
            [Vec::new(), Vec::new()],
            Header::unnamed(pos.turn(), info),
        )
    }

    /// A board with pieces and homes and no marks, seen from White.
    fn plain(
        kind: BoardKind,
        side: u8,
        pieces: Vec<(Square, Stone)>,
        homes: [Vec<Square>; 2],
        header: Header,
    ) -> Scene {
        Scene {
            kind,
            side,
            pieces,
            homes,
            ghosts: Vec::new(),
            last_path: Vec::new(),
            selected: None,
            destinations: Vec::new(),
            movable: Vec::new(),
            must_capture: false,
            flip: false,
            header,
        }
    }

    /// Mark the last move: its path, and (Damas) the pieces it took, of colour `taken_color`.
    #[must_use]
    pub fn with_last_move(mut self, path: Vec<Square>, taken: &[(Square, Stone)]) -> Scene {
        self.last_path = path;
        self.ghosts = taken.to_vec();
        self
    }

    /// Mark a piece and where it can go.
    #[must_use]
    pub fn with_selection(mut self, from: Square, destinations: Vec<Square>) -> Scene {
        self.selected = Some(from);
        self.destinations = destinations;
        self
    }

    /// Mark the pieces that can move (`must_capture`: that must capture).
    #[must_use]
    pub fn with_movable(mut self, movable: Vec<Square>, must_capture: bool) -> Scene {
        self.movable = movable;
        self.must_capture = must_capture;
        self
    }

    #[must_use]
    pub fn flipped(mut self, flip: bool) -> Scene {
        self.flip = flip;
        self
    }
}

impl Scene {
    /// The scene of a board view, as the table hands it over: pieces, marks, names, clocks
    /// in milliseconds (drawn as digits) and header lines already in the reader's language.
    /// Nothing is parsed or recomputed.
    #[must_use]
    pub fn from_view(view: &ugolki_core::view::BoardView) -> Scene {
        let player = |name: &str, ms: Option<i64>| Player {
            name: name.to_string(),
            clock: ms.map(ugolki_core::clock::digits),
        };
        Scene {
            kind: view.kind,
            side: view.side,
            pieces: view
                .pieces
                .iter()
                .map(|p| (p.square, stone(p.color, p.king)))
                .collect(),
            homes: view.homes.clone(),
            ghosts: view
                .taken
                .iter()
                .map(|p| (p.square, ghost(p.color)))
                .collect(),
            last_path: view.last_path.clone(),
            selected: view.selected,
            destinations: view.destinations.clone(),
            movable: view.movable.clone(),
            must_capture: view.must_capture,
            flip: view.flip,
            header: Header {
                white: player(&view.white, view.white_clock_ms),
                black: player(&view.black, view.black_clock_ms),
                to_move: view.to_move,
                info: view.info.clone(),
            },
        }
    }
}
