//! `SQLite`'s group commit. A commit costs a sync of the log (most of a move's time on a
//! disk), and `SQLite` has one writer: so the moves and endings waiting at once are written in
//! one transaction, each in a savepoint of its own (a conflict rolls back only its own
//! writes), and one sync makes them all durable before any of them is answered. Alone, a
//! write is its own transaction. (`PostgreSQL` does this itself for concurrent commits.)
//!
//! The outbox's marks (a row sent, its slot, its board's arrival) take the same road: a
//! mark waits for no sync of its own (a lost one only repeats a send after a crash), so a
//! batch of marks alone commits without one, and marks beside moves share the moves'. A
//! batch of marks alone first waits a little for more (`queue::linger`).

use super::games::{Reported, Saved, Write};
use super::outbox::{Mark, Signal};
use super::queue::Hurry;
use super::{Queued, Result, StoreError};
use sqlx::Connection;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, Mutex};

/// Writes taken into one transaction at most.
const MAX_BATCH: usize = 64;

struct Job {
    work: Work,
    answer: Answer,
}

/// What a job writes.
pub(crate) enum Work {
    Change(Write),
    Mark(Mark),
}

/// Where its answer goes.
enum Answer {
    Saved(oneshot::Sender<Result<Saved>>),
    Marked(oneshot::Sender<Result<Reported>>),
}

/// What a job came to: a change's saved game and the outbox rows it wrote, or a mark's
/// delivery report (the game's due time after it, when it counted).
pub(crate) enum Applied {
    Saved(Box<(Saved, Vec<Queued>)>),
    Marked(Reported),
}

/// The queue to the committer task (which ends when the last store handle is gone).
#[derive(Clone, Debug)]
pub(crate) struct Commits {
    queue: mpsc::UnboundedSender<Job>,
    hurry: Arc<Hurry>,
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
        let hurry = Arc::new(Hurry::default());
        tokio::spawn(run(db, rx, signal, hurry.clone()));
        Commits { queue, hurry }
    }

    /// Someone waits for the marks queued so far: they are written now.
    pub(crate) fn hurry(&self) {
        self.hurry.now();
    }

    /// Write, durably; the answer comes once the transaction holding it has committed.
    pub(crate) async fn write(&self, write: Write) -> Result<Saved> {
        let (answer, answered) = oneshot::channel();
        let queued = self
            .queue
            .send(Job {
                work: Work::Change(write),
                answer: Answer::Saved(answer),
            })
            .is_ok();
        super::queue::answer(queued, answered).await
    }

    /// Queue a mark now (marks commit in the order they were queued), answered by the
    /// future once its transaction has committed.
    pub(crate) fn enqueue_mark(
        &self,
        mark: Mark,
    ) -> impl std::future::Future<Output = Result<Reported>> + Send + 'static {
        let (answer, answered) = oneshot::channel();
        let queued = self
            .queue
            .send(Job {
                work: Work::Mark(mark),
                answer: Answer::Marked(answer),
            })
            .is_ok();
        super::queue::answer(queued, answered)
    }
}

