//! Telegram's flood limits, kept before a call is made rather than learnt from 429s: about
//! one message a second in a chat, twenty a minute in a group, thirty a second in all.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

/// The limits (shorter ones make tests quick).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Least time between two calls in one chat.
    pub per_chat: Duration,
    /// Calls a group may take in `group_window`.
    pub per_group: usize,
    pub group_window: Duration,
    /// Calls the bot may make in a second, over all chats.
    pub per_second: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            per_chat: Duration::from_secs(1),
            per_group: 20,
            group_window: Duration::from_secs(60),
            per_second: 30,
        }
    }
}

/// When calls were made, per chat and in all.
pub struct Limiter {
    limits: Limits,
    chats: Mutex<HashMap<i64, VecDeque<Instant>>>,
    all: Mutex<VecDeque<Instant>>,
}

/// The least time between two calls in a chat. Groups are paced evenly over their window
/// (twenty a minute: one every three seconds), so a fast game gets a steady board rather
/// than a burst and then a stall.
fn spacing(l: &Limits, chat: i64) -> Duration {
    if chat < 0 {
        l.per_chat
            .max(l.group_window / u32::try_from(l.per_group.max(1)).unwrap_or(u32::MAX))
    } else {
        l.per_chat
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Limiter {
    pub fn new(limits: Limits) -> Limiter {
        Limiter {
            limits,
            chats: Mutex::new(HashMap::new()),
            all: Mutex::new(VecDeque::new()),
        }
    }

    /// How long a call in `chat` must wait now (zero: it may go, and, when `take`, it is
    /// counted).
    fn reserve(&self, chat: i64, now: Instant, take: bool) -> Duration {
        let l = self.limits;
        let mut chats = lock(&self.chats);
        let times = chats.entry(chat).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= l.group_window.max(l.per_chat))
        {
            times.pop_front();
        }
        let spacing = spacing(&l, chat);
        let mut wait = times.back().map_or(Duration::ZERO, |last| {
            spacing.saturating_sub(now.duration_since(*last))
        });
        // Groups (negative ids) also keep the per-minute window.
        if chat < 0 && times.len() >= l.per_group {
            let oldest = times[times.len() - l.per_group];
            wait = wait.max(l.group_window.saturating_sub(now.duration_since(oldest)));
        }
        let mut all = lock(&self.all);
        while all
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1))
        {
            all.pop_front();
        }
        if all.len() >= l.per_second {
            let oldest = all[all.len() - l.per_second];
            wait = wait.max(Duration::from_secs(1).saturating_sub(now.duration_since(oldest)));
        }
        if wait.is_zero() && take {
            times.push_back(now);
            all.push_back(now);
        }
        wait
    }

    /// Wait until a call in `chat` keeps within the limits, and count it.
    pub async fn acquire(&self, chat: i64) {
        self.wait(chat, true).await;
    }

    /// Wait until a call in `chat` could go, without counting one (to decide what to send
    /// at the last moment).
    pub async fn ready(&self, chat: i64) {
        self.wait(chat, false).await;
    }

    async fn wait(&self, chat: i64, take: bool) {
        // Bounded: every wait ends when the oldest counted call leaves its window.
        for _ in 0..1000 {
            let wait = self.reserve(chat, Instant::now(), take);
            if wait.is_zero() {
                return;
            }
            tokio::time::sleep(wait).await;
        }
    }

    /// Whether a call in `chat` could go at once (cosmetic calls are skipped otherwise).
    pub fn is_free(&self, chat: i64) -> bool {
        let now = Instant::now();
        let l = self.limits;
        let chats = lock(&self.chats);
        let Some(times) = chats.get(&chat) else {
            return true;
        };
        let recent = times
            .iter()
            .filter(|t| now.duration_since(**t) < l.group_window)
            .count();
        let spaced = times
            .back()
            .is_none_or(|last| now.duration_since(*last) >= spacing(&l, chat));
        spaced && (chat >= 0 || recent + 2 <= l.per_group)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_group_keeps_its_window_and_a_chat_its_spacing() {
        // The real limits scaled down: 5 calls per 300 ms in a group, 20 ms apart.
        let limiter = Limiter::new(Limits {
            per_chat: Duration::from_millis(20),
            per_group: 5,
            group_window: Duration::from_millis(300),
            per_second: 1000,
        });
        let start = Instant::now();
        for _ in 0..6 {
            limiter.acquire(-100).await;
        }
        // Paced evenly: 60 ms apart (300 ms / 5), so the sixth comes at 300 ms.
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(300), "{took:?}");
        assert!(took < Duration::from_millis(600), "{took:?}");
        let start = Instant::now();
        limiter.acquire(7).await;
        limiter.acquire(7).await;
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(20), "{took:?}");
        assert!(!limiter.is_free(7), "a call just went");
    }
}
