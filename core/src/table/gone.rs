//! A chat the bot can no longer reach: removed from a group, blocked in a private chat.
//! What was waiting to be said there is dropped; its running games are void (nobody can
//! see their boards, so nobody may lose on time there; nothing is rated, nothing said), and
//! its open challenges are cancelled, so no timer posts into it again. Games of the same players in
//! other chats go on.

use super::timers::Key;
use super::{ChatRef, Table, TableError};
use crate::game::EndCause;
use crate::store::{ChallengeStatus, Finish, Says};

/// What closing a chat did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Closed {
    /// Running games voided.
    pub games: usize,
    /// Open challenges cancelled.
    pub challenges: usize,
    /// Replies dropped unsent.
    pub dropped: u64,
}

impl Table {
    /// The bot was removed from `chat` or blocked there at `at` (ms; the platform's word,
    /// or now): see the module's documentation. Only what was there by then closes, so an
    /// old removal read again after a restart leaves a game begun since the bot came back.
    /// Closing again finds nothing more to close; a store failure is logged, and what was
    /// closed before it stays closed (call again to finish).
    pub async fn chat_gone(&self, chat: &ChatRef, at: Option<i64>) -> Option<Closed> {
        let at = at.unwrap_or_else(|| self.now());
        match self.close_chat(chat, at).await {
            Ok(closed) => Some(closed),
            Err(e) => {
                tracing::error!(chat = chat.id.as_str(), error = ?e, "chat not closed");
                None
            }
        }
    }

    async fn close_chat(&self, chat: &ChatRef, at: i64) -> Result<Closed, TableError> {
        let platform = chat.platform.as_str();
        // A group closes with its topics (a forum's), each a chat of its own.
        let mut chats = vec![chat.id.clone()];
        if chat.kind == super::ChatKind::Group {
            chats.extend(self.store.topics_of(platform, &chat.id).await?);
        }
        let mut closed = Closed::default();
        for id in &chats {
            let one = self.close_one(platform, id, at).await?;
            closed.games += one.games;
            closed.challenges += one.challenges;
            closed.dropped += one.dropped;
        }
        tracing::info!(
            platform,
            chat = chat.id.as_str(),
            topics = chats.len() - 1,
            games = closed.games,
            challenges = closed.challenges,
            dropped = closed.dropped,
            "chat gone: its games are void, its challenges cancelled"
        );
        Ok(closed)
    }

    async fn close_one(&self, platform: &str, id: &str, at: i64) -> Result<Closed, TableError> {
        let now = self.now();
        // First, so that nothing waiting is sent meanwhile.
        let mut closed = Closed {
            dropped: self.store.forget_chat(platform, id, at, now).await?,
            ..Closed::default()
        };
        for game in self.store.running_games_in(platform, id, at).await? {
            let _guard = self.game_lock(game).await?;
            let Some(live) = self.live(game).await? else {
                continue;
            };
            if live.row.status != crate::store::GameStatus::Active {
                continue;
            }
            // Nothing is said: there is nowhere to say it.
            let finish = Finish::void(EndCause::ChatGone, "T2");
            let clocks = live.clocks_at(now);
            self.store
                .finish_game(game, live.row.ply, &finish, clocks, now, Says::nothing())
                .await?;
            self.forget_game(game);
            self.disarm(Key::Game(game));
            closed.games += 1;
        }
        let open = self.store.open_challenges_in(platform, id).await?;
        for c in open.into_iter().filter(|c| c.created_at <= at) {
            let done = self
                .store
                .close_challenge(c.id, ChallengeStatus::Cancelled, Says::nothing(), now)
                .await?;
            if done {
                self.disarm(Key::Challenge(c.id));
                closed.challenges += 1;
            }
        }
        Ok(closed)
    }
}
