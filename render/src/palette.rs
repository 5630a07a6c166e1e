//! The picture's palette: every colour a sprite, glyph or mark uses gets one index, so a
//! board is written as an 8-bit indexed PNG.

use crate::theme::Rgb;
use std::collections::HashMap;

#[derive(Clone, Debug, Default)]
pub struct Palette {
    colors: Vec<Rgb>,
    index: HashMap<Rgb, u8>,
}

impl Palette {
    /// The index of `c`, adding it if new. Past 256 colours the nearest existing one is used
    /// (the theme is built to stay well under; a test checks it).
    pub fn index_of(&mut self, c: Rgb) -> u8 {
        if let Some(&i) = self.index.get(&c) {
            return i;
        }
        if self.colors.len() < 256 {
            let i = self.colors.len() as u8;
            self.colors.push(c);
            self.index.insert(c, i);
            return i;
        }
        self.nearest(c)
    }

    fn nearest(&self, c: Rgb) -> u8 {
        let dist = |p: &Rgb| -> i32 {
            (0..3)
                .map(|k| (i32::from(p[k]) - i32::from(c[k])).pow(2))
                .sum()
        };
        self.colors
            .iter()
            .enumerate()
            .min_by_key(|(_, p)| dist(p))
            .map_or(0, |(i, _)| i as u8)
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.colors.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.colors.is_empty()
    }

    #[must_use]
    pub fn color(&self, i: u8) -> Rgb {
        self.colors[usize::from(i)]
    }

    /// The PLTE chunk's bytes.
    #[must_use]
    pub fn bytes(&self) -> Vec<u8> {
        self.colors.iter().flatten().copied().collect()
    }
}

/// `a` blended towards `b` by `t` (0..=1).
#[must_use]
pub fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let m = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    [m(a[0], b[0]), m(a[1], b[1]), m(a[2], b[2])]
}
