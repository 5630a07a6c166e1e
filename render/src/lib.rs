//! ugolki-render: a position plus marks → an indexed PNG.
//!
//! Made like lichess's lila-gif: every square sprite (shade × tint × piece × destination dot)
//! and every glyph is drawn once when the [`Renderer`] is built; a board is composed by
//! copying sprite rows into an 8-bit canvas, the last move's chain is drawn over it, and the
//! canvas is written as a palette PNG with fast compression. No I/O but the returned bytes.

// Pixel geometry: coordinates are a few hundred pixels, far inside f32's exact range, and
// x, y, r, s, n are the natural names.
#![allow(clippy::cast_precision_loss, clippy::many_single_char_names)]

mod animation;
mod chart;
mod draw;
mod font;
mod palette;
mod png_out;
mod scene;
mod sprites;
mod standings;
mod theme;

pub use animation::{AnimationError, REPLAY_WIDTH};
pub use font::Canvas;
pub use palette::Palette;
pub use scene::{ghost, BoardKind, Header, Player, Scene};
pub use sprites::Stone;
pub use theme::{Rgb, Theme};

use font::Atlas;
use palette::mix;
use sprites::{Mark, Shade, SpriteSet, Tint};
use ugolki_core::{Color, Square};

thread_local! {
    /// The canvas of the last picture drawn on this thread, reused by the next.
    static CANVAS: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Picture sizes: the square size in pixels for 8×8 and 16×16 boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub square8: u32,
    pub square16: u32,
}

impl Default for Options {
    /// About 560 px wide for 8×8 and 620 px for 16×16.
    fn default() -> Options {
        Options {
            square8: 64,
            square16: 36,
        }
    }
}

impl Options {
    /// Square sizes for a picture about `width` pixels wide (clamped to 16..=160 px squares).
    #[must_use]
    pub fn for_width(width: u32) -> Options {
        let sq = |n: u64| (u64::from(width) * 8 / (n * 8 + 7)).clamp(16, 160) as u32;
        Options {
            square8: sq(8),
            square16: sq(16),
        }
    }
}

/// Where things are in a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub side: u8,
    pub square: u32,
    pub flip: bool,
    /// Top-left corner of the board.
    pub board_x: u32,
    pub board_y: u32,
    pub width: u32,
    pub height: u32,
}

impl Layout {
    /// Top-left pixel of `sq`'s square.
    #[must_use]
    pub fn origin(&self, sq: Square) -> (u32, u32) {
        let n = u32::from(self.side);
        let (f, r) = (u32::from(sq.file), u32::from(sq.rank));
        let (col, row) = if self.flip {
            (n - 1 - f, r)
        } else {
            (f, n - 1 - r)
        };
        (
            self.board_x + col * self.square,
            self.board_y + row * self.square,
        )
    }

    /// Centre pixel of `sq`'s square.
    #[must_use]
    pub fn center(&self, sq: Square) -> (u32, u32) {
        let (x, y) = self.origin(sq);
        (x + self.square / 2, y + self.square / 2)
    }
}

/// Per board size: sprites and fonts.
struct Kit {
    sprites: SpriteSet,
    header: Atlas,
    coords: Atlas,
}

impl Kit {
    fn new(square: u32, side: u32, theme: &Theme, palette: &mut Palette) -> Kit {
        let board = (square * side) as f32;
        Kit {
            sprites: SpriteSet::new(square, theme, palette),
            header: Atlas::new((board / 30.0).clamp(13.0, 28.0)),
            coords: Atlas::new((square as f32 * 0.34).clamp(10.0, 20.0)),
        }
    }
}

/// Ink for text: palette indices for glyph coverage 0..=4 over the frame colour.
fn ink(theme: &Theme, color: Rgb, palette: &mut Palette) -> [u8; 5] {
    let mut out = [0u8; 5];
    for (level, slot) in out.iter_mut().enumerate() {
        *slot = palette.index_of(mix(theme.frame, color, level as f32 / 4.0));
    }
    out
}

/// The board picture maker. Build one at start-up and share it; `render` takes `&self`.
pub struct Renderer {
    palette: Palette,
    small: Kit,
    large: Kit,
    frame: u8,
    chain: u8,
    text: [u8; 5],
    text_dim: [u8; 5],
    text_accent: [u8; 5],
}

impl Default for Renderer {
    fn default() -> Renderer {
        Renderer::new(Options::default(), &Theme::default())
    }
}

