//! The slash commands: defined once from the table's menu (descriptions from every
//! catalogue, as Discord localizations), and read back into the table's structured
//! `Command` — never re-assembled into text.

use serenity::all::{
    CommandDataOptionValue, CommandInteraction, CommandOptionType, CreateCommand,
    CreateCommandOption,
};
use serenity::all::{InstallationContext, InteractionContext};
use ugolki_core::clock::TimeControl;
use ugolki_core::game::Rules;
use ugolki_core::table::command::{ChallengeSpec, ColorChoice, Command, MENU};
use ugolki_core::table::{Mention, User};
use ugolki_core::words::{render, variant_error, Lang, Msg};

/// Discord's locale for each language we speak (Discord has no plain `pt`).
fn discord_locale(lang: Lang) -> Option<&'static str> {
    match lang.code() {
        "ru" => Some("ru"),
        "pt" => Some("pt-BR"),
        "it" => Some("it"),
        _ => None,
    }
}

/// A menu line, cut to Discord's 100 characters.
fn description(command: &str, lang: Lang) -> String {
    render(
        &Msg::CommandHelp {
            command: command.into(),
        },
        lang,
    )
    .chars()
    .take(100)
    .collect()
}

/// An option named `name`, described by the catalogue's line `help` in every language.
fn option(kind: CommandOptionType, name: &str, help: &str) -> CreateCommandOption {
    let line = |lang| -> String {
        render(
            &Msg::OptionHelp {
                option: help.into(),
            },
            lang,
        )
        .chars()
        .take(100)
        .collect()
    };
    let mut o = CreateCommandOption::new(kind, name, line(Lang::EN));
    for lang in Lang::all() {
        if let Some(locale) = discord_locale(lang) {
            o = o.description_localized(locale, line(lang));
        }
    }
    o
}

fn game_number() -> CreateCommandOption {
    option(CommandOptionType::Integer, "game", "game").min_int_value(1)
}

fn text(name: &str, help: &str, required: bool) -> CreateCommandOption {
    option(CommandOptionType::String, name, help)
        .required(required)
        .max_length(100)
}

/// The options each command takes.
fn options(command: &str) -> Vec<CreateCommandOption> {
    let variant = || {
        let mut o = text("variant", "variant", false);
        for id in [
            "classic3x3",
            "classic3x4",
            "diagonal3x3",
            "diagonal3x4",
            "triangle",
            "square4x4",
            "halma16",
            "damas",
            "damas-short",
        ] {
            o = o.add_string_choice(id, id);
        }
        o
    };
    match command {
        "challenge" => vec![
            option(CommandOptionType::User, "opponent", "opponent"),
            variant(),
            text("time", "time", false),
            option(CommandOptionType::Boolean, "rated", "rated"),
            colour(),
            option(CommandOptionType::Integer, "stake", "stake")
                .min_int_value(1)
                .max_int_value(1_000_000),
        ],
        "accept" | "decline" | "cancel" => {
            vec![option(CommandOptionType::Integer, "challenge", "challenge").min_int_value(1)]
        }
        "move" | "m" => vec![
            text("move", "move", true).set_autocomplete(true),
            game_number(),
        ],
        "moves" => vec![text("square", "square", true), game_number()],
        "train" => train_options(),
        "play" => play_options(),
        "board" | "resign" | "draw" | "nodraw" | "abort" | "confirm" | "claim" | "record"
        | "hint" | "review" | "undo" => {
            vec![game_number()]
        }
        "rules" => vec![variant()],
        "rating" => vec![
            option(CommandOptionType::User, "player", "player"),
            text("kind", "kind", false),
        ],
        "top" => vec![
            text("kind", "kind", false),
            option(CommandOptionType::Boolean, "month", "month"),
            option(CommandOptionType::Boolean, "global", "global"),
        ],
        "lang" => {
            let mut o = text("language", "language", false);
            for l in Lang::all() {
                o = o.add_string_choice(
                    render(
                        &Msg::LangName {
                            code: l.code().into(),
                        },
                        l,
                    ),
                    l.code(),
                );
            }
            vec![o.add_string_choice("auto", "auto")]
        }
        _ => Vec::new(),
    }
}

/// The colour a player asks for.
fn colour() -> CreateCommandOption {
    text("color", "color", false)
        .add_string_choice("white", "white")
        .add_string_choice("black", "black")
        .add_string_choice("random", "random")
}

/// The bot's level, 1 to 5.
fn level() -> CreateCommandOption {
    option(CommandOptionType::Integer, "level", "level")
        .min_int_value(1)
        .max_int_value(5)
}

/// `/train`'s options: whom, the bot's level, then what the typed command takes.
fn train_options() -> Vec<CreateCommandOption> {
    vec![
        text("against", "against", false)
            .add_string_choice("solo", "solo")
            .add_string_choice("bot", "bot"),
        option(CommandOptionType::User, "opponent", "friend"),
        level(),
        text("variant", "room", false),
        text("time", "train-time", false),
        colour(),
    ]
}

/// `/play`: a game against the bot (Discord's `/play` is always against the bot; a
/// person is challenged with `/challenge`).
fn play_options() -> Vec<CreateCommandOption> {
    vec![
        level(),
        text("variant", "bot-variant", false),
        text("time", "time", false),
        colour(),
    ]
}

