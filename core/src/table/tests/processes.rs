//! Several processes on one `PostgreSQL` database: two `Table`s in this test process, each
//! on its own connections (as two bots would be), sharing a fake clock. Moves sent to either
//! or both are applied once and answered once; timers fire once; a claim that dies with its
//! process is taken over after its lease; ratings of games ending together all count.
//! Skipped, with the reason printed, without `DATABASE_URL_PG`.

use super::*;
use crate::store::tests::pg::TestDb;
use std::collections::HashMap;
use timers::TIMER_LEASE_MS;

/// Room for many games: no fair-play limits on challenges (F2, F3 are tested elsewhere).
fn roomy() -> Config {
    Config {
        max_open_challenges: i64::MAX,
        max_active_games: i64::MAX,
        max_challenges_per_minute: i64::MAX,
        max_rated_pair_games_per_day: usize::MAX,
        ..Config::default()
    }
}

/// Two "processes" serving one fresh database with a shared fake clock.
struct Deployment {
    db: TestDb,
    time: FakeTime,
    a: Arc<Table>,
    b: Arc<Table>,
    seq: std::sync::atomic::AtomicU64,
}

impl Deployment {
    async fn new(test: &str) -> Option<Deployment> {
        let db = TestDb::create(test).await?;
        let time = FakeTime::at(T0);
        let a = Arc::new(
            Table::open(db.store().await, Arc::new(time.clone()), roomy())
                .await
                .unwrap(),
        );
        let b = Arc::new(
            Table::open(db.store().await, Arc::new(time.clone()), roomy())
                .await
                .unwrap(),
        );
        Some(Deployment {
            db,
            time,
            a,
            b,
            seq: 0.into(),
        })
    }

    /// A typed message in `chat` from `who`, with a message id of its own.
    fn msg(&self, chat: &str, who: &str, text: &str) -> Incoming {
        let n = self.seq.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mentions = text
            .split_whitespace()
            .filter_map(|w| w.strip_prefix('@'))
            .map(|w| Mention::User(user(w)))
            .collect();
        Incoming::text(
            Origin::message(room(chat), user(who), format!("{chat}-{n}")),
            text,
            mentions,
        )
    }

    /// A game in `chat` between `white` and `black` (White), started through table A.
    async fn start(&self, chat: &str, white: &str, black: &str, terms: &str) -> i64 {
        let out = self
            .a
            .handle(&self.msg(chat, white, &format!("/challenge @{black} {terms} white")))
            .await;
        assert!(
            matches!(out[0].message, Msg::ChallengeTo { .. }),
            "{out:#?}"
        );
        let out = self.a.handle(&self.msg(chat, black, "/accept")).await;
        out[1].game.expect("a game")
    }
}

/// A small random number generator (the tests must be repeatable).
struct Dice(u64);

