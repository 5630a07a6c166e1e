//! The training room (RULES.md, C10 `training`): unrated Corners in any variant, against
//! the engine, a friend, or nobody (solo: cross alone in as few moves as you can), with
//! takebacks (`/undo`) and hints. A solo game's Black is a placeholder player who never
//! moves: the rules never pass it the turn.

use super::bot::engine_level;
use super::command::{ChallengeSpec, TrainMode};
use super::live::{Live, Target};
use super::outbox::Later;
use super::types::{lang_of, Origin, Outgoing};
use super::{refuse, Handled, Table};
use crate::color::Color;
use crate::engine::solo::{self, SoloBudget};
use crate::game::{Ending, Game, Rules};
use crate::store::{Finish, Player};
use crate::words::Msg;

/// A solo game's Black, registered as this user on each platform (no platform user id has
/// a colon): it is never to move.
const SOLO_USER: &str = "solo:";

/// Whether `game` is a training solo.
pub(super) fn is_solo(game: &Game) -> bool {
    matches!(game, Game::Corners(g) if g.position().is_solo())
}

fn is_training(game: &Game) -> bool {
    matches!(game, Game::Corners(g) if g.variant().is_training())
}

/// The proven minimum of a solo game that began at its variant's start (0: none known).
fn minimum_of(live: &Live) -> i64 {
    match (&live.game, &live.row.start_position) {
        (Game::Corners(g), None) => solo::proven_minimum(g.variant()).map_or(0, i64::from),
        _ => 0,
    }
}

impl Table {
    pub(super) async fn train(
        &self,
        o: &Origin,
        me: &Player,
        mode: TrainMode,
        spec: &ChallengeSpec,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        match mode {
            TrainMode::Bot(level) => self.play_bot(o, me, level, spec, now).await,
            TrainMode::Person => self.challenge(o, me, spec, now).await,
            TrainMode::Solo => self.solo(o, me, spec, now).await,
        }
    }

    async fn solo(
        &self,
        o: &Origin,
        me: &Player,
        spec: &ChallengeSpec,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        self.within_challenge_limits(me, now).await?;
        let nobody = self
            .store
            .player_for(o.platform().as_str(), SOLO_USER, "solo", None, now)
            .await?;
        let rules = Box::new(spec.rules.clone());
        let lang = lang_of(o);
        let (_, out) = self
            .start_against(o, me, &nobody, spec, true, now, move |live, _| {
                let text = Msg::SoloStarted {
                    id: live.id(),
                    rules,
                    minimum: minimum_of(live),
                };
                vec![live.board_message(text, Color::White, now, None, lang)]
            })
            .await?;
        Ok(out)
    }

    /// What a finished solo says instead of a result: the count, and the proven minimum.
    pub(super) fn solo_result(after: &Live, e: &Ending) -> Msg {
        let id = after.id();
        let moves = i64::try_from(after.game.plies()).unwrap_or(i64::MAX);
        if e.winner == Some(Color::White) {
            let minimum = minimum_of(after);
            Msg::SoloCrossed {
                id,
                who: after.name(Color::White).to_string(),
                moves,
                minimum,
                optimal: minimum > 0 && moves <= minimum,
            }
        } else {
            Msg::SoloNotCrossed { id, moves }
        }
    }

    /// `/resign` in a solo: the attempt is dropped; nobody won it.
    pub(super) async fn abandon_solo(
        &self,
        live: &Live,
        now: i64,
        lang: crate::words::Lang,
    ) -> Handled<Vec<Outgoing>> {
        let finish = Finish::void(crate::game::EndCause::Resigned(Color::White), "T2");
        let text = Msg::SoloAbandoned { id: live.id() };
        self.end_game(live, finish, text, now, lang).await
    }

