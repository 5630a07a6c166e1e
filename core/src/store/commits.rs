//! `SQLite`'s group commit. A commit costs a sync of the log (most of a move's time on a
//! disk), and `SQLite` has one writer: so the moves and endings waiting at once are written in
//! one transaction, each in a savepoint of its own (a conflict rolls back only its own
//! writes), and one sync makes them all durable before any of them is answered. Alone, a
//! write is its own transaction. (`PostgreSQL` does this itself for concurrent commits.)

use super::games::{Saved, Write};
use super::{Result, StoreError};
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
    /// Start the committer on the store's one connection.
    pub(crate) fn start(db: Arc<Mutex<Option<sqlx::SqliteConnection>>>) -> Commits {
        let (queue, rx) = mpsc::unbounded_channel();
        tokio::spawn(run(db, rx));
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

async fn run(db: Arc<Mutex<Option<sqlx::SqliteConnection>>>, mut rx: mpsc::UnboundedReceiver<Job>) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let mut guard = db.lock().await;
        let answers = match guard.as_mut() {
            Some(conn) => commit(conn, &batch).await,
            None => batch.iter().map(|_| Err(StoreError::Closed)).collect(),
        };
        drop(guard);
        for (job, answer) in batch.into_iter().zip(answers) {
            // The asker may have gone (its task cancelled): the write stands regardless.
            let _ = job.answer.send(answer);
        }
    }
}

/// One transaction for `batch`: each write's answer, all of them failed if the commit did.
async fn commit(conn: &mut sqlx::SqliteConnection, batch: &[Job]) -> Vec<Result<Saved>> {
    let failed = |e: &sqlx::Error, n: usize| -> Vec<Result<Saved>> {
        (0..n)
            .map(|_| Err(StoreError::Commit(e.to_string())))
            .collect()
    };
    let mut tx = match conn.begin().await {
        Ok(tx) => tx,
        Err(e) => return failed(&e, batch.len()),
    };
    let mut answers = Vec::with_capacity(batch.len());
    if let [job] = batch {
        // Alone: the write is the transaction.
        let answer = job.write.apply(&mut tx).await;
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
    for job in batch {
        let mut savepoint = match tx.begin().await {
            Ok(s) => s,
            Err(e) => return failed(&e, batch.len()),
        };
        let answer = job.write.apply(&mut savepoint).await;
        let done = if answer.is_ok() {
            savepoint.commit().await
        } else {
            savepoint.rollback().await
        };
        if let Err(e) = done {
            return failed(&e, batch.len());
        }
        answers.push(answer);
    }
    match tx.commit().await {
        Ok(()) => answers,
        Err(e) => failed(&e, batch.len()),
    }
}
