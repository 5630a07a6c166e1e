//! Drawing on RGB sprites at start-up: filled squares and anti-aliased discs with the edge
//! coverage rounded to quarters, so the number of distinct colours stays small.

use crate::palette::mix;
use crate::theme::Rgb;
use image::{Rgb as Px, RgbImage};

/// Coverage steps of an edge pixel: 0, ¼, ½, ¾, 1.
pub const LEVELS: u32 = 4;

/// Fraction of the pixel (x, y) inside the disc, by 4×4 supersampling, in `LEVELS` steps.
fn disc_coverage(x: u32, y: u32, cx: f32, cy: f32, r: f32) -> u32 {
    let mut inside = 0;
    for sy in 0..4 {
        for sx in 0..4 {
            let px = x as f32 + (sx as f32 + 0.5) / 4.0 - cx;
            let py = y as f32 + (sy as f32 + 0.5) / 4.0 - cy;
            if px * px + py * py <= r * r {
                inside += 1;
            }
        }
    }
    (inside * LEVELS + 8) / 16
}

/// Call `paint(img, x, y, coverage)` for each pixel a disc covers at all.
fn each_covered(
    img: &mut RgbImage,
    cx: f32,
    cy: f32,
    r: f32,
    mut paint: impl FnMut(&mut RgbImage, u32, u32, u32),
) {
    let (w, h) = img.dimensions();
    let x0 = (cx - r - 1.0).max(0.0) as u32;
    let y0 = (cy - r - 1.0).max(0.0) as u32;
    let x1 = ((cx + r + 1.0) as u32).min(w - 1);
    let y1 = ((cy + r + 1.0) as u32).min(h - 1);
    for y in y0..=y1 {
        for x in x0..=x1 {
            let cov = disc_coverage(x, y, cx, cy, r);
            if cov > 0 {
                paint(img, x, y, cov);
            }
        }
    }
}

/// Paint a disc of colour `c` with a hard edge: no blended colours, so a mark drawn over
/// every background adds one colour to the palette, not dozens.
pub fn hard_disc(img: &mut RgbImage, cx: f32, cy: f32, r: f32, c: Rgb) {
    each_covered(img, cx, cy, r, |img, x, y, cov| {
        if cov * 2 >= LEVELS {
            img.put_pixel(x, y, Px(c));
        }
    });
}

/// Paint a disc of colour `c` over the sprite, blending its edge.
pub fn disc(img: &mut RgbImage, cx: f32, cy: f32, r: f32, c: Rgb) {
    each_covered(img, cx, cy, r, |img, x, y, cov| {
        let under = img.get_pixel(x, y).0;
        let t = cov as f32 / LEVELS as f32;
        img.put_pixel(x, y, Px(mix(under, c, t)));
    });
}

/// A square sprite of one colour.
#[must_use]
pub fn filled(size: u32, c: Rgb) -> RgbImage {
    RgbImage::from_pixel(size, size, Px(c))
}
