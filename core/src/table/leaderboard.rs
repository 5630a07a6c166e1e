//! `/rating`, `/top`, `/chips`: ratings (R) as players see them.

use super::picture::{ChartSpec, Picture};
use super::types::{Mention, Origin, Outgoing};
use super::{refuse, Handled, Table};
use crate::rating::{month_of, RatingKind};
use crate::store::Player;
use crate::words::Msg;

/// The rating list a word names (`classic4x3` is 3×4's list), or why not.
fn kind_named(word: &str) -> Result<RatingKind, Msg> {
    RatingKind::named(word).ok_or_else(|| Msg::UnknownKind {
        word: word.chars().take(20).collect(),
        kinds: RatingKind::ALL
            .iter()
            .map(|k| k.id())
            .collect::<Vec<_>>()
            .join(", "),
    })
}

/// How many of a player's tournaments `/rating` lists.
const TOURNAMENTS_LISTED: i64 = 5;

/// The places of a leaderboard's values, best first: equal values share a place (1, 2, 2,
/// 4), as a player's own place (`Store::rank`) is counted — everyone above the first of
/// them in the list is above them all.
pub(super) fn shared_places(values: &[i64]) -> Vec<i64> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let first = values.iter().position(|x| x == v).unwrap_or(i);
            i64::try_from(first).unwrap_or(i64::MAX) + 1
        })
        .collect()
}

impl Table {
    /// `/rating [@user] [kind]`.
    pub(super) async fn rating(
        &self,
        o: &Origin,
        me: &Player,
        who: Option<&Mention>,
        kind: Option<&str>,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let kind = kind.map(kind_named).transpose()?;
        let who = match who {
            Some(Mention::User(u)) => self.person_for(o.platform(), u, now).await?,
            Some(Mention::Handle(h)) => {
                let h = h.trim_start_matches('@').to_ascii_lowercase();
                match self
                    .store
                    .player_by_handle(o.platform().as_str(), &h)
                    .await?
                {
                    Some(p) => p,
                    None => return refuse(Msg::UnknownPlayer { handle: h }),
                }
            }
            None => me.clone(),
        };
        let month = month_of(now);
        let standings = self.store.standings(who.id, &month).await?;
        // The tournaments they finished, newest first, with their places.
        let places: Vec<Msg> = self
            .store
            .tournaments_of(who.id, TOURNAMENTS_LISTED)
            .await?
            .into_iter()
            .filter_map(|(t, place)| {
                let (place, of) = place?;
                Some(Msg::TournamentPlace {
                    id: t.id,
                    format: t.format.code().into(),
                    place,
                    of,
                })
            })
            .collect();
        if standings.is_empty() {
            let none = Msg::NoRatedGames { name: who.name };
            let text = if places.is_empty() {
                none
            } else {
                Msg::Lines(std::iter::once(none).chain(places).collect())
            };
            return Ok(vec![Outgoing::reply(o, text)]);
        }
        let mut lines = vec![Msg::RatingTitle {
            name: who.name.clone(),
        }];
        for s in &standings {
            lines.push(self.rating_line(s, &month).await?);
        }
        lines.extend(places);
        // The chart: the kind asked for, or the most played.
        let chart_kind = kind.unwrap_or(standings[0].kind);
        let history = self.store.rating_history(who.id, chart_kind).await?;
        let chart = (!history.is_empty()).then(|| {
            Picture::Chart(ChartSpec {
                player: who.id,
                kind: chart_kind,
                title: Msg::ChartTitle {
                    name: who.name.clone(),
                    kind: chart_kind,
                },
            })
        });
        Ok(vec![
            Outgoing::reply(o, Msg::Lines(lines)).with_picture(chart)
        ])
    }

    /// A standing as `/rating` (and the player's public page) says it: with its places over
    /// the whole bot, all time and in `month`.
    pub(super) async fn rating_line(
        &self,
        s: &crate::store::Standing,
        month: &str,
    ) -> Result<Msg, crate::store::StoreError> {
        let p = s.player_id;
        // No rank for a rating without a game in it (only a penalty so far).
        let rank = self.store.rank(p, s.kind, None, None).await?;
        let monthly_rank = self.store.rank(p, s.kind, Some(month), None).await?;
        Ok(Msg::RatingLine {
            kind: s.kind,
            rating: s.rating,
            rank,
            monthly: s.monthly,
            monthly_rank,
            games: s.games,
            won: s.wins,
            drawn: s.draws,
            lost: s.losses,
        })
    }

    /// `/top [kind] [month|all] [global]`: ten best, and the asker's place when lower.
    pub(super) async fn top(
        &self,
        o: &Origin,
        me: &Player,
        kind: Option<&str>,
        monthly: bool,
        global: bool,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let kind = kind.map_or(Ok(RatingKind::Classic3x3), kind_named)?;
        let month = month_of(now);
        let m = monthly.then_some(month.as_str());
        let chat = (!global).then_some((o.platform().as_str(), o.chat.id.as_str()));
        let top = self.store.top(kind, m, chat, 10).await?;
        let scope = Msg::TopScope {
            kind,
            month: monthly.then(|| month.clone()),
            global,
        };
        if top.is_empty() {
            return Ok(vec![Outgoing::reply(
                o,
                Msg::TopEmpty {
                    scope: Box::new(scope),
                },
            )]);
        }
        let mut lines = vec![scope];
        let places = shared_places(
            &top.iter()
                .map(|s| s.on_board(monthly).0)
                .collect::<Vec<_>>(),
        );
        for (s, place) in top.iter().zip(places) {
            let (rating, games) = s.on_board(monthly);
            lines.push(Msg::TopLine {
                place,
                name: s.name.clone(),
                rating,
                games,
            });
        }
        if !top.iter().any(|s| s.player_id == me.id) {
            if let Some(rank) = self.store.rank(me.id, kind, m, chat).await? {
                let mine = self.store.standings(me.id, &month).await?;
                if let Some(s) = mine.iter().find(|s| s.kind == kind) {
                    lines.push(Msg::TopYou {
                        place: rank,
                        name: me.name.clone(),
                        rating: s.on_board(monthly).0,
                    });
                }
            }
        }
        lines.extend(self.top_line());
        Ok(vec![Outgoing::reply(o, Msg::Lines(lines))])
    }

    /// `/chips`.
    pub(super) async fn chips(&self, o: &Origin, me: &Player) -> Handled<Vec<Outgoing>> {
        let chips = self.store.chips(me.id).await?;
        Ok(vec![Outgoing::reply(
            o,
            Msg::Chips {
                name: me.name.clone(),
                chips,
            },
        )])
    }
}
