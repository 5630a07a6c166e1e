//! What the public web pages show of a game: the players' names as the chat shows them,
//! the rules, the moves, the clocks and the result — nothing of the chat it is played in
//! (no chat or platform id). Only games of groups and their topics are public: those are
//! played in front of others already; a game in a private chat or on one inline message is
//! its players' own, and is not shown.

use super::bot::{positions, MAX_REVIEW_PLIES};
use super::live::Live;
use super::{BoardSpec, ChartSpec, ChatKind, Picture, ReplaySpec, Table};
use crate::color::Color;
use crate::game::{EndCause, Game, Rules};
use crate::rating::{month_of, RatingKind};
use crate::store::{GameRow, StoreError};
use crate::words::Msg;

/// A public game as it stands.
#[derive(Clone, Debug)]
pub struct PublicGame {
    pub id: i64,
    pub white: String,
    pub black: String,
    /// The players' numbers in the store, for the links to their pages.
    pub white_id: i64,
    pub black_id: i64,
    pub rules: Rules,
    pub time_control: String,
    pub rated: bool,
    /// Each ply's move, as the record writes it.
    pub moves: Vec<String>,
    /// Still being played.
    pub active: bool,
    /// The side to move, and its legal moves now as (from, to, the move as typed), for a
    /// board a player clicks (none once over). The server plays only what it finds legal
    /// when the move comes; this list is what a page offers.
    pub turn: Color,
    pub legal: Vec<(String, String, String)>,
    /// The position now, as a board a page draws itself (pieces, homes, the last move).
    pub board: crate::view::BoardView,
    /// The status line (move, clocks, deadline and limit, who is to move) while it runs.
    pub status: Msg,
    /// How it ended: a [`Msg::RecordResult`].
    pub outcome: Option<Msg>,
    /// The record as PDN: tags (event, players, result, game type) and the moves.
    pub pdn: String,
    /// The board after each ply can be drawn for plies `first_ply..=moves.len()` (the
    /// replay keeps the last [`MAX_REVIEW_PLIES`]).
    pub first_ply: i64,
    /// The game's own buttons now (resign, the draw offer's, abort while allowed), as the
    /// board in the chat has them: a page offers the same actions to the players.
    pub actions: Vec<super::Action>,
    /// The side whose draw offer waits for an answer.
    pub draw_offer_by: Option<Color>,
    takebacks: i64,
    /// Per ply from `first_ply`: (move number, deadline, limit, side to move).
    at: Vec<(u32, Option<u16>, Option<u16>, Color)>,
    clocks: Option<(i64, i64)>,
}

impl PublicGame {
    /// What the board after `ply` plies shows beside it: (move number, deadline, limit,
    /// side to move); `None` before what the replay keeps.
    fn at_ply(&self, ply: i64) -> Option<(u32, Option<u16>, Option<u16>, Color)> {
        let i = usize::try_from(ply - self.first_ply).ok()?;
        self.at.get(i).copied()
    }

    /// Its pages' title: the game and its players.
    #[must_use]
    pub fn title(&self) -> Msg {
        Msg::WebGameTitle {
            id: self.id,
            white: self.white.clone(),
            black: self.black.clone(),
        }
    }

