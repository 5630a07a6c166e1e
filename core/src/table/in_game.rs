//! The other player commands: boards, resign, draws, abort, claims, lists, records, rules.

use super::live::Target;
use super::outbox::says_now;
use super::picture::Picture;
use super::types::{lang_of, Origin, Outgoing};
use super::{refuse, Handled, Table};
use crate::color::Color;
use crate::corners::{Directions, Variant};
use crate::game::{EndCause, Rules};
use crate::square::Square;
use crate::store::{Finish, Player};
use crate::words::{self, Duration, Msg};

/// A Resign button resigns on its second press by the same player at the same ply, at
/// least [`RESIGN_SECOND_MS`] after the first (a double tap counts once) and at most
/// [`RESIGN_WINDOW_MS`] after it. A typed `/resign` is deliberate: it resigns at once.
/// (Both presses are timed by the clock of the process that takes each: processes whose
/// clocks differ by more than a second widen or narrow the double tap's second.)
pub const RESIGN_WINDOW_MS: i64 = 30_000;
/// See [`RESIGN_WINDOW_MS`].
pub const RESIGN_SECOND_MS: i64 = 1_000;

/// Longest message of a record, its words included (Discord allows 2,000 characters).
const RECORD_MESSAGE: usize = 1500;

/// A paired record (`1. c3-d3 f6-e6 2. …`) cut into pieces of at most `part` characters,
/// each starting at a move number.
fn record_parts(record: &str, part: usize) -> Vec<String> {
    // Groups: a move number with the moves after it.
    let mut groups: Vec<String> = Vec::new();
    for token in record.split_whitespace() {
        match groups.last_mut() {
            Some(g) if !token.ends_with('.') && g.len() + 1 + token.len() <= part => {
                g.push(' ');
                g.push_str(token);
            }
            _ => groups.push(token.to_string()),
        }
    }
    let mut parts: Vec<String> = Vec::new();
    for g in groups {
        match parts.last_mut() {
            Some(p) if p.len() + 1 + g.len() <= part => {
                p.push(' ');
                p.push_str(&g);
            }
            _ => parts.push(g),
        }
    }
    parts
}

/// The rules of one variant, read from its settings (every rule it has, and only those).
fn corners_rules(v: &Variant) -> Msg {
    let diagonal = v.directions == Directions::Eight;
    Msg::RulesCorners {
        rules: Box::new(Rules::Corners(v.clone())),
        diagonal,
        deadline: v.deadline,
        limit: v.limit,
        no_blocking: v.blocking_forbidden,
        // C6: where blocking is allowed, a piece blocked at home does not count.
        home_exemption: !v.blocking_forbidden && v.deadline.is_some(),
        target_lock: v.target_lock,
    }
}

/// The rules of a game being played, as its own settings make them.
pub(super) fn rules_of(rules: &Rules) -> Msg {
    match rules {
        Rules::Corners(v) => corners_rules(v),
        Rules::Damas { flying } => Msg::RulesDamas { flying: *flying },
    }
}

/// `/rules [which]`: the rules as the table plays them; `which` in the words a challenge
/// takes (`damas short`, `classic3x3`); `Err`, for the sender alone, when it names no game.
pub(super) fn rules_text(which: Option<&str>) -> Result<Msg, Msg> {
    let Some(which) = which else {
        return Ok(Msg::Lines(vec![
            corners_rules(&Variant::classic3x3()),
            Msg::RulesDamas { flying: true },
        ]));
    };
    let said: Vec<&str> = which.split_whitespace().collect();
    let damas = |w: &&str| matches!(*w, "damas" | "checkers" | "draughts" | "damas-short");
    if said.iter().any(damas) || said == ["short"] {
        let short = said.iter().any(|w| matches!(*w, "short" | "damas-short"));
        return Ok(Msg::RulesDamas { flying: !short });
    }
    // A Corners variant, named alone or after `corners`.
    let id = said
        .iter()
        .find(|w| !matches!(**w, "corners" | "ugolki"))
        .copied()
        .unwrap_or("classic3x3");
    match Variant::by_id(id) {
        Ok(v) => Ok(corners_rules(&v)),
        Err(e) => Err(words::variant_error(&e)),
    }
}

