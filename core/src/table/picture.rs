//! Pictures as specs: a reply names the picture it carries — a game's board at a ply, seen
//! from one side with its marks; a player's rating chart; a game's replay — and it is drawn
//! only when the reply is sent ([`Table::draw_picture`]), so the outbox never holds board bytes and
//! a board overtaken before it is sent is never drawn at all.

use super::bot::{positions, MAX_REVIEW_PLIES};
use super::live::Live;
use super::Table;
use crate::clock::TimeControl;
use crate::color::Color;
use crate::game::Game;
use crate::rating::RatingKind;
use crate::square::Square;
use crate::store::StoreError;
use crate::view::{BoardView, ChartView, StandingsView};
use crate::words::{render, Code, Lang, Msg};
use serde_json::{json, Value};

/// The picture a reply carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Picture {
    Board(BoardSpec),
    Chart(ChartSpec),
    Replay(ReplaySpec),
    Standings(StandingsSpec),
}

/// A game's board after `ply` plies of the line `takebacks` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSpec {
    pub game: i64,
    pub ply: i64,
    pub takebacks: i64,
    /// The players' names, White's then Black's, as the board's header shows them.
    pub names: (String, String),
    /// Seen from Black: turned, Black's home at the bottom.
    pub flip: bool,
    /// A picked piece, its destinations marked.
    pub selected: Option<Square>,
    /// Time left for White and Black when the reply was made (none without a clock).
    pub clocks: Option<(i64, i64)>,
    /// The side marked to move (none once the game is over).
    pub to_move: Option<Color>,
    /// The header's second line: the move number, deadline and limit, or the result.
    pub info: Msg,
    /// The move that made this ply, as recorded (the board's arrow): a process that knows
    /// the game one ply before plays it, rather than reading the game from the store.
    pub last_move: Option<String>,
}

/// A player's general rating over their rated games of a kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartSpec {
    pub player: i64,
    pub kind: RatingKind,
    pub title: Msg,
}

/// A finished game replayed, one board per position (its last [`MAX_REVIEW_PLIES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplaySpec {
    pub game: i64,
}

/// A tournament's standings as they stand when the reply is sent, under `title`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingsSpec {
    pub tournament: i64,
    pub title: Msg,
}

/// A picture drawn as data, for the renderer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PictureView {
    Board(Box<BoardView>),
    Chart(ChartView),
    Replay(Vec<BoardView>),
    Standings(StandingsView),
}

/// Why a picture cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    /// What it shows no longer exists (the game is gone, or a takeback undid that line).
    #[error("the picture's game or line is gone")]
    Gone,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Picture {
    /// The spec as stored (JSON).
    #[must_use]
    pub fn to_json(&self) -> Value {
        match self {
            Picture::Board(b) => json!({
                "board": b.game, "ply": b.ply, "takebacks": b.takebacks,
                "names": [b.names.0, b.names.1], "flip": b.flip,
                "selected": b.selected.encode(), "clocks": b.clocks.map(|(w, b)| vec![w, b]),
                "to_move": b.to_move.encode(), "info": b.info.to_json(), "last": b.last_move,
            }),
            Picture::Chart(c) => json!({
                "chart": c.player, "kind": c.kind.encode(), "title": c.title.to_json(),
            }),
            Picture::Replay(r) => json!({ "replay": r.game }),
            Picture::Standings(t) => {
                json!({ "standings": t.tournament, "title": t.title.to_json() })
            }
        }
    }

    /// Read a stored spec; `None` if this version cannot.
    #[must_use]
    pub fn from_json(v: &Value) -> Option<Picture> {
        if let Some(game) = v.get("board").and_then(Value::as_i64) {
            let clocks = match v.get("clocks")? {
                Value::Null => None,
                c => match c.as_array()?.as_slice() {
                    [w, b] => Some((w.as_i64()?, b.as_i64()?)),
                    _ => return None,
                },
            };
            let names = match v.get("names")?.as_array()?.as_slice() {
                [w, b] => (w.as_str()?.to_string(), b.as_str()?.to_string()),
                _ => return None,
            };
            return Some(Picture::Board(BoardSpec {
                game,
                ply: v.get("ply")?.as_i64()?,
                takebacks: v.get("takebacks")?.as_i64()?,
                names,
                flip: v.get("flip")?.as_bool()?,
                selected: Code::decode(v.get("selected")?)?,
                clocks,
                to_move: Code::decode(v.get("to_move")?)?,
                info: Msg::from_json(v.get("info")?)?,
                // (Absent from rows written before it: drawn from the store.)
                last_move: match v.get("last") {
                    None | Some(Value::Null) => None,
                    Some(m) => Some(m.as_str()?.to_string()),
                },
            }));
        }
        if let Some(player) = v.get("chart").and_then(Value::as_i64) {
            return Some(Picture::Chart(ChartSpec {
                player,
                kind: Code::decode(v.get("kind")?)?,
                title: Msg::from_json(v.get("title")?)?,
            }));
        }
        if let Some(tournament) = v.get("standings").and_then(Value::as_i64) {
            return Some(Picture::Standings(StandingsSpec {
                tournament,
                title: Msg::from_json(v.get("title")?)?,
            }));
        }
        let game = v.get("replay")?.as_i64()?;
        Some(Picture::Replay(ReplaySpec { game }))
    }

    /// The board's spec, if this is a board.
    #[must_use]
    pub fn board(&self) -> Option<&BoardSpec> {
        match self {
            Picture::Board(b) => Some(b),
            _ => None,
        }
    }
}

