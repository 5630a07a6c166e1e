//! What every adapter's process does around its platform: open the store and the table,
//! serve `/health` and `/metrics`, keep the heartbeat, fire the timers, deliver the outbox;
//! and at the end give the platform's unsent rows a moment, let its chats go and stop
//! every task, so the database is free again.

use crate::observe::{self, Health};
use crate::outbox::{Class, Outbox, Surface};
use backon::{ExponentialBuilder, Retryable};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use ugolki_core::store::Store;
use ugolki_core::table::{Config, SystemTime, Table};

/// An outbox's senders stopping.
type Stopping = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

/// How often `/metrics`' count of games in play is refreshed where no timers run.
const GAMES_COUNTED_EVERY: Duration = Duration::from_secs(5);

/// How long a stopping process waits for a metrics scrape under way.
const METRICS_GRACE: Duration = Duration::from_secs(2);

/// How long replies waiting at a stop still get to go out ([`Service::finish`]).
const STOP_GRACE: Duration = Duration::from_secs(10);

/// A running process's shared parts.
pub struct Service {
    pub table: Arc<Table>,
    pub health: Health,
    /// The platform served (`Start::platform`): its rows are the ones waited for at a stop.
    platform: &'static str,
    tasks: tokio::task::JoinSet<()>,
    metrics: Option<tokio::task::JoinHandle<()>>,
    /// Tells the metrics server to stop.
    metrics_stop: tokio::sync::watch::Sender<bool>,
    /// The public pages (`--web`).
    web: Option<crate::web::Server>,
    /// Stops the outboxes' senders.
    outboxes: Vec<Box<dyn FnOnce() -> Stopping + Send + Sync>>,
}

/// How a process starts.
pub struct Start<'a> {
    pub database_url: &'a str,
    pub config: Config,
    /// `--metrics ADDR`.
    pub metrics: Option<SocketAddr>,
    /// `--web ADDR`: the public pages.
    pub web: Option<crate::web::Pages>,
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
        // The chat links the public pages where they are read.
        let mut config = s.config;
        config.web_url = s.web.as_ref().map(|p| p.url.clone());
        let table = Arc::new(
            Table::open(store, Arc::new(SystemTime), config)
                .await
                .map_err(|e| format!("cannot load games: {e}"))?,
        );
        let health = Health::new(table.store().clone());
        let metrics_stop = tokio::sync::watch::Sender::new(false);
        let metrics = match s.metrics {
            Some(addr) => {
                let stop = metrics_stop.subscribe();
                Some(observe::serve(addr, health.clone(), s.platform, stop).await?)
            }
            None => None,
        };
        let web = match s.web {
            Some(pages) => {
                let signers = crate::web::Signers {
                    telegram_token: pages.telegram_token.clone(),
                    seats: pages.seats.clone(),
                    discord: pages.discord.clone(),
                };
                Some(crate::web::serve_signed(pages.listen, table.clone(), signers).await?)
            }
            None => None,
        };
        let mut tasks = tokio::task::JoinSet::new();
        // The heartbeat runs in every mode: after a crash, clocks get back only the time
        // since the last beat.
        tasks.spawn(table.clone().keep_alive());
        if s.timers {
            tasks.spawn(table.clone().run_timers());
        } else if metrics.is_some() {
            // The timers count the games in play for `/metrics`; without them (a console
            // reading a script, which fires its timers line by line) this does.
            let t = table.clone();
            tasks.spawn(async move {
                loop {
                    t.count_games().await;
                    tokio::time::sleep(GAMES_COUNTED_EVERY).await;
                }
            });
        }
        Ok(Service {
            table,
            health,
            platform: s.platform,
            tasks,
            metrics,
            metrics_stop,
            web,
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

    /// A platform's loop ended (a shutdown, or the token refused): the replies waiting now
    /// still go out for [`STOP_GRACE`] (none can with a refused token), the rest wait in
    /// the outbox for the next process; then [`Service::stop`].
    pub async fn finish(self, token_refused: bool) {
        let grace = if token_refused {
            Duration::ZERO
        } else {
            STOP_GRACE
        };
        let platform = self.platform;
        self.stop(grace).await;
        tracing::info!(platform, "stopped");
    }

    /// Stop: the platform's rows waiting now get up to `grace` to go out (whatever is left
    /// stays in the outbox for the next process), then every task stops and this process's
    /// chats are free for another.
    pub async fn stop(mut self, grace: Duration) {
        let platform = self.platform;
        let store = self.table.store().clone();
        // The pages first: no move comes from them while the outbox drains.
        if let Some(web) = self.web.take() {
            web.stop().await;
        }
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
        self.metrics_stop.send_replace(true);
        if let Some(mut task) = self.metrics.take() {
            // A scrape under way finishes; then none of it holds the store.
            if tokio::time::timeout(METRICS_GRACE, &mut task)
                .await
                .is_err()
            {
                task.abort();
            }
        }
        if let Err(e) = store.release_leases_of(self.table.process()).await {
            tracing::debug!(error = %e, "leases not released");
        }
    }
}

/// Whether a platform's answer is worth another try now: its own trouble, or its wait.
fn passing(class: &Class) -> bool {
    matches!(class, Class::Retry | Class::RetryAfter(_))
}

/// A start-up call to the platform (who the bot is, its menu, its webhook): tried again
/// while the platform's trouble may pass (the network can be slow to come up), waiting as
/// long as it asks, for about 40 s (then the start stops, saying it got no answer); refused
/// for good (a wrong token), the start stops at once, saying why.
/// `classify` reads the platform's errors as the outbox does.
pub async fn patiently<E, T, F, Fut>(
    what: &str,
    classify: fn(&E) -> Class,
    f: F,
) -> Result<T, String>
where
    E: std::fmt::Display,
    F: FnMut() -> Fut,
    Fut: std::future::IntoFuture<Output = Result<T, E>>,
{
    let mut f = f;
    (|| f().into_future())
        .retry(
            ExponentialBuilder::default()
                .with_min_delay(Duration::from_millis(500))
                .with_max_delay(Duration::from_secs(10))
                .with_max_times(8),
        )
        .sleep(tokio::time::sleep)
        .when(|e| passing(&classify(e)))
        .adjust(|e, d| match classify(e) {
            Class::RetryAfter(wait) => Some(wait),
            _ => d,
        })
        .notify(|e, _| tracing::warn!(what, error = %e, "start-up call failed; trying again"))
        .await
        .map_err(|e| {
            if passing(&classify(&e)) {
                // Never answered (the network, the API's address, the platform's trouble):
                // not a refusal. The service manager starts the process again.
                format!(
                    "the platform did not answer {what} in about 40 s of tries: {e} (check \
                     the network and the API's address; `ugolki doctor` tells more)"
                )
            } else {
                format!("the platform refused {what}: {e}")
            }
        })
}

/// The answer to a press, which must come within seconds (a platform refuses a late one,
/// and updates wait behind it): at most two tries, each given up after two seconds, with a
/// wait of at most a second between them.
pub async fn briefly<E, T, F, Fut>(classify: fn(&E) -> Class, f: F) -> Result<T, String>
where
    E: std::fmt::Display,
    F: FnMut() -> Fut,
    Fut: std::future::IntoFuture<Output = Result<T, E>>,
{
    let mut f = f;
    let once = || {
        let call = f().into_future();
        async move {
            tokio::time::timeout(Duration::from_secs(2), call)
                .await
                .map_err(|_| None)?
                .map_err(Some)
        }
    };
    once.retry(
        backon::ConstantBuilder::default()
            .with_delay(Duration::from_millis(300))
            .with_max_times(1),
    )
    .sleep(tokio::time::sleep)
    .when(|e| e.as_ref().is_some_and(|e| passing(&classify(e))))
    .adjust(|e, d| match e.as_ref().map(classify) {
        Some(Class::RetryAfter(wait)) if wait <= Duration::from_secs(1) => Some(wait),
        Some(Class::RetryAfter(_)) => None,
        _ => d,
    })
    .await
    .map_err(|e| e.map_or_else(|| "no answer in time".into(), |e| e.to_string()))
}

/// Hold role `role` among the processes on the store (one of them polls a bot, say): wait,
/// standing by, while another holds it; `None` if `shutdown` comes first.
pub async fn take_role(
    table: &Table,
    role: &str,
    shutdown: &mut (impl std::future::Future<Output = ()> + Unpin),
) -> Result<Option<ugolki_core::store::Exclusive>, String> {
    let mut said = false;
    loop {
        match table.store().try_exclusive(role).await {
            Ok(Some(held)) => {
                if said {
                    tracing::info!(role, "taking over");
                }
                return Ok(Some(held));
            }
            Ok(None) => {
                if !said {
                    tracing::info!(role, "another process has this role; standing by");
                    said = true;
                }
                tokio::select! {
                    () = &mut *shutdown => return Ok(None),
                    () = tokio::time::sleep(Duration::from_secs(2)) => {}
                }
            }
            Err(e) => return Err(format!("cannot take the role {role}: {e}")),
        }
    }
}

/// A secret nobody can guess, for a webhook whose operator gave none: 128 bits from the
/// OS's random source, in hex.
pub fn random_secret() -> Result<String, String> {
    use std::fmt::Write;
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| format!("no webhook secret: the OS random source failed: {e}"))?;
    Ok(bytes.iter().fold(String::with_capacity(32), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    }))
}

