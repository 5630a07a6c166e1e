//! Moves: typed, confirmed, or played by the table; and every way a game ends.

use super::live::{Live, Pick};
use super::types::{Incoming, Outgoing};
use super::{lock, reply, texts, Outcome, Table};
use crate::color::Color;
use crate::store::{Finish, MoveUpdate, Player};

/// Where a move comes from.
pub(super) enum Source<'a> {
    /// Typed in a message: its id is recorded with the move.
    Message(&'a Incoming),
    /// `/confirm` of a move put on hold (that message is recorded by the dispatcher).
    Confirm,
    /// The table's own move when a Damas movetime runs out (D6).
    Table,
}

/// Who wins, as stored: `white`, `black`, `draw`, `void`.
pub(super) fn result_word(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "white",
        Some(Color::Black) => "black",
        None => "draw",
    }
}

/// `Ratings: alice 1015 (+15), bob 985 (−15).` for the players of a game, if any moved.
fn ratings_line(live: &Live, changes: &[crate::store::RatingChange]) -> Option<String> {
    if changes.is_empty() {
        return None;
    }
    let named: Vec<(String, i64, i64)> = changes
        .iter()
        .map(|c| {
            let name = if c.player_id == live.white.id {
                &live.white.name
            } else {
                &live.black.name
            };
            (name.clone(), c.after, c.after - c.before)
        })
        .collect();
    Some(texts::rating_changes(&named))
}

impl Table {
    /// A move typed as text (or with /move). Plain text from someone with no game here is
    /// not for us and gets no answer.
    pub(super) async fn typed_move(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
        text: &str,
        explicit: bool,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        let id = match self.pick(msg, me, number).await? {
            Pick::Game(id) => id,
            Pick::Say(s) => return self.answer_once(msg, vec![reply(msg, s)], now).await,
            Pick::None if explicit => {
                return self
                    .answer_once(msg, vec![reply(msg, texts::no_game_here())], now)
                    .await
            }
            Pick::None => return self.answer_once(msg, Vec::new(), now).await,
        };
        let _guard = self.game_lock(id).await;
        // A copy of this message may have been handled while we waited for the lock.
        if self
            .store
            .seen(&msg.platform, &msg.chat, &msg.message_id)
            .await?
        {
            return Ok(Vec::new());
        }
        let refusal = |text: String| vec![reply(msg, text)];
        let Some(live) = self.live(id).await? else {
            return self
                .answer_once(msg, refusal(texts::no_such_game(id)), now)
                .await;
        };
        if !live.active() {
            return self
                .answer_once(msg, refusal(texts::game_is_over(id)), now)
                .await;
        }
        let Some(color) = live.color_of(me.id) else {
            return self
                .answer_once(msg, refusal(texts::not_your_game(id)), now)
                .await;
        };
        if live.game.turn() != color {
            return self
                .answer_once(msg, refusal(texts::not_your_turn()), now)
                .await;
        }
        // A move that arrives after the flag fell is too late (T1).
        if live.clock().after_move(color, now).is_err() {
            let out = self.flag(&live, now).await?;
            return self.answer_once(msg, out, now).await;
        }
        let (recorded, loses) = match live.game.check_text(text) {
            Ok(r) => r,
            Err(r) => {
                return self
                    .answer_once(msg, refusal(texts::refused(&r.text, &r.reason)), now)
                    .await
            }
        };
        if loses {
            self.store
                .set_pending_move(id, live.row.ply, Some(text))
                .await?;
            let deadline = live.game.deadline_and_limit().0.unwrap_or(0);
            return self
                .answer_once(
                    msg,
                    refusal(texts::confirm_needed(&recorded, deadline)),
                    now,
                )
                .await;
        }
        self.commit_play(&live, color, text, Source::Message(msg), now)
            .await
    }

    /// Record the message as handled, then give `out` — or nothing if it was a repeat.
    async fn answer_once(
        &self,
        msg: &Incoming,
        out: Vec<Outgoing>,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        if self
            .store
            .first_sight(&msg.platform, &msg.chat, &msg.message_id, now)
            .await?
        {
            Ok(out)
        } else {
            Ok(Vec::new())
        }
    }

    /// `/confirm`: play the losing move (C6) that was put on hold.
    pub(super) async fn confirm(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        let (live, color, _guard) = match self.my_game_locked(msg, me, number).await? {
            Ok(x) => x,
            Err(out) => return Ok(out),
        };
        let pending =
            live.row.pending_move.clone().filter(|_| {
                live.row.pending_ply == Some(live.row.ply) && live.game.turn() == color
            });
        let Some(text) = pending else {
            return Ok(vec![reply(msg, texts::nothing_to_confirm())]);
        };
        if live.clock().after_move(color, now).is_err() {
            return self.flag(&live, now).await;
        }
        self.commit_play(&live, color, &text, Source::Confirm, now)
            .await
    }

