//! Replays as animated GIFs, the way lila-gif makes them: every frame is composed from the
//! same prepared sprites as a board picture, all frames share the renderer's one palette
//! (the GIF's global colour table), and each frame after the first encodes only the
//! rectangle that changed, with the pixels inside it that did not change made transparent
//! so the LZW coder sees long runs of one value.

use super::{Renderer, Scene};

/// How long each position shows (hundredths of a second), and the last one.
const FRAME_CS: u16 = 80;
const LAST_FRAME_CS: u16 = 400;

/// Why a replay could not be encoded.
#[derive(Debug)]
pub struct AnimationError(String);

impl std::fmt::Display for AnimationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AnimationError {}

impl From<gif::EncodingError> for AnimationError {
    fn from(e: gif::EncodingError) -> Self {
        AnimationError(e.to_string())
    }
}

/// The smallest rectangle holding every pixel where `a` and `b` differ: (x, y, w, h).
fn changed(a: &[u8], b: &[u8], width: usize) -> Option<(usize, usize, usize, usize)> {
    let height = a.len() / width;
    let rows: Vec<usize> = (0..height)
        .filter(|&y| a[y * width..(y + 1) * width] != b[y * width..(y + 1) * width])
        .collect();
    let (&top, &bottom) = (rows.first()?, rows.last()?);
    let mut left = width;
    let mut right = 0;
    for y in top..=bottom {
        let (ra, rb) = (
            &a[y * width..(y + 1) * width],
            &b[y * width..(y + 1) * width],
        );
        if let Some(l) = (0..width).find(|&x| ra[x] != rb[x]) {
            left = left.min(l);
            right = right.max((0..width).rev().find(|&x| ra[x] != rb[x]).unwrap_or(l));
        }
    }
    Some((left, top, right - left + 1, bottom - top + 1))
}

/// Replays are drawn smaller than board pictures: about this wide (an 80-move game then
/// stays within 200 KB).
pub const REPLAY_WIDTH: u32 = 400;

impl Renderer {
    /// A renderer for replays: the same theme, squares for [`REPLAY_WIDTH`].
    #[must_use]
    pub fn for_replays() -> Renderer {
        Renderer::new(
            super::Options::for_width(REPLAY_WIDTH),
            &super::Theme::default(),
        )
    }

    /// The replay of `scenes` (one per position, in order) as an animated GIF that loops.
    pub fn animate(&self, scenes: &[Scene]) -> Result<Vec<u8>, AnimationError> {
        // A replay shows the moves: marks of the pieces that could move would only flicker
        // (and cost bytes in every frame).
        let canvases: Vec<_> = scenes
            .iter()
            .map(|s| {
                if s.movable.is_empty() {
                    self.compose(s)
                } else {
                    let mut plain = s.clone();
                    plain.movable.clear();
                    plain.must_capture = false;
                    self.compose(&plain)
                }
            })
            .collect();
        let Some(first) = canvases.first() else {
            return Err(AnimationError(
                "a replay needs at least one position".into(),
            ));
        };
        // Frames of one game share a width; a header that wraps onto another line makes a
        // frame taller, so every frame is drawn on the tallest.
        let width = canvases
            .iter()
            .map(|c| c.width)
            .max()
            .unwrap_or(first.width) as usize;
        let height = canvases
            .iter()
            .map(|c| c.height)
            .max()
            .unwrap_or(first.height) as usize;
        let (w16, h16) = (
            u16::try_from(width).map_err(|_| AnimationError("too wide".into()))?,
            u16::try_from(height).map_err(|_| AnimationError("too tall".into()))?,
        );
        let background = first.pixels.first().copied().unwrap_or(0);
        // One colour past the palette marks "as before" (the palette stays well under 256).
        let palette = self.palette();
        let transparent = u8::try_from(palette.len())
            .map_err(|_| AnimationError("the palette has no room for transparency".into()))?;
        let mut colours = palette.bytes();
        colours.extend([0, 0, 0]);
        let mut out = Vec::new();
        {
            let mut encoder = gif::Encoder::new(&mut out, w16, h16, &colours)?;
            encoder.set_repeat(gif::Repeat::Infinite)?;
            let mut shown = vec![background; width * height];
            let last = canvases.len() - 1;
            for (i, c) in canvases.iter().enumerate() {
                let mut full = vec![background; width * height];
                let cw = c.width as usize;
                for (y, row) in c.pixels.chunks(cw).enumerate() {
                    full[y * width..y * width + cw].copy_from_slice(row);
                }
                let delay = if i == last { LAST_FRAME_CS } else { FRAME_CS };
                let rect = if i == 0 {
                    Some((0, 0, width, height))
                } else {
                    changed(&shown, &full, width)
                };
                // Nothing changed (a position repeated): a one-pixel frame holds the time.
                let (x, y, w, h) = rect.unwrap_or((0, 0, 1, 1));
                let mut buffer = Vec::with_capacity(w * h);
                for yy in y..y + h {
                    for xx in x..x + w {
                        let p = full[yy * width + xx];
                        let same = i > 0 && shown[yy * width + xx] == p;
                        buffer.push(if same { transparent } else { p });
                    }
                }
                let frame = gif::Frame {
                    delay,
                    dispose: gif::DisposalMethod::Keep,
                    transparent: (i > 0).then_some(transparent),
                    left: u16::try_from(x).unwrap_or(0),
                    top: u16::try_from(y).unwrap_or(0),
                    width: u16::try_from(w).unwrap_or(1),
                    height: u16::try_from(h).unwrap_or(1),
                    buffer: std::borrow::Cow::Owned(buffer),
                    ..gif::Frame::default()
                };
                encoder.write_frame(&frame)?;
                shown = full;
            }
        }
        Ok(out)
    }
}
