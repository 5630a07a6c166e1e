//! Reading `/tournament`'s words: the format, then what `/challenge` takes for the games
//! (variant, time, rated or casual), and the tournament's own options (`in 10m`,
//! `at 18:00`, an arena's `60m`, a Swiss's `5 rounds`). Anything else is refused by name.

use super::super::command::{parse_challenge, ColorChoice};
use crate::clock::TimeControl;
use crate::game::Rules;
use crate::tournament::Format;
use crate::words::Msg;

/// What `/tournament` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentCommand {
    /// Bare `/tournament`: how to make one.
    Usage,
    Create(TournamentSpec),
    /// The creator starts it now.
    Start,
    /// The creator calls it off before it starts.
    Cancel,
}

/// A tournament to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentSpec {
    pub format: Format,
    pub rules: Rules,
    pub time: TimeControl,
    /// None: as the variant is (rated where it is rated).
    pub rated: Option<bool>,
    pub start: StartAt,
    /// Swiss: how many rounds.
    pub rounds: Option<i64>,
    /// Arena: how long (ms).
    pub length_ms: Option<i64>,
}

/// When it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartAt {
    /// This long after it is made (ms).
    In(i64),
    /// At this time of day (UTC): the next one to come.
    At { hour: u8, minute: u8 },
}

/// Start in five minutes when nothing is said.
pub const DEFAULT_START_MS: i64 = 5 * 60_000;
/// A Swiss of five rounds when nothing is said, at most [`MAX_ROUNDS`].
pub const DEFAULT_ROUNDS: i64 = 5;
pub const MAX_ROUNDS: i64 = 20;
/// An arena of an hour when nothing is said, from [`MIN_ARENA_MINUTES`] to
/// [`MAX_ARENA_MINUTES`].
pub const DEFAULT_ARENA_MINUTES: i64 = 60;
pub const MIN_ARENA_MINUTES: i64 = 10;
pub const MAX_ARENA_MINUTES: i64 = 480;
/// The latest start: a day ahead.
const MAX_START_MS: i64 = 24 * 3_600_000;

/// `/tournament`'s words (after the command).
pub fn parse(words: &[&str]) -> Result<TournamentCommand, Msg> {
    let Some(first) = words.first() else {
        return Ok(TournamentCommand::Usage);
    };
    let head = first.to_ascii_lowercase();
    let only = |c: TournamentCommand| {
        if words.len() == 1 {
            Ok(c)
        } else {
            Err(bad(words[1]))
        }
    };
    match head.as_str() {
        "start" => return only(TournamentCommand::Start),
        "cancel" => return only(TournamentCommand::Cancel),
        "help" => return only(TournamentCommand::Usage),
        _ => {}
    }
    let format = Format::parse(&head).ok_or_else(|| bad(first))?;
    let (own, rest) = own_options(format, &words[1..])?;
    // The games' terms, as a challenge reads them; a tournament's games have no opponent
    // named, no colour asked for, no stake and no Damas extras.
    if let Some(w) = rest.iter().find(|w| w.starts_with('@')) {
        return Err(bad(w));
    }
    let spec = parse_challenge(&rest)?.validated()?;
    if spec.color != ColorChoice::Random
        || spec.stake.is_some()
        || spec.movetime_ms.is_some()
        || spec.monitor
    {
        let odd = rest
            .iter()
            .find(|w| {
                !matches!(
                    w.to_ascii_lowercase().as_str(),
                    "rated" | "casual" | "competitive" | "friendly"
                ) && TimeControl::parse(w).is_err()
                    && Rules::from_id(&w.to_ascii_lowercase()).is_err()
            })
            .copied()
            .unwrap_or("?");
        return Err(bad(odd));
    }
    if !matches!(spec.time, TimeControl::Fischer { .. }) {
        return Err(Msg::TournamentNeedsClock);
    }
    Ok(TournamentCommand::Create(TournamentSpec {
        format,
        rules: spec.rules,
        time: spec.time,
        rated: spec.rated,
        start: own.start,
        rounds: match format {
            Format::Swiss => Some(own.rounds.unwrap_or(DEFAULT_ROUNDS)),
            _ => None,
        },
        length_ms: match format {
            Format::Arena => Some(own.minutes.unwrap_or(DEFAULT_ARENA_MINUTES) * 60_000),
            _ => None,
        },
    }))
}