impl Renderer {
    /// Prepare every sprite and glyph for these sizes and colours.
    #[must_use]
    pub fn new(options: Options, theme: &Theme) -> Renderer {
        let mut palette = Palette::default();
        let frame = palette.index_of(theme.frame);
        let chain = palette.index_of(theme.chain);
        let text = ink(theme, theme.text, &mut palette);
        let text_dim = ink(theme, theme.text_dim, &mut palette);
        let text_accent = ink(theme, theme.text_accent, &mut palette);
        let small = Kit::new(options.square8, 8, theme, &mut palette);
        let large = Kit::new(options.square16, 16, theme, &mut palette);
        Renderer {
            palette,
            small,
            large,
            frame,
            chain,
            text,
            text_dim,
            text_accent,
        }
    }

    /// The palette every picture uses.
    #[must_use]
    pub fn palette(&self) -> &Palette {
        &self.palette
    }

    fn kit(&self, side: u8) -> &Kit {
        if side > 8 {
            &self.large
        } else {
            &self.small
        }
    }

    /// Where the board and its squares lie in the picture of `scene`.
    #[must_use]
    pub fn layout(&self, scene: &Scene) -> Layout {
        let kit = self.kit(scene.side);
        let s = kit.sprites.size;
        let n = u32::from(scene.side);
        let margin = (kit.coords.line_height.ceil() as u32 + 6).max(s / 2);
        let lines = wrap(&kit.header, &scene.header.info, n * s).len().max(1);
        let header = (kit.header.line_height * (1 + lines) as f32 + 14.0).ceil() as u32;
        Layout {
            side: scene.side,
            square: s,
            flip: scene.flip,
            board_x: margin,
            board_y: header,
            width: margin + n * s + margin / 2,
            height: header + n * s + margin,
        }
    }

    /// The picture as an indexed PNG.
    #[must_use]
    pub fn render(&self, scene: &Scene) -> Vec<u8> {
        // The canvas buffer is reused between pictures on a thread (no page faults).
        CANVAS.with(|cell| {
            let mut pixels = cell.take();
            let canvas = self.compose_into(scene, pixels);
            let png = encode(&canvas, &self.palette);
            pixels = canvas.pixels;
            cell.replace(pixels);
            png
        })
    }

    /// The picture as palette indices (what `render` encodes).
    #[must_use]
    pub fn compose(&self, scene: &Scene) -> Canvas {
        self.compose_into(scene, Vec::new())
    }

    /// Compose into a reused pixel buffer.
    fn compose_into(&self, scene: &Scene, mut pixels: Vec<u8>) -> Canvas {
        let layout = self.layout(scene);
        let kit = self.kit(scene.side);
        pixels.clear();
        pixels.resize((layout.width * layout.height) as usize, self.frame);
        let mut canvas = Canvas {
            width: layout.width,
            height: layout.height,
            pixels,
        };
        Self::squares(&mut canvas, &layout, kit, scene);
        self.chain(&mut canvas, &layout, scene);
        self.coordinates(&mut canvas, &layout, kit);
        self.header(&mut canvas, &layout, kit, &scene.header);
        canvas
    }

    fn squares(canvas: &mut Canvas, layout: &Layout, kit: &Kit, scene: &Scene) {
        let n = usize::from(scene.side);
        let s = layout.square as usize;
        // One cell per square: what sprite it takes.
        let mut tint = vec![Tint::Plain; n * n];
        let mut stone = vec![Stone::Empty; n * n];
        let mut mark = vec![Mark::None; n * n];
        let at = |sq: &Square| (sq.is_on(scene.side)).then(|| sq.index(scene.side));
        for (side, home) in scene.homes.iter().enumerate() {
            let t = if side == 0 {
                Tint::WhiteHome
            } else {
                Tint::BlackHome
            };
            for i in home.iter().filter_map(at) {
                tint[i] = t;
            }
        }
        for i in scene.last_path.iter().filter_map(at) {
            tint[i] = Tint::Path;
        }
        if let Some(i) = scene.selected.as_ref().and_then(at) {
            tint[i] = Tint::Selected;
        }
        for (sq, st) in scene.ghosts.iter().chain(&scene.pieces) {
            if let Some(i) = at(sq) {
                stone[i] = *st;
            }
        }
        let movable = if scene.must_capture {
            Mark::MustCapture
        } else {
            Mark::Movable
        };
        for i in scene.movable.iter().filter_map(at) {
            mark[i] = movable;
        }
        for i in scene.destinations.iter().filter_map(at) {
            mark[i] = Mark::Destination;
        }
        for rank in 0..scene.side {
            for file in 0..scene.side {
                let sq = Square::new(file, rank);
                let i = sq.index(scene.side);
                let shade = if scene.kind.is_dark(sq) {
                    Shade::Dark
                } else {
                    Shade::Light
                };
                let sprite = kit.sprites.get(shade, tint[i], stone[i], mark[i]);
                let (x, y) = layout.origin(sq);
                for row in 0..s {
                    let start = (y as usize + row) * canvas.width as usize + x as usize;
                    canvas.pixels[start..start + s]
                        .copy_from_slice(&sprite[row * s..(row + 1) * s]);
                }
            }
        }
    }