    /// `/hint` in a solo: the first move of the shortest route the engine finds.
    pub(super) async fn solo_hint(&self, o: &Origin, live: &Live) -> Handled<Vec<Outgoing>> {
        let id = live.id();
        let Game::Corners(g) = &live.game else {
            return refuse(Msg::SoloNoRoute { id });
        };
        let pos = *g.position();
        let found = tokio::task::spawn_blocking(move || solo::route(&pos, SoloBudget::HINT))
            .await
            .ok()
            .flatten();
        let Some(route) = found.filter(|r| !r.moves.is_empty()) else {
            return refuse(Msg::SoloNoRoute { id });
        };
        let played = i64::try_from(live.game.plies()).unwrap_or(i64::MAX);
        let len = i64::try_from(route.moves.len()).unwrap_or(i64::MAX);
        let minimum = minimum_of(live);
        // A route that makes the whole crossing the proven minimum is a shortest one from
        // here too: anything shorter would beat the minimum.
        let shortest = route.shortest || (minimum > 0 && played + len == minimum);
        let recorded = crate::notation::join_path(&pos.path(route.moves[0]), "-");
        Ok(vec![Outgoing::private(
            o,
            Msg::SoloHint {
                id,
                recorded,
                left: len - 1,
                shortest,
            },
        )
        .in_game(id)])
    }

    /// `/undo`: in a training game, take back the sender's last move — alone, with the
    /// engine's reply to it, or (against a person) only before the person has answered.
    pub(super) async fn undo(
        &self,
        o: &Origin,
        me: &Player,
        number: Option<i64>,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let (live, color, _guard) = self.my_game_locked(o, me, Target::typed(number)).await?;
        let id = live.id();
        if !is_training(&live.game) {
            return refuse(Msg::UndoOnlyTraining);
        }
        // Only moves of one's own are taken back: with none made yet there is nothing to
        // take back, whoever's turn it is.
        if !live.game.has_moved(color) {
            return refuse(Msg::UndoNothing { id });
        }
        let my_turn = live.game.turn() == color;
        let plies: i64 = if is_solo(&live.game) {
            1
        } else if engine_level(live.player(color.opponent())).is_some() {
            // The engine's answer goes with the move it answered.
            if my_turn {
                2
            } else {
                1
            }
        } else if my_turn {
            return refuse(Msg::UndoOpponentMoved);
        } else {
            1
        };
        let to_ply = live.row.ply - plies;
        if to_ply < 0 {
            return refuse(Msg::UndoNothing { id });
        }
        let game = replay_to(&live, to_ply)?;
        // The running clock is charged what it ran; the side to move starts now.
        let clocks = live.clocks_at(now);
        let mut row = live.row.clone();
        row.ply = to_ply;
        (row.white_ms, row.black_ms) = clocks;
        row.turn_started_at = now;
        row.draw_offer_by = None;
        let due_at = self.due_of(&Live {
            row,
            white: live.white.clone(),
            black: live.black.clone(),
            game: game.clone(),
            control: live.control,
        });
        let text = Msg::Undone {
            id,
            who: me.name.clone(),
            plies,
        };
        let lang = lang_of(o);
        let (later, says) = {
            let (white, black, game, control) = (
                live.white.clone(),
                live.black.clone(),
                game.clone(),
                live.control,
            );
            Later::new(move |row: &crate::store::GameRow| {
                let after = Live {
                    row: row.clone(),
                    white,
                    black,
                    game,
                    control,
                };
                vec![after.board_message(text, color, now, None, lang)]
            })
        };
        let row = self
            .store
            .take_back(id, live.row.ply, to_ply, clocks, now, due_at, says)
            .await?;
        self.keep_cached(&row, &game);
        self.arm_game(&Live {
            row,
            white: live.white.clone(),
            black: live.black.clone(),
            game,
            control: live.control,
        });
        Ok(later.take())
    }
}

/// The game of `live` after its first `plies` moves.
fn replay_to(live: &Live, plies: i64) -> Result<Game, super::TableError> {
    let corrupt = |e: String| super::TableError::Store(crate::store::StoreError::Corrupt(e));
    let rules: &Rules = &live.row.rules;
    let mut g = match live.row.start_position.as_deref() {
        Some(p) => Game::from_text(rules, p).map_err(corrupt)?,
        None => Game::new(rules),
    };
    let keep = usize::try_from(plies).unwrap_or(0);
    for text in live.game.move_texts().iter().take(keep) {
        g.play_text(text).map_err(|e| corrupt(format!("{e:?}")))?;
    }
    Ok(g)
}