impl Dice {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

/// The move a reply reports as played, if it reports one.
fn played(out: &[Outgoing]) -> Option<String> {
    out.iter().find_map(|o| match &o.message {
        Msg::AfterMove { recorded, .. } => Some(recorded.clone()),
        _ => None,
    })
}

/// How a move message is sent: to one table, the other, or both (a webhook retried to
/// another worker).
async fn send(d: &Deployment, route: usize, msg: &Incoming) -> (Vec<Outgoing>, Vec<Outgoing>) {
    match route {
        0 => (d.a.handle(msg).await, Vec::new()),
        1 => (Vec::new(), d.b.handle(msg).await),
        _ => tokio::join!(d.a.handle(msg), d.b.handle(msg)),
    }
}

/// One game's side of the conversation: legal moves sent at random to A, B or both, now and
/// then two different moves at once (a double press), the same message again later, until
/// `budget` messages are spent. Returns the moves the players saw played.
async fn play_one(
    d: Arc<Deployment>,
    chat: String,
    id: i64,
    budget: usize,
    seed: u64,
) -> Vec<String> {
    let (white, black) = (format!("w{chat}"), format!("k{chat}"));
    let mut game = Game::new(&crate::game::Rules::from_id("classic3x3").unwrap());
    let mut moves: Vec<String> = Vec::new();
    let mut dice = Dice(seed);
    let mut sent = 0;
    let mut old: Vec<Incoming> = Vec::new();
    while sent < budget && game.ending().is_none() {
        let who = if game.turn() == Color::White {
            &white
        } else {
            &black
        };
        let legal = game.legal_move_texts();
        let pick = legal[dice.next(legal.len())].clone();
        let msg = d.msg(&chat, who, &pick);
        if dice.next(5) == 0 && legal.len() > 1 {
            // Two different moves at once, one to each process: one is played, the other
            // is told it is not this player's turn any more.
            let other = legal
                .iter()
                .find(|m| **m != pick)
                .expect("another move")
                .clone();
            let msg2 = d.msg(&chat, who, &other);
            let (x, y) = tokio::join!(d.a.handle(&msg), d.b.handle(&msg2));
            sent += 2;
            assert!(!x.is_empty() && !y.is_empty(), "game {id}: {x:#?} {y:#?}");
            let (won, lost) = match (played(&x), played(&y)) {
                (Some(m), None) => (m, y),
                (None, Some(m)) => (m, x),
                other => panic!("game {id}: both or neither played: {other:?}"),
            };
            assert_eq!(messages(&lost), [Msg::NotYourTurn], "game {id}");
            assert_eq!(lost[0].audience, Audience::Sender);
            game.play_text(&won).unwrap();
            moves.push(won);
        } else {
            let route = dice.next(3);
            let (x, y) = Box::pin(send(&d, route, &msg)).await;
            sent += 1;
            let answered = usize::from(!x.is_empty()) + usize::from(!y.is_empty());
            assert_eq!(
                answered, 1,
                "game {id}, {pick} by route {route}: {x:#?} {y:#?}"
            );
            let got = played(&x).or_else(|| played(&y));
            assert_eq!(
                got.as_deref(),
                Some(pick.as_str()),
                "game {id}: {x:#?} {y:#?}"
            );
            game.play_text(&pick).unwrap();
            moves.push(pick);
            old.push(msg);
        }
        // Now and then an old message comes again: already handled, not answered.
        if dice.next(7) == 0 && !old.is_empty() {
            let again = &old[dice.next(old.len())];
            let (x, y) = Box::pin(send(&d, dice.next(3), again)).await;
            sent += 1;
            assert!(
                x.is_empty() && y.is_empty(),
                "game {id}: a repeat was answered"
            );
        }
    }
    moves
}

/// 1,000 moves for 20 games, sent to both processes at random: every game's record is a
/// legal game with each move once, and every message got one answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn t_two_processes_apply_each_move_once_and_answer_once() {
    let Some(d) = Deployment::new("t_two_processes_apply_each_move_once_and_answer_once").await
    else {
        return;
    };
    let d = Arc::new(d);
    let mut ids = Vec::new();
    for g in 0..20 {
        let chat = format!("g{g}");
        let id = d
            .start(
                &chat,
                &format!("w{chat}"),
                &format!("k{chat}"),
                "classic3x3 none casual",
            )
            .await;
        ids.push((chat, id));
    }
    let mut tasks = tokio::task::JoinSet::new();
    for (i, (chat, id)) in ids.iter().enumerate() {
        tasks.spawn(play_one(d.clone(), chat.clone(), *id, 50, 11 + i as u64));
    }
    let mut seen: HashMap<i64, Vec<String>> = HashMap::new();
    let mut results = Vec::new();
    while let Some(r) = tasks.join_next().await {
        results.push(r.unwrap());
    }
    let store = d.a.store();
    let mut total = 0;
    for (chat, id) in &ids {
        let stored = store.moves(*id).await.unwrap();
        // Replays as a legal game, from the start.
        let mut g = Game::new(&crate::game::Rules::from_id("classic3x3").unwrap());
        for m in &stored {
            g.play_text(m)
                .unwrap_or_else(|e| panic!("game {id} ({chat}): {m}: {e:?}"));
        }
        total += stored.len();
        seen.insert(*id, stored);
    }
    // Each game's record is what its players saw played: every move once, in order.
    for moves in &results {
        assert!(
            seen.values().any(|s| s == moves),
            "a game's record differs from what was answered: {moves:?}"
        );
    }
    assert!(total > 700, "{total} moves played");
}

