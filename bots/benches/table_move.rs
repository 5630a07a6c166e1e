//! `cargo bench -p ugolki-bots --bench table_move`: one move handled end to end — parse,
//! validate, commit (durably: `SQLite` WAL with full sync; `PostgreSQL` with its default
//! synchronous commit), render the board — and moves per second across 100 games played at
//! once, by one table and (`PostgreSQL`) by two tables on one database, as two processes
//! would. `PostgreSQL` runs when `DATABASE_URL_PG` names a server.

#[path = "../../core/benches/support/mod.rs"]
mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::BenchDb;
use ugolki_core::corners::{Game, Variant};
use ugolki_core::store::Store;
use ugolki_core::table::{Config, Incoming, Mention, Origin, Platform, SystemTime, Table, User};
use ugolki_render::{Renderer, Scene};

/// A 60-ply classic game that never repeats a position and does not end.
fn long_game() -> Vec<String> {
    let v = Variant::classic3x3();
    let mut g = Game::new(&v);
    let mut seen = std::collections::HashSet::new();
    seen.insert(g.position().repetition_key());
    let mut out = Vec::new();
    while out.len() < 60 {
        let pos = *g.position();
        let mv = pos
            .legal_moves()
            .into_iter()
            .rev()
            .find(|m| {
                let next = pos.play_unchecked(*m);
                !seen.contains(&next.repetition_key()) && next.has_legal_moves()
            })
            .expect("a fresh move");
        g.play(mv).expect("legal");
        seen.insert(g.position().repetition_key());
        out.push(ugolki_core::notation::join_path(
            &g.moves().last().expect("played").path,
            "-",
        ));
    }
    out
}

fn user(name: &str) -> User {
    User {
        id: name.into(),
        name: name.into(),
        handle: None,
    }
}

/// The tables ("processes") on one database, and the renderer the adapter would use.
struct Bench {
    tables: Vec<Arc<Table>>,
    renderer: Renderer,
    n: std::sync::atomic::AtomicU64,
}

impl Bench {
    fn msg(&self, chat: &str, who: &str, text: &str, mention: Option<&str>) -> Incoming {
        let n = self.n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let origin = Origin {
            platform: Platform::Test,
            chat: chat.into(),
            user: user(who),
            message_id: n.to_string(),
            locale: None,
            group_admin: None,
        };
        let mentions = mention
            .map(|m| vec![Mention::User(user(m))])
            .unwrap_or_default();
        Incoming::text(origin, text, mentions)
    }

    async fn new_game(&self, chat: &str, white: &str, black: &str) {
        let t = &self.tables[0];
        t.handle(&self.msg(
            chat,
            white,
            "/challenge @x classic3x3 none casual white",
            Some(black),
        ))
        .await;
        t.handle(&self.msg(chat, black, "/accept", None)).await;
    }

    /// One move, handled by table `t` and drawn.
    async fn play(&self, t: usize, chat: &str, who: &str, text: &str) -> usize {
        let out = self.tables[t % self.tables.len()]
            .handle(&self.msg(chat, who, text, None))
            .await;
        let view = out
            .first()
            .and_then(|o| o.board.as_ref())
            .expect("a board after a move");
        let png = self.renderer.render(&Scene::from_view(view));
        png.len()
    }
}

/// `tables` tables on the database at `url`, each on a store (connections) of its own.
fn setup(rt: &tokio::runtime::Runtime, url: &str, tables: usize) -> Bench {
    let mut out = Vec::new();
    for _ in 0..tables {
        let store = rt.block_on(Store::connect(url)).expect("store");
        let table = rt
            .block_on(Table::open(
                store,
                Arc::new(SystemTime),
                // The bench starts hundreds of games a minute: no fair-play limits (F3).
                Config {
                    max_open_challenges: i64::MAX,
                    max_active_games: i64::MAX,
                    max_challenges_per_minute: i64::MAX,
                    ..Config::default()
                },
            ))
            .expect("table");
        out.push(Arc::new(table));
    }
    Bench {
        tables: out,
        renderer: Renderer::default(),
        n: 0.into(),
    }
}

/// Games played at once in the throughput figure.
const GAMES: usize = 100;

fn one_move(c: &mut Criterion, rt: &tokio::runtime::Runtime, db: &BenchDb, line: &[String]) {
    let b = Arc::new(setup(rt, &db.url, 1));
    let mut group = c.benchmark_group(format!("table_move_{}", db.label));
    group.sample_size(30);
    // One game at a time; a new game (untimed) when the line is used up.
    let mut ply = line.len();
    let mut game = 0;
    group.bench_function("one_move", |bench| {
        bench.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if ply == line.len() {
                    game += 1;
                    rt.block_on(b.new_game(&format!("solo{game}"), "alice", "bob"));
                    ply = 0;
                }
                let who = if ply.is_multiple_of(2) {
                    "alice"
                } else {
                    "bob"
                };
                let start = Instant::now();
                rt.block_on(b.play(0, &format!("solo{game}"), who, &line[ply]));
                total += start.elapsed();
                ply += 1;
            }
            total
        });
    });
    group.finish();
}

/// 100 games at once, each round one move in every game, spread over `tables` tables.
fn rounds(
    c: &mut Criterion,
    rt: &tokio::runtime::Runtime,
    db: &BenchDb,
    line: &[String],
    tables: usize,
) {
    let b = Arc::new(setup(rt, &db.url, tables));
    let mut group = c.benchmark_group(format!("table_move_{}", db.label));
    group.sample_size(30);
    let mut round = line.len();
    let mut batch = 0;
    group.throughput(criterion::Throughput::Elements(GAMES as u64));
    group.bench_function(format!("round_of_100_games_{tables}_tables"), |bench| {
        bench.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if round == line.len() {
                    batch += 1;
                    for g in 0..GAMES {
                        rt.block_on(b.new_game(
                            &format!("t{tables}b{batch}g{g}"),
                            &format!("w{g}"),
                            &format!("k{g}"),
                        ));
                    }
                    round = 0;
                }
                let start = Instant::now();
                rt.block_on(async {
                    let mut set = tokio::task::JoinSet::new();
                    for g in 0..GAMES {
                        let b = b.clone();
                        let chat = format!("t{tables}b{batch}g{g}");
                        let who = if round.is_multiple_of(2) {
                            format!("w{g}")
                        } else {
                            format!("k{g}")
                        };
                        let text = line[round].clone();
                        // Moves of one game go to either table, as a load balancer sends them.
                        let t = g + round;
                        set.spawn(async move { b.play(t, &chat, &who, &text).await });
                    }
                    while set.join_next().await.is_some() {}
                });
                total += start.elapsed();
                round += 1;
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
    let line = long_game();
    let sqlite = BenchDb::sqlite("table_move");
    one_move(c, &rt, &sqlite, &line);
    rounds(c, &rt, &sqlite, &line, 1);
    drop(sqlite);
    if let Some(pg) = rt.block_on(BenchDb::postgres("table_move")) {
        one_move(c, &rt, &pg, &line);
        rounds(c, &rt, &pg, &line, 1);
        rounds(c, &rt, &pg, &line, 2);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
