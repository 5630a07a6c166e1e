//! The slash commands, laid out from the table's own list of commands and options
//! (`table::options`; descriptions from every catalogue, as Discord localizations), and
//! read back into the table's structured `Command` — never re-assembled into text.

use serenity::all::{
    CommandDataOptionValue, CommandInteraction, CommandOptionType, CreateCommand,
    CreateCommandOption,
};
use serenity::all::{InstallationContext, InteractionContext};
use ugolki_core::table::command::Command;
use ugolki_core::table::options::{self, OptionKind, OptionSpec, OptionValue};
use ugolki_core::table::{Mention, User};
use ugolki_core::words::{render, Lang, Msg};

/// Discord's locale for each language we speak (Discord has no plain `pt`).
fn discord_locale(lang: Lang) -> Option<&'static str> {
    match lang.code() {
        "ru" => Some("ru"),
        "pt" => Some("pt-BR"),
        "it" => Some("it"),
        _ => None,
    }
}

/// A catalogue line in every language, cut to Discord's 100 characters: the English one,
/// and the others by their Discord locales.
fn lines(msg: &Msg) -> (String, Vec<(&'static str, String)>) {
    let line = |lang| render(msg, lang).chars().take(100).collect::<String>();
    let others = Lang::all()
        .filter_map(|l| discord_locale(l).map(|loc| (loc, line(l))))
        .collect();
    (line(Lang::EN), others)
}

/// An option as Discord lays it out.
fn option(spec: &OptionSpec) -> CreateCommandOption {
    let kind = match spec.kind {
        OptionKind::Text => CommandOptionType::String,
        OptionKind::Number => CommandOptionType::Integer,
        OptionKind::Flag => CommandOptionType::Boolean,
        OptionKind::Person => CommandOptionType::User,
    };
    let (en, others) = lines(&Msg::OptionHelp {
        option: spec.help.into(),
    });
    let mut o = CreateCommandOption::new(kind, spec.name, en).required(spec.required);
    for (locale, text) in others {
        o = o.description_localized(locale, text);
    }
    if spec.kind == OptionKind::Text {
        o = o.max_length(100).set_autocomplete(spec.suggest);
    }
    if let Some((from, to)) = spec.range {
        o = o.min_int_value(u64::try_from(from).unwrap_or(0));
        if to < i64::MAX {
            o = o.max_int_value(u64::try_from(to).unwrap_or(u64::MAX));
        }
    }
    for choice in spec.choices {
        o = o.add_string_choice(options::label(spec, choice), *choice);
    }
    o
}

/// Every slash command, with its description in every language.
pub fn definitions() -> Vec<CreateCommand> {
    options::slash_commands()
        .map(|c| {
            // Installable on servers and on a user's account; usable in servers, the bot's
            // DMs and the user's own DMs and group DMs (user-installed app).
            let (en, others) = lines(&Msg::CommandHelp { command: c.into() });
            let mut cmd = CreateCommand::new(c)
                .description(en)
                .integration_types(vec![InstallationContext::Guild, InstallationContext::User])
                .contexts(vec![
                    InteractionContext::Guild,
                    InteractionContext::BotDm,
                    InteractionContext::PrivateChannel,
                ]);
            for (locale, text) in others {
                cmd = cmd.description_localized(locale, text);
            }
            options::options(c)
                .iter()
                .map(option)
                .fold(cmd, CreateCommand::add_option)
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
    options::read(&cmd.data.name, |name| {
        let value = &cmd.data.options.iter().find(|o| o.name == name)?.value;
        Some(match value {
            CommandDataOptionValue::String(s) => OptionValue::Text(s.clone()),
            CommandDataOptionValue::Integer(n) => OptionValue::Number(*n),
            CommandDataOptionValue::Boolean(b) => OptionValue::Flag(*b),
            CommandDataOptionValue::User(id) => {
                OptionValue::Person(Mention::User(user(cmd.data.resolved.users.get(id)?)))
            }
            _ => return None,
        })
    })
}

/// Whether the commands Discord has registered are ours as `defs` lays them out: each of
/// ours has its registered twin, with every field we set set alike (Discord adds ids,
/// versions and defaults). A field Discord writes differently only makes us register again.
pub fn registered_as(defs: &[CreateCommand], registered: &[serenity::all::Command]) -> bool {
    let ours = serde_json::to_value(defs).unwrap_or_default();
    // The Activity's Entry Point is Discord's, not ours (see [`with_entry_points`]).
    let registered: Vec<&serenity::all::Command> = registered
        .iter()
        .filter(|c| c.kind != serenity::all::CommandType::PrimaryEntryPoint)
        .collect();
    let theirs = serde_json::to_value(registered).unwrap_or_default();
    let (Some(ours), Some(theirs)) = (ours.as_array(), theirs.as_array()) else {
        return false;
    };
    ours.len() == theirs.len()
        && ours.iter().all(|o| {
            theirs
                .iter()
                .find(|t| t["name"] == o["name"])
                .is_some_and(|t| within(o, t))
        })
}

/// `defs` and the Entry Point commands among `registered`, as they are: Discord makes one
/// when an application's Activities are switched on (the App Launcher's entry), and refuses
/// a bulk overwrite that would drop it (50240).
#[must_use]
pub fn with_entry_points(
    mut defs: Vec<CreateCommand>,
    registered: &[serenity::all::Command],
) -> Vec<CreateCommand> {
    use serenity::all::{CommandType, EntryPointHandlerType};
    for c in registered
        .iter()
        .filter(|c| c.kind == CommandType::PrimaryEntryPoint)
    {
        let mut kept = CreateCommand::new(c.name.clone())
            .kind(CommandType::PrimaryEntryPoint)
            .description(c.description.clone())
            .handler(
                c.handler
                    .unwrap_or(EntryPointHandlerType::DiscordLaunchActivity),
            )
            .integration_types(c.integration_types.clone());
        if let Some(contexts) = &c.contexts {
            kept = kept.contexts(contexts.clone());
        }
        defs.push(kept);
    }
    defs
}

/// `ours` is contained in `theirs`: objects key by key (a key of ours that is null, false or
/// empty may be missing from theirs: Discord's defaults), arrays element by element.
fn within(ours: &serde_json::Value, theirs: &serde_json::Value) -> bool {
    use serde_json::Value;
    let default = |v: &Value| match v {
        Value::Null | Value::Bool(false) => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    };
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => a.iter().all(|(k, v)| match b.get(k) {
            Some(w) => within(v, w) || (default(v) && default(w)),
            None => default(v),
        }),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(v, w)| within(v, w))
        }
        _ => ours == theirs,
    }
}

#[cfg(test)]
mod registration_tests {
    use serde_json::json;

    #[test]
    fn discords_defaults_and_additions_still_match_but_a_change_does_not() {
        let ours = json!({"name": "move", "description": "Play", "nsfw": false, "options": []});
        let theirs = json!({"id": "1", "version": "2", "name": "move", "description": "Play"});
        assert!(super::within(&ours, &theirs));
        let changed = json!({"name": "move", "description": "Play a move"});
        assert!(!super::within(&ours, &changed));
        let extra_option =
            json!({"name": "move", "description": "Play", "options": [{"name": "x"}]});
        assert!(!super::within(&ours, &extra_option));
    }
}
