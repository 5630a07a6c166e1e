//! Challenges: made, accepted (the game starts), declined, cancelled, expired. A challenge's
//! message is a living message (its slot): answered or expired, it loses its buttons.

use super::action::Action;
use super::command::{ChallengeSpec, ColorChoice};
use super::live::Live;
use super::timers::Key;
use super::types::{lang_of, Mention, Origin, Outgoing, Platform, Slot};
use super::{lock, refuse, Handled, Table};
use crate::clock::TimeControl;
use crate::color::Color;
use crate::game::{Game, Rules};
use crate::store::{Accepted, ChallengeRow, NewChallenge, NewGame, Player, StoreError};
use crate::words::{Duration, Msg};

fn color_word(c: ColorChoice) -> &'static str {
    match c {
        ColorChoice::White => "white",
        ColorChoice::Black => "black",
        ColorChoice::Random => "random",
    }
}

/// The terms of a stored challenge.
fn terms_of(c: &ChallengeRow) -> Result<Msg, StoreError> {
    let rules = Rules::from_id(&c.rules)
        .map_err(|e| StoreError::Corrupt(format!("challenge {}: {e:?}", c.id)))?;
    Ok(Msg::Terms {
        rules: Box::new(rules),
        time: TimeControl::parse(&c.time_control).unwrap_or(TimeControl::Unlimited),
        rated: c.rated,
        movetime: c.movetime_ms.map(Duration),
        monitor: c.monitor,
        stake: c.stake,
    })
}