async fn run(
    db: Arc<Mutex<Option<sqlx::SqliteConnection>>>,
    mut rx: mpsc::UnboundedReceiver<Job>,
    signal: Arc<Signal>,
    hurry: Arc<Hurry>,
) {
    while let Some(mut batch) = super::queue::next_batch(&mut rx, MAX_BATCH).await {
        // Marks alone wait a little for more, and for moves to ride with (whose sync they
        // then share): a move that comes ends the wait, so no move is ever held by it.
        if batch.iter().all(|j| matches!(j.work, Work::Mark(_))) {
            let change = |j: &Job| matches!(j.work, Work::Change(_));
            super::queue::linger(&mut rx, &mut batch, MAX_BATCH, &hurry, change).await;
        }
        let (writes, answers): (Vec<Work>, Vec<Answer>) =
            batch.into_iter().map(|j| (j.work, j.answer)).unzip();
        let n = writes.len();
        let mut guard = db.lock().await;
        let results = match guard.as_mut() {
            Some(conn) => commit(conn, writes).await,
            None => (0..n).map(|_| Err(StoreError::Closed)).collect(),
        };
        drop(guard);
        for (answer, result) in answers.into_iter().zip(results) {
            // The asker may have gone (its task cancelled): the write stands regardless.
            match (answer, result) {
                (Answer::Saved(a), Ok(Applied::Saved(done))) => {
                    let (saved, rows) = *done;
                    // (SQLite sends no notices: nothing is ever left to tell.)
                    let _told = signal.written(&rows);
                    let _ = a.send(Ok(saved));
                }
                (Answer::Marked(a), Ok(Applied::Marked(due))) => {
                    let _ = a.send(Ok(due));
                }
                (Answer::Saved(a), Err(e)) => {
                    let _ = a.send(Err(e));
                }
                (Answer::Marked(a), Err(e)) => {
                    let _ = a.send(Err(e));
                }
                (Answer::Saved(a), Ok(Applied::Marked(_))) => {
                    let _ = a.send(Err(StoreError::Corrupt(
                        "a change answered as a mark".into(),
                    )));
                }
                (Answer::Marked(a), Ok(Applied::Saved(..))) => {
                    let _ = a.send(Err(StoreError::Corrupt(
                        "a mark answered as a change".into(),
                    )));
                }
            }
        }
    }
}

/// One transaction for `batch`: each write's answer, all of them failed if the commit did.
async fn commit(conn: &mut sqlx::SqliteConnection, batch: Vec<Work>) -> Vec<Result<Applied>> {
    if batch.iter().all(|w| matches!(w, Work::Mark(_))) {
        commit_marks(conn, batch).await
    } else {
        commit_batch(conn, batch).await
    }
}

/// Marks alone, in one transaction that waits for no sync ([`ALONE`]), in one trip to the
/// connection's thread: the sync setting, the transaction's ends and the run's statements
/// are one query. A run that fails is written again a mark at
/// a time ([`one_at_a_time`]).
async fn commit_marks(conn: &mut sqlx::SqliteConnection, batch: Vec<Work>) -> Vec<Result<Applied>> {
    let marks: Vec<Mark> = batch
        .into_iter()
        .filter_map(|w| match w {
            Work::Mark(m) => Some(m),
            Work::Change(_) => None,
        })
        .collect();
    match Mark::apply_run(&marks, ALONE.0, conn).await {
        Ok(done) => done.into_iter().map(|r| Ok(Applied::Marked(r))).collect(),
        Err(e) => {
            let _ = sqlx::raw_sql(ALONE.1).execute(&mut *conn).await;
            one_at_a_time(&marks, ALONE, e, conn).await
        }
    }
}

/// How a run of marks is written, and undone when it fails: alone, a transaction that waits
/// for no sync (the connection's default is a full one) ...
const ALONE: ((&str, &str), &str) = (
    (
        "PRAGMA synchronous = NORMAL; BEGIN;",
        "COMMIT; PRAGMA synchronous = FULL;",
    ),
    "ROLLBACK; PRAGMA synchronous = FULL",
);
/// ... and beside moves, a savepoint in their transaction.
const BESIDE: ((&str, &str), &str) = (
    ("SAVEPOINT ugolki_marks;", "RELEASE ugolki_marks;"),
    "ROLLBACK TO ugolki_marks; RELEASE ugolki_marks",
);

