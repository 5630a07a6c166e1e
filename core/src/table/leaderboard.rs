//! `/rating`, `/top`, `/chips`: ratings (R) as players see them.

use super::types::{ChartView, Incoming, Mention, Outgoing};
use super::{reply, texts, Outcome, Table};
use crate::rating::month_of;
use crate::store::{Player, KINDS};

/// The rating list a word names (`classic4x3` is 3×4's list).
fn kind_named(word: &str) -> Option<&'static str> {
    match word {
        "classic3x3" | "3x3" | "classic" => Some("classic3x3"),
        "classic3x4" | "classic4x3" | "3x4" => Some("classic3x4"),
        "diagonal3x3" | "diagonal" => Some("diagonal3x3"),
        "damas" | "checkers" => Some("damas"),
        _ => None,
    }
}

/// A kind's name for people.
fn kind_title(kind: &str) -> &'static str {
    match kind {
        "classic3x3" => "classic 3×3",
        "classic3x4" => "classic 3×4",
        "diagonal3x3" => "diagonal 3×3",
        _ => "Damas",
    }
}

impl Table {
    /// `/rating [@user] [kind]`.
    pub(super) async fn rating(
        &self,
        msg: &Incoming,
        me: &Player,
        kind: Option<&str>,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        let kind = match kind.map(|k| kind_named(k).ok_or(k)) {
            Some(Err(k)) => return Ok(vec![reply(msg, texts::unknown_kind(k, &KINDS))]),
            Some(Ok(k)) => Some(k),
            None => None,
        };
        if let Some(name) = super::unresolved_mention(msg) {
            return Ok(vec![reply(msg, texts::unknown_player(name))]);
        }
        let who = match msg.mentions.first() {
            Some(Mention::User(u)) => self.person_for(&msg.platform, u, now).await?,
            Some(Mention::Handle(h)) => {
                match self.store.player_by_handle(&msg.platform, h).await? {
                    Some(p) => p,
                    None => return Ok(vec![reply(msg, texts::unknown_player(h))]),
                }
            }
            None => me.clone(),
        };
        let month = month_of(now);
        let standings = self.store.standings(who.id, &month).await?;
        if standings.is_empty() {
            return Ok(vec![reply(msg, texts::no_rated_games(&who.name))]);
        }
        let mut lines = vec![texts::rating_title(&who.name)];
        for s in &standings {
            let rank = self
                .store
                .rank(who.id, &s.kind, None, None)
                .await?
                .unwrap_or(0);
            let monthly_rank = self.store.rank(who.id, &s.kind, Some(&month), None).await?;
            lines.push(texts::rating_line(
                kind_title(&s.kind),
                s.rating,
                rank,
                s.monthly,
                monthly_rank,
                s.games,
                (s.wins, s.draws, s.losses),
            ));
        }
        // The chart: the kind asked for, or the most played.
        let chart_kind = kind.unwrap_or(&standings[0].kind).to_string();
        let history = self.store.rating_history(who.id, &chart_kind).await?;
        let chart = (!history.is_empty()).then(|| ChartView {
            title: texts::chart_title(&who.name, kind_title(&chart_kind)),
            points: std::iter::once(history[0].0)
                .chain(history.iter().map(|h| h.1))
                .collect(),
        });
        Ok(vec![Outgoing {
            platform: msg.platform.clone(),
            chat: msg.chat.clone(),
            text: lines.join("\n"),
            board: None,
            chart,
        }])
    }

    /// `/top [kind] [month|all] [global]`: ten best, and the asker's place when lower.
    pub(super) async fn top(
        &self,
        msg: &Incoming,
        me: &Player,
        kind: Option<&str>,
        monthly: bool,
        global: bool,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        let kind = match kind {
            None => "classic3x3",
            Some(k) => match kind_named(k) {
                Some(k) => k,
                None => return Ok(vec![reply(msg, texts::unknown_kind(k, &KINDS))]),
            },
        };
        let month = month_of(now);
        let m = monthly.then_some(month.as_str());
        let chat = (!global).then_some((msg.platform.as_str(), msg.chat.as_str()));
        let top = self.store.top(kind, m, chat, 10).await?;
        let scope = texts::top_scope(kind_title(kind), monthly.then_some(month.as_str()), global);
        if top.is_empty() {
            return Ok(vec![reply(msg, texts::top_empty(&scope))]);
        }
        let mut lines = vec![scope];
        for (i, s) in top.iter().enumerate() {
            let value = if monthly { s.monthly } else { s.rating };
            let games = if monthly { s.monthly_games } else { s.games };
            lines.push(texts::top_line(i + 1, &s.name, value, games));
        }
        if !top.iter().any(|s| s.player_id == me.id) {
            let rank = self.store.rank(me.id, kind, m, chat).await?;
            if let Some(rank) = rank {
                let mine = self.store.standings(me.id, &month).await?;
                if let Some(s) = mine.iter().find(|s| s.kind == kind) {
                    let value = if monthly { s.monthly } else { s.rating };
                    lines.push(texts::top_you(rank, &me.name, value));
                }
            }
        }
        Ok(vec![reply(msg, lines.join("\n"))])
    }

    /// `/chips`.
    pub(super) async fn chips(&self, msg: &Incoming, me: &Player) -> Outcome<Vec<Outgoing>> {
        let chips = self.store.chips(me.id).await?;
        Ok(vec![reply(msg, texts::chips(&me.name, chips))])
    }
}
