//! Commands with structured options, as a platform's slash commands deliver them: which
//! options each command of the menu takes (their kind, bounds, choices and the catalogue
//! line that describes them), and how given options read as the table's [`Command`] — the
//! same command the typed words would make, checked the same way. A platform lays these
//! out in its own terms and hands back what was chosen.

use super::command::{self, ChallengeSpec, ColorChoice, Command, Parsed, MENU};
use super::types::Mention;
use crate::clock::TimeControl;
use crate::game::Rules;
use crate::words::{variant_error, Lang, Msg};

/// What an option holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Text,
    Number,
    Flag,
    Person,
}

/// How an option's choices are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    /// As they are written.
    Same,
    /// Languages, each by its own name.
    Languages,
}

/// One option of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    /// The `option-help` line that describes it (`Msg::OptionHelp`).
    pub help: &'static str,
    pub required: bool,
    /// The values it may take (none: any).
    pub choices: &'static [&'static str],
    pub labels: Labels,
    /// A number's bounds.
    pub range: Option<(i64, i64)>,
    /// The platform offers the moves of the asker's game as they type.
    pub suggest: bool,
}

impl OptionSpec {
    const fn new(name: &'static str, kind: OptionKind, help: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            kind,
            help,
            required: false,
            choices: &[],
            labels: Labels::Same,
            range: None,
            suggest: false,
        }
    }

    const fn text(name: &'static str, help: &'static str) -> OptionSpec {
        OptionSpec::new(name, OptionKind::Text, help)
    }

    const fn required(mut self) -> OptionSpec {
        self.required = true;
        self
    }

    const fn choices(mut self, choices: &'static [&'static str]) -> OptionSpec {
        self.choices = choices;
        self
    }

    const fn range(mut self, from: i64, to: i64) -> OptionSpec {
        self.range = Some((from, to));
        self
    }
}

/// The games a `variant` option offers.
const VARIANTS: &[&str] = &[
    "classic3x3",
    "classic3x4",
    "diagonal3x3",
    "diagonal3x4",
    "triangle",
    "square4x4",
    "halma16",
    "damas",
    "damas-short",
];
const COLOURS: &[&str] = &["white", "black", "random"];
const GAME: OptionSpec = OptionSpec::new("game", OptionKind::Number, "game").range(1, i64::MAX);
const VARIANT: OptionSpec = OptionSpec::text("variant", "variant").choices(VARIANTS);
const TIME: OptionSpec = OptionSpec::text("time", "time");
const COLOUR: OptionSpec = OptionSpec::text("color", "color").choices(COLOURS);
const LEVEL: OptionSpec = OptionSpec::new("level", OptionKind::Number, "level").range(1, 5);

/// The options `command` takes, in order.
#[must_use]
pub fn options(command: &str) -> Vec<OptionSpec> {
    use OptionKind::{Flag, Number, Person};
    match command {
        "challenge" => vec![
            OptionSpec::new("opponent", Person, "opponent"),
            VARIANT,
            TIME,
            OptionSpec::new("rated", Flag, "rated"),
            COLOUR,
            OptionSpec::new("stake", Number, "stake").range(1, 1_000_000),
        ],
        "accept" | "decline" | "cancel" => {
            vec![OptionSpec::new("challenge", Number, "challenge").range(1, i64::MAX)]
        }
        "move" | "m" => vec![
            OptionSpec {
                suggest: true,
                ..OptionSpec::text("move", "move").required()
            },
            GAME,
        ],
        "moves" => vec![OptionSpec::text("square", "square").required(), GAME],
        "train" => vec![
            OptionSpec::text("against", "against").choices(&["solo", "bot"]),
            OptionSpec::new("opponent", Person, "friend"),
            LEVEL,
            OptionSpec::text("variant", "room"),
            OptionSpec::text("time", "train-time"),
            COLOUR,
        ],
        "play" => vec![
            LEVEL,
            OptionSpec::text("variant", "bot-variant"),
            TIME,
            COLOUR,
        ],
        "board" | "resign" | "draw" | "nodraw" | "abort" | "confirm" | "claim" | "record"
        | "hint" | "review" | "undo" => vec![GAME],
        "rules" => vec![VARIANT],
        "rating" => vec![
            OptionSpec::new("player", Person, "player"),
            OptionSpec::text("kind", "kind"),
        ],
        "top" => vec![
            OptionSpec::text("kind", "kind"),
            OptionSpec::new("month", Flag, "month"),
            OptionSpec::new("global", Flag, "global"),
        ],
        "lang" => vec![OptionSpec {
            labels: Labels::Languages,
            ..OptionSpec::text("language", "language").choices(&["en", "ru", "pt", "it", "auto"])
        }],
        "tournament" => vec![
            OptionSpec::text("what", "what")
                .choices(&["arena", "swiss", "roundrobin", "start", "cancel"])
                .required(),
            VARIANT,
            TIME,
            OptionSpec::text("settings", "settings"),
        ],
        "standings" => vec![OptionSpec::new("tournament", Number, "tournament").range(1, i64::MAX)],
        _ => Vec::new(),
    }
}

