//! What the store's two writer tasks share (`SQLite`'s group commit in `commits.rs`,
//! `PostgreSQL`'s runs of marks in `mark_runs.rs`): jobs taken in batches of what waits, and
//! each job's answer awaited on its own channel.

use super::{Result, StoreError};
use tokio::sync::{mpsc, oneshot};

/// The next batch: the first job to come, and what else waits now, up to `max` in all;
/// `None` once every sender is gone.
pub(crate) async fn next_batch<T>(
    rx: &mut mpsc::UnboundedReceiver<T>,
    max: usize,
) -> Option<Vec<T>> {
    let first = rx.recv().await?;
    let mut batch = vec![first];
    while batch.len() < max {
        match rx.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
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
