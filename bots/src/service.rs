//! What every adapter's process does around its platform: open the store and the table,
//! serve `/health` and `/metrics`, keep the heartbeat, fire the timers, deliver the outbox;
//! and at the end give the platform's unsent rows a moment, let its chats go and stop
//! every task, so the database is free again.

use crate::observe::{self, Health};
use crate::outbox::{Outbox, Surface};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use ugolki_core::store::Store;
use ugolki_core::table::{Config, SystemTime, Table};

/// An outbox's senders stopping.
type Stopping = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

/// A running process's shared parts.
pub struct Service {
    pub table: Arc<Table>,
    pub health: Health,
    tasks: tokio::task::JoinSet<()>,
    metrics: Option<tokio::task::JoinHandle<()>>,
    /// Stops the outboxes' senders.
    outboxes: Vec<Box<dyn FnOnce() -> Stopping + Send + Sync>>,
}

/// How a process starts.
pub struct Start<'a> {
    pub database_url: &'a str,
    pub config: Config,
    /// `--metrics ADDR`.
    pub metrics: Option<SocketAddr>,
    /// The platform, as `/metrics` labels it.
    pub platform: &'static str,
    /// Fire timers in the background (a console script fires them after each line).
    pub timers: bool,
}

impl Service {
    pub async fn start(s: Start<'_>) -> Result<Service, String> {
        let store = Store::connect(s.database_url).await.map_err(|e| {
            format!(
                "cannot open the database {}: {e}",
                ugolki_core::store::display_url(s.database_url)
            )
        })?;
        let table = Arc::new(
            Table::open(store, Arc::new(SystemTime), s.config)
                .await
                .map_err(|e| format!("cannot load games: {e}"))?,
        );
        let health = Health::new(table.store().clone());
        let metrics = match s.metrics {
            Some(addr) => Some(observe::serve(addr, health.clone(), s.platform).await?),
            None => None,
        };
        let mut tasks = tokio::task::JoinSet::new();
        // The heartbeat runs in every mode: after a crash, clocks get back only the time
        // since the last beat.
        tasks.spawn(table.clone().keep_alive());
        if s.timers {
            tasks.spawn(table.clone().run_timers());
        }
        Ok(Service {
            table,
            health,
            tasks,
            metrics,
            outboxes: Vec::new(),
        })
    }

    /// Deliver the outbox rows of `surface`'s platform from this process.
    pub fn deliver<S: Surface>(&mut self, surface: Arc<S>) -> Arc<Outbox<S>> {
        let outbox = Outbox::new(self.table.clone(), surface);
        self.tasks.spawn(outbox.clone().run());
        let o = outbox.clone();
        self.outboxes
            .push(Box::new(move || Box::pin(async move { o.stop().await })));
        outbox
    }

    /// Stop: the platform's rows waiting now get up to `grace` to go out (whatever is left
    /// stays in the outbox for the next process), then every task stops and this process's
    /// chats are free for another.
    pub async fn stop(mut self, platform: &str, grace: Duration) {
        let store = self.table.store().clone();
        let deadline = tokio::time::Instant::now() + grace;
        while tokio::time::Instant::now() < deadline {
            let waiting = store
                .chats_waiting(platform, self.table.process(), crate::now_ms(), 1)
                .await
                .map(|c| c.is_empty());
            if !matches!(waiting, Ok(false)) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.tasks.shutdown().await;
        for stop in self.outboxes.drain(..) {
            stop().await;
        }
        if let Some(m) = self.metrics.take() {
            m.abort();
        }
        if let Err(e) = store.release_leases_of(self.table.process()).await {
            tracing::debug!(error = %e, "leases not released");
        }
    }
}
