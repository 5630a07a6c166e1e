//! Reading what people type: commands (`/challenge @bob classic3x4 3+2`), moves (`c3-e5`),
//! and everything else (ignored).

use crate::clock::TimeControl;
use crate::corners::Variant;
use crate::game::Rules;

/// Longest message the table reads at all.
pub const MAX_MESSAGE: usize = 500;

/// Which colour the challenger wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

/// Everything `/challenge` can say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeSpec {
    pub rules: Rules,
    pub time: TimeControl,
    /// None: the default (rated where the variant is rated; Damas casual).
    pub rated: Option<bool>,
    pub color: ColorChoice,
    /// Damas: time per move after which the table moves for the player.
    pub movetime_ms: Option<i64>,
    /// Damas: the activity monitor.
    pub monitor: bool,
    /// Chips at stake (rated Damas).
    pub stake: Option<i64>,
}

/// A command: what it is, and the game (or challenge) number it names, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Challenge(ChallengeSpec),
    Accept(Option<i64>),
    Decline(Option<i64>),
    Cancel(Option<i64>),
    Move(Option<i64>, String),
    Moves(Option<i64>, String),
    Board(Option<i64>),
    Resign(Option<i64>),
    Draw(Option<i64>),
    NoDraw(Option<i64>),
    Abort(Option<i64>),
    Confirm(Option<i64>),
    Claim(Option<i64>),
    Games,
    Record(Option<i64>),
    Help,
    Rules(Option<String>),
    /// `/rating [@user] [kind]`: the kind, if named.
    Rating(Option<String>),
    /// `/top [kind] [month|all] [global]`.
    Top {
        kind: Option<String>,
        month: bool,
        global: bool,
    },
    Chips,
}

/// What a message is to the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    Command(Command),
    /// Plain text that looks like a move.
    MoveText(String),
    /// Not for the table.
    Ignore,
}

/// Why a command could not be read (the text is what the user reads).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("that message is too long")]
    TooLong,
    #[error("unknown command /{0} (see /help)")]
    Unknown(String),
    #[error("I don't understand '{0}' in the challenge (see /help)")]
    ChallengeWord(String),
    #[error("{0}")]
    Bad(String),
    #[error("/{0} needs {1}")]
    Missing(&'static str, &'static str),
}

/// Whether plain text is shaped like a move: every word is a square run (`c3`, `C3E5`,
/// `p16`) or a Damas number, joined by `-`, `:`, `x`, spaces — so chatter is never answered.
#[must_use]
pub fn looks_like_move(text: &str) -> bool {
    let t = text.trim();
    if t.is_empty() || t.len() > 64 {
        return false;
    }
    let mut squares = 0;
    for word in t
        .split(['-', ':', ' ', '–', 'x', 'X'])
        .filter(|w| !w.is_empty())
    {
        if word.len() <= 2 && word.bytes().all(|b| b.is_ascii_digit()) {
            squares += 1;
            continue;
        }
        // Letters a–p each followed by one or two digits.
        let bytes = word.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if !matches!(bytes[i].to_ascii_lowercase(), b'a'..=b'p') {
                return false;
            }
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if !(1..=2).contains(&digits) {
                return false;
            }
            i += 1 + digits;
            squares += 1;
        }
    }
    squares >= 2
}

fn game_number(word: Option<&str>) -> Result<Option<i64>, CommandError> {
    match word {
        None => Ok(None),
        Some(w) => {
            let w = w.trim_start_matches('#');
            w.parse::<i64>()
                .ok()
                .filter(|n| *n > 0)
                .map(Some)
                .ok_or_else(|| {
                    CommandError::Bad(format!(
                        "'{}' is not a game number",
                        w.chars().take(20).collect::<String>()
                    ))
                })
        }
    }
}