    /// The last move's path: a line through every hop, a dot on each landing square, an
    /// arrow head stopping at the edge of the piece that moved.
    fn chain(&self, canvas: &mut Canvas, layout: &Layout, scene: &Scene) {
        let path: Vec<(f32, f32)> = scene
            .last_path
            .iter()
            .filter(|s| s.is_on(scene.side))
            .map(|s| {
                let (x, y) = layout.center(*s);
                (x as f32, y as f32)
            })
            .collect();
        if path.len() < 2 {
            return;
        }
        let s = layout.square as f32;
        let thick = (s / 9.0).max(2.0);
        let last = path.len() - 1;
        let (p, q) = (path[last - 1], path[last]);
        let len = ((q.0 - p.0).powi(2) + (q.1 - p.1).powi(2)).sqrt().max(1.0);
        let (ux, uy) = ((q.0 - p.0) / len, (q.1 - p.1) / len);
        let tip = (q.0 - ux * s * 0.41, q.1 - uy * s * 0.41);
        let head = s * 0.26;
        let base = (tip.0 - ux * head, tip.1 - uy * head);
        for w in path[..last].windows(2) {
            canvas.line(w[0], w[1], thick, self.chain);
        }
        canvas.line(p, base, thick, self.chain);
        canvas.triangle(
            tip,
            (base.0 - uy * head * 0.6, base.1 + ux * head * 0.6),
            (base.0 + uy * head * 0.6, base.1 - ux * head * 0.6),
            self.chain,
        );
        for point in &path[1..last] {
            canvas.dot(point.0, point.1, thick * 1.1, self.chain);
        }
    }

    fn coordinates(&self, canvas: &mut Canvas, layout: &Layout, kit: &Kit) {
        let atlas = &kit.coords;
        let n = layout.side;
        let glyph_h = atlas.line_height;
        for i in 0..n {
            let file = format!("{}", (b'a' + i) as char);
            let (x, _) = layout.origin(Square::new(i, 0));
            let w = atlas.measure(&file);
            let y = layout.board_y + u32::from(n) * layout.square + 2;
            let fx = x + layout.square.saturating_sub(w) / 2;
            canvas.text(atlas, fx, y, canvas.width, &file, &self.text_dim);
            let rank = format!("{}", i + 1);
            let (_, ry) = layout.origin(Square::new(0, i));
            let w = atlas.measure(&rank);
            let rx = layout.board_x.saturating_sub(w + 5);
            let y = ry + (layout.square as f32 / 2.0 - glyph_h / 2.0).max(0.0) as u32;
            canvas.text(atlas, rx, y, layout.board_x, &rank, &self.text_dim);
        }
    }

    fn header(&self, canvas: &mut Canvas, layout: &Layout, kit: &Kit, header: &Header) {
        let atlas = &kit.header;
        let pad = 7;
        let left = layout.board_x;
        let right = layout.board_x + u32::from(layout.side) * layout.square;
        let line = |p: &Player, c: Color| -> String {
            let mark = if header.to_move == Some(c) {
                "▶ "
            } else {
                ""
            };
            let dot = if c == Color::White { "○" } else { "●" };
            match &p.clock {
                Some(clock) => format!("{mark}{dot} {}  {clock}", p.name),
                None => format!("{mark}{dot} {}", p.name),
            }
        };
        let ink_for = |c: Color| {
            if header.to_move == Some(c) {
                &self.text_accent
            } else {
                &self.text
            }
        };
        // White on the left, Black on the right; each gets at most half the width.
        let half = (right - left) / 2;
        let white = fit(atlas, &line(&header.white, Color::White), half - 4);
        let black = fit(atlas, &line(&header.black, Color::Black), half - 4);
        canvas.text(
            atlas,
            left,
            pad,
            left + half - 4,
            &white,
            ink_for(Color::White),
        );
        let bw = atlas.measure(&black).min(half - 4);
        canvas.text(atlas, right - bw, pad, right, &black, ink_for(Color::Black));
        // The info line (move, deadline, limit, or the result) wraps at words.
        let step = atlas.line_height.ceil() as u32;
        for (i, text) in wrap(atlas, &header.info, right - left).iter().enumerate() {
            let y = pad + step * (1 + i as u32);
            canvas.text(atlas, left, y, right, text, &self.text);
        }
    }
}

