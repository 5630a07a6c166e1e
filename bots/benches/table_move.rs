//! `cargo bench -p ugolki-bots --bench table_move`: one move handled end to end — parse,
//! validate, commit with its reply in the outbox (durably: `SQLite` WAL with full sync;
//! `PostgreSQL` with its default synchronous commit), then delivered by the outbox as a
//! platform's sender would: the chat's lease, the row read back, the board drawn and
//! rendered, the living message replaced, the row marked, the clock's delivery report —
//! to a surface that takes every call at once — and moves per second across 100 games
//! played at once, by one table and (`PostgreSQL`) by two tables on one database, as two
//! processes would (a move reaches either, the chat's sender is one of them); and the
//! 100 games again on one table while 200 open pages (`--web`, two a game) watch them.
//! `PostgreSQL` runs when `DATABASE_URL_PG` names a server. `BENCH_NO_FLUSH=1`: each move's
//! board drawn and rendered as the sender would, not delivered (what the sender's own steps
//! cost, by difference); `TRACE_SQL=1`: every statement logged with its time.

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

    /// A new game in `chat`: its number.
    async fn new_game(&self, g: usize, chat: &str, white: &str, black: &str) -> i64 {
        let t = &self.tables[0];
        t.handle(&self.msg(
            chat,
            white,
            "/challenge @x classic3x3 none casual white",
            Some(black),
        ))
        .await;
        let out = t.handle(&self.msg(chat, black, "/accept", None)).await;
        self.outboxes[g % self.outboxes.len()]
            .flush(chat, false)
            .await;
        out.iter().find_map(|o| o.game).expect("a game")
    }

    /// One move, handled by table `t` and delivered by the chat's sender, game `g`'s.
    async fn play(&self, t: usize, g: usize, chat: &str, who: &str, text: &str) {
        let t = t % self.tables.len();
        let out = self.tables[t]
            .handle(&self.msg(chat, who, text, None))
            .await;
        assert!(
            out.first().and_then(|o| o.board()).is_some(),
            "a board after a move"
        );
        if std::env::var_os("BENCH_NO_FLUSH").is_some() {
            let c = self.outboxes[t].content(&out[0]).await.expect("drawn");
            std::hint::black_box(c.image.map(|i| i.bytes.len()));
            return;
        }
        let s = g % self.outboxes.len();
        if s != t {
            // Committed by the other "process": its sender hears of it as PostgreSQL's
            // NOTIFY would tell it (its store is read), not from its own commit.
            self.tables[s]
                .store()
                .signal()
                .poke(Platform::Test.as_str(), chat);
        }
        self.outboxes[s].flush(chat, false).await;
    }

    /// Stop every sender: their tasks hold the tables, and so the database (a `SQLite`
    /// file's lock), until they end.
    fn close(&self, rt: &tokio::runtime::Runtime) {
        rt.block_on(async {
            for o in &self.outboxes {
                o.stop().await;
            }
        });
    }

    /// Boards sent or edited so far, by every sender.
    fn shown(&self) -> u64 {
        self.outboxes
            .iter()
            .map(|o| {
                let c = o.counters();
                c.sent.load(std::sync::atomic::Ordering::Relaxed)
                    + c.edited.load(std::sync::atomic::Ordering::Relaxed)
            })
            .sum()
    }
}

impl Bench {
    /// One round: move `text` (ply `round`) played at once in each of the games of the chats
    /// named `chats` and a number, each game's move handled by the table `to` names.
    async fn round(self: Arc<Self>, chats: &str, text: &str, round: usize, to: Route) {
        let before = self.shown();
        let mut set = tokio::task::JoinSet::new();
        for g in 0..GAMES {
            let b = self.clone();
            let chat = format!("{chats}g{g}");
            let who = if round.is_multiple_of(2) {
                format!("w{g}")
            } else {
                format!("k{g}")
            };
            let text = text.to_string();
            let t = match to {
                Route::First => 0,
                Route::InTurn => g + round,
                Route::ByChat => g,
            };
            set.spawn(async move { b.play(t, g, &chat, &who, &text).await });
        }
        while set.join_next().await.is_some() {}
        // Every move's board reached its chat (none left unread in the outbox).
        assert!(
            std::env::var_os("BENCH_NO_FLUSH").is_some() || self.shown() - before >= GAMES as u64,
            "a board not delivered"
        );
    }
}

/// Which table handles a game's move.
#[derive(Clone, Copy)]
enum Route {
    /// The first table, always.
    First,
    /// Each move of a game the other table than the one before: the worst case for the
    /// tables' caches and for one sender per chat (half the moves are committed by the
    /// process that does not hold their chat's lane), as a load balancer might send them.
    InTurn,
    /// Each chat's moves one table, as the platforms route a chat's updates in production
    /// (Telegram has one poller; Discord sends a guild's events to its shard's process):
    /// the other tables' moves come only from the pages and the timers.
    ByChat,
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
    b.close(rt);
}

/// 100 games at once, each round one move in every game, spread over `tables` tables.
fn rounds(
    c: &mut Criterion,
    rt: &tokio::runtime::Runtime,
    db: &BenchDb,
    line: &[String],
    tables: usize,
    to: Route,
) {
    let b = Arc::new(setup(rt, &db.url, tables));
    let name = match to {
        Route::ByChat => format!("round_of_100_games_{tables}_tables_by_chat"),
        Route::First | Route::InTurn => format!("round_of_100_games_{tables}_tables"),
    };
    // Each benchmark's chats of its own.
    let prefix = match to {
        Route::ByChat => "c",
        Route::First | Route::InTurn => "t",
    };
    let mut group = c.benchmark_group(format!("table_move_{}", db.label));
    group.sample_size(30);
    let mut round = line.len();
    let mut batch = 0;
    group.throughput(criterion::Throughput::Elements(GAMES as u64));
    group.bench_function(name, |bench| {
        bench.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if round == line.len() {
                    batch += 1;
                    for g in 0..GAMES {
                        rt.block_on(b.new_game(
                            g,
                            &format!("{prefix}{tables}b{batch}g{g}"),
                            &format!("w{g}"),
                            &format!("k{g}"),
                        ));
                    }
                    round = 0;
                }
                let start = Instant::now();
                let chats = format!("{prefix}{tables}b{batch}");
                rt.block_on(b.clone().round(&chats, &line[round], round, to));
                total += start.elapsed();
                round += 1;
            }
            total
        });
    });
    group.finish();
    b.close(rt);
}