/// A choice's label for a reader of `lang`.
#[must_use]
pub fn label(spec: &OptionSpec, choice: &str) -> String {
    match (spec.labels, Lang::from_tag(choice)) {
        (Labels::Languages, Some(l)) if choice != "auto" => crate::words::render(
            &Msg::LangName {
                code: choice.into(),
            },
            l,
        ),
        _ => choice.to_string(),
    }
}

/// The menu's commands a platform with slash commands offers (`/start` is Telegram's
/// greeting; `/m` is the typed short form of `/move`).
pub fn slash_commands() -> impl Iterator<Item = &'static str> {
    MENU.iter()
        .copied()
        .filter(|c| !matches!(*c, "start" | "m"))
}

/// An option's value, as chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Text(String),
    Number(i64),
    Flag(bool),
    Person(Mention),
}

/// Command `name` with the options `given` (by name) as the table's command; `Err` with the
/// reason when they do not make one.
pub fn read(name: &str, given: impl Fn(&str) -> Option<OptionValue>) -> Result<Command, Msg> {
    let string = |n: &str| match given(n) {
        Some(OptionValue::Text(s)) => Some(s),
        _ => None,
    };
    let int = |n: &str| match given(n) {
        Some(OptionValue::Number(v)) => Some(v),
        _ => None,
    };
    let flag = |n: &str| match given(n) {
        Some(OptionValue::Flag(b)) => Some(b),
        _ => None,
    };
    let person = |n: &str| match given(n) {
        Some(OptionValue::Person(m)) => Some(m),
        _ => None,
    };
    let game = int("game");
    Ok(match name {
        "challenge" => {
            let mut spec = ChallengeSpec {
                opponent: person("opponent"),
                rated: flag("rated"),
                stake: int("stake"),
                ..ChallengeSpec::default()
            };
            if let Some(v) = string("variant") {
                spec.rules = Rules::from_id(&v).map_err(|e| variant_error(&e))?;
            }
            if let Some(t) = string("time") {
                spec.time = TimeControl::parse(&t).map_err(|_| Msg::CmdChallengeWord {
                    word: t.chars().take(30).collect(),
                })?;
            }
            spec.color = match string("color").as_deref() {
                Some("white") => ColorChoice::White,
                Some("black") => ColorChoice::Black,
                _ => ColorChoice::Random,
            };
            Command::Challenge(spec.validated()?)
        }
        "accept" => Command::Accept(int("challenge")),
        "decline" => Command::Decline(int("challenge")),
        "cancel" => Command::Cancel(int("challenge")),
        "move" | "m" => Command::Move(game, string("move").unwrap_or_default()),
        "moves" => Command::Moves(game, string("square").unwrap_or_default()),
        "board" => Command::Board(game),
        "resign" => Command::Resign(game),
        "draw" => Command::Draw(game),
        "nodraw" => Command::NoDraw(game),
        "abort" => Command::Abort(game),
        "confirm" => Command::Confirm(game),
        "claim" => Command::Claim(game),
        "record" => Command::Record(game),
        "hint" => Command::Hint(game),
        "review" => Command::Review(game),
        "undo" => Command::Undo(game),
        "play" => play_bot(
            int("level"),
            &[string("variant"), string("time"), string("color")],
        )?,
        "train" => train(
            string("against").as_deref(),
            int("level"),
            &[string("variant"), string("time"), string("color")],
            person("opponent"),
        )?,
        "games" => Command::Games,
        "chips" => Command::Chips,
        "rules" => Command::Rules(string("variant")),
        "rating" => Command::Rating {
            who: person("player"),
            kind: string("kind"),
        },
        "top" => Command::Top {
            kind: string("kind"),
            month: flag("month").unwrap_or(false),
            global: flag("global").unwrap_or(false),
        },
        "lang" => Command::Lang(string("language")),
        "tournament" => tournament(&[
            string("what"),
            string("variant"),
            string("time"),
            string("settings"),
        ])?,
        "join" => Command::Join,
        "withdraw" => Command::Withdraw,
        "standings" => Command::Standings(int("tournament")),
        _ => Command::Help,
    })
}

