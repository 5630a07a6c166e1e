//! The rating chart of `/rating`: a player's rating over their rated games, drawn with the
//! same palette, glyphs and canvas as the boards (no plotting crate needed).

use crate::font::Canvas;
use crate::{encode, Renderer};
use ugolki_core::view::ChartView;

/// Chart size in pixels.
const WIDTH: u32 = 560;
const HEIGHT: u32 = 300;

/// A round step for grid lines: 3–6 lines over `range` rating points.
fn grid_step(range: i64) -> i64 {
    [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|s| range / s <= 5)
        .unwrap_or(1000)
}

impl Renderer {
    /// The chart as an indexed PNG.
    #[must_use]
    pub fn chart(&self, view: &ChartView) -> Vec<u8> {
        encode(&self.chart_canvas(view), &self.palette)
    }

    /// The chart as palette indices.
    #[must_use]
    pub fn chart_canvas(&self, view: &ChartView) -> Canvas {
        let mut c = Canvas {
            width: WIDTH,
            height: HEIGHT,
            pixels: vec![self.frame; (WIDTH * HEIGHT) as usize],
        };
        let title = &self.small.header;
        let small = &self.small.coords;
        c.text(title, 16, 8, WIDTH - 16, &view.title, &self.text);
        let (left, right, top, bottom) =
            (64.0f32, (WIDTH - 20) as f32, 48.0f32, (HEIGHT - 36) as f32);
        let pts = if view.points.is_empty() {
            vec![1000]
        } else {
            view.points.clone()
        };
        let (lo, hi) = (
            pts.iter().min().copied().unwrap_or(1000),
            pts.iter().max().copied().unwrap_or(1000),
        );
        let step = grid_step((hi - lo).max(20));
        let lo = (lo - 5).div_euclid(step) * step;
        let hi = (hi + 5 + step - 1).div_euclid(step) * step;
        let y_of = |r: i64| bottom - (r - lo) as f32 / (hi - lo).max(1) as f32 * (bottom - top);
        let mut r = lo;
        while r <= hi {
            let y = y_of(r);
            c.line((left, y), (right, y), 1.0, self.text_dim[1]);
            let label = r.to_string();
            let w = small.measure(&label);
            let ly = (y - small.line_height / 2.0).max(0.0) as u32;
            c.text(
                small,
                (left as u32).saturating_sub(w + 8),
                ly,
                left as u32,
                &label,
                &self.text_dim,
            );
            r += step;
        }
        let n = pts.len();
        let x_of = |i: usize| {
            if n <= 1 {
                f32::midpoint(left, right)
            } else {
                left + i as f32 / (n - 1) as f32 * (right - left)
            }
        };
        for i in 1..n {
            c.line(
                (x_of(i - 1), y_of(pts[i - 1])),
                (x_of(i), y_of(pts[i])),
                3.0,
                self.chain,
            );
        }
        if n <= 60 {
            for (i, p) in pts.iter().enumerate() {
                c.dot(x_of(i), y_of(*p), 4.0, self.chain);
            }
        }
        let games = view.footer.as_str();
        let w = small.measure(games);
        c.text(
            small,
            (right as u32).saturating_sub(w),
            HEIGHT - 26,
            WIDTH,
            games,
            &self.text,
        );
        c
    }
}
