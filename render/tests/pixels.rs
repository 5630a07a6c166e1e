//! The picture read back: colours at square centres, orientation, determinism.

// Pixel tests: short names (r, t, l, x, y) are the clearest here.
#![allow(clippy::many_single_char_names, clippy::cast_precision_loss)]

mod common;

use common::{decode, sq};
use ugolki_core::{corners, damas, Color};
use ugolki_render::{ghost, Renderer, Scene, Theme};

fn corners_start() -> corners::Position {
    corners::Position::start(&corners::Variant::classic3x3())
}

#[test]
fn square_centres_show_pieces_and_empty_squares() {
    let r = Renderer::default();
    let t = Theme::default();
    let scene = Scene::corners(&corners_start());
    let png = decode(&r.render(&scene));
    let l = r.layout(&scene);
    let c = |s: &str| {
        let (x, y) = l.center(sq(s));
        png.at(x, y)
    };
    assert_eq!(c("a1"), t.white_fill);
    assert_eq!(c("h8"), t.black_fill);
    // Outside the homes: a1-like squares are dark, their neighbours light.
    assert_eq!(c("d4"), t.dark);
    assert_eq!(c("e4"), t.light);
    // Homes are tinted: c1 is light in White's home, g8 light in Black's.
    let corner = |s: &str| {
        let (x, y) = l.origin(sq(s));
        png.at(x + 2, y + 2)
    };
    assert_eq!(corner("b1"), t.white_home[0]);
    assert_eq!(corner("h8"), t.black_home[1]);
}

#[test]
fn kings_marked_path_ghosts_and_destinations() {
    let r = Renderer::default();
    let t = Theme::default();
    let pos = damas::Position::from_text("W:WK5,12:B21,K32", true).expect("position");
    let scene = Scene::damas(&pos)
        .with_last_move(vec![sq("d3"), sq("b3")], &[(sq("e6"), ghost(Color::Black))])
        .with_selection(sq("b3"), vec![sq("a4"), sq("c4")]);
    let png = decode(&r.render(&scene));
    let l = r.layout(&scene);
    let centre = |s: &str| {
        let (x, y) = l.center(sq(s));
        png.at(x, y)
    };
    let corner = |s: &str| {
        let (x, y) = l.origin(sq(s));
        png.at(x + 2, y + 2)
    };
    assert_eq!(centre("g2"), t.king, "square 5 = g2 holds a white king");
    assert_eq!(centre("a8"), t.king, "square 32 = a8 holds a black king");
    assert_eq!(centre("g6"), t.black_fill, "square 21 = g6, a black man");
    assert_eq!(centre("c4"), t.destination);
    assert_eq!(corner("b3"), t.selected[1], "the selected square, dark");
    // The ghost of a taken piece: its centre shows the square, its rim the faint ring.
    assert_eq!(corner("e6"), t.dark);
    let (x, y) = l.center(sq("e6"));
    let rim_x = x - (l.square as f32 * 0.38) as u32;
    assert_eq!(png.at(rim_x, y), t.ghost_black);
    // A marked path square (the start of the last move, now empty): tinted, and its centre
    // carries the start of the chain's line.
    assert_eq!(corner("d3"), t.path[1]);
    assert_eq!(centre("d3"), t.chain);
    // The chain is drawn between the path's squares.
    let (x1, y1) = l.center(sq("d3"));
    assert_eq!(png.at(x1 - l.square / 4, y1), t.chain);
}

#[test]
fn flipping_puts_a1_at_the_top_right() {
    let r = Renderer::default();
    let t = Theme::default();
    let scene = Scene::corners(&corners_start()).flipped(true);
    let png = decode(&r.render(&scene));
    let l = r.layout(&scene);
    let (x, y) = l.center(sq("a1"));
    assert!(
        x > png.width / 2 && y < png.height / 2,
        "a1 is in the top-right quarter"
    );
    assert_eq!(png.at(x, y), t.white_fill);
    // The bottom-left square is h8 now, with a black piece.
    let s = l.square;
    assert_eq!(
        png.at(l.board_x + s / 2, l.board_y + 7 * s + s / 2),
        t.black_fill
    );
    let unflipped = Scene::corners(&corners_start());
    let l0 = r.layout(&unflipped);
    assert_eq!(
        l0.center(sq("a1")),
        (l.board_x + s / 2, l.board_y + 7 * s + s / 2)
    );
}

#[test]
fn same_input_same_bytes_different_positions_different_bytes() {
    let r = Renderer::default();
    let a = Scene::corners(&corners_start());
    assert_eq!(r.render(&a), r.render(&a.clone()));
    let moved = corners_start()
        .play(corners::Move::new(sq("c3"), sq("d3")))
        .expect("legal");
    assert_ne!(r.render(&a), r.render(&Scene::corners(&moved)));
    assert_ne!(r.render(&a), r.render(&a.clone().flipped(true)));
    let d = damas::Position::start(true);
    assert_ne!(
        r.render(&Scene::damas(&d)),
        r.render(&Scene::damas(&d.with_flying(false)))
    );
}

