//! `ugolki doctor`: ask each configured platform what this bot can do there, and the
//! database how far it is migrated; a ✔ or ✘ per item, with how to fix each ✘. It changes
//! nothing anywhere (no webhook set, no command registered, no migration run).

use crate::discord::permissions::NEEDED;
use serenity::all::{ApplicationFlags, InstallationContext, Permissions};
use std::fmt::Write as _;
use teloxide::prelude::Requester;
use ugolki_core::store::{Schema, Store};

/// What to check.
pub struct Options {
    pub database_url: String,
    pub telegram: Option<Telegram>,
    pub discord: Option<Discord>,
}

/// The Telegram bot as `ugolki telegram` would run it.
pub struct Telegram {
    pub token: String,
    pub api_url: Option<String>,
    /// `--webhook URL`: the webhook it would set (else: long polling).
    pub webhook: Option<url::Url>,
    /// `TELEGRAM_INLINE_CHATS` is set: inline mode must be on.
    pub inline: bool,
    /// What is wrong in its settings, as `ugolki telegram` would refuse to start with it (a
    /// chat id that is not one, a webhook secret Telegram would not take).
    pub wrong: Vec<String>,
}

/// The Discord bot as `ugolki discord` would run it.
pub struct Discord {
    pub token: String,
    pub api_url: Option<String>,
    /// `DISCORD_GUILD_ID`: its commands are that guild's.
    pub guild: Option<u64>,
    /// `--message-content`: the intent must be switched on.
    pub message_content: bool,
}

/// One item's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub ok: bool,
    /// A ✘ that stops the bot from playing where it is configured to (the exit code).
    pub blocking: bool,
    /// What was checked and what was found.
    pub what: String,
    /// How to fix a ✘.
    pub fix: Option<String>,
}

impl Check {
    fn ok(what: impl Into<String>) -> Check {
        Check {
            ok: true,
            blocking: false,
            what: what.into(),
            fix: None,
        }
    }

    /// A ✘ that keeps the bot from playing.
    fn bad(what: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            ok: false,
            blocking: true,
            what: what.into(),
            fix: Some(fix.into()),
        }
    }

    /// A ✘ the bot plays despite (something it fixes at its start, a feature off).
    fn warn(what: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            blocking: false,
            ..Check::bad(what, fix)
        }
    }
}

/// Every check, in order: the database, then each configured platform.
pub async fn run(o: &Options) -> Vec<Check> {
    let mut out = vec![database(&o.database_url).await];
    if let Some(t) = &o.telegram {
        out.extend(telegram(t).await);
    }
    if let Some(d) = &o.discord {
        out.extend(discord(d).await);
    }
    if o.telegram.is_none() && o.discord.is_none() {
        out.push(Check::warn(
            "no platform configured",
            "set TELOXIDE_TOKEN (Telegram) and/or DISCORD_TOKEN (Discord); the console needs none",
        ));
    }
    out
}

/// The report, one line an item (and its fix under a ✘); whether nothing blocks.
#[must_use]
pub fn report(checks: &[Check]) -> (String, bool) {
    let mut text = String::new();
    for c in checks {
        // ✘ keeps the bot from playing (exit 1); ⚠ it plays despite.
        let mark = match (c.ok, c.blocking) {
            (true, _) => '✔',
            (false, true) => '✘',
            (false, false) => '⚠',
        };
        let _ = writeln!(text, "{mark} {}", c.what);
        if let Some(fix) = &c.fix {
            let _ = writeln!(text, "    fix: {fix}");
        }
    }
    (text, checks.iter().all(|c| c.ok || !c.blocking))
}