fn wish(color: &str) -> Option<Color> {
    match color {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// Whether `me` may take challenge `c`.
fn addressed_to(c: &ChallengeRow, me: &Player) -> bool {
    match (c.target_id, &c.target_handle) {
        (Some(id), _) => id == me.id,
        (None, Some(h)) => me.handle.as_deref() == Some(h.as_str()),
        (None, None) => true,
    }
}

fn is_open_to_anyone(c: &ChallengeRow) -> bool {
    c.target_id.is_none() && c.target_handle.is_none()
}

impl Table {
    pub(super) async fn challenge(
        &self,
        o: &Origin,
        me: &Player,
        spec: &ChallengeSpec,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let (target_id, target_handle, target_name) = match &spec.opponent {
            None => (None, None, None),
            Some(Mention::User(u)) => {
                let p = self.person_for(o.platform, u, now).await?;
                (Some(p.id), None, Some(p.name))
            }
            Some(Mention::Handle(h)) => {
                let h = h.trim_start_matches('@').to_ascii_lowercase();
                match self.store.player_by_handle(o.platform.as_str(), &h).await? {
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
            return refuse(Msg::SelfChallenge);
        }
        let rated = spec.rated.unwrap_or(match &spec.rules {
            Rules::Corners(v) => v.rated,
            Rules::Damas { .. } => false,
        });
        if let Some(stake) = spec.stake {
            // Chips are read fresh: a cached player's chips are out of date.
            let chips = self.store.chips(me.id).await?;
            if chips < stake {
                return refuse(Msg::NotEnoughChips {
                    who: me.name.clone(),
                    has: chips,
                    stake,
                });
            }
        }
        let row = self
            .store
            .create_challenge(&NewChallenge {
                platform: o.platform.as_str().to_string(),
                chat: o.chat.clone(),
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
            .note_chat_player(o.platform.as_str(), &o.chat, me.id)
            .await?;
        self.arm(Key::Challenge(row.id), row.expires_at);
        let minutes = (self.config.challenge_ttl_ms + 59_999) / 60_000;
        let terms = Box::new(terms_of(&row)?);
        let wish = wish(&row.color);
        let id = row.id;
        let (text, mut buttons) = match target_name {
            Some(to) => (
                Msg::ChallengeTo {
                    id,
                    from: me.name.clone(),
                    to,
                    terms,
                    wish,
                    minutes,
                },
                vec![
                    Action::Accept { challenge: id },
                    Action::Decline { challenge: id },
                ],
            ),
            None => (
                Msg::ChallengeOpen {
                    id,
                    from: me.name.clone(),
                    terms,
                    wish,
                    minutes,
                },
                vec![Action::Accept { challenge: id }],
            ),
        };
        buttons.push(Action::Cancel { challenge: id });
        Ok(vec![Outgoing::reply(o, text)
            .replacing(Slot::Challenge(id))
            .with_actions(buttons)])
    }

    /// The challenge a bare or numbered `/accept` means.
    fn choose<'a>(
        open: &'a [ChallengeRow],
        me: &Player,
        number: Option<i64>,
    ) -> Result<&'a ChallengeRow, Msg> {
        if let Some(n) = number {
            return match open.iter().find(|c| c.id == n) {
                None => Err(Msg::NoSuchChallenge { id: n }),
                Some(c) if c.challenger_id == me.id => Err(Msg::OwnChallenge),
                Some(c) if !addressed_to(c, me) => Err(Msg::ChallengeForSomeoneElse { id: n }),
                Some(c) => Ok(c),
            };
        }
        // Prefer a challenge addressed to me by name, then the newest open one.
        let mine = open
            .iter()
            .find(|c| c.challenger_id != me.id && !is_open_to_anyone(c) && addressed_to(c, me));
        let any = open
            .iter()
            .find(|c| c.challenger_id != me.id && addressed_to(c, me));
        match mine.or(any) {
            Some(c) => Ok(c),
            None if !open.is_empty() && open.iter().all(|c| c.challenger_id == me.id) => {
                Err(Msg::OwnChallenge)
            }
            None => Err(Msg::NoChallengeForYou),
        }
    }

    // One story, told in order: find the challenge, check it, pick colours, start the game.
    pub(super) async fn accept(
        &self,
        o: &Origin,
        me: &Player,
        number: Option<i64>,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let open = self
            .store
            .open_challenges_in(o.platform.as_str(), &o.chat)
            .await?;
        let open: Vec<ChallengeRow> = open.into_iter().filter(|c| c.expires_at > now).collect();
        let chosen = Self::choose(&open, me, number)?.clone();
        let Some(challenger) = self.store.player(chosen.challenger_id).await? else {
            return refuse(Msg::ChallengeGone);
        };
        if let Some(stake) = chosen.stake {
            for p in [&challenger, me] {
                let chips = self.store.chips(p.id).await?;
                if chips < stake {
                    return refuse(Msg::NotEnoughChips {
                        who: p.name.clone(),
                        has: chips,
                        stake,
                    });
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
        let rules = Rules::from_id(&chosen.rules)
            .map_err(|e| StoreError::Corrupt(format!("challenge {}: {e:?}", chosen.id)))?;
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
            Accepted::Gone => return refuse(Msg::ChallengeGone),
            Accepted::NotEnoughChips => {
                return refuse(Msg::StakeNotCovered {
                    stake: chosen.stake.unwrap_or(0),
                })
            }
        };
        self.disarm(Key::Challenge(chosen.id));
        self.store
            .note_chat_player(o.platform.as_str(), &o.chat, me.id)
            .await?;
        let game = Game::new(&rules);
        lock(&self.cache).insert(row.id, (0, game.clone()));
        let live = Live {
            row,
            white: white.clone(),
            black: black.clone(),
            game,
            rules,
            control,
        };
        self.arm_game(&live);
        let lang = lang_of(o);
        let taken = Outgoing::reply(
            o,
            Msg::ChallengeTaken {
                id: chosen.id,
                by: me.name.clone(),
                game: live.id(),
            },
        )
        .editing(Slot::Challenge(chosen.id));
        let text = Msg::GameStarted {
            id: live.id(),
            white: white.name.clone(),
            black: black.name.clone(),
            terms: Box::new(terms_of(&chosen)?),
        };
        Ok(vec![
            taken,
            live.board_message(text, Color::White, now, None, lang),
        ])
    }

    pub(super) async fn decline(
        &self,
        o: &Origin,
        me: &Player,
        number: Option<i64>,
    ) -> Handled<Vec<Outgoing>> {
        let open = self
            .store
            .open_challenges_in(o.platform.as_str(), &o.chat)
            .await?;
        let c = match number {
            Some(n) => open.into_iter().find(|c| c.id == n),
            None => open
                .into_iter()
                .find(|c| c.challenger_id != me.id && !is_open_to_anyone(c) && addressed_to(c, me)),
        };
        let Some(c) = c else {
            return refuse(number.map_or(Msg::NoChallengeForYou, |id| Msg::NoSuchChallenge { id }));
        };
        if is_open_to_anyone(&c) || !addressed_to(&c, me) || c.challenger_id == me.id {
            return refuse(Msg::OnlyTargetDeclines);
        }
        if !self.store.close_challenge(c.id, "declined").await? {
            return refuse(Msg::ChallengeGone);
        }
        self.disarm(Key::Challenge(c.id));
        let challenger = self
            .store
            .player(c.challenger_id)
            .await?
            .map(|p| p.name)
            .unwrap_or_default();
        Ok(vec![Outgoing::reply(
            o,
            Msg::Declined {
                id: c.id,
                by: me.name.clone(),
                challenger,
            },
        )
        .editing(Slot::Challenge(c.id))])
    }

    pub(super) async fn cancel(
        &self,
        o: &Origin,
        me: &Player,
        number: Option<i64>,
    ) -> Handled<Vec<Outgoing>> {
        let open = self
            .store
            .open_challenges_in(o.platform.as_str(), &o.chat)
            .await?;
        if let Some(n) = number {
            if open.iter().any(|c| c.id == n && c.challenger_id != me.id) {
                return refuse(Msg::OnlyAuthorCancels);
            }
        }
        let c = open
            .into_iter()
            .find(|c| c.challenger_id == me.id && number.is_none_or(|n| n == c.id));
        let Some(c) = c else {
            return refuse(Msg::NothingToCancel);
        };
        if !self.store.close_challenge(c.id, "cancelled").await? {
            return refuse(Msg::ChallengeGone);
        }
        self.disarm(Key::Challenge(c.id));
        Ok(vec![
            Outgoing::reply(o, Msg::Cancelled { id: c.id }).editing(Slot::Challenge(c.id))
        ])
    }

    /// A challenge's time is up.
    pub(super) async fn expire(&self, id: i64, now: i64) -> Result<Vec<Outgoing>, StoreError> {
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
        let platform = Platform::parse(&c.platform).unwrap_or(Platform::Console);
        Ok(vec![Outgoing::to_chat(
            platform,
            &c.chat,
            Msg::Expired {
                id,
                challenger: name,
            },
        )
        .editing(Slot::Challenge(id))])
    }
}
