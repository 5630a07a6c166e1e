//! A compact text board for the terminal, drawn from the pieces of a board view.

use std::fmt::Write as _;
use ugolki_core::view::BoardView;
use ugolki_core::Color;

/// The board as lines of text: ranks down the left, files along the bottom, `w`/`b` men,
/// `W`/`B` kings, `.` empty, oriented as the picture is.
#[must_use]
pub fn draw(view: &BoardView) -> String {
    let n = usize::from(view.side);
    // rows[0] is the top rank, as in position text.
    let mut rows = vec![vec!['.'; n]; n];
    for p in &view.pieces {
        let c = match (p.color, p.king) {
            (Color::White, false) => 'w',
            (Color::Black, false) => 'b',
            (Color::White, true) => 'W',
            (Color::Black, true) => 'B',
        };
        let (f, r) = (usize::from(p.square.file), usize::from(p.square.rank));
        if f < n && r < n {
            rows[n - 1 - r][f] = c;
        }
    }
    let side = rows.len();
    let mut out = String::new();
    let order: Vec<usize> = if view.flip {
        (0..side).rev().collect()
    } else {
        (0..side).collect()
    };
    for &r in &order {
        let rank_name = side - r;
        let mut row = rows[r].clone();
        if view.flip {
            row.reverse();
        }
        let cells: Vec<String> = row.iter().map(char::to_string).collect();
        let _ = writeln!(out, "{rank_name:>3} {}", cells.join(" "));
    }
    let mut files: Vec<char> = (0..side).map(|i| (b'a' + i as u8) as char).collect();
    if view.flip {
        files.reverse();
    }
    let files: Vec<String> = files.iter().map(char::to_string).collect();
    let _ = writeln!(out, "    {}", files.join(" "));
    out
}
