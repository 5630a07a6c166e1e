//! Challenges sent into chats the bot is not in (Telegram's inline mode): what an inline
//! query offers, as cards ready to send. A card is a challenge not made yet: once sent, the
//! adapter hands its `args` to `/challenge` in the card's own one-message chat (a
//! [`ChatRef`](super::ChatRef) of kind `OneMessage`), and the game is played on that message
//! by its buttons.
//!
//! What the query names is kept; what it leaves out is offered: every variant when none is
//! named, a few time controls when none is said.

use super::command::{self, ChallengeSpec, Command, Parsed};
use super::types::{lang_of, ChatRef, Incoming, Mention, Origin, Outgoing, User};
use super::Table;
use crate::clock::TimeControl;
use crate::corners::{Variant, STANDARD_IDS};
use crate::game::{Game, Rules};
use crate::view::BoardView;
use crate::words::{Duration, Msg};

/// Card pictures kept besides the built-in games' start positions (training rooms): every
/// new room a query names costs an upload where the platform keeps pictures (Telegram's
/// picture chats), which the games' boards need too, so made-up rooms, one per query, must
/// not go on filling it.
pub const MAX_EXTRA_PICTURES: usize = 32;

/// Whether a card's picture key is a built-in game's start position (any variant but a
/// training room's: a few dozen at most), as opposed to a training room's, of which there
/// is no end.
#[must_use]
pub fn is_start_picture(key: &str) -> bool {
    !matches!(Rules::from_id(key), Ok(Rules::Corners(v)) if v.is_training())
}

/// Why a query whose cards all lacked their pictures shows none: every card was a training
/// room's (their pictures have a room of their own, which is full), or the pictures could
/// not be stored at all.
#[must_use]
pub fn why_no_pictures(cards: &[Card]) -> Msg {
    if cards.iter().all(|c| !is_start_picture(&c.picture)) {
        Msg::InlineNoTraining
    } else {
        Msg::InlineUnavailable
    }
}

/// The time controls a card offers when the query says none: the default first.
pub const OFFERED_TIMES: [&str; 4] = ["10+5", "5+3", "3+2", "1d"];

/// One challenge an inline query offers.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    /// What `/challenge` is given when the card is sent: the query with the variant and
    /// time it left out (`halma16 5+3 @dana`).
    pub args: String,
    /// The card's title in the list: the terms.
    pub title: Msg,
    /// The line under the title: who may accept.
    pub description: Msg,
    /// The sent card's caption, until its challenge is set up.
    pub caption: Msg,
    /// The start position (no names, no clocks); the same for every card of `rules`.
    pub board: BoardView,
    /// What the picture depends on: cards with the same one share it.
    pub picture: String,
}

/// The words of a query that name the game, and those that name the time (the argument
/// of `movetime` and `stake` is neither).
fn said(query: &str) -> (bool, bool) {
    let (mut game, mut time) = (false, false);
    let mut words = query.split_whitespace().map(str::to_ascii_lowercase);
    while let Some(w) = words.next() {
        match w.as_str() {
            "movetime" | "stake" => {
                words.next();
            }
            "corners" | "ugolki" | "damas" | "checkers" | "draughts" | "flying" | "short" => {
                game = true;
            }
            w if w.starts_with('@') => {}
            w if TimeControl::parse(w).is_ok() => time = true,
            w if Variant::by_id(w).is_ok() => game = true,
            _ => {}
        }
    }
    (game, time)
}

/// The game words for a rules choice the query left out.
fn rules_word(rules: &Rules) -> String {
    match rules {
        Rules::Corners(v) => v.id.clone(),
        Rules::Damas { flying: true } => "damas".into(),
        Rules::Damas { flying: false } => "damas short".into(),
    }
}