async fn database(url: &str) -> Check {
    let shown = ugolki_core::store::display_url(url);
    let unwritable = unwritable(url);
    match Store::schema(url).await {
        Ok(Schema::Absent { folder: true }) if unwritable == Some(Unwritable::Folder) => {
            Check::bad(
                format!("database {shown}: this user may not write in its folder"),
                "give the user the bot runs as write access to the folder (the first start creates the file there)",
            )
        }
        Ok(Schema::Absent { folder: true }) => Check::ok(format!(
            "database {shown}: not there yet (the first start creates it)"
        )),
        Ok(Schema::Absent { folder: false }) => Check::bad(
            format!("database {shown}: its folder does not exist"),
            "create the folder, or give --db (or DATABASE_URL) a path in one that does",
        ),
        Ok(Schema::At { newer, .. }) if newer > 0 => Check::bad(
            format!("database {shown}: {newer} migrations from a newer ugolki"),
            "run the newer ugolki (this one would not understand the data)",
        ),
        Ok(Schema::At { .. }) if unwritable == Some(Unwritable::File) => Check::bad(
            format!("database {shown}: this user may read the file but not write it"),
            "give the user the bot runs as write access to the file and its folder",
        ),
        // SQLite may refuse even a read where it cannot make its journal
        // (`SQLITE_READONLY_DIRECTORY`): its error, and what this user cannot write.
        Err(e) if unwritable.is_some() => Check::bad(
            format!(
                "database {shown}: {e} (this user may not write its {})",
                if unwritable == Some(Unwritable::File) { "file" } else { "folder" }
            ),
            "give the user the bot runs as write access to the file and its folder",
        ),
        Ok(Schema::At { .. }) if unwritable == Some(Unwritable::Folder) => Check::bad(
            format!(
                "database {shown}: this user may write the file but not its folder, where SQLite keeps its journal (the -wal and -shm files)"
            ),
            "give the user the bot runs as write access to the folder",
        ),
        Ok(Schema::At { applied, known, .. }) if applied == known => Check::ok(format!(
            "database {shown}: reachable, all {known} migrations applied"
        )),
        Ok(Schema::At { applied, known, .. }) => Check::ok(format!(
            "database {shown}: reachable, {} of {known} migrations to apply (the next start applies them)",
            known - applied
        )),
        Err(e) => Check::bad(
            format!("database {shown}: {e}"),
            "check DATABASE_URL or --db (PostgreSQL: is the server running, may this user connect?)",
        ),
    }
}

/// What of an `SQLite` database this user cannot write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unwritable {
    /// The file is there, and not writable.
    File,
    /// Its folder, where `SQLite` creates its journal beside the file (and the first start
    /// the file itself).
    Folder,
}

/// What of an `SQLite` database at `url` this user cannot write, if anything: the file is
/// opened for writing (which writes nothing), and a file of the doctor's own made in its
/// folder and removed at once.
fn unwritable(url: &str) -> Option<Unwritable> {
    let path = Store::sqlite_file(url)?;
    let path = path.as_path();
    // Refused for this user, or on a file system mounted read-only.
    let denied = |r: std::io::Result<std::fs::File>| {
        r.is_err_and(|e| {
            matches!(
                e.kind(),
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
            )
        })
    };
    if denied(std::fs::OpenOptions::new().write(true).open(path)) {
        return Some(Unwritable::File);
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    // Named by the process and the moment: a probe left by a doctor killed meanwhile is
    // never taken for this one's.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let probe = folder.join(format!(".ugolki-doctor-{}-{nanos}", std::process::id()));
    let made = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe);
    if made.is_ok() {
        let _ = std::fs::remove_file(&probe);
        return None;
    }
    denied(made).then_some(Unwritable::Folder)
}

