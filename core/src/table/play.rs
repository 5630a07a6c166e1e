//! Moves: typed, confirmed, or played by the table; and every way a game ends.

use super::action::Action;
use super::live::{Live, Target};
use super::outbox::{says_now, Later};
use super::public::and_line;
use super::types::{lang_of, Audience, Incoming, Origin, Outgoing};
use super::{lock, refuse, Handled, Table, TableError};
use crate::clock::Clock;
use crate::color::Color;
use crate::game::{EndCause, Ending, GameResult};
use crate::store::{
    Checked, Finish, GameRow, MoveUpdate, Player, RatingChange, Saved, Session, StoreError,
};
use crate::words::{Lang, List, Msg};

/// Where a move comes from.
pub(super) enum Source<'a> {
    /// Typed in a message: its id is recorded with the move.
    Message(&'a Incoming),
    /// `/confirm` of a move put on hold (that message is recorded by the dispatcher).
    Confirm,
    /// The table's own move when a Damas movetime runs out (D6).
    Table,
    /// The built-in opponent's move in a game against the bot (its own, not automatic).
    Engine,
}

impl Finish {
    /// A game won, lost or drawn for `cause` under `rule`.
    pub(super) fn decided(winner: Option<Color>, cause: EndCause, rule: &str) -> Finish {
        Finish {
            result: GameResult::decided(winner),
            cause,
            rule: rule.to_string(),
            abandoned_by: None,
        }
    }

    /// A game voided (aborted or annulled): it never counts.
    pub(super) fn void(cause: EndCause, rule: &str) -> Finish {
        Finish {
            result: GameResult::Void,
            cause,
            rule: rule.to_string(),
            abandoned_by: None,
        }
    }
}

/// `Ratings: alice 1015 (+15), bob 985 (−15).` for the players of a game, if any moved.
fn ratings_line(live: &Live, changes: &[RatingChange]) -> Option<Msg> {
    if changes.is_empty() {
        return None;
    }
    let named = changes
        .iter()
        .map(|c| {
            let name = if c.player_id == live.white.id {
                &live.white.name
            } else {
                &live.black.name
            };
            let delta = c.after - c.before;
            Msg::RatingChange {
                name: name.clone(),
                after: c.after,
                sign: match delta.signum() {
                    1 => "plus",
                    -1 => "minus",
                    _ => "zero",
                }
                .into(),
                delta: delta.abs(),
            }
        })
        .collect();
    Some(Msg::RatingChanges {
        changes: List(named),
    })
}

/// F1: a side that never moved ends the game as aborted, never as a loss.
/// What the chat is told when a move ended the game by the rules.
fn result_of(after: &Live, e: &crate::game::Ending) -> Msg {
    if super::training::is_solo(&after.game) {
        return Table::solo_result(after, e);
    }
    Msg::RulesResult {
        id: after.id(),
        winner: e.winner,
        name: e
            .winner
            .map(|c| after.name(c).to_string())
            .unwrap_or_default(),
        cause: e.cause,
        rule: e.rule.to_string(),
    }
}

impl Table {
    pub(super) async fn no_first_move(
        &self,
        live: &Live,
        side: Color,
        now: i64,
        lang: Lang,
    ) -> Handled<Vec<Outgoing>> {
        let finish = Finish::void(EndCause::NoFirstMove(side), "F1");
        // A tournament counts it as lost by the player who never came (an arena pauses
        // them): said so, not "it does not count".
        let text = match self.store.tournament_of_game(live.id()).await? {
            Some((tournament, format)) => Msg::TournamentNoShow {
                id: live.id(),
                who: live.name(side).to_string(),
                tournament,
                paused: format == crate::tournament::Format::Arena,
            },
            None => Msg::NoFirstMove {
                id: live.id(),
                who: live.name(side).to_string(),
            },
        };
        self.end_game(live, finish, text, now, lang).await
    }
}

/// The result, followed by the rating changes when there are any.
fn with_ratings(result: Msg, ratings: Option<Msg>) -> Msg {
    match ratings {
        Some(r) => Msg::Lines(vec![result, r]),
        None => result,
    }
}