impl Table {
    /// `/moves c3`: the board with c3's destinations marked.
    pub(super) async fn show_moves(
        &self,
        o: &Origin,
        me: &Player,
        number: Option<i64>,
        square: &str,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let (live, color) = self.my_game(o, me, number).await?;
        let Some(sq) = Square::parse(square.trim()).filter(|s| s.is_on(live.game.side())) else {
            return refuse(Msg::BadSquare {
                text: square.chars().take(12).collect(),
            });
        };
        // A square no piece stands on (a light one of Damas) is named as such, as a move
        // from it is.
        if !live.game.is_playing_square(sq) {
            return refuse(Msg::IllNotPlaying { square: sq });
        }
        let dests = live.game.destinations(sq);
        if dests.is_empty() {
            return refuse(Msg::NoMovesFrom { square: sq });
        }
        self.allow_picture(me.id, now)?;
        let list: Vec<String> = dests.iter().map(ToString::to_string).collect();
        let mut board = live.board_spec(color, now, None);
        board.selected = Some(sq);
        Ok(vec![Outgoing::reply(
            o,
            Msg::MovesFrom {
                square: sq,
                list: list.join(", "),
            },
        )
        .in_game(live.id())
        .with_picture(Some(Picture::Board(board)))])
    }

    /// `/board`: the current board, from the sender's side, as the game's living message.
    pub(super) async fn show_board(
        &self,
        o: &Origin,
        me: &Player,
        number: Option<i64>,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let (live, color) = self.my_game(o, me, number).await?;
        self.allow_picture(me.id, now)?;
        let text = Msg::BoardCaption {
            id: live.id(),
            status: Box::new(live.status(now)),
        };
        let mut out = live.board_message(text, color, now, None, lang_of(o));
        // Showing the board again starts no clock.
        out.ply = None;
        Ok(vec![out])
    }

    /// A running game's board as it stands, for an adapter that must show it again
    /// without being asked (a one-message chat whose caption it lost in a restart). Seen by
    /// the side to move, as after a move; it starts no clock. `None` for a finished game.
    pub async fn board_now(&self, game: i64, lang: crate::words::Lang) -> Option<Outgoing> {
        let live = self.live(game).await.ok()??;
        if !live.active() {
            return None;
        }
        let now = self.now();
        let text = Msg::BoardCaption {
            id: live.id(),
            status: Box::new(live.status(now)),
        };
        let mut out = live.board_message(text, live.game.turn(), now, None, lang);
        out.ply = None;
        Some(out)
    }

    pub(super) async fn resign(
        &self,
        o: &Origin,
        me: &Player,
        target: Target,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let (live, color, _guard) = self.my_game_locked(o, me, target).await?;
        self.resign_locked(&live, color, now, lang_of(o)).await
    }

    /// `color` resigns `live`; the caller holds the game's lock.
    async fn resign_locked(
        &self,
        live: &super::live::Live,
        color: Color,
        now: i64,
        lang: crate::words::Lang,
    ) -> Handled<Vec<Outgoing>> {
        // F1: a resignation before any move was made aborts the game (as RULES.md says:
        // once the first mover has moved, resigning is a loss; F2 bounds what a pair of
        // accounts could farm that way).
        if live.game.plies() == 0 {
            return self.no_first_move(live, color, now, lang).await;
        }
        if super::training::is_solo(&live.game) {
            return self.abandon_solo(live, now, lang).await;
        }
        let winner = color.opponent();
        let (id, loser) = (live.id(), live.name(color).to_string());
        // R: in rated Damas a resignation after 10 moves or fewer annuls the game.
        let annul =
            live.row.rated && matches!(live.row.rules, Rules::Damas { .. }) && live.row.ply <= 10;
        let (finish, text) = if annul {
            (
                Finish::void(EndCause::Resigned(color), "R"),
                Msg::ResignedAnnulled { id, loser },
            )
        } else {
            (
                Finish::decided(Some(winner), EndCause::Resigned(color), "T2"),
                Msg::Resigned {
                    id,
                    loser,
                    winner: live.name(winner).to_string(),
                },
            )
        };
        self.end_game(live, finish, text, now, lang).await
    }

