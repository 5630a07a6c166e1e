//! Where the table gets the time: the system clock, or a clock tests move by hand.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

/// Milliseconds since the Unix epoch.
pub trait TimeSource: Send + Sync {
    fn now_ms(&self) -> i64;
}

/// The real clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemTime;

impl TimeSource for SystemTime {
    fn now_ms(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
    }
}

/// A clock that moves only when told (tests: no sleeping).
#[derive(Clone, Debug, Default)]
pub struct FakeTime(Arc<AtomicI64>);

impl FakeTime {
    #[must_use]
    pub fn at(ms: i64) -> FakeTime {
        FakeTime(Arc::new(AtomicI64::new(ms)))
    }

    pub fn advance(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }

    pub fn set(&self, ms: i64) {
        self.0.store(ms, Ordering::SeqCst);
    }
}

impl TimeSource for FakeTime {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}