/// The game of `spec` from the game `game` at `ply` plies of the spec's line: itself when
/// it is there (not played: false), or with the spec's last move played when it is one ply
/// before (played: true); `None` otherwise, or when that move does not play.
fn one_move_on(ply: i64, mut game: Game, spec: &BoardSpec) -> Option<(Game, bool)> {
    if ply == spec.ply {
        return Some((game, false));
    }
    let last = spec.last_move.as_deref().filter(|_| ply + 1 == spec.ply)?;
    game.play_text(last).ok()?;
    Some((game, true))
}

impl Live {
    /// The spec of this game's board as it stands, seen from `viewer`; `result` replaces
    /// the move line once the game is over.
    pub(super) fn board_spec(&self, viewer: Color, now: i64, result: Option<&Msg>) -> BoardSpec {
        let (deadline, limit) = self.game.deadline_and_limit();
        BoardSpec {
            game: self.id(),
            ply: self.row.ply,
            takebacks: self.row.takebacks,
            names: (self.white.name.clone(), self.black.name.clone()),
            flip: viewer == Color::Black,
            selected: None,
            clocks: self.clocks_ms(now),
            to_move: (result.is_none() && self.active()).then(|| self.game.turn()),
            info: result.cloned().unwrap_or(Msg::BoardInfo {
                move_no: self.game.move_number(),
                deadline,
                limit,
            }),
            last_move: self.game.last_move_text(),
        }
    }
}

impl Table {
    /// Draw a picture for a reader of `lang`, from the store as it is now.
    pub async fn draw_picture(
        &self,
        picture: &Picture,
        lang: Lang,
    ) -> Result<PictureView, DrawError> {
        match picture {
            Picture::Board(b) => self
                .draw_board(b, lang)
                .await
                .map(|v| PictureView::Board(Box::new(v))),
            Picture::Chart(c) => {
                let history = self.store.rating_history(c.player, c.kind).await?;
                let Some(first) = history.first() else {
                    return Err(DrawError::Gone);
                };
                // The rating before the first game, then after each.
                let points = std::iter::once(first.0)
                    .chain(history.iter().map(|h| h.1))
                    .collect();
                // Games as the rating counts them: a penalty (D6) is a point of the line,
                // not a game.
                let month = crate::rating::month_of(self.now());
                let standings = self.store.standings(c.player, &month).await?;
                let games = standings.iter().find(|s| s.kind == c.kind).map_or_else(
                    || i64::try_from(history.len()).unwrap_or(i64::MAX),
                    |s| s.games,
                );
                let footer = Msg::ChartFooter {
                    games,
                    rating: history.last().map_or(first.0, |h| h.1),
                };
                Ok(PictureView::Chart(ChartView {
                    title: render(&c.title, lang),
                    points,
                    footer: render(&footer, lang),
                }))
            }
            Picture::Replay(r) => self
                .draw_replay(r.game, lang)
                .await
                .map(PictureView::Replay),
            Picture::Standings(t) => self
                .draw_standings(t.tournament, &t.title, lang)
                .await
                .map(PictureView::Standings),
        }
    }