    /// Play a checked move, commit it, and say so with the board. The caller holds the lock.
    // One transaction's story: play, clock, offer, commit, announce.
    #[allow(clippy::too_many_lines)]
    pub(super) async fn commit_play(
        &self,
        live: &Live,
        mover: Color,
        text: &str,
        source: Source<'_>,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        let auto = matches!(source, Source::Table);
        let message = match source {
            Source::Message(m) => Some(m),
            Source::Confirm | Source::Table => None,
        };
        let id = live.row.id;
        let mut game = live.game.clone();
        let recorded = match game.play_text(text) {
            Ok(r) => r,
            Err(refusal) => {
                return Ok(vec![Outgoing {
                    platform: live.row.platform.clone(),
                    chat: live.row.chat.clone(),
                    text: texts::refused(&refusal.text, &refusal.reason),
                    board: None,
                    chart: None,
                }])
            }
        };
        let Ok(clock) = live.clock().after_move(mover, now) else {
            return self.flag(live, now).await;
        };
        let ending = game.ending();
        // A move by the side the draw was offered to declines the offer (T2).
        let offer_declined = live
            .row
            .draw_offer_by
            .as_deref()
            .is_some_and(|by| by != mover.name());
        let offer = if offer_declined {
            None
        } else {
            live.row.draw_offer_by.clone()
        };
        let finish = ending.as_ref().map(|e| Finish {
            result: result_word(e.winner).to_string(),
            reason: e.reason.clone(),
            rule: e.rule.to_string(),
            abandoned_by: None,
        });
        let update = MoveUpdate {
            message: message.map(|m| (m.platform.clone(), m.chat.clone(), m.message_id.clone())),
            text: recorded.clone(),
            auto,
            white_ms: clock.remaining[0],
            black_ms: clock.remaining[1],
            turn_started_at: clock.turn_started,
            draw_offer_by: offer,
            finish,
        };
        let saved = self
            .store
            .commit_move(id, live.row.ply, now, &update)
            .await?;
        let rating_line = ratings_line(live, &saved.ratings);
        let row = saved.game;
        lock(&self.cache).insert(id, (row.ply, game.clone()));
        let after = super::live::Live {
            row,
            white: live.white.clone(),
            black: live.black.clone(),
            game,
            rules: live.rules.clone(),
            control: live.control,
        };
        let mut out = Vec::new();
        let (platform, chat) = (after.row.platform.clone(), after.row.chat.clone());
        let mover_name = after.name(mover).to_string();
        let mut caption = if auto {
            texts::auto_moved(id, &mover_name, &recorded)
        } else {
            texts::after_move(&mover_name, &recorded, &after.status(now))
        };
        if offer_declined {
            caption.push_str(&texts::draw_offer_declined_by_move());
        }
        if let Some(e) = ending {
            self.forget_game(id);
            let mut result =
                texts::rules_result(id, &e, after.name(Color::White), after.name(Color::Black));
            if let Some(r) = rating_line {
                result.push(' ');
                result.push_str(&r);
            }
            let board = after.board_message(
                &platform,
                &chat,
                caption,
                mover.opponent(),
                now,
                Some(&result),
            );
            out.push(board);
            out.push(Outgoing {
                platform,
                chat,
                text: result,
                board: None,
                chart: None,
            });
        } else {
            self.arm_game(&after);
            let next = after.game.turn();
            out.push(after.board_message(&platform, &chat, caption, next, now, None));
        }
        Ok(out)
    }

    /// End a game without a move; says `text` with the final board. The caller holds the lock.
    pub(super) async fn end_game(
        &self,
        live: &Live,
        finish: Finish,
        text: String,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        let turn = live.game.turn();
        let clock = live.clock();
        // Stop the running clock where it stands.
        let left = |c: Color| clock.left(c, turn, now).unwrap_or(0);
        let clocks = match live.control {
            crate::clock::TimeControl::Fischer { .. } => (left(Color::White), left(Color::Black)),
            _ => (live.row.white_ms, live.row.black_ms),
        };
        let row = self
            .store
            .finish_game(live.row.id, live.row.ply, &finish, clocks, now)
            .await?;
        let mut text = text;
        if let Some(r) = ratings_line(live, &row.ratings) {
            text.push(' ');
            text.push_str(&r);
        }
        let row = row.game;
        self.forget_game(live.row.id);
        let ended = Live {
            row,
            white: live.white.clone(),
            black: live.black.clone(),
            game: live.game.clone(),
            rules: live.rules.clone(),
            control: live.control,
        };
        let viewer = match finish.result.as_str() {
            "black" => Color::Black,
            _ => Color::White,
        };
        Ok(vec![ended.board_message(
            &ended.row.platform.clone(),
            &ended.row.chat.clone(),
            text.clone(),
            viewer,
            now,
            Some(&text),
        )])
    }

    /// The side to move ran out of time: it loses (T1).
    pub(super) async fn flag(&self, live: &Live, now: i64) -> Outcome<Vec<Outgoing>> {
        let loser = live.game.turn();
        let winner = loser.opponent();
        let finish = Finish {
            result: result_word(Some(winner)).to_string(),
            reason: texts::reason_flag(loser),
            rule: "T1".into(),
            abandoned_by: None,
        };
        let text = texts::flagged(live.row.id, live.name(loser), live.name(winner));
        self.end_game(live, finish, text, now).await
    }
}