/// 50 games whose flags fall together, fired by both processes at once: each flag is
/// announced once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn t1_fifty_flags_fired_by_two_processes_are_each_announced_once() {
    let Some(d) =
        Deployment::new("t1_fifty_flags_fired_by_two_processes_are_each_announced_once").await
    else {
        return;
    };
    let mut ids = Vec::new();
    for g in 0..50 {
        let chat = format!("f{g}");
        let (w, k) = (format!("w{g}"), format!("k{g}"));
        let id = d.start(&chat, &w, &k, "classic3x3 1+0 casual").await;
        // Both sides move (through either process), so the flag is a loss, not an abort.
        let t = if g % 2 == 0 { &d.a } else { &d.b };
        assert!(played(&t.handle(&d.msg(&chat, &w, "c3-d3")).await).is_some());
        assert!(played(&t.handle(&d.msg(&chat, &k, "f6-e6")).await).is_some());
        ids.push(id);
    }
    d.time.advance(2 * MIN);
    let mut out = Vec::new();
    for _ in 0..3 {
        let (x, y) = tokio::join!(d.a.fire_due(), d.b.fire_due());
        out.extend(x);
        out.extend(y);
    }
    let mut flagged: HashMap<i64, usize> = HashMap::new();
    for o in &out {
        if let Msg::Flagged { id, .. } = o.message {
            *flagged.entry(id).or_default() += 1;
        }
    }
    for id in &ids {
        assert_eq!(flagged.get(id), Some(&1), "game {id}");
        let row = d.a.store().game(*id).await.unwrap().unwrap();
        assert_eq!(row.end_reason.as_deref(), Some("flag:white"), "game {id}");
    }
    assert_eq!(flagged.len(), 50);
}

/// A process dies holding a timer's claim: the other one fires the timer after the lease,
/// once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn t1_a_claim_dropped_with_its_process_is_fired_by_another_after_the_lease() {
    let Some(d) =
        Deployment::new("t1_a_claim_dropped_with_its_process_is_fired_by_another_after_the_lease")
            .await
    else {
        return;
    };
    let id = d
        .start("room", "alice", "bob", "classic3x3 1+0 casual")
        .await;
    d.a.handle(&d.msg("room", "alice", "c3-d3")).await;
    d.a.handle(&d.msg("room", "bob", "f6-e6")).await;
    d.time.advance(2 * MIN);
    let now = d.time.now_ms();
    let Deployment { db, time, a, b, .. } = d;
    // A claims the flag, then dies before firing it.
    assert_eq!(a.claim_due(now).await.unwrap(), [timers::Key::Game(id)]);
    drop(a);
    assert!(
        b.fire_due().await.is_empty(),
        "A's claim holds for its lease"
    );
    time.advance(TIMER_LEASE_MS);
    let out = b.fire_due().await;
    assert!(
        matches!(out.as_slice(), [o] if matches!(o.message, Msg::Flagged { id: i, .. } if i == id)),
        "{out:#?}"
    );
    assert!(b.fire_due().await.is_empty(), "announced once");
    drop(db);
}

