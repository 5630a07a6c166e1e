//! One delivery layer however many processes serve: three webhook workers behind one URL
//! on one `PostgreSQL` database play forty moves in one group (boards in move order, the
//! group's limit kept over all of them, only the newest board's buttons live, a worker
//! stopped and another taking the chat over), and a chat held by 429s that delays no other
//! chat's boards.

use crate::harness::{
    play_random, quick, start_game, temp_db, Group, Rng, RunningBot, StartTelegram, WAIT,
};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use ugolki_bots::telegram::{Limits, Options};
use ugolki_core::corners::Variant;
use ugolki_core::game::{Game, Rules};
use ugolki_tests::e2e::says;
use ugolki_tests::fake_telegram::{Call, Failure, FakeTelegram, SentMessage};
use ugolki_tests::pg::Database;
use ugolki_tests::said::{played, players};

/// The methods that post or change a message in a chat: what a group's limit counts.
const CHAT_CALLS: [&str; 7] = [
    "sendmessage",
    "sendphoto",
    "sendanimation",
    "editmessagetext",
    "editmessagecaption",
    "editmessagemedia",
    "editmessagereplymarkup",
];

/// A load balancer in front of the workers: each connection goes to the next worker in
/// turn (one that refuses the connection is skipped), bytes copied both ways. Workers are
/// taken out of the turn before they stop, as a balancer's health check would.
struct Balancer {
    addr: SocketAddr,
    workers: Arc<Mutex<Vec<SocketAddr>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Balancer {
    async fn start(workers: Vec<SocketAddr>) -> Balancer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let workers = Arc::new(Mutex::new(workers));
        let turn = Arc::new(AtomicUsize::new(0));
        let list = workers.clone();
        let task = tokio::spawn(async move {
            // Bounded by the test: aborted when the balancer is dropped.
            while let Ok((mut inbound, _)) = listener.accept().await {
                let list = list.lock().expect("workers").clone();
                let first = turn.fetch_add(1, Ordering::Relaxed);
                tokio::spawn(async move {
                    for i in 0..list.len() {
                        let to = list[(first + i) % list.len()];
                        if let Ok(mut outbound) = tokio::net::TcpStream::connect(to).await {
                            let _ = tokio::time::timeout(
                                WAIT,
                                tokio::io::copy_bidirectional(&mut inbound, &mut outbound),
                            )
                            .await;
                            return;
                        }
                    }
                });
            }
        });
        Balancer {
            addr,
            workers,
            task,
        }
    }

    fn remove(&self, worker: SocketAddr) {
        self.workers
            .lock()
            .expect("workers")
            .retain(|w| *w != worker);
    }

