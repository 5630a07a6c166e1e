//! Pushing updates to a webhook, as Telegram does once `setWebhook` is called: each pending
//! update is posted as JSON to the URL, with the `secret_token` in the
//! `X-Telegram-Bot-Api-Secret-Token` header; an update leaves the queue only when the bot
//! answers 2xx, and is tried again after a pause otherwise. The fake pushes one update at a
//! time, in order (Telegram's `max_connections` set to 1), so a test sees the order the
//! bot's workers are given; behind the URL there may be anything (a test's proxy in front
//! of several workers).
//!
//! The webhook's URL is an `https` one, as Telegram requires; tests talk to 127.0.0.1
//! alone, so a push goes to the operator's TLS proxy in front of it
//! ([`super::FakeTelegram::proxy_webhook_to`]): plain HTTP on loopback, the URL's path.

use super::{Shared, SERVER_LIFETIME};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Weak;
use std::time::{Duration, Instant};

/// How long a push may take before it counts as failed.
const PUSH_LIMIT: Duration = Duration::from_secs(30);
/// The pause before an update a webhook refused is pushed again.
const RETRY_PAUSE: Duration = Duration::from_millis(100);
/// How often the queue is looked at while nothing wakes the pusher.
const IDLE_STEP: Duration = Duration::from_millis(50);

/// The pusher: runs while the fake lives (at most [`SERVER_LIFETIME`]).
pub(super) async fn push(shared: Weak<Shared>) {
    let Some(mut wake) = shared.upgrade().map(|s| s.updates_tx.subscribe()) else {
        return;
    };
    let deadline = Instant::now() + SERVER_LIFETIME;
    while Instant::now() < deadline {
        let Some(s) = shared.upgrade() else { return };
        let next = {
            let mut inner = s.lock();
            if inner.webhook.is_some() && inner.webhook_proxy.is_none() && !inner.updates.is_empty()
            {
                // Nothing listens at the URL's host: Telegram notes it, and tries later.
                inner.webhook_error = Some((super::unix_now(), "Connection refused".into()));
            }
            match (&inner.webhook, inner.webhook_proxy, inner.updates.first()) {
                (Some(url), Some(proxy), Some((id, update))) => Some((
                    (url.clone(), proxy),
                    inner.webhook_secret.clone(),
                    *id,
                    update.clone(),
                )),
                _ => None,
            }
        };
        drop(s);
        let Some((url, secret, id, update)) = next else {
            // A new update or a webhook set: look again (at least every IDLE_STEP).
            let _ = tokio::time::timeout(IDLE_STEP, wake.changed()).await;
            continue;
        };
        let accepted = post(&url, secret.as_deref(), &update).await;
        let Some(s) = shared.upgrade() else { return };
        if accepted {
            let mut inner = s.lock();
            inner.updates.retain(|(i, _)| *i != id);
            inner.pushed += 1;
        } else {
            s.lock().webhook_error = Some((
                super::unix_now(),
                "Wrong response from the webhook: 503 Service Unavailable".into(),
            ));
            drop(s);
            tokio::time::sleep(RETRY_PAUSE).await;
        }
    }
}

/// POST one update to `url` through the proxy in front of it; whether it was answered
/// 2xx.
async fn post((url, addr): &(String, SocketAddr), secret: Option<&str>, update: &Value) -> bool {
    let Ok(url) = url::Url::parse(url) else {
        return false;
    };
    let mut headers = vec!["Content-Type: application/json".to_string()];
    if let Some(s) = secret {
        headers.push(format!("X-Telegram-Bot-Api-Secret-Token: {s}"));
    }
    let path = match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_string(),
    };
    let (status, _) = crate::http(
        *addr,
        "POST",
        &path,
        &headers,
        &update.to_string(),
        PUSH_LIMIT,
    )
    .await;
    (200..300).contains(&status)
}
