//! Tournaments in a chat: `/tournament` makes one (a group's admins; anyone on the
//! console), players `/join` and `/withdraw` (or press the buttons of its announcement, a
//! living message that shows who has joined), `/standings` shows where it stands. Its start,
//! pairings, rounds and end are timers of the store, worked out in `tick.rs`. Its games are
//! the table's ordinary games.

mod parse;
mod scores;
mod tick;

pub use parse::{parse, TournamentCommand, TournamentSpec};

use super::action::Action;
use super::outbox::Later;
use super::picture::{DrawError, Picture, StandingsSpec};
use super::timers::Key;
use super::types::{lang_of, ChatKind, ChatRef, Origin, Outgoing, Platform, Slot};
use super::{lock, refuse, GameGuard, Handled, Table};
use crate::clock::TimeControl;
use crate::game::Rules;
use crate::rating::RatingKind;
use crate::store::{
    Created, EntrantRow, Joined, NewTournament, Player, StoreError, TournamentRow, TournamentStatus,
};
use crate::tournament::{Format, MAX_PLAYERS, MAX_ROUND_ROBIN};
use crate::view::{StandingsRow, StandingsView};
use crate::words::{render, Lang, Msg};
use scores::Field;
use std::fmt::Write as _;

/// Lines a standings message shows beside its picture (which has them all).
const PODIUM: usize = 3;

/// Names the announcement lists at most (the rest are counted).
const CARD_NAMES: usize = 30;

/// The chat a tournament is played in.
fn chat_of(t: &TournamentRow) -> ChatRef {
    ChatRef::new(
        Platform::parse(&t.platform).unwrap_or(Platform::Console),
        t.chat_id.clone(),
        ChatKind::parse(&t.chat_kind).unwrap_or(ChatKind::Group),
    )
}

/// `18:05 UTC`: a start within a day.
fn clock_text(at: i64) -> String {
    let minutes = at.div_euclid(60_000).rem_euclid(24 * 60);
    format!("{:02}:{:02} UTC", minutes / 60, minutes % 60)
}

