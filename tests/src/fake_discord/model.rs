//! Discord's JSON shapes (users, members, roles, channels, the guild, commands), snowflakes and
//! timestamps, and the checks Discord makes on message and command payloads.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Map, Value};

use super::{ChannelKind, FakeDiscord, FakeUser, Inner, RegisteredCommand};

/// 2015-01-01T00:00:00Z in Unix milliseconds.
pub(super) const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

// Permission bits.
pub(super) const MANAGE_GUILD: u64 = 1 << 5;
const ADD_REACTIONS: u64 = 1 << 6;
pub(super) const VIEW_CHANNEL: u64 = 1 << 10;
pub(super) const SEND_MESSAGES: u64 = 1 << 11;
const MANAGE_MESSAGES: u64 = 1 << 13;
pub(super) const EMBED_LINKS: u64 = 1 << 14;
pub(super) const ATTACH_FILES: u64 = 1 << 15;
pub(super) const READ_MESSAGE_HISTORY: u64 = 1 << 16;
const USE_EXTERNAL_EMOJIS: u64 = 1 << 18;
const USE_APPLICATION_COMMANDS: u64 = 1 << 31;
const MANAGE_THREADS: u64 = 1 << 34;
pub(super) const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
const CREATE_PRIVATE_THREADS: u64 = 1 << 36;
pub(super) const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;

/// The `@everyone` role's permissions.
pub(super) const EVERYONE_PERMISSIONS: u64 = ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS;
/// A user-installed app's permissions in a guild the bot is not in (what Discord lets an
/// interaction's answer do there).
pub(super) const USER_APP_PERMISSIONS: u64 = EMBED_LINKS | ATTACH_FILES | USE_EXTERNAL_EMOJIS;
/// The bot's role's permissions.
pub(super) const BOT_PERMISSIONS: u64 =
    EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS | CREATE_PRIVATE_THREADS;

/// Discord's locale names (the keys of `name_localizations` and the like).
pub(super) const LOCALES: [&str; 32] = [
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
    "zh-CN", "ja", "zh-TW", "ko",
];

/// An error answer: `{"message": ..., "code": N, "errors": ...}` with HTTP status `status`.
#[derive(Debug)]
pub(super) struct ApiFail {
    pub(super) status: u16,
    pub(super) code: u64,
    pub(super) message: String,
    pub(super) errors: Option<Value>,
    pub(super) retry_after_ms: Option<u64>,
}

impl ApiFail {
    pub(super) fn new(status: u16, code: u64, message: impl Into<String>) -> ApiFail {
        ApiFail {
            status,
            code,
            message: message.into(),
            errors: None,
            retry_after_ms: None,
        }
    }

    /// 400 "Invalid Form Body" (code 50035) with one error at `path`, nested as Discord does:
    /// `{"errors": {"content": {"_errors": [{"code": ..., "message": ...}]}}}`.
    pub(super) fn form(path: &[String], code: &str, message: &str) -> ApiFail {
        let mut errors = json!({"_errors": [{"code": code, "message": message}]});
        for key in path.iter().rev() {
            let mut o = Map::new();
            o.insert(key.clone(), errors);
            errors = Value::Object(o);
        }
        ApiFail {
            errors: Some(errors),
            ..ApiFail::new(400, 50035, "Invalid Form Body")
        }
    }

    pub(super) fn unknown_channel() -> ApiFail {
        ApiFail::new(404, 10003, "Unknown Channel")
    }

    /// Discord's answer to a field it cannot read (50035 "Invalid Form Body").
    pub(super) fn invalid_form(field: &str) -> ApiFail {
        ApiFail::new(400, 50035, format!("Invalid Form Body: {field}"))
    }

    pub(super) fn unknown_message() -> ApiFail {
        ApiFail::new(404, 10008, "Unknown Message")
    }

    pub(super) fn missing_access() -> ApiFail {
        ApiFail::new(403, 50001, "Missing Access")
    }
}

/// A path for [`ApiFail::form`].
pub(super) fn path(parts: &[&dyn std::fmt::Display]) -> Vec<String> {
    parts.iter().map(ToString::to_string).collect()
}

