//! Challenges: made, accepted (the game starts), declined, cancelled, expired.

use super::command::{ChallengeSpec, ColorChoice};
use super::timers::Key;
use super::types::{Incoming, Mention, Outgoing};
use super::{reply, texts, Outcome, Table};
use crate::clock::TimeControl;
use crate::color::Color;
use crate::game::{Game, Rules};
use crate::store::{Accepted, ChallengeRow, NewChallenge, NewGame, Player};

fn color_word(c: ColorChoice) -> &'static str {
    match c {
        ColorChoice::White => "white",
        ColorChoice::Black => "black",
        ColorChoice::Random => "random",
    }
}

/// The terms of a stored challenge, in words.
fn terms_of(c: &ChallengeRow) -> String {
    let rules = Rules::from_id(&c.rules).map_or_else(|_| c.rules.clone(), |r| r.name());
    let tc = TimeControl::parse(&c.time_control).unwrap_or(TimeControl::Unlimited);
    let mut extras = Vec::new();
    if let Some(ms) = c.movetime_ms {
        extras.push(texts::movetime_extra(ms));
    }
    if c.monitor {
        extras.push(texts::monitor_extra());
    }
    if let Some(s) = c.stake {
        extras.push(texts::stake_extra(s));
    }
    texts::terms(&rules, &tc, c.rated, &extras)
}

