//! A tournament's standings as a picture: a table of place, name, score, games (as marks),
//! rating change and performance, drawn with the boards' palette, glyphs and canvas.

use crate::font::Canvas;
use crate::{encode, Renderer};
use ugolki_core::view::StandingsView;

const WIDTH: u32 = 680;
/// Above the first row: the title and the column headings.
const TOP: u32 = 76;
const ROW: u32 = 30;
const BOTTOM: u32 = 40;
/// Each column's left edge and right limit; the place and the numbers are right-aligned
/// to their limit.
const COLUMNS: [(u32, u32); 6] = [
    (12, 48),
    (60, 270),
    (280, 340),
    (350, 520),
    (530, 590),
    (600, 668),
];

impl Renderer {
    /// The standings as an indexed PNG.
    #[must_use]
    pub fn standings(&self, view: &StandingsView) -> Vec<u8> {
        encode(&self.standings_canvas(view), &self.palette)
    }

    /// The standings as palette indices.
    #[must_use]
    pub fn standings_canvas(&self, view: &StandingsView) -> Canvas {
        let rows = u32::try_from(view.rows.len()).unwrap_or(u32::MAX).min(200);
        let height = TOP + rows.max(1) * ROW + BOTTOM;
        let mut c = Canvas {
            width: WIDTH,
            height,
            pixels: vec![self.frame; (WIDTH * height) as usize],
        };
        let title = &self.small.header;
        let small = &self.small.coords;
        c.text(title, 12, 10, WIDTH - 12, &view.title, &self.text);
        let right_aligned = |i: usize| i == 0 || i >= 2 && i != 3;
        let cell = |c: &mut Canvas, i: usize, y: u32, text: &str, ink: &[u8; 5]| {
            let (left, limit) = COLUMNS[i];
            let x = if right_aligned(i) {
                limit.saturating_sub(small.measure(text)).max(left)
            } else {
                left
            };
            c.text(small, x, y, limit, text, ink);
        };
        for (i, h) in view.columns.iter().enumerate() {
            cell(&mut c, i, TOP - 30, h, &self.text_dim);
        }
        let rule = (TOP - 4) as f32;
        c.line(
            (12.0, rule),
            ((WIDTH - 12) as f32, rule),
            1.0,
            self.text_dim[2],
        );
        for (n, r) in view.rows.iter().take(rows as usize).enumerate() {
            let y = TOP + u32::try_from(n).unwrap_or(0) * ROW + 4;
            let ink = if r.away {
                &self.text_dim
            } else if r.place == 1 {
                &self.text_accent
            } else {
                &self.text
            };
            let place = r.place.to_string();
            let cells = [
                place.as_str(),
                &r.name,
                &r.score,
                &r.marks,
                &r.change,
                &r.performance,
            ];
            for (i, text) in cells.into_iter().enumerate() {
                cell(&mut c, i, y, text, ink);
            }
        }
        if !view.footer.is_empty() {
            c.text(
                small,
                12,
                height - BOTTOM + 8,
                WIDTH - 12,
                &view.footer,
                &self.text_dim,
            );
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ugolki_core::view::StandingsRow;

    fn row(place: usize, name: &str) -> StandingsRow {
        StandingsRow {
            place,
            name: name.into(),
            score: "3½".into(),
            marks: "1 ½ 0 + *".into(),
            change: "+12".into(),
            performance: "1412".into(),
            away: place == 3,
        }
    }

    #[test]
    fn the_standings_are_a_png_with_a_row_per_entrant() {
        let r = Renderer::default();
        let view = StandingsView {
            title: "Tournament #1, final standings".into(),
            columns: ["#", "Player", "Score", "Games", "±", "Perf."].map(String::from),
            rows: vec![row(1, "alice"), row(2, "Борис"), row(3, "carol")],
            footer: String::new(),
        };
        let canvas = r.standings_canvas(&view);
        assert_eq!(canvas.height, TOP + 3 * ROW + BOTTOM);
        // Each row has ink on it (not the frame alone).
        for n in 0..3 {
            let y = TOP + n * ROW + 12;
            let line = &canvas.pixels[(y * WIDTH) as usize..((y + 1) * WIDTH) as usize];
            assert!(line.iter().any(|p| *p != r.frame), "row {n} is empty");
        }
        let png = r.standings(&view);
        assert_eq!(&png[1..4], b"PNG");
        let decoded = png::Decoder::new(std::io::Cursor::new(&png))
            .read_info()
            .unwrap();
        assert_eq!(decoded.info().width, WIDTH);
    }
}