/// The announcement as it stands: what, when, who has joined, and the buttons that still
/// do something.
fn card(t: &TournamentRow, entrants: &[EntrantRow], lang: Lang) -> Outgoing {
    let joined: Vec<&EntrantRow> = entrants.iter().filter(|e| !e.withdrawn).collect();
    let mut players = joined
        .iter()
        .take(CARD_NAMES)
        .map(|e| e.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    if joined.len() > CARD_NAMES {
        let _ = write!(players, ", … +{}", joined.len() - CARD_NAMES);
    }
    let text = Msg::TournamentCard {
        id: t.id,
        terms: Box::new(Msg::TournamentTerms {
            id: t.id,
            format: t.format.code().into(),
            rules: Box::new(t.rules.clone()),
            time: TimeControl::parse(&t.time_control).unwrap_or(TimeControl::Unlimited),
            rated: t.rated,
            rounds: t.rounds,
            minutes: t.length_ms.map(|ms| ms / 60_000),
        }),
        status: t.status.code().into(),
        starts: clock_text(t.starts_at),
        count: joined.len(),
        players,
    };
    let tournament = t.id;
    let buttons = match (t.status, t.format) {
        (TournamentStatus::Open, _)
        | (TournamentStatus::Running, Format::Arena | Format::Swiss) => {
            vec![Action::Join { tournament }, Action::Withdraw { tournament }]
        }
        (TournamentStatus::Running, Format::RoundRobin) => vec![Action::Withdraw { tournament }],
        _ => Vec::new(),
    };
    Outgoing::to_chat(&chat_of(t), text)
        .in_lang(lang)
        .editing(Slot::Tournament(t.id))
        .with_actions(buttons)
}

/// The rating kind a tournament's games count for (and seed by).
fn kind_of(rules: &Rules) -> Option<RatingKind> {
    RatingKind::of_rules(rules)
}

impl Table {
    /// `/tournament …`.
    pub(super) async fn tournament_command(
        &self,
        o: &Origin,
        me: &Player,
        c: TournamentCommand,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        match c {
            TournamentCommand::Usage => Ok(vec![Outgoing::reply(o, Msg::TournamentUsage)]),
            TournamentCommand::Create(spec) => self.create_tournament(o, me, spec, now).await,
            TournamentCommand::Start => self.start_tournament(o, me, now).await,
            TournamentCommand::Cancel => self.cancel_tournament(o, me, now).await,
        }
    }

    /// Take tournament `id`'s lock: this process's own, then the store's.
    async fn tournament_lock(&self, id: i64) -> Result<GameGuard, StoreError> {
        // Games have positive ids in the same map: a tournament's key is its negative.
        let local = self.local_lock(-id).await;
        let shared = self.store.lock_tournament(id).await?;
        Ok(GameGuard {
            _shared: shared,
            _local: local,
        })
    }

    /// The chat's tournament that is open or running.
    async fn live_tournament(&self, o: &Origin) -> Handled<TournamentRow> {
        match self
            .store
            .live_tournament_in(o.platform().as_str(), &o.chat.id)
            .await?
        {
            Some(t) => Ok(t),
            None => refuse(Msg::TournamentNone),
        }
    }

    /// A tournament named by a button (it must be this chat's), or the chat's live one.
    async fn tournament_here(&self, o: &Origin, id: Option<i64>) -> Handled<TournamentRow> {
        let Some(id) = id else {
            return self.live_tournament(o).await;
        };
        match self.store.tournament(id).await? {
            Some(t) if t.platform == o.platform().as_str() && t.chat_id == o.chat.id => Ok(t),
            _ => refuse(Msg::NoSuchTournament { id }),
        }
    }

    async fn field(&self, id: i64) -> Result<Field, StoreError> {
        Ok(Field {
            entrants: self.store.entrants(id).await?,
            pairings: self.store.pairings(id).await?,
        })
    }

    async fn create_tournament(
        &self,
        o: &Origin,
        me: &Player,
        spec: TournamentSpec,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        if !o.chat.kind.is_group() {
            return refuse(Msg::TournamentGroupsOnly);
        }
        if o.platform() != Platform::Console && o.group_admin != Some(true) {
            return refuse(Msg::TournamentAdminsOnly);
        }
        if let Some(t) = self
            .store
            .live_tournament_in(o.platform().as_str(), &o.chat.id)
            .await?
        {
            return refuse(Msg::TournamentBusy { id: t.id });
        }
        let rated = spec.rated.unwrap_or(match &spec.rules {
            Rules::Corners(v) => v.rated,
            Rules::Damas { .. } => false,
        });
        let new = NewTournament {
            platform: o.platform().as_str().into(),
            chat_id: o.chat.id.clone(),
            chat_kind: o.chat.kind.as_str().into(),
            format: spec.format,
            rules: spec.rules,
            time_control: spec.time.to_string(),
            rated,
            rounds: spec.rounds,
            length_ms: spec.length_ms,
            creator_id: me.id,
            starts_at: spec.start.at(now),
            now,
        };
        let lang = lang_of(o);
        let (later, says) = Later::new(move |t: &TournamentRow| {
            vec![card(t, &[], lang).replacing(Slot::Tournament(t.id))]
        });
        match self.store.create_tournament(&new, says).await? {
            Created::Busy(id) => refuse(Msg::TournamentBusy { id }),
            Created::Made(t) => {
                self.arm(Key::Tournament(t.id), t.starts_at);
                Ok(later.take())
            }
        }
    }

    /// Whether `me` may start or cancel `t`: its creator, or an admin of the group.
    fn runs(t: &TournamentRow, o: &Origin, me: &Player) -> Handled<()> {
        if t.creator_id == me.id || o.group_admin == Some(true) {
            Ok(())
        } else {
            refuse(Msg::TournamentNotCreator { id: t.id })
        }
    }

    async fn start_tournament(&self, o: &Origin, me: &Player, now: i64) -> Handled<Vec<Outgoing>> {
        let t = self.live_tournament(o).await?;
        Self::runs(&t, o, me)?;
        if t.status != TournamentStatus::Open || !self.store.start_tournament_now(t.id, now).await?
        {
            return refuse(Msg::TournamentAlreadyStarted { id: t.id });
        }
        self.fire_tournament(t.id, now, Some(lang_of(o))).await
    }

    async fn cancel_tournament(&self, o: &Origin, me: &Player, now: i64) -> Handled<Vec<Outgoing>> {
        let t = self.live_tournament(o).await?;
        Self::runs(&t, o, me)?;
        let _guard = self.tournament_lock(t.id).await?;
        let Some(t) = self.store.tournament(t.id).await? else {
            return refuse(Msg::TournamentNone);
        };
        if t.status != TournamentStatus::Open {
            return refuse(Msg::TournamentAlreadyStarted { id: t.id });
        }
        let lang = lang_of(o);
        let entrants = self.store.entrants(t.id).await?;
        let said = vec![(
            Msg::TournamentCancelled {
                id: t.id,
                why: "creator".into(),
            },
            None,
        )];
        let step = (TournamentStatus::Cancelled, None);
        let out = self
            .end_tournament(&t, &entrants, step, said, now, lang)
            .await?;
        match out {
            Some(out) => Ok(out),
            None => refuse(Msg::TournamentAlreadyStarted { id: t.id }),
        }
    }

    /// `/join` or the Join button: into the chat's tournament, or back after withdrawing
    /// or being paused.
    pub(super) async fn join(
        &self,
        o: &Origin,
        me: &Player,
        id: Option<i64>,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let t = self.tournament_here(o, id).await?;
        let _guard = self.tournament_lock(t.id).await?;
        let field = self.field(t.id).await?;
        let mine = field
            .entrants
            .iter()
            .find(|e| e.player_id == me.id)
            .cloned();
        let paused = t.format == Format::Arena && mine.as_ref().is_some_and(|e| field.paused(e));
        let rating = match kind_of(&t.rules) {
            Some(kind) => self.store.rating_in(me.id, kind).await?.unwrap_or(1000),
            None => 1000,
        };
        let max = match t.format {
            Format::RoundRobin => MAX_ROUND_ROBIN,
            Format::Arena | Format::Swiss => MAX_PLAYERS,
        };
        let late = t.format != Format::RoundRobin;
        // A reply: in the sender's language, as every reply is (the card too, as a board
        // is in the mover's).
        let lang = lang_of(o);
        let (later, says) = {
            let (t, name, mut entrants) = (t.clone(), me.name.clone(), field.entrants.clone());
            let me_id = me.id;
            Later::new(move |j: &Joined| {
                let said = match *j {
                    Joined::New(seat) => {
                        entrants.push(EntrantRow {
                            player_id: me_id,
                            seat,
                            joined_at: now,
                            back_at: now,
                            withdrawn: false,
                            rating,
                            name: name.clone(),
                        });
                        Msg::TournamentJoined {
                            id: t.id,
                            name,
                            count: entrants.iter().filter(|e| !e.withdrawn).count(),
                        }
                    }
                    Joined::Back => Msg::TournamentBack { id: t.id, name },
                    Joined::Already if paused => Msg::TournamentBack { id: t.id, name },
                    _ => return Vec::new(),
                };
                for e in entrants.iter_mut().filter(|e| e.player_id == me_id) {
                    e.withdrawn = false;
                }
                vec![
                    Outgoing::to_chat(&chat_of(&t), said).in_lang(lang),
                    card(&t, &entrants, lang),
                ]
            })
        };
        let joined = self
            .store
            .join_tournament(
                (t.id, me.id),
                (rating, i64::try_from(max).unwrap_or(i64::MAX), late),
                now,
                says,
            )
            .await?;
        match joined {
            Joined::Full => refuse(Msg::TournamentFull {
                id: t.id,
                max: i64::try_from(max).unwrap_or(i64::MAX),
            }),
            Joined::Closed => refuse(Msg::TournamentClosed { id: t.id }),
            Joined::Already if !paused => refuse(Msg::TournamentAlreadyIn { id: t.id }),
            Joined::New(_) | Joined::Back | Joined::Already => {
                if t.status == TournamentStatus::Running && t.format == Format::Arena {
                    // A running arena pairs whoever comes at once.
                    self.store.set_tournament_due(t.id, Some(now)).await?;
                    self.arm(Key::Tournament(t.id), now);
                }
                Ok(later.take())
            }
        }
    }

    /// `/withdraw` or the Withdraw button: not paired again; games played stand.
    pub(super) async fn withdraw(
        &self,
        o: &Origin,
        me: &Player,
        id: Option<i64>,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let t = self.tournament_here(o, id).await?;
        let _guard = self.tournament_lock(t.id).await?;
        let mut entrants = self.store.entrants(t.id).await?;
        if !entrants
            .iter()
            .any(|e| e.player_id == me.id && !e.withdrawn)
        {
            return refuse(Msg::TournamentNotIn { id: t.id });
        }
        for e in entrants.iter_mut().filter(|e| e.player_id == me.id) {
            e.withdrawn = true;
        }
        // A reply: in the sender's language, as every reply is (the card too, as a board
        // is in the mover's).
        let lang = lang_of(o);
        let mut out = vec![
            Outgoing::to_chat(
                &chat_of(&t),
                Msg::TournamentWithdrew {
                    id: t.id,
                    name: me.name.clone(),
                },
            )
            .in_lang(lang),
            card(&t, &entrants, lang),
        ];
        let says = super::outbox::says_now(&mut out);
        if self
            .store
            .withdraw_from_tournament(t.id, me.id, now, says)
            .await?
        {
            Ok(out)
        } else {
            refuse(Msg::TournamentNotIn { id: t.id })
        }
    }

    /// `/standings [N]`: tournament N of this chat, else its live one, else its last.
    pub(super) async fn show_standings(
        &self,
        o: &Origin,
        id: Option<i64>,
    ) -> Handled<Vec<Outgoing>> {
        let t = match id {
            Some(_) => self.tournament_here(o, id).await?,
            None => match self
                .store
                .last_tournament_in(o.platform().as_str(), &o.chat.id)
                .await?
            {
                Some(t) => t,
                None => return refuse(Msg::TournamentNone),
            },
        };
        let field = self.field(t.id).await?;
        let heading = heading_of(&t, &field);
        let (text, picture) = self.standings_message(&t, &field, heading).await?;
        Ok(vec![Outgoing::reply(o, text).with_picture(Some(picture))])
    }

    /// The standings as posted: the heading and the first [`PODIUM`] lines, with the whole
    /// table as a picture (drawn when it is sent).
    async fn standings_message(
        &self,
        t: &TournamentRow,
        field: &Field,
        heading: Msg,
    ) -> Result<(Msg, Picture), StoreError> {
        let changes = self.store.tournament_rating_changes(t.id).await?;
        let mut lines = field.lines(t, heading.clone(), &changes, PODIUM);
        // Where the whole tournament is followed, when the pages are served.
        if let Some(base) = self.pages() {
            lines.push(Msg::WebTournamentAt {
                url: format!("{base}/t/{}", t.id),
            });
        }
        let picture = Picture::Standings(StandingsSpec {
            tournament: t.id,
            title: heading,
        });
        Ok((Msg::Lines(lines), picture))
    }

    /// The standings picture of tournament `id` as it stands, for a reader of `lang`.
    pub(in crate::table) async fn draw_standings(
        &self,
        id: i64,
        title: &Msg,
        lang: Lang,
    ) -> Result<StandingsView, DrawError> {
        let t = self.store.tournament(id).await?.ok_or(DrawError::Gone)?;
        let field = self.field(id).await?;
        let changes = self.store.tournament_rating_changes(id).await?;
        let column = |c: &str| render(&Msg::StandingsColumn { column: c.into() }, lang);
        Ok(StandingsView {
            // The chat's heading ends with a colon before its lines; the picture's does not.
            title: render(title, lang).trim_end_matches(':').to_string(),
            columns: ["place", "name", "score", "games", "change", "performance"].map(column),
            rows: field
                .rows(&t, &changes)
                .into_iter()
                .map(|r| StandingsRow {
                    place: r.place,
                    name: r.name,
                    score: r.score,
                    marks: r.marks,
                    change: r.change.map(scores::signed).unwrap_or_default(),
                    performance: r.performance.map(|p| p.to_string()).unwrap_or_default(),
                    away: r.paused || r.withdrawn,
                })
                .collect(),
            footer: String::new(),
        })
    }

    /// Forget nothing of a tournament in memory: there is nothing kept but its lock.
    pub(super) fn forget_tournament(&self, id: i64) {
        self.disarm(Key::Tournament(id));
        lock(&self.locks).remove(&-id);
    }
}

/// The standings' heading as it stands: final once over; while it runs, a Swiss's or a round
/// robin's names the last round played to its end (an arena has no rounds).
pub(super) fn heading_of(t: &TournamentRow, field: &Field) -> Msg {
    let over = t.status == TournamentStatus::Finished;
    Msg::TournamentStandings {
        id: t.id,
        status: if over { "final" } else { "live" }.into(),
        round: match t.format {
            _ if over => None,
            Format::Swiss | Format::RoundRobin if t.round > 0 && !field.round_running(t.round) => {
                Some(t.round)
            }
            Format::Swiss | Format::RoundRobin if t.round > 1 => Some(t.round - 1),
            _ => None,
        },
    }
}

/// A tournament as its public page shows it: its announcement, its standings (a heading
/// and the lines), and its games, each a [`Msg::TournamentPairing`] with the game's
/// result once it is over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicTournament {
    pub id: i64,
    pub card: Msg,
    pub heading: Msg,
    pub lines: Vec<Msg>,
    /// (game, its pairing line, its result if over), newest first.
    pub games: Vec<(i64, Msg, Option<Msg>)>,
    /// Still to be played or being played: the page keeps itself up to date.
    pub live: bool,
}