/// A tournament's own options, as said.
struct Own {
    start: StartAt,
    rounds: Option<i64>,
    minutes: Option<i64>,
}

/// The tournament's own options among `words` (`in 10m`, `at 18:00`, `5 rounds`, an
/// arena's `60m`), and the words left for the games' terms.
fn own_options<'a>(format: Format, words: &[&'a str]) -> Result<(Own, Vec<&'a str>), Msg> {
    let mut own = Own {
        start: StartAt::In(DEFAULT_START_MS),
        rounds: None,
        minutes: None,
    };
    let mut rest = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].to_ascii_lowercase();
        let next = words.get(i + 1).map(|s| s.to_ascii_lowercase());
        i += 1;
        match (w.as_str(), next.as_deref()) {
            ("in", Some(n)) => {
                i += 1;
                let ms = span_ms(n)
                    .filter(|ms| (0..=MAX_START_MS).contains(ms))
                    .ok_or_else(|| bad_start(&format!("in {n}")))?;
                own.start = StartAt::In(ms);
            }
            ("at", Some(n)) => {
                i += 1;
                own.start = clock_time(n).ok_or_else(|| bad_start(&format!("at {n}")))?;
            }
            ("in" | "at", None) => return Err(bad_start(&w)),
            (n, Some("rounds" | "round")) if n.bytes().all(|b| b.is_ascii_digit()) => {
                i += 1;
                if format != Format::Swiss {
                    return Err(bad(words[i - 2]));
                }
                let r = n
                    .parse::<i64>()
                    .ok()
                    .filter(|r| (1..=MAX_ROUNDS).contains(r));
                own.rounds = Some(r.ok_or(Msg::TournamentBadRounds { max: MAX_ROUNDS })?);
            }
            // An arena's length: minutes or hours, with no `+` (that is a time control).
            (n, _) if format == Format::Arena && span_ms(n).is_some() => {
                let m = span_ms(n).unwrap_or(0) / 60_000;
                if !(MIN_ARENA_MINUTES..=MAX_ARENA_MINUTES).contains(&m) {
                    return Err(Msg::TournamentBadLength {
                        min: MIN_ARENA_MINUTES,
                        max: MAX_ARENA_MINUTES,
                    });
                }
                own.minutes = Some(m);
            }
            _ => rest.push(words[i - 1]),
        }
    }
    Ok((own, rest))
}

fn bad(word: &str) -> Msg {
    Msg::TournamentBadWord {
        word: word.chars().take(24).collect(),
    }
}

fn bad_start(text: &str) -> Msg {
    Msg::TournamentBadStart {
        text: text.chars().take(24).collect(),
    }
}

/// `10m`, `90m`, `2h` (whole minutes or hours) in ms.
fn span_ms(w: &str) -> Option<i64> {
    // Any word may come here: split only where a character ends.
    if !w.is_ascii() {
        return None;
    }
    let (digits, unit) = w.split_at(w.len().checked_sub(1)?);
    if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = digits.parse().ok()?;
    match unit {
        "m" => Some(n * 60_000),
        "h" => Some(n * 3_600_000),
        _ => None,
    }
}

/// `18:00`, `9:30` (UTC).
fn clock_time(w: &str) -> Option<StartAt> {
    let (h, m) = w.split_once(':')?;
    let ok = |s: &str| !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit());
    if !ok(h) || m.len() != 2 || !ok(m) {
        return None;
    }
    let (hour, minute) = (h.parse::<u8>().ok()?, m.parse::<u8>().ok()?);
    (hour < 24 && minute < 60).then_some(StartAt::At { hour, minute })
}