/// A season of rated games between six players, ended all at once through both processes:
/// every stored rating equals the one recomputed from the history, and each player's
/// history is one chain (no ending read a rating another was changing).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r_season_ending_concurrently_on_two_processes_equals_its_history() {
    let Some(d) =
        Deployment::new("r_season_ending_concurrently_on_two_processes_equals_its_history").await
    else {
        return;
    };
    let names = ["ann", "ben", "cid", "dot", "eve", "fay"];
    let mut dice = Dice(5);
    let mut games = Vec::new();
    for g in 0..36 {
        let a = names[dice.next(6)];
        let b = names
            .iter()
            .copied()
            .filter(|n| *n != a)
            .nth(dice.next(5))
            .unwrap();
        let chat = format!("s{g}");
        let id = d.start(&chat, a, b, "classic3x3 rated").await;
        d.a.handle(&d.msg(&chat, a, "c3-d3")).await;
        d.b.handle(&d.msg(&chat, b, "f6-e6")).await;
        let loser = if dice.next(2) == 0 { a } else { b };
        games.push((chat, id, loser, dice.next(2)));
    }
    let d = Arc::new(d);
    let mut tasks = tokio::task::JoinSet::new();
    for (chat, id, loser, route) in games.clone() {
        let d = d.clone();
        tasks.spawn(async move {
            let msg = d.msg(&chat, loser, "/resign");
            let out = if route == 0 {
                d.a.handle(&msg).await
            } else {
                d.b.handle(&msg).await
            };
            assert!(
                matches!(head(&out[0].message), Msg::Resigned { id: i, .. } if *i == id),
                "{out:#?}"
            );
        });
    }
    while let Some(r) = tasks.join_next().await {
        r.unwrap();
    }
    let store = d.a.store();
    let history = store.all_rating_history().await.unwrap();
    assert_eq!(history.len(), 72, "every ending counted, for both players");
    let mut general: HashMap<(i64, String), i64> = HashMap::new();
    for (player, kind, _, before, after, _, _) in history {
        let g = general.entry((player, kind)).or_insert(1000);
        assert_eq!(*g, before, "player {player}'s history chains");
        *g = after;
    }
    let stored = store.all_ratings().await.unwrap();
    assert_eq!(stored.len(), general.len());
    for (player, kind, rating, _, _) in stored {
        assert_eq!(general[&(player, kind)], rating, "player {player}");
    }
}

/// Downtime is credited only when no process was serving: a process starting beside a
/// live one credits nothing; one starting after all were gone credits the gap.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn t1_downtime_counts_only_when_no_process_served() {
    let Some(d) = Deployment::new("t1_downtime_counts_only_when_no_process_served").await else {
        return;
    };
    let id = d
        .start("room", "alice", "bob", "classic3x3 5+0 casual")
        .await;
    let started = d.a.store().game(id).await.unwrap().unwrap().turn_started_at;
    // A third process starts while A serves: it sees A's beat of 200 ms ago, waits, and A
    // beats again meanwhile: A is alive, nothing is credited.
    d.time.advance(5_000);
    d.a.beat(d.time.now_ms()).await;
    d.time.advance(200);
    let beating = {
        let (a, time) = (d.a.clone(), d.time.clone());
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            time.advance(100);
            a.beat(time.now_ms()).await;
        })
    };
    let c = Table::open(d.db.store().await, Arc::new(d.time.clone()), roomy())
        .await
        .unwrap();
    beating.await.unwrap();
    assert!(c.store().outages().await.unwrap().is_empty());
    assert_eq!(
        c.live(id).await.unwrap().unwrap().row.turn_started_at,
        started
    );
    // All three stop; a minute later one starts: the minute is given back.
    let Deployment { db, time, a, b, .. } = d;
    let last = time.now_ms();
    a.beat(last).await;
    drop((a, b, c));
    time.advance(60_000);
    let e = Table::open(db.store().await, Arc::new(time.clone()), roomy())
        .await
        .unwrap();
    // Credited when the game is touched, and only once, whoever touches it.
    let f = Table::open(db.store().await, Arc::new(time.clone()), roomy())
        .await
        .unwrap();
    assert_eq!(
        e.live(id).await.unwrap().unwrap().row.turn_started_at,
        started + 60_000
    );
    assert_eq!(
        f.live(id).await.unwrap().unwrap().row.turn_started_at,
        started + 60_000
    );
    assert_eq!(
        e.store().game(id).await.unwrap().unwrap().turn_started_at,
        started + 60_000
    );
}