impl Table {
    /// A move typed as text (or with /move). Plain text from someone with no game here is
    /// not for us and gets no answer. A refusal is recorded against the message id too, so a
    /// repeat of the same message is answered once.
    pub(super) async fn typed_move(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
        text: &str,
        explicit: bool,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        match self.try_move(msg, me, number, text, explicit, now).await {
            // Asked of one of several games without its number: the answer's example is
            // the move typed (at most 20 characters of it, `…` if it was longer).
            Err(TableError::User(Msg::SeveralGames { ids, first })) => {
                let text = super::command::echo(text, 20);
                let m = Msg::SeveralGamesMove { ids, first, text };
                self.refuse_once(&msg.origin, m, now).await
            }
            Err(TableError::User(m)) => self.refuse_once(&msg.origin, m, now).await,
            Ok(None) => {
                self.first_sight(&msg.origin, now).await?;
                Ok(Vec::new())
            }
            Ok(Some(out)) => Ok(out),
            Err(e) => Err(e),
        }
    }

    /// A refusal of a message whose id is not recorded yet (a move's): recorded now, with
    /// the refusal, and answered only the first time it is seen.
    pub(super) async fn refuse_once(&self, o: &Origin, m: Msg, now: i64) -> Handled<Vec<Outgoing>> {
        self.tell_once(o, vec![Outgoing::private(o, m)], now).await
    }

    async fn first_sight(&self, o: &Origin, now: i64) -> Result<bool, crate::store::StoreError> {
        self.store
            .first_sight(o.platform().as_str(), &o.chat.id, &o.message_id, now)
            .await
    }

    /// `None`: not for us (plain text from someone with no game here).
    ///
    /// The move is checked against the game as first read, without its lock: the commit
    /// takes the lock and goes through only if the game is still as it was checked (see
    /// `Store::commit_move_in_session`), so most moves cost a read and a write. Otherwise —
    /// the game changed meanwhile, or the move needs more than a commit (a flag that fell,
    /// a confirmation, an ending) — it is checked again under the lock, on the game re-read.
    async fn try_move(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
        text: &str,
        explicit: bool,
        now: i64,
    ) -> Handled<Option<Vec<Outgoing>>> {
        let o = &msg.origin;
        // The move runs on one connection of the store from here to its commit.
        let mut session = self.store.session().await?;
        let row = match self.pick_row_in(Some(&mut session), o, me, number).await? {
            Some(row) => row,
            // Plain text shaped like a move is ignored from someone with no game only where
            // it may be meant for others: in a private chat it can only be for the bot.
            None if explicit || o.chat.kind == super::ChatKind::Private => {
                return refuse(Msg::NoGameHere)
            }
            None => return Ok(None),
        };
        // A player's move typed past a message's length, as a command would be.
        if super::command::too_long(text) {
            return refuse(Msg::CmdTooLong {
                max: super::command::MAX_MESSAGE,
            });
        }
        let id = row.id;
        // A copy of this message handled meanwhile is not asked about here (a read per
        // move): it made this sender's move, so what follows is a refusal, and a refusal of
        // a message already seen is not answered (`typed_move`).
        let (_local, row) = if let Some(local) = self.try_local_lock(id) {
            (local, row)
        } else {
            // Never wait for the game's lock holding a connection: its holder may be
            // waiting for one (`game_lock` takes the lock, then a connection), and with the
            // pool taken by waiters every game would stall. Wait without it, then read the
            // game again.
            drop(session);
            let local = self.local_lock(id).await;
            session = self.store.session().await?;
            let Some(row) = self.store.game_in_session(&mut session, id).await? else {
                return refuse(Msg::NoSuchGame { id });
            };
            (local, row)
        };
        let fast = self
            .move_on(&mut session, msg, me, row, text, now, false)
            .await;
        match fast {
            // A game changed since it was read; or, read beside the writer while a takeback
            // was being written, the row names more moves than the game has now (taken
            // back): checked again under the lock, on the game as it is.
            Err(TableError::Store(StoreError::Conflict | StoreError::Corrupt(_))) => {
                self.store.lock_game_in_session(&mut session, id).await?;
                let Some(row) = self.store.game_in_session(&mut session, id).await? else {
                    return refuse(Msg::NoSuchGame { id });
                };
                self.move_on(&mut session, msg, me, row, text, now, true)
                    .await
            }
            other => other,
        }
    }