pub(super) fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// `ms` (Unix milliseconds) as ISO 8601 with microseconds, as Discord writes timestamps.
pub(super) fn iso_at(ms: u64) -> String {
    let secs = ms / 1000;
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rest = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}000+00:00",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        ms % 1000
    )
}

pub(super) fn iso_now() -> String {
    iso_at(unix_ms())
}

/// A snowflake written as a string (Discord) or a number (serenity's placeholders).
pub(super) fn id_of(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

pub(super) fn user_json(user: &FakeUser) -> Value {
    let mut u = json!({
        "id": user.id.to_string(),
        "username": user.name,
        "discriminator": "0",
        "global_name": user.global_name,
        "avatar": null,
        "public_flags": 0,
    });
    if user.bot {
        u["bot"] = true.into();
    }
    u
}

/// The bot's user as `GET /users/@me` and READY give it.
pub(super) fn current_user_json() -> Value {
    let mut u = user_json(&FakeDiscord::bot_user());
    u["verified"] = true.into();
    u["mfa_enabled"] = false.into();
    u["flags"] = 0.into();
    u["email"] = Value::Null;
    u
}

/// A guild member; with `user` as in `GUILD_CREATE` and interactions, without as in messages.
pub(super) fn member_json(joined_at: &str, roles: &[u64], user: Option<&FakeUser>) -> Value {
    let mut m = json!({
        "nick": null,
        "avatar": null,
        "banner": null,
        "roles": roles.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "joined_at": joined_at,
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "communication_disabled_until": null,
    });
    if let Some(user) = user {
        m["user"] = user_json(user);
    }
    m
}

fn role_json(id: u64, name: &str, permissions: u64, position: u16, bot: bool) -> Value {
    let mut r = json!({
        "id": id.to_string(),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": position,
        "permissions": permissions.to_string(),
        "managed": bot,
        "mentionable": false,
        "flags": 0,
    });
    if bot {
        r["tags"] = json!({"bot_id": FakeDiscord::BOT_ID.to_string()});
    }
    r
}

impl Inner {
    /// A known user's object (a stub for an unknown id).
    pub(super) fn user_json_by_id(&self, id: u64) -> Value {
        self.users.get(&id).map_or_else(
            || user_json(&FakeDiscord::user(id, &format!("user{id}"))),
            user_json,
        )
    }

    /// The member object of `user` (with the user) if they are a guild member.
    pub(super) fn full_member_json(&self, user: u64) -> Option<Value> {
        let joined = self.members.get(&user)?;
        let u = self.users.get(&user)?;
        Some(member_json(joined, &Inner::member_roles(user), Some(u)))
    }

    /// A channel object: `with_guild_id` for REST answers and `CHANNEL_CREATE` (`GUILD_CREATE`
    /// leaves it out for its channels).
    pub(super) fn channel_json(&self, id: u64, with_guild_id: bool) -> Value {
        let Some(c) = self.channels.get(&id) else {
            return Value::Null;
        };
        let last = c.last_message_id.map(|m| m.to_string());
        let mut j = match &c.kind {
            ChannelKind::Foreign { guild } => json!({
                "id": id.to_string(),
                "type": 0,
                "guild_id": guild.to_string(),
                "name": c.name,
                "position": c.position,
                "permission_overwrites": [],
                "parent_id": null,
                "nsfw": false,
                "flags": 0,
            }),
            ChannelKind::Text => json!({
                "id": id.to_string(),
                "type": 0,
                "name": c.name,
                "position": c.position,
                "permission_overwrites": [],
                "parent_id": null,
                "topic": null,
                "nsfw": false,
                "last_message_id": last,
                "rate_limit_per_user": 0,
                "flags": 0,
            }),
            ChannelKind::Thread {
                parent,
                kind,
                owner,
                auto_archive,
                ..
            } => {
                let mut t = json!({
                    "id": id.to_string(),
                    "type": kind,
                    "guild_id": FakeDiscord::GUILD_ID.to_string(),
                    "parent_id": parent.to_string(),
                    "owner_id": owner.to_string(),
                    "name": c.name,
                    "last_message_id": last,
                    "rate_limit_per_user": 0,
                    "message_count": c.messages.len(),
                    "member_count": 1,
                    "total_message_sent": c.sent,
                    "flags": 0,
                    "thread_metadata": {
                        "archived": c.archived,
                        "auto_archive_duration": auto_archive,
                        "archive_timestamp": c.created_at,
                        "locked": false,
                        "create_timestamp": c.created_at,
                    },
                    "member": {
                        "id": id.to_string(),
                        "user_id": FakeDiscord::BOT_ID.to_string(),
                        "join_timestamp": c.created_at,
                        "flags": 0,
                    },
                });
                if *kind == 12 {
                    t["thread_metadata"]["invitable"] = true.into();
                }
                t
            }
            ChannelKind::BotDm { user } => json!({
                "id": id.to_string(),
                "type": 1,
                "last_message_id": last,
                "flags": 0,
                "recipients": [self.user_json_by_id(*user)],
            }),
            ChannelKind::Private { users } => {
                let mut p = json!({
                    "id": id.to_string(),
                    "type": c.type_code(),
                    "last_message_id": last,
                    "flags": 0,
                    "recipients": users.iter().map(|u| self.user_json_by_id(*u)).collect::<Vec<_>>(),
                });
                if users.len() > 2 {
                    p["name"] = c.name.clone().into();
                    p["owner_id"] = users[0].to_string().into();
                }
                p
            }
        };
        if with_guild_id && c.kind == ChannelKind::Text {
            j["guild_id"] = FakeDiscord::GUILD_ID.to_string().into();
        }
        j
    }

    /// The partial channel object of interactions.
    pub(super) fn partial_channel_json(&self, id: u64) -> Value {
        let mut j = self.channel_json(id, true);
        if let Some(o) = j.as_object_mut() {
            o.remove("member");
            o.remove("recipients");
            let in_guild = self.channels.get(&id).is_some_and(super::Channel::in_guild);
            let permissions = if in_guild {
                self.bot_permissions(id).to_string().into()
            } else {
                app_permissions(false)
            };
            o.insert("permissions".into(), permissions);
        }
        j
    }

    /// The guild: `create` adds `GUILD_CREATE`'s fields (members, channels, threads...).
    pub(super) fn guild_json(&self, create: bool) -> Value {
        let g = FakeDiscord::GUILD_ID;
        let mut j = json!({
            "id": g.to_string(),
            "name": FakeDiscord::GUILD_NAME,
            "icon": null,
            "icon_hash": null,
            "splash": null,
            "discovery_splash": null,
            "owner_id": FakeDiscord::OWNER_ID.to_string(),
            "afk_channel_id": null,
            "afk_timeout": 300,
            "widget_enabled": false,
            "widget_channel_id": null,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [
                role_json(g, "@everyone", EVERYONE_PERMISSIONS, 0, false),
                role_json(FakeDiscord::BOT_ROLE_ID, FakeDiscord::BOT_NAME, BOT_PERMISSIONS, 1, true),
            ],
            "emojis": [],
            "features": [],
            "mfa_level": 0,
            "application_id": null,
            "system_channel_id": FakeDiscord::CHANNEL_ID.to_string(),
            "system_channel_flags": 0,
            "rules_channel_id": null,
            "max_presences": null,
            "max_members": 500_000,
            "vanity_url_code": null,
            "description": null,
            "banner": null,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": null,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "nsfw_level": 0,
            "stickers": [],
            "premium_progress_bar_enabled": false,
            "safety_alerts_channel_id": null,
            "incidents_data": null,
        });
        if create {
            let members: Vec<Value> = self
                .members
                .keys()
                .filter_map(|u| self.full_member_json(*u))
                .collect();
            let channels: Vec<Value> = self
                .channels
                .values()
                .filter(|c| c.kind == ChannelKind::Text)
                .map(|c| self.channel_json(c.id, false))
                .collect();
            let threads: Vec<Value> = self
                .channels
                .values()
                // "All active threads in the guild": archived ones are not sent.
                .filter(|c| matches!(c.kind, ChannelKind::Thread { .. }) && !c.archived)
                .map(|c| self.channel_json(c.id, true))
                .collect();
            let extra = json!({
                "joined_at": self.joined_at,
                "large": false,
                "unavailable": false,
                "lazy": true,
                "member_count": members.len(),
                "voice_states": [],
                "members": members,
                "channels": channels,
                "threads": threads,
                "presences": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            });
            if let (Some(o), Value::Object(e)) = (j.as_object_mut(), extra) {
                o.extend(e);
            }
        }
        j
    }
}

/// The `permissions` of a partial channel / `app_permissions` of an interaction.
pub(super) fn app_permissions(in_guild: bool) -> Value {
    if in_guild {
        BOT_PERMISSIONS.to_string().into()
    } else {
        EVERYONE_PERMISSIONS.to_string().into()
    }
}

/// The users mentioned in `content` as `<@ID>` or `<@!ID>`.
pub(super) fn mentioned_ids(content: &str) -> Vec<u64> {
    let mut out = Vec::new();
    let mut rest = content;
    while let Some(at) = rest.find("<@") {
        rest = &rest[at + 2..];
        let digits = rest.strip_prefix('!').unwrap_or(rest);
        let len = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        if len > 0 && digits[len..].starts_with('>') {
            if let Ok(id) = digits[..len].parse() {
                if !out.contains(&id) {
                    out.push(id);
                }
            }
        }
    }
    out
}

/// Width and height from a PNG's IHDR chunk.
pub(super) fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return None;
    }
    let word =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    Some((word(16), word(20)))
}