    /// Each side's time left (ms, White's first) now, on a clock that runs.
    #[must_use]
    pub fn clocks(&self) -> Option<(i64, i64)> {
        self.clocks.filter(|_| self.active)
    }

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
        let (move_no, deadline, limit, turn) =
            self.at_ply(ply).unwrap_or((1, None, None, Color::White));
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
            // (A page's board is drawn by the process serving it, from its own game.)
            last_move: None,
        })
    }

    /// The status line of the board after `ply` plies (clamped): the game's own on the
    /// latest; on an earlier one, that ply's move, deadline, limit and side to move (the
    /// clocks of then are not kept).
    #[must_use]
    pub fn status_at(&self, ply: i64) -> Msg {
        let ply = self.clamp(ply);
        if ply == self.plies() {
            return self.status.clone();
        }
        let Some((move_no, deadline, limit, turn)) = self.at_ply(ply) else {
            return self.status.clone();
        };
        let to_move = match turn {
            Color::White => self.white.clone(),
            Color::Black => self.black.clone(),
        };
        Msg::Status {
            move_no,
            clocks: None,
            deadline,
            limit,
            to_move,
        }
    }

    /// The result once over; else the status line without the clocks, for a page that
    /// shows them apart, counting down (still figures beside them would disagree).
    #[must_use]
    pub fn line_beside_clocks(&self) -> Msg {
        let mut line = self.outcome.clone().unwrap_or_else(|| self.status.clone());
        if let Msg::Status { clocks, .. } = &mut line {
            *clocks = None;
        }
        line
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
        self.game_view(id, None).await
    }

    /// Game `id` as its player `player` (their number in the store) sees it on the board
    /// page: a game of any chat, theirs or public; `None` when it is neither.
    pub async fn player_game(
        &self,
        id: i64,
        player: i64,
    ) -> Result<Option<PublicGame>, StoreError> {
        self.game_view(id, Some(player)).await
    }

    /// The view of game `id` when it is public, or `player`'s.
    async fn game_view(
        &self,
        id: i64,
        player: Option<i64>,
    ) -> Result<Option<PublicGame>, StoreError> {
        let Some(live) = self.live(id).await? else {
            return Ok(None);
        };
        let public = ChatKind::parse(&live.row.chat_kind).is_some_and(ChatKind::is_group);
        let theirs = player.is_some_and(|p| p == live.row.white_id || p == live.row.black_id);
        if !public && !theirs {
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
            white_id: live.row.white_id,
            black_id: live.row.black_id,
            rules: live.row.rules.clone(),
            time_control: live.row.time_control.clone(),
            rated: live.row.rated,
            moves: live.game.move_texts(),
            active: live.active(),
            turn: live.game.turn(),
            board: {
                let mut b = crate::view::BoardView::of_game(&live.game);
                if !live.active() {
                    b.no_turn();
                }
                b
            },
            legal: if live.active() {
                legal(&live.game)
            } else {
                Vec::new()
            },
            actions: if live.active() {
                live.game_buttons()
            } else {
                Vec::new()
            },
            draw_offer_by: live.row.draw_offer_by.filter(|_| live.active()),
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

/// Each legal move as (its first square, its last, the move as typed): `c3-e3-e5` goes from
/// c3 to e5, `c3xe5xc7` from c3 to c7.
fn legal(game: &Game) -> Vec<(String, String, String)> {
    game.legal_move_texts()
        .into_iter()
        .filter_map(|m| {
            let mut squares = m.split(['-', 'x']);
            let from = squares.next()?.to_string();
            let to = squares.next_back().unwrap_or(&from).to_string();
            Some((from, to, m))
        })
        .collect()
}

/// How a finished game ended, as `/record` says it.
pub(super) fn outcome(live: &Live) -> Option<Msg> {
    outcome_of(&live.row, live.name(Color::White), live.name(Color::Black))
}

/// How the game of `row` ended, its players named `white` and `black`.
fn outcome_of(row: &GameRow, white: &str, black: &str) -> Option<Msg> {
    row.result.map(|result| {
        let name = match result.winner() {
            Some(Color::White) => white,
            Some(Color::Black) => black,
            None => "",
        };
        Msg::RecordResult {
            result: result.code().into(),
            name: name.to_string(),
            cause: row.end_reason.as_deref().and_then(EndCause::from_code),
        }
    })
}

/// The record as PDN, with the table's result (a resignation or a flag is a result the
/// rules alone do not know). Damas writes its own (Portuguese numbers, `GameType 24`);
/// Corners has no PDN game type of its own, so its tags name the variant instead.
fn pdn(live: &Live) -> String {
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
    let variant = live.row.rules.id();
    let mut tags = vec![("Variant", variant.as_str())];
    if let Some(p) = &live.row.start_position {
        tags.push(("FEN", p));
    }
    crate::notation::pdn(white, black, result, &tags, &live.game.record())
}

/// A leaderboard as the public page shows it: its heading and its lines, each with the
/// player's number for the link to their page.
#[derive(Clone, Debug)]
pub struct PublicBoard {
    /// A [`Msg::TopScope`].
    pub scope: Msg,
    /// (player, a [`Msg::TopLine`]).
    pub lines: Vec<(i64, Msg)>,
}

/// A player as the public pages show them: the name, the ratings, the charts, the newest
/// games of groups.
#[derive(Clone, Debug)]
pub struct PublicPlayer {
    pub id: i64,
    pub name: String,
    /// [`Msg::RatingLine`]s, the most played kind first.
    pub ratings: Vec<Msg>,
    /// The rating chart of each kind with rated games.
    pub charts: Vec<(RatingKind, Picture)>,
    /// (game, a [`Msg::WebGameLine`]), newest first.
    pub games: Vec<(i64, Msg)>,
}

/// Lines a public leaderboard shows at most.
pub const TOP_LINES: i64 = 20;
/// Games a player's page lists at most.
pub const PLAYER_GAMES: i64 = 20;

impl Table {
    /// Every kind's leaderboard over the whole bot, all time and this month, as `/top …
    /// global` has them (the empty ones left out).
    pub async fn public_top(&self) -> Result<Vec<PublicBoard>, StoreError> {
        let month = month_of(self.now());
        let mut out = Vec::new();
        for kind in RatingKind::ALL {
            for monthly in [false, true] {
                let m = monthly.then_some(month.as_str());
                let top = self.store.top(kind, m, None, TOP_LINES).await?;
                if top.is_empty() {
                    continue;
                }
                let values: Vec<i64> = top.iter().map(|s| s.on_board(monthly).0).collect();
                let places = super::leaderboard::shared_places(&values);
                let lines = top
                    .iter()
                    .zip(places)
                    .map(|(s, place)| {
                        let (rating, games) = s.on_board(monthly);
                        let line = Msg::TopLine {
                            place,
                            name: s.name.clone(),
                            rating,
                            games,
                        };
                        (s.player_id, line)
                    })
                    .collect();
                out.push(PublicBoard {
                    scope: Msg::TopScope {
                        kind,
                        month: monthly.then(|| month.clone()),
                        global: true,
                    },
                    lines,
                });
            }
        }
        Ok(out)
    }

    /// Player `id` as the public pages show them; `None` when there is no such player.
    pub async fn public_player(&self, id: i64) -> Result<Option<PublicPlayer>, StoreError> {
        let Some(player) = self.store.player(id).await? else {
            return Ok(None);
        };
        let month = month_of(self.now());
        let mut ratings = Vec::new();
        let mut charts = Vec::new();
        for s in self.store.standings(id, &month).await? {
            ratings.push(self.rating_line(&s, &month).await?);
            let title = Msg::ChartTitle {
                name: player.name.clone(),
                kind: s.kind,
            };
            let spec = ChartSpec {
                player: id,
                kind: s.kind,
                title,
            };
            charts.push((s.kind, Picture::Chart(spec)));
        }
        let mut names = std::collections::HashMap::from([(id, player.name.clone())]);
        let mut games = Vec::new();
        for row in self.store.public_games_of(id, PLAYER_GAMES).await? {
            for p in [row.white_id, row.black_id] {
                if let std::collections::hash_map::Entry::Vacant(e) = names.entry(p) {
                    let name = self.store.player(p).await?.map(|p| p.name);
                    e.insert(name.unwrap_or_default());
                }
            }
            let (white, black) = (names[&row.white_id].clone(), names[&row.black_id].clone());
            let outcome = outcome_of(&row, &white, &black).map(Box::new);
            let line = Msg::WebGameLine {
                id: row.id,
                white,
                black,
                rules: Box::new(row.rules.clone()),
                outcome,
            };
            games.push((row.id, line));
        }
        Ok(Some(PublicPlayer {
            id,
            name: player.name,
            ratings,
            charts,
            games,
        }))
    }
}

impl Table {
    /// The pages' address, without a trailing `/`, when they are served.
    pub(super) fn pages(&self) -> Option<&str> {
        self.config
            .web_url
            .as_deref()
            .map(|u| u.trim_end_matches('/'))
    }

    /// The line that links the game of `row` to its page, when the pages are served and
    /// the game is public.
    pub(super) fn page_line(&self, row: &GameRow) -> Option<Msg> {
        page_line_at(self.pages(), row)
    }

    /// The line that links the leaderboards' page, when the pages are served.
    pub(super) fn top_line(&self) -> Option<Msg> {
        let base = self.pages()?;
        Some(Msg::WebTopAt {
            url: format!("{base}/top"),
        })
    }
}

/// The line that links the game of `row` to its page at `base`, if it is public.
pub(super) fn page_line_at(base: Option<&str>, row: &GameRow) -> Option<Msg> {
    let public = ChatKind::parse(&row.chat_kind).is_some_and(ChatKind::is_group);
    let base = base.filter(|_| public)?;
    Some(Msg::WebGameAt {
        url: format!("{base}/g/{}", row.id),
    })
}

/// `text`, and `line` under it when there is one.
pub(super) fn and_line(text: Msg, line: Option<Msg>) -> Msg {
    match (text, line) {
        (text, None) => text,
        (Msg::Lines(mut lines), Some(line)) => {
            lines.push(line);
            Msg::Lines(lines)
        }
        (text, Some(line)) => Msg::Lines(vec![text, line]),
    }
}