    /// The Resign button: a mistaken press in a chat (it sits beside Offer draw) must not
    /// lose a game, so the first press asks and the second resigns (see
    /// [`RESIGN_WINDOW_MS`]). The question is kept in the game's row, so that the second
    /// press counts whichever process it reaches.
    pub(super) async fn resign_pressed(
        &self,
        o: &Origin,
        me: &Player,
        target: Target,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let (live, color, _guard) = self.my_game_locked(o, me, target).await?;
        let row = &live.row;
        let mine = match color {
            Color::White => row.resign_asked_white_at,
            Color::Black => row.resign_asked_black_at,
        };
        let asked = mine
            .filter(|_| row.resign_asked_ply == Some(row.ply))
            .map(|at| now - at);
        if asked.is_some_and(|since| (RESIGN_SECOND_MS..=RESIGN_WINDOW_MS).contains(&since)) {
            return self.resign_locked(&live, color, now, lang_of(o)).await;
        }
        let ask = Msg::ResignAsk {
            id: live.id(),
            seconds: RESIGN_WINDOW_MS / 1000,
        };
        let mut out = vec![Outgoing::private(o, ask).in_game(live.id())];
        // The same tap twice (a double tap, a client's retry) is asked again, its question
        // kept as it was; otherwise the question is asked (anew) from now.
        if !asked.is_some_and(|since| (0..RESIGN_SECOND_MS).contains(&since)) {
            self.store
                .ask_resign(live.id(), row.ply, color, says_now(&mut out), now)
                .await?;
        }
        Ok(out)
    }

    /// `/draw`: offer a draw, or accept the opponent's offer (T2). The Accept draw button
    /// (`accept_only`) never makes an offer of its own.
    pub(super) async fn draw(
        &self,
        o: &Origin,
        me: &Player,
        target: Target,
        accept_only: bool,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let (mut live, color, _guard) = self.my_game_locked(o, me, target).await?;
        let lang = lang_of(o);
        // A solo has nobody to agree with.
        if super::training::is_solo(&live.game) {
            return refuse(Msg::SoloNoDraw);
        }
        match live.row.draw_offer_by {
            None if accept_only => refuse(Msg::ButtonStale),
            Some(by) if by == color.opponent() => {
                let finish = Finish::decided(None, EndCause::Agreed, "T2");
                let text = Msg::DrawAgreed { id: live.id() };
                self.end_game(&live, finish, text, now, lang).await
            }
            Some(_) => refuse(Msg::DrawAlreadyOffered),
            None => {
                let ply = live.row.ply;
                live.row.draw_offer_by = Some(color);
                let text = Msg::DrawOffered {
                    by: live.name(color).to_string(),
                    to: live.name(color.opponent()).to_string(),
                    buttons: live.chat().one_message(),
                };
                let mut out = vec![live.slot_message(text, lang)];
                self.store
                    .set_draw_offer(live.id(), ply, Some(color), says_now(&mut out), now)
                    .await?;
                Ok(out)
            }
        }
    }

    /// `/nodraw`: decline the opponent's offer.
    pub(super) async fn no_draw(
        &self,
        o: &Origin,
        me: &Player,
        target: Target,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let (mut live, color, _guard) = self.my_game_locked(o, me, target).await?;
        if live.row.draw_offer_by != Some(color.opponent()) {
            return refuse(Msg::NoDrawOffer);
        }
        live.row.draw_offer_by = None;
        let text = Msg::DrawDeclined {
            by: live.name(color).to_string(),
        };
        let mut out = vec![live.slot_message(text, lang_of(o))];
        self.store
            .set_draw_offer(live.id(), live.row.ply, None, says_now(&mut out), now)
            .await?;
        Ok(out)
    }

