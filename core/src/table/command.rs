//! Reading what people type: commands (`/challenge @bob classic3x4 3+2`), moves (`c3-e5`),
//! and everything else (ignored).

use super::types::Mention;
use crate::clock::TimeControl;
use crate::corners::Variant;
use crate::game::Rules;
use crate::words::Msg;

/// The commands a platform's menu lists, in order (descriptions: [`Msg::CommandHelp`]).
pub const MENU: [&str; 32] = [
    "start",
    "help",
    "challenge",
    "play",
    "accept",
    "decline",
    "cancel",
    "m",
    "move",
    "moves",
    "board",
    "games",
    "record",
    "resign",
    "draw",
    "nodraw",
    "abort",
    "confirm",
    "claim",
    "hint",
    "review",
    "train",
    "undo",
    "rating",
    "top",
    "chips",
    "rules",
    "lang",
    "tournament",
    "join",
    "withdraw",
    "standings",
];

/// Longest message the table reads at all, in characters (what the refusal says).
pub const MAX_MESSAGE: usize = 500;

/// Whether `t` is past [`MAX_MESSAGE`] characters (bytes first: most text is short).
#[must_use]
pub fn too_long(t: &str) -> bool {
    t.len() > MAX_MESSAGE && t.chars().nth(MAX_MESSAGE).is_some()
}

pub use crate::color::ColorChoice;

/// Everything `/challenge` can say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeSpec {
    /// Who is challenged; nobody: an open challenge anyone in the chat may accept.
    pub opponent: Option<Mention>,
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
    /// `/rating [@user] [kind]`.
    Rating {
        who: Option<Mention>,
        kind: Option<String>,
    },
    /// `/lang [CODE|auto]`: the language to answer in (none: say which there are).
    Lang(Option<String>),
    /// `/top [kind] [month|all] [global]`.
    Top {
        kind: Option<String>,
        month: bool,
        global: bool,
    },
    Chips,
    /// `/play bot [LEVEL] [variant] [TIME] [white|black|random]`: a game against the engine.
    PlayBot {
        level: u8,
        spec: Box<ChallengeSpec>,
    },
    /// `/hint [N]`: the engine's move for you (games against the bot).
    Hint(Option<i64>),
    /// `/review [N]`: a finished game as an animation, with its turning points.
    Review(Option<i64>),
    /// `/train [variant] [vs bot [LEVEL] | vs @user | solo] [TIME] [colour]`: the training
    /// room (unrated Corners; `spec.rules` is already the training variant, solo or not).
    Train {
        mode: TrainMode,
        spec: Box<ChallengeSpec>,
    },
    /// `/undo [N]`: take back a move (training room).
    Undo(Option<i64>),
    /// `/tournament …`: make, start or cancel the chat's tournament.
    Tournament(super::tournament::TournamentCommand),
    /// `/join`, `/withdraw`: the chat's tournament.
    Join,
    Withdraw,
    /// `/standings [N]`: the chat's tournament's (or tournament N's) standings.
    Standings(Option<i64>),
}

impl Command {
    /// The word of a command that names one of the sender's games by its number
    /// (`/hint 12`), to show how to name it when they have several; `None` for a move
    /// (whose own example says more) and for commands that name no game.
    #[must_use]
    pub fn game_word(&self) -> Option<&'static str> {
        Some(match self {
            Command::Board(_) => "board",
            Command::Resign(_) => "resign",
            Command::Draw(_) => "draw",
            Command::NoDraw(_) => "nodraw",
            Command::Abort(_) => "abort",
            Command::Confirm(_) => "confirm",
            Command::Claim(_) => "claim",
            Command::Record(_) => "record",
            Command::Hint(_) => "hint",
            Command::Review(_) => "review",
            Command::Undo(_) => "undo",
            _ => return None,
        })
    }
}

/// Whom a training game is against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainMode {
    /// Nobody: White alone crosses (the variant is a solo one).
    Solo,
    /// The engine at this level.
    Bot(u8),
    /// The person the challenge names (`spec.opponent`).
    Person,
}

/// The level `/play bot` gives when none is said.
pub const DEFAULT_BOT_LEVEL: u8 = 3;

/// What a message is to the table (text that is neither is not for it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    Command(Command),
    /// Plain text that looks like a move.
    MoveText(String),
}

/// Whether plain text is shaped like a move: every word is a square run (`c3`, `C3E5`,
/// `p16`) or a Damas number, joined by `-`, `:`, `x`, spaces — so chatter is never answered.
/// As long as a command may be: a Halma chain of jumps runs to a few hundred characters.
#[must_use]
pub fn looks_like_move(text: &str) -> bool {
    let t = text.trim();
    !too_long(t) && move_shaped(t)
}