/// Read a message. `bot` is the bot's @name on platforms that append it (`/help@ugolki_bot`).
pub fn parse(text: &str, bot: Option<&str>) -> Result<Parsed, CommandError> {
    let t = text.trim();
    if !t.starts_with('/') {
        if looks_like_move(t) {
            return Ok(Parsed::MoveText(t.to_string()));
        }
        return Ok(Parsed::Ignore);
    }
    if t.len() > MAX_MESSAGE {
        return Err(CommandError::TooLong);
    }
    let mut words = t[1..].split_whitespace();
    let head = words.next().unwrap_or("");
    let name = match head.split_once('@') {
        Some((name, to)) => {
            // A command for another bot in the same chat is not ours.
            if bot.is_some_and(|b| !b.eq_ignore_ascii_case(to)) {
                return Ok(Parsed::Ignore);
            }
            name
        }
        None => head,
    }
    .to_ascii_lowercase();
    let rest: Vec<&str> = words.collect();
    let first = rest.first().copied();
    let number = || game_number(first);
    let command = match name.as_str() {
        "challenge" | "play" => Command::Challenge(parse_challenge(&rest)?),
        "accept" => Command::Accept(number()?),
        "decline" => Command::Decline(number()?),
        "cancel" => Command::Cancel(number()?),
        "move" | "m" => {
            let (game, text) = match rest.as_slice() {
                [] => return Err(CommandError::Missing("move", "a move, e.g. /move c3-d4")),
                [n, more @ ..]
                    if n.trim_start_matches('#').parse::<i64>().is_ok() && !more.is_empty() =>
                {
                    (game_number(Some(n))?, more.join(" "))
                }
                all => (None, all.join(" ")),
            };
            Command::Move(game, text)
        }
        "moves" => match rest.as_slice() {
            [sq] => Command::Moves(None, (*sq).to_string()),
            [n, sq] => Command::Moves(game_number(Some(n))?, (*sq).to_string()),
            _ => return Err(CommandError::Missing("moves", "a square, e.g. /moves c3")),
        },
        "board" => Command::Board(number()?),
        "resign" => Command::Resign(number()?),
        "draw" => Command::Draw(number()?),
        "nodraw" => Command::NoDraw(number()?),
        "abort" => Command::Abort(number()?),
        "confirm" => Command::Confirm(number()?),
        "claim" => Command::Claim(number()?),
        "games" => Command::Games,
        "record" => Command::Record(number()?),
        "help" | "start" => Command::Help,
        "rules" => Command::Rules(first.map(str::to_ascii_lowercase)),
        "rating" | "ratings" | "elo" => Command::Rating(
            rest.iter()
                .find(|w| !w.starts_with('@'))
                .map(|w| w.to_ascii_lowercase()),
        ),
        "top" | "leaderboard" => {
            let (mut kind, mut month, mut global) = (None, false, false);
            for w in &rest {
                match w.to_ascii_lowercase().as_str() {
                    "month" | "monthly" => month = true,
                    "all" | "general" => month = false,
                    "global" | "everyone" => global = true,
                    other => kind = Some(other.to_string()),
                }
            }
            Command::Top {
                kind,
                month,
                global,
            }
        }
        "chips" => Command::Chips,
        other => return Err(CommandError::Unknown(other.chars().take(20).collect())),
    };
    Ok(Parsed::Command(command))
}

