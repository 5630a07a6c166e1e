//! The outbox's senders deliver a lane's rows from memory: the rows a commit of this
//! process wrote reach the sender with their ids, and each slot's living message is kept as
//! the last delivery left it, so a move's board reads nothing from the store — and memory
//! never sends a row twice or forgets the board whose buttons the next one takes off.

use super::{Class, Content, Job, Outbox, Pace, Posted, Surface};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use ugolki_core::store::{SlotRow, Store};
use ugolki_core::table::{
    Action, ChatKind, ChatRef, Config, Incoming, Mention, Origin, Platform, SystemTime, Table, User,
};
use ugolki_core::words::Lang;

/// What the platform was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Call {
    /// A new message: its id.
    Send(String),
    /// The buttons taken off a message.
    Clear(String),
    /// A send refused for the bot's token.
    Refused,
}

/// A platform that takes every call and keeps a record of them.
#[derive(Default)]
struct Recorder {
    calls: Mutex<Vec<Call>>,
    /// Once revoked, every send is refused as the platform's 401 would.
    revoked: std::sync::atomic::AtomicBool,
    /// When watching, each send notes how many rows before its own were still unmarked in
    /// the store at that moment.
    watch: Mutex<Option<Store>>,
    unmarked: Mutex<Vec<usize>>,
}

impl Recorder {
    fn calls(&self) -> Vec<Call> {
        self.calls.lock().unwrap().clone()
    }
}

impl Surface for Recorder {
    type Error = std::io::Error;
    type Buttons = usize;
    fn platform(&self) -> Platform {
        Platform::Test
    }
    fn pace(&self, _: &ChatRef) -> Pace {
        Pace::FREE
    }
    fn classify(&self, e: &std::io::Error) -> Class {
        match e.kind() {
            std::io::ErrorKind::PermissionDenied => Class::Refused,
            _ => Class::Gone,
        }
    }
    fn layout(&self, actions: &[Action], _: Lang) -> usize {
        actions.len()
    }
    async fn send(&self, job: &Job<'_>, _: &Content) -> std::io::Result<Posted> {
        let watch = self.watch.lock().unwrap().clone();
        if let Some(store) = watch {
            let unsent = store.unsent("test", CHAT, 100).await.unwrap();
            let before = unsent.iter().filter(|q| q.id < job.id).count();
            self.unmarked.lock().unwrap().push(before);
        }
        let mut calls = self.calls.lock().unwrap();
        if self.revoked.load(Ordering::SeqCst) {
            calls.push(Call::Refused);
            return Err(std::io::ErrorKind::PermissionDenied.into());
        }
        let id = format!("m{}", calls.len());
        calls.push(Call::Send(id.clone()));
        Ok(Posted {
            message_id: id,
            place: None,
            photo: true,
            extra_calls: 0,
        })
    }
    async fn edit(&self, _: &Job<'_>, _: &SlotRow, _: &Content) -> std::io::Result<()> {
        Ok(())
    }
    async fn clear_buttons(&self, _: &ChatRef, at: &SlotRow) -> std::io::Result<()> {
        self.calls
            .lock()
            .unwrap()
            .push(Call::Clear(at.message_id.clone()));
        Ok(())
    }
    async fn one_message(
        &self,
        _: &Job<'_>,
        _: &Content,
        _: &super::one_message::Shown,
    ) -> std::io::Result<bool> {
        Ok(true)
    }
}

fn user(name: &str) -> User {
    User {
        id: name.into(),
        name: name.into(),
        handle: None,
    }
}

struct Room {
    table: Arc<Table>,
    outbox: Arc<Outbox<Recorder>>,
    n: std::sync::atomic::AtomicU64,
}

const CHAT: &str = "room";

impl Room {
    async fn open() -> Room {
        Room::open_on("sqlite::memory:").await
    }

    async fn open_on(url: &str) -> Room {
        let store = Store::connect(url).await.unwrap();
        let table = Arc::new(
            Table::open(store, Arc::new(SystemTime), Config::default())
                .await
                .unwrap(),
        );
        let outbox = Outbox::new(table.clone(), Arc::new(Recorder::default()));
        Room {
            table,
            outbox,
            n: 0.into(),
        }
    }

    /// `who` says `text` in the room (nothing delivered yet).
    async fn hear(&self, who: &str, text: &str, mention: Option<&str>) {
        let n = self.n.fetch_add(1, Ordering::Relaxed);
        let chat = ChatRef::new(Platform::Test, CHAT, ChatKind::Group);
        let origin = Origin::message(chat, user(who), n.to_string());
        let mentions = mention
            .map(|m| vec![Mention::User(user(m))])
            .unwrap_or_default();
        self.table
            .handle(&Incoming::text(origin, text, mentions))
            .await;
    }

    /// `who` says `text` in the room, and the room's sender delivers what waits.
    async fn say(&self, who: &str, text: &str, mention: Option<&str>) {
        self.hear(who, text, mention).await;
        self.outbox.flush(CHAT, false).await;
    }

    fn reads(&self) -> u64 {
        self.outbox.counters().read.load(Ordering::Relaxed)
    }

