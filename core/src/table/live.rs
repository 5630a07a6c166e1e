//! A game as the table works with it: the stored row, the players, and the game replayed
//! from its moves (cached by ply, so a move does not replay the whole game).

use super::action::Action;
use super::picture::{timed, Picture};
use super::types::{ChatKind, ChatRef, Origin, Outgoing, Platform, Slot};
use super::{lock, refuse, Handled, Table};
use crate::clock::{Clock, TimeControl};
use crate::color::Color;
use crate::game::Game;
use crate::store::{GameRow, Player, Session, StoreError};
use crate::view::BoardView;
use crate::words::{render, Duration, Lang, Msg};

pub(super) struct Live {
    pub row: GameRow,
    pub white: Player,
    pub black: Player,
    pub game: Game,
    pub control: TimeControl,
}

impl Live {
    pub fn clock(&self) -> Clock {
        Clock {
            control: self.control,
            remaining: [self.row.white_ms, self.row.black_ms],
            turn_started: self.row.turn_started_at,
        }
    }

    /// Both banks with the running clock stopped at `now` (Fischer); other controls keep
    /// what the row holds.
    pub fn clocks_at(&self, now: i64) -> (i64, i64) {
        let clock = self.clock();
        let turn = self.game.turn();
        let left = |c: Color| clock.left(c, turn, now).unwrap_or(0);
        match self.control {
            TimeControl::Fischer { .. } => (left(Color::White), left(Color::Black)),
            _ => (self.row.white_ms, self.row.black_ms),
        }
    }

    pub fn color_of(&self, player: i64) -> Option<Color> {
        if player == self.row.white_id {
            Some(Color::White)
        } else if player == self.row.black_id {
            Some(Color::Black)
        } else {
            None
        }
    }

    pub fn player(&self, c: Color) -> &Player {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    pub fn name(&self, c: Color) -> &str {
        &self.player(c).name
    }

    pub fn id(&self) -> i64 {
        self.row.id
    }

    pub fn active(&self) -> bool {
        self.row.is_active()
    }

    /// The chat the game is played in.
    pub fn chat(&self) -> ChatRef {
        ChatRef::new(
            Platform::parse(&self.row.platform).unwrap_or(Platform::Console),
            self.row.chat.clone(),
            ChatKind::parse(&self.row.chat_kind).unwrap_or(ChatKind::Group),
        )
    }

    /// Time left for both sides at `now` (None without a clock).
    pub fn clocks_ms(&self, now: i64) -> Option<(i64, i64)> {
        let clock = self.clock();
        let turn = self.game.turn();
        let running = if self.active() { turn } else { turn.opponent() };
        let now = if self.active() {
            now
        } else {
            self.row.turn_started_at
        };
        Some((
            clock.left(Color::White, running, now)?,
            clock.left(Color::Black, running, now)?,
        ))
    }

    /// `Move 12 · alice 4:32 · bob 3:10 · leave home by 40 · limit 80 · bob to move`.
    pub fn status(&self, now: i64) -> Msg {
        if !self.active() {
            // Nobody is to move, and no clock runs.
            return Msg::StatusOver;
        }
        let clocks = self.clocks_ms(now).map(|(w, b)| {
            Box::new(Msg::StatusClocks {
                white: self.name(Color::White).to_string(),
                white_clock: Duration(w),
                black: self.name(Color::Black).to_string(),
                black_clock: Duration(b),
            })
        });
        let (deadline, limit) = self.game.deadline_and_limit();
        Msg::Status {
            move_no: self.game.move_number(),
            clocks,
            deadline,
            limit,
            to_move: self.name(self.game.turn()).to_string(),
        }
    }

    /// The board to show, oriented for `viewer` (Black's view when Black), with its header
    /// in `lang`; `result` replaces the move line at the end of a game.
    pub fn view(&self, viewer: Color, now: i64, result: Option<&Msg>, lang: Lang) -> BoardView {
        let mut view = BoardView::of_game(&self.game);
        let clocks = self.clocks_ms(now);
        let (deadline, limit) = self.game.deadline_and_limit();
        view.flip = viewer == Color::Black;
        view.white.clone_from(&self.white.name);
        view.black.clone_from(&self.black.name);
        view.white_clock_ms = clocks.map(|c| c.0);
        view.black_clock_ms = clocks.map(|c| c.1);
        if result.is_some() || !self.active() {
            view.no_turn();
        }
        view.info = match result {
            Some(r) => render(r, lang),
            None => render(
                &Msg::BoardInfo {
                    move_no: self.game.move_number(),
                    deadline,
                    limit,
                },
                lang,
            ),
        };
        view
    }

    /// The buttons of a running game: Resign; Offer draw, or Accept / Decline draw while
    /// the opponent's offer stands; Abort before both sides have moved.
    pub fn buttons(&self) -> Vec<Action> {
        if !self.active() {
            return Vec::new();
        }
        let (game, ply) = (self.row.id, self.row.ply);
        // Playing by buttons: the pieces that can move first (the capturing ones when a
        // capture is compulsory), then the game's own buttons.
        let mut out = super::action::pick_buttons(&self.game, game, ply);
        out.extend(self.game_buttons());
        out
    }

    /// After a piece is picked: where it can go, Back, then the game's own buttons.
    pub fn destination_buttons(&self, from: crate::square::Square) -> Vec<Action> {
        if !self.active() {
            return Vec::new();
        }
        let mut out =
            super::action::destination_buttons(&self.game, self.row.id, self.row.ply, from);
        out.extend(self.game_buttons());
        out
    }

    /// Resign, the draw offer's buttons (not in a solo: nobody to agree with), Abort while
    /// it is allowed.
    pub(super) fn game_buttons(&self) -> Vec<Action> {
        let (game, ply) = (self.row.id, self.row.ply);
        let mut out = vec![Action::Resign { game, ply }];
        let solo = super::training::is_solo(&self.game);
        match self.row.draw_offer_by {
            _ if solo => {}
            Some(_) => {
                out.push(Action::AcceptDraw { game, ply });
                out.push(Action::DeclineDraw { game, ply });
            }
            None => out.push(Action::OfferDraw { game, ply }),
        }
        if self.row.ply < 2 {
            out.push(Action::Abort { game, ply });
        }
        out
    }

    /// The game's board for the whole chat, as its living message, with the buttons that
    /// apply now; a running game's board asks for a delivery report (fair clocks).
    pub fn board_message(
        &self,
        message: Msg,
        viewer: Color,
        now: i64,
        result: Option<&Msg>,
        lang: Lang,
    ) -> Outgoing {
        let board = self.board_spec(viewer, now, result);
        let mut out = Outgoing::to_chat(&self.chat(), message)
            .in_lang(lang)
            .in_game(self.id())
            .replacing(Slot::Board(self.id()))
            .with_picture(Some(Picture::Board(board)))
            .with_actions(self.buttons());
        if self.active() && timed(self.control) {
            out.ply = Some(self.row.ply);
        }
        out
    }

    /// A text that takes over the game's living message (a draw offer): the buttons move
    /// to it.
    pub fn slot_message(&self, message: Msg, lang: Lang) -> Outgoing {
        Outgoing::to_chat(&self.chat(), message)
            .in_lang(lang)
            .in_game(self.id())
            .replacing(Slot::Board(self.id()))
            .with_actions(self.buttons())
    }
}

/// The game a player command acts on: the number typed (or none: the sender's only game
/// here), and for a button the ply it was offered at, checked under the game's lock.
#[derive(Clone, Copy, Debug)]
pub(super) struct Target {
    pub number: Option<i64>,
    pub ply: Option<i64>,
}

impl Target {
    pub fn typed(number: Option<i64>) -> Target {
        Target { number, ply: None }
    }