/// Every slash command, with its description in every language.
pub fn definitions() -> Vec<CreateCommand> {
    MENU.iter()
        // `/start` is Telegram's; `/m` is the typed short form of `/move`.
        .filter(|c| !matches!(**c, "start" | "m"))
        .map(|c| {
            // Installable on servers and on a user's account; usable in servers, the bot's
            // DMs and the user's own DMs and group DMs (user-installed app).
            let mut cmd = CreateCommand::new(*c)
                .description(description(c, Lang::EN))
                .integration_types(vec![InstallationContext::Guild, InstallationContext::User])
                .contexts(vec![
                    InteractionContext::Guild,
                    InteractionContext::BotDm,
                    InteractionContext::PrivateChannel,
                ]);
            for lang in Lang::all() {
                if let Some(locale) = discord_locale(lang) {
                    cmd = cmd.description_localized(locale, description(c, lang));
                }
            }
            options(c).into_iter().fold(cmd, CreateCommand::add_option)
        })
        .collect()
}

/// The player a Discord user is.
pub fn user(u: &serenity::all::User) -> User {
    User {
        id: u.id.get().to_string(),
        name: u.global_name.clone().unwrap_or_else(|| u.name.clone()),
        handle: Some(u.name.to_ascii_lowercase()),
    }
}

/// A slash command as the table's command; `Err` with the reason when its options do not
/// make one.
pub fn read(cmd: &CommandInteraction) -> Result<Command, Msg> {
    let opt = |name: &str| {
        cmd.data
            .options
            .iter()
            .find(|o| o.name == name)
            .map(|o| &o.value)
    };
    let string = |name: &str| match opt(name) {
        Some(CommandDataOptionValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    let int = |name: &str| match opt(name) {
        Some(CommandDataOptionValue::Integer(n)) => Some(*n),
        _ => None,
    };
    let boolean = |name: &str| match opt(name) {
        Some(CommandDataOptionValue::Boolean(b)) => Some(*b),
        _ => None,
    };
    let person = |name: &str| match opt(name) {
        Some(CommandDataOptionValue::User(id)) => cmd
            .data
            .resolved
            .users
            .get(id)
            .map(|u| Mention::User(user(u))),
        _ => None,
    };
    let game = int("game");
    Ok(match cmd.data.name.as_str() {
        "challenge" => {
            let mut spec = ChallengeSpec {
                opponent: person("opponent"),
                rated: boolean("rated"),
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
        "move" => Command::Move(game, string("move").unwrap_or_default()),
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
            month: boolean("month").unwrap_or(false),
            global: boolean("global").unwrap_or(false),
        },
        "lang" => Command::Lang(string("language")),
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
    match ugolki_core::table::command::parse(text, mentions, None)? {
        Some(ugolki_core::table::command::Parsed::Command(c)) => Ok(c),
        // A leading `/` always reads as a command or a refusal.
        _ => Err(Msg::CmdUnknown {
            name: text.chars().take(20).collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ugolki_core::table::command::TrainMode;

    #[test]
    fn play_options_read_as_the_typed_command() {
        let c = play_bot(
            Some(2),
            &[
                Some("triangle".into()),
                Some("5+3".into()),
                Some("black".into()),
            ],
        );
        let Ok(Command::PlayBot { level, spec }) = c else {
            panic!("{c:?}")
        };
        assert_eq!(level, 2);
        assert_eq!(spec.rules.id(), "triangle");
        assert_eq!(spec.time.to_string(), "5+3");
        assert_eq!(spec.color, ColorChoice::Black);
        // Nothing said: the default level and game.
        let Ok(Command::PlayBot { level, .. }) = play_bot(None, &[None, None, None]) else {
            panic!()
        };
        assert_eq!(level, ugolki_core::table::command::DEFAULT_BOT_LEVEL);
        // Words /play bot refuses are refused the same way.
        assert!(play_bot(Some(9), &[None, None, None]).is_err());
        assert!(play_bot(None, &[Some("zebra".into()), None, None]).is_err());
    }

    #[test]
    fn train_options_read_as_the_typed_command() {
        let c = train(
            Some("bot"),
            Some(2),
            &[Some("triangle".into()), None, None],
            None,
        );
        assert!(
            matches!(&c, Ok(Command::Train { mode: TrainMode::Bot(2), spec }) if spec.rules.id().starts_with("training:triangle")),
            "{c:?}"
        );
        let bob = Mention::Handle("bob".into());
        let c = train(
            None,
            None,
            &[None, Some("5+3".into()), None],
            Some(bob.clone()),
        );
        assert!(
            matches!(&c, Ok(Command::Train { mode: TrainMode::Person, spec }) if spec.opponent == Some(bob.clone())),
            "{c:?}"
        );
        assert!(matches!(
            train(None, None, &[None, None, None], None),
            Ok(Command::Train {
                mode: TrainMode::Solo,
                ..
            })
        ));
        // Solo and a friend at once is not one thing.
        assert_eq!(
            train(Some("solo"), None, &[None, None, None], Some(bob)).unwrap_err(),
            Msg::CmdTrainVs
        );
        assert_eq!(
            train(None, None, &[Some("damas".into()), None, None], None).unwrap_err(),
            Msg::TrainCornersOnly
        );
    }
}
