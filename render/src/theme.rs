//! Colours of the board picture. The header and margins are a mid-dark slate that reads on
//! both light and dark chat themes; the board has its own wood tones.

/// An RGB colour.
pub type Rgb = [u8; 3];

#[derive(Clone, Debug)]
pub struct Theme {
    pub frame: Rgb,
    pub text: Rgb,
    pub text_dim: Rgb,
    pub text_accent: Rgb,
    /// Light and dark squares: plain, White's home, Black's home, last move, selected.
    pub light: Rgb,
    pub dark: Rgb,
    pub white_home: [Rgb; 2],
    pub black_home: [Rgb; 2],
    pub path: [Rgb; 2],
    pub selected: [Rgb; 2],
    pub destination: Rgb,
    /// The mark of a piece that must capture (one colour more in the palette: marks have
    /// hard edges).
    pub capture: Rgb,
    pub white_fill: Rgb,
    pub white_edge: Rgb,
    pub black_fill: Rgb,
    pub black_edge: Rgb,
    pub king: Rgb,
    pub ghost_white: Rgb,
    pub ghost_black: Rgb,
    pub chain: Rgb,
}

impl Default for Theme {
    fn default() -> Theme {
        Theme {
            frame: [0x2f, 0x34, 0x37],
            text: [0xec, 0xea, 0xe6],
            text_dim: [0xa3, 0xa8, 0xad],
            text_accent: [0xff, 0xd1, 0x66],
            light: [0xee, 0xd9, 0xb6],
            dark: [0xb0, 0x8a, 0x64],
            white_home: [[0xcf, 0xe0, 0xea], [0x8f, 0xaa, 0xbd]],
            black_home: [[0xf0, 0xc6, 0xbc], [0xc0, 0x8a, 0x7e]],
            path: [[0xf4, 0xe4, 0x7a], [0xd8, 0xc0, 0x48]],
            selected: [[0xa9, 0xd3, 0x8c], [0x7c, 0xae, 0x5f]],
            destination: [0x2e, 0x6b, 0x35],
            capture: [0xc6, 0x28, 0x28],
            white_fill: [0xfb, 0xf9, 0xf3],
            white_edge: [0x3a, 0x3a, 0x3a],
            black_fill: [0x24, 0x24, 0x26],
            black_edge: [0x08, 0x08, 0x08],
            king: [0xe3, 0xa6, 0x00],
            ghost_white: [0x80, 0x80, 0x80],
            ghost_black: [0x4a, 0x4a, 0x4a],
            chain: [0xe0, 0x4f, 0x24],
        }
    }
}
