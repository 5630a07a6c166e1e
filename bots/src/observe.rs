//! What operators watch, so nobody learns of an outage from the players: `--metrics ADDR`
//! serves `/health` (200 only while the store answers and the platform connection is up;
//! 503 with the reason otherwise) and `/metrics` (Prometheus text). The counters come from
//! the table (moves, the move-to-reply latency, timers, games in play) and from the outbox
//! (429s, retries, unsent rows and the oldest one's age, per platform).

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use ugolki_core::store::Store;

/// Buckets of the move-to-reply latency (seconds): a move is a few milliseconds; a slow
/// store or a busy game lock shows up in the upper ones.
const LATENCY_BUCKETS: [f64; 12] = [
    0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0,
];

/// The process's recorder (installed once, on first use; the table and adapters record
/// into it through the `metrics` macros).
pub fn recorder() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full("ugolki_move_reply_seconds".into()),
                &LATENCY_BUCKETS,
            )
            .unwrap_or_else(|_| PrometheusBuilder::new());
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("a metrics recorder was installed already; /metrics shows ours only");
        }
        describe();
        handle
    })
}

fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(
        "ugolki_moves_total",
        "Moves played (typed, confirmed or automatic)"
    );
    describe_histogram!(
        "ugolki_move_reply_seconds",
        Unit::Seconds,
        "From a move's message arriving to its reply being ready (committed)"
    );
    describe_counter!(
        "ugolki_timers_fired_total",
        "Timers fired (flags, reminders, automatic moves, expiries)"
    );
    describe_gauge!("ugolki_games_in_play", "Unfinished games, all processes");
    describe_counter!(
        "ugolki_platform_429_total",
        "Rate-limit answers (429) from the platform"
    );
    describe_counter!(
        "ugolki_platform_retries_total",
        "Platform calls retried (429s, server errors, network)"
    );
    describe_gauge!(
        "ugolki_outbox_depth",
        "Replies in the outbox not yet sent, all processes"
    );
    describe_gauge!(
        "ugolki_outbox_oldest_unsent_seconds",
        "Age of the oldest reply in the outbox not yet sent"
    );
    // Shown from the start (at 0), not from their first event.
    metrics::counter!("ugolki_moves_total").increment(0);
    metrics::counter!("ugolki_timers_fired_total").increment(0);
    metrics::gauge!("ugolki_games_in_play").increment(0.0);
}

/// What `ugolki_discord_thread_lookups_total` counts.
pub const THREAD_LOOKUPS_HELP: &str =
    "Channels looked up in the store because the gateway's cache did not hold them";

/// A counter of an adapter's own, described and shown from the start (at 0).
pub fn counted(name: &'static str, help: &'static str) {
    metrics::describe_counter!(name, help);
    metrics::counter!(name).increment(0);
}

/// A platform's own series, shown from the start (at 0).
pub fn platform(name: &'static str) {
    metrics::counter!("ugolki_platform_429_total", "platform" => name).increment(0);
    metrics::counter!("ugolki_platform_retries_total", "platform" => name).increment(0);
    metrics::gauge!("ugolki_outbox_depth", "platform" => name).increment(0.0);
    metrics::gauge!("ugolki_outbox_oldest_unsent_seconds", "platform" => name).increment(0.0);
}

/// Read the outbox's depth and the age of its oldest unsent row, per platform, into the
/// gauges (a platform with nothing waiting reads 0).
pub async fn outbox_depth(store: &Store) {
    let now = crate::now_ms();
    match store.outbox_depth().await {
        Ok(depths) => {
            for p in ["console", "telegram", "discord"] {
                let d = depths.iter().find(|d| d.platform == p);
                #[allow(clippy::cast_precision_loss)]
                let (unsent, age) = d.map_or((0.0, 0.0), |d| {
                    let age_ms = d.oldest.map_or(0, |t| (now - t).max(0));
                    (d.unsent as f64, age_ms as f64 / 1000.0)
                });
                metrics::gauge!("ugolki_outbox_depth", "platform" => p).set(unsent);
                metrics::gauge!("ugolki_outbox_oldest_unsent_seconds", "platform" => p).set(age);
            }
        }
        Err(e) => tracing::warn!(error = %e, "outbox depth not read"),
    }
}

/// What `/health` checks: the store, and the platform connection as the adapter reports it.
#[derive(Clone)]
pub struct Health {
    store: Store,
    platform: Arc<AtomicBool>,
}

impl Health {
    /// The platform starts down until its adapter says it is connected.
    #[must_use]
    pub fn new(store: Store) -> Health {
        Health {
            store,
            platform: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The adapter's word on its connection (polling answers, the gateway's shards).
    pub fn platform_up(&self, up: bool) {
        self.platform.store(up, Ordering::Relaxed);
    }

    /// Healthy, or why not.
    pub async fn check(&self) -> Result<(), &'static str> {
        match tokio::time::timeout(Duration::from_secs(2), self.store.ping()).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) | Err(_) => return Err("the store does not answer"),
        }
        if self.platform.load(Ordering::Relaxed) {
            Ok(())
        } else {
            Err("the platform connection is down")
        }
    }
}

/// Serve `/health` and `/metrics` on `addr` for `platform`'s adapter until `stop` turns
/// true (then it ends when its connections have, keep-alive ones closed). Binds before it
/// returns, so a bad address stops the start.
pub async fn serve(
    addr: SocketAddr,
    health: Health,
    platform_name: &'static str,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> Result<tokio::task::JoinHandle<()>, String> {
    use axum::http::StatusCode;
    let handle = recorder();
    platform(platform_name);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("--metrics: cannot listen on {addr}: {e}"))?;
    let app = axum::Router::new()
        .route(
            "/health",
            axum::routing::get(move || {
                let health = health.clone();
                async move {
                    match health.check().await {
                        Ok(()) => (StatusCode::OK, "ok\n".to_string()),
                        Err(why) => (StatusCode::SERVICE_UNAVAILABLE, format!("{why}\n")),
                    }
                }
            }),
        )
        .route(
            "/metrics",
            axum::routing::get(move || async move {
                handle.run_upkeep();
                (
                    [(
                        axum::http::header::CONTENT_TYPE,
                        "text/plain; version=0.0.4",
                    )],
                    handle.render(),
                )
            }),
        );
    tracing::info!(%addr, "serving /health and /metrics");
    Ok(tokio::spawn(async move {
        let stopped = async move {
            let _ = stop.wait_for(|s| *s).await;
        };
        let served = axum::serve(listener, app).with_graceful_shutdown(stopped);
        if let Err(e) = served.await {
            tracing::error!(error = %e, "metrics server stopped");
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn health_needs_the_store_and_the_platform() {
        let store = Store::connect("sqlite::memory:").await.expect("store");
        let health = Health::new(store.clone());
        assert_eq!(health.check().await, Err("the platform connection is down"));
        health.platform_up(true);
        assert_eq!(health.check().await, Ok(()));
        store.close().await;
        assert_eq!(health.check().await, Err("the store does not answer"));
    }
}