/// Rows of `(label, custom_id)` of a message's components (see `SentMessage::components`).
pub(super) fn component_rows(components: &Value) -> Vec<Vec<(String, String)>> {
    let Some(rows) = components.as_array() else {
        return Vec::new();
    };
    rows.iter()
        .map(|row| {
            row["components"]
                .as_array()
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .map(|c| {
                    let label = c["label"]
                        .as_str()
                        .or_else(|| c["placeholder"].as_str())
                        .unwrap_or_default();
                    let id = c["custom_id"]
                        .as_str()
                        .or_else(|| c["url"].as_str())
                        .unwrap_or_default();
                    (label.to_owned(), id.to_owned())
                })
                .collect()
        })
        .collect()
}

/// The component with `custom_id` in a message's action rows.
pub(super) fn find_component<'a>(components: &'a Value, custom_id: &str) -> Option<&'a Value> {
    components
        .as_array()?
        .iter()
        .filter_map(|row| row["components"].as_array())
        .flatten()
        .find(|c| c["custom_id"].as_str() == Some(custom_id))
}

fn len_error(path: &[String], min: usize, max: usize) -> ApiFail {
    ApiFail::form(
        path,
        "BASE_TYPE_BAD_LENGTH",
        &format!("Must be between {min} and {max} in length."),
    )
}