    /// Check and play a typed move on the game as `row` has it. Without the game's lock
    /// (`locked` false), anything but a plain move's commit is left to the locked try: a
    /// conflict says so.
    #[allow(clippy::too_many_arguments)]
    async fn move_on(
        &self,
        session: &mut Session,
        msg: &Incoming,
        me: &Player,
        row: crate::store::GameRow,
        text: &str,
        now: i64,
        locked: bool,
    ) -> Handled<Option<Vec<Outgoing>>> {
        let o = &msg.origin;
        let id = row.id;
        let live = self.live_of(row).await?;
        if !live.active() {
            return refuse(Msg::GameIsOver { id });
        }
        let Some(color) = live.color_of(me.id) else {
            return refuse(Msg::NotYourGame { id });
        };
        if live.game.turn() != color {
            // A move retyped because its answer never came (the bot went down after the
            // commit) was played already: say so, not "not your turn".
            if let Some(recorded) = live.game.names_last_move(text) {
                return refuse(Msg::AlreadyPlayed { recorded });
            }
            return refuse(Msg::NotYourTurn);
        }
        let lang = lang_of(o);
        // A move that arrives after the flag fell is too late (T1).
        if live.clock().after_move(color, now).is_err() {
            if !locked {
                return Err(TableError::Store(StoreError::Conflict));
            }
            let out = self.flag(&live, now, lang).await?;
            return if self.first_sight(o, now).await? {
                Ok(Some(out))
            } else {
                Ok(Some(Vec::new()))
            };
        }
        let (recorded, loses) = match live.game.check_text(text) {
            Ok(r) => r,
            Err(r) => return refuse(Msg::from(&r)),
        };
        if loses {
            if !locked {
                return Err(TableError::Store(StoreError::Conflict));
            }
            self.store
                .set_pending_move(id, live.row.ply, Some(text))
                .await?;
            let deadline = live.game.deadline_and_limit().0.unwrap_or(0);
            let ask = Outgoing::private(
                o,
                Msg::ConfirmNeeded {
                    recorded,
                    deadline,
                    buttons: o.chat.one_message(),
                },
            )
            .in_game(id)
            .with_actions(vec![Action::Confirm {
                game: id,
                ply: live.row.ply,
            }]);
            let mut out = vec![ask.clone()];
            if o.chat.one_message() && ask.direct {
                // A press's answer has no buttons, and nothing can be typed here: the
                // question and its Confirm go on the message too.
                out.push(Outgoing {
                    audience: Audience::Chat,
                    sender: None,
                    direct: false,
                    ..ask
                });
            }
            return self.tell_once(o, out, now).await.map(Some);
        }
        self.commit_play_in(
            Some(session),
            &live,
            color,
            text,
            Source::Message(msg),
            now,
            lang,
        )
        .await
        .map(Some)
    }

    /// `/confirm`: play the losing move (C6) that was put on hold.
    pub(super) async fn confirm(
        &self,
        o: &Origin,
        me: &Player,
        target: Target,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let (live, color, _guard) = self.my_game_locked(o, me, target).await?;
        let pending =
            live.row.pending_move.clone().filter(|_| {
                live.row.pending_ply == Some(live.row.ply) && live.game.turn() == color
            });
        let Some(text) = pending else {
            return refuse(Msg::NothingToConfirm);
        };
        let lang = lang_of(o);
        if live.clock().after_move(color, now).is_err() {
            return self.flag(&live, now, lang).await;
        }
        self.commit_play(&live, color, &text, Source::Confirm, now, lang)
            .await
    }

    /// Play a checked move, commit it, and say so with the board. The caller holds the lock.
    pub(super) async fn commit_play(
        &self,
        live: &Live,
        mover: Color,
        text: &str,
        source: Source<'_>,
        now: i64,
        lang: Lang,
    ) -> Handled<Vec<Outgoing>> {
        self.commit_play_in(None, live, mover, text, source, now, lang)
            .await
    }

