//! Delivery, one layer for every platform: the rows the table wrote to the outbox (in the
//! transactions of the changes they tell of) are sent by one sender per chat across all
//! processes — the holder of the chat's lease — in order, newest board only, within the
//! platform's limits, with the platform's message ids kept as slot rows.
//!
//! A sender serves a lane: a chat, or a forum group with all its topics (the platform
//! counts a group's calls together, so one lease and one pace cover them).
//!
//! A process serves only its own platform's rows. The process that committed a change
//! wakes its own sender at once (the store's signal); others hear of it through
//! `PostgreSQL`'s `NOTIFY` (sent unless this process's sender holds the lane, which then
//! tells the next holder itself if it lets the lane go first); and every second the store
//! is asked for chats whose rows wait with nobody serving them or served by this process
//! (a holder that died, a notice missed), so nothing waits long.

mod deliver;
pub mod one_message;
pub mod pacing;
pub mod surface;
#[cfg(test)]
mod tests;

pub use pacing::{Pace, Pacing};
pub use surface::{cut, Class, Content, Image, ImageKind, Job, Posted, Surface};

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;
use ugolki_core::store::{Queued, SlotRow};
use ugolki_core::table::Table;
use ugolki_render::Renderer;

/// How long a chat's lease lasts; a sender renews it before every call, and while it waits.
pub const LEASE_MS: i64 = 15_000;
/// How long an idle sender keeps its chat (and its pace) before letting it go.
const IDLE: Duration = Duration::from_secs(10);
/// How often the store is asked for chats that wait with nobody serving them.
const POLL: Duration = Duration::from_secs(1);
/// Rows read at a time.
const BATCH: i64 = 32;
/// Sent rows are kept this long (a sender taking a chat over reads its recent calls from
/// them; operators can see what went out), then deleted.
pub const KEEP_SENT_MS: i64 = 3_600_000;
/// Rows nobody sent in this long are given up (no process serves their platform).
pub const GIVE_UP_MS: i64 = 86_400_000;
/// How often old rows are pruned, and the depth figures read.
const PRUNE_EVERY: Duration = Duration::from_secs(600);
const COUNT_EVERY: Duration = Duration::from_secs(5);
/// How long a stopping process lets its senders finish the call they are making (so that
/// what they sent is marked, and the next holder strips the right board's buttons).
const STOP_GRACE: Duration = Duration::from_secs(5);

/// The lines of replies that are answered through their interaction (a press's alert, an
/// ephemeral message), not from the outbox, in order.
#[must_use]
pub fn direct_lines(outs: &[ugolki_core::table::Outgoing]) -> Vec<String> {
    outs.iter()
        .filter(|o| o.direct)
        .map(ugolki_core::table::Outgoing::text)
        .collect()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What the outbox has done in this process, for operators and tests.
#[derive(Debug, Default)]
pub struct Counters {
    pub sent: AtomicU64,
    pub edited: AtomicU64,
    pub overtaken: AtomicU64,
    pub dropped: AtomicU64,
    pub retried: AtomicU64,
    /// Reads of a lane's unsent rows from the store (a lane's own commits need none).
    pub read: AtomicU64,
}

/// A chat being served in this process.
struct Serving {
    /// Set when new rows may have come while the sender was busy.
    poked: AtomicBool,
    wake: Notify,
    /// One delivery at a time in this process (a console flush and its sender).
    turn: tokio::sync::Mutex<()>,
}

/// What this process knows of a lane it holds: the rows it read and those it committed
/// since, and its slots' living messages. Valid while the lane's lease is held without a
/// break, so that a move's delivery reads nothing (its rows come from the commit, its slot
/// from the last delivery); a lease taken anew starts from nothing and reads the store.
#[derive(Default)]
struct Known {
    /// Rows to deliver, by id (the order they were written in).
    pending: BTreeMap<i64, Queued>,
    /// Whether `pending` holds every unsent row of the lane (else the store is read).
    complete: bool,
    /// The living message of each slot of the lane's chats seen so far, with when it was
    /// last changed; `None`: known to have none.
    living: HashMap<(String, String, i64), Option<(SlotRow, i64)>>,
    /// Rows lately delivered: a row told of by its commit after a read delivered it is not
    /// sent twice.
    done: VecDeque<i64>,
    /// Whether the lane's pace was seeded with its recent calls.
    seeded: bool,
    /// The lane's marks being written, the last one queued (each waits for the one before).
    marking: Option<tokio::task::JoinHandle<()>>,
}

/// Rows remembered as delivered, per lane.
const DONE_KEPT: usize = 256;

impl Known {
    fn delivered(&mut self, id: i64) {
        self.pending.remove(&id);
        if self.done.len() == DONE_KEPT {
            self.done.pop_front();
        }
        self.done.push_back(id);
    }
}

/// What claiming a lane came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    /// Held without a break since the last claim.
    Kept,
    /// Taken anew (another process may have served it meanwhile).
    Taken,
    /// Another live process holds it.
    Lost,
}