fn required(path: &[String]) -> ApiFail {
    ApiFail::form(path, "BASE_TYPE_REQUIRED", "This field is required")
}

/// Check a message's `components` as Discord does (classic action rows; a message with the
/// components-v2 flag is taken as it is) and return them to store.
pub(super) fn check_components(components: &Value, v2: bool) -> Result<Value, ApiFail> {
    let top = path(&[&"components"]);
    let rows = match components {
        Value::Null => return Ok(json!([])),
        Value::Array(rows) => rows,
        _ => return Err(ApiFail::form(&top, "BASE_TYPE_ARRAY", "Must be an array.")),
    };
    if v2 {
        return Ok(components.clone());
    }
    if rows.len() > 5 {
        return Err(len_error(&top, 0, 5));
    }
    let mut seen = BTreeSet::new();
    for (r, row) in rows.iter().enumerate() {
        if row["type"].as_u64() != Some(1) {
            return Err(ApiFail::form(
                &path(&[&"components", &r, &"type"]),
                "UNION_TYPE_CHOICES",
                "Value of field \"type\" must be one of (1,).",
            ));
        }
        let children = row["components"].as_array().map_or(&[][..], Vec::as_slice);
        let at = path(&[&"components", &r, &"components"]);
        if children.is_empty() || children.len() > 5 {
            return Err(len_error(&at, 1, 5));
        }
        for (i, c) in children.iter().enumerate() {
            let here = path(&[&"components", &r, &"components", &i]);
            let kind = c["type"].as_u64().unwrap_or(0);
            if matches!(kind, 3 | 5..=8) && children.len() > 1 {
                return Err(ApiFail::form(
                    &at,
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                ));
            }
            check_component(c, kind, &here)?;
            if let Some(id) = c["custom_id"].as_str() {
                if !seen.insert(id.to_owned()) {
                    let mut p = here.clone();
                    p.push("custom_id".into());
                    return Err(ApiFail::form(
                        &p,
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    ));
                }
            }
        }
    }
    Ok(components.clone())
}