/// Standings lines a page shows at most (the picture has them all).
const PAGE_LINES: usize = 200;

impl Table {
    /// A tournament's public page (every tournament is a group's: public), if it exists.
    pub async fn public_tournament(&self, id: i64) -> Result<Option<PublicTournament>, StoreError> {
        let Some(t) = self.store.tournament(id).await? else {
            return Ok(None);
        };
        if !ChatKind::parse(&t.chat_kind).is_some_and(ChatKind::is_group) {
            return Ok(None);
        }
        let field = self.field(id).await?;
        let changes = self.store.tournament_rating_changes(id).await?;
        let heading = heading_of(&t, &field);
        let mut lines = field.lines(&t, heading.clone(), &changes, PAGE_LINES);
        lines.remove(0);
        let names: std::collections::HashMap<i64, String> = field
            .entrants
            .iter()
            .map(|e| (e.seat, e.name.clone()))
            .collect();
        let name = |seat: i64| names.get(&seat).cloned().unwrap_or_default();
        let mut games = Vec::new();
        for p in field.pairings.iter().rev() {
            let (Some(game), Some(black)) = (p.game_id, p.black_seat) else {
                continue;
            };
            let line = Msg::TournamentPairing {
                game,
                white: name(p.white_seat),
                black: name(black),
            };
            let result = p.result.filter(|_| p.finished_at.is_some()).map(|r| {
                let winner = match r.winner() {
                    Some(crate::Color::White) => name(p.white_seat),
                    Some(crate::Color::Black) => name(black),
                    None => String::new(),
                };
                Msg::RecordResult {
                    result: r.code().into(),
                    name: winner,
                    cause: p
                        .end_reason
                        .as_deref()
                        .and_then(crate::game::EndCause::from_code),
                }
            });
            games.push((game, line, result));
        }
        Ok(Some(PublicTournament {
            id,
            card: card(&t, &field.entrants, Lang::EN).message,
            heading,
            lines,
            games,
            live: t.is_live(),
        }))
    }
}