impl StartAt {
    /// When it starts, said at `now`: `at` is the next such time of day to come.
    #[must_use]
    pub fn at(self, now: i64) -> i64 {
        match self {
            StartAt::In(ms) => now + ms,
            StartAt::At { hour, minute } => {
                const DAY: i64 = 86_400_000;
                let today = now.div_euclid(DAY) * DAY
                    + i64::from(hour) * 3_600_000
                    + i64::from(minute) * 60_000;
                if today > now {
                    today
                } else {
                    today + DAY
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(t: &str) -> Result<TournamentCommand, Msg> {
        parse(&t.split_whitespace().collect::<Vec<_>>())
    }

    fn spec(t: &str) -> TournamentSpec {
        match words(t) {
            Ok(TournamentCommand::Create(s)) => s,
            other => panic!("{t}: {other:?}"),
        }
    }

    #[test]
    fn formats_options_and_their_defaults() {
        let s = spec("swiss classic3x4 3+2 rated in 10m 7 rounds");
        assert_eq!(s.format, Format::Swiss);
        assert_eq!(s.rules, Rules::from_id("classic3x4").unwrap());
        assert_eq!(s.time, TimeControl::parse("3+2").unwrap());
        assert_eq!(s.rated, Some(true));
        assert_eq!(s.start, StartAt::In(10 * 60_000));
        assert_eq!(s.rounds, Some(7));
        let a = spec("arena damas 1+1 casual 90m at 18:05");
        assert_eq!(a.length_ms, Some(90 * 60_000));
        assert_eq!(
            a.start,
            StartAt::At {
                hour: 18,
                minute: 5
            }
        );
        let r = spec("roundrobin");
        assert_eq!(r.start, StartAt::In(DEFAULT_START_MS));
        assert_eq!((r.rounds, r.length_ms), (None, None));
        assert_eq!(spec("swiss 3+2").rounds, Some(DEFAULT_ROUNDS));
        assert_eq!(
            spec("arena 3+2").length_ms,
            Some(DEFAULT_ARENA_MINUTES * 60_000)
        );
        assert_eq!(words(""), Ok(TournamentCommand::Usage));
        assert_eq!(words("START"), Ok(TournamentCommand::Start));
        assert_eq!(words("cancel"), Ok(TournamentCommand::Cancel));
    }

    #[test]
    fn what_a_tournament_cannot_be_is_refused_by_name() {
        assert_eq!(words("swiss 1d"), Err(Msg::TournamentNeedsClock));
        assert_eq!(words("swiss none"), Err(Msg::TournamentNeedsClock));
        assert_eq!(
            words("swiss 3+2 30 rounds"),
            Err(Msg::TournamentBadRounds { max: MAX_ROUNDS })
        );
        assert_eq!(
            words("arena 3+2 5m"),
            Err(Msg::TournamentBadLength {
                min: MIN_ARENA_MINUTES,
                max: MAX_ARENA_MINUTES
            })
        );
        assert!(matches!(
            words("arena 3+2 at 25:00"),
            Err(Msg::TournamentBadStart { .. })
        ));
        assert!(matches!(
            words("swiss 3+2 in 3d"),
            Err(Msg::TournamentBadStart { .. })
        ));
        assert!(
            matches!(words("knockout 3+2"), Err(Msg::TournamentBadWord { word }) if word == "knockout")
        );
        assert!(matches!(
            words("swiss 3+2 @bob"),
            Err(Msg::TournamentBadWord { .. })
        ));
        assert!(
            matches!(words("swiss 3+2 white"), Err(Msg::TournamentBadWord { word }) if word == "white")
        );
        assert!(matches!(
            words("roundrobin 3+2 5 rounds"),
            Err(Msg::TournamentBadWord { .. })
        ));
        assert!(
            matches!(words("start now"), Err(Msg::TournamentBadWord { word }) if word == "now")
        );
    }

    #[test]
    fn a_time_of_day_is_the_next_to_come() {
        let day = 86_400_000;
        let noon = 20_000 * day + 12 * 3_600_000;
        let at = |hour, minute| StartAt::At { hour, minute }.at(noon);
        assert_eq!(at(18, 0), noon + 6 * 3_600_000);
        assert_eq!(at(12, 0), noon + day);
        assert_eq!(at(9, 30), noon + 21 * 3_600_000 + 30 * 60_000);
    }

    /// Any words at all — the options' own, the games' terms, numbers at and past their
    /// bounds, and arbitrary text with multi-byte characters — get an answer and never a
    /// panic; a tournament made is always within the bounds, and a refusal names at most 24
    /// characters of what it refuses and renders in every language.
    mod any_words {
        use super::*;
        use crate::words::{render, Lang};
        use proptest::prelude::*;

        /// Phrases a player might say (each option's own words, at and past their bounds).
        const PHRASES: [&str; 30] = [
            "arena",
            "swiss",
            "roundrobin",
            "start",
            "cancel",
            "help",
            "classic3x4",
            "damas",
            "3+2",
            "1+0",
            "1d",
            "none",
            "rated",
            "casual",
            "in 10m",
            "in 25h",
            "in",
            "at 18:00",
            "at 25:61",
            "7 rounds",
            "21 rounds",
            "0 rounds",
            "10m",
            "5m",
            "2h",
            "9999m",
            "99999999999999999999 rounds",
            "@bob",
            "white",
            "movetime 5s",
        ];

        /// A phrase, mostly; now and then any text or any number-like word.
        fn phrase() -> impl Strategy<Value = String> {
            prop_oneof![
                12 => proptest::sample::select(&PHRASES[..]).prop_map(str::to_string),
                1 => "\\PC{1,30}",
                1 => "[0-9]{1,5}[mh:+]?[0-9]{0,3}",
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2_000))]
            #[test]
            fn tournament_words_never_panic_and_stay_in_bounds(
                head in prop_oneof![
                    3 => proptest::sample::select(&PHRASES[..3]).prop_map(str::to_string),
                    1 => phrase(),
                ],
                tail in proptest::collection::vec(phrase(), 0..6),
            ) {
                let said: Vec<&str> = std::iter::once(head.as_str())
                    .chain(tail.iter().map(String::as_str))
                    .flat_map(str::split_whitespace)
                    .collect();
                match parse(&said) {
                    Ok(TournamentCommand::Create(s)) => {
                        let clocked = matches!(s.time, TimeControl::Fischer { .. });
                        prop_assert!(clocked, "time {:?}", s.time);
                        match s.start {
                            StartAt::In(ms) => prop_assert!((0..=MAX_START_MS).contains(&ms)),
                            StartAt::At { hour, minute } => prop_assert!(hour < 24 && minute < 60),
                        }
                        let rounds_ok = match s.format {
                            Format::Swiss => s.rounds.is_some_and(|r| (1..=MAX_ROUNDS).contains(&r)),
                            _ => s.rounds.is_none(),
                        };
                        let arena = MIN_ARENA_MINUTES * 60_000..=MAX_ARENA_MINUTES * 60_000;
                        let length_ok = match s.format {
                            Format::Arena => s.length_ms.is_some_and(|ms| arena.contains(&ms)),
                            _ => s.length_ms.is_none(),
                        };
                        prop_assert!(rounds_ok, "rounds {:?}", s.rounds);
                        prop_assert!(length_ok, "length {:?}", s.length_ms);
                    }
                    Ok(_) => {}
                    Err(msg) => {
                        if let Msg::TournamentBadWord { word: w } | Msg::TournamentBadStart { text: w } = &msg {
                            prop_assert!(w.chars().count() <= 24);
                        }
                        for lang in Lang::all() {
                            prop_assert!(!render(&msg, lang).is_empty());
                        }
                    }
                }
                // And as a whole chat message.
                let line = format!("/tournament {}", said.join(" "));
                let _ = crate::table::command::parse(&line, &[], Some("ugolki_bot"));
            }
        }
    }
}