fn check_component(c: &Value, kind: u64, here: &[String]) -> Result<(), ApiFail> {
    let field = |name: &str| {
        let mut p = here.to_vec();
        p.push(name.to_owned());
        p
    };
    let custom_id = c["custom_id"].as_str();
    match kind {
        2 => {
            let style = c["style"].as_u64().unwrap_or(0);
            match style {
                1..=4 => {
                    let id = custom_id.ok_or_else(|| required(&field("custom_id")))?;
                    if !(1..=100).contains(&id.chars().count()) {
                        return Err(len_error(&field("custom_id"), 1, 100));
                    }
                }
                5 => {
                    if c["url"].as_str().is_none() {
                        return Err(required(&field("url")));
                    }
                }
                6 => {}
                _ => {
                    return Err(ApiFail::form(
                        &field("style"),
                        "BASE_TYPE_CHOICES",
                        "Value must be one of {1, 2, 3, 4, 5, 6}.",
                    ))
                }
            }
            let label = c["label"].as_str();
            if label.is_some_and(|l| l.chars().count() > 80) {
                return Err(len_error(&field("label"), 0, 80));
            }
            if style != 6 && label.is_none_or(str::is_empty) && c["emoji"].is_null() {
                return Err(required(&field("label")));
            }
        }
        3 | 5..=8 => {
            let id = custom_id.ok_or_else(|| required(&field("custom_id")))?;
            if !(1..=100).contains(&id.chars().count()) {
                return Err(len_error(&field("custom_id"), 1, 100));
            }
            if kind == 3 {
                let n = c["options"].as_array().map_or(0, Vec::len);
                if !(1..=25).contains(&n) {
                    return Err(len_error(&field("options"), 1, 25));
                }
            }
        }
        _ => {
            return Err(ApiFail::form(
                &field("type"),
                "UNION_TYPE_CHOICES",
                "Value of field \"type\" must be one of (2, 3, 5, 6, 7, 8).",
            ))
        }
    }
    Ok(())
}

/// Check a message's `embeds` (Discord's limits) and return them as Discord echoes them.
pub(super) fn check_embeds(embeds: &Value) -> Result<Vec<Value>, ApiFail> {
    let list = match embeds {
        Value::Null => return Ok(Vec::new()),
        Value::Array(list) => list,
        _ => {
            return Err(ApiFail::form(
                &path(&[&"embeds"]),
                "BASE_TYPE_ARRAY",
                "Must be an array.",
            ))
        }
    };
    if list.len() > 10 {
        return Err(len_error(&path(&[&"embeds"]), 0, 10));
    }
    let mut total = 0;
    let mut out = Vec::new();
    for (i, e) in list.iter().enumerate() {
        let chars = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
        let limits = [
            ("title", chars(&e["title"]), 256),
            ("description", chars(&e["description"]), 4096),
        ];
        for (name, n, max) in limits {
            if n > max {
                return Err(len_error(&path(&[&"embeds", &i, &name]), 1, max));
            }
            total += n;
        }
        let fields = e["fields"].as_array().map_or(&[][..], Vec::as_slice);
        if fields.len() > 25 {
            return Err(len_error(&path(&[&"embeds", &i, &"fields"]), 0, 25));
        }
        for f in fields {
            total += chars(&f["name"]) + chars(&f["value"]);
        }
        total += chars(&e["footer"]["text"]) + chars(&e["author"]["name"]);
        let mut e = e.clone();
        if let Some(o) = e.as_object_mut() {
            o.insert("type".into(), "rich".into());
        }
        out.push(e);
    }
    if total > 6000 {
        return Err(ApiFail::form(
            &path(&[&"embeds"]),
            "MAX_EMBED_SIZE_EXCEEDED",
            "Embed size exceeds maximum size of 6000",
        ));
    }
    Ok(out)
}