    /// `/abort`: void the game while both sides have not yet moved.
    pub(super) async fn abort(
        &self,
        o: &Origin,
        me: &Player,
        target: Target,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let (live, color, _guard) = self.my_game_locked(o, me, target).await?;
        if live.row.ply >= 2 {
            return refuse(Msg::AbortTooLate);
        }
        let finish = Finish::void(EndCause::Aborted, "T2");
        let text = Msg::Aborted {
            id: live.id(),
            by: live.name(color).to_string(),
        };
        self.end_game(&live, finish, text, now, lang_of(o)).await
    }

    /// `/claim`: the activity monitor (D6) — the opponent has been idle too long.
    pub(super) async fn claim(
        &self,
        o: &Origin,
        me: &Player,
        target: Target,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let (live, color, _guard) = self.my_game_locked(o, me, target).await?;
        let id = live.id();
        if !live.row.monitor {
            return refuse(Msg::NotMonitored { id });
        }
        if live.game.turn() == color {
            return refuse(Msg::ClaimOnOwnTurn);
        }
        let idler = color.opponent();
        let idle = now - live.row.turn_started_at;
        if idle < self.config.idle_limit_ms {
            return refuse(Msg::ClaimTooEarly {
                who: live.name(idler).to_string(),
                idle: Duration(idle),
                limit: Duration(self.config.idle_limit_ms),
            });
        }
        // F1: claimed idle before making a first move: the game is aborted.
        if !live.game.has_moved(idler) {
            return self.no_first_move(&live, idler, now, lang_of(o)).await;
        }
        let loser = live.name(idler).to_string();
        // More than 10 moves (half-moves played): a win; otherwise the game is annulled.
        let (mut finish, text) = if live.row.ply > 10 {
            (
                Finish::decided(Some(color), EndCause::Abandoned(idler), "D6"),
                Msg::AbandonedWin {
                    id,
                    loser,
                    winner: live.name(color).to_string(),
                },
            )
        } else {
            (
                Finish::void(EndCause::Abandoned(idler), "D6"),
                Msg::AbandonedVoid { id, loser },
            )
        };
        finish.abandoned_by = Some(live.player(idler).id);
        self.end_game(&live, finish, text, now, lang_of(o)).await
    }

    /// `/games`: the sender's unfinished games.
    pub(super) async fn games(&self, o: &Origin, me: &Player) -> Handled<Vec<Outgoing>> {
        let rows = self.store.active_games_of(me.id).await?;
        let mut lines = Vec::new();
        for g in rows.iter().filter(|g| g.platform == o.platform().as_str()) {
            let Some(live) = self.live(g.id).await? else {
                continue;
            };
            let Some(color) = live.color_of(me.id) else {
                continue;
            };
            lines.push(Msg::GamesLine {
                id: g.id,
                rules: Box::new(live.row.rules.clone()),
                opponent: live.name(color.opponent()).to_string(),
                my_turn: live.game.turn() == color,
                here: g.chat == o.chat.id,
            });
        }
        if lines.is_empty() {
            return Ok(vec![Outgoing::reply(o, Msg::GamesNone)]);
        }
        Ok(vec![Outgoing::reply(
            o,
            Msg::Lines(crate::words::capped(lines)),
        )])
    }