#[test]
fn every_board_fits_one_palette_and_the_default_size() {
    let r = Renderer::default();
    assert!(r.palette().len() < 256, "{} colours", r.palette().len());
    let scene = Scene::corners(&corners_start());
    let png = decode(&r.render(&scene));
    assert!((512..=640).contains(&png.width), "8×8 width {}", png.width);
    let halma = Scene::corners(&corners::Position::start(
        &corners::Variant::by_id("halma16").expect("id"),
    ));
    let png = decode(&r.render(&halma));
    assert!(
        (560..=700).contains(&png.width),
        "16×16 width {}",
        png.width
    );
}

#[test]
fn header_text_is_drawn_and_names_do_not_break_it() {
    let r = Renderer::default();
    let t = Theme::default();
    let mut scene = Scene::corners(&corners_start());
    scene.header.white.name =
        "Алиса 🦀 with a very long name that cannot fit in half the width".into();
    scene.header.white.clock = Some("4:32".into());
    scene.header.black.name = String::new();
    let png = decode(&r.render(&scene));
    let l = r.layout(&scene);
    // Some header pixel carries the accent (White to move) and the rest stays in the frame.
    let header: Vec<[u8; 3]> = (0..l.board_y)
        .flat_map(|y| (0..png.width).map(move |x| (x, y)))
        .map(|(x, y)| png.at(x, y))
        .collect();
    assert!(header.contains(&t.text_accent));
    assert!(header.contains(&t.text));
}

#[test]
fn the_rating_chart_is_a_picture_with_a_line_and_labels() {
    let r = Renderer::default();
    let t = Theme::default();
    let view = ugolki_core::view::ChartView {
        title: "alice · classic 3×3 rating".into(),
        points: vec![1000, 1015, 1029, 1012, 1040],
        footer: "4 games · now 1040".into(),
    };
    let png = decode(&r.chart(&view));
    assert_eq!((png.width, png.height), (560, 300));
    let count = |c: [u8; 3]| png.rgb.iter().filter(|p| **p == c).count();
    assert!(count(t.chain) > 500, "the line is drawn");
    assert!(count(t.text) > 50, "the title is drawn");
    assert!(count(t.frame) > png.rgb.len() / 2, "mostly background");
    // One point only (a first game) still draws.
    let one = ugolki_core::view::ChartView {
        title: "x".into(),
        points: vec![1000],
        footer: String::new(),
    };
    assert!(decode(&r.chart(&one)).rgb.contains(&t.chain));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

    /// Along a random game, every position's picture differs from the previous one's, and
    /// drawing the same scene twice gives the same bytes.
    #[test]
    fn different_positions_different_bytes(picks in proptest::collection::vec(0usize..1000, 1..30)) {
        let r = Renderer::default();
        let v = corners::Variant::by_id("diagonal3x3").expect("id");
        let mut g = corners::Game::new(&v);
        let mut previous = r.render(&Scene::corners(g.position()));
        for pick in picks {
            if g.outcome().is_some() {
                break;
            }
            let moves = g.position().legal_moves();
            g.play(moves[pick % moves.len()]).expect("legal");
            let scene = Scene::corners(g.position());
            let now = r.render(&scene);
            proptest::prop_assert_ne!(&now, &previous);
            proptest::prop_assert_eq!(&now, &r.render(&scene));
            previous = now;
        }
    }
}

/// A header in Russian, Portuguese and Italian draws real glyphs (the embedded font covers
/// Cyrillic and Latin accents): the header is not blank, and differs from a header of
/// question marks (what a missing glyph would draw).
#[test]
fn headers_in_other_alphabets_draw_real_glyphs() {
    let r = Renderer::default();
    let t = Theme::default();
    let ink = |text: &str| {
        let mut scene = Scene::corners(&corners_start());
        scene.header.white.name = "Алиса".into();
        scene.header.black.name = "João".into();
        scene.header.info = text.into();
        let png = decode(&r.render(&scene));
        let l = r.layout(&scene);
        // The header: above the board, full width.
        let mut cells = Vec::new();
        for y in 0..l.board_y {
            for x in 0..png.width {
                cells.push(png.at(x, y) != t.frame);
            }
        }
        cells
    };
    let russian = ink("Ход 12 · выйти из дома до 40 · предел 80");
    let marks = ink("??? ?? · ????? ?? ???? ?? ?? · ?????? ??");
    let inked = russian.iter().filter(|c| **c).count();
    assert!(inked > 500, "the Cyrillic header is drawn ({inked} pixels)");
    assert_ne!(
        russian, marks,
        "Cyrillic letters are not drawn as question marks"
    );
    let accents = ink("Lance 12 · sair de casa até 40 · límite 80 · è già");
    assert!(accents.iter().filter(|c| **c).count() > 500);
}