/// `/play`'s options read as `/play bot LEVEL WORDS…` would be (one reader of its words).
fn play_bot(level: Option<i64>, words: &[Option<String>]) -> Result<Command, Msg> {
    let level = level.map(|n| n.to_string());
    let text = typed("/play bot", std::iter::once(&level).chain(words));
    match read_typed(&text, &[])? {
        c @ Command::PlayBot { .. } => Ok(c),
        // Option text that reads as another command cannot happen, but be sure.
        _ => Err(Msg::CmdChallengeWord {
            word: text.chars().take(30).collect(),
        }),
    }
}

/// `/train`'s options read as the typed command would be (one reader of its words): the
/// level goes with `bot`, the opponent is the command's one mention.
fn train(
    against: Option<&str>,
    level: Option<i64>,
    words: &[Option<String>],
    opponent: Option<Mention>,
) -> Result<Command, Msg> {
    let vs = match against {
        Some("bot") => Some(match level {
            Some(n) => format!("vs bot {n}"),
            None => "vs bot".to_string(),
        }),
        Some("solo") => Some("solo".to_string()),
        _ => None,
    };
    let text = typed("/train", words.iter().chain(std::iter::once(&vs)));
    let mentions: Vec<Mention> = opponent.into_iter().collect();
    match read_typed(&text, &mentions)? {
        c @ Command::Train { .. } => Ok(c),
        // Option text that reads as another command ("solo" in the variant box is fine;
        // nothing else can change which command this is, but be sure).
        _ => Err(Msg::CmdTrainVs),
    }
}

/// `/tournament`'s options read as the typed command would be (one reader of its words).
fn tournament(words: &[Option<String>]) -> Result<Command, Msg> {
    let text = typed("/tournament", words.iter());
    match read_typed(&text, &[])? {
        c @ Command::Tournament(_) => Ok(c),
        _ => Err(Msg::TournamentUsage),
    }
}

/// A command's typed form: `head`, then the words given, space-separated.
fn typed<'a>(head: &str, words: impl Iterator<Item = &'a Option<String>>) -> String {
    let mut text = head.to_string();
    for w in words.flatten() {
        text.push(' ');
        text.push_str(w);
    }
    text
}

/// Read options put back into typed words with the typed commands' own parser, so a slash
/// command means what the same words typed mean.
fn read_typed(text: &str, mentions: &[Mention]) -> Result<Command, Msg> {
    match command::parse(text, mentions, None)? {
        Some(Parsed::Command(c)) => Ok(c),
        // A leading `/` always reads as a command or a refusal.
        _ => Err(Msg::CmdUnknown {
            name: text.chars().take(20).collect(),
        }),
    }
}