    /// [`Table::commit_play`], committed in a move's session when there is one.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn commit_play_in(
        &self,
        session: Option<&mut Session>,
        live: &Live,
        mover: Color,
        text: &str,
        source: Source<'_>,
        now: i64,
        lang: Lang,
    ) -> Handled<Vec<Outgoing>> {
        let auto = matches!(source, Source::Table);
        let message = match source {
            Source::Message(m) => Some(&m.origin),
            Source::Confirm | Source::Table | Source::Engine => None,
        };
        let id = live.id();
        let mut game = live.game.clone();
        let recorded = match game.play_text(text) {
            Ok(r) => r,
            Err(refusal) => return refuse(Msg::from(&refusal)),
        };
        let Ok(clock) = live.clock().after_move(mover, now) else {
            return self.flag(live, now, lang).await;
        };
        let ending = game.ending();
        // A move by the side the draw was offered to declines the offer (T2).
        let offer_declined = live.row.draw_offer_by.is_some_and(|by| by != mover);
        let offer = live.row.draw_offer_by.filter(|_| !offer_declined);
        let due_at = if ending.is_some() {
            None
        } else {
            self.due_after(live, &game, &clock, offer)
        };
        let update = move_update(
            live,
            message,
            recorded.clone(),
            auto,
            &clock,
            offer,
            ending,
            due_at,
        );
        let before = Live {
            row: predicted(&live.row, &update, now),
            white: live.white.clone(),
            black: live.black.clone(),
            game: game.clone(),
            control: live.control,
        };
        let Some(e) = ending else {
            // What the chat is told is known before the commit, and written with it.
            let caption = caption_of(&before, mover, auto, recorded, offer_declined, now);
            let next = before.game.turn();
            let mut out = vec![before.board_message(caption, next, now, None, lang)];
            let saved = self
                .commit_move(session, id, live.row.ply, now, &update, says_now(&mut out))
                .await?;
            metrics::counter!("ugolki_moves_total").increment(1);
            lock(&self.cache).insert(id, (saved.game.ply, saved.game.takebacks, game.clone()));
            self.arm_game(&Live {
                row: saved.game,
                ..before
            });
            return Ok(out);
        };
        // An ending settles ratings in its transaction: what the chat is told is made there.
        let page = self.page_line(&live.row);
        let (later, says) = Later::new(move |saved: &Saved| {
            let after = Live {
                row: saved.game.clone(),
                ..before
            };
            let caption = caption_of(&after, mover, auto, recorded, offer_declined, now);
            let result = result_of(&after, &e);
            // The final board is seen from the winner's side (White's on a draw).
            let viewer = e.winner.unwrap_or(Color::White);
            let board = after.board_message(caption, viewer, now, Some(&result), lang);
            let said = Outgoing::to_chat(
                &after.chat(),
                and_line(
                    with_ratings(result, ratings_line(&after, &saved.ratings)),
                    page.clone(),
                ),
            )
            .in_lang(lang)
            .in_game(id);
            vec![board, said]
        });
        self.commit_move(session, id, live.row.ply, now, &update, says)
            .await?;
        metrics::counter!("ugolki_moves_total").increment(1);
        self.forget_game(id);
        Ok(later.take())
    }

    /// Commit a move, in its session when it has one.
    async fn commit_move(
        &self,
        session: Option<&mut Session>,
        id: i64,
        ply: i64,
        now: i64,
        update: &MoveUpdate,
        says: crate::store::Says<Saved>,
    ) -> Result<Saved, StoreError> {
        match session {
            Some(s) => {
                self.store
                    .commit_move_in_session(s, id, ply, now, update, says)
                    .await
            }
            None => self.store.commit_move(id, ply, now, update, says).await,
        }
    }

    /// When a game's next timer is due once a move has given it `game`, `clock` and `offer`
    /// (its state as it will stand).
    fn due_after(
        &self,
        live: &Live,
        game: &crate::game::Game,
        clock: &crate::clock::Clock,
        offer: Option<Color>,
    ) -> Option<i64> {
        let mut row = live.row.clone();
        row.ply += 1;
        row.white_ms = clock.remaining[0];
        row.black_ms = clock.remaining[1];
        row.turn_started_at = clock.turn_started;
        row.draw_offer_by = offer;
        self.due_of(&Live {
            row,
            white: live.white.clone(),
            black: live.black.clone(),
            game: game.clone(),
            control: live.control,
        })
    }

    /// End a game without a move; says `text` with the final board. The caller holds the lock.
    pub(super) async fn end_game(
        &self,
        live: &Live,
        finish: Finish,
        text: Msg,
        now: i64,
        lang: Lang,
    ) -> Handled<Vec<Outgoing>> {
        let clocks = live.clocks_at(now);
        let viewer = match finish.result {
            GameResult::Black => Color::Black,
            _ => Color::White,
        };
        let before = Live {
            row: live.row.clone(),
            white: live.white.clone(),
            black: live.black.clone(),
            game: live.game.clone(),
            control: live.control,
        };
        // The rating changes are settled in the ending's transaction: said from there.
        let page = self.page_line(&live.row);
        let (later, says) = Later::new(move |saved: &Saved| {
            let ended = Live {
                row: saved.game.clone(),
                ..before
            };
            // The board's header line shows the result without the rating changes.
            let header = text.clone();
            let text = and_line(
                with_ratings(text, ratings_line(&ended, &saved.ratings)),
                page.clone(),
            );
            vec![ended.board_message(text, viewer, now, Some(&header), lang)]
        });
        self.store
            .finish_game(live.id(), live.row.ply, &finish, clocks, now, says)
            .await?;
        self.forget_game(live.id());
        Ok(later.take())
    }

    /// The side to move ran out of time: it loses (T1), or, if it never made its first
    /// move, the game is aborted (F1).
    pub(super) async fn flag(&self, live: &Live, now: i64, lang: Lang) -> Handled<Vec<Outgoing>> {
        let loser = live.game.turn();
        if !live.game.has_moved(loser) {
            return self.no_first_move(live, loser, now, lang).await;
        }
        let winner = loser.opponent();
        let finish = Finish::decided(Some(winner), EndCause::Flag(loser), "T1");
        let text = Msg::Flagged {
            id: live.id(),
            loser: live.name(loser).to_string(),
            winner: live.name(winner).to_string(),
        };
        self.end_game(live, finish, text, now, lang).await
    }
}

