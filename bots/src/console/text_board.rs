//! A compact text board for the terminal, read from the position text of a board view.

use std::fmt::Write as _;
use ugolki_core::table::BoardView;

/// The board as lines of text: ranks down the left, files along the bottom, `w`/`b` men,
/// `W`/`B` kings, `.` empty, oriented as the picture is.
#[must_use]
pub fn draw(view: &BoardView) -> String {
    let board = view.position.split_whitespace().next().unwrap_or("");
    let mut rows: Vec<Vec<char>> = Vec::new();
    for rank in board.split('/') {
        let mut row = Vec::new();
        let mut run = 0usize;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                run = run * 10 + d as usize;
            } else {
                row.extend(std::iter::repeat_n('.', run));
                run = 0;
                row.push(c);
            }
        }
        row.extend(std::iter::repeat_n('.', run));
        rows.push(row);
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
