//! What the public web pages show of a game: the players' names as the chat shows them,
//! the rules, the moves, the clocks and the result — nothing of the chat it is played in
//! (no chat or platform id). Only games of groups and their topics are public: those are
//! played in front of others already; a game in a private chat or on one inline message is
//! its players' own, and is not shown.

use super::bot::{positions, MAX_REVIEW_PLIES};
use super::live::Live;
use super::{BoardSpec, ChatKind, Picture, ReplaySpec, Table};
use crate::color::Color;
use crate::game::{EndCause, Game, Rules};
use crate::store::StoreError;
use crate::words::Msg;

/// A public game as it stands.
#[derive(Clone, Debug)]
pub struct PublicGame {
    pub id: i64,
    pub white: String,
    pub black: String,
    pub rules: Rules,
    pub time_control: String,
    pub rated: bool,
    /// Each ply's move, as the record writes it.
    pub moves: Vec<String>,
    /// Still being played.
    pub active: bool,
    /// The status line (move, clocks, deadline and limit, who is to move) while it runs.
    pub status: Msg,
    /// How it ended: a [`Msg::RecordResult`].
    pub outcome: Option<Msg>,
    /// The record as PDN: tags (event, players, result, game type) and the moves.
    pub pdn: String,
    /// The board after each ply can be drawn for plies `first_ply..=moves.len()` (the
    /// replay keeps the last [`MAX_REVIEW_PLIES`]).
    pub first_ply: i64,
    takebacks: i64,
    /// Per ply from `first_ply`: (move number, deadline, limit, side to move).
    at: Vec<(u32, Option<u16>, Option<u16>, Color)>,
    clocks: Option<(i64, i64)>,
}

impl PublicGame {
    /// The plies played.
    #[must_use]
    pub fn plies(&self) -> i64 {
        i64::try_from(self.moves.len()).unwrap_or(i64::MAX)
    }

    /// `ply` as a board can show it: within `first_ply..=plies`.
    #[must_use]
    pub fn clamp(&self, ply: i64) -> i64 {
        ply.clamp(self.first_ply, self.plies())
    }

    /// The board after `ply` plies (clamped), from White's side: the clocks and the side to
    /// move on the latest, the result once over.
    #[must_use]
    pub fn board(&self, ply: i64) -> Picture {
        let ply = self.clamp(ply);
        let latest = ply == self.plies();
        let i = usize::try_from(ply - self.first_ply).unwrap_or(0);
        let (move_no, deadline, limit, turn) =
            self.at
                .get(i)
                .copied()
                .unwrap_or((1, None, None, Color::White));
        let info = match &self.outcome {
            Some(o) if latest => o.clone(),
            _ => Msg::BoardInfo {
                move_no,
                deadline,
                limit,
            },
        };
        Picture::Board(BoardSpec {
            game: self.id,
            ply,
            takebacks: self.takebacks,
            names: (self.white.clone(), self.black.clone()),
            flip: false,
            selected: None,
            clocks: self.clocks.filter(|_| latest),
            to_move: (latest && self.active).then_some(turn),
            info,
        })
    }

    /// The animated replay of the game.
    #[must_use]
    pub fn replay(&self) -> Picture {
        Picture::Replay(ReplaySpec { game: self.id })
    }
}

impl Table {
    /// Game `id` as the public pages show it; `None` when there is no such game, or it is
    /// not public (see the module's words).
    pub async fn public_game(&self, id: i64) -> Result<Option<PublicGame>, StoreError> {
        let Some(live) = self.live(id).await? else {
            return Ok(None);
        };
        let public = ChatKind::parse(&live.row.chat_kind).is_some_and(ChatKind::is_group);
        if !public {
            return Ok(None);
        }
        let now = self.now();
        let (first, games) = positions(
            &live.row.rules,
            live.row.start_position.as_deref(),
            &live.game,
            MAX_REVIEW_PLIES,
        )
        .map_err(|_| StoreError::Corrupt(format!("game {id} does not replay")))?;
        let at = games
            .iter()
            .map(|g| {
                let (deadline, limit) = g.deadline_and_limit();
                (g.move_number(), deadline, limit, g.turn())
            })
            .collect();
        Ok(Some(PublicGame {
            id,
            white: live.name(Color::White).to_string(),
            black: live.name(Color::Black).to_string(),
            rules: live.row.rules.clone(),
            time_control: live.row.time_control.clone(),
            rated: live.row.rated,
            moves: live.game.move_texts(),
            active: live.active(),
            status: live.status(now),
            outcome: outcome(&live),
            pdn: pdn(&live),
            first_ply: i64::try_from(first).unwrap_or(0),
            takebacks: live.row.takebacks,
            at,
            clocks: live.clocks_ms(now),
        }))
    }
}

/// How a finished game ended, as `/record` says it.
pub(super) fn outcome(live: &Live) -> Option<Msg> {
    live.row.result.map(|result| {
        let name = result
            .winner()
            .map(|c| live.name(c).to_string())
            .unwrap_or_default();
        Msg::RecordResult {
            result: result.code().into(),
            name,
            cause: live.row.end_reason.as_deref().and_then(EndCause::from_code),
        }
    })
}

/// The record as PDN, with the table's result (a resignation or a flag is a result the
/// rules alone do not know). Damas writes its own (Portuguese numbers, `GameType 24`);
/// Corners has no PDN game type of its own, so its tags name the variant instead.
fn pdn(live: &Live) -> String {
    use std::fmt::Write as _;
    let result = match live.row.result.map(|r| (r.code(), r.winner())) {
        Some((_, Some(Color::White))) => "1-0",
        Some((_, Some(Color::Black))) => "0-1",
        Some(("draw", None)) => "1/2-1/2",
        _ => "*",
    };
    let (white, black) = (live.name(Color::White), live.name(Color::Black));
    if let Game::Damas(g) = &live.game {
        return g.pdn_with_result(white, black, result);
    }
    let clean = |s: &str| s.replace(['"', '\\', '\n', '\r'], "");
    let mut out = String::new();
    let _ = writeln!(out, "[Event \"ugolki\"]");
    let _ = writeln!(out, "[White \"{}\"]", clean(white));
    let _ = writeln!(out, "[Black \"{}\"]", clean(black));
    let _ = writeln!(out, "[Result \"{result}\"]");
    let _ = writeln!(out, "[Variant \"{}\"]", live.row.rules.id());
    if let Some(p) = &live.row.start_position {
        let _ = writeln!(out, "[FEN \"{}\"]", clean(p));
    }
    let moves = live.game.record();
    let sep = if moves.is_empty() { "" } else { " " };
    let _ = writeln!(out, "{moves}{sep}{result}");
    out
}
