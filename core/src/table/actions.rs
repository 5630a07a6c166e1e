//! The other commands: boards, resign, draws, abort, claims, lists, records, rules.

use super::play::result_word;
use super::types::{Incoming, Outgoing};
use super::{reply, texts, Outcome, Table};
use crate::color::Color;
use crate::corners::Variant;
use crate::game::Rules;
use crate::square::Square;
use crate::store::{Finish, Player};

/// `/rules [variant]`.
pub(super) fn rules_text(which: Option<&str>) -> String {
    match which {
        None => {
            texts::rules_corners(&Variant::classic3x3().name, Some(40), Some(80), false, true)
                + "\n"
                + &texts::rules_damas(true)
        }
        Some("damas" | "checkers") => texts::rules_damas(true),
        Some("damas-short" | "short") => texts::rules_damas(false),
        Some(id) => match Variant::by_id(id) {
            Ok(v) => texts::rules_corners(
                &v.name,
                v.deadline,
                v.limit,
                v.directions == crate::corners::Directions::Eight,
                v.blocking_forbidden,
            ),
            Err(e) => e.to_string(),
        },
    }
}

impl Table {
    /// `/moves c3`: the board with c3's destinations marked.
    pub(super) async fn show_moves(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
        square: &str,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        let (live, color) = match self.my_game(msg, me, number).await? {
            Ok(x) => x,
            Err(out) => return Ok(out),
        };
        let Some(sq) = Square::parse(square.trim()) else {
            return Ok(vec![reply(
                msg,
                texts::bad_square(&square.chars().take(12).collect::<String>()),
            )]);
        };
        let dests = live.game.destinations(sq);
        if dests.is_empty() {
            return Ok(vec![reply(msg, texts::no_moves_from(&sq.to_string()))]);
        }
        let list: Vec<String> = dests.iter().map(ToString::to_string).collect();
        let mut view = live.view(color, now, None);
        view.selected = Some(sq);
        view.destinations = dests;
        Ok(vec![Outgoing {
            platform: msg.platform.clone(),
            chat: msg.chat.clone(),
            text: texts::moves_from(&sq.to_string(), &list.join(", ")),
            board: Some(view),
            chart: None,
        }])
    }

    /// `/board`: the current board, from the sender's side when they play in it.
    pub(super) async fn show_board(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        let (live, color) = match self.my_game(msg, me, number).await? {
            Ok(x) => x,
            Err(out) => return Ok(out),
        };
        let text = texts::board_caption(live.row.id, &live.status(now));
        Ok(vec![live.board_message(
            &msg.platform,
            &msg.chat,
            text,
            color,
            now,
            None,
        )])
    }

    pub(super) async fn resign(
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
        let winner = color.opponent();
        // R: in rated Damas a resignation after 10 moves or fewer annuls the game.
        let annul =
            live.row.rated && matches!(live.rules, Rules::Damas { .. }) && live.row.ply <= 10;
        let (finish, text) = if annul {
            (
                Finish {
                    result: "void".into(),
                    reason: texts::reason_resign(color),
                    rule: "R".into(),
                    abandoned_by: None,
                },
                texts::resigned_annulled(live.row.id, live.name(color)),
            )
        } else {
            (
                Finish {
                    result: result_word(Some(winner)).to_string(),
                    reason: texts::reason_resign(color),
                    rule: "T2".into(),
                    abandoned_by: None,
                },
                texts::resigned(live.row.id, live.name(color), live.name(winner)),
            )
        };
        self.end_game(&live, finish, text, now).await
    }

    /// `/draw`: offer a draw, or accept the opponent's offer (T2).
    pub(super) async fn draw(
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
        match live.row.draw_offer_by.as_deref() {
            Some(by) if by == color.opponent().name() => {
                let finish = Finish {
                    result: "draw".into(),
                    reason: texts::reason_agreed(),
                    rule: "T2".into(),
                    abandoned_by: None,
                };
                let text = texts::draw_agreed(live.row.id);
                self.end_game(&live, finish, text, now).await
            }
            Some(_) => Ok(vec![reply(msg, texts::draw_already_offered())]),
            None => {
                self.store
                    .set_draw_offer(live.row.id, live.row.ply, Some(color.name()))
                    .await?;
                Ok(vec![reply(
                    msg,
                    texts::draw_offered(live.name(color), live.name(color.opponent())),
                )])
            }
        }
    }

