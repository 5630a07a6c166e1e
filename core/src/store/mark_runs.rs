//! `PostgreSQL`'s marks in runs: the marks queued while a run is being written, and for a
//! little while after the first (`queue::linger`), go in the next one, in one statement
//! ([`MARKS_PG`]) — one round trip and one commit for the lot, where a statement each took
//! a trip, a commit and a connection each. Runs are written one at a time in the order
//! their marks were queued, so a lane's marks (queued in its order) are written in it.
//! (`SQLite`'s runs ride in its group commit, `commits.rs`.)

use super::games::Reported;
use super::outbox::{reports_of, run_json, Mark, MARKS_PG};
use super::queue::Hurry;
use super::{Result, StoreError};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// Marks written in one statement at most.
const MAX_RUN: usize = 64;

type Job = (Mark, oneshot::Sender<Result<Reported>>);

/// The queue to the task that writes the runs (it ends when the last store handle is gone).
#[derive(Clone, Debug)]
pub(crate) struct MarkRuns {
    queue: mpsc::UnboundedSender<Job>,
    hurry: Arc<Hurry>,
    pool: sqlx::PgPool,
}

/// How the runs' connections plan: every row a run touches is found by its key (an outbox
/// row by its id, a slot and a game by theirs), so it never scans a table or hashes one.
/// Left to itself the planner, taking the rows of a JSON array for a hundred and the outbox
/// for as small as it was when the plan was made (kept until an `ANALYZE` of the table makes
/// it plan again), chose a hash join over the whole outbox, which grew with every row sent —
/// 1.4 ms a run at 15,000 rows, three times what looking the rows up takes (`table_move`:
/// +12% moves/s). The runs have their connections to themselves, so no other statement
/// plans so.
const PLANNER: [(&str, &str); 3] = [
    ("enable_seqscan", "off"),
    ("enable_hashjoin", "off"),
    ("enable_mergejoin", "off"),
];

/// The runs' connections: one writes at a time (runs go one after the other); a second
/// stands by while the first is being replaced.
const CONNECTIONS: u32 = 2;

impl MarkRuns {
    pub(crate) fn start(options: &sqlx::postgres::PgConnectOptions) -> MarkRuns {
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(CONNECTIONS)
            .min_connections(0)
            .test_before_acquire(false)
            .acquire_timeout(std::time::Duration::from_secs(10))
            .connect_lazy_with(options.clone().options(PLANNER));
        let (queue, rx) = mpsc::unbounded_channel();
        let hurry = Arc::new(Hurry::default());
        tokio::spawn(run(pool.clone(), rx, hurry.clone()));
        MarkRuns { queue, hurry, pool }
    }

    /// How a run is planned on the runs' connections (`EXPLAIN` of the run `run_json`).
    #[cfg(test)]
    pub(crate) async fn plan(&self, run_json: &str) -> String {
        let sql = sqlx::AssertSqlSafe(format!("EXPLAIN {MARKS_PG}"));
        let lines: Vec<(String,)> = sqlx::query_as(sql)
            .bind(run_json)
            .fetch_all(&self.pool)
            .await
            .expect("a plan");
        lines
            .into_iter()
            .map(|(l,)| l)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Close the runs' connections (the store is closing): a run after it answers Closed.
    pub(crate) async fn close(&self) {
        self.pool.close().await;
    }

    /// Someone waits for the marks queued so far: they are written now.
    pub(crate) fn hurry(&self) {
        self.hurry.now();
    }

    /// Queue a mark now, answered by the future once its run has committed.
    pub(crate) fn enqueue(
        &self,
        mark: Mark,
    ) -> impl std::future::Future<Output = Result<Reported>> + Send + 'static {
        let (answer, answered) = oneshot::channel();
        let queued = self.queue.send((mark, answer)).is_ok();
        super::queue::answer(queued, answered)
    }
}

async fn run(pool: sqlx::PgPool, mut rx: mpsc::UnboundedReceiver<Job>, hurry: Arc<Hurry>) {
    while let Some(mut jobs) = super::queue::next_batch(&mut rx, MAX_RUN).await {
        // A run gathers what comes for a little while (`queue::linger`).
        super::queue::linger(&mut rx, &mut jobs, MAX_RUN, &hurry, |_| false).await;
        let (marks, answers): (Vec<Mark>, Vec<_>) = jobs.into_iter().unzip();
        match write(&pool, &marks).await {
            Ok(reports) => {
                for (answer, report) in answers.into_iter().zip(reports) {
                    let _ = answer.send(Ok(report));
                }
            }
            // A run that fails (a connection lost, one mark the database refuses) is
            // written again a mark at a time, so that only what fails alone fails: its row
            // is sent again, as after a lost mark, and no other chat's is.
            Err(_) if marks.len() > 1 => {
                for (mark, answer) in marks.iter().zip(answers) {
                    let one = write(&pool, std::slice::from_ref(mark)).await;
                    let _ = answer.send(one.map(|r| r.into_iter().next().unwrap_or(Reported::No)));
                }
            }
            // (A run of one: its one answer.)
            Err(e) => {
                if let Some(answer) = answers.into_iter().next() {
                    let _ = answer.send(Err(e));
                }
            }
        }
    }
}

/// Write a run: each mark's report.
async fn write(pool: &sqlx::PgPool, marks: &[Mark]) -> Result<Vec<Reported>> {
    let rows = sqlx::query_as::<_, (Option<i64>, Option<i64>, Option<i64>)>(MARKS_PG)
        .bind(run_json(marks))
        .fetch_all(pool)
        .await
        .map_err(|e| closed_or(&e))?;
    let counted: Vec<(i64, i64, Option<i64>)> = rows
        .into_iter()
        .filter_map(|(game, ply, due)| Some((game?, ply?, due)))
        .collect();
    Ok(reports_of(marks, &counted))
}

/// A closed store says so; any other failure is the commit's.
fn closed_or(e: &sqlx::Error) -> StoreError {
    match e {
        sqlx::Error::PoolClosed => StoreError::Closed,
        e => StoreError::Commit(e.to_string()),
    }
}
