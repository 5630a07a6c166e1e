//! `PostgreSQL`'s marks in runs: the marks queued while a run is being written go in the
//! next one, in one statement ([`MARKS_PG`]) — one round trip and one commit for the lot,
//! where a statement each took a trip, a commit and a connection each. Runs are written one
//! at a time in the order their marks were queued, so a lane's marks (queued in its order)
//! are written in it. (`SQLite`'s runs ride in its group commit, `commits.rs`.)

use super::games::Reported;
use super::outbox::{reports_of, run_json, Mark, MARKS_PG};
use super::{Result, StoreError};
use tokio::sync::{mpsc, oneshot};

/// Marks written in one statement at most.
const MAX_RUN: usize = 64;

type Job = (Mark, oneshot::Sender<Result<Reported>>);

/// The queue to the task that writes the runs (it ends when the last store handle is gone).
#[derive(Clone, Debug)]
pub(crate) struct MarkRuns {
    queue: mpsc::UnboundedSender<Job>,
}

impl MarkRuns {
    pub(crate) fn start(pool: sqlx::PgPool) -> MarkRuns {
        let (queue, rx) = mpsc::unbounded_channel();
        tokio::spawn(run(pool, rx));
        MarkRuns { queue }
    }

    /// Queue a mark now, answered by the future once its run has committed.
    pub(crate) fn enqueue(
        &self,
        mark: Mark,
    ) -> impl std::future::Future<Output = Result<Reported>> + Send + 'static {
        let (answer, answered) = oneshot::channel();
        let queued = self
            .queue
            .send((mark, answer))
            .map_err(|_| StoreError::Closed);
        async move {
            queued?;
            answered.await.map_err(|_| StoreError::Closed)?
        }
    }
}

async fn run(pool: sqlx::PgPool, mut rx: mpsc::UnboundedReceiver<Job>) {
    while let Some(first) = rx.recv().await {
        let mut jobs = vec![first];
        while jobs.len() < MAX_RUN {
            match rx.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        let (marks, answers): (Vec<Mark>, Vec<_>) = jobs.into_iter().unzip();
        let written = sqlx::query_as::<_, (Option<i64>, Option<i64>, Option<i64>)>(MARKS_PG)
            .bind(run_json(&marks))
            .fetch_all(&pool)
            .await;
        match written {
            Ok(rows) => {
                let counted: Vec<(i64, i64, Option<i64>)> = rows
                    .into_iter()
                    .filter_map(|(game, ply, due)| Some((game?, ply?, due)))
                    .collect();
                for (answer, report) in answers.into_iter().zip(reports_of(&marks, &counted)) {
                    let _ = answer.send(Ok(report));
                }
            }
            // A run that fails fails all its marks: their rows are sent again, as after a
            // lost mark.
            Err(e) => {
                let e = e.to_string();
                for answer in answers {
                    let _ = answer.send(Err(StoreError::Commit(e.clone())));
                }
            }
        }
    }
}