/// Most lines the info text may take under the names.
const MAX_INFO_LINES: usize = 3;

/// `text` shortened to `width` pixels at a word, with `…` (a single over-long word, such as
/// a name, is shortened at a character).
fn fit(atlas: &Atlas, text: &str, width: u32) -> String {
    if atlas.measure(text) <= width {
        return text.to_string();
    }
    let words: Vec<&str> = text.split(' ').collect();
    for n in (1..words.len()).rev() {
        let candidate = format!("{}…", words[..n].join(" ").trim_end());
        if atlas.measure(&candidate) <= width {
            return candidate;
        }
    }
    let mut out = String::new();
    for c in text.chars() {
        let next = format!("{out}{c}…");
        if atlas.measure(&next) > width {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// `text` broken into lines of at most `width` pixels at spaces, never inside a word; at
/// most [`MAX_INFO_LINES`], the last shortened with `…` when the text goes on.
fn wrap(atlas: &Atlas, text: &str, width: u32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let candidate = if current.is_empty() {
            word.to_string()
        } else {
            format!("{current} {word}")
        };
        if atlas.measure(&candidate) <= width || current.is_empty() {
            current = candidate;
        } else {
            lines.push(std::mem::replace(&mut current, word.to_string()));
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    if lines.len() > MAX_INFO_LINES {
        let rest = lines[MAX_INFO_LINES - 1..].join(" ");
        lines.truncate(MAX_INFO_LINES - 1);
        lines.push(fit(atlas, &rest, width));
    }
    for l in &mut lines {
        if atlas.measure(l) > width {
            *l = fit(atlas, l, width);
        }
    }
    lines
}

/// Write the canvas as an 8-bit indexed PNG: Paeth filter, fdeflate's fast deflate.
/// Measured on a classic 8×8 board: Paeth 15.4 KB; Up 22.7 KB; zlib level 1 16 KB but
/// 0.6 ms — Paeth with fast deflate is the only setting under both 20 KB and 0.3 ms.
pub(crate) fn encode(canvas: &Canvas, palette: &Palette) -> Vec<u8> {
    png_out::indexed_png(
        canvas.width,
        canvas.height,
        &canvas.pixels,
        &palette.bytes(),
    )
}

#[cfg(test)]
mod header_tests {
    use super::*;

    #[test]
    fn a_long_header_wraps_at_words_and_never_cuts_one() {
        let atlas = Atlas::new(18.0);
        let text = "Game #3 over: alice (White) wins — black has no pieces left (D5). Ratings: alice 1015 (+15), bob 985 (−15).";
        let words: Vec<&str> = text.split(' ').collect();
        let lines = wrap(&atlas, text, 420);
        assert!(lines.len() > 1, "{lines:?}");
        for l in &lines {
            assert!(atlas.measure(l) <= 420, "{l}");
            for w in l.trim_end_matches('…').split(' ') {
                assert!(words.contains(&w), "'{w}' is not a whole word of the text");
            }
        }
        assert_eq!(lines.join(" "), text, "everything fits in three lines here");
        let short = wrap(&atlas, "Move 1 · leave home by 40 · limit 80", 600);
        assert_eq!(short, ["Move 1 · leave home by 40 · limit 80"]);
    }

    #[test]
    fn a_header_too_long_for_three_lines_ends_with_an_ellipsis_after_a_word() {
        let atlas = Atlas::new(18.0);
        let text = "word ".repeat(200);
        let lines = wrap(&atlas, text.trim(), 200);
        assert_eq!(lines.len(), MAX_INFO_LINES);
        assert!(lines[2].ends_with("word…"), "{}", lines[2]);
        let name = fit(&atlas, "Bartholomew-the-extremely-long-named", 80);
        assert!(name.ends_with('…') && atlas.measure(&name) <= 80, "{name}");
    }
}
