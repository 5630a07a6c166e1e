//! Challenges: made, accepted (the game starts), declined, cancelled, expired. A challenge's
//! message is a living message (its slot): answered or expired, it loses its buttons.

use super::action::Action;
use super::command::{ChallengeSpec, ColorChoice};
use super::live::Live;
use super::outbox::{says_now, Later};
use super::public::{and_line, page_line_at};
use super::timers::Key;
use super::types::{lang_of, ChatKind, ChatRef, Mention, Origin, Outgoing, Platform, Slot};
use super::{lock, refuse, Handled, Table};
use crate::clock::TimeControl;
use crate::color::Color;
use crate::game::{Game, Rules};
use crate::store::{
    Accepted, ChallengeRow, ChallengeStatus, NewChallenge, NewGame, Player, StoreError,
};
use crate::words::{Duration, Msg};

/// The terms of a stored challenge.
pub(super) fn terms_of(c: &ChallengeRow) -> Msg {
    Msg::Terms {
        rules: Box::new(c.rules.clone()),
        time: TimeControl::parse(&c.time_control).unwrap_or(TimeControl::Unlimited),
        rated: c.rated,
        movetime: c.movetime_ms.map(Duration),
        monitor: c.monitor,
        stake: c.stake,
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

/// Whether a name mixes Latin with Cyrillic or Greek letters (`сarol` with a Cyrillic
/// `с`): such a name can pass for another player's.
fn mixes_alphabets(name: &str) -> bool {
    let latin = name.chars().any(|c| c.is_ascii_alphabetic());
    let other = name
        .chars()
        .any(|c| matches!(c, '\u{0370}'..='\u{03FF}' | '\u{0400}'..='\u{052F}'));
    latin && other
}

/// A player as challenges name them: the display name, with the platform handle when the
/// name alone could be mistaken (it is not plain ASCII, or the handle differs from it).
fn shown(p: &Player) -> String {
    match &p.handle {
        Some(h) if !p.name.is_ascii() || !h.eq_ignore_ascii_case(&p.name) => {
            format!("{} (@{h})", p.name)
        }
        _ => p.name.clone(),
    }
}

/// The start of the UTC day of `now` (F2 counts per UTC day).
fn day_start(now: i64) -> i64 {
    now - now.rem_euclid(86_400_000)
}

impl Table {
    /// Who a challenge names: a known player, or an @handle nobody has seen yet.
    async fn target_of(
        &self,
        o: &Origin,
        spec: &ChallengeSpec,
        now: i64,
    ) -> Handled<(Option<Player>, Option<String>)> {
        Ok(match &spec.opponent {
            None => (None, None),
            Some(Mention::User(u)) => (Some(self.person_for(o.platform(), u, now).await?), None),
            Some(Mention::Handle(h)) => {
                let h = h.strip_prefix('@').unwrap_or(h).to_ascii_lowercase();
                match self
                    .store
                    .player_by_handle(o.platform().as_str(), &h)
                    .await?
                {
                    Some(p) => (Some(p), None),
                    None => (None, Some(h)),
                }
            }
        })
    }

    /// F3: a few open challenges at once, a few new ones a minute; and room for another
    /// game.
    pub(super) async fn within_challenge_limits(&self, me: &Player, now: i64) -> Handled<()> {
        self.room_for_a_game(me).await?;
        let (open, recent) = self.store.challenges_by(me.id, now, now - 60_000).await?;
        if open >= self.config.max_open_challenges {
            return refuse(Msg::TooManyChallenges {
                max: self.config.max_open_challenges,
            });
        }
        if recent >= self.config.max_challenges_per_minute {
            return refuse(Msg::ChallengeRate {
                max: self.config.max_challenges_per_minute,
            });
        }
        Ok(())
    }

    /// Fewer running games than [`Config::max_active_games`](super::Config).
    async fn room_for_a_game(&self, me: &Player) -> Handled<()> {
        let max = self.config.max_active_games;
        if self.store.active_game_count(me.id).await? >= max {
            return refuse(Msg::TooManyGames { max });
        }
        Ok(())
    }

    pub(super) async fn challenge(
        &self,
        o: &Origin,
        me: &Player,
        spec: &ChallengeSpec,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let (target, target_handle) = self.target_of(o, spec, now).await?;
        let target_id = target.as_ref().map(|p| p.id);
        let self_handle = me
            .handle
            .as_deref()
            .is_some_and(|h| Some(h) == target_handle.as_deref());
        if target_id == Some(me.id) || self_handle {
            return refuse(Msg::SelfChallenge);
        }
        self.within_challenge_limits(me, now).await?;
        let rated = spec.rated.unwrap_or(match &spec.rules {
            Rules::Corners(v) => v.rated,
            Rules::Damas { .. } => false,
        });
        // F2: said before it is accepted, when the opponent is known. A game made casual
        // carries no stake (stakes go with rated games).
        let pair_limit = match target_id {
            Some(t) if rated => self.pair_limit_reached(me.id, t, &spec.rules, now).await?,
            _ => false,
        };
        let stake = spec.stake.filter(|_| !pair_limit);
        if let Some(stake) = stake {
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
        let one_message = o.chat.one_message();
        let ttl = self.config.challenge_ttl_ms;
        let (later, says) = {
            let (o, me, target, target_handle) =
                (o.clone(), me.clone(), target.clone(), target_handle.clone());
            Later::new(move |row: &ChallengeRow| {
                // On one message nobody can be told "send /start first": the named person
                // only has to press Accept (the press tells who they are).
                let text = challenge_text(
                    row,
                    ttl,
                    &me,
                    target.as_ref(),
                    target_handle,
                    pair_limit,
                    one_message,
                );
                let id = row.id;
                let mut buttons = vec![Action::Accept { challenge: id }];
                // One message (most often a private chat between two friends): anyone but
                // the challenger may decline an open challenge too.
                if row.target_id.is_some() || row.target_handle.is_some() || one_message {
                    buttons.push(Action::Decline { challenge: id });
                }
                buttons.push(Action::Cancel { challenge: id });
                vec![Outgoing::reply(&o, text)
                    .replacing(Slot::Challenge(id))
                    .with_actions(buttons)]
            })
        };
        let row = self
            .store
            .create_challenge(
                &NewChallenge {
                    platform: o.platform().as_str().to_string(),
                    chat: o.chat.id.clone(),
                    chat_kind: o.chat.kind.as_str().to_string(),
                    challenger_id: me.id,
                    target_id,
                    target_handle: target_handle.clone(),
                    rules: spec.rules.clone(),
                    time_control: spec.time.to_string(),
                    rated: rated && !pair_limit,
                    color: spec.color,
                    movetime_ms: spec.movetime_ms,
                    monitor: spec.monitor,
                    stake,
                    created_at: now,
                    expires_at: now + self.config.challenge_ttl_ms,
                },
                says,
            )
            .await?;
        self.store
            .note_chat_player(o.platform().as_str(), &o.chat.id, me.id)
            .await?;
        self.arm(Key::Challenge(row.id), row.expires_at);
        Ok(later.take())
    }
}

/// What a new challenge says: to whom, on what terms, and any warning about names.
fn challenge_text(
    row: &ChallengeRow,
    ttl_ms: i64,
    me: &Player,
    target: Option<&Player>,
    target_handle: Option<String>,
    pair_limit: bool,
    one_message: bool,
) -> Msg {
    {
        let minutes = (ttl_ms + 59_999) / 60_000;
        let terms = Box::new(terms_of(row));
        let (id, wish) = (row.id, row.color.side());
        let to = match (target, &target_handle) {
            (Some(p), _) => Some(shown(p)),
            (None, Some(h)) => Some(format!("@{h}")),
            (None, None) => None,
        };
        let text = match to {
            Some(to) => Msg::ChallengeTo {
                id,
                from: shown(me),
                to,
                terms,
                wish,
                minutes,
                pair_limit,
                buttons: one_message,
            },
            None => Msg::ChallengeOpen {
                id,
                from: shown(me),
                terms,
                wish,
                minutes,
                buttons: one_message,
            },
        };
        // Names that mix alphabets are pointed out: `сarol` is not `carol`.
        let lookalikes = std::iter::once(me)
            .chain(target)
            .filter(|p| mixes_alphabets(&p.name))
            .map(|p| Msg::LookAlike {
                name: p.name.clone(),
            });
        // An @handle nobody has seen: they must talk to the bot before it knows them.
        let unseen = target_handle
            .filter(|_| !one_message)
            .map(|handle| Msg::UnseenPlayer { handle });
        let lines: Vec<Msg> = std::iter::once(text)
            .chain(lookalikes)
            .chain(unseen)
            .collect();
        if lines.len() == 1 {
            lines.into_iter().next().unwrap_or(Msg::ChallengeGone)
        } else {
            Msg::Lines(lines)
        }
    }
}

impl Table {
    /// The challenge a bare or numbered `/accept` means.
    fn choose<'a>(
        open: &'a [ChallengeRow],
        me: &Player,
        number: Option<i64>,
    ) -> Result<&'a ChallengeRow, Msg> {
        if let Some(n) = number {
            return match open.iter().find(|c| c.id == n) {
                None => Err(Msg::NoSuchChallenge { id: n }),
                Some(c) if c.challenger_id == me.id => Err(Msg::OwnChallenge { buttons: false }),
                Some(c) if !addressed_to(c, me) => Err(Msg::ChallengeForSomeoneElse { id: n }),
                Some(c) => Ok(c),
            };
        }
        // F3: a bare /accept takes the one challenge open to me; with several, I say which
        // (the caller lists them).
        let mine: Vec<&ChallengeRow> = open
            .iter()
            .filter(|c| c.challenger_id != me.id && addressed_to(c, me))
            .collect();
        match mine.as_slice() {
            [one] => Ok(one),
            [] if !open.is_empty() && open.iter().all(|c| c.challenger_id == me.id) => {
                Err(Msg::OwnChallenge { buttons: false })
            }
            [] => Err(Msg::NoChallengeForYou),
            _ => Err(Msg::WhichChallenge {
                list: crate::words::List(Vec::new()),
                first: 0,
                more: 0,
                decline: false,
            }),
        }
    }

    /// The reply to a bare `/accept` or `/decline` with several challenges open: the
    /// newest few, and how many more (F3). However many are open, the reply stays short.
    async fn which_challenge(
        &self,
        candidates: &[&ChallengeRow],
        decline: bool,
    ) -> Handled<Vec<Outgoing>> {
        let mut newest: Vec<&ChallengeRow> = candidates.to_vec();
        newest.sort_by_key(|c| std::cmp::Reverse(c.id));
        let more = newest.len().saturating_sub(crate::words::LISTED);
        newest.truncate(crate::words::LISTED);
        let mut list = Vec::new();
        for c in newest {
            let from = self
                .person(c.challenger_id)
                .await?
                .map_or_else(|| "?".to_string(), |p| shown(&p));
            list.push(Msg::ChallengeBrief {
                id: c.id,
                from,
                terms: Box::new(terms_of(c)),
            });
        }
        let first = match list.first() {
            Some(Msg::ChallengeBrief { id, .. }) => *id,
            _ => 0,
        };
        refuse(Msg::WhichChallenge {
            list: crate::words::List(list),
            first,
            more,
            decline,
        })
    }

    /// Whether two players have had their rated games of this kind today (F2).
    pub(super) async fn pair_limit_reached(
        &self,
        a: i64,
        b: i64,
        rules: &Rules,
        now: i64,
    ) -> Result<bool, StoreError> {
        let Some(kind) = crate::rating::RatingKind::of_rules(rules) else {
            return Ok(false);
        };
        let played = self
            .store
            .rated_games_between(a, b, day_start(now))
            .await?
            .iter()
            .filter(|r| crate::rating::RatingKind::of_rules(r) == Some(kind))
            .count();
        Ok(played >= self.config.max_rated_pair_games_per_day)
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
            .open_challenges_in(o.platform().as_str(), &o.chat.id)
            .await?;
        let open: Vec<ChallengeRow> = open.into_iter().filter(|c| c.expires_at > now).collect();
        let chosen = match Self::choose(&open, me, number) {
            Ok(c) => c.clone(),
            Err(Msg::WhichChallenge { .. }) => {
                let mine: Vec<&ChallengeRow> = open
                    .iter()
                    .filter(|c| c.challenger_id != me.id && addressed_to(c, me))
                    .collect();
                return self.which_challenge(&mine, false).await;
            }
            Err(Msg::OwnChallenge { .. }) => {
                return refuse(Msg::OwnChallenge {
                    buttons: o.chat.one_message(),
                })
            }
            Err(m) => return refuse(m),
        };
        self.room_for_a_game(me).await?;
        let Some(challenger) = self.store.player(chosen.challenger_id).await? else {
            return refuse(Msg::ChallengeGone);
        };
        let challenger_white = match chosen.color {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            // Random: a coin from the moment of acceptance.
            ColorChoice::Random => (now ^ chosen.id) & 1 == 0,
        };
        let (white, black) = if challenger_white {
            (&challenger, me)
        } else {
            (me, &challenger)
        };
        let lang = lang_of(o);
        let (taker, shown_white, shown_black) = (me.name.clone(), shown(white), shown(black));
        let o2 = o.clone();
        let chosen2 = chosen.clone();
        // A game of a group can be watched on its page from its first board.
        let pages = self.pages().map(str::to_owned);
        let (_, out) = self
            .start_game(&chosen, white, black, now, move |live, pair_limit| {
                let taken = Outgoing::reply(
                    &o2,
                    Msg::ChallengeTaken {
                        id: chosen2.id,
                        by: taker,
                        game: live.id(),
                    },
                )
                .in_game(live.id())
                .editing(Slot::Challenge(chosen2.id));
                let mut terms = terms_of(&chosen2);
                if let Msg::Terms { rated, stake, .. } = &mut terms {
                    *rated = live.row.rated;
                    stake.clone_from(&live.row.stake);
                }
                let text = Msg::GameStarted {
                    id: live.id(),
                    white: shown_white,
                    black: shown_black,
                    terms: Box::new(terms),
                    pair_limit,
                };
                let text = and_line(text, page_line_at(pages.as_deref(), &live.row));
                vec![
                    taken,
                    live.board_message(text, Color::White, now, None, lang),
                ]
            })
            .await?;
        self.store
            .note_chat_player(o.platform().as_str(), &o.chat.id, me.id)
            .await?;
        Ok(out)
    }

    /// Start the game a challenge offers: stakes covered, F2 checked again now that both
    /// players are known (a game it makes casual carries no stake), the timer armed.
    /// `tell` says what the chat is told of it (given the new game and whether F2 made it
    /// casual), in the transaction that starts it.
    pub(super) async fn start_game(
        &self,
        chosen: &ChallengeRow,
        white: &Player,
        black: &Player,
        now: i64,
        tell: impl FnOnce(&Live, bool) -> Vec<Outgoing> + Send + 'static,
    ) -> Handled<(Live, Vec<Outgoing>)> {
        let rules = chosen.rules.clone();
        let pair_limit = chosen.rated
            && self
                .pair_limit_reached(white.id, black.id, &rules, now)
                .await?;
        let stake = chosen.stake.filter(|_| !pair_limit);
        if let Some(stake) = stake {
            for p in [white, black] {
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
        let control = TimeControl::parse(&chosen.time_control).unwrap_or(TimeControl::Unlimited);
        let new = NewGame {
            rules: rules.clone(),
            start_position: None,
            white_id: white.id,
            black_id: black.id,
            rated: chosen.rated && !pair_limit,
            stake,
            time_control: control.to_string(),
            bank_ms: match control {
                TimeControl::Fischer { base_ms, .. } => base_ms,
                _ => 0,
            },
            movetime_ms: chosen.movetime_ms,
            monitor: chosen.monitor,
            now,
        };
        let game = Game::new(&rules);
        let (later, says) = {
            let (white, black, game) = (white.clone(), black.clone(), game.clone());
            Later::new(move |row: &crate::store::GameRow| {
                let live = Live {
                    row: row.clone(),
                    white,
                    black,
                    game,
                    control,
                };
                tell(&live, pair_limit)
            })
        };
        let row = match self.store.accept_challenge(chosen.id, &new, says).await? {
            Accepted::Started(row) => *row,
            Accepted::Gone => return refuse(Msg::ChallengeGone),
            Accepted::NotEnoughChips => {
                return refuse(Msg::StakeNotCovered {
                    stake: stake.unwrap_or(0),
                })
            }
        };
        self.disarm(Key::Challenge(chosen.id));
        lock(&self.cache).insert(row.id, (0, 0, game.clone()));
        let live = Live {
            row,
            white: white.clone(),
            black: black.clone(),
            game,
            control,
        };
        // The new game's row says its timer is due at once; now it gets the real time.
        self.set_due(&live).await?;
        Ok((live, later.take()))
    }

    pub(super) async fn decline(
        &self,
        o: &Origin,
        me: &Player,
        number: Option<i64>,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let one_message = o.chat.one_message();
        let open = self
            .store
            .open_challenges_in(o.platform().as_str(), &o.chat.id)
            .await?;
        let c = if let Some(n) = number {
            open.into_iter().find(|c| c.id == n)
        } else {
            let mine: Vec<&ChallengeRow> = open
                .iter()
                .filter(|c| {
                    c.challenger_id != me.id
                        && (one_message || !is_open_to_anyone(c))
                        && addressed_to(c, me)
                })
                .collect();
            // Several: which one is said, as for `/accept`, never guessed.
            if mine.len() > 1 {
                return self.which_challenge(&mine, true).await;
            }
            mine.first().map(|c| (*c).clone())
        };
        let Some(c) = c else {
            return refuse(number.map_or(Msg::NoChallengeForYou, |id| Msg::NoSuchChallenge { id }));
        };
        if (is_open_to_anyone(&c) && !one_message)
            || !addressed_to(&c, me)
            || c.challenger_id == me.id
        {
            return refuse(Msg::OnlyTargetDeclines {
                buttons: one_message,
            });
        }
        let challenger = self
            .store
            .player(c.challenger_id)
            .await?
            .map(|p| p.name)
            .unwrap_or_default();
        let mut out = vec![Outgoing::reply(
            o,
            Msg::Declined {
                id: c.id,
                by: me.name.clone(),
                challenger,
            },
        )
        .editing(Slot::Challenge(c.id))];
        let closed = self
            .store
            .close_challenge(c.id, ChallengeStatus::Declined, says_now(&mut out), now)
            .await?;
        if !closed {
            return refuse(Msg::ChallengeGone);
        }
        self.disarm(Key::Challenge(c.id));
        Ok(out)
    }

    pub(super) async fn cancel(
        &self,
        o: &Origin,
        me: &Player,
        number: Option<i64>,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let open = self
            .store
            .open_challenges_in(o.platform().as_str(), &o.chat.id)
            .await?;
        if let Some(n) = number {
            if open.iter().any(|c| c.id == n && c.challenger_id != me.id) {
                return refuse(Msg::OnlyAuthorCancels);
            }
        }
        let mut mine: Vec<ChallengeRow> = open
            .into_iter()
            .filter(|c| c.challenger_id == me.id && number.is_none_or(|n| n == c.id))
            .collect();
        // F3: several of one's own open and none named: which one is said, never guessed.
        if mine.len() > 1 {
            mine.sort_by_key(|c| std::cmp::Reverse(c.id));
            let more = mine.len().saturating_sub(crate::words::LISTED);
            let list = mine
                .iter()
                .take(crate::words::LISTED)
                .map(|c| Msg::CancelBrief {
                    id: c.id,
                    terms: Box::new(terms_of(c)),
                })
                .collect();
            return refuse(Msg::WhichToCancel {
                list: crate::words::List(list),
                first: mine[0].id,
                more,
            });
        }
        let Some(c) = mine.pop() else {
            // A number (a Cancel button's) of a challenge no longer open: said so.
            return refuse(number.map_or(Msg::NothingToCancel, |id| Msg::NoSuchChallenge { id }));
        };
        let mut out =
            vec![Outgoing::reply(o, Msg::Cancelled { id: c.id }).editing(Slot::Challenge(c.id))];
        let closed = self
            .store
            .close_challenge(c.id, ChallengeStatus::Cancelled, says_now(&mut out), now)
            .await?;
        if !closed {
            return refuse(Msg::ChallengeGone);
        }
        self.disarm(Key::Challenge(c.id));
        Ok(out)
    }

    /// A challenge's time is up.
    pub(super) async fn expire(&self, id: i64, now: i64) -> Result<Vec<Outgoing>, StoreError> {
        let Some(c) = self.store.challenge(id).await? else {
            return Ok(Vec::new());
        };
        if c.status != ChallengeStatus::Open {
            return Ok(Vec::new());
        }
        if c.expires_at > now {
            // Not yet (clocks of two processes disagree): keep the claim until then.
            self.store
                .retry_at(Key::Challenge(id), c.expires_at)
                .await?;
            self.arm(Key::Challenge(id), c.expires_at);
            return Ok(Vec::new());
        }
        let name = self
            .store
            .player(c.challenger_id)
            .await?
            .map(|p| p.name)
            .unwrap_or_default();
        let chat = ChatRef::new(
            Platform::parse(&c.platform).unwrap_or(Platform::Console),
            c.chat.clone(),
            ChatKind::parse(&c.chat_kind).unwrap_or(ChatKind::Group),
        );
        // Nobody asked: in the chat's language.
        let lang = self.chat_lang_or_english(chat.platform, &chat.id).await;
        let mut out = vec![Outgoing::to_chat(
            &chat,
            Msg::Expired {
                id,
                challenger: name,
            },
        )
        .in_lang(lang)
        .editing(Slot::Challenge(id))];
        let closed = self
            .store
            .close_challenge(id, ChallengeStatus::Expired, says_now(&mut out), now)
            .await?;
        Ok(if closed { out } else { Vec::new() })
    }
}