async fn telegram(t: &Telegram) -> Vec<Check> {
    let mut bot = teloxide::Bot::new(&t.token);
    if let Some(url) = t.api_url.as_deref().and_then(|u| url::Url::parse(u).ok()) {
        bot = bot.set_api_url(url);
    }
    let me = match bot.get_me().await {
        Ok(me) => me,
        Err(teloxide::RequestError::Api(teloxide::ApiError::InvalidToken)) => {
            return vec![Check::bad(
                "telegram: the token is refused (401 Unauthorized)",
                "set TELOXIDE_TOKEN to the token BotFather gives (/token; after /revoke, the new one)",
            )]
        }
        Err(e) => {
            return vec![Check::bad(
                format!("telegram: the Bot API does not answer: {e}"),
                "check the network (and TELOXIDE_API_URL, if set)",
            )]
        }
    };
    let name = me.username.clone().unwrap_or_default();
    let mut out = vec![Check::ok(format!("telegram: token of @{name}"))];
    for wrong in &t.wrong {
        out.push(Check::bad(
            format!("telegram: {wrong}"),
            "correct the setting: `ugolki telegram` does not start with it",
        ));
    }
    out.push(if me.can_read_all_group_messages {
        Check::ok("telegram: privacy mode off — moves typed as text in groups")
    } else {
        Check::ok(format!(
            "telegram: privacy mode on — in groups, moves by /m@{name} c3-d4 or replies to the board (BotFather /setprivacy to type them as text; then re-add the bot to each group)"
        ))
    });
    out.push(match (me.supports_inline_queries, t.inline) {
        (true, _) => Check::ok("telegram: inline mode on"),
        (false, true) => Check::bad(
            "telegram: inline mode off, but TELEGRAM_INLINE_CHATS is set",
            "BotFather: /setinline (and /setinlinefeedback, for every chosen result)",
        ),
        (false, false) => Check::warn(
            "telegram: inline mode off — no challenges by @bot from other chats",
            "BotFather: /setinline, and set TELEGRAM_INLINE_CHATS",
        ),
    });
    out.push(webhook(&bot, t.webhook.as_ref()).await);
    out
}

async fn webhook(bot: &teloxide::Bot, expected: Option<&url::Url>) -> Check {
    let info = match bot.get_webhook_info().await {
        Ok(info) => info,
        Err(e) => {
            return Check::bad(
                format!("telegram: getWebhookInfo failed: {e}"),
                "try again; check the network",
            )
        }
    };
    let pending = info.pending_update_count;
    let set = info.url.as_ref().map(url::Url::as_str);
    match (expected, set, &info.last_error_message) {
        (None, None, _) => Check::ok(format!("telegram: no webhook, long polling ({pending} updates waiting)")),
        (None, Some(u), _) => Check::ok(format!(
            "telegram: a webhook is set ({u}); polling removes it at start ({pending} updates waiting)"
        )),
        (Some(want), _, _) if crate::setup::telegram::webhook_refusal(want).is_some() => Check::bad(
            format!("telegram: --webhook {want}: Telegram would refuse it"),
            crate::setup::telegram::webhook_refusal(want).unwrap_or_default(),
        ),
        (Some(want), Some(u), Some(error)) if u == want.as_str() => Check::bad(
            format!("telegram: webhook {u}: Telegram's last try failed: {error} ({pending} updates waiting)"),
            "check the TLS proxy in front of --listen: a valid certificate, forwarding to the listener",
        ),
        (Some(want), Some(u), None) if u == want.as_str() => {
            Check::ok(format!("telegram: webhook {u} ({pending} updates waiting)"))
        }
        (Some(want), _, _) => Check::warn(
            format!("telegram: the webhook is not {want} yet"),
            "start `ugolki telegram --webhook …`: it sets it",
        ),
    }
}

