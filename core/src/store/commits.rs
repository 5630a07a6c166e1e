//! `SQLite`'s group commit. A commit costs a sync of the log (most of a move's time on a
//! disk), and `SQLite` has one writer: so the moves and endings waiting at once are written in
//! one transaction, each in a savepoint of its own (a conflict rolls back only its own
//! writes), and one sync makes them all durable before any of them is answered. Alone, a
//! write is its own transaction. (`PostgreSQL` does this itself for concurrent commits.)

use super::games::{Saved, Write};
use super::outbox::Signal;
use super::{OutRow, Result, StoreError};
use sqlx::Connection;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, Mutex};

/// Writes taken into one transaction at most.
const MAX_BATCH: usize = 64;

struct Job {
    write: Write,
    answer: oneshot::Sender<Result<Saved>>,
}

/// The queue to the committer task (which ends when the last store handle is gone).
#[derive(Clone, Debug)]
pub(crate) struct Commits {
    queue: mpsc::UnboundedSender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Job")
    }
}

impl Commits {
    /// Start the committer on the store's one connection; it tells `signal` of the outbox
    /// rows each commit wrote.
    pub(crate) fn start(
        db: Arc<Mutex<Option<sqlx::SqliteConnection>>>,
        signal: Arc<Signal>,
    ) -> Commits {
        let (queue, rx) = mpsc::unbounded_channel();
        tokio::spawn(run(db, rx, signal));
        Commits { queue }
    }

    /// Write, durably; the answer comes once the transaction holding it has committed.
    pub(crate) async fn write(&self, write: Write) -> Result<Saved> {
        let (answer, answered) = oneshot::channel();
        self.queue
            .send(Job { write, answer })
            .map_err(|_| StoreError::Closed)?;
        answered.await.map_err(|_| StoreError::Closed)?
    }
}

async fn run(
    db: Arc<Mutex<Option<sqlx::SqliteConnection>>>,
    mut rx: mpsc::UnboundedReceiver<Job>,
    signal: Arc<Signal>,
) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let (writes, answers): (Vec<Write>, Vec<_>) =
            batch.into_iter().map(|j| (j.write, j.answer)).unzip();
        let n = writes.len();
        let mut guard = db.lock().await;
        let results = match guard.as_mut() {
            Some(conn) => commit(conn, writes).await,
            None => (0..n).map(|_| Err(StoreError::Closed)).collect(),
        };
        drop(guard);
        for (answer, result) in answers.into_iter().zip(results) {
            let result = result.map(|(saved, rows)| {
                signal.mark(super::outbox::chats_of(&rows));
                saved
            });
            // The asker may have gone (its task cancelled): the write stands regardless.
            let _ = answer.send(result);
        }
    }
}

/// One transaction for `batch`: each write's answer, all of them failed if the commit did.
async fn commit(
    conn: &mut sqlx::SqliteConnection,
    batch: Vec<Write>,
) -> Vec<Result<(Saved, Vec<OutRow>)>> {
    let failed = |e: &sqlx::Error, n: usize| -> Vec<Result<(Saved, Vec<OutRow>)>> {
        (0..n)
            .map(|_| Err(StoreError::Commit(e.to_string())))
            .collect()
    };
    let n = batch.len();
    let mut tx = match conn.begin().await {
        Ok(tx) => tx,
        Err(e) => return failed(&e, n),
    };
    let mut answers = Vec::with_capacity(n);
    if n == 1 {
        // Alone: the write is the transaction.
        let Some(write) = batch.into_iter().next() else {
            return Vec::new();
        };
        let answer = write.apply(&mut tx).await;
        let done = if answer.is_ok() {
            tx.commit().await
        } else {
            tx.rollback().await
        };
        return match done {
            Ok(()) => vec![answer],
            Err(e) => failed(&e, 1),
        };
    }
    for write in batch {
        let mut savepoint = match tx.begin().await {
            Ok(s) => s,
            Err(e) => return failed(&e, n),
        };
        let answer = write.apply(&mut savepoint).await;
        let done = if answer.is_ok() {
            savepoint.commit().await
        } else {
            savepoint.rollback().await
        };
        if let Err(e) = done {
            return failed(&e, n);
        }
        answers.push(answer);
    }
    match tx.commit().await {
        Ok(()) => answers,
        Err(e) => failed(&e, n),
    }
}