    pub fn pressed(game: i64, ply: i64) -> Target {
        Target {
            number: Some(game),
            ply: Some(ply),
        }
    }
}

/// Which game a message means.
pub(super) enum Pick {
    Game(i64),
    /// The sender has no game here.
    None,
}

impl Table {
    /// A running game's row with its clock credited for the outages since it was last
    /// credited (written once: another process doing it first is fine).
    async fn credited(&self, mut row: GameRow) -> Result<GameRow, StoreError> {
        if !row.is_active() {
            return Ok(row);
        }
        let since = row.credited_until.unwrap_or(row.created_at);
        let (credit, until) = {
            let outages = lock(&self.outages);
            let credit: i64 = outages
                .iter()
                .filter(|(_, to)| *to > since)
                .map(|(from, to)| to - from.max(&since))
                .sum();
            (credit, outages.last().map_or(since, |(_, to)| *to))
        };
        if credit <= 0 {
            return Ok(row);
        }
        if self
            .store
            .credit_outages(row.id, row.credited_until, credit, until)
            .await?
        {
            row.turn_started_at += credit;
            row.due_at = row.due_at.map(|d| d + credit);
            row.credited_until = Some(until);
            return Ok(row);
        }
        // Credited meanwhile (by another process): read what it wrote.
        Ok(self.store.game(row.id).await?.unwrap_or(row))
    }

    /// Load a game and replay it (from the cache when it is at the same ply). A running
    /// game's clock is credited first with the time no process served it.
    pub(super) async fn live(&self, id: i64) -> Result<Option<Live>, StoreError> {
        match self.store.game(id).await? {
            Some(row) => self.live_of(row).await.map(Some),
            None => Ok(None),
        }
    }

