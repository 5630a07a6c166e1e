//! `cargo bench -p ugolki-core --bench engine`: the search from the start of classic 3×3,
//! Halma 16×16 and Damas with a fixed budget of 100,000 positions (so the time per
//! iteration is the speed: nodes per second = 100,000 / time), and a 100 ms timed search
//! (the budget kept: the time per iteration is the budget plus the last check's slack).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use ugolki_core::engine::{choose, Settings};
use ugolki_core::game::{Game, Rules};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    for id in ["classic3x3", "halma16", "damas"] {
        let g = Game::new(&Rules::from_id(id).unwrap());
        group.bench_function(format!("{id}_100000_nodes"), |b| {
            b.iter(|| black_box(choose(&g, Settings::nodes(100_000))));
        });
        group.bench_function(format!("{id}_100_ms"), |b| {
            b.iter(|| black_box(choose(&g, Settings::timed(100))));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