/// A platform pushing updates to us (a webhook): posts to `path` on `listener` that carry
/// `secret` in `header` are handed to `take` (which says whether the body was one it
/// reads), until `shutdown`. Posts without the secret are refused (401).
pub async fn serve_posts<F, Fut>(
    listener: tokio::net::TcpListener,
    path: &str,
    (header, secret): (&'static str, String),
    take: F,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), String>
where
    F: Fn(axum::body::Bytes) -> Fut + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = bool> + Send,
{
    use axum::http::StatusCode;
    let route = move |headers: axum::http::HeaderMap, body: axum::body::Bytes| {
        let (take, secret) = (take.clone(), secret.clone());
        async move {
            use subtle::ConstantTimeEq;
            // Compared in constant time: a guesser learns nothing from how long a refusal
            // takes (only the length, which Telegram's rule makes 1 to 256 anyway).
            let given = headers.get(header).map_or(&[][..], |v| v.as_bytes());
            if !bool::from(given.ct_eq(secret.as_bytes())) {
                StatusCode::UNAUTHORIZED
            } else if take(body).await {
                StatusCode::OK
            } else {
                StatusCode::BAD_REQUEST
            }
        }
    };
    let app = axum::Router::new().route(path, axum::routing::post(route));
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(|e| format!("webhook server: {e}"))
}

#[cfg(test)]
mod tests {
    /// A webhook's secret is 128 bits from the OS, in hex, and a new one each time: a
    /// constant or short secret would let anyone post updates as Telegram.
    #[test]
    fn a_webhook_secret_is_128_random_bits_new_each_time() {
        let secrets: Vec<String> = (0..8).map(|_| super::random_secret().unwrap()).collect();
        for s in &secrets {
            assert_eq!(s.len(), 32, "{s}");
            assert!(s.bytes().all(|b| b.is_ascii_hexdigit()), "{s}");
        }
        let mut unique = secrets.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), secrets.len(), "a secret came twice");
    }
}