async fn discord(d: &Discord) -> Vec<Check> {
    let mut http = serenity::http::HttpBuilder::new(&d.token);
    if let Some(url) = &d.api_url {
        http = http
            .proxy(url.trim_end_matches('/'))
            .ratelimiter_disabled(true);
    }
    let http = http.build();
    let me = match http.get_current_user().await {
        Ok(me) => me,
        Err(e) if crate::setup::discord::refused(&e).is_some() => {
            return vec![Check::bad(
                "discord: the token is refused (401 Unauthorized)",
                "set DISCORD_TOKEN (Developer Portal → your application → Bot → Reset Token)",
            )]
        }
        Err(e) => {
            return vec![Check::bad(
                format!("discord: the API does not answer: {e}"),
                "check the network (and DISCORD_API_URL, if set)",
            )]
        }
    };
    let mut out = vec![Check::ok(format!("discord: token of {}", me.name))];
    match http.get_current_application_info().await {
        Ok(app) => {
            // The commands' routes name the application.
            http.set_application_id(app.id);
            let content = app.flags.is_some_and(|f| {
                f.intersects(
                    ApplicationFlags::GATEWAY_MESSAGE_CONTENT
                        | ApplicationFlags::GATEWAY_MESSAGE_CONTENT_LIMITED,
                )
            });
            out.push(match (content, d.message_content) {
                (true, _) => Check::ok("discord: Message Content intent on"),
                (false, true) => Check::bad(
                    "discord: Message Content intent off, but --message-content asks for it (the gateway would close with 4014)",
                    "Developer Portal → Bot → Privileged Gateway Intents → Message Content Intent, or run without --message-content",
                ),
                (false, false) => Check::ok(
                    "discord: Message Content intent off — servers play by /move and buttons",
                ),
            });
            let user = app
                .integration_types_config
                .contains_key(&InstallationContext::User);
            out.push(if user {
                Check::ok("discord: installable on servers and on users' accounts")
            } else {
                Check::warn(
                    "discord: not installable on users' accounts",
                    "Developer Portal → Installation → Installation Contexts → User Install",
                )
            });
        }
        Err(e) => out.push(Check::bad(
            format!("discord: the application is not readable: {e}"),
            "check DISCORD_TOKEN",
        )),
    }
    out.push(commands(&http, d.guild).await);
    out.extend(guilds(&http).await);
    out
}

async fn commands(http: &serenity::http::Http, guild: Option<u64>) -> Check {
    let now = match guild {
        Some(g) => {
            http.get_guild_commands_with_localizations(serenity::all::GuildId::new(g))
                .await
        }
        None => http.get_global_commands_with_localizations().await,
    };
    let defs = crate::discord::commands::definitions();
    match now {
        Ok(now) if crate::discord::commands::registered_as(&defs, &now) => Check::ok(format!(
            "discord: {} slash commands registered, as this version lays them out",
            now.len()
        )),
        Ok(now) => Check::warn(
            format!(
                "discord: the slash commands registered ({}) are not this version's",
                now.len()
            ),
            "start `ugolki discord`: it registers them",
        ),
        Err(e) => Check::bad(
            format!("discord: the commands are not readable: {e}"),
            "try again; check DISCORD_TOKEN",
        ),
    }
}

/// The bot's permissions in each of its servers, from its roles (a channel may take more
/// away: the bot names what is missing where it is asked to play).
async fn guilds(http: &serenity::http::Http) -> Vec<Check> {
    let guilds = match http.get_guilds(None, None).await {
        Ok(g) => g,
        Err(e) => {
            return vec![Check::bad(
                format!("discord: the bot's servers are not readable: {e}"),
                "try again",
            )]
        }
    };
    if guilds.is_empty() {
        return vec![Check::warn(
            "discord: in no server yet",
            format!(
                "invite it: https://discord.com/oauth2/authorize?client_id=APP_ID&scope=bot+applications.commands&permissions={}",
                NEEDED.bits()
            ),
        )];
    }
    guilds
        .iter()
        .map(|g| {
            let has = if g.permissions.administrator() {
                Permissions::all()
            } else {
                g.permissions
            };
            let missing = NEEDED - has;
            if missing.is_empty() {
                Check::ok(format!("discord: permissions in {}", g.name))
            } else {
                Check::bad(
                    format!(
                        "discord: permissions in {}: missing {}",
                        g.name,
                        crate::discord::permissions::names(missing, ugolki_core::words::Lang::EN)
                    ),
                    "Server Settings → Roles → the bot's role: grant them (or re-invite with the URL in docs)",
                )
            }
        })
        .collect()
}