/// A run that failed, written again a mark at a time, each with the run's `ends` (so in a
/// transaction or savepoint of its own): only what fails alone fails — its row is sent again,
/// as after a lost mark, and no other chat's is. A run of one keeps its error.
async fn one_at_a_time(
    marks: &[Mark],
    (ends, undo): ((&'static str, &'static str), &'static str),
    failed: StoreError,
    conn: &mut sqlx::SqliteConnection,
) -> Vec<Result<Applied>> {
    if marks.len() < 2 {
        return vec![Err(StoreError::Commit(failed.to_string()))];
    }
    let mut out = Vec::with_capacity(marks.len());
    for mark in marks {
        match Mark::apply_run(std::slice::from_ref(mark), ends, conn).await {
            Ok(done) => out.push(Ok(Applied::Marked(
                done.into_iter()
                    .next()
                    .unwrap_or(super::games::Reported::No),
            ))),
            Err(e) => {
                let _ = sqlx::raw_sql(undo).execute(&mut *conn).await;
                out.push(Err(StoreError::Commit(e.to_string())));
            }
        }
    }
    out
}

/// A run of marks inside a batch's transaction, in one savepoint and one trip: their
/// answers (a run that fails is written again a mark at a time, each in its own savepoint),
/// or the error that leaves the batch's transaction in doubt.
async fn apply_marks(
    marks: &[Mark],
    tx: &mut sqlx::SqliteConnection,
) -> std::result::Result<Vec<Result<Applied>>, String> {
    match Mark::apply_run(marks, BESIDE.0, tx).await {
        Ok(done) => Ok(done.into_iter().map(|r| Ok(Applied::Marked(r))).collect()),
        Err(e) => {
            sqlx::raw_sql(BESIDE.1)
                .execute(&mut *tx)
                .await
                .map_err(|e| e.to_string())?;
            Ok(one_at_a_time(marks, BESIDE, e, tx).await)
        }
    }
}

async fn apply(write: Write, tx: &mut sqlx::SqliteConnection) -> Result<Applied> {
    write
        .apply(tx)
        .await
        .map(|done| Applied::Saved(Box::new(done)))
}

/// Changes (and marks beside them) in one transaction, a savepoint each.
async fn commit_batch(conn: &mut sqlx::SqliteConnection, batch: Vec<Work>) -> Vec<Result<Applied>> {
    let failed = |e: &sqlx::Error, n: usize| -> Vec<Result<Applied>> {
        (0..n)
            .map(|_| Err(StoreError::Commit(e.to_string())))
            .collect()
    };
    let n = batch.len();
    if matches!(batch.as_slice(), [Work::Change(w)] if w.plain()) {
        // Alone, a plain move is its transaction: one trip, and its commit.
        let Some(Work::Change(write)) = batch.into_iter().next() else {
            return Vec::new();
        };
        let answer = write.apply_in_one_trip(conn, "BEGIN;").await;
        let end = if answer.is_ok() { "COMMIT" } else { "ROLLBACK" };
        return match sqlx::raw_sql(end).execute(&mut *conn).await {
            Ok(_) => vec![answer.map(|done| Applied::Saved(Box::new(done)))],
            Err(e) => failed(&e, 1),
        };
    }
    let mut tx = match conn.begin().await {
        Ok(tx) => tx,
        Err(e) => return failed(&e, n),
    };
    let mut answers = Vec::with_capacity(n);
    if n == 1 {
        // Alone: the write is the transaction (a mark alone goes to `commit_marks`).
        let Some(Work::Change(write)) = batch.into_iter().next() else {
            return Vec::new();
        };
        let answer = apply(write, &mut tx).await;
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
    // Consecutive marks go in one savepoint and one trip; each change in its own.
    let mut marks: Vec<Mark> = Vec::new();
    for work in batch.into_iter().map(Some).chain(std::iter::once(None)) {
        let change = match work {
            Some(Work::Mark(m)) => {
                marks.push(m);
                continue;
            }
            Some(Work::Change(w)) => Some(w),
            None => None,
        };
        if !marks.is_empty() {
            match apply_marks(&marks, &mut tx).await {
                Ok(done) => answers.extend(done),
                Err(e) => return (0..n).map(|_| Err(StoreError::Commit(e.clone()))).collect(),
            }
            marks.clear();
        }
        let Some(write) = change else { break };
        if write.plain() {
            let answer = write
                .apply_in_one_trip(&mut tx, "SAVEPOINT ugolki_move;")
                .await;
            let end = if answer.is_ok() {
                "RELEASE ugolki_move"
            } else {
                "ROLLBACK TO ugolki_move; RELEASE ugolki_move"
            };
            if let Err(e) = sqlx::raw_sql(end).execute(&mut *tx).await {
                return failed(&e, n);
            }
            answers.push(answer.map(|done| Applied::Saved(Box::new(done))));
            continue;
        }
        let mut savepoint = match tx.begin().await {
            Ok(s) => s,
            Err(e) => return failed(&e, n),
        };
        let answer = apply(write, &mut savepoint).await;
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
