//! `cargo bench -p ugolki-render`: one PNG per iteration — an 8×8 Corners board with a jump
//! chain marked, a 16×16 Halma board, a Damas board — and the byte size of each.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use ugolki_core::{corners, damas, Square};
use ugolki_render::{Renderer, Scene};

fn sq(s: &str) -> Square {
    Square::parse(s).expect("square")
}

fn scenes() -> Vec<(&'static str, Scene)> {
    let v = corners::Variant::classic3x3();
    let mut g = corners::Game::new(&v);
    for m in ["c3-d3", "f6-e6", "a3-e3"] {
        g.play_text(m).expect("legal");
    }
    let chain =
        Scene::corners(g.position()).with_last_move(vec![sq("a3"), sq("c3"), sq("e3")], &[]);
    let halma = Scene::corners(&corners::Position::start(
        &corners::Variant::by_id("halma16").expect("id"),
    ));
    let mut d = damas::Game::new(true);
    for m in ["11-15", "22-19", "15x22"] {
        d.play_text(m).expect("legal");
    }
    let damas = Scene::damas(d.position()).with_last_move(
        vec![sq("c4"), sq("e6")],
        &[(sq("d5"), ugolki_render::ghost(ugolki_core::Color::Black))],
    );
    vec![
        ("corners_chain_8x8", chain),
        ("halma_16x16", halma),
        ("damas_8x8", damas),
    ]
}

fn bench(c: &mut Criterion) {
    let renderer = Renderer::default();
    let mut group = c.benchmark_group("render_board");
    for (name, scene) in scenes() {
        let bytes = renderer.render(&scene).len();
        println!("render_board/{name}: {bytes} bytes");
        group.bench_function(name, |b| {
            b.iter(|| black_box(renderer.render(black_box(&scene))));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
