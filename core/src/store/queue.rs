//! What the store's two writer tasks share (`SQLite`'s group commit in `commits.rs`,
//! `PostgreSQL`'s runs of marks in `mark_runs.rs`): jobs taken in batches of what waits, and
//! each job's answer awaited on its own channel.

use super::{Result, StoreError};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, Notify};

/// How long a run of marks waits for more before it is written. A mark comes one a
/// delivery and nobody waits for it (a lost one only repeats a send after a crash), while
/// each run costs a transaction: with many chats delivering, a run gathers the marks of a
/// few milliseconds (and, on `SQLite`, rides with the moves that come meanwhile) instead of
/// a transaction for every few. Whoever does wait for marks hurries them ([`Hurry`]).
pub(crate) const LINGER: Duration = Duration::from_millis(10);

/// Told when someone waits for the marks queued so far: the run being gathered is written
/// at once. (A hurry with no run gathering ends the next one's wait at once: harmless.)
#[derive(Debug, Default)]
pub(crate) struct Hurry(Notify);

impl Hurry {
    pub(crate) fn now(&self) {
        self.0.notify_one();
    }
}

/// Gather more jobs into `batch` for [`LINGER`] at most: until it holds `max`, one `ends`
/// (a job that should not wait, taken as the batch's last) comes, or `hurry` is told.
pub(crate) async fn linger<T>(
    rx: &mut mpsc::UnboundedReceiver<T>,
    batch: &mut Vec<T>,
    max: usize,
    hurry: &Hurry,
    ends: impl Fn(&T) -> bool,
) {
    let until = tokio::time::Instant::now() + LINGER;
    while batch.len() < max {
        let job = tokio::select! {
            biased;
            () = hurry.0.notified() => break,
            job = tokio::time::timeout_at(until, rx.recv()) => job,
        };
        match job {
            Ok(Some(job)) => {
                let last = ends(&job);
                batch.push(job);
                if last {
                    break;
                }
            }
            // The time is up, or every sender is gone.
            _ => break,
        }
    }
    // What came with the hurry or the last job is taken too.
    take_waiting(rx, batch, max);
}

/// Add what waits in `rx` now to `batch`, up to `max` in all.
fn take_waiting<T>(rx: &mut mpsc::UnboundedReceiver<T>, batch: &mut Vec<T>, max: usize) {
    while batch.len() < max {
        match rx.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
}

/// The next batch: the first job to come, and what else waits now, up to `max` in all;
/// `None` once every sender is gone.
pub(crate) async fn next_batch<T>(
    rx: &mut mpsc::UnboundedReceiver<T>,
    max: usize,
) -> Option<Vec<T>> {
    let first = rx.recv().await?;
    let mut batch = vec![first];
    take_waiting(rx, &mut batch, max);
    Some(batch)
}

/// A job's answer, once its batch is written: `Closed` when the job could not be queued
/// (`queued` false) or its writer ended without answering.
pub(crate) async fn answer<T>(queued: bool, answered: oneshot::Receiver<Result<T>>) -> Result<T> {
    if !queued {
        return Err(StoreError::Closed);
    }
    answered.await.map_err(|_| StoreError::Closed)?
}
