//! Discord's rate limits as the fake enforces them.
//!
//! Discord documents the mechanism, not the numbers ("don't hard-code them, read the
//! headers"): every answer of a limited route carries `X-RateLimit-Limit`, `-Remaining`,
//! `-Reset`, `-Reset-After` and `-Bucket`; a request past a bucket's limit is answered 429
//! with `retry_after`, and is not carried out; and a bot may make at most 50 requests a
//! second across all routes (the global limit: 429 with `X-RateLimit-Global`). Buckets are
//! per route and per major parameter (the channel, guild, or webhook in the path).
//! Interaction callbacks and the interaction webhooks are not bound by the global limit.
//!
//! The numbers below are the ones Discord answers with today for the routes the bot uses
//! (5 messages per 5 s in a channel is the well-known one); tests may shorten a window with
//! [`super::FakeDiscord::set_route_limit`] to keep their runtime down.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Discord's global limit: requests per second across all routes.
pub const GLOBAL_PER_SECOND: u32 = 50;

/// A bucket's size: `limit` requests per `per`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub limit: u32,
    pub per: Duration,
}

impl Limit {
    const fn new(limit: u32, per_ms: u64) -> Limit {
        Limit {
            limit,
            per: Duration::from_millis(per_ms),
        }
    }
}

/// The limit of a route (by its name in [`super::Call::route`]); `None`: not limited.
pub fn default_limit(route: &str) -> Option<Limit> {
    Some(match route {
        "create_message" | "edit_message" | "typing" => Limit::new(5, 5_000),
        "delete_message" => Limit::new(5, 1_000),
        // Renaming a channel is 2 per 10 minutes; archiving and unarchiving a thread are not.
        "create_thread" | "create_thread_from_message" | "edit_channel" => Limit::new(10, 10_000),
        "set_commands" | "create_command" | "edit_command" | "delete_command" => {
            Limit::new(5, 20_000)
        }
        "interaction_callback" => return None,
        "create_followup" | "get_original" | "edit_original" | "delete_original"
        | "get_followup" | "edit_followup" | "delete_followup" => Limit::new(5, 2_000),
        _ => Limit::new(50, 1_000),
    })
}

/// Routes outside the global limit: the interaction's answer and its webhook.
fn global_exempt(route: &str) -> bool {
    route == "interaction_callback"
        || route.ends_with("_original")
        || route.ends_with("_followup")
        || route == "get_gateway"
}

/// One fixed window of a bucket.
#[derive(Clone, Copy, Debug)]
struct Window {
    started: Instant,
    used: u32,
}

/// What a limited request is told.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// It may go on; its answer carries these headers.
    Allowed(Headers),
    /// Over its bucket: 429, not carried out.
    Bucket {
        headers: Headers,
        retry_after: Duration,
    },
    /// Over the global limit: 429 with `X-RateLimit-Global`.
    Global { retry_after: Duration },
}

/// A bucket's state as the headers say it.
#[derive(Clone, Debug, PartialEq)]
pub struct Headers {
    pub limit: u32,
    pub remaining: u32,
    pub reset_after: Duration,
    /// The bucket's hash: one per route, shared by every major parameter (as Discord's).
    pub bucket: String,
}

/// The buckets and the global window.
#[derive(Debug)]
pub struct Limits {
    windows: HashMap<(String, u64), Window>,
    global: Option<Window>,
    pub global_per_second: u32,
    /// Limits a test set instead of [`default_limit`].
    overrides: HashMap<String, Option<Limit>>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            windows: HashMap::new(),
            global: None,
            global_per_second: GLOBAL_PER_SECOND,
            overrides: HashMap::new(),
        }
    }
}

impl Limits {
    pub fn set(&mut self, route: &str, limit: Option<Limit>) {
        self.overrides.insert(route.to_owned(), limit);
    }

    fn limit_of(&self, route: &str) -> Option<Limit> {
        match self.overrides.get(route) {
            Some(set) => *set,
            None => default_limit(route),
        }
    }

    /// Count one request of `route` with major parameter `major` at `now`; `None`: the
    /// route is not limited at all.
    pub fn check(&mut self, route: &str, major: u64, now: Instant) -> Option<Verdict> {
        if !global_exempt(route) {
            let second = Duration::from_secs(1);
            let window = self
                .global
                .filter(|w| now.duration_since(w.started) < second)
                .unwrap_or(Window {
                    started: now,
                    used: 0,
                });
            if window.used >= self.global_per_second {
                self.global = Some(window);
                return Some(Verdict::Global {
                    retry_after: second.saturating_sub(now.duration_since(window.started)),
                });
            }
            self.global = Some(Window {
                used: window.used + 1,
                ..window
            });
        }
        let limit = self.limit_of(route)?;
        let key = (route.to_owned(), major);
        let window = self
            .windows
            .get(&key)
            .copied()
            .filter(|w| now.duration_since(w.started) < limit.per)
            .unwrap_or(Window {
                started: now,
                used: 0,
            });
        let reset_after = limit.per.saturating_sub(now.duration_since(window.started));
        let bucket = bucket_hash(route);
        if window.used >= limit.limit {
            self.windows.insert(key, window);
            return Some(Verdict::Bucket {
                headers: Headers {
                    limit: limit.limit,
                    remaining: 0,
                    reset_after,
                    bucket,
                },
                retry_after: reset_after,
            });
        }
        let used = window.used + 1;
        self.windows.insert(key, Window { used, ..window });
        Some(Verdict::Allowed(Headers {
            limit: limit.limit,
            remaining: limit.limit - used,
            reset_after,
            bucket,
        }))
    }
}

/// An opaque, stable bucket id per route, shaped like Discord's 32 hex digits.
fn bucket_hash(route: &str) -> String {
    // FNV-1a, twice with different offsets: stable across runs, unlike `DefaultHasher`.
    let fnv = |offset: u64| {
        route.bytes().fold(offset, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    };
    format!(
        "{:016x}{:016x}",
        fnv(0xcbf2_9ce4_8422_2325),
        fnv(0x8422_2325_cbf2_9ce4)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_counts_down_then_refuses_until_its_window_ends() {
        let mut limits = Limits::default();
        let start = Instant::now();
        let remaining: Vec<_> = (0..5)
            .map(|_| match limits.check("create_message", 1, start) {
                Some(Verdict::Allowed(h)) => h.remaining,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(remaining, [4, 3, 2, 1, 0]);
        assert!(matches!(
            limits.check("create_message", 1, start + Duration::from_secs(1)),
            Some(Verdict::Bucket { retry_after, .. }) if retry_after == Duration::from_secs(4)
        ));
        // Another channel has its own bucket; the window's end refills this one.
        assert!(matches!(
            limits.check("create_message", 2, start),
            Some(Verdict::Allowed(_))
        ));
        assert!(matches!(
            limits.check("create_message", 1, start + Duration::from_secs(5)),
            Some(Verdict::Allowed(h)) if h.remaining == 4
        ));
    }

    #[test]
    fn fifty_a_second_across_routes_then_a_global_429() {
        let mut limits = Limits::default();
        let start = Instant::now();
        for channel in 0..50 {
            assert!(matches!(
                limits.check("get_channel", channel, start),
                Some(Verdict::Allowed(_))
            ));
        }
        assert!(matches!(
            limits.check("get_channel", 99, start),
            Some(Verdict::Global { .. })
        ));
        // Interaction answers are outside it.
        assert_eq!(limits.check("interaction_callback", 1, start), None);
        assert!(matches!(
            limits.check("get_channel", 99, start + Duration::from_secs(1)),
            Some(Verdict::Allowed(_))
        ));
    }
}
