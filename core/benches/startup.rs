//! `cargo bench -p ugolki-core --bench startup`: opening the table on a store with 100,000
//! unfinished games, on `SQLite` and (with `DATABASE_URL_PG`) on `PostgreSQL`. Two starts:
//! after an outage (the outage is recorded in one transaction; each running clock gets it
//! back when its game is next touched) and beside a live process (nothing to credit; the start waits one alive window to see
//! the other process's heartbeat, which is most of its time). Nothing is replayed: games are
//! read when first touched, timers come from the store's index.

mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::BenchDb;
use ugolki_core::store::Store;
use ugolki_core::table::{Config, SystemTime, Table};

/// 100,000 games between 2,000 players, each with a clock running and a timer due.
const FILL: &[(&str, &str)] = &[
    (
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
         INSERT INTO players (platform, platform_user_id, display_name, created_at)
         SELECT 'bench', 'u' || i, 'player' || i, 0 FROM n",
        "INSERT INTO players (platform, platform_user_id, display_name, created_at)
         SELECT 'bench', 'u' || i, 'player' || i, 0 FROM generate_series(1, 2000) AS i",
    ),
    (
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
         INSERT INTO games (platform, chat_id, rules, white_id, black_id, rated, time_control,
                            white_ms, black_ms, turn_started_at, created_at, due_at)
         SELECT 'bench', 'chat' || (i % 5000), 'classic3x3', 1 + i % 1000, 1001 + i % 1000, 0, '10+5',
                600000, 600000, 1764547200000 + i, 1764547200000, 1764547800000 + i FROM n",
        "INSERT INTO games (platform, chat_id, rules, white_id, black_id, rated, time_control,
                            white_ms, black_ms, turn_started_at, created_at, due_at)
         SELECT 'bench', 'chat' || (i % 5000), 'classic3x3', 1 + i % 1000, 1001 + i % 1000, FALSE, '10+5',
                600000, 600000, 1764547200000 + i, 1764547200000, 1764547800000 + i
         FROM generate_series(1, 100000) AS i",
    ),
    ("ANALYZE", "ANALYZE"),
];

/// Heartbeats a minute old: the bot was down.
const DOWN: &[(&str, &str)] = &[(
    "UPDATE heartbeats SET beat_at = beat_at - 60000",
    "UPDATE heartbeats SET beat_at = beat_at - 60000",
)];

fn bench_on(c: &mut Criterion, rt: &tokio::runtime::Runtime, db: &BenchDb) {
    rt.block_on(async {
        drop(Store::connect(&db.url).await.expect("store"));
        support::exec(&db.url, FILL).await;
    });
    let mut group = c.benchmark_group(format!("startup_{}", db.label));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("open_after_an_outage_100000_games", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                rt.block_on(support::exec(&db.url, DOWN));
                let store = rt.block_on(Store::connect(&db.url)).expect("store");
                let start = Instant::now();
                let table = rt
                    .block_on(Table::open(store, Arc::new(SystemTime), Config::default()))
                    .expect("table");
                total += start.elapsed();
                rt.block_on(table.store().close());
            }
            total
        });
    });
    group.bench_function("open_beside_a_live_process_100000_games", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let store = rt.block_on(Store::connect(&db.url)).expect("store");
                let start = Instant::now();
                let table = rt
                    .block_on(Table::open(store, Arc::new(SystemTime), Config::default()))
                    .expect("table");
                total += start.elapsed();
                rt.block_on(table.store().close());
            }
            total
        });
    });
    group.finish();
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    bench_on(c, &rt, &BenchDb::sqlite("startup"));
    if let Some(db) = rt.block_on(BenchDb::postgres("startup")) {
        bench_on(c, &rt, &db);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
