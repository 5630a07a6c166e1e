//! `cargo bench --bench corners_perft`: perft 4 from the start of every variant, and
//! perft 6 of classic 3×3 (the figure compared with other generators in the README).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use ugolki_core::corners::{Position, Variant, STANDARD_IDS};

fn perft4(c: &mut Criterion) {
    let mut group = c.benchmark_group("corners_perft");
    group.sample_size(10);
    for id in STANDARD_IDS {
        let start = Position::start(&Variant::by_id(id).unwrap());
        group.bench_function(format!("{id}_d4"), |b| b.iter(|| black_box(start.perft(4))));
    }
    let classic = Position::start(&Variant::classic3x3());
    group.bench_function("classic3x3_d6", |b| b.iter(|| black_box(classic.perft(6))));
    group.finish();
}

criterion_group!(benches, perft4);
criterion_main!(benches);
