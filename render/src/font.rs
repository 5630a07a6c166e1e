//! Text for the header and the coordinates: every glyph rasterised once at start-up from
//! the embedded `DejaVu` Sans Bold (licence in `fonts/LICENSE-DejaVu.txt`), kept as coverage in
//! quarters, and copied per request.

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use std::collections::HashMap;

/// The embedded font file.
pub const FONT: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

/// One rasterised glyph: its box relative to the pen (top-left from the line's top) and its
/// coverage, 0..=4 per pixel.
pub struct Glyph {
    pub advance: f32,
    pub left: i32,
    pub top: i32,
    pub width: u32,
    pub height: u32,
    pub coverage: Vec<u8>,
}

/// Glyphs of one size.
pub struct Atlas {
    pub line_height: f32,
    pub ascent: f32,
    glyphs: HashMap<char, Glyph>,
}

/// The characters prepared: ASCII, Latin-1 and Latin Extended-A, Greek, Cyrillic (player
/// names), and the symbols the captions use. Anything else prints as `?`.
fn repertoire() -> impl Iterator<Item = char> {
    let ranges = [
        (0x20u32, 0x7Eu32),
        (0xA0, 0x17F),
        (0x391, 0x3C9),
        (0x400, 0x45F),
        (0x2013, 0x2014),
        (0x2022, 0x2022),
        (0x2026, 0x2026),
        // № (a column heading of the standings in Russian).
        (0x2116, 0x2116),
        (0x2190, 0x2193),
        (0x2212, 0x2212),
        (0x25B6, 0x25B6),
        (0x25CB, 0x25CB),
        (0x25CF, 0x25CF),
    ];
    ranges
        .into_iter()
        .flat_map(|(a, b)| (a..=b).filter_map(char::from_u32))
}

impl Atlas {
    /// Rasterise the repertoire at `px` pixels.
    #[must_use]
    pub fn new(px: f32) -> Atlas {
        let font = FontRef::try_from_slice(FONT).expect("the embedded font parses");
        let scaled = font.as_scaled(PxScale::from(px));
        let ascent = scaled.ascent();
        let mut glyphs = HashMap::new();
        for ch in repertoire() {
            let id = font.glyph_id(ch);
            if id.0 == 0 && ch != ' ' {
                continue; // not in the font
            }
            let g = id.with_scale_and_position(px, point(0.0, ascent));
            let advance = scaled.h_advance(id);
            let glyph = match font.outline_glyph(g) {
                Some(outline) => {
                    let b = outline.px_bounds();
                    let (w, h) = (b.width() as u32, b.height() as u32);
                    let mut coverage = vec![0u8; (w * h) as usize];
                    outline.draw(|x, y, c| {
                        if x < w && y < h {
                            coverage[(y * w + x) as usize] =
                                (c.clamp(0.0, 1.0) * 4.0).round() as u8;
                        }
                    });
                    Glyph {
                        advance,
                        left: b.min.x as i32,
                        top: b.min.y as i32,
                        width: w,
                        height: h,
                        coverage,
                    }
                }
                None => Glyph {
                    advance,
                    left: 0,
                    top: 0,
                    width: 0,
                    height: 0,
                    coverage: Vec::new(),
                },
            };
            glyphs.insert(ch, glyph);
        }
        Atlas {
            line_height: scaled.height() + scaled.line_gap(),
            ascent,
            glyphs,
        }
    }

    /// The glyph for `c`, or `?` when the font or the repertoire lacks it.
    #[must_use]
    pub fn glyph(&self, c: char) -> &Glyph {
        self.glyphs
            .get(&c)
            .or_else(|| self.glyphs.get(&'?'))
            .expect("'?' is always prepared")
    }

    /// Width of `text` in pixels.
    #[must_use]
    pub fn measure(&self, text: &str) -> u32 {
        text.chars()
            .map(|c| self.glyph(c).advance)
            .sum::<f32>()
            .ceil() as u32
    }
}

/// An 8-bit indexed canvas the board is composed on.
pub struct Canvas {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl Canvas {
    /// Draw `text` with its line's top at `y`, starting at `x`, clipped at `max_x`; `ink` maps
    /// coverage 1..=4 to palette indices. Returns where the pen stopped.
    pub fn text(
        &mut self,
        atlas: &Atlas,
        x: u32,
        y: u32,
        max_x: u32,
        text: &str,
        ink: &[u8; 5],
    ) -> u32 {
        let mut pen = x as f32;
        for c in text.chars() {
            let g = atlas.glyph(c);
            if pen + g.advance > max_x as f32 {
                break;
            }
            let gx = pen.round() as i32 + g.left;
            let gy = y as i32 + g.top;
            for row in 0..g.height {
                let py = gy + row as i32;
                if py < 0 || py >= self.height as i32 {
                    continue;
                }
                for col in 0..g.width {
                    let px = gx + col as i32;
                    let cov = g.coverage[(row * g.width + col) as usize];
                    if cov == 0 || px < 0 || px >= self.width as i32 {
                        continue;
                    }
                    self.pixels[(py as u32 * self.width + px as u32) as usize] =
                        ink[usize::from(cov)];
                }
            }
            pen += g.advance;
        }
        pen.ceil() as u32
    }

    /// A filled disc of one index (marks drawn per request: chain dots).
    pub fn dot(&mut self, cx: f32, cy: f32, r: f32, index: u8) {
        let x0 = (cx - r).floor().max(0.0) as u32;
        let y0 = (cy - r).floor().max(0.0) as u32;
        let x1 = ((cx + r).ceil() as u32).min(self.width - 1);
        let y1 = ((cy + r).ceil() as u32).min(self.height - 1);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
                if dx * dx + dy * dy <= r * r {
                    self.pixels[(y * self.width + x) as usize] = index;
                }
            }
        }
    }

    /// A thick line segment of one index, drawn as a run of discs.
    pub fn line(&mut self, from: (f32, f32), to: (f32, f32), thickness: f32, index: u8) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let steps = dx.abs().max(dy.abs()).ceil().max(1.0) as u32;
        for i in 0..=steps {
            let t = i as f32 / steps as f32;
            self.dot(from.0 + dx * t, from.1 + dy * t, thickness / 2.0, index);
        }
    }

    /// A filled triangle (arrow heads).
    pub fn triangle(&mut self, a: (f32, f32), b: (f32, f32), c: (f32, f32), index: u8) {
        let min_x = a.0.min(b.0).min(c.0).floor().max(0.0) as u32;
        let max_x = (a.0.max(b.0).max(c.0).ceil() as u32).min(self.width - 1);
        let min_y = a.1.min(b.1).min(c.1).floor().max(0.0) as u32;
        let max_y = (a.1.max(b.1).max(c.1).ceil() as u32).min(self.height - 1);
        let edge = |p: (f32, f32), q: (f32, f32), r: (f32, f32)| {
            (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
        };
        for y in min_y..=max_y {
            for x in min_x..=max_x {
                let p = (x as f32 + 0.5, y as f32 + 0.5);
                let (e1, e2, e3) = (edge(a, b, p), edge(b, c, p), edge(c, a, p));
                if (e1 >= 0.0 && e2 >= 0.0 && e3 >= 0.0) || (e1 <= 0.0 && e2 <= 0.0 && e3 <= 0.0) {
                    self.pixels[(y * self.width + x) as usize] = index;
                }
            }
        }
    }
}
