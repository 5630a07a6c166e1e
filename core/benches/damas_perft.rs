//! `cargo bench --bench damas_perft`: perft 9 from the start (flying kings), the figure in
//! the README; perft 7 with short kings for comparison.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use ugolki_core::damas::Position;

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("damas_perft");
    group.sample_size(10);
    let flying = Position::start(true);
    group.bench_function("flying_d9", |b| b.iter(|| black_box(flying.perft(9))));
    let short = Position::start(false);
    group.bench_function("short_d9", |b| b.iter(|| black_box(short.perft(9))));
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
