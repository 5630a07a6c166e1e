//! Golden pictures, compared pixel for pixel. After an intended change, re-bless with:
//! `UGOLKI_BLESS=1 cargo test -p ugolki-render --test golden`

mod common;

use common::{decode, sq};
use std::path::PathBuf;
use ugolki_core::{corners, damas, Color};
use ugolki_render::{ghost, Renderer, Scene};

fn check(name: &str, scene: &Scene) {
    let png = Renderer::default().render(scene);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.png"));
    if std::env::var_os("UGOLKI_BLESS").is_some() {
        std::fs::write(&path, &png).expect("write golden");
        return;
    }
    let want =
        std::fs::read(&path).unwrap_or_else(|_| panic!("{} missing: bless it", path.display()));
    let (got, want) = (decode(&png), decode(&want));
    assert_eq!(
        (got.width, got.height),
        (want.width, want.height),
        "{name}: size"
    );
    let differing = got
        .rgb
        .iter()
        .zip(&want.rgb)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(
        differing, 0,
        "{name}: {differing} pixels differ from the golden picture"
    );
}

#[test]
fn golden_corners_classic_with_a_chain() {
    let v = corners::Variant::classic3x3();
    let mut g = corners::Game::new(&v);
    for m in ["c3-d3", "f6-e6", "a3-e3"] {
        g.play_text(m).expect("legal");
    }
    let path = g.moves().last().expect("a move").path.clone();
    check(
        "corners_classic3x3",
        &Scene::corners(g.position()).with_last_move(path, &[]),
    );
}

#[test]
fn golden_halma_flipped_with_a_selection() {
    let v = corners::Variant::by_id("halma16").expect("id");
    let p = corners::Position::start(&v);
    let scene = Scene::corners(&p)
        .with_selection(sq("e2"), p.destinations(sq("e2")))
        .flipped(true);
    check("halma16", &scene);
}

#[test]
fn golden_damas_with_kings_and_a_capture() {
    let p = damas::Position::from_text("W:WK5,10,12:B21,23,K32", true).expect("position");
    let scene = Scene::damas(&p).with_last_move(
        vec![sq("d3"), sq("f5"), sq("d7")],
        &[
            (sq("e4"), ghost(Color::Black)),
            (sq("e6"), ghost(Color::Black)),
        ],
    );
    check("damas", &scene);
}