/// The senders of one platform in this process.
pub struct Outbox<S: Surface> {
    table: Arc<Table>,
    surface: Arc<S>,
    renderer: Renderer,
    replays: Renderer,
    pacing: Pacing,
    serving: Mutex<HashMap<String, Arc<Serving>>>,
    /// The leases this process holds, until when (renewed in the store only when a third
    /// of the lease is gone: not a statement per call).
    leases: Mutex<HashMap<String, i64>>,
    /// The chats' senders: stopped with the outbox, so that no task holds the table
    /// afterwards.
    tasks: Mutex<tokio::task::JoinSet<()>>,
    /// The listener for other processes' notices (aborted at the stop).
    listener: Mutex<Option<tokio::task::JoinHandle<()>>>,
    /// Set at the stop: senders finish the row they are on, let their chats go and end.
    stopping: AtomicBool,
    counters: Counters,
    /// Per lane, the old boards whose buttons are to come off once the lane is not busy
    /// (see [`Outbox::strip_stale`]): the store's rows, read once when this process takes
    /// the lane (a lane not here is not read yet).
    stale: Mutex<HashMap<String, Vec<ugolki_core::store::StaleButtons>>>,
    /// Per lane held, what this process knows of it (see [`Known`]).
    known: Mutex<HashMap<String, Known>>,
    /// Set once the platform refuses the token: the process ends, naming the variable.
    refused: tokio::sync::watch::Sender<bool>,
}

/// Old boards stripped in one go at most (the rest wait for the next quiet moment).
const MAX_STALE: usize = 64;
/// How soon a sender with old boards to strip looks again whether its lane is still busy.
const STALE_RETRY: Duration = Duration::from_secs(5);

impl<S: Surface> Outbox<S> {
    pub fn new(table: Arc<Table>, surface: Arc<S>) -> Arc<Outbox<S>> {
        let pacing = Pacing::new(surface.per_second());
        Arc::new(Outbox {
            table,
            surface,
            renderer: Renderer::default(),
            replays: Renderer::for_replays(),
            pacing,
            serving: Mutex::new(HashMap::new()),
            leases: Mutex::new(HashMap::new()),
            tasks: Mutex::new(tokio::task::JoinSet::new()),
            listener: Mutex::new(None),
            stopping: AtomicBool::new(false),
            counters: Counters::default(),
            stale: Mutex::new(HashMap::new()),
            known: Mutex::new(HashMap::new()),
            refused: tokio::sync::watch::Sender::new(false),
        })
    }

    /// Resolves once a call has found the bot's token refused ([`Class::Refused`]); its
    /// rows wait in the outbox for a process with a good token.
    pub async fn token_refused(&self) {
        let mut seen = self.refused.subscribe();
        let _ = seen.wait_for(|refused| *refused).await;
    }

    /// Whether a call has found the bot's token refused.
    pub fn is_refused(&self) -> bool {
        *self.refused.borrow()
    }

    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    pub fn surface(&self) -> &Arc<S> {
        &self.surface
    }

