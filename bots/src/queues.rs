//! One queue per chat, each served by its own task: a chat's replies go out in order, and a
//! slow chat holds up no other. Shared by the platform adapters' delivery layers.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// A poisoned lock only means a panic elsewhere; the maps stay consistent.
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Queues by chat, and the tasks that serve them.
pub struct Queues<K, J> {
    senders: Mutex<HashMap<K, mpsc::UnboundedSender<J>>>,
    workers: Mutex<Vec<JoinHandle<()>>>,
    /// The platform, as the queue-depth metric labels it.
    platform: &'static str,
    /// Jobs queued and not yet taken, across the chats.
    depth: std::sync::atomic::AtomicI64,
}

impl<K: Hash + Eq + Copy, J: Send + 'static> Queues<K, J> {
    pub fn new(platform: &'static str) -> Queues<K, J> {
        Queues {
            senders: Mutex::new(HashMap::new()),
            workers: Mutex::new(Vec::new()),
            platform,
            depth: std::sync::atomic::AtomicI64::new(0),
        }
    }

    /// Report the depth after a change of `by`.
    fn report(&self, by: i64) {
        let depth = self
            .depth
            .fetch_add(by, std::sync::atomic::Ordering::Relaxed)
            + by;
        #[allow(clippy::cast_precision_loss)]
        metrics::gauge!("ugolki_outgoing_queue_depth", "platform" => self.platform)
            .set(depth as f64);
    }

    /// A worker has taken a job off its queue (sent it, or dropped it as overtaken).
    pub fn done(&self) {
        self.report(-1);
    }

    /// Queue `job` for `chat`; the chat's first job starts its worker, `serve(chat, rx)`.
    pub fn push<F, Fut>(&self, chat: K, job: J, serve: F)
    where
        F: FnOnce(K, mpsc::UnboundedReceiver<J>) -> Fut,
        Fut: std::future::Future<Output = ()> + Send + 'static,
    {
        self.report(1);
        let mut senders = lock(&self.senders);
        let mut serve = Some(serve);
        let mut start = |senders: &mut HashMap<K, mpsc::UnboundedSender<J>>| {
            let (tx, rx) = mpsc::unbounded_channel();
            if let Some(serve) = serve.take() {
                let mut workers = lock(&self.workers);
                // Workers that ended (idle ones may) are forgotten with their queues.
                workers.retain(|w| !w.is_finished());
                senders.retain(|_, tx| !tx.is_closed());
                workers.push(tokio::spawn(serve(chat, rx)));
            }
            senders.insert(chat, tx);
        };
        if !senders.contains_key(&chat) {
            start(&mut senders);
        }
        if let Some(tx) = senders.get(&chat) {
            if let Err(mpsc::error::SendError(job)) = tx.send(job) {
                // The worker is gone (it ended idle, closing its queue first): start another.
                start(&mut senders);
                if let Some(tx) = senders.get(&chat) {
                    let _ = tx.send(job);
                }
            }
        }
    }

    /// Stop taking jobs; let the queues empty for at most `grace`, then stop the workers.
    pub async fn close(&self, grace: Duration) {
        lock(&self.senders).clear();
        let workers: Vec<_> = lock(&self.workers).drain(..).collect();
        let deadline = tokio::time::Instant::now() + grace;
        for w in workers {
            let abort = w.abort_handle();
            if tokio::time::timeout_at(deadline, w).await.is_err() {
                abort.abort();
            }
        }
    }
}
