//! Every square picture a board can need — shade × tint × piece × destination dot — drawn
//! once at start-up and kept as palette indices, so a board is composed by copying rows.

use crate::draw::{disc, filled, hard_disc};
use crate::palette::Palette;
use crate::theme::{Rgb, Theme};
use image::RgbImage;

/// Light or dark square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    Light = 0,
    Dark = 1,
}

/// What colours the square beneath the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tint {
    Plain = 0,
    WhiteHome = 1,
    BlackHome = 2,
    /// A square of the last move's path.
    Path = 3,
    /// The piece asked about with "where can it go?".
    Selected = 4,
}

/// What stands on the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stone {
    Empty = 0,
    WhiteMan = 1,
    BlackMan = 2,
    WhiteKing = 3,
    BlackKing = 4,
    /// A piece taken in the last move, drawn faintly where it stood.
    GhostWhite = 5,
    GhostBlack = 6,
}

const SHADES: usize = 2;
const TINTS: usize = 5;
const STONES: usize = 7;

/// All sprites of one square size.
pub struct SpriteSet {
    pub size: u32,
    sprites: Vec<Vec<u8>>,
}

/// A mark drawn over a square: where the selected piece can go, or a piece that can move
/// (or must capture).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    None = 0,
    Destination = 1,
    Movable = 2,
    MustCapture = 3,
}

const MARKS: usize = 4;

fn key(shade: Shade, tint: Tint, stone: Stone, mark: Mark) -> usize {
    (((shade as usize) * TINTS + tint as usize) * STONES + stone as usize) * MARKS + mark as usize
}

fn background(theme: &Theme, shade: Shade, tint: Tint) -> Rgb {
    let s = shade as usize;
    match tint {
        Tint::Plain => [theme.light, theme.dark][s],
        Tint::WhiteHome => theme.white_home[s],
        Tint::BlackHome => theme.black_home[s],
        Tint::Path => theme.path[s],
        Tint::Selected => theme.selected[s],
    }
}

fn draw_stone(img: &mut RgbImage, theme: &Theme, stone: Stone, bg: Rgb) {
    let s = img.width() as f32;
    let c = s / 2.0;
    let r = s * 0.40;
    let edge = (s / 22.0).max(1.5);
    let (fill, rim) = match stone {
        Stone::Empty => return,
        Stone::WhiteMan | Stone::WhiteKing => (theme.white_fill, theme.white_edge),
        Stone::BlackMan | Stone::BlackKing => (theme.black_fill, theme.black_edge),
        Stone::GhostWhite => (bg, theme.ghost_white),
        Stone::GhostBlack => (bg, theme.ghost_black),
    };
    disc(img, c, c, r, rim);
    disc(img, c, c, r - edge, fill);
    if matches!(stone, Stone::WhiteKing | Stone::BlackKing) {
        // A gold ring with a gold centre: reads as "king" at any size.
        disc(img, c, c, r * 0.55, theme.king);
        disc(img, c, c, r * 0.55 - edge * 1.3, fill);
        disc(img, c, c, r * 0.18, theme.king);
    }
}

fn to_indices(img: &RgbImage, palette: &mut Palette) -> Vec<u8> {
    img.pixels().map(|p| palette.index_of(p.0)).collect()
}

/// `img`'s palette indices, knowing that it differs from the sprite `plain` only within
/// the box around a dot at `at` of radius `r`: only those pixels are looked up (start-up
/// time: a restart is charged its start-up, and looking up every pixel of every sprite is
/// most of it).
fn indices_around(
    img: &RgbImage,
    plain: &[u8],
    at: (f32, f32),
    r: f32,
    palette: &mut Palette,
) -> Vec<u8> {
    let (w, h) = img.dimensions();
    let mut out = plain.to_vec();
    let x0 = (at.0 - r - 2.0).max(0.0) as u32;
    let y0 = (at.1 - r - 2.0).max(0.0) as u32;
    let x1 = ((at.0 + r + 2.0) as u32).min(w - 1);
    let y1 = ((at.1 + r + 2.0) as u32).min(h - 1);
    for y in y0..=y1 {
        for x in x0..=x1 {
            out[(y * w + x) as usize] = palette.index_of(img.get_pixel(x, y).0);
        }
    }
    out
}

impl SpriteSet {
    /// Draw every sprite for squares of `size` pixels, adding their colours to `palette`.
    pub fn new(size: u32, theme: &Theme, palette: &mut Palette) -> SpriteSet {
        let mut sprites = vec![Vec::new(); SHADES * TINTS * STONES * MARKS];
        for shade in [Shade::Light, Shade::Dark] {
            for tint in [
                Tint::Plain,
                Tint::WhiteHome,
                Tint::BlackHome,
                Tint::Path,
                Tint::Selected,
            ] {
                let bg = background(theme, shade, tint);
                for stone in [
                    Stone::Empty,
                    Stone::WhiteMan,
                    Stone::BlackMan,
                    Stone::WhiteKing,
                    Stone::BlackKing,
                    Stone::GhostWhite,
                    Stone::GhostBlack,
                ] {
                    // The stone is drawn once (its blended edge is the costly part, and
                    // start-up waits for it); each mark is a copy with a dot added.
                    let mut base = filled(size, bg);
                    draw_stone(&mut base, theme, stone, bg);
                    let plain = to_indices(&base, palette);
                    let c = size as f32 / 2.0;
                    let corner = (size as f32 * 0.80, size as f32 * 0.20);
                    let piece =
                        !matches!(stone, Stone::Empty | Stone::GhostWhite | Stone::GhostBlack);
                    for mark in [Mark::Destination, Mark::Movable, Mark::MustCapture] {
                        // Marks of movable pieces go on pieces only; elsewhere the key
                        // holds the plain sprite (never asked for, but always there).
                        if mark != Mark::Destination && !piece {
                            sprites[key(shade, tint, stone, mark)].clone_from(&plain);
                            continue;
                        }
                        let mut img = base.clone();
                        // The dot's centre and radius: only the pixels around it change.
                        let (at, r) = match mark {
                            Mark::Destination => ((c, c), size as f32 * 0.14),
                            Mark::Movable => (corner, size as f32 * 0.10),
                            Mark::MustCapture | Mark::None => (corner, size as f32 * 0.14),
                        };
                        match mark {
                            Mark::Destination => {
                                disc(&mut img, c, c, size as f32 * 0.14, theme.destination);
                            }
                            // A small green dot at the piece's corner: it can move; a larger
                            // red one: it must capture.
                            Mark::Movable => {
                                hard_disc(
                                    &mut img,
                                    corner.0,
                                    corner.1,
                                    size as f32 * 0.10,
                                    theme.destination,
                                );
                            }
                            Mark::MustCapture | Mark::None => {
                                hard_disc(
                                    &mut img,
                                    corner.0,
                                    corner.1,
                                    size as f32 * 0.14,
                                    theme.capture,
                                );
                            }
                        }
                        sprites[key(shade, tint, stone, mark)] =
                            indices_around(&img, &plain, at, r, palette);
                    }
                    sprites[key(shade, tint, stone, Mark::None)] = plain;
                }
            }
        }
        SpriteSet { size, sprites }
    }

    /// The sprite's pixels, `size` rows of `size` palette indices.
    #[must_use]
    pub fn get(&self, shade: Shade, tint: Tint, stone: Stone, mark: Mark) -> &[u8] {
        &self.sprites[key(shade, tint, stone, mark)]
    }
}