/// The cards for `query` (what follows the bot's name), sent by `from`; `mentions` are the
/// people it names. A query `/challenge` would refuse is refused with the same message.
pub fn cards(query: &str, mentions: &[Mention], from: &str) -> Result<Vec<Card>, Msg> {
    let query = query.trim();
    let Some(Parsed::Command(Command::Challenge(spec))) =
        command::parse(&format!("/challenge {query}"), mentions, None)?
    else {
        // `/challenge …` always reads as a challenge or a refusal.
        return Err(Msg::CmdChallengeWord {
            word: query.chars().take(30).collect(),
        });
    };
    let (game_said, time_said) = said(query);
    let rules: Vec<Rules> = if game_said {
        vec![spec.rules.clone()]
    } else {
        STANDARD_IDS
            .iter()
            .filter_map(|id| Variant::by_id(id).ok())
            .map(Rules::Corners)
            .chain([Rules::Damas { flying: true }])
            .collect()
    };
    let times: Vec<TimeControl> = if time_said {
        vec![spec.time]
    } else {
        OFFERED_TIMES
            .iter()
            .filter_map(|t| TimeControl::parse(t).ok())
            .collect()
    };
    // Every variant at the default time, or one variant at each offered time.
    let times = if game_said {
        times
    } else {
        times[..1].to_vec()
    };
    let to = match &spec.opponent {
        None => None,
        Some(Mention::Handle(h)) => Some(format!("@{}", h.trim_start_matches('@'))),
        Some(Mention::User(u)) => Some(u.name.clone()),
    };
    let mut out = Vec::new();
    let mut first_refusal = None;
    for r in &rules {
        for t in &times {
            let card = ChallengeSpec {
                rules: r.clone(),
                time: *t,
                ..spec.clone()
            };
            match card.validated() {
                Ok(card) => out.push(card_for(
                    &card,
                    query,
                    game_said,
                    time_said,
                    from,
                    to.as_ref(),
                )),
                Err(m) => {
                    first_refusal.get_or_insert(m);
                }
            }
        }
    }
    match (out.is_empty(), first_refusal) {
        (true, Some(m)) => Err(m),
        _ => Ok(out),
    }
}

fn card_for(
    spec: &ChallengeSpec,
    query: &str,
    game_said: bool,
    time_said: bool,
    from: &str,
    to: Option<&String>,
) -> Card {
    let mut args: Vec<String> = Vec::new();
    if !game_said {
        args.push(rules_word(&spec.rules));
    }
    if !time_said {
        args.push(spec.time.to_string());
    }
    if !query.is_empty() {
        args.push(query.to_string());
    }
    let rated = spec.rated.unwrap_or(match &spec.rules {
        Rules::Corners(v) => v.rated,
        Rules::Damas { .. } => false,
    });
    let terms = Msg::Terms {
        rules: Box::new(spec.rules.clone()),
        time: spec.time,
        rated,
        movetime: spec.movetime_ms.map(Duration),
        monitor: spec.monitor,
        stake: spec.stake,
    };
    let (caption, description) = match to {
        Some(to) => (
            Msg::InlineCardTo {
                from: from.to_string(),
                to: to.clone(),
                terms: Box::new(terms.clone()),
            },
            Msg::InlineCardFor { to: to.clone() },
        ),
        None => (
            Msg::InlineCardOpen {
                from: from.to_string(),
                terms: Box::new(terms.clone()),
            },
            Msg::InlineCardForAnyone,
        ),
    };
    Card {
        args: args.join(" "),
        title: terms,
        description,
        caption,
        board: BoardView::of_game(&Game::new(&spec.rules)),
        picture: spec.rules.id(),
    }
}

