//! Telegram's flood limits, as the outbox paces calls: about one message a second in a
//! chat, twenty a minute in a group (paced evenly, one every three seconds, so a blitz game
//! gets a steady board rather than a burst and a 40-second stall), thirty a second in all.

use crate::outbox::Pace;
use std::time::Duration;
use ugolki_core::table::{ChatKind, ChatRef};

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

impl Limits {
    /// A chat's pace: a group keeps the per-minute window too.
    #[must_use]
    pub fn pace(&self, chat: &ChatRef) -> Pace {
        Pace {
            spacing: self.per_chat,
            window: (chat.kind == ChatKind::Group).then_some((self.per_group, self.group_window)),
        }
    }
}