/// Movers waiting for a game's lock hold no connection of the store's lock pool: the lock's
/// holder takes one after the lock (`game_lock`), so with the pool held by waiters it would
/// wait for them while they wait for it, and every game would stall.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn movers_waiting_for_a_game_never_starve_the_holder_of_its_lock() {
    let Some(d) = Deployment::new("lock_order").await else {
        return;
    };
    let d = Arc::new(d);
    let id = d.start("room", "alice", "bob", "classic3x3 none").await;
    // Another task of this process holds the game's lock.
    let local = d.a.local_lock(id).await;
    // More movers than the lock pool has connections (8), all waiting for the game.
    let mut movers = Vec::new();
    for _ in 0..12 {
        let d = d.clone();
        movers.push(tokio::spawn(async move {
            d.a.handle(&d.msg("room", "alice", "c3-d3")).await
        }));
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    // The holder goes on to take a connection, as `game_lock` does.
    let shared = tokio::time::timeout(std::time::Duration::from_secs(5), d.a.store.lock_game(id))
        .await
        .expect("the lock pool is free for the lock's holder")
        .unwrap();
    drop(shared);
    drop(local);
    let mut played_once = 0;
    for m in movers {
        let out = tokio::time::timeout(std::time::Duration::from_secs(30), m)
            .await
            .expect("every mover is answered")
            .unwrap();
        if played(&out).is_some() {
            played_once += 1;
        }
    }
    assert_eq!(
        played_once, 1,
        "one c3-d3 is played; the others are refused"
    );
    assert_eq!(d.a.store.game(id).await.unwrap().unwrap().ply, 1);
}

/// A tournament's game on either process: White moves, then Black resigns (`white_wins`)
/// or moves and White resigns; each message to the process `route` says.
async fn finish_on(d: &Deployment, chat: &str, g: &GameRow, white_wins: bool, route: usize) {
    let name = |id| async move { d.a.store().player(id).await.unwrap().unwrap().name };
    let (white, black) = (name(g.white_id).await, name(g.black_id).await);
    let table = |n: usize| if n.is_multiple_of(2) { &d.a } else { &d.b };
    let mover = |who: String, n: usize| async move {
        let mut o = d.msg(chat, &who, "x").origin;
        o.message_id = format!("{}-suggest-{n}", o.message_id);
        let mv = table(n).suggest_moves(&o, "", 1).await;
        let out = table(n)
            .handle(&d.msg(chat, &who, &format!("/move {} {}", g.id, mv[0])))
            .await;
        assert!(!out.is_empty(), "{who} in #{}", g.id);
    };
    mover(white.clone(), route).await;
    let loser = if white_wins {
        black
    } else {
        mover(black, route + 1).await;
        white
    };
    table(route)
        .handle(&d.msg(chat, &loser, &format!("/resign {}", g.id)))
        .await;
}

