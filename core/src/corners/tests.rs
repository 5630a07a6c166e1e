//! Rule tests for Corners; every name carries the rule id it pins.

use super::*;
use crate::color::Color;
use crate::square::Square;

fn v(id: &str) -> Variant {
    Variant::by_id(id).unwrap()
}

fn perft_row(id: &str, depths: &[u64]) {
    let start = Position::start(&v(id));
    for (d, want) in depths.iter().enumerate() {
        assert_eq!(start.perft(d as u32 + 1), *want, "{id} depth {}", d + 1);
    }
}

#[test]
fn c2_c8_perft_classic3x3() {
    perft_row("classic3x3", &[12, 144, 2784, 53824]);
}

#[test]
fn c2_c8_perft_classic3x4() {
    perft_row("classic3x4", &[14, 196, 4412, 99569]);
}

#[test]
fn c2_c8_perft_square4x4() {
    perft_row("square4x4", &[16, 260, 6524, 164_590]);
}

#[test]
fn c2_perft_diagonal3x3() {
    perft_row("diagonal3x3", &[26, 677, 23547, 828_210]);
}
