//! Each chat's pace, kept before a call is made rather than learnt from 429s: the least time
//! between two calls in a chat, at most so many calls in a window (a Telegram group's twenty
//! a minute, paced evenly), and so many a second over all chats.
//!
//! Our own small sliding-window log rather than a GCRA crate (governor): a sender that takes
//! a chat over from another process must go on from the calls that process made, and a
//! window of call times can be seeded with them (from the outbox) where GCRA's single
//! theoretical arrival time cannot.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

/// How fast calls may go to one chat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    /// Least time between two calls.
    pub spacing: Duration,
    /// At most this many calls in this long (and then the spacing is at least the window's
    /// share: the calls are spread evenly rather than sent in a burst and a stall).
    pub window: Option<(usize, Duration)>,
}

impl Pace {
    /// No limit of the chat's own.
    pub const FREE: Pace = Pace {
        spacing: Duration::ZERO,
        window: None,
    };

    /// The spacing actually kept: the window's share when it is larger.
    fn gap(self) -> Duration {
        match self.window {
            Some((n, w)) => self
                .spacing
                .max(w / u32::try_from(n.max(1)).unwrap_or(u32::MAX)),
            None => self.spacing,
        }
    }

    fn span(self) -> Duration {
        self.window
            .map_or(self.spacing, |(_, w)| w.max(self.spacing))
    }
}

/// When calls were made, per chat and in all.
pub struct Pacing {
    per_second: Option<usize>,
    chats: Mutex<HashMap<String, VecDeque<Instant>>>,
    all: Mutex<VecDeque<Instant>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Pacing {
    pub fn new(per_second: Option<usize>) -> Pacing {
        Pacing {
            per_second,
            chats: Mutex::new(HashMap::new()),
            all: Mutex::new(VecDeque::new()),
        }
    }

    /// Start keeping a chat's calls from those made `ago` before now (a sender taking the
    /// chat over, seeded from the outbox).
    pub fn seed(&self, chat: &str, ago: impl IntoIterator<Item = Duration>) {
        let now = Instant::now();
        let mut times: Vec<Instant> = ago.into_iter().filter_map(|d| now.checked_sub(d)).collect();
        times.sort_unstable();
        lock(&self.chats).insert(chat.to_string(), times.into());
    }

    /// Forget a chat (its sender is done with it; the next one seeds it again).
    pub fn forget(&self, chat: &str) {
        lock(&self.chats).remove(chat);
    }

    /// How long a call in `chat` must wait now (zero: it may go, and, when `take`, it is
    /// counted).
    fn reserve(&self, chat: &str, pace: Pace, now: Instant, take: bool) -> Duration {
        let mut chats = lock(&self.chats);
        let times = chats.entry(chat.to_string()).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= pace.span())
        {
            times.pop_front();
        }
        let mut wait = times.back().map_or(Duration::ZERO, |last| {
            pace.gap().saturating_sub(now.duration_since(*last))
        });
        if let Some((n, window)) = pace.window {
            if n > 0 && times.len() >= n {
                let oldest = times[times.len() - n];
                wait = wait.max(window.saturating_sub(now.duration_since(oldest)));
            }
        }
        let mut all = lock(&self.all);
        while all
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1))
        {
            all.pop_front();
        }
        if let Some(n) = self.per_second.filter(|n| *n > 0) {
            if all.len() >= n {
                let oldest = all[all.len() - n];
                wait = wait.max(Duration::from_secs(1).saturating_sub(now.duration_since(oldest)));
            }
        }
        if wait.is_zero() && take {
            times.push_back(now);
            all.push_back(now);
        }
        wait
    }

    /// Wait until a call in `chat` keeps within the limits, and count it.
    pub async fn acquire(&self, chat: &str, pace: Pace) {
        self.wait(chat, pace, true).await;
    }

    /// Wait until a call in `chat` could go, without counting one (to decide what to send
    /// at the last moment): whether it had to wait.
    pub async fn ready(&self, chat: &str, pace: Pace) -> bool {
        self.wait(chat, pace, false).await
    }

    /// Whether `chat` has used half its window or more (its calls are scarce now: a call
    /// that can wait, waits).
    pub fn busy(&self, chat: &str, pace: Pace) -> bool {
        let Some((n, window)) = pace.window else {
            return false;
        };
        let now = Instant::now();
        lock(&self.chats).get(chat).is_some_and(|times| {
            times
                .iter()
                .filter(|t| now.duration_since(**t) < window)
                .count()
                * 2
                >= n
        })
    }

    /// Count a call made without waiting (one that came with another, like a long text
    /// after its photo).
    pub fn count(&self, chat: &str) {
        let now = Instant::now();
        lock(&self.chats)
            .entry(chat.to_string())
            .or_default()
            .push_back(now);
        lock(&self.all).push_back(now);
    }

    async fn wait(&self, chat: &str, pace: Pace, take: bool) -> bool {
        // Bounded: every wait ends when the oldest counted call leaves its window.
        for round in 0..1000 {
            let wait = self.reserve(chat, pace, Instant::now(), take);
            if wait.is_zero() {
                return round > 0;
            }
            tokio::time::sleep(wait).await;
        }
        true
    }

    /// Whether a call in `chat` could go at once, with room for one more after it in the
    /// window (cosmetic calls are skipped otherwise).
    pub fn is_free(&self, chat: &str, pace: Pace) -> bool {
        let now = Instant::now();
        let chats = lock(&self.chats);
        let Some(times) = chats.get(chat) else {
            return true;
        };
        let spaced = times
            .back()
            .is_none_or(|last| now.duration_since(*last) >= pace.gap());
        let room = pace.window.is_none_or(|(n, w)| {
            times.iter().filter(|t| now.duration_since(**t) < w).count() + 2 <= n
        });
        spaced && room
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_group_keeps_its_window_and_a_chat_its_spacing() {
        // A group's limits scaled down: 5 calls per 300 ms, at least 20 ms apart.
        let pacing = Pacing::new(Some(1000));
        let group = Pace {
            spacing: Duration::from_millis(20),
            window: Some((5, Duration::from_millis(300))),
        };
        let start = Instant::now();
        for _ in 0..6 {
            pacing.acquire("-100", group).await;
        }
        // Paced evenly: 60 ms apart (300 ms / 5), so the sixth comes at 300 ms.
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(300), "{took:?}");
        assert!(took < Duration::from_millis(600), "{took:?}");
        let private = Pace {
            spacing: Duration::from_millis(20),
            window: None,
        };
        let start = Instant::now();
        pacing.acquire("7", private).await;
        pacing.acquire("7", private).await;
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(20), "{took:?}");
        assert!(!pacing.is_free("7", private), "a call just went");
    }

    #[tokio::test]
    async fn a_chat_taken_over_goes_on_from_the_calls_made_before() {
        let pacing = Pacing::new(None);
        let group = Pace {
            spacing: Duration::ZERO,
            window: Some((3, Duration::from_millis(400))),
        };
        // Three calls in the last 100 ms, by another process: the fourth waits for the
        // oldest to leave the window, about 300 ms.
        pacing.seed("-1", [50, 80, 100].map(Duration::from_millis));
        let start = Instant::now();
        pacing.acquire("-1", group).await;
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(250), "{took:?}");
        assert!(took < Duration::from_millis(600), "{took:?}");
    }
}