/// Two processes on one database run one arena, both firing its timer at every turn:
/// every pairing is made once (each game announced once, by one of them), and nobody is
/// ever in two of its games at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn t_two_processes_run_one_arena_and_pair_everyone_once() {
    let Some(d) = Deployment::new("t_two_processes_run_one_arena_and_pair_everyone_once").await
    else {
        return;
    };
    let chat = "arena";
    let mut made = d.msg(
        chat,
        "host",
        "/tournament arena classic3x3 3+2 casual 20m in 1m",
    );
    made.origin.group_admin = Some(true);
    let out = d.a.handle(&made).await;
    let Some(cup) = out.iter().find_map(|o| match o.message {
        Msg::TournamentCard { id, .. } => Some(id),
        _ => None,
    }) else {
        panic!("{out:#?}")
    };
    for (i, p) in ["q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8"]
        .iter()
        .enumerate()
    {
        let table = if i % 2 == 0 { &d.a } else { &d.b };
        table.handle(&d.msg(chat, p, "/join")).await;
    }
    d.time.advance(MIN);
    let mut announced: HashMap<i64, usize> = HashMap::new();
    let count = |announced: &mut HashMap<i64, usize>, out: &[Outgoing]| {
        for o in out {
            if let Msg::TournamentGameStarted { id, .. } = o.message {
                *announced.entry(id).or_default() += 1;
            }
        }
    };
    for step in 0..30usize {
        // Both at once outside the timers' claims (as after a lease ran out on a process
        // that was only slow): the tournament's lock and its round counter hold.
        let now = d.time.now_ms();
        let (first, second) = tokio::join!(
            d.a.fire_tournament(cup, now, None),
            d.b.fire_tournament(cup, now, None)
        );
        // Neither fails: the second waits for the first and finds nothing left to do (a
        // duplicate would only be stopped by the pairings' key, as an error).
        let (Ok(first), Ok(second)) = (first, second) else {
            panic!("step {step}: a pairing tried twice")
        };
        count(&mut announced, &first);
        count(&mut announced, &second);
        let (first, second) = tokio::join!(d.a.fire_due(), d.b.fire_due());
        count(&mut announced, &first);
        count(&mut announced, &second);
        let store = d.a.store();
        let row = store.tournament(cup).await.unwrap().unwrap();
        if row.status == crate::store::TournamentStatus::Finished {
            break;
        }
        // Nobody in two running games.
        let mut running = Vec::new();
        for p in store.pairings(cup).await.unwrap() {
            if let Some(id) = p.game_id {
                let g = store.game(id).await.unwrap().unwrap();
                if g.is_active() {
                    running.push(g);
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        for g in &running {
            assert!(
                seen.insert(g.white_id),
                "step {step}: a player in two games"
            );
            assert!(
                seen.insert(g.black_id),
                "step {step}: a player in two games"
            );
        }
        // Every running game ends, its moves sent to one process or the other: both
        // hear of the endings and race to pair the players again.
        for (i, g) in running.iter().enumerate() {
            finish_on(&d, chat, g, (i + step) % 2 == 0, i + step).await;
        }
        d.time.advance(MIN);
    }
    let store = d.a.store();
    let row = store.tournament(cup).await.unwrap().unwrap();
    assert_eq!(row.status, crate::store::TournamentStatus::Finished);
    let pairings = store.pairings(cup).await.unwrap();
    let games: Vec<i64> = pairings.iter().filter_map(|p| p.game_id).collect();
    assert!(games.len() >= 40, "{} games", games.len());
    // Each game announced once, by one process or the other.
    for g in &games {
        assert_eq!(announced.get(g), Some(&1), "game {g}");
    }
    assert_eq!(announced.len(), games.len());
    // The pairings' batches are the tournament's round counter, each once.
    let batches: std::collections::BTreeSet<i64> = pairings.iter().map(|p| p.round).collect();
    assert_eq!(batches.len(), usize::try_from(row.round).unwrap());
}

/// A Resign button's first press reaches one process and its second another (a webhook's
/// workers): the question is kept in the store, so the second press resigns there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn t2_a_resign_asked_on_one_process_is_confirmed_on_the_other() {
    let Some(d) = Deployment::new("resign_two_processes").await else {
        return;
    };
    let id = d.start("r", "alice", "bob", "classic3x3").await;
    d.a.handle(&d.msg("r", "alice", "c3-d3")).await;
    let press = |n: &str| Incoming {
        origin: Origin::interaction(room("r"), user("bob"), n.to_string()),
        input: Input::Action(Action::Resign { game: id, ply: 1 }),
    };
    let out = d.a.handle(&press("p1")).await;
    assert!(matches!(out[0].message, Msg::ResignAsk { .. }), "{out:#?}");
    d.time.advance(RESIGN_SECOND_MS);
    let out = d.b.handle(&press("p2")).await;
    assert_eq!(
        head(&out[0].message),
        &Msg::Resigned {
            id,
            loser: "bob".into(),
            winner: "alice".into()
        }
    );
}
