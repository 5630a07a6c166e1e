//! `cargo bench -p ugolki-core --bench leaderboard`: `/top` over 10,000 rated players, general
//! and monthly, over the whole bot and over one chat's 1,000 players.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use ugolki_core::store::Store;
use ugolki_core::table::User;

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let store = rt.block_on(async {
        let store = Store::connect("sqlite::memory:").await.expect("store");
        for i in 0..10_000i64 {
            let u = User {
                id: format!("u{i}"),
                name: format!("player{i}"),
                handle: None,
            };
            let p = store.player_for("bench", &u, 0).await.expect("player");
            let rating = 600 + (i * 7919) % 1400;
            store
                .put_rating(
                    p.id,
                    "classic3x3",
                    rating,
                    10,
                    "2026-11",
                    1000 + (i * 31) % 300,
                )
                .await
                .expect("rating");
            if i % 10 == 0 {
                store
                    .note_chat_player("bench", "room", p.id)
                    .await
                    .expect("chat");
            }
        }
        store
    });
    let mut group = c.benchmark_group("leaderboard");
    group.bench_function("top10_general_10000_players", |b| {
        b.iter(|| {
            rt.block_on(async {
                black_box(store.top("classic3x3", None, None, 10).await.expect("top"))
            })
        });
    });
    group.bench_function("top10_month_10000_players", |b| {
        b.iter(|| {
            rt.block_on(async {
                black_box(
                    store
                        .top("classic3x3", Some("2026-11"), None, 10)
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
                        .top("classic3x3", None, Some(("bench", "room")), 10)
                        .await
                        .expect("top"),
                )
            })
        });
    });
    group.bench_function("rank_of_one_player", |b| {
        b.iter(|| {
            rt.block_on(async {
                black_box(
                    store
                        .rank(5000, "classic3x3", None, None)
                        .await
                        .expect("rank"),
                )
            })
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