    /// `/record N`: the paired record of a game of this chat.
    pub(super) async fn record(
        &self,
        o: &Origin,
        me: &Player,
        number: Option<i64>,
    ) -> Handled<Vec<Outgoing>> {
        let id = match number {
            Some(n) => n,
            None => match self.pick(o, me, None).await? {
                super::live::Pick::Game(id) => id,
                // No game in play here: the one just finished, as `/review` takes it.
                super::live::Pick::None => match self
                    .store
                    .last_finished_of(o.platform().as_str(), &o.chat.id, me.id)
                    .await?
                {
                    Some(id) => id,
                    None => return refuse(Msg::NoGameHere),
                },
            },
        };
        let Some(live) = self
            .live(id)
            .await?
            .filter(|l| l.row.platform == o.platform().as_str() && l.row.chat == o.chat.id)
        else {
            return refuse(Msg::NoSuchGame { id });
        };
        let outcome = super::public::outcome(&live).map(Box::new);
        let record = |moves: String| Msg::Record {
            id,
            white: live.name(Color::White).to_string(),
            black: live.name(Color::Black).to_string(),
            rules: Box::new(live.row.rules.clone()),
            moves,
            outcome: outcome.clone(),
        };
        // The moves get what the words leave of a message, in the longest language.
        let probe = "1.";
        let words = words::Lang::all()
            .flat_map(|lang| {
                [
                    words::render(&record(probe.into()), lang),
                    words::render(
                        &Msg::RecordMore {
                            id,
                            moves: probe.into(),
                        },
                        lang,
                    ),
                ]
            })
            .map(|text| text.chars().count().saturating_sub(probe.len()))
            .max()
            .unwrap_or(0);
        let part = RECORD_MESSAGE.saturating_sub(words).max(200);
        let mut parts = record_parts(&live.game.record(), part).into_iter();
        let first = parts.next().unwrap_or_else(|| "none".into());
        let mut out = vec![Outgoing::reply(o, record(first)).in_game(id)];
        // A long game comes in several messages, each well under every platform's limit.
        out.extend(
            parts.map(|moves| Outgoing::reply(o, Msg::RecordMore { id, moves }).in_game(id)),
        );
        // Its page, with the board at every move, the PDN and the replay.
        if let Some(line) = self.page_line(&live.row) {
            out.push(Outgoing::reply(o, line).in_game(id));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(id: &str) -> (bool, bool, bool, Option<u16>, Option<u16>) {
        match rules_text(Some(id)).expect("a variant") {
            Msg::RulesCorners {
                no_blocking,
                home_exemption,
                target_lock,
                deadline,
                limit,
                ..
            } => (no_blocking, home_exemption, target_lock, deadline, limit),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_long_record_is_cut_at_move_numbers() {
        let record: Vec<String> = (1..=600)
            .map(|n| format!("{n}. c3-d3-e3-f3 f6-e6-d6-c6"))
            .collect();
        let record = record.join(" ");
        let parts = record_parts(&record, RECORD_MESSAGE);
        assert!(parts.len() > 1);
        for p in &parts {
            assert!(p.len() <= RECORD_MESSAGE, "{}", p.len());
            assert!(p.split(' ').next().unwrap().ends_with('.'), "{p}");
        }
        assert_eq!(parts.join(" "), record);
        assert!(record_parts("", RECORD_MESSAGE).is_empty());
    }

    /// C6, C8, C10: `/rules` states every rule the variant has, from its own settings.
    #[test]
    fn c10_rules_text_reads_the_variant() {
        assert_eq!(
            flags("classic3x3"),
            (true, false, false, Some(40), Some(80))
        );
        assert_eq!(
            flags("diagonal3x3"),
            (false, true, false, Some(30), Some(80))
        );
        assert_eq!(flags("halma16"), (false, true, true, Some(60), Some(200)));
        assert_eq!(
            flags("training:diagonal3x3,deadline=off,limit=off"),
            (false, false, false, None, None)
        );
        let text = words::english(&rules_text(Some("halma16")).expect("halma16"));
        assert!(text.contains("never leave it (C10)"), "{text}");
        assert!(
            text.contains("does not count against the deadline"),
            "{text}"
        );
        assert!(
            text.contains("by move 60") && text.contains("After move 200"),
            "{text}"
        );
        assert!(matches!(
            rules_text(Some("nonsense")),
            Err(Msg::VariantUnknown { .. })
        ));
    }
}