    /// `/nodraw`: decline the opponent's offer.
    pub(super) async fn no_draw(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
    ) -> Outcome<Vec<Outgoing>> {
        let (live, color, _guard) = match self.my_game_locked(msg, me, number).await? {
            Ok(x) => x,
            Err(out) => return Ok(out),
        };
        if live.row.draw_offer_by.as_deref() != Some(color.opponent().name()) {
            return Ok(vec![reply(msg, texts::no_draw_offer())]);
        }
        self.store
            .set_draw_offer(live.row.id, live.row.ply, None)
            .await?;
        Ok(vec![reply(msg, texts::draw_declined(live.name(color)))])
    }

    /// `/abort`: void the game while both sides have not yet moved.
    pub(super) async fn abort(
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
        if live.row.ply >= 2 {
            return Ok(vec![reply(msg, texts::abort_too_late())]);
        }
        let finish = Finish {
            result: "void".into(),
            reason: texts::reason_abort(),
            rule: "T2".into(),
            abandoned_by: None,
        };
        let text = texts::aborted(live.row.id, live.name(color));
        self.end_game(&live, finish, text, now).await
    }

    /// `/claim`: the activity monitor (D6) — the opponent has been idle too long.
    pub(super) async fn claim(
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
        if !live.row.monitor {
            return Ok(vec![reply(msg, texts::not_monitored(live.row.id))]);
        }
        if live.game.turn() == color {
            return Ok(vec![reply(msg, texts::claim_on_own_turn())]);
        }
        let idler = color.opponent();
        let idle = now - live.row.turn_started_at;
        if idle < self.config.idle_limit_ms {
            return Ok(vec![reply(
                msg,
                texts::claim_too_early(live.name(idler), idle, self.config.idle_limit_ms),
            )]);
        }
        // More than 10 moves (half-moves played): a win; otherwise the game is annulled.
        let (finish, text) = if live.row.ply > 10 {
            (
                Finish {
                    result: result_word(Some(color)).to_string(),
                    reason: texts::reason_abandon(idler),
                    rule: "D6".into(),
                    abandoned_by: Some(live.player(idler).id),
                },
                texts::abandoned_win(live.row.id, live.name(idler), live.name(color)),
            )
        } else {
            (
                Finish {
                    result: "void".into(),
                    reason: texts::reason_abandon(idler),
                    rule: "D6".into(),
                    abandoned_by: Some(live.player(idler).id),
                },
                texts::abandoned_void(live.row.id, live.name(idler)),
            )
        };
        self.end_game(&live, finish, text, now).await
    }

    /// `/games`: the sender's unfinished games.
    pub(super) async fn games(&self, msg: &Incoming, me: &Player) -> Outcome<Vec<Outgoing>> {
        let rows = self.store.active_games_of(me.id).await?;
        let mine: Vec<_> = rows
            .into_iter()
            .filter(|g| g.platform == msg.platform)
            .collect();
        if mine.is_empty() {
            return Ok(vec![reply(msg, texts::games_none())]);
        }
        let mut lines = Vec::new();
        for g in mine {
            let Some(live) = self.live(g.id).await? else {
                continue;
            };
            let Some(color) = live.color_of(me.id) else {
                continue;
            };
            let name = Rules::from_id(&g.rules).map_or_else(|_| g.rules.clone(), |r| r.name());
            lines.push(texts::games_line(
                g.id,
                &name,
                live.name(color.opponent()),
                live.game.turn() == color,
                g.chat == msg.chat,
            ));
        }
        Ok(vec![reply(msg, lines.join("\n"))])
    }

    /// `/record N`: the paired record of a game of this chat.
    pub(super) async fn record(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
    ) -> Outcome<Vec<Outgoing>> {
        let id = match number {
            Some(n) => n,
            None => match self.pick(msg, me, None).await? {
                super::live::Pick::Game(id) => id,
                super::live::Pick::Say(s) => return Ok(vec![reply(msg, s)]),
                super::live::Pick::None => return Ok(vec![reply(msg, texts::no_game_here())]),
            },
        };
        let Some(live) = self
            .live(id)
            .await?
            .filter(|l| l.row.platform == msg.platform && l.row.chat == msg.chat)
        else {
            return Ok(vec![reply(msg, texts::no_such_game(id))]);
        };
        let result = live.row.result.as_ref().map(|r| {
            let reason = live.row.end_reason.clone().unwrap_or_default();
            match r.as_str() {
                "white" => format!("{} wins, {reason}", live.name(Color::White)),
                "black" => format!("{} wins, {reason}", live.name(Color::Black)),
                "void" => format!("void, {reason}"),
                _ => format!("draw, {reason}"),
            }
        });
        Ok(vec![reply(
            msg,
            texts::record(
                id,
                live.name(Color::White),
                live.name(Color::Black),
                &live.rules.name(),
                &live.game.record(),
                result.as_deref(),
            ),
        )])
    }
}