    fn platform(&self) -> &'static str {
        self.surface.platform().as_str()
    }

    /// This process's name among those sharing the store (its heartbeat row): the holder
    /// of the leases it takes.
    fn holder(&self) -> &str {
        self.table.process()
    }

    /// Serve the platform's rows until the task is stopped: wake for this process's own
    /// commits, other processes' notices and, every second, chats nobody serves.
    pub async fn run(self: Arc<Self>) {
        let store = self.table.store().clone();
        if let Err(e) = self.forget_dead_leases().await {
            tracing::warn!(error = %e, "leases not cleared");
        }
        let listener = store.listen_outbox().await;
        if let Some(mut l) = listener {
            let me = self.clone();
            *lock(&self.listener) = Some(tokio::spawn(async move {
                // Bounded by the process: a dropped connection is reopened by sqlx.
                while let Ok(n) = l.recv().await {
                    me.table.store().signal().heard(n.payload());
                }
            }));
        }
        let mut poll = tokio::time::interval(POLL);
        poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let mut prune = tokio::time::interval(PRUNE_EVERY);
        let mut count = tokio::time::interval(COUNT_EVERY);
        loop {
            tokio::select! {
                chats = store.signal().changed() => {
                    for (platform, chat) in chats {
                        if platform == self.platform() {
                            self.serve(chat);
                        } else {
                            // Another platform's rows: its own processes send them.
                            store.signal().take(&platform, &chat);
                        }
                    }
                }
                _ = poll.tick() => self.poll().await,
                _ = prune.tick() => self.prune().await,
                _ = count.tick() => crate::observe::outbox_depth(&store).await,
            }
        }
    }

    /// A `SQLite` store has one process: whatever held its leases before is gone.
    async fn forget_dead_leases(&self) -> Result<(), ugolki_core::store::StoreError> {
        match self.table.store().backend() {
            ugolki_core::store::Backend::Sqlite => self.table.store().clear_leases().await,
            ugolki_core::store::Backend::Postgres => Ok(()),
        }
    }

    async fn poll(self: &Arc<Self>) {
        let now = crate::now_ms();
        match self
            .table
            .store()
            .chats_waiting(self.platform(), self.holder(), now, 256)
            .await
        {
            Ok(chats) => {
                // Unknown to their senders (rows this process did not commit, or that its
                // sender missed): they read the store.
                let signal = self.table.store().signal();
                for chat in chats {
                    signal.poke(self.platform(), &chat);
                }
            }
            Err(e) => tracing::warn!(error = %e, "waiting chats not read"),
        }
    }

    async fn prune(&self) {
        let now = crate::now_ms();
        match self
            .table
            .store()
            .prune_outbox(now - KEEP_SENT_MS, now - GIVE_UP_MS)
            .await
        {
            Ok((_, 0)) => {}
            Ok((_, stale)) => {
                tracing::warn!(rows = stale, "replies nobody sent in a day were given up");
            }
            Err(e) => tracing::warn!(error = %e, "outbox not pruned"),
        }
    }

    /// Make sure chat `chat` is being served: poke its sender, or start one.
    pub fn serve(self: &Arc<Self>, chat: String) {
        if self.stopping.load(Ordering::SeqCst) || self.is_refused() {
            return;
        }
        let mut serving = lock(&self.serving);
        if let Some(s) = serving.get(&chat) {
            s.poked.store(true, Ordering::SeqCst);
            s.wake.notify_one();
            return;
        }
        let s = Arc::new(Serving {
            poked: AtomicBool::new(false),
            wake: Notify::new(),
            turn: tokio::sync::Mutex::new(()),
        });
        serving.insert(chat.clone(), s.clone());
        let me = self.clone();
        let mut tasks = lock(&self.tasks);
        // Senders that ended are forgotten.
        while tasks.try_join_next().is_some() {}
        tasks.spawn(async move { me.work(chat, s).await });
    }

    /// Stop every sender of this outbox, and wait until they have (the process is
    /// stopping: no task holds the table afterwards). Each finishes the row it is on and
    /// lets its chat go, so another process takes over at once and knows what was sent;
    /// one still waiting after [`STOP_GRACE`] (out a long flood wait) is cut off.
    pub async fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        if let Some(l) = lock(&self.listener).take() {
            l.abort();
        }
        for s in lock(&self.serving).values() {
            s.poked.store(true, Ordering::SeqCst);
            s.wake.notify_one();
        }
        let mut tasks = std::mem::take(&mut *lock(&self.tasks));
        let finished = tokio::time::timeout(STOP_GRACE, async {
            while tasks.join_next().await.is_some() {}
        })
        .await;
        if finished.is_err() {
            tracing::warn!("senders still busy at the stop: cut off");
        }
        tasks.shutdown().await;
        // Marks still being written (of senders cut off) finish too: they hold the store.
        let marking: Vec<_> = lock(&self.known)
            .values_mut()
            .filter_map(|k| k.marking.take())
            .collect();
        self.table.store().hurry_marks();
        let written = tokio::time::timeout(STOP_GRACE, async {
            for m in marking {
                let _ = m.await;
            }
        })
        .await;
        if written.is_err() {
            tracing::warn!("marks still being written at the stop: left behind");
        }
        lock(&self.serving).clear();
    }

    /// One chat's sender: while it holds the chat's lease, deliver its rows; idle for a
    /// while, let the chat go.
    async fn work(self: Arc<Self>, chat: String, s: Arc<Serving>) {
        loop {
            s.poked.store(false, Ordering::SeqCst);
            let (more, stale) = {
                let _turn = s.turn.lock().await;
                let more = self.drain_held(&chat).await;
                // Nothing waits: old boards lose their buttons now, if the lane has room.
                let stale = matches!(more, Drained::Empty) && self.strip_stale(&chat).await;
                (more, stale)
            };
            match more {
                Drained::Empty => {}
                Drained::LostLease => break,
                Drained::Stopping => {
                    self.release(&chat).await;
                    break;
                }
            }
            if s.poked.load(Ordering::SeqCst) {
                continue;
            }
            tokio::select! {
                () = s.wake.notified() => {}
                () = tokio::time::sleep(STALE_RETRY), if stale => {}
                () = tokio::time::sleep(IDLE) => {
                    let done = {
                        let mut serving = lock(&self.serving);
                        // A poke that came meanwhile keeps the sender.
                        let done = !s.poked.load(Ordering::SeqCst);
                        if done {
                            serving.remove(&chat);
                        }
                        done
                    };
                    if !done {
                        continue;
                    }
                    self.release(&chat).await;
                    return;
                }
            }
        }
        lock(&self.serving).remove(&chat);
        let untold = self.forget(&chat);
        self.tell(&chat, untold).await;
    }

    /// Forget what this process knew of a lane it no longer holds: whether rows it
    /// committed there told no other process (see [`Outbox::tell`]).
    #[must_use]
    fn forget(&self, lane: &str) -> bool {
        lock(&self.leases).remove(lane);
        lock(&self.stale).remove(lane);
        let known = lock(&self.known).remove(lane);
        // Its marks still on the way are written now (they are not waited for): the next
        // holder reads what was sent from them.
        if known.is_some_and(|k| k.marking.is_some_and(|m| !m.is_finished())) {
            self.table.store().hurry_marks();
        }
        self.pacing.forget(lane);
        let signal = self.table.store().signal();
        signal.let_go(self.platform(), lane);
        // What its commits told of it goes to whoever holds it (through the store).
        signal.take(self.platform(), lane).untold
    }

    /// Rows committed while this process held the lane told nobody else (`untold`): the
    /// lane's next holder is told now, not at its next look at the store.
    async fn tell(&self, lane: &str, untold: bool) {
        if !untold {
            return;
        }
        if let Err(e) = self.table.store().tell(self.platform(), lane).await {
            tracing::debug!(error = %e, "other processes not told of a lane's rows");
        }
    }

    /// Deliver what waits in `chat` now, in this task (the console prints a line's replies
    /// before it reads the next one). `release`: let the chat go afterwards unless a
    /// sender of this process serves it (another process may show what comes next).
    pub async fn flush(self: &Arc<Self>, chat: &str, release: bool) {
        let (s, ours) = {
            let mut serving = lock(&self.serving);
            if let Some(s) = serving.get(chat) {
                (s.clone(), false)
            } else {
                let s = Arc::new(Serving {
                    poked: AtomicBool::new(false),
                    wake: Notify::new(),
                    turn: tokio::sync::Mutex::new(()),
                });
                serving.insert(chat.to_string(), s.clone());
                (s, true)
            }
        };
        {
            let _turn = s.turn.lock().await;
            // Another process showing its own lines lets the chat go when it is done: wait
            // for it a little (at most two seconds), so this line's replies show here.
            for _ in 0..100 {
                s.poked.store(false, Ordering::SeqCst);
                let drained = self.drain_held(chat).await;
                // Rows committed meanwhile poke the chat: drain those too.
                if matches!(drained, Drained::Empty) && s.poked.load(Ordering::SeqCst) {
                    continue;
                }
                if matches!(drained, Drained::Empty | Drained::Stopping) || !release {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        if ours {
            lock(&self.serving).remove(chat);
            if release {
                self.release(chat).await;
            }
        }
    }

    /// Let a chat go: another process may serve it now.
    async fn release(&self, chat: &str) {
        self.settle(chat).await;
        let untold = self.forget(chat);
        let store = self.table.store();
        if let Err(e) = store
            .release_chat(self.platform(), chat, self.holder())
            .await
        {
            tracing::debug!(error = %e, "lease not released");
        }
        self.tell(chat, untold).await;
    }

    /// Take (or keep) the chat's lease for this process: whether it was held without a
    /// break, taken anew, or is another live process's.
    async fn claim(&self, chat: &str) -> Claim {
        let now = crate::now_ms();
        let was = lock(&self.leases).get(chat).copied();
        if was.is_some_and(|until| until - now > LEASE_MS * 2 / 3) {
            return Claim::Kept;
        }
        let until = now + LEASE_MS;
        let store = self.table.store();
        let (platform, holder) = (self.platform(), self.holder());
        // A lease still running is renewed only if nobody took it meanwhile.
        let kept = match was {
            Some(was) if was > now => store
                .renew_chat(platform, chat, holder, was, until)
                .await
                .unwrap_or(false),
            _ => false,
        };
        let claim = if kept {
            Claim::Kept
        } else {
            match store.claim_chat(platform, chat, holder, now, until).await {
                Ok(true) => Claim::Taken,
                Ok(false) => Claim::Lost,
                Err(e) => {
                    tracing::warn!(error = %e, "chat not claimed");
                    Claim::Lost
                }
            }
        };
        let mut leases = lock(&self.leases);
        // The store's signal knows too: this process's commits to a lane it holds need
        // not tell other processes.
        if claim == Claim::Lost {
            leases.remove(chat);
            store.signal().let_go(platform, chat);
        } else {
            leases.insert(chat.to_string(), until);
            store.signal().hold(platform, chat, until);
        }
        claim
    }

    /// A chat's calls in the last window, as the outbox recorded them, for its pace.
    async fn seed(&self, chat: &str, pace: Pace) {
        if pace == Pace::FREE {
            // No pace to keep: nothing to learn.
            return;
        }
        let span = pace
            .window
            .map_or(pace.spacing, |(_, w)| w.max(pace.spacing));
        let now = crate::now_ms();
        let since = now - i64::try_from(span.as_millis()).unwrap_or(i64::MAX);
        match self
            .table
            .store()
            .recent_calls(self.platform(), chat, since)
            .await
        {
            Ok(calls) => {
                let ago = calls.into_iter().flat_map(|(at, n)| {
                    let d = Duration::from_millis(u64::try_from(now - at).unwrap_or(0));
                    std::iter::repeat_n(d, usize::try_from(n).unwrap_or(0))
                });
                self.pacing.seed(chat, ago);
            }
            Err(e) => tracing::warn!(error = %e, "recent calls not read"),
        }
    }
}

/// Why a chat's sender stopped delivering.
enum Drained {
    /// Nothing waits.
    Empty,
    /// Another process serves the chat now (or it moved).
    LostLease,
    /// The process is stopping.
    Stopping,
}