/// The game's row as a move will leave it (when it does not end the game).
fn predicted(row: &GameRow, u: &MoveUpdate, now: i64) -> GameRow {
    let mut row = row.clone();
    row.ply += 1;
    row.white_ms = u.white_ms;
    row.black_ms = u.black_ms;
    row.turn_started_at = u.turn_started_at;
    row.draw_offer_by = u.draw_offer_by;
    row.pending_move = None;
    row.pending_ply = None;
    row.due_at = u.due_at;
    row.credited_until = Some(now);
    row
}

/// The caption under the board after a move: who played what, and how the game stands (or,
/// for the table's own move, that it played for them).
fn caption_of(
    after: &Live,
    mover: Color,
    auto: bool,
    recorded: String,
    offer_declined: bool,
    now: i64,
) -> Msg {
    let mover_name = after.name(mover).to_string();
    if auto {
        Msg::AutoMoved {
            id: after.id(),
            who: mover_name,
            recorded,
        }
    } else {
        Msg::AfterMove {
            mover: mover_name,
            recorded,
            status: Box::new(after.status(now)),
            offer_declined,
        }
    }
}

/// The store's record of one move: what it says, the clocks and offer after it, how it
/// ends the game if it does, and the state it was decided on (the compare-and-set guard).
#[allow(clippy::too_many_arguments)]
fn move_update(
    live: &Live,
    message: Option<&Origin>,
    text: String,
    auto: bool,
    clock: &Clock,
    offer: Option<Color>,
    ending: Option<Ending>,
    due_at: Option<i64>,
) -> MoveUpdate {
    MoveUpdate {
        message: message.map(|o| {
            (
                o.platform().as_str().to_string(),
                o.chat.id.clone(),
                o.message_id.clone(),
            )
        }),
        text,
        auto,
        white_ms: clock.remaining[0],
        black_ms: clock.remaining[1],
        turn_started_at: clock.turn_started,
        draw_offer_by: offer,
        finish: ending.map(|e| Finish::decided(e.winner, e.cause, e.rule)),
        due_at,
        checked: Checked {
            turn_started_at: live.row.turn_started_at,
            draw_offer_by: live.row.draw_offer_by,
        },
    }
}