fn wish(color: &str) -> Option<Color> {
    match color {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

impl Table {
    pub(super) async fn challenge(
        &self,
        msg: &Incoming,
        me: &Player,
        spec: &ChallengeSpec,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        if msg.mentions.len() > 1 {
            return Ok(vec![reply(msg, texts::one_at_a_time())]);
        }
        if let Some(name) = super::unresolved_mention(msg) {
            return Ok(vec![reply(msg, texts::unknown_player(name))]);
        }
        let (target_id, target_handle, target_name) = match msg.mentions.first() {
            None => (None, None, None),
            Some(Mention::User(u)) => {
                let p = self.person_for(&msg.platform, u, now).await?;
                (Some(p.id), None, Some(p.name))
            }
            Some(Mention::Handle(h)) => {
                let h = h.trim_start_matches('@').to_ascii_lowercase();
                match self.store.player_by_handle(&msg.platform, &h).await? {
                    Some(p) => (Some(p.id), None, Some(p.name)),
                    None => (None, Some(h.clone()), Some(format!("@{h}"))),
                }
            }
        };
        let self_handle = me
            .handle
            .as_deref()
            .is_some_and(|h| Some(h) == target_handle.as_deref());
        if target_id == Some(me.id) || self_handle {
            return Ok(vec![reply(msg, texts::self_challenge())]);
        }
        let rated = spec.rated.unwrap_or(match &spec.rules {
            Rules::Corners(v) => v.rated,
            Rules::Damas { .. } => false,
        });
        if let Some(stake) = spec.stake {
            // Chips are read fresh: a cached player's chips are out of date.
            let chips = self.store.chips(me.id).await?;
            if chips < stake {
                return Ok(vec![reply(
                    msg,
                    texts::not_enough_chips(&me.name, chips, stake),
                )]);
            }
        }
        let row = self
            .store
            .create_challenge(&NewChallenge {
                platform: msg.platform.clone(),
                chat: msg.chat.clone(),
                challenger_id: me.id,
                target_id,
                target_handle,
                rules: spec.rules.id(),
                time_control: spec.time.to_string(),
                rated,
                color: color_word(spec.color).to_string(),
                movetime_ms: spec.movetime_ms,
                monitor: spec.monitor,
                stake: spec.stake,
                created_at: now,
                expires_at: now + self.config.challenge_ttl_ms,
            })
            .await?;
        self.store
            .note_chat_player(&msg.platform, &msg.chat, me.id)
            .await?;
        self.arm(Key::Challenge(row.id), row.expires_at);
        let minutes = (self.config.challenge_ttl_ms + 59_999) / 60_000;
        let terms = terms_of(&row);
        let wish = texts::color_wish(wish(&row.color));
        let text = match target_name {
            Some(to) => texts::challenge_to(row.id, &me.name, &to, &terms, wish, minutes),
            None => texts::challenge_open(row.id, &me.name, &terms, wish, minutes),
        };
        Ok(vec![reply(msg, text)])
    }

    /// Whether `me` may take challenge `c`.
    fn addressed_to(c: &ChallengeRow, me: &Player) -> bool {
        match (c.target_id, &c.target_handle) {
            (Some(id), _) => id == me.id,
            (None, Some(h)) => me.handle.as_deref() == Some(h.as_str()),
            (None, None) => true,
        }
    }

    // One story, told in order: find the challenge, check it, pick colours, start the game.
    #[allow(clippy::too_many_lines)]
    pub(super) async fn accept(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
        now: i64,
    ) -> Outcome<Vec<Outgoing>> {
        let open = self
            .store
            .open_challenges_in(&msg.platform, &msg.chat)
            .await?;
        let open: Vec<ChallengeRow> = open.into_iter().filter(|c| c.expires_at > now).collect();
        let chosen = if let Some(n) = number {
            match open.iter().find(|c| c.id == n) {
                None => return Ok(vec![reply(msg, texts::no_such_challenge(n))]),
                Some(c) if c.challenger_id == me.id => {
                    return Ok(vec![reply(msg, texts::own_challenge())])
                }
                Some(c) if !Self::addressed_to(c, me) => {
                    return Ok(vec![reply(msg, texts::challenge_for_someone_else(n))])
                }
                Some(c) => c.clone(),
            }
        } else {
            // Prefer a challenge addressed to me by name, then the newest open one.
            {
                let mine = open.iter().find(|c| {
                    c.challenger_id != me.id
                        && (c.target_id == Some(me.id) || c.target_handle.is_some())
                        && Self::addressed_to(c, me)
                });
                let any = open
                    .iter()
                    .find(|c| c.challenger_id != me.id && Self::addressed_to(c, me));
                match mine.or(any) {
                    Some(c) => c.clone(),
                    None if open.iter().any(|c| c.challenger_id == me.id)
                        && open.iter().all(|c| c.challenger_id == me.id) =>
                    {
                        return Ok(vec![reply(msg, texts::own_challenge())])
                    }
                    None => return Ok(vec![reply(msg, texts::no_challenge_for_you())]),
                }
            }
        };
        let Some(challenger) = self.store.player(chosen.challenger_id).await? else {
            return Ok(vec![reply(msg, texts::challenge_gone())]);
        };
        if let Some(stake) = chosen.stake {
            for p in [&challenger, me] {
                let chips = self.store.chips(p.id).await?;
                if chips < stake {
                    return Ok(vec![reply(
                        msg,
                        texts::not_enough_chips(&p.name, chips, stake),
                    )]);
                }
            }
        }
        let challenger_white = match chosen.color.as_str() {
            "white" => true,
            "black" => false,
            // Random: a coin from the moment of acceptance.
            _ => (now ^ chosen.id) & 1 == 0,
        };
        let (white, black) = if challenger_white {
            (&challenger, me)
        } else {
            (me, &challenger)
        };
        let rules = Rules::from_id(&chosen.rules).map_err(crate::store::StoreError::Corrupt)?;
        let control = TimeControl::parse(&chosen.time_control).unwrap_or(TimeControl::Unlimited);
        let bank = match control {
            TimeControl::Fischer { base_ms, .. } => base_ms,
            _ => 0,
        };
        let new = NewGame {
            rules: rules.id(),
            start_position: None,
            white_id: white.id,
            black_id: black.id,
            rated: chosen.rated,
            stake: chosen.stake,
            time_control: control.to_string(),
            bank_ms: bank,
            movetime_ms: chosen.movetime_ms,
            monitor: chosen.monitor,
            now,
        };
        let row = match self.store.accept_challenge(chosen.id, &new).await? {
            Accepted::Started(row) => *row,
            Accepted::Gone => return Ok(vec![reply(msg, texts::challenge_gone())]),
            Accepted::NotEnoughChips => {
                let stake = chosen.stake.unwrap_or(0);
                return Ok(vec![reply(msg, texts::stake_not_covered(stake))]);
            }
        };
        self.disarm(Key::Challenge(chosen.id));
        self.store
            .note_chat_player(&msg.platform, &msg.chat, me.id)
            .await?;
        let game = Game::new(&rules);
        super::lock(&self.cache).insert(row.id, (0, game.clone()));
        let live = super::live::Live {
            row,
            white: white.clone(),
            black: black.clone(),
            game,
            rules,
            control,
        };
        self.arm_game(&live);
        let text = texts::game_started(live.row.id, &white.name, &black.name, &terms_of(&chosen));
        Ok(vec![live.board_message(
            &msg.platform,
            &msg.chat,
            text,
            Color::White,
            now,
            None,
        )])
    }

    pub(super) async fn decline(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
    ) -> Outcome<Vec<Outgoing>> {
        let open = self
            .store
            .open_challenges_in(&msg.platform, &msg.chat)
            .await?;
        let c = match number {
            Some(n) => open.into_iter().find(|c| c.id == n),
            None => open.into_iter().find(|c| {
                c.challenger_id != me.id
                    && (c.target_id.is_some() || c.target_handle.is_some())
                    && Self::addressed_to(c, me)
            }),
        };
        let Some(c) = c else {
            return Ok(vec![reply(
                msg,
                number.map_or_else(texts::no_challenge_for_you, texts::no_such_challenge),
            )]);
        };
        if c.target_id.is_none() && c.target_handle.is_none()
            || !Self::addressed_to(&c, me)
            || c.challenger_id == me.id
        {
            return Ok(vec![reply(msg, texts::only_target_declines())]);
        }
        if !self.store.close_challenge(c.id, "declined").await? {
            return Ok(vec![reply(msg, texts::challenge_gone())]);
        }
        self.disarm(Key::Challenge(c.id));
        let challenger = self
            .store
            .player(c.challenger_id)
            .await?
            .map(|p| p.name)
            .unwrap_or_default();
        Ok(vec![reply(
            msg,
            texts::declined(c.id, &me.name, &challenger),
        )])
    }

    pub(super) async fn cancel(
        &self,
        msg: &Incoming,
        me: &Player,
        number: Option<i64>,
    ) -> Outcome<Vec<Outgoing>> {
        let open = self
            .store
            .open_challenges_in(&msg.platform, &msg.chat)
            .await?;
        let c = open
            .into_iter()
            .find(|c| c.challenger_id == me.id && number.is_none_or(|n| n == c.id));
        let Some(c) = c else {
            return Ok(vec![reply(msg, texts::nothing_to_cancel())]);
        };
        if !self.store.close_challenge(c.id, "cancelled").await? {
            return Ok(vec![reply(msg, texts::challenge_gone())]);
        }
        self.disarm(Key::Challenge(c.id));
        Ok(vec![reply(msg, texts::cancelled(c.id))])
    }

    /// A challenge's time is up.
    pub(super) async fn expire(&self, id: i64, now: i64) -> Outcome<Vec<Outgoing>> {
        let Some(c) = self.store.challenge(id).await? else {
            return Ok(Vec::new());
        };
        if c.status != "open" {
            return Ok(Vec::new());
        }
        if c.expires_at > now {
            self.arm(Key::Challenge(id), c.expires_at);
            return Ok(Vec::new());
        }
        if !self.store.close_challenge(id, "expired").await? {
            return Ok(Vec::new());
        }
        let name = self
            .store
            .player(c.challenger_id)
            .await?
            .map(|p| p.name)
            .unwrap_or_default();
        Ok(vec![Outgoing {
            platform: c.platform,
            chat: c.chat,
            text: texts::expired(id, &name),
            board: None,
            chart: None,
        }])
    }
}