/// Pages watching each game in [`rounds_watched`].
const WATCHERS_PER_GAME: usize = 2;

/// An open page's stream of a game's events (`/g/N/events`), read on a task of its own:
/// the newest ply it was told.
struct Watcher {
    ply: Arc<std::sync::atomic::AtomicI64>,
    task: tokio::task::JoinHandle<()>,
}

impl Watcher {
    /// Watch game `game` at the pages on `addr`, as reader number `n` (an address of its own,
    /// as the proxy in front would say: each reader has a budget of its own).
    async fn open(addr: std::net::SocketAddr, game: i64, n: usize) -> Watcher {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
        let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let ask = format!(
            "GET /g/{game}/events HTTP/1.1\r\nHost: bench\r\nX-Forwarded-For: 10.{}.{}.{}\r\n\r\n",
            n >> 16 & 255,
            n >> 8 & 255,
            n & 255
        );
        stream.write_all(ask.as_bytes()).await.expect("ask");
        let ply = Arc::new(std::sync::atomic::AtomicI64::new(-1));
        let seen = ply.clone();
        let task = tokio::spawn(async move {
            let mut lines = tokio::io::BufReader::new(stream).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(n) = line.strip_prefix("data: ").and_then(|d| d.parse().ok()) {
                    seen.fetch_max(n, std::sync::atomic::Ordering::Relaxed);
                }
            }
        });
        Watcher { ply, task }
    }
}

/// [`rounds`] on one table while its pages are served (`--web`) and 200 open pages watch
/// the 100 games (two each), every one of which is seen, at the end of each batch, to have
/// been told its game's last ply: what a page costs the moves.
fn rounds_watched(c: &mut Criterion, rt: &tokio::runtime::Runtime, db: &BenchDb, line: &[String]) {
    let b = Arc::new(setup(rt, &db.url, 1));
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    let web = rt
        .block_on(ugolki_bots::web::serve(addr, b.tables[0].clone()))
        .expect("pages");
    let mut group = c.benchmark_group(format!("table_move_{}", db.label));
    group.sample_size(30);
    let mut round = line.len();
    let mut batch = 0;
    let mut watchers: Vec<Watcher> = Vec::new();
    group.throughput(criterion::Throughput::Elements(GAMES as u64));
    group.bench_function("round_of_100_games_200_pages", |bench| {
        bench.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if round == line.len() {
                    rt.block_on(every_page_told(&watchers, line.len()));
                    for w in watchers.drain(..) {
                        w.task.abort();
                    }
                    batch += 1;
                    for g in 0..GAMES {
                        let chat = format!("w{batch}g{g}");
                        let id =
                            rt.block_on(b.new_game(g, &chat, &format!("w{g}"), &format!("k{g}")));
                        for k in 0..WATCHERS_PER_GAME {
                            let n = g * WATCHERS_PER_GAME + k;
                            watchers.push(rt.block_on(Watcher::open(addr, id, n)));
                        }
                    }
                    round = 0;
                }
                let start = Instant::now();
                rt.block_on(b.clone().round(
                    &format!("w{batch}"),
                    &line[round],
                    round,
                    Route::First,
                ));
                total += start.elapsed();
                round += 1;
            }
            total
        });
    });
    group.finish();
    rt.block_on(every_page_told(&watchers, round));
    web.abort();
    b.close(rt);
}

/// Every watcher has been told its game stands at `ply` (within two seconds).
async fn every_page_told(watchers: &[Watcher], ply: usize) {
    let want = i64::try_from(ply).expect("plies");
    for _ in 0..200 {
        if watchers
            .iter()
            .all(|w| w.ply.load(std::sync::atomic::Ordering::Relaxed) == want)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let behind = watchers
        .iter()
        .filter(|w| w.ply.load(std::sync::atomic::Ordering::Relaxed) != want)
        .count();
    panic!(
        "{behind} of {} pages were not told ply {want}",
        watchers.len()
    );
}

fn bench(c: &mut Criterion) {
    // `TRACE_SQL=1`: every statement logged with its time (what a move costs the store).
    if std::env::var_os("TRACE_SQL").is_some() {
        tracing_subscriber::fmt()
            .with_env_filter("sqlx::query=debug")
            .with_writer(std::io::stderr)
            .init();
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let line = long_game();
    let sqlite = BenchDb::sqlite("table_move");
    one_move(c, &rt, &sqlite, &line);
    rounds(c, &rt, &sqlite, &line, 1, Route::First);
    rounds_watched(c, &rt, &sqlite, &line);
    drop(sqlite);
    if let Some(pg) = rt.block_on(BenchDb::postgres("table_move")) {
        one_move(c, &rt, &pg, &line);
        rounds(c, &rt, &pg, &line, 1, Route::First);
        rounds_watched(c, &rt, &pg, &line);
        rounds(c, &rt, &pg, &line, 2, Route::InTurn);
        rounds(c, &rt, &pg, &line, 2, Route::ByChat);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