// One flat list of challenge words; splitting it would scatter the vocabulary.
#[allow(clippy::too_many_lines)]
fn parse_challenge(words: &[&str]) -> Result<ChallengeSpec, CommandError> {
    let mut spec = ChallengeSpec {
        rules: Rules::Corners(Variant::classic3x3()),
        time: TimeControl::Fischer {
            base_ms: 10 * 60_000,
            increment_ms: 5_000,
        },
        rated: None,
        color: ColorChoice::Random,
        movetime_ms: None,
        monitor: false,
        stake: None,
    };
    let mut i = 0;
    let mut damas_word = false;
    // Each of these may be said once: "classic3x3 triangle" or "10+5 1d" is a typo, not a wish.
    let (mut game_said, mut time_said) = (false, false);
    let once = |said: &mut bool, what: &str| {
        if std::mem::replace(said, true) {
            Err(CommandError::Bad(format!("say one {what}, not two")))
        } else {
            Ok(())
        }
    };
    while i < words.len() {
        let raw = words[i];
        let w = raw.to_ascii_lowercase();
        let next = words.get(i + 1).map(|s| s.to_ascii_lowercase());
        i += 1;
        if w == "@" {
            return Err(CommandError::Bad(
                "write the player's name right after @".into(),
            ));
        }
        if w.starts_with('@') {
            continue; // the adapter passes mentions separately
        }
        match w.as_str() {
            "corners" | "ugolki" => {
                once(&mut game_said, "game")?;
                spec.rules = Rules::Corners(Variant::classic3x3());
                if let Some(v) = next.as_deref().and_then(|n| Variant::by_id(n).ok()) {
                    spec.rules = Rules::Corners(v);
                    i += 1;
                }
            }
            "damas" | "checkers" | "draughts" => {
                once(&mut game_said, "game")?;
                spec.rules = Rules::Damas { flying: true };
                damas_word = true;
            }
            "flying" | "short" => {
                if !damas_word {
                    return Err(CommandError::Bad(format!(
                        "'{w}' kings are a Damas option: say damas {w}"
                    )));
                }
                spec.rules = Rules::Damas {
                    flying: w == "flying",
                };
            }
            "movetime" => {
                let d = next
                    .as_deref()
                    .and_then(|n| TimeControl::parse(&format!("{n}+0")).ok())
                    .and_then(|tc| match tc {
                        TimeControl::Fischer { base_ms, .. }
                            if (5_000..=86_400_000).contains(&base_ms) =>
                        {
                            Some(base_ms)
                        }
                        _ => None,
                    })
                    .ok_or_else(|| {
                        CommandError::Bad(
                            "movetime needs a time from 5s to 24h, e.g. movetime 30s".into(),
                        )
                    })?;
                spec.movetime_ms = Some(d);
                i += 1;
            }
            "monitor" => spec.monitor = true,
            "rated" | "competitive" => spec.rated = Some(true),
            "casual" | "unrated" | "friendly" => spec.rated = Some(false),
            "white" => spec.color = ColorChoice::White,
            "black" => spec.color = ColorChoice::Black,
            "random" => spec.color = ColorChoice::Random,
            "stake" => {
                let n = next
                    .as_deref()
                    .and_then(|n| n.parse::<i64>().ok())
                    .filter(|n| (1..=1_000_000).contains(n))
                    .ok_or_else(|| {
                        CommandError::Bad("stake needs a number of chips, e.g. stake 50".into())
                    })?;
                spec.stake = Some(n);
                i += 1;
            }
            _ => {
                if let Ok(tc) = TimeControl::parse(&w) {
                    once(&mut time_said, "time control")?;
                    spec.time = tc;
                } else if let Ok(v) = Variant::by_id(&w) {
                    once(&mut game_said, "game")?;
                    spec.rules = Rules::Corners(v);
                } else {
                    return Err(CommandError::ChallengeWord(raw.chars().take(30).collect()));
                }
            }
        }
    }
    let damas = matches!(spec.rules, Rules::Damas { .. });
    if !damas && (spec.movetime_ms.is_some() || spec.monitor) {
        return Err(CommandError::Bad(
            "movetime and monitor are Damas options".into(),
        ));
    }
    if let (Rules::Corners(v), Some(true)) = (&spec.rules, spec.rated) {
        if !v.rated {
            return Err(CommandError::Bad(format!(
                "{} games are not rated; say casual",
                v.name
            )));
        }
    }
    if spec.stake.is_some() && !(damas && spec.rated == Some(true)) {
        return Err(CommandError::Bad(
            "a stake goes with a rated Damas game: damas rated stake 50".into(),
        ));
    }
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(t: &str) -> Command {
        match parse(t, Some("ugolki_bot")).unwrap() {
            Parsed::Command(c) => c,
            other => panic!("{t}: {other:?}"),
        }
    }

    fn spec(t: &str) -> ChallengeSpec {
        match cmd(t) {
            Command::Challenge(s) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn moves_are_recognised_and_chatter_is_ignored() {
        for m in [
            "c3-d4", "c3 e5", "C3E5", "c3:e5", "11-15", "11x18", "c3xe5xg7", "p16-o15",
        ] {
            assert_eq!(parse(m, None).unwrap(), Parsed::MoveText(m.into()), "{m}");
        }
        for chat in [
            "hello",
            "ok",
            "lol 22",
            "good game!",
            "a1",
            "see you at 5",
            "",
            "1 2 3 go",
        ] {
            assert_eq!(parse(chat, None).unwrap(), Parsed::Ignore, "{chat}");
        }
        // Move-shaped but wrong squares still go to the table, which explains.
        assert_eq!(
            parse("c3-z9", None).unwrap(),
            Parsed::Ignore,
            "z is not a file"
        );
        assert_eq!(
            parse("c3-c99", None).unwrap(),
            Parsed::MoveText("c3-c99".into())
        );
    }

    #[test]
    fn commands_with_numbers_and_bot_names() {
        assert_eq!(
            cmd("/move 12 c3-d4"),
            Command::Move(Some(12), "c3-d4".into())
        );
        assert_eq!(cmd("/move c3 d4"), Command::Move(None, "c3 d4".into()));
        assert_eq!(cmd("/moves c3"), Command::Moves(None, "c3".into()));
        assert_eq!(cmd("/moves 7 c3"), Command::Moves(Some(7), "c3".into()));
        assert_eq!(cmd("/accept@ugolki_bot"), Command::Accept(None));
        assert_eq!(cmd("/record #4"), Command::Record(Some(4)));
        assert_eq!(
            parse("/help@other_bot", Some("ugolki_bot")).unwrap(),
            Parsed::Ignore
        );
        assert_eq!(
            parse("/frob", None),
            Err(CommandError::Unknown("frob".into()))
        );
        assert_eq!(
            parse("/record x", None),
            Err(CommandError::Bad("'x' is not a game number".into()))
        );
        assert_eq!(
            parse(&format!("/help {}", "x".repeat(600)), None),
            Err(CommandError::TooLong)
        );
        assert!(matches!(
            parse("/move", None),
            Err(CommandError::Missing("move", _))
        ));
    }

    #[test]
    fn challenge_words() {
        let s = spec("/challenge @bob classic3x4 3+2");
        assert_eq!(s.rules.id(), "classic3x4");
        assert_eq!(s.time.to_string(), "3+2");
        let s = spec("/challenge");
        assert_eq!(
            (s.rules.id(), s.time.to_string(), s.rated, s.color),
            (
                "classic3x3".into(),
                "10+5".into(),
                None,
                ColorChoice::Random
            )
        );
        let s = spec("/challenge @bob corners diagonal3x3 1d casual black");
        assert_eq!(
            (s.rules.id(), s.time.to_string(), s.rated, s.color),
            (
                "diagonal3x3".into(),
                "1d".into(),
                Some(false),
                ColorChoice::Black
            )
        );
        let s = spec("/challenge @bob damas short movetime 30s monitor rated stake 50 none");
        assert_eq!(s.rules, Rules::Damas { flying: false });
        assert_eq!(
            (s.movetime_ms, s.monitor, s.rated, s.stake),
            (Some(30_000), true, Some(true), Some(50))
        );
        assert_eq!(s.time, TimeControl::Unlimited);
        let err = |t: &str| match parse(t, None) {
            Err(e) => e.to_string(),
            Ok(p) => panic!("{t}: {p:?}"),
        };
        assert_eq!(
            err("/challenge @bob blitz"),
            "I don't understand 'blitz' in the challenge (see /help)"
        );
        assert_eq!(
            err("/challenge triangle rated"),
            "triangular home games are not rated; say casual"
        );
        assert_eq!(
            err("/challenge short"),
            "'short' kings are a Damas option: say damas short"
        );
        assert_eq!(
            err("/challenge monitor"),
            "movetime and monitor are Damas options"
        );
        assert_eq!(
            err("/challenge damas stake 5"),
            "a stake goes with a rated Damas game: damas rated stake 50"
        );
        assert_eq!(
            err("/challenge damas movetime 1s"),
            "movetime needs a time from 5s to 24h, e.g. movetime 30s"
        );
        assert_eq!(
            err("/challenge @bob 10+5 1d"),
            "say one time control, not two"
        );
        assert_eq!(
            err("/challenge classic3x3 triangle"),
            "say one game, not two"
        );
        assert_eq!(err("/challenge damas classic3x4"), "say one game, not two");
        assert_eq!(
            err("/challenge corners classic3x4 damas"),
            "say one game, not two"
        );
        assert_eq!(
            err("/challenge @ bob"),
            "write the player's name right after @"
        );
    }
}