/// [`looks_like_move`] at any length (the adapters bound a message's length): a move typed
/// too long is told so rather than taken for chatter.
#[must_use]
pub fn move_shaped(t: &str) -> bool {
    if t.is_empty() {
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

/// Whether `word` is written as one square: a letter a–p and one or two digits.
fn square_shaped(word: &str) -> bool {
    let b = word.as_bytes();
    (2..=3).contains(&b.len())
        && matches!(b[0].to_ascii_lowercase(), b'a'..=b'p')
        && b[1..].iter().all(u8::is_ascii_digit)
}

/// The longest number echoed back as typed.
const ECHOED_NUMBER: usize = 24;

/// Whether `word` is written as a game or challenge number: digits, maybe after a `#`.
fn number_shaped(word: &str) -> bool {
    let digits = word.strip_prefix('#').unwrap_or(word);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn game_number(word: Option<&str>) -> Result<Option<i64>, Msg> {
    let Some(w) = word else {
        return Ok(None);
    };
    let digits = w.strip_prefix('#').unwrap_or(w);
    match digits.parse::<i64>() {
        Ok(n) if n > 0 => Ok(Some(n)),
        // Digits, but no number a game or challenge can have (0, or past i64): no such one,
        // said with the number as typed.
        _ if number_shaped(w) => Err(Msg::NoSuchNumber {
            typed: echo(digits, ECHOED_NUMBER),
        }),
        // What was typed, `#` included, so that a bare `#` is not echoed as nothing.
        _ => Err(Msg::CmdNotAGameNumber { text: echo(w, 20) }),
    }
}

/// At most `max` characters of `text`, with `…` when it was longer.
pub(crate) fn echo(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// The one person a command names: the first mention; more than one, or an `@name` the
/// adapter could not resolve (which would silently make an open challenge), is refused.
fn named_person(words: &[&str], mentions: &[Mention]) -> Result<Option<Mention>, Msg> {
    if let Some(w) = words.iter().find(|w| w.starts_with("@@")) {
        return Err(Msg::CmdBadMention {
            word: w.chars().take(32).collect(),
        });
    }
    if mentions.len() > 1 {
        return Err(Msg::OneAtATime);
    }
    // A bare `@` names nobody (`/rating @` is not a question about oneself) — unless the
    // platform found the person anyway (a Telegram name mention typed after "@ ").
    if mentions.is_empty() && words.contains(&"@") {
        return Err(Msg::CmdNameAfterAt);
    }
    if mentions.is_empty() {
        if let Some(w) = words.iter().find(|w| w.len() > 1 && w.starts_with('@')) {
            return Err(Msg::UnknownPlayer {
                handle: w.trim_start_matches('@').chars().take(32).collect(),
            });
        }
    }
    Ok(mentions.first().cloned())
}

/// A move or a square as typed, its look-alikes read as what they look like (`с3—е5` in
/// Cyrillic with a dash is c3-e5), as a plain-text move is read.
fn as_move(text: &str) -> String {
    super::clean::fold_move_look_alikes(text).into_owned()
}

/// Read a message: `Ok(None)` when it is not for the table. `mentions` are the people the
/// adapter found in it; `bot` is the bot's @name on platforms that append it
/// (`/help@ugolki_bot`).
// One flat table from command words to commands; splitting it would scatter the vocabulary.
#[allow(clippy::too_many_lines)]
pub fn parse(text: &str, mentions: &[Mention], bot: Option<&str>) -> Result<Option<Parsed>, Msg> {
    let t = text.trim();
    if !t.starts_with('/') {
        // Move-shaped at any length (the adapters bound it): a player's move typed too long
        // is told so once the table knows it is a player's (`Table::try_move`); anyone
        // else's is chatter, and ignored.
        // Read with a move's look-alikes folded (`с3-е5` in Cyrillic, `c3×e5`, `c3—e5`),
        // and only when it then reads as a move: other text keeps its letters.
        let folded = super::clean::fold_move_look_alikes(t);
        if move_shaped(&folded) {
            return Ok(Some(Parsed::MoveText(folded.into_owned())));
        }
        return Ok(None);
    }
    if too_long(t) {
        return Err(Msg::CmdTooLong { max: MAX_MESSAGE });
    }
    let mut words = t[1..].split_whitespace();
    let head = words.next().unwrap_or("");
    let name = match head.split_once('@') {
        Some((name, to)) => match bot {
            // A command for another bot in the same chat is not ours.
            Some(b) if !b.eq_ignore_ascii_case(to) => return Ok(None),
            // No bot name here (the console): `/challenge@bob` is a missing space, and
            // reading it as a bare `/challenge` would make an open challenge.
            None if !to.is_empty() => {
                return Err(Msg::CmdSpaceBeforeAt {
                    command: name.chars().take(20).collect(),
                    name: to.chars().take(32).collect(),
                })
            }
            Some(_) | None => name,
        },
        None => head,
    }
    .to_ascii_lowercase();
    let rest: Vec<&str> = words.collect();
    let first = rest.first().copied();
    // A command that takes a number at most: a word after it is refused, not ignored
    // (`/resign 1 2` must not resign game 1).
    // The number is read first: `/resign extra words` is told 'extra' is no number.
    let number = || {
        let n = game_number(first)?;
        match rest.get(1) {
            Some(extra) => Err(Msg::CmdExtraWord {
                command: name.clone(),
                word: echo(extra, 20),
            }),
            None => Ok(n),
        }
    };
    let command = match name.as_str() {
        // `/play` is the bot's game, `bot` said or not (`/play 3 damas`), as the menu and
        // Discord's `/play` have it; naming a person (`/play @bob`) makes it a challenge.
        "play" if first.is_some_and(|w| w.eq_ignore_ascii_case("bot")) => play_bot(&rest[1..])?,
        "play" if mentions.is_empty() && !rest.iter().any(|w| w.starts_with('@')) => {
            play_bot(&rest)?
        }
        "challenge" | "play" => {
            let mut spec = parse_challenge(&rest)?;
            spec.opponent = named_person(&rest, mentions)?;
            Command::Challenge(spec)
        }
        "accept" => Command::Accept(number()?),
        "decline" => Command::Decline(number()?),
        "cancel" => Command::Cancel(number()?),
        "move" | "m" => {
            let (game, text) = match rest.as_slice() {
                [] => return Err(Msg::CmdMoveMissing),
                [n, more @ ..] if number_shaped(n) && !more.is_empty() => {
                    (game_number(Some(n))?, more.join(" "))
                }
                // A first word with no digit, so neither a number nor a square: the game's
                // number mistyped (`/move x c3-d3`), said so rather than read as the move;
                // and a signed one (`/move -1 c3-d3`), which no game has.
                [n, more @ ..]
                    if !more.is_empty()
                        && (!n.bytes().any(|b| b.is_ascii_digit())
                            || n.strip_prefix(['-', '+']).is_some_and(number_shaped)) =>
                {
                    return Err(Msg::CmdNotAGameNumber { text: echo(n, 20) })
                }
                all => (None, all.join(" ")),
            };
            // Read as a plain-text move is: a move's look-alikes are what they look like.
            Command::Move(game, as_move(&text))
        }
        // The square read as a move's would be (`/moves с3` in Cyrillic is c3).
        "moves" => match rest.as_slice() {
            [sq] => Command::Moves(None, as_move(sq)),
            // Two squares (`/moves c3 d3`): the second is one word too many, not the first
            // a bad game number.
            [n, sq] if square_shaped(n) => {
                return Err(Msg::CmdMovesOneSquare { word: echo(sq, 20) })
            }
            [n, sq] => Command::Moves(game_number(Some(n))?, as_move(sq)),
            _ => return Err(Msg::CmdMovesMissing),
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
        "rules" => Command::Rules((!rest.is_empty()).then(|| rest.join(" ").to_ascii_lowercase())),
        "rating" | "ratings" | "elo" => Command::Rating {
            who: named_person(&rest, mentions)?,
            kind: rest
                .iter()
                .find(|w| !w.starts_with('@'))
                .map(|w| w.to_ascii_lowercase()),
        },
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
        "hint" => Command::Hint(number()?),
        "review" => Command::Review(number()?),
        "train" | "training" => train(&rest, mentions)?,
        "undo" | "takeback" => Command::Undo(number()?),
        "lang" | "language" => Command::Lang(first.map(str::to_ascii_lowercase)),
        "tournament" | "tourney" => Command::Tournament(super::tournament::parse(&rest)?),
        "join" => Command::Join,
        "withdraw" | "leave" => Command::Withdraw,
        "standings" => Command::Standings(number()?),
        other => {
            return Err(Msg::CmdUnknown {
                name: other.chars().take(20).collect(),
            })
        }
    };
    Ok(Some(Parsed::Command(command)))
}

/// `/play bot` after `bot`: an optional level, then what `/challenge` takes (no opponent;
/// the game is unrated, so neither `rated` nor a stake).
fn play_bot(words: &[&str]) -> Result<Command, Msg> {
    // A first word of digits is the level, however long (a number too big is not a level
    // either, and is said so, not taken for a challenge word).
    let (level, rest) = match words.first() {
        Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => (w.parse::<u8>().ok(), &words[1..]),
        _ => (Some(DEFAULT_BOT_LEVEL), words),
    };
    let level = level
        .filter(|n| (1..=5).contains(n))
        .ok_or(Msg::CmdBotLevel { max: 5 })?;
    if rest.iter().any(|w| w.starts_with('@')) {
        return Err(Msg::BotUnrated);
    }
    let spec = parse_challenge(rest)?;
    if spec.rated == Some(true) || spec.stake.is_some() {
        return Err(Msg::BotUnrated);
    }
    Ok(Command::PlayBot {
        level,
        spec: Box::new(spec),
    })
}

/// `/train`'s words: `solo`, or `vs` and then `bot [LEVEL]` or `@user`, anywhere; the rest
/// is what `/challenge` takes. No time said: no clock (practice is not a race).
fn train(words: &[&str], mentions: &[Mention]) -> Result<Command, Msg> {
    let mut mode = None;
    // Said twice, differently ("solo vs @bob"): which one was meant is not for us to guess.
    let set = |mode: &mut Option<TrainMode>, m: TrainMode| match mode.replace(m) {
        Some(old) if old != m => Err(Msg::CmdTrainVs),
        _ => Ok(()),
    };
    let mut rest = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].to_ascii_lowercase();
        i += 1;
        match w.as_str() {
            "solo" | "alone" => set(&mut mode, TrainMode::Solo)?,
            "vs" | "against" => {
                let next = words.get(i).map(|s| s.to_ascii_lowercase());
                i += 1;
                match next.as_deref() {
                    Some("bot" | "engine") => {
                        let level = match words.get(i) {
                            Some(l) if l.bytes().all(|b| b.is_ascii_digit()) => {
                                i += 1;
                                l.parse::<u8>().ok()
                            }
                            _ => Some(DEFAULT_BOT_LEVEL),
                        };
                        let level = level
                            .filter(|n| (1..=5).contains(n))
                            .ok_or(Msg::CmdBotLevel { max: 5 })?;
                        set(&mut mode, TrainMode::Bot(level))?;
                    }
                    Some(n) if n.starts_with('@') => {
                        rest.push(words[i - 1]);
                        set(&mut mode, TrainMode::Person)?;
                    }
                    _ => return Err(Msg::CmdTrainVs),
                }
            }
            _ => rest.push(words[i - 1]),
        }
    }
    if rest.iter().any(|w| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "rated" | "competitive" | "stake"
        )
    }) {
        return Err(Msg::TrainUnrated);
    }
    let timed = rest.iter().any(|w| TimeControl::parse(w).is_ok());
    let mut spec = parse_challenge(&rest)?;
    if !timed {
        spec.time = TimeControl::Unlimited;
    }
    spec.opponent = named_person(&rest, mentions)?;
    let mode = match (mode, &spec.opponent) {
        (Some(TrainMode::Person) | None, Some(_)) => TrainMode::Person,
        (Some(TrainMode::Person), None) => return Err(Msg::CmdTrainVs),
        (Some(m), Some(_)) if m != TrainMode::Person => return Err(Msg::CmdTrainVs),
        (Some(m), _) => m,
        (None, None) => TrainMode::Solo,
    };
    let Rules::Corners(base) = &spec.rules else {
        return Err(Msg::TrainCornersOnly);
    };
    // `training:…,solo` typed with `vs`: a solo has nobody to play.
    if base.solo && mode != TrainMode::Solo {
        return Err(Msg::CmdTrainVs);
    }
    let variant = base
        .for_training(mode == TrainMode::Solo)
        .map_err(|e| crate::words::variant_error(&e))?;
    spec.rules = Rules::Corners(variant);
    spec.rated = Some(false);
    Ok(Command::Train {
        mode,
        spec: Box::new(spec),
    })
}

// One flat list of challenge words; splitting it would scatter the vocabulary.
#[allow(clippy::too_many_lines)]
pub(super) fn parse_challenge(words: &[&str]) -> Result<ChallengeSpec, Msg> {
    let mut spec = ChallengeSpec::default();
    let mut i = 0;
    let mut damas_word = false;
    // Each of these may be said once: "classic3x3 triangle" or "10+5 1d" is a typo, not a wish.
    let (mut game_said, mut time_said) = (false, false);
    let once = |said: &mut bool, twice: Msg| {
        if std::mem::replace(said, true) {
            Err(twice)
        } else {
            Ok(())
        }
    };
    // A choice said twice, two ways ("white black", "rated casual", "stake 50 stake 60"),
    // is refused as the game said twice is: which one was meant is not for the bot to guess.
    // Each: the choice, its value, and the words it was said with.
    let mut chosen: Vec<(&'static str, String, String)> = Vec::new();
    let mut choose = |choice: &'static str, value: &str, said: &str| -> Result<(), Msg> {
        match chosen.iter().find(|(c, _, _)| *c == choice) {
            Some((_, v, first)) if v != value => Err(Msg::CmdTwoWays {
                first: first.chars().take(30).collect(),
                second: said.chars().take(30).collect(),
            }),
            Some(_) => Ok(()),
            None => {
                chosen.push((choice, value.to_string(), said.to_string()));
                Ok(())
            }
        }
    };
    while i < words.len() {
        let raw = words[i];
        let w = raw.to_ascii_lowercase();
        let next = words.get(i + 1).map(|s| s.to_ascii_lowercase());
        i += 1;
        if w == "@" {
            return Err(Msg::CmdNameAfterAt);
        }
        if w.starts_with('@') {
            continue; // the adapter passes mentions separately
        }
        match w.as_str() {
            "corners" | "ugolki" => {
                once(&mut game_said, Msg::CmdOneGame)?;
                spec.rules = Rules::Corners(Variant::classic3x3());
                if let Some(v) = next.as_deref().and_then(|n| Variant::by_id(n).ok()) {
                    spec.rules = Rules::Corners(v);
                    i += 1;
                }
            }
            "damas" | "checkers" | "draughts" => {
                once(&mut game_said, Msg::CmdOneGame)?;
                spec.rules = Rules::Damas { flying: true };
                damas_word = true;
            }
            "flying" | "short" => {
                if !damas_word {
                    return Err(Msg::CmdKingsAreDamas { word: w });
                }
                choose("kings", &w, &w)?;
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
                    .ok_or(Msg::CmdMovetimeRange)?;
                let said = format!("movetime {}", next.as_deref().unwrap_or_default());
                choose("movetime", &d.to_string(), &said)?;
                spec.movetime_ms = Some(d);
                i += 1;
            }
            "monitor" => spec.monitor = true,
            "rated" | "competitive" => {
                choose("rated", "yes", &w)?;
                spec.rated = Some(true);
            }
            "casual" | "unrated" | "friendly" => {
                choose("rated", "no", &w)?;
                spec.rated = Some(false);
            }
            "white" | "black" | "random" => {
                choose("colour", &w, &w)?;
                spec.color = match w.as_str() {
                    "white" => ColorChoice::White,
                    "black" => ColorChoice::Black,
                    _ => ColorChoice::Random,
                };
            }
            "stake" => {
                let n = next
                    .as_deref()
                    .and_then(|n| n.parse::<i64>().ok())
                    .filter(|n| (1..=1_000_000).contains(n))
                    .ok_or(Msg::CmdStakeNumber)?;
                choose("stake", &n.to_string(), &format!("stake {n}"))?;
                spec.stake = Some(n);
                i += 1;
            }
            _ => {
                if let Ok(tc) = TimeControl::parse(&w) {
                    once(&mut time_said, Msg::CmdOneTimeControl)?;
                    spec.time = tc;
                } else {
                    match Variant::by_id(&w) {
                        Ok(v) => {
                            once(&mut game_said, Msg::CmdOneGame)?;
                            spec.rules = Rules::Corners(v);
                        }
                        // A training room written wrong is told what is wrong in it.
                        Err(e) if w.starts_with("training") => {
                            return Err(crate::words::variant_error(&e));
                        }
                        Err(_) => {
                            return Err(Msg::CmdChallengeWord {
                                word: raw.chars().take(30).collect(),
                            });
                        }
                    }
                }
            }
        }
    }
    spec.validated()
}

impl Default for ChallengeSpec {
    /// An open challenge to classic 3×3, 10+5, rated by the variant, colours at random.
    fn default() -> ChallengeSpec {
        ChallengeSpec {
            opponent: None,
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
        }
    }
}

impl ChallengeSpec {
    /// What a challenge may not say, whether typed or given as a slash command's options:
    /// Damas options on Corners, `rated` for an unrated variant, a stake off a rated Damas
    /// game.
    pub fn validated(self) -> Result<ChallengeSpec, Msg> {
        let damas = matches!(self.rules, Rules::Damas { .. });
        if !damas && (self.movetime_ms.is_some() || self.monitor) {
            return Err(Msg::CmdDamasOptions);
        }
        if let (Rules::Corners(v), Some(true)) = (&self.rules, self.rated) {
            if !v.rated {
                return Err(Msg::CmdNotRated {
                    rules: Box::new(self.rules.clone()),
                });
            }
        }
        if self.stake.is_some() && !(damas && self.rated == Some(true)) {
            return Err(Msg::CmdStakeNeedsRated);
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(t: &str) -> Result<Option<Parsed>, Msg> {
        let mentions: Vec<Mention> = t
            .split_whitespace()
            .filter_map(|w| w.strip_prefix('@'))
            .filter(|w| !w.is_empty())
            .map(|w| Mention::Handle(w.to_string()))
            .collect();
        parse(t, &mentions, Some("ugolki_bot"))
    }

    fn cmd(t: &str) -> Command {
        match read(t).unwrap() {
            Some(Parsed::Command(c)) => c,
            other => panic!("{t}: {other:?}"),
        }
    }

    fn spec(t: &str) -> ChallengeSpec {
        match cmd(t) {
            Command::Challenge(s) => s,
            other => panic!("{other:?}"),
        }
    }

    fn err(t: &str) -> Msg {
        match read(t) {
            Err(e) => e,
            Ok(p) => panic!("{t}: {p:?}"),
        }
    }

    #[test]
    fn moves_are_recognised_and_chatter_is_ignored() {
        for m in [
            "c3-d4", "c3 e5", "C3E5", "c3:e5", "11-15", "11x18", "c3xe5xg7", "p16-o15",
        ] {
            assert_eq!(read(m).unwrap(), Some(Parsed::MoveText(m.into())), "{m}");
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
            "c3-z9",
        ] {
            assert_eq!(read(chat).unwrap(), None, "{chat}");
        }
        // Move-shaped but wrong squares still go to the table, which explains.
        assert_eq!(
            read("c3-c99").unwrap(),
            Some(Parsed::MoveText("c3-c99".into()))
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
        // A Cyrillic look-alike square is the square it looks like.
        assert_eq!(cmd("/moves с3"), Command::Moves(None, "c3".into()));
        assert_eq!(cmd("/moves 7 е5"), Command::Moves(Some(7), "e5".into()));
        assert_eq!(cmd("/move 7 с3—е5"), Command::Move(Some(7), "c3-e5".into()));
        assert_eq!(cmd("/accept@ugolki_bot"), Command::Accept(None));
        assert_eq!(cmd("/record #4"), Command::Record(Some(4)));
        assert_eq!(read("/help@other_bot").unwrap(), None);
        assert_eq!(
            err("/frob"),
            Msg::CmdUnknown {
                name: "frob".into()
            }
        );
        assert_eq!(
            err("/record x"),
            Msg::CmdNotAGameNumber { text: "x".into() }
        );
        assert_eq!(
            err("/accept #"),
            Msg::CmdNotAGameNumber { text: "#".into() }
        );
        // A number mistyped before a move is said to be one, not read into the move.
        assert_eq!(
            err("/move x c3-d3"),
            Msg::CmdNotAGameNumber { text: "x".into() }
        );
        // A command taking one number refuses a word after it rather than drop it.
        assert_eq!(
            err("/resign 1 2"),
            Msg::CmdExtraWord {
                command: "resign".into(),
                word: "2".into()
            }
        );
        assert_eq!(
            err("/accept 3 now"),
            Msg::CmdExtraWord {
                command: "accept".into(),
                word: "now".into()
            }
        );
        assert_eq!(cmd("/resign 1"), Command::Resign(Some(1)));
        // Numbers no game or challenge can have: said as typed, never rounded or cut.
        for typed in ["9223372036854775808", "0", "99999999999999999999"] {
            assert_eq!(
                err(&format!("/accept {typed}")),
                Msg::NoSuchNumber {
                    typed: typed.into()
                }
            );
        }
        assert_eq!(
            err("/move 9223372036854775808 a1-a1"),
            Msg::NoSuchNumber {
                typed: "9223372036854775808".into()
            }
        );
        assert_eq!(
            err(&format!("/board #{}", "9".repeat(40))),
            Msg::NoSuchNumber {
                typed: format!("{}…", "9".repeat(24))
            }
        );
        assert_eq!(
            err(&format!("/help {}", "x".repeat(600))),
            Msg::CmdTooLong { max: MAX_MESSAGE }
        );
        // The limit is in characters, as the refusal says: 300 Cyrillic letters (600
        // bytes) are read, 501 are not.
        assert_eq!(
            err(&format!("/resign 1 {}", "я".repeat(300))),
            Msg::CmdExtraWord {
                command: "resign".into(),
                word: format!("{}…", "я".repeat(20))
            }
        );
        assert_eq!(
            err(&format!("/help {}", "я".repeat(501))),
            Msg::CmdTooLong { max: MAX_MESSAGE }
        );
        assert_eq!(err("/move"), Msg::CmdMoveMissing);
        assert_eq!(
            cmd("/rating @bob damas"),
            Command::Rating {
                who: Some(Mention::Handle("bob".into())),
                kind: Some("damas".into())
            }
        );
    }

    /// A word in the wrong place is named as what it is: not a game number, or one word
    /// too many; `/play` is the bot's game unless a person is named.
    #[test]
    fn words_in_the_wrong_place_are_named() {
        assert_eq!(
            err("/move -1 c3-d3"),
            Msg::CmdNotAGameNumber { text: "-1".into() }
        );
        assert_eq!(cmd("/move 11-15"), Command::Move(None, "11-15".into()));
        // `/play` is the bot's game with `bot` or without; a person named makes it a
        // challenge.
        for text in ["/play", "/play 2 damas", "/play bot 2 damas"] {
            assert!(matches!(cmd(text), Command::PlayBot { .. }), "{text}");
        }
        assert!(matches!(
            cmd("/play 2 damas"),
            Command::PlayBot { level: 2, .. }
        ));
        assert!(matches!(
            cmd("/play @bob classic3x3"),
            Command::Challenge(ChallengeSpec {
                opponent: Some(_),
                ..
            })
        ));
        // Two squares to /moves: the second is the word too many.
        assert_eq!(
            err("/moves c3 d3"),
            Msg::CmdMovesOneSquare { word: "d3".into() }
        );
        // A word where the number goes is named, not the word after it.
        assert_eq!(
            err("/resign extra words"),
            Msg::CmdNotAGameNumber {
                text: "extra".into()
            }
        );
    }

    #[test]
    fn a_choice_said_two_ways_is_refused() {
        // A choice said two ways is refused, naming both; said twice alike, it stands.
        let two = |first: &str, second: &str| Msg::CmdTwoWays {
            first: first.into(),
            second: second.into(),
        };
        assert_eq!(err("/challenge @bob white black"), two("white", "black"));
        assert_eq!(err("/challenge @bob rated casual"), two("rated", "casual"));
        assert_eq!(
            err("/challenge damas rated stake 50 stake 60"),
            two("stake 50", "stake 60")
        );
        assert_eq!(err("/challenge damas flying short"), two("flying", "short"));
        assert_eq!(
            err("/challenge damas movetime 1m movetime 2m"),
            two("movetime 1m", "movetime 2m")
        );
        assert_eq!(
            spec("/challenge @bob white white").color,
            ColorChoice::White
        );
        assert_eq!(spec("/challenge damas rated competitive").rated, Some(true));
    }

    #[test]
    fn challenge_words() {
        let s = spec("/challenge @bob classic3x4 3+2");
        assert_eq!(s.rules.id(), "classic3x4");
        assert_eq!(s.time.to_string(), "3+2");
        assert_eq!(s.opponent, Some(Mention::Handle("bob".into())));
        let s = spec("/challenge");
        assert_eq!(
            (
                s.rules.id(),
                s.time.to_string(),
                s.rated,
                s.color,
                s.opponent
            ),
            (
                "classic3x3".into(),
                "10+5".into(),
                None,
                ColorChoice::Random,
                None
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
        // A training room written wrong is told what is wrong in it, not just "not understood".
        assert_eq!(
            err("/train training:classic3x3,bogus solo"),
            Msg::VariantBadOption {
                option: "bogus".into()
            }
        );
        assert_eq!(
            err("/challenge @bob training:nosuch"),
            Msg::VariantUnknown {
                id: "nosuch".into()
            }
        );
        assert!(matches!(
            err("/train training:classic3x3,home=a1-h8 solo"),
            Msg::VariantBadHome { .. }
        ));
        assert_eq!(
            err("/challenge @bob blitz"),
            Msg::CmdChallengeWord {
                word: "blitz".into()
            }
        );
        assert_eq!(
            err("/challenge triangle rated"),
            Msg::CmdNotRated {
                rules: Box::new(Rules::from_id("triangle").unwrap())
            }
        );
        assert_eq!(
            err("/challenge short"),
            Msg::CmdKingsAreDamas {
                word: "short".into()
            }
        );
        assert_eq!(err("/challenge monitor"), Msg::CmdDamasOptions);
        assert_eq!(err("/challenge damas stake 5"), Msg::CmdStakeNeedsRated);
        assert_eq!(err("/challenge damas movetime 1s"), Msg::CmdMovetimeRange);
        assert_eq!(err("/challenge @bob 10+5 1d"), Msg::CmdOneTimeControl);
        assert_eq!(err("/challenge classic3x3 triangle"), Msg::CmdOneGame);
        assert_eq!(err("/challenge damas classic3x4"), Msg::CmdOneGame);
        assert_eq!(err("/challenge corners classic3x4 damas"), Msg::CmdOneGame);
        assert_eq!(err("/challenge @ bob"), Msg::CmdNameAfterAt);
        assert_eq!(err("/rating @"), Msg::CmdNameAfterAt);
        assert_eq!(err("/rating @ damas"), Msg::CmdNameAfterAt);
        // (Unless the platform found a person: a Telegram name mention typed after "@ ".)
        assert!(matches!(
            cmd("/rating @ @bob"),
            Command::Rating { who: Some(_), .. }
        ));
        assert_eq!(err("/challenge @bob @carol"), Msg::OneAtATime);
        // An @name the adapter could not resolve is not an open challenge.
        assert_eq!(
            parse("/challenge @ghost", &[], None),
            Err(Msg::UnknownPlayer {
                handle: "ghost".into()
            })
        );
    }

    fn train(t: &str) -> (TrainMode, ChallengeSpec) {
        match cmd(t) {
            Command::Train { mode, spec } => (mode, *spec),
            other => panic!("{t}: {other:?}"),
        }
    }

    fn variant(s: &ChallengeSpec) -> &Variant {
        match &s.rules {
            Rules::Corners(v) => v,
            Rules::Damas { .. } => panic!("not Corners"),
        }
    }

    #[test]
    fn c10_train_words_make_an_unrated_training_room() {
        // Nothing said: a solo of classic 3×3, no clock.
        let (mode, s) = train("/train");
        assert_eq!(mode, TrainMode::Solo);
        assert!(variant(&s).is_training() && variant(&s).solo && !variant(&s).rated);
        assert_eq!(s.time, TimeControl::Unlimited);
        assert_eq!(s.rated, Some(false));
        let (mode, s) = train("/train triangle vs bot 2 5+3 black");
        assert_eq!(mode, TrainMode::Bot(2));
        assert!(variant(&s).id.starts_with("training:triangle,") && !variant(&s).solo);
        assert_eq!(s.time.to_string(), "5+3");
        assert_eq!(s.color, ColorChoice::Black);
        assert_eq!(train("/train vs bot").0, TrainMode::Bot(DEFAULT_BOT_LEVEL));
        let (mode, s) = train("/train vs @bob training:classic3x3,diag,home=a1-b2");
        assert_eq!(mode, TrainMode::Person);
        assert_eq!(s.opponent, Some(Mention::Handle("bob".into())));
        assert_eq!(variant(&s).white_home.len(), 4);
        // A training id already solo stays one; its options are kept.
        let (mode, s) = train("/train training:diagonal3x3,limit=30,solo");
        assert_eq!(mode, TrainMode::Solo);
        assert_eq!(variant(&s).limit, Some(30));
    }

    #[test]
    fn c10_train_refuses_what_the_room_cannot_be() {
        assert_eq!(err("/train damas"), Msg::TrainCornersOnly);
        assert_eq!(err("/train rated"), Msg::TrainUnrated);
        assert_eq!(err("/train stake 5"), Msg::TrainUnrated);
        assert_eq!(err("/train vs"), Msg::CmdTrainVs);
        assert_eq!(err("/train vs nobody"), Msg::CmdTrainVs);
        assert_eq!(err("/train vs bot 9"), Msg::CmdBotLevel { max: 5 });
        assert_eq!(
            err("/train training:classic3x3,solo vs bot"),
            Msg::CmdTrainVs
        );
        assert_eq!(err("/train solo vs @bob"), Msg::CmdTrainVs);
        assert!(matches!(
            err("/train nonsense"),
            Msg::CmdChallengeWord { .. }
        ));
        assert_eq!(cmd("/undo"), Command::Undo(None));
        assert_eq!(cmd("/undo 7"), Command::Undo(Some(7)));
    }
}