/// Discord's public view of a stored command.
pub(super) fn registered(id: u64, guild: Option<u64>, json: &Value) -> RegisteredCommand {
    let map = |v: &Value| -> BTreeMap<String, String> {
        v.as_object()
            .map(|o| {
                o.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let codes = |v: &Value| -> Option<Vec<u8>> {
        v.as_array().map(|a| {
            a.iter()
                .filter_map(|x| x.as_u64().and_then(|n| u8::try_from(n).ok()))
                .collect()
        })
    };
    RegisteredCommand {
        id,
        guild,
        kind: json["type"]
            .as_u64()
            .and_then(|n| u8::try_from(n).ok())
            .unwrap_or(1),
        name: json["name"].as_str().unwrap_or_default().to_owned(),
        description: json["description"].as_str().unwrap_or_default().to_owned(),
        options: json["options"].clone(),
        name_localizations: map(&json["name_localizations"]),
        description_localizations: map(&json["description_localizations"]),
        integration_types: codes(&json["integration_types"]).unwrap_or_default(),
        contexts: codes(&json["contexts"]),
        json: json.clone(),
    }
}

/// Whether `name` is a valid slash command or option name (lower case).
fn valid_chat_name(name: &str) -> bool {
    (1..=32).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| (c.is_alphanumeric() || "-_'".contains(c)) && !c.is_uppercase())
}

fn check_localizations(
    v: &Value,
    at: &[String],
    check: impl Fn(&str) -> bool,
    rule: &str,
) -> Result<(), ApiFail> {
    let Some(o) = v.as_object() else {
        return Ok(());
    };
    for (locale, text) in o {
        let mut here = at.to_vec();
        here.push(locale.clone());
        if !LOCALES.contains(&locale.as_str()) {
            return Err(ApiFail::form(
                &here,
                "LOCALE_INVALID",
                &format!("Invalid locale {locale:?}; Discord's locales are {LOCALES:?}"),
            ));
        }
        if !text.as_str().is_some_and(&check) {
            return Err(ApiFail::form(&here, "INVALID_VALUE", rule));
        }
    }
    Ok(())
}

const NAME_RULE: &str = "Must be 1-32 lower-case letters, digits, '-', '_' or '\\''";
const DESCRIPTION_RULE: &str = "Must be between 1 and 100 in length.";

fn valid_description(d: &str) -> bool {
    (1..=100).contains(&d.chars().count())
}

/// Check one command (`at`: its place in the request, for error paths) and return the object
/// to store (without id, version and the like).
pub(super) fn check_command(c: &Value, at: &[String]) -> Result<Value, ApiFail> {
    let field = |name: &str| {
        let mut p = at.to_vec();
        p.push(name.to_owned());
        p
    };
    let Some(o) = c.as_object() else {
        return Err(ApiFail::form(
            at,
            "MODEL_TYPE_CONVERT",
            "Only dictionaries may be used in a ModelType",
        ));
    };
    let kind = o.get("type").and_then(Value::as_u64).unwrap_or(1);
    let name = o.get("name").and_then(Value::as_str).unwrap_or_default();
    let description = o
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if kind == 1 {
        if !valid_chat_name(name) {
            return Err(ApiFail::form(
                &field("name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                NAME_RULE,
            ));
        }
        if !valid_description(description) {
            return Err(len_error(&field("description"), 1, 100));
        }
        check_localizations(
            &c["name_localizations"],
            &field("name_localizations"),
            valid_chat_name,
            NAME_RULE,
        )?;
        check_localizations(
            &c["description_localizations"],
            &field("description_localizations"),
            valid_description,
            DESCRIPTION_RULE,
        )?;
        check_options(&c["options"], &field("options"), 0)?;
    } else if kind == 4 {
        // PRIMARY_ENTRY_POINT (an app with an Activity): named and described, and how it
        // is handled (1 the app's own, 2 Discord launches the Activity).
        if !(1..=32).contains(&name.chars().count()) {
            return Err(len_error(&field("name"), 1, 32));
        }
        if !valid_description(description) {
            return Err(len_error(&field("description"), 1, 100));
        }
        if !matches!(o.get("handler").and_then(Value::as_u64), Some(1 | 2)) {
            return Err(ApiFail::form(
                &field("handler"),
                "BASE_TYPE_CHOICES",
                "Value must be one of {1, 2}.",
            ));
        }
    } else {
        if !(1..=32).contains(&name.chars().count()) {
            return Err(len_error(&field("name"), 1, 32));
        }
        if !description.is_empty() {
            return Err(ApiFail::form(
                &field("description"),
                "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
                "Context menu commands cannot have description",
            ));
        }
    }
    let mut stored = o.clone();
    stored.insert("type".into(), kind.into());
    stored.insert("description".into(), description.into());
    for key in ["name_localizations", "description_localizations"] {
        let empty = stored
            .get(key)
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty);
        if empty {
            stored.insert(key.into(), Value::Null);
        }
    }
    stored.entry("options").or_insert_with(|| json!([]));
    stored
        .entry("default_member_permissions")
        .or_insert(Value::Null);
    stored.entry("nsfw").or_insert(false.into());
    stored.entry("contexts").or_insert(Value::Null);
    if stored.get("integration_types").is_none_or(Value::is_null) {
        stored.insert("integration_types".into(), json!([0]));
    }
    stored.remove("id");
    Ok(Value::Object(stored))
}

/// Check the options of a command (`depth` 0) or of a subcommand (group).
fn check_options(options: &Value, at: &[String], depth: u8) -> Result<(), ApiFail> {
    let list = match options {
        Value::Null => return Ok(()),
        Value::Array(list) => list,
        _ => return Err(ApiFail::form(at, "BASE_TYPE_ARRAY", "Must be an array.")),
    };
    if list.len() > 25 {
        return Err(len_error(at, 0, 25));
    }
    let mut names = BTreeSet::new();
    let mut optional_seen = false;
    for (i, opt) in list.iter().enumerate() {
        let here = {
            let mut p = at.to_vec();
            p.push(i.to_string());
            p
        };
        let field = |name: &str| {
            let mut p = here.clone();
            p.push(name.to_owned());
            p
        };
        let kind = opt["type"].as_u64().unwrap_or(0);
        if !(1..=11).contains(&kind) {
            return Err(ApiFail::form(
                &field("type"),
                "BASE_TYPE_CHOICES",
                "Value must be one of {1, ..., 11}.",
            ));
        }
        let name = opt["name"].as_str().unwrap_or_default();
        if !valid_chat_name(name) {
            return Err(ApiFail::form(
                &field("name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                NAME_RULE,
            ));
        }
        if !names.insert(name.to_owned()) {
            return Err(ApiFail::form(
                &field("name"),
                "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                "Option name already exists",
            ));
        }
        if !valid_description(opt["description"].as_str().unwrap_or_default()) {
            return Err(len_error(&field("description"), 1, 100));
        }
        check_localizations(
            &opt["name_localizations"],
            &field("name_localizations"),
            valid_chat_name,
            NAME_RULE,
        )?;
        check_localizations(
            &opt["description_localizations"],
            &field("description_localizations"),
            valid_description,
            DESCRIPTION_RULE,
        )?;
        let nested = matches!(kind, 1 | 2);
        if nested {
            let allowed = if kind == 2 { depth == 0 } else { depth <= 1 };
            if !allowed {
                return Err(ApiFail::form(
                    &field("type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-command and sub-command group option types are mutually exclusive to all other types",
                ));
            }
            check_options(
                &opt["options"],
                &field("options"),
                if kind == 2 { 1 } else { 2 },
            )?;
            continue;
        }
        if opt["required"].as_bool().unwrap_or(false) {
            if optional_seen {
                return Err(ApiFail::form(
                    &field("required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                ));
            }
        } else {
            optional_seen = true;
        }
        let choices = opt["choices"].as_array().map_or(&[][..], Vec::as_slice);
        if choices.len() > 25 {
            return Err(len_error(&field("choices"), 0, 25));
        }
        if !choices.is_empty() && opt["autocomplete"].as_bool().unwrap_or(false) {
            return Err(ApiFail::form(
                &field("autocomplete"),
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_AND_CHOICES",
                "Autocomplete and choices cannot both be set",
            ));
        }
    }
    Ok(())
}
