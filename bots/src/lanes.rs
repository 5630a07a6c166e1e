//! Work in lanes: jobs with one key (a chat) run one at a time in the order they came;
//! jobs with different keys run at once. A slow job in one chat — a picture drawn, a
//! platform call that hangs — holds up that chat only.
//!
//! Each busy key has one task reading its queue; the task ends when the queue is empty,
//! so an idle key costs nothing.

use crate::lock;
use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, Notify};

type Job = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Lanes keyed by `K`.
pub struct Lanes<K> {
    /// The queue of every key with work queued or running.
    open: Mutex<HashMap<K, mpsc::UnboundedSender<Job>>>,
    /// Jobs queued or running, over all keys.
    jobs: AtomicUsize,
    /// Woken when `jobs` comes to zero.
    idle: Notify,
}

/// Counts a job out when it ends, even when it panics or is dropped unrun.
struct Counted<K: Send + Sync + 'static>(Arc<Lanes<K>>);

impl<K: Send + Sync + 'static> Drop for Counted<K> {
    fn drop(&mut self) {
        if self.0.jobs.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl<K: Hash + Eq + Clone + Send + Sync + 'static> Lanes<K> {
    #[must_use]
    pub fn new() -> Arc<Self> {
        Arc::new(Lanes {
            open: Mutex::new(HashMap::new()),
            jobs: AtomicUsize::new(0),
            idle: Notify::new(),
        })
    }

    /// Queue `job` behind the jobs of `key` (at once if there are none).
    pub fn push(self: &Arc<Self>, key: K, job: impl Future<Output = ()> + Send + 'static) {
        self.jobs.fetch_add(1, Ordering::SeqCst);
        let counted = Counted(self.clone());
        let mut job: Job = Box::pin(async move {
            job.await;
            drop(counted);
        });
        let mut open = lock(&self.open);
        if let Some(queue) = open.get(&key) {
            match queue.send(job) {
                Ok(()) => return,
                // Its task died (a panic in a job): a new one takes the key.
                Err(mpsc::error::SendError(back)) => job = back,
            }
        }
        let (tx, rx) = mpsc::unbounded_channel();
        // The receiver is ours until the task starts: the send cannot fail.
        let _ = tx.send(job);
        open.insert(key.clone(), tx);
        drop(open);
        tokio::spawn(self.clone().run(key, rx));
    }

    /// One key's jobs, in order, until its queue is empty. Each runs as a task of its own,
    /// so a job that panics ends there (logged) and the jobs behind it still run.
    async fn run(self: Arc<Self>, key: K, mut rx: mpsc::UnboundedReceiver<Job>) {
        while let Some(job) = rx.recv().await {
            if let Err(e) = tokio::spawn(job).await {
                tracing::error!(error = %e, "a job in a lane failed; the next ones run");
            }
            // Pushes hold the map's lock: none slips in between the look and the removal.
            let mut open = lock(&self.open);
            if rx.is_empty() {
                open.remove(&key);
                return;
            }
        }
    }

    /// Jobs queued or running.
    #[must_use]
    pub fn busy(&self) -> usize {
        self.jobs.load(Ordering::SeqCst)
    }

    /// Wait until no job is queued or running.
    pub async fn idle(&self) {
        loop {
            let woken = self.idle.notified();
            tokio::pin!(woken);
            woken.as_mut().enable();
            if self.busy() == 0 {
                return;
            }
            woken.await;
        }
    }
}

/// Ids of work in flight (a platform's update ids), lowest first: how far a platform may
/// be told that everything is done.
#[derive(Default)]
pub struct InFlight {
    ids: Mutex<std::collections::BTreeSet<i64>>,
    /// Woken when one is done.
    done: Notify,
}

/// Counts its id done when dropped: handled, or given up (a panic).
pub struct Done(Arc<InFlight>, i64);

impl Drop for Done {
    fn drop(&mut self) {
        lock(&self.0.ids).remove(&self.1);
        self.0.done.notify_waiters();
    }
}

impl InFlight {
    /// `id` is in flight until the answer is dropped.
    #[must_use]
    pub fn start(self: &Arc<Self>, id: i64) -> Done {
        lock(&self.ids).insert(id);
        Done(self.clone(), id)
    }

    /// The lowest id in flight.
    #[must_use]
    pub fn first(&self) -> Option<i64> {
        lock(&self.ids).first().copied()
    }

    /// Wait until `oldest` is no longer the lowest id in flight, or `at_most` has passed
    /// (other ids done meanwhile do not end the wait).
    pub async fn past(&self, oldest: i64, at_most: std::time::Duration) {
        let _ = tokio::time::timeout(at_most, async {
            loop {
                let done = self.done.notified();
                tokio::pin!(done);
                done.as_mut().enable();
                if self.first() != Some(oldest) {
                    return;
                }
                done.await;
            }
        })
        .await;
    }
}

#[cfg(test)]
mod tests {
    use super::Lanes;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    #[tokio::test]
    async fn one_keys_jobs_run_in_order_and_other_keys_do_not_wait_for_them() {
        let lanes = Lanes::new();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (release, held) = tokio::sync::oneshot::channel::<()>();
        let s = seen.clone();
        lanes.push("a", async move {
            let _ = held.await;
            s.lock().unwrap().push("a1");
        });
        for (key, name) in [("a", "a2"), ("b", "b1"), ("a", "a3"), ("b", "b2")] {
            let s = seen.clone();
            lanes.push(key, async move { s.lock().unwrap().push(name) });
        }
        // Lane b runs while a's first job is held.
        for _ in 0..100 {
            if seen.lock().unwrap().len() == 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!(*seen.lock().unwrap(), ["b1", "b2"]);
        assert_eq!(lanes.busy(), 3);
        release.send(()).unwrap();
        tokio::time::timeout(Duration::from_secs(5), lanes.idle())
            .await
            .expect("idle");
        assert_eq!(*seen.lock().unwrap(), ["b1", "b2", "a1", "a2", "a3"]);
        assert!(super::lock(&lanes.open).is_empty(), "no task is left");
    }

    #[tokio::test]
    async fn a_job_that_panics_leaves_its_lane_working() {
        let lanes = Lanes::new();
        let (release, held) = tokio::sync::oneshot::channel::<()>();
        lanes.push(1, async move {
            let _ = held.await;
            panic!("a bad job")
        });
        // Queued behind the one that panics: it still runs.
        let (ran, behind) = tokio::sync::oneshot::channel();
        lanes.push(1, async move {
            let _ = ran.send(());
        });
        release.send(()).unwrap();
        tokio::time::timeout(Duration::from_secs(5), behind)
            .await
            .expect("the job behind ran")
            .expect("sent");
        tokio::time::timeout(Duration::from_secs(5), lanes.idle())
            .await
            .expect("counted out");
        let (tx, rx) = tokio::sync::oneshot::channel();
        lanes.push(1, async move {
            let _ = tx.send(());
        });
        tokio::time::timeout(Duration::from_secs(5), rx)
            .await
            .expect("ran")
            .expect("sent");
    }
}