    async fn draw_board(&self, b: &BoardSpec, lang: Lang) -> Result<BoardView, DrawError> {
        // The usual case: the game stands where the board shows it, replayed in memory; or
        // one ply before (the move was committed by another process), and the spec's move
        // is played here.
        let cached = super::lock(&self.cache)
            .get(&b.game)
            .filter(|(ply, takebacks, _)| {
                *takebacks == b.takebacks && (*ply == b.ply || *ply + 1 == b.ply)
            })
            .map(|(ply, _, g)| (*ply, g.clone()));
        let here = cached.and_then(|(ply, g)| one_move_on(ply, g, b));
        let game = if let Some((g, played)) = here {
            // A running game's new ply is kept, unless a newer one was meanwhile (the next
            // move here finds it without reading the store either).
            if played && b.to_move.is_some() {
                let mut cache = super::lock(&self.cache);
                if let Some(c) = cache.get_mut(&b.game) {
                    if c.1 == b.takebacks && c.0 < b.ply {
                        *c = (b.ply, b.takebacks, g.clone());
                    }
                }
            }
            g
        } else {
            let live = self.live(b.game).await?.ok_or(DrawError::Gone)?;
            self.game_at(&live, b.ply, b.takebacks).await?
        };
        let mut view = BoardView::of_game(&game);
        view.flip = b.flip;
        view.white.clone_from(&b.names.0);
        view.black.clone_from(&b.names.1);
        view.white_clock_ms = b.clocks.map(|c| c.0);
        view.black_clock_ms = b.clocks.map(|c| c.1);
        view.to_move = b.to_move;
        if b.to_move.is_none() {
            view.no_turn();
        }
        view.info = render(&b.info, lang);
        if let Some(square) = b.selected {
            view.selected = Some(square);
            view.destinations = game.destinations(square);
        }
        Ok(view)
    }

    /// The game of `live` after `ply` plies of line `takebacks`: the game itself when it
    /// stands there, else replayed from the store.
    async fn game_at(&self, live: &Live, ply: i64, takebacks: i64) -> Result<Game, DrawError> {
        if live.row.takebacks != takebacks || ply > live.row.ply || ply < 0 {
            return Err(DrawError::Gone);
        }
        if ply == live.row.ply {
            return Ok(live.game.clone());
        }
        let id = live.id();
        let mut g = match &live.row.start_position {
            Some(p) => Game::from_text(&live.row.rules, p)
                .map_err(|e| StoreError::Corrupt(format!("game {id}: {e}")))?,
            None => Game::new(&live.row.rules),
        };
        for text in self.store.moves_between(id, 0, ply).await? {
            g.play_text(&text)
                .map_err(|e| StoreError::Corrupt(format!("game {id}: {e:?}")))?;
        }
        Ok(g)
    }

    async fn draw_replay(&self, game: i64, lang: Lang) -> Result<Vec<BoardView>, DrawError> {
        let live = self.live(game).await?.ok_or(DrawError::Gone)?;
        let (_, games) = positions(
            &live.row.rules,
            live.row.start_position.as_deref(),
            &live.game,
            MAX_REVIEW_PLIES,
        )
        .map_err(|_| StoreError::Corrupt(format!("game {game} does not replay")))?;
        let at = live.row.finished_at.unwrap_or(live.row.turn_started_at);
        // The last frame of a game over says how it ended, not the move after its last.
        let result = super::public::outcome(&live);
        let last = games.len().saturating_sub(1);
        Ok(games
            .into_iter()
            .enumerate()
            .map(|(i, g)| {
                Live {
                    game: g,
                    row: live.row.clone(),
                    white: live.white.clone(),
                    black: live.black.clone(),
                    control: live.control,
                }
                .view(
                    Color::White,
                    at,
                    result.as_ref().filter(|_| i == last),
                    lang,
                )
            })
            .collect())
    }
}

/// Whether a game has a clock (its boards start one when delivered).
pub(super) fn timed(control: TimeControl) -> bool {
    !matches!(control, TimeControl::Unlimited)
}
