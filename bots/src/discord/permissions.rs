//! The permissions the bot needs in a server channel to host a game there, checked on
//! every interaction (Discord sends the bot's own in `app_permissions`): what is missing is
//! told to the person who asked, by name, instead of failing later with nobody told.

use serenity::all::{GuildId, Permissions};
use ugolki_core::words::{render, Lang, Msg};

/// What a game in a channel needs: to see and post there, a board's embed and picture,
/// replies to earlier messages, and the game's thread to make and post in.
pub const NEEDED: Permissions = Permissions::VIEW_CHANNEL
    .union(Permissions::SEND_MESSAGES)
    .union(Permissions::EMBED_LINKS)
    .union(Permissions::ATTACH_FILES)
    .union(Permissions::READ_MESSAGE_HISTORY)
    .union(Permissions::CREATE_PUBLIC_THREADS)
    .union(Permissions::SEND_MESSAGES_IN_THREADS);

/// The catalogue's key of each (`permission-name`: the names Discord's settings show).
const KEYS: [(Permissions, &str); 7] = [
    (Permissions::VIEW_CHANNEL, "view-channel"),
    (Permissions::SEND_MESSAGES, "send-messages"),
    (Permissions::EMBED_LINKS, "embed-links"),
    (Permissions::ATTACH_FILES, "attach-files"),
    (Permissions::READ_MESSAGE_HISTORY, "read-message-history"),
    (Permissions::CREATE_PUBLIC_THREADS, "create-public-threads"),
    (
        Permissions::SEND_MESSAGES_IN_THREADS,
        "send-messages-in-threads",
    ),
];

/// The names of `permissions` in `lang`, as the server settings show them, comma-separated.
#[must_use]
pub fn names(permissions: Permissions, lang: Lang) -> String {
    KEYS.iter()
        .filter(|(p, _)| permissions.contains(*p))
        .map(|(_, key)| {
            render(
                &Msg::PermissionName {
                    permission: (*key).to_string(),
                },
                lang,
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// In a server channel where the bot lacks some of [`NEEDED`]: what it lacks, also logged.
/// `None` where it has them all, or outside servers.
pub fn missing(guild: Option<GuildId>, app: Option<Permissions>) -> Option<Permissions> {
    let guild = guild?;
    let missing = NEEDED - app?;
    if missing.is_empty() {
        return None;
    }
    let english = names(missing, Lang::EN);
    tracing::warn!(guild = guild.get(), missing = %english, "missing permissions in a channel");
    Some(missing)
}

/// What to tell the asker of the permissions `missing`, in `lang`.
pub fn told(missing: Permissions, lang: Lang) -> String {
    let list = names(missing, lang);
    render(&Msg::MissingPermissions { list }, lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_missing_is_named_and_nothing_outside_servers() {
        let guild = Some(GuildId::new(1));
        assert_eq!(missing(guild, Some(NEEDED)), None);
        assert_eq!(missing(None, Some(Permissions::empty())), None);
        let two = Permissions::ATTACH_FILES | Permissions::CREATE_PUBLIC_THREADS;
        assert_eq!(missing(guild, Some(NEEDED - two)), Some(two));
        let said = told(two, Lang::EN);
        assert!(
            said.contains("Attach Files, Create Public Threads"),
            "{said}"
        );
        assert!(!said.contains("Send Messages,"), "{said}");
    }

    /// The invite URLs in the README and the operators' guide ask for exactly these.
    #[test]
    fn the_documented_permissions_integer_is_what_the_bot_needs() {
        assert_eq!(NEEDED.bits(), 309_237_763_072);
        let asked = format!("permissions={}", NEEDED.bits());
        for (name, text) in [
            ("README.md", include_str!("../../../README.md")),
            (
                "docs/operators.md",
                include_str!("../../../docs/operators.md"),
            ),
        ] {
            assert!(text.contains(&asked), "{name} does not invite with {asked}");
        }
    }
}