/// The `@handles` in an inline query (it has no entities): each `@word` of username
/// characters, as typed `@username` mentions are read from messages.
#[must_use]
pub fn handles(query: &str) -> Vec<Mention> {
    query
        .split_whitespace()
        .filter_map(|w| w.strip_prefix('@'))
        .filter(|h| {
            (1..=32).contains(&h.len()) && h.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .map(|h| Mention::Handle(h.to_ascii_lowercase()))
        .collect()
}

/// The message id of a card's `/challenge`, whichever way it comes (chosen or pressed):
/// it is made once.
const CARD_MESSAGE: &str = "chosen";

/// Someone in a card's one-message chat, with their language hint: sending the card, or
/// (`press`) pressing one of its buttons.
fn card_origin(
    chat: &ChatRef,
    user: User,
    id: String,
    locale: Option<String>,
    press: bool,
) -> Origin {
    let mut o = if press {
        Origin::interaction(chat.clone(), user, id)
    } else {
        Origin::message(chat.clone(), user, id)
    };
    o.reply_to = None;
    o.locale = locale;
    o
}

impl Table {
    /// A card was sent (its chosen result): its challenge is made in the card's
    /// one-message chat, in its sender's name. `index`: its place among the cards `query`
    /// offered. What the table says, refusals too, is shown on that message (the only
    /// place there is).
    pub async fn card_chosen(
        &self,
        chat: &ChatRef,
        from: &User,
        locale: Option<String>,
        query: &str,
        index: usize,
    ) {
        let card = cards(query, &handles(query), &from.name)
            .and_then(|cards| cards.into_iter().nth(index).ok_or(Msg::ChallengeGone));
        let origin = card_origin(chat, from.clone(), CARD_MESSAGE.into(), locale, false);
        match card {
            Ok(card) => self.make_card_challenge(origin, &card.args).await,
            Err(refusal) => {
                let out = Outgoing::to_chat(chat, refusal).in_lang(lang_of(&origin));
                self.tell(vec![out]).await;
            }
        }
    }

    /// `/challenge ARGS` from a card's sender in its message's chat.
    async fn make_card_challenge(&self, origin: Origin, args: &str) {
        let text = format!("/challenge {args}");
        self.handle(&Incoming::text(origin, &text, handles(args)))
            .await;
    }

    /// A card's button pressed (`data`, signed with `key`): its challenge is made if it was
    /// not yet, in its sender's name, then the press answers it — Accept; Decline, or
    /// Cancel by its sender. The replies; those for the presser are the press's answer.
    #[allow(clippy::too_many_arguments)]
    pub async fn card_pressed(
        &self,
        chat: &ChatRef,
        presser: &User,
        press: String,
        locale: Option<String>,
        key: &[u8],
        data: &str,
    ) -> Vec<Outgoing> {
        let me = card_origin(chat, presser.clone(), press, locale.clone(), true);
        let refuse = |m: Msg| vec![Outgoing::private(&me, m)];
        let Some(card) = super::card_data::read_card(key, data) else {
            return refuse(Msg::InlineNotReady);
        };
        if !card.fresh(self.now_min()) {
            return refuse(Msg::InlineCardExpired);
        }
        let Some(sender) = self.known_user(chat.platform, &card.sender).await else {
            return refuse(Msg::InlineNotReady);
        };
        let command = match (card.accept, presser.id == sender.id) {
            (true, _) => "/accept",
            (false, true) => "/cancel",
            (false, false) => "/decline",
        };
        let origin = card_origin(chat, sender, CARD_MESSAGE.into(), locale, false);
        self.make_card_challenge(origin, &card.args).await;
        self.handle(&Incoming::text(me, command, Vec::new())).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_without_pictures_say_why_training_rooms_have_a_room_of_their_own() {
        let all = cards("", &[], "alice").unwrap();
        assert_eq!(why_no_pictures(&all), Msg::InlineUnavailable);
        let training: Vec<Card> = all
            .into_iter()
            .map(|mut c| {
                c.picture = "training:classic3x3,diag,blocking=off".into();
                c
            })
            .collect();
        assert!(training.iter().all(|c| !is_start_picture(&c.picture)));
        assert_eq!(why_no_pictures(&training), Msg::InlineNoTraining);
        // Some cards of the standard games among them: their pictures could not be kept.
        let mut mixed = training;
        mixed[0].picture = "classic3x3".into();
        assert_eq!(why_no_pictures(&mixed), Msg::InlineUnavailable);
    }

    fn handles(q: &str) -> Vec<Mention> {
        q.split_whitespace()
            .filter_map(|w| w.strip_prefix('@'))
            .map(|h| Mention::Handle(h.to_string()))
            .collect()
    }

    fn args(q: &str) -> Vec<String> {
        cards(q, &handles(q), "alice")
            .unwrap()
            .into_iter()
            .map(|c| c.args)
            .collect()
    }

    #[test]
    fn an_inline_query_names_people_by_their_handles() {
        assert_eq!(
            super::handles("halma16 @Dana 5+3 @ @@x @bad-name"),
            [Mention::Handle("dana".into())]
        );
    }

    #[test]
    fn an_empty_query_offers_every_variant_at_the_default_time() {
        let a = args("");
        // The seven standard Corners variants (C10) and Damas.
        assert_eq!(a.len(), 8);
        assert_eq!(a[0], "classic3x3 10+5");
        assert_eq!(a[6], "halma16 10+5");
        assert_eq!(a[7], "damas 10+5");
    }

    #[test]
    fn a_named_variant_is_offered_at_a_few_times() {
        assert_eq!(
            args("damas"),
            ["10+5 damas", "5+3 damas", "3+2 damas", "1d damas"]
        );
    }

    #[test]
    fn a_named_variant_and_time_is_one_card_and_keeps_the_rest_of_the_query() {
        let c = cards("halma16 5+3 @dana casual", &handles("@dana"), "alice").unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].args, "halma16 5+3 @dana casual");
        assert_eq!(c[0].picture, "halma16");
        assert_eq!(c[0].board.side, 16);
        assert_eq!(c[0].description, Msg::InlineCardFor { to: "@dana".into() });
        let Msg::InlineCardTo { from, to, terms } = &c[0].caption else {
            panic!("{:?}", c[0].caption)
        };
        assert_eq!((from.as_str(), to.as_str()), ("alice", "@dana"));
        assert!(matches!(**terms, Msg::Terms { rated: false, .. }));
    }

    #[test]
    fn a_time_alone_is_every_variant_at_that_time() {
        let a = args("3+2");
        assert_eq!(a.len(), 8);
        assert!(a.iter().all(|a| a.ends_with(" 3+2")), "{a:?}");
    }

    #[test]
    fn every_card_reads_back_as_the_challenge_it_shows() {
        for q in [
            "",
            "damas",
            "halma16 5+3",
            "1d white",
            "damas short 3+2 rated",
        ] {
            for card in cards(q, &[], "alice").unwrap() {
                let Ok(Some(Parsed::Command(Command::Challenge(spec)))) =
                    command::parse(&format!("/challenge {}", card.args), &[], None)
                else {
                    panic!("{q:?}: {} does not read back", card.args);
                };
                assert_eq!(card.picture, spec.rules.id(), "{q:?}");
            }
        }
    }

    #[test]
    fn a_query_challenge_would_refuse_is_refused_the_same_way() {
        assert_eq!(
            cards("classic3x3 zebra", &[], "alice"),
            Err(Msg::CmdChallengeWord {
                word: "zebra".into()
            })
        );
        assert_eq!(cards("5+3 1d", &[], "alice"), Err(Msg::CmdOneTimeControl));
        assert_eq!(cards("monitor", &[], "alice"), Err(Msg::CmdDamasOptions));
        // `rated` with no game named: the unrated variants are left out.
        let c = cards("rated", &[], "alice").unwrap();
        assert!(!c.is_empty() && c.len() < 8, "{}", c.len());
    }

    #[test]
    fn hostile_queries_are_refused_with_a_reason_never_a_panic() {
        // Longer than anything the table reads (Telegram sends at most 256 characters).
        let huge = "classic3x3 ".repeat(60);
        assert_eq!(
            cards(&huge, &[], "alice"),
            Err(Msg::CmdTooLong {
                max: command::MAX_MESSAGE
            })
        );
        // Unicode, a lone @, two people, a command where the terms go.
        assert!(matches!(
            cards("классика 5+3", &[], "alice"),
            Err(Msg::CmdChallengeWord { .. })
        ));
        assert_eq!(cards("@", &[], "alice"), Err(Msg::CmdNameAfterAt));
        let two = [
            Mention::Handle("bob".into()),
            Mention::Handle("dana".into()),
        ];
        assert_eq!(cards("@bob @dana", &two, "alice"), Err(Msg::OneAtATime));
        assert!(cards("/resign", &[], "alice").is_err());
        // The same query again: the same cards (a chosen result is read back by index).
        assert_eq!(cards("damas", &[], "alice"), cards("damas", &[], "alice"));
    }
}
