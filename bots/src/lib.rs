//! ugolki-bots: the `ugolki` binary's command line, the console, Telegram and Discord
//! adapters. Everything here is thin: the rules and the table live in ugolki-core, and
//! delivery, the same for every platform, is the outbox's.

pub mod cli;
pub mod console;
pub mod discord;
pub mod doctor;
pub mod lanes;
pub mod observe;
pub mod outbox;
pub mod service;
pub mod setup;
pub mod telegram;
#[cfg(test)]
mod test_positions;
pub mod web;

/// Milliseconds since the Unix epoch (the table's time), for delivery reports.
#[must_use]
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A poisoned lock only means a panic elsewhere; the maps stay consistent.
pub(crate) fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
