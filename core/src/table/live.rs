//! A game as the table works with it: the stored row, the players, and the game replayed
//! from its moves (cached by ply, so a move does not replay the whole game).

use super::types::{BoardView, Incoming, Outgoing};
use super::{lock, reply, texts, Outcome, Table};
use crate::clock::{format_ms, Clock, TimeControl};
use crate::color::Color;
use crate::game::{Game, Rules};
use crate::store::{GameRow, Player, StoreError};

pub(super) struct Live {
    pub row: GameRow,
    pub white: Player,
    pub black: Player,
    pub game: Game,
    pub rules: Rules,
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

    pub fn active(&self) -> bool {
        self.row.status == "active"
    }

    /// Clock readings for both sides at `now` (None without a clock).
    pub fn clock_texts(&self, now: i64) -> Option<(String, String)> {
        let clock = self.clock();
        let turn = self.game.turn();
        let running = if self.active() { turn } else { turn.opponent() };
        let now = if self.active() {
            now
        } else {
            self.row.turn_started_at
        };
        let w = clock.left(Color::White, running, now)?;
        let b = clock.left(Color::Black, running, now)?;
        Some((format_ms(w), format_ms(b)))
    }

    /// `Move 12 · alice 4:32 · bob 3:10 · leave home by 40 · limit 80 · bob to move`.
    pub fn status(&self, now: i64) -> String {
        let clocks = self
            .clock_texts(now)
            .map(|(w, b)| (self.name(Color::White), w, self.name(Color::Black), b));
        texts::status_line(
            self.game.move_number(),
            clocks,
            self.game.deadline_and_limit(),
            self.name(self.game.turn()),
        )
    }

    /// The board to show, oriented for `viewer` (Black's view when Black).
    pub fn view(&self, viewer: Color, now: i64, result: Option<&str>) -> BoardView {
        let (last_path, taken) = self.game.last_move_marks();
        let clocks = self.clock_texts(now);
        BoardView {
            rules: self.rules.clone(),
            position: self.game.position_text(),
            last_path,
            taken,
            selected: None,
            destinations: Vec::new(),
            flip: viewer == Color::Black,
            white: self.white.name.clone(),
            black: self.black.name.clone(),
            white_clock: clocks.as_ref().map(|c| c.0.clone()),
            black_clock: clocks.map(|c| c.1),
            to_move: (result.is_none() && self.active()).then(|| self.game.turn()),
            info: result.map_or_else(
                || texts::board_info(self.game.move_number(), self.game.deadline_and_limit()),
                str::to_string,
            ),
        }
    }

    /// A message with the board for `viewer`.
    pub fn board_message(
        &self,
        msg_platform: &str,
        chat: &str,
        text: String,
        viewer: Color,
        now: i64,
        result: Option<&str>,
    ) -> Outgoing {
        Outgoing {
            platform: msg_platform.to_string(),
            chat: chat.to_string(),
            text,
            board: Some(self.view(viewer, now, result)),
            chart: None,
        }
    }
}

/// Which game a message means.
pub(super) enum Pick {
    Game(i64),
    /// A reply explaining why none could be picked.
    Say(String),
    /// The sender has no game here.
    None,
}

impl Table {
    /// Load a game and replay it (from the cache when it is at the same ply).
    pub(super) async fn live(&self, id: i64) -> Outcome<Option<Live>> {
        let Some(row) = self.store.game(id).await? else {
            return Ok(None);
        };
        let rules = Rules::from_id(&row.rules)
            .map_err(|e| StoreError::Corrupt(format!("game {id}: {e}")))?;
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
            .filter(|(ply, _)| *ply == row.ply)
            .map(|(_, g)| g.clone());
        let game = if let Some(g) = cached {
            g
        } else {
            {
                let mut g = match &row.start_position {
                    Some(p) => Game::from_text(&rules, p)
                        .map_err(|e| StoreError::Corrupt(format!("game {id}: {e}")))?,
                    None => Game::new(&rules),
                };
                for (i, text) in self.store.moves(id).await?.iter().enumerate() {
                    g.play_text(text).map_err(|e| {
                        StoreError::Corrupt(format!("game {id} move {}: {e}", i + 1))
                    })?;
                }
                if row.status == "active" {
                    lock(&self.cache).insert(id, (row.ply, g.clone()));
                }
                g
            }
        };
        Ok(Some(Live {
            row,
            white,
            black,
            game,
            rules,
            control,
        }))
    }

    /// The game a message means: the number given (which must be in this chat), or the
    /// sender's only unfinished game in this chat.
    pub(super) async fn pick(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
    ) -> Outcome<Pick> {
        if let Some(n) = number {
            return Ok(match self.store.game(n).await? {
                Some(g) if g.platform == msg.platform && g.chat == msg.chat => Pick::Game(n),
                _ => Pick::Say(texts::no_such_game(n)),
            });
        }
        let mine = self
            .store
            .active_games_in(&msg.platform, &msg.chat, me.id)
            .await?;
        Ok(match mine.as_slice() {
            [] => Pick::None,
            [one] => Pick::Game(one.id),
            many => Pick::Say(texts::several_games(
                &many.iter().map(|g| g.id).collect::<Vec<_>>(),
            )),
        })
    }

    /// Like [`Table::my_game`], holding the game's lock, with the game reloaded under it
    /// (another message may have changed it meanwhile).
    pub(super) async fn my_game_locked(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
    ) -> Outcome<Result<(Live, Color, tokio::sync::OwnedMutexGuard<()>), Vec<Outgoing>>> {
        let (live, color) = match self.my_game(msg, me, number).await? {
            Ok(x) => x,
            Err(out) => return Ok(Err(out)),
        };
        let guard = self.game_lock(live.row.id).await;
        match self.live(live.row.id).await?.filter(Live::active) {
            Some(fresh) => Ok(Ok((fresh, color, guard))),
            None => Ok(Err(vec![reply(msg, texts::game_is_over(live.row.id))])),
        }
    }

    /// Pick a game and load it for a player command; `Err` carries the reply.
    pub(super) async fn my_game(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
    ) -> Outcome<Result<(Live, Color), Vec<Outgoing>>> {
        let id = match self.pick(msg, me, number).await? {
            Pick::Game(id) => id,
            Pick::Say(s) => return Ok(Err(vec![reply(msg, s)])),
            Pick::None => return Ok(Err(vec![reply(msg, texts::no_game_here())])),
        };
        let Some(live) = self.live(id).await? else {
            return Ok(Err(vec![reply(msg, texts::no_such_game(id))]));
        };
        if !live.active() {
            return Ok(Err(vec![reply(msg, texts::game_is_over(id))]));
        }
        let Some(color) = live.color_of(me.id) else {
            return Ok(Err(vec![reply(msg, texts::not_your_game(id))]));
        };
        Ok(Ok((live, color)))
    }
}
