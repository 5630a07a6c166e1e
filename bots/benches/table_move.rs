//! `cargo bench -p ugolki-bots --bench table_move`: one move handled end to end — parse,
//! validate, commit with its reply in the outbox (durably: `SQLite` WAL with full sync;
//! `PostgreSQL` with its default synchronous commit), then delivered by the outbox as a
//! platform's sender would: the chat's lease, the row read back, the board drawn and
//! rendered, the living message replaced, the row marked, the clock's delivery report —
//! to a surface that takes every call at once — and moves per second across 100 games
//! played at once, by one table and (`PostgreSQL`) by two tables on one database, as two
//! processes would (a move reaches either, the chat's sender is one of them).
//! `PostgreSQL` runs when `DATABASE_URL_PG` names a server.

#[path = "../../core/benches/support/mod.rs"]
mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::BenchDb;
use ugolki_bots::outbox::{Class, Content, Job, Outbox, Pace, Posted, Surface};
use ugolki_core::corners::{Game, Variant};
use ugolki_core::store::SlotRow;
use ugolki_core::store::Store;
use ugolki_core::table::{
    Action, ChatKind, ChatRef, Config, Incoming, Mention, Origin, Platform, SystemTime, Table, User,
};
use ugolki_core::words::Lang;

/// A platform that takes every call at once: what is left is the outbox's own work.
struct Null(std::sync::atomic::AtomicU64);

impl Surface for Null {
    type Error = std::io::Error;
    type Buttons = usize;
    fn platform(&self) -> Platform {
        Platform::Test
    }
    fn pace(&self, _: &ChatRef) -> Pace {
        Pace::FREE
    }
    fn classify(&self, _: &std::io::Error) -> Class {
        Class::Gone
    }
    fn layout(&self, actions: &[Action], _: Lang) -> usize {
        actions.len()
    }
    async fn send(&self, _: &Job<'_>, c: &Content) -> std::io::Result<Posted> {
        let n = self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        std::hint::black_box(c.image.as_ref().map(|i| i.bytes.len()));
        Ok(Posted {
            message_id: n.to_string(),
            place: None,
            photo: true,
            extra_calls: 0,
        })
    }
    async fn edit(&self, _: &Job<'_>, _: &SlotRow, _: &Content) -> std::io::Result<()> {
        Ok(())
    }
    async fn clear_buttons(&self, _: &ChatRef, _: &SlotRow) -> std::io::Result<()> {
        Ok(())
    }
    async fn one_message(
        &self,
        _: &Job<'_>,
        _: &Content,
        _: &ugolki_bots::outbox::one_message::Shown,
    ) -> std::io::Result<bool> {
        Ok(true)
    }
}

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
    outboxes: Vec<Arc<Outbox<Null>>>,
    n: std::sync::atomic::AtomicU64,
}

impl Bench {
    fn msg(&self, chat: &str, who: &str, text: &str, mention: Option<&str>) -> Incoming {
        let n = self.n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let chat = ChatRef::new(Platform::Test, chat, ChatKind::Group);
        let origin = Origin::message(chat, user(who), n.to_string());
        let mentions = mention
            .map(|m| vec![Mention::User(user(m))])
            .unwrap_or_default();
        Incoming::text(origin, text, mentions)
    }

    async fn new_game(&self, g: usize, chat: &str, white: &str, black: &str) {
        let t = &self.tables[0];
        t.handle(&self.msg(
            chat,
            white,
            "/challenge @x classic3x3 none casual white",
            Some(black),
        ))
        .await;
        t.handle(&self.msg(chat, black, "/accept", None)).await;
        self.outboxes[g % self.outboxes.len()]
            .flush(chat, false)
            .await;
    }

    /// One move, handled by table `t` and delivered by the chat's sender, game `g`'s.
    async fn play(&self, t: usize, g: usize, chat: &str, who: &str, text: &str) {
        let out = self.tables[t % self.tables.len()]
            .handle(&self.msg(chat, who, text, None))
            .await;
        assert!(
            out.first().and_then(|o| o.board()).is_some(),
            "a board after a move"
        );
        let sender = &self.outboxes[g % self.outboxes.len()];
        sender.flush(chat, false).await;
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
    let outboxes = rt.block_on(async {
        out.iter()
            .map(|t| Outbox::new(t.clone(), Arc::new(Null(0.into()))))
            .collect()
    });
    Bench {
        tables: out,
        outboxes,
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
                    rt.block_on(b.new_game(0, &format!("solo{game}"), "alice", "bob"));
                    ply = 0;
                }
                let who = if ply.is_multiple_of(2) {
                    "alice"
                } else {
                    "bob"
                };
                let start = Instant::now();
                rt.block_on(b.play(0, 0, &format!("solo{game}"), who, &line[ply]));
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
                            g,
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
                        set.spawn(async move { b.play(t, g, &chat, &who, &text).await });
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