    /// The game as `row` has it, replayed (from the cache when it is at the same ply), its
    /// clock credited first with the time no process served it.
    pub(super) async fn live_of(&self, row: GameRow) -> Result<Live, StoreError> {
        let id = row.id;
        let row = self.credited(row).await?;
        let control = TimeControl::parse(&row.time_control)
            .map_err(|e| StoreError::Corrupt(format!("game {id}: {e}")))?;
        let (Some(white), Some(black)) = (
            self.person(row.white_id).await?,
            self.person(row.black_id).await?,
        ) else {
            return Err(StoreError::Corrupt(format!(
                "game {id} has an unknown player"
            )));
        };
        let cached = lock(&self.cache)
            .get(&id)
            .filter(|(ply, takebacks, _)| *ply <= row.ply && *takebacks == row.takebacks)
            .map(|(ply, _, g)| (*ply, g.clone()));
        let game = match cached {
            Some((ply, g)) if ply == row.ply => g,
            // Behind by the moves another process took: play just those.
            Some((ply, mut g)) => {
                for (i, text) in (ply..).zip(self.store.moves_between(id, ply, row.ply).await?) {
                    g.play_text(&text).map_err(|e| {
                        StoreError::Corrupt(format!("game {id} move {}: {e:?}", i + 1))
                    })?;
                }
                self.keep_cached(&row, &g);
                g
            }
            None => {
                let mut g = match &row.start_position {
                    Some(p) => Game::from_text(&row.rules, p)
                        .map_err(|e| StoreError::Corrupt(format!("game {id}: {e}")))?,
                    None => Game::new(&row.rules),
                };
                for (i, text) in self
                    .store
                    .moves_between(id, 0, row.ply)
                    .await?
                    .iter()
                    .enumerate()
                {
                    g.play_text(text).map_err(|e| {
                        StoreError::Corrupt(format!("game {id} move {}: {e:?}", i + 1))
                    })?;
                }
                self.keep_cached(&row, &g);
                g
            }
        };
        Ok(Live {
            row,
            white,
            black,
            game,
            control,
        })
    }

    /// Remember a running game as replayed at its row's ply (finished ones are not touched
    /// again often enough to keep).
    pub(super) fn keep_cached(&self, row: &GameRow, game: &Game) {
        if row.is_active() {
            lock(&self.cache).insert(row.id, (row.ply, row.takebacks, game.clone()));
        }
    }

    /// The game a message means: the number given (which must be in this chat), or the
    /// sender's only unfinished game in this chat.
    pub(super) async fn pick(&self, o: &Origin, me: &Player, number: Option<i64>) -> Handled<Pick> {
        Ok(match self.pick_row_in(None, o, me, number).await? {
            Some(row) => Pick::Game(row.id),
            None => Pick::None,
        })
    }

    /// [`Table::pick`], with the game's row as read (in a move's session when there is
    /// one); None: the sender has no game here.
    pub(super) async fn pick_row_in(
        &self,
        session: Option<&mut Session>,
        o: &Origin,
        me: &Player,
        number: Option<i64>,
    ) -> Handled<Option<GameRow>> {
        let mine = match (number, session) {
            (Some(n), Some(s)) => self
                .store
                .game_in_session(s, n)
                .await?
                .into_iter()
                .collect(),
            (Some(n), None) => self.store.game(n).await?.into_iter().collect(),
            (None, Some(s)) => {
                self.store
                    .active_games_in_session(s, o.platform().as_str(), &o.chat.id, me.id)
                    .await?
            }
            (None, None) => {
                self.store
                    .active_games_in(o.platform().as_str(), &o.chat.id, me.id)
                    .await?
            }
        };
        if let Some(n) = number {
            return match mine.into_iter().next() {
                Some(g) if g.platform == o.platform().as_str() && g.chat == o.chat.id => {
                    Ok(Some(g))
                }
                _ => refuse(Msg::NoSuchGame { id: n }),
            };
        }
        match mine.as_slice() {
            [] => Ok(None),
            [_] => Ok(mine.into_iter().next()),
            many => refuse(Msg::SeveralGames {
                ids: crate::words::List(
                    many.iter().map(|g| Msg::GameNumber { id: g.id }).collect(),
                ),
                first: many[0].id,
            }),
        }
    }

    /// Like [`Table::my_game`], holding the game's lock, with the game reloaded under it
    /// (another message may have changed it meanwhile).
    /// A button's ply is checked here, under the lock: a move that landed meanwhile makes
    /// the press out of date.
    pub(super) async fn my_game_locked(
        &self,
        o: &Origin,
        me: &Player,
        target: Target,
    ) -> Handled<(Live, Color, super::GameGuard)> {
        let (live, color) = self.my_game(o, me, target.number).await?;
        let guard = self.game_lock(live.id()).await?;
        match self.live(live.id()).await?.filter(Live::active) {
            Some(fresh) if target.ply.is_some_and(|p| p != fresh.row.ply) => {
                refuse(Msg::ButtonStale)
            }
            Some(fresh) => Ok((fresh, color, guard)),
            None if target.ply.is_some() => refuse(Msg::ButtonStale),
            None => refuse(Msg::GameIsOver { id: live.id() }),
        }
    }

    /// Pick a game and load it for a player command.
    pub(super) async fn my_game(
        &self,
        o: &Origin,
        me: &Player,
        number: Option<i64>,
    ) -> Handled<(Live, Color)> {
        let id = match self.pick(o, me, number).await? {
            Pick::Game(id) => id,
            Pick::None => return refuse(Msg::NoGameHere),
        };
        let Some(live) = self.live(id).await? else {
            return refuse(Msg::NoSuchGame { id });
        };
        if !live.active() {
            return refuse(Msg::GameIsOver { id });
        }
        let Some(color) = live.color_of(me.id) else {
            return refuse(Msg::NotYourGame { id });
        };
        Ok((live, color))
    }
}