    fn calls(&self) -> Vec<Call> {
        self.outbox.surface().calls()
    }
}

/// A fresh `PostgreSQL` database (skipped without `DATABASE_URL_PG`).
#[path = "../../../tests/src/pg.rs"]
mod pg;

/// Alice's challenge to the user she mentions: a classic game, alice White, no clock.
const CHALLENGE: &str = "/challenge @x classic3x3 none casual white";

impl Room {
    /// A room with a game of alice (White) and bob, its start delivered.
    async fn with_game() -> Room {
        let room = Room::open().await;
        room.say("alice", CHALLENGE, Some("bob")).await;
        room.say("bob", "/accept", None).await;
        room
    }
}

/// Six plies of a classic game from the start (white first).
const LINE: [&str; 6] = ["c3-d3", "f6-e6", "d3-e3", "e6-d6", "b3-c3", "g6-f6"];

#[tokio::test]
async fn a_lanes_own_moves_reach_it_from_memory_each_board_taking_the_last_ones_buttons() {
    let room = Room::with_game().await;
    let reads = room.reads();
    assert!(reads >= 1, "a lane taken anew reads the store");
    let before = room.calls().len();
    for (i, mv) in LINE.iter().enumerate() {
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        room.say(who, mv, None).await;
    }
    assert_eq!(room.reads(), reads, "no move's delivery read the store");
    // Each move posted its board and took the buttons off the one before (known from
    // memory, not read back).
    let calls = room.calls()[before..].to_vec();
    let posts: Vec<&String> = calls
        .iter()
        .filter_map(|c| match c {
            Call::Send(id) => Some(id),
            Call::Clear(_) | Call::Refused => None,
        })
        .collect();
    assert_eq!(posts.len(), LINE.len(), "{calls:?}");
    let mut last = None;
    for c in &room.calls() {
        match c {
            Call::Send(id) => last = Some(id.clone()),
            Call::Clear(id) => assert_ne!(Some(id), last.as_ref(), "the newest board stripped"),
            Call::Refused => {}
        }
    }
    for pair in posts.windows(2) {
        assert!(
            calls.contains(&Call::Clear(pair[0].clone())),
            "board {} kept its buttons after {}: {calls:?}",
            pair[0],
            pair[1]
        );
    }
    // The store agrees with memory once the lane's marks are written: nothing unsent.
    room.outbox.settle(CHAT).await;
    let unsent = room.table.store().unsent("test", CHAT, 10).await.unwrap();
    assert!(unsent.is_empty(), "{unsent:?}");
}

#[tokio::test]
async fn a_row_told_of_after_a_read_delivered_it_is_not_sent_again() {
    let room = Room::open().await;
    room.say("alice", CHALLENGE, Some("bob")).await;
    let store = room.table.store();
    // The accept's rows, as the store holds them before anything is delivered.
    room.hear("bob", "/accept", None).await;
    let waiting = store.unsent("test", CHAT, 10).await.unwrap();
    assert!(!waiting.is_empty());
    // A notice makes the lane unknown: the sender reads and delivers them.
    store.signal().poke("test", CHAT);
    room.outbox.flush(CHAT, false).await;
    let sent = room.calls().len();
    // Their commit's word arrives late (after the read delivered them): nothing is sent.
    let _ = store.signal().written(&waiting);
    room.outbox.flush(CHAT, false).await;
    assert_eq!(room.calls().len(), sent, "{:?}", room.calls());
    // The next move's board comes as ever.
    room.say("alice", LINE[0], None).await;
    assert!(room.calls().len() > sent);
}

/// The token refused at delivery (revoked or reset while the bot runs): the row is neither
/// dropped nor retried — it waits in the outbox for a process with a good token — and the
/// outbox says so, for the process to end.
#[tokio::test]
async fn a_refused_token_leaves_the_row_waiting_and_tells_the_process() {
    let room = Room::with_game().await;
    assert!(!room.outbox.is_refused());
    room.outbox.surface().revoked.store(true, Ordering::SeqCst);
    room.say("alice", LINE[0], None).await;
    assert!(room.outbox.is_refused());
    tokio::time::timeout(
        std::time::Duration::from_secs(1),
        room.outbox.token_refused(),
    )
    .await
    .expect("told at once");
    // Nothing more is tried with this token: not the row again, not the next move's.
    room.say("bob", LINE[1], None).await;
    room.outbox.serve(CHAT.to_string());
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let refused = room.calls().iter().filter(|c| **c == Call::Refused).count();
    assert_eq!(refused, 1, "tried again: {:?}", room.calls());
    room.outbox.settle(CHAT).await;
    let unsent = room.table.store().unsent("test", CHAT, 10).await.unwrap();
    assert_eq!(unsent.len(), 2, "both moves' boards wait: {unsent:?}");
    assert_eq!(room.outbox.counters().dropped.load(Ordering::Relaxed), 0);
}