    fn add(&self, worker: SocketAddr) {
        self.workers.lock().expect("workers").push(worker);
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A worker: the Telegram bot in webhook mode behind `url`, listening on `listen`.
fn worker(
    g: &Group,
    url: &str,
    listen: SocketAddr,
    database_url: &str,
    limits: Limits,
) -> RunningBot {
    RunningBot::start_with(Options {
        token: FakeTelegram::TOKEN.into(),
        api_url: Some(g.fake.api_url()),
        database_url: database_url.to_string(),
        webhook: Some((url::Url::parse(url).expect("url"), listen)),
        webhook_secret: Some("one-secret-for-every-worker".into()),
        metrics: None,
        limits,
        inline_chats: Vec::new(),
        web: None,
    })
}

/// The group's calls that post or change a message, in order, successful ones only.
fn chat_calls(g: &Group) -> Vec<Call> {
    g.fake
        .calls()
        .into_iter()
        .filter(|c| CHAT_CALLS.contains(&c.method.as_str()) && c.error.is_none())
        .filter(|c| number(&c.params["chat_id"]) == Some(g.chat.id))
        .collect()
}

/// A parameter that is a number (JSON bodies) or a number in a string (multipart fields).
fn number(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
}

/// Whether a call leaves its message with buttons.
fn has_keyboard(params: &Value) -> bool {
    params["reply_markup"]["inline_keyboard"]
        .as_array()
        .is_some_and(|rows| {
            rows.iter()
                .any(|r| r.as_array().is_some_and(|r| !r.is_empty()))
        })
}

/// The first board, then one per move naming it, in order.
fn boards_in_move_order(boards: &[SentMessage], moves: &[String]) {
    assert_eq!(boards.len(), moves.len() + 1, "{boards:#?}");
    assert!(says(&boards[0], &players("Alice", "Bob")));
    for (i, (b, mv)) in boards[1..].iter().zip(moves).enumerate() {
        let name = if i % 2 == 0 { "Alice" } else { "Bob" };
        assert!(
            says(b, &played(name, mv)),
            "board {} is move {i} ({mv}): {b:#?}",
            i + 1
        );
    }
}

/// Never more than `limit` of `calls` in any `window`.
fn within_the_groups_limit(calls: &[Call], limit: usize, window: Duration) {
    for (i, c) in calls.iter().enumerate() {
        let within = calls[i..]
            .iter()
            .take_while(|d| d.time.duration_since(c.time) < window)
            .count();
        assert!(
            within <= limit,
            "{within} calls in {window:?} from call {i}"
        );
    }
}

/// Over the calls: a board whose buttons came off never gets them back, and at the end
/// only the newest board has buttons (and the fake agrees). (While the group is busy, old
/// boards keep theirs until it is quiet: several may be live at a new board.)
fn only_the_newest_board_live(calls: &[Call], boards: &[SentMessage]) {
    let board_ids: Vec<i64> = boards.iter().map(|b| b.id).collect();
    let mut sent = board_ids.iter();
    let mut live: Vec<i64> = Vec::new();
    let show = |i: usize| -> Vec<String> {
        calls[i.saturating_sub(12)..(i + 3).min(calls.len())]
            .iter()
            .map(|c| {
                format!(
                    "{:?} {} {} {}",
                    c.time,
                    c.method,
                    c.params["message_id"],
                    has_keyboard(&c.params)
                )
            })
            .collect()
    };
    for (i, c) in calls.iter().enumerate() {
        if c.method == "sendphoto" {
            let id = *sent.next().expect("as many photos sent as boards");
            if has_keyboard(&c.params) {
                live.push(id);
            }
        } else if let Some(id) = number(&c.params["message_id"]) {
            if board_ids.contains(&id) {
                let was_live = live.contains(&id);
                live.retain(|l| *l != id);
                if has_keyboard(&c.params) {
                    assert!(was_live, "board {id} got its buttons back: {:#?}", show(i));
                    live.push(id);
                }
            }
        }
    }
    assert_eq!(
        live,
        [*board_ids.last().expect("boards")],
        "only the newest is live: {:#?}",
        show(calls.len().saturating_sub(1))
    );
    let now_live: Vec<i64> = boards
        .iter()
        .filter(|m| !m.buttons.is_empty())
        .map(|m| m.id)
        .collect();
    assert_eq!(now_live, live, "the fake agrees");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_workers_on_one_database_play_forty_moves_in_one_group() {
    let Some(db) = Database::create("three_workers").await else {
        return;
    };
    let g = Group::new().await;
    // The group's twenty a minute, scaled to twenty in two seconds.
    let window = Duration::from_secs(2);
    let limits = Limits {
        per_group: 20,
        group_window: window,
        ..quick()
    };
    let listens: Vec<SocketAddr> = (0..3).map(|_| ugolki_tests::free_addr()).collect();
    let balancer = Balancer::start(listens.clone()).await;
    // Telegram posts to https on an allowed port: the TLS proxy in front forwards to the
    // balancer.
    let url = "https://bot.example.com:8443/tg-hook".to_string();
    g.fake.proxy_webhook_to(balancer.addr);
    let mut workers: Vec<Option<RunningBot>> = listens
        .iter()
        .map(|l| Some(worker(&g, &url, *l, &db.url, limits)))
        .collect();
    let ok = g
        .fake
        .wait_until(WAIT, |f| f.webhook().as_deref() == Some(url.as_str()))
        .await;
    assert!(ok, "the webhook is set to the balancer's URL");

    let board = start_game(&g, "classic3x3 none").await;
    assert!(says(&board, &players("Alice", "Bob")));
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(2026);
    let mut moves = play_random(&g, &mut game, &mut rng, 14).await;
    // Two workers go (whichever held the chat, the third takes it over); one comes back.
    for i in [0, 1] {
        balancer.remove(listens[i]);
        workers[i].take().expect("running").stop().await;
    }
    moves.extend(play_random(&g, &mut game, &mut rng, 14).await);
    workers[0] = Some(worker(&g, &url, listens[0], &db.url, limits));
    balancer.add(listens[0]);
    // The third goes: the one that came back must take the chat over.
    balancer.remove(listens[2]);
    workers[2].take().expect("running").stop().await;
    moves.extend(play_random(&g, &mut game, &mut rng, 12).await);
    assert_eq!(moves.len(), 40, "forty moves played: {moves:?}");
    assert!(g.fake.pushed_updates() >= 40);

    // The last board's predecessor loses its buttons a pace after it: wait for that.
    let one_live = g
        .fake
        .wait_until(WAIT, |f| {
            f.messages(g.chat.id)
                .iter()
                .filter(|m| m.photo.is_some() && !m.buttons.is_empty())
                .count()
                == 1
        })
        .await;
    assert!(
        one_live,
        "old boards keep their buttons: {:#?}",
        g.messages()
    );

    // Every board shown, posted or edited in place, in move order; the posted ones for
    // their buttons.
    let shown: Vec<SentMessage> = g
        .shown()
        .into_iter()
        .filter(|m| m.photo.is_some())
        .collect();
    boards_in_move_order(&shown, &moves);
    let boards: Vec<SentMessage> = g
        .messages()
        .into_iter()
        .filter(|m| m.photo.is_some())
        .collect();
    let calls = chat_calls(&g);
    within_the_groups_limit(&calls, 20, window);
    only_the_newest_board_live(&calls, &boards);

    for w in workers.into_iter().flatten() {
        w.stop().await;
    }
}

/// A chat held by 429s (its own flood wait) delays no other chat's boards beyond a
/// second; its own boards arrive once the wait is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_held_by_429s_delays_no_other_chat() {
    let g = Group::new().await;
    let h = g.another(-1002, "Other games");
    let db = temp_db("isolation");
    let bot = RunningBot::start(&g.fake, &db, quick());
    // A game in each chat.
    start_game(&g, "classic3x3 none").await;
    start_game(&h, "classic3x3 none").await;
    // The first group is held: its next sends get 429 with a 3 s wait, twice.
    let sends = [
        "sendphoto",
        "sendmessage",
        "editmessagereplymarkup",
        "editmessagecaption",
        "editmessagemedia",
    ];
    g.fake.fail_next_in(
        g.chat.id,
        2,
        &sends,
        Failure::TooManyRequests { retry_after: 3 },
    );
    g.fake.send_text(&g.chat, &g.alice, "/m c3-d3");
    let held_at = Instant::now();
    // Meanwhile the other chat plays on, each board within a second of its move.
    let mut game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mut rng = Rng(5);
    for _ in 0..6 {
        let typed = Instant::now();
        // (It returns once the move's board is shown: posted, or edited in place.)
        play_random(&h, &mut game, &mut rng, 1).await;
        let took = typed.elapsed();
        assert!(
            took <= Duration::from_secs(1),
            "the other chat's board took {took:?}"
        );
    }
    assert!(
        held_at.elapsed() < Duration::from_secs(3),
        "the other chat played while the first was held"
    );
    // The held chat's board arrives after its waits, once.
    g.expect_text(&played("Alice", "c3-d3")).await;
    assert!(held_at.elapsed() >= Duration::from_secs(3));
    let answers = g
        .shown()
        .iter()
        .filter(|m| says(m, &played("Alice", "c3-d3")))
        .count();
    assert_eq!(answers, 1);
    bot.stop().await;
}
