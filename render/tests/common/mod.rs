//! Helpers shared by the render tests: decoding a PNG back to RGB pixels.

use ugolki_core::Square;

/// A decoded picture: width, height and one RGB triple per pixel.
pub struct Decoded {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<[u8; 3]>,
}

// Not every test file reads single pixels.
#[allow(dead_code)]
impl Decoded {
    pub fn at(&self, x: u32, y: u32) -> [u8; 3] {
        self.rgb[(y * self.width + x) as usize]
    }
}

/// Decode an indexed PNG with the png crate (checks it is 8-bit indexed).
pub fn decode(bytes: &[u8]) -> Decoded {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let info = reader.info().clone();
    assert_eq!(info.color_type, png::ColorType::Indexed, "an indexed PNG");
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let palette = info.palette.expect("a palette").to_vec();
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let frame = reader.next_frame(&mut buf).expect("pixels");
    let idx = &buf[..frame.buffer_size()];
    let rgb = idx
        .iter()
        .map(|&i| {
            let i = usize::from(i) * 3;
            [palette[i], palette[i + 1], palette[i + 2]]
        })
        .collect();
    Decoded {
        width: frame.width,
        height: frame.height,
        rgb,
    }
}

pub fn sq(s: &str) -> Square {
    Square::parse(s).expect("square")
}