/// A platform that cannot tell a repeated send (Telegram: no idempotency key) is sent a new
/// message only once the marks of the rows before it are written: a crash repeats at most
/// the one send in flight. Here several rows of a lane go out in one drain, one after the
/// other, with nothing between them to let their marks through by chance.
#[tokio::test]
async fn a_new_message_waits_for_the_marks_of_the_rows_before_it() {
    let room = Room::open().await;
    *room.outbox.surface().watch.lock().unwrap() = Some(room.table.store().clone());
    room.hear("alice", CHALLENGE, Some("bob")).await;
    room.hear("bob", "/accept", None).await;
    room.hear("alice", "/help", None).await;
    room.outbox.flush(CHAT, false).await;
    let unmarked = room.outbox.surface().unmarked.lock().unwrap().clone();
    assert!(
        unmarked.len() >= 3,
        "several sends in one drain: {unmarked:?}"
    );
    assert!(
        unmarked.iter().all(|n| *n == 0),
        "a send went out before the rows before it were marked: {unmarked:?}"
    );
}

/// The lanes named on `PostgreSQL`'s outbox channel up to a marker told after them.
async fn told(store: &Store, listener: &mut sqlx::postgres::PgListener) -> Vec<String> {
    store.tell("test", "marker").await.unwrap();
    pg::heard_before(listener, "test marker\t")
        .await
        .iter()
        .map(|p| p.split('\t').next().unwrap_or_default().to_string())
        .collect()
}

/// `PostgreSQL`: a commit to a lane this process's sender holds tells no other process (no
/// `NOTIFY`: its own sender has the rows); if the sender lets the lane go before it sent
/// them, it tells the next holder then, so they wait for nobody's next look.
#[tokio::test]
async fn rows_committed_to_a_held_lane_are_told_of_only_if_it_is_let_go_first() {
    let Some(db) = pg::Database::create("rows_committed_to_a_held_lane").await else {
        return;
    };
    let room = Room::open_on(&db.url).await;
    room.say("alice", CHALLENGE, Some("bob")).await;
    room.say("bob", "/accept", None).await;
    let store = room.table.store();
    let mut listener = store
        .listen_outbox()
        .await
        .expect("a listener on PostgreSQL");
    // Held (the flush kept the lease): a move's board goes out with no notice.
    let sent = room.calls().len();
    room.say("alice", LINE[0], None).await;
    assert!(room.calls().len() > sent, "the board went out");
    assert_eq!(told(store, &mut listener).await, Vec::<String>::new());
    // A move committed, then the lane let go before its board went out: told then.
    room.hear("bob", LINE[1], None).await;
    assert_eq!(told(store, &mut listener).await, Vec::<String>::new());
    room.outbox.release(CHAT).await;
    assert_eq!(told(store, &mut listener).await, ["test room"]);
    let unsent = store.unsent("test", CHAT, 10).await.unwrap();
    assert_eq!(
        unsent.len(),
        1,
        "the board waits for the next holder: {unsent:?}"
    );
    // Not held now: the next commit tells at once.
    room.hear("alice", LINE[2], None).await;
    assert_eq!(told(store, &mut listener).await, ["test room"]);
    // Taken again and delivered: letting it go now tells nobody (nothing waits).
    room.outbox.flush(CHAT, false).await;
    room.outbox.release(CHAT).await;
    assert!(store.unsent("test", CHAT, 10).await.unwrap().is_empty());
    assert_eq!(told(store, &mut listener).await, Vec::<String>::new());
}

/// A row this version cannot read, between two it can, spoilt by `spoil`: dropped and
/// logged, never sent half-read, and the rows around it go out.
async fn an_unreadable_row_is_dropped(room: Room, spoil: impl Fn(&mut ugolki_core::store::OutRow)) {
    let store = room.table.store();
    room.hear("alice", "/help", None).await;
    let mut unreadable = store.unsent("test", CHAT, 10).await.unwrap()[0].row.clone();
    spoil(&mut unreadable);
    store.say(None, vec![unreadable], 0).await.unwrap();
    room.say("alice", "/help", None).await;
    let sends = room
        .calls()
        .iter()
        .filter(|c| matches!(c, Call::Send(_)))
        .count();
    assert_eq!(sends, 2, "{:?}", room.calls());
    assert_eq!(room.outbox.counters().dropped.load(Ordering::Relaxed), 1);
    // (Letting the lane go waits for its marks.)
    room.outbox.flush(CHAT, true).await;
    assert!(store.unsent("test", CHAT, 10).await.unwrap().is_empty());
}

/// A message from a newer version, say.
#[tokio::test]
async fn a_row_this_version_cannot_read_is_dropped_and_the_next_goes_out() {
    an_unreadable_row_is_dropped(Room::open().await, |r| {
        r.message = r#"{"k":"a-message-of-a-newer-version"}"#.into();
    })
    .await;
}

/// `PostgreSQL` checks no code as a row is written (migration 0010): one this version does
/// not know — an audience, here — is refused where the row is read.
#[tokio::test]
async fn postgresql_a_row_with_a_code_this_version_does_not_know_is_dropped() {
    let Some(db) = pg::Database::create("a_row_with_a_code_unknown").await else {
        return;
    };
    an_unreadable_row_is_dropped(Room::open_on(&db.url).await, |r| {
        r.audience = "everyone".into();
    })
    .await;
}
