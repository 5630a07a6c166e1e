//! `cargo bench -p ugolki-core --bench leaderboard`: `/top` over 10,000 rated players,
//! general and monthly, over the whole bot and over one chat's 1,000 players, and a
//! player's rank; on `SQLite` and (with `DATABASE_URL_PG`) on `PostgreSQL`.

mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use support::BenchDb;
use ugolki_core::rating::RatingKind;
use ugolki_core::store::Store;

/// 10,000 players rated in classic 3×3, every tenth in one chat.
const FILL: &[(&str, &str)] = &[
    (
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
         INSERT INTO players (platform, platform_user_id, display_name, created_at)
         SELECT 'bench', 'u' || i, 'player' || i, 0 FROM n",
        "INSERT INTO players (platform, platform_user_id, display_name, created_at)
         SELECT 'bench', 'u' || i, 'player' || i, 0 FROM generate_series(1, 10000) AS i",
    ),
    (
        "INSERT INTO ratings (player_id, kind, rating, games, month, monthly, monthly_games)
         SELECT id, 'classic3x3', 600 + (id * 7919) % 1400, 10, '2026-11', 1000 + (id * 31) % 300, 10 FROM players",
        "INSERT INTO ratings (player_id, kind, rating, games, month, monthly, monthly_games)
         SELECT id, 'classic3x3'::rating_kind, 600 + (id * 7919) % 1400, 10, '2026-11', 1000 + (id * 31) % 300, 10 FROM players",
    ),
    (
        "INSERT INTO chat_players (platform, chat_id, player_id) SELECT 'bench', 'room', id FROM players WHERE id % 10 = 0",
        "INSERT INTO chat_players (platform, chat_id, player_id) SELECT 'bench', 'room', id FROM players WHERE id % 10 = 0",
    ),
    ("ANALYZE", "ANALYZE"),
];

fn bench_on(c: &mut Criterion, rt: &tokio::runtime::Runtime, db: &BenchDb) {
    let store = rt.block_on(async {
        // Migrate first, then fill behind the store's back, then open it for the reads.
        drop(Store::connect(&db.url).await.expect("store"));
        support::exec(&db.url, FILL).await;
        Store::connect(&db.url).await.expect("store")
    });
    let kind = RatingKind::Classic3x3;
    let mut group = c.benchmark_group(format!("leaderboard_{}", db.label));
    group.bench_function("top10_general_10000_players", |b| {
        b.iter(|| {
            rt.block_on(async { black_box(store.top(kind, None, None, 10).await.expect("top")) })
        });
    });
    group.bench_function("top10_month_10000_players", |b| {
        b.iter(|| {
            rt.block_on(async {
                black_box(
                    store
                        .top(kind, Some("2026-11"), None, 10)
                        .await
                        .expect("top"),
                )
            })
        });
    });
    group.bench_function("top10_chat_1000_players", |b| {
        b.iter(|| {
            rt.block_on(async {
                black_box(
                    store
                        .top(kind, None, Some(("bench", "room")), 10)
                        .await
                        .expect("top"),
                )
            })
        });
    });
    group.bench_function("rank_of_one_player", |b| {
        b.iter(|| {
            rt.block_on(async {
                black_box(store.rank(5000, kind, None, None).await.expect("rank"))
            })
        });
    });
    group.finish();
    rt.block_on(store.close());
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    bench_on(c, &rt, &BenchDb::sqlite("leaderboard"));
    if let Some(db) = rt.block_on(BenchDb::postgres("leaderboard")) {
        bench_on(c, &rt, &db);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
