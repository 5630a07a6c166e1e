//! What users do, injected as gateway events: messages, slash commands, autocomplete, button
//! presses and select menus.

use std::time::Instant;

use serde_json::{json, Map, Value};

use super::model::{self, member_json, user_json};
use super::{
    ChannelKind, FakeDiscord, FakeUser, Inner, Interaction, OptionValue, Stored, FILE_LIMIT,
};

/// A new interaction, before it has an id.
struct Spec<'a> {
    kind: u8,
    channel: u64,
    user: &'a FakeUser,
    locale: &'a str,
    /// The command's name or the component's custom id.
    name: String,
    data: Value,
    /// For components: the message's id and object.
    message: Option<(u64, Value)>,
    /// The command's `integration_types` (`None` for components).
    integration_types: Option<Vec<u8>>,
}

/// `data.resolved` of a command interaction.
#[derive(Default)]
struct Resolved {
    users: Map<String, Value>,
    members: Map<String, Value>,
    channels: Map<String, Value>,
}

impl FakeDiscord {
    /// `author` writes `content` in `channel` (a text channel, thread, the author's DM with the
    /// bot, or a private channel, where the bot sees nothing); `mentions` are the users
    /// mentioned (write them as `<@ID>` in `content`; include [`FakeDiscord::bot_user`] to
    /// mention the bot). Dispatches `MESSAGE_CREATE` (with `guild_id` and the author's
    /// `member` in the guild) and returns the message id.
    ///
    /// # Panics
    /// If the channel does not exist, or `author` is not one of its users (DMs).
    pub fn message_create(
        &self,
        channel: u64,
        author: &FakeUser,
        content: &str,
        mentions: &[&FakeUser],
    ) -> u64 {
        self.lock()
            .user_message(channel, author, content, mentions, None)
    }

    /// Like [`Self::message_create`], as a reply (type 19, `message_reference` and
    /// `referenced_message`) to message `reply_to` of the same channel.
    pub fn message_reply(
        &self,
        channel: u64,
        author: &FakeUser,
        content: &str,
        reply_to: u64,
    ) -> u64 {
        self.lock()
            .user_message(channel, author, content, &[], Some(reply_to))
    }

    /// `user` runs the registered slash command `/name` (a guild command of the guild or a
    /// global one) with `options` in `channel`, with client locale `locale`: an
    /// `INTERACTION_CREATE` of type 2. In the guild the interaction has `guild_id` and
    /// `member` (context 0); in the user's DM with the bot it has `user` (context 1); in a
    /// private channel (context 2, user-installed apps only) too. Returns the interaction id;
    /// see [`Self::interaction`] for the answer.
    ///
    /// # Panics
    /// As Discord's client would not send it: the command is not registered or not available
    /// in this context (its `contexts` and `integration_types`), an option does not exist or
    /// has another type, a required option is missing, a value is not among the choices.
    pub fn slash_command(
        &self,
        channel: u64,
        user: &FakeUser,
        name: &str,
        options: &[(&str, OptionValue)],
        locale: &str,
    ) -> u64 {
        self.lock()
            .command_interaction(channel, user, name, options, locale, false)
    }

    /// `user` types in an option of `/name` that has `autocomplete: true`: an interaction of
    /// type 4 whose options contain exactly one [`OptionValue::Focused`] (required options
    /// may be missing). Returns the interaction id; the answer's choices are in
    /// [`InteractionRecord::choices`](super::InteractionRecord::choices).
    ///
    /// # Panics
    /// As [`Self::slash_command`], and unless exactly one option is focused and it has
    /// autocomplete.
    pub fn autocomplete(
        &self,
        channel: u64,
        user: &FakeUser,
        name: &str,
        options: &[(&str, OptionValue)],
        locale: &str,
    ) -> u64 {
        self.lock()
            .command_interaction(channel, user, name, options, locale, true)
    }

    /// `user` presses the button `custom_id` on the bot's message `message_id` in `channel`:
    /// an interaction of type 3 with the message object. Returns the interaction id.
    ///
    /// # Panics
    /// If the message is not the bot's, or has no enabled button with that custom id.
    pub fn button(&self, channel: u64, user: &FakeUser, message_id: u64, custom_id: &str) -> u64 {
        self.lock()
            .component_interaction(channel, user, message_id, custom_id, None)
    }

    /// `user` picks `values` in the select menu `custom_id` on the bot's message `message_id`.
    ///
    /// # Panics
    /// If there is no such enabled select menu, or (string selects) a value is not one of its
    /// options or their number is outside `min_values..=max_values`.
    pub fn select(
        &self,
        channel: u64,
        user: &FakeUser,
        message_id: u64,
        custom_id: &str,
        values: &[&str],
    ) -> u64 {
        self.lock()
            .component_interaction(channel, user, message_id, custom_id, Some(values))
    }
}

impl Inner {
    fn user_message(
        &mut self,
        channel: u64,
        author: &FakeUser,
        content: &str,
        mentions: &[&FakeUser],
        reply_to: Option<u64>,
    ) -> u64 {
        let c = self
            .channels
            .get(&channel)
            .unwrap_or_else(|| panic!("no channel {channel}"));
        match &c.kind {
            ChannelKind::BotDm { user } => assert_eq!(
                *user, author.id,
                "channel {channel} is the DM of user {user} with the bot"
            ),
            ChannelKind::Private { users } => assert!(
                users.contains(&author.id),
                "user {} is not in the private channel {channel}",
                author.id
            ),
            ChannelKind::Text | ChannelKind::Thread { .. } => {}
            ChannelKind::Foreign { .. } => {
                panic!(
                    "channel {channel} is in a guild the bot is not in: it sees no message there"
                )
            }
        }
        let in_guild = c.in_guild();
        let private = matches!(c.kind, ChannelKind::Private { .. });
        self.register_user(author);
        for user in mentions {
            self.register_user(user);
            if in_guild {
                self.add_member(user.id);
            }
        }
        if in_guild {
            self.add_member(author.id);
        }
        // A user's message unarchives an archived (unlocked) thread, as the bot's does.
        self.touch(channel);
        let id = self.next_id();
        let mut m = json!({
            "id": id.to_string(),
            "channel_id": channel.to_string(),
            "author": user_json(author),
            "content": content,
            "timestamp": model::iso_now(),
            "edited_timestamp": null,
            "tts": false,
            "mention_everyone": content.contains("@everyone") || content.contains("@here"),
            "mentions": mentions.iter().map(|u| user_json(u)).collect::<Vec<_>>(),
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": false,
            "type": 0,
            "flags": 0,
            "components": [],
        });
        if let Some(target) = reply_to {
            let mut referenced = self
                .stored(channel, target)
                .unwrap_or_else(|| panic!("no message {target} in channel {channel} to reply to"))
                .json
                .clone();
            if let Some(o) = referenced.as_object_mut() {
                o.remove("referenced_message");
            }
            m["type"] = 19.into();
            m["message_reference"] = json!({
                "type": 0,
                "message_id": target.to_string(),
                "channel_id": channel.to_string(),
            });
            if in_guild {
                m["message_reference"]["guild_id"] = FakeDiscord::GUILD_ID.to_string().into();
            }
            m["referenced_message"] = referenced;
        }
        self.store(
            channel,
            Stored {
                id,
                json: m.clone(),
                bot: None,
            },
        );
        if private {
            return id;
        }
        if in_guild {
            m["guild_id"] = FakeDiscord::GUILD_ID.to_string().into();
            if let Some(joined) = self.members.get(&author.id) {
                m["member"] = member_json(joined, &[], None);
            }
            if let Some(list) = m["mentions"].as_array_mut() {
                for u in list {
                    let joined = model::id_of(&u["id"]).and_then(|id| self.members.get(&id));
                    if let Some(joined) = joined {
                        u["member"] = member_json(joined, &[], None);
                    }
                }
            }
        }
        self.dispatch("MESSAGE_CREATE", m);
        id
    }

    /// The interaction context of `channel` (0 guild, 1 bot DM, 2 private channel) and the
    /// `authorizing_integration_owners` for `user`; `integration_types`: the command's.
    fn context(&self, channel: u64, user: u64, integration_types: Option<&[u8]>) -> (u8, Value) {
        let c = self
            .channels
            .get(&channel)
            .unwrap_or_else(|| panic!("no channel {channel}"));
        let installed = self.user_installs.contains(&user);
        let types = integration_types.unwrap_or(&[0, 1]);
        let guild_install = types.contains(&0);
        let user_install = types.contains(&1) && installed;
        let mut owners = Map::new();
        let ctx = match &c.kind {
            ChannelKind::Text | ChannelKind::Thread { .. } => {
                if guild_install {
                    owners.insert("0".into(), FakeDiscord::GUILD_ID.to_string().into());
                }
                0
            }
            ChannelKind::BotDm { user: u } => {
                assert_eq!(
                    *u, user,
                    "channel {channel} is the DM of user {u} with the bot"
                );
                if guild_install {
                    owners.insert("0".into(), "0".into());
                }
                1
            }
            ChannelKind::Private { users } => {
                assert!(
                    users.contains(&user),
                    "user {user} is not in the private channel {channel}"
                );
                2
            }
            // The bot is not in that guild: no guild install authorizes the command.
            ChannelKind::Foreign { .. } => 0,
        };
        if user_install {
            owners.insert("1".into(), user.to_string().into());
        }
        assert!(
            !owners.is_empty(),
            "the app is not installed where user {user} could use it in channel {channel} \
             (context {ctx}; integration types {types:?}; installed for the user: {installed})"
        );
        (ctx, Value::Object(owners))
    }

    fn command_interaction(
        &mut self,
        channel: u64,
        user: &FakeUser,
        name: &str,
        options: &[(&str, OptionValue)],
        locale: &str,
        autocomplete: bool,
    ) -> u64 {
        let in_guild = self
            .channels
            .get(&channel)
            .is_some_and(super::Channel::in_guild);
        let command = self
            .commands
            .iter()
            .filter(|c| c.json["type"].as_u64() == Some(1) && c.json["name"] == name)
            .filter(|c| c.guild.is_none() || in_guild && c.guild == Some(FakeDiscord::GUILD_ID))
            .min_by_key(|c| c.guild.is_none())
            .unwrap_or_else(|| {
                panic!("/{name} is not registered (globally, or for the guild when in the guild)")
            });
        let (id, guild, json) = (command.id, command.guild, command.json.clone());
        let types: Vec<u8> = json["integration_types"].as_array().map_or_else(
            || vec![0],
            |a| {
                a.iter()
                    .filter_map(Value::as_u64)
                    .filter_map(|t| u8::try_from(t).ok())
                    .collect()
            },
        );
        let (ctx, _) = self.context(channel, user.id, Some(&types));
        if let Some(contexts) = json["contexts"].as_array() {
            assert!(
                contexts.iter().any(|c| c.as_u64() == Some(u64::from(ctx))),
                "/{name} is not available in interaction context {ctx} (its contexts: {contexts:?})"
            );
        }
        let given: Vec<(String, OptionValue)> = options
            .iter()
            .map(|(n, v)| ((*n).to_owned(), v.clone()))
            .collect();
        let mut resolved = Resolved::default();
        let mut focused = 0;
        let built = self.build_options(
            &json["options"],
            &given,
            &format!("/{name}"),
            &mut resolved,
            &mut focused,
            autocomplete,
        );
        if autocomplete {
            assert_eq!(
                focused, 1,
                "an autocomplete interaction needs exactly one focused option"
            );
        } else {
            assert_eq!(focused, 0, "a focused option is only for autocomplete");
        }
        let mut data = json!({"id": id.to_string(), "name": name, "type": 1, "options": built});
        if let Some(g) = guild {
            data["guild_id"] = g.to_string().into();
        }
        let resolved = [
            ("users", resolved.users),
            ("members", resolved.members),
            ("channels", resolved.channels),
        ];
        let resolved: Map<String, Value> = resolved
            .into_iter()
            .filter(|(_, m)| !m.is_empty())
            .map(|(k, m)| (k.to_owned(), Value::Object(m)))
            .collect();
        if !resolved.is_empty() {
            data["resolved"] = Value::Object(resolved);
        }
        self.new_interaction(Spec {
            kind: if autocomplete { 4 } else { 2 },
            channel,
            user,
            locale,
            name: name.to_owned(),
            data,
            message: None,
            integration_types: Some(types),
        })
    }

    /// The `options` of a command interaction, checked against the command's option
    /// definitions `schema`.
    fn build_options(
        &mut self,
        schema: &Value,
        given: &[(String, OptionValue)],
        at: &str,
        resolved: &mut Resolved,
        focused: &mut usize,
        autocomplete: bool,
    ) -> Vec<Value> {
        let defs = schema.as_array().map_or(&[][..], Vec::as_slice);
        let mut out = Vec::new();
        for (name, value) in given {
            let def = defs
                .iter()
                .find(|d| d["name"] == name.as_str())
                .unwrap_or_else(|| panic!("{at} has no option {name:?}"));
            let kind = def["type"].as_u64().unwrap_or(0);
            let here = format!("{at} {name}");
            let mut o = json!({"name": name, "type": kind});
            match (kind, value) {
                (1, OptionValue::SubCommand(inner)) | (2, OptionValue::SubCommandGroup(inner)) => {
                    o["options"] = self
                        .build_options(
                            &def["options"],
                            inner,
                            &here,
                            resolved,
                            focused,
                            autocomplete,
                        )
                        .into();
                }
                (_, OptionValue::Focused(typed)) => {
                    assert!(
                        def["autocomplete"].as_bool() == Some(true),
                        "{here} has no autocomplete"
                    );
                    *focused += 1;
                    o["value"] = typed.clone().into();
                    o["focused"] = true.into();
                }
                (3, OptionValue::String(s)) => o["value"] = s.clone().into(),
                (4 | 10, OptionValue::Integer(n)) => o["value"] = (*n).into(),
                (10, OptionValue::Number(x)) => o["value"] = (*x).into(),
                (5, OptionValue::Boolean(b)) => o["value"] = (*b).into(),
                (6 | 9, OptionValue::User(u)) => {
                    self.register_user(u);
                    let key = u.id.to_string();
                    resolved.users.insert(key.clone(), user_json(u));
                    if let Some(joined) = self.members.get(&u.id) {
                        resolved
                            .members
                            .insert(key.clone(), member_json(joined, &[], None));
                    }
                    o["value"] = key.into();
                }
                (7, OptionValue::Channel(c)) => {
                    assert!(self.channels.contains_key(c), "{here}: no channel {c}");
                    resolved
                        .channels
                        .insert(c.to_string(), self.partial_channel_json(*c));
                    o["value"] = c.to_string().into();
                }
                _ => panic!("{here} has type {kind}; {value:?} does not fit it"),
            }
            let choices = def["choices"].as_array().map_or(&[][..], Vec::as_slice);
            if !choices.is_empty() && o.get("focused").is_none() {
                assert!(
                    choices.iter().any(|c| c["value"] == o["value"]),
                    "{here}: {:?} is not one of the choices {choices:?}",
                    o["value"]
                );
            }
            out.push(o);
        }
        let subcommands = defs
            .iter()
            .any(|d| matches!(d["type"].as_u64(), Some(1 | 2)));
        if subcommands {
            assert!(given.len() == 1, "{at} needs exactly one subcommand");
        } else if !autocomplete {
            for d in defs {
                let name = d["name"].as_str().unwrap_or_default();
                if d["required"].as_bool() == Some(true) {
                    assert!(
                        given.iter().any(|(n, _)| n == name),
                        "{at}: the required option {name:?} is missing"
                    );
                }
            }
        }
        out
    }

    fn component_interaction(
        &mut self,
        channel: u64,
        user: &FakeUser,
        message_id: u64,
        custom_id: &str,
        values: Option<&[&str]>,
    ) -> u64 {
        let stored = self
            .stored(channel, message_id)
            .unwrap_or_else(|| panic!("no message {message_id} in channel {channel}"));
        assert!(
            stored.bot.is_some(),
            "message {message_id} is not the bot's"
        );
        let message = stored.json.clone();
        let component =
            model::find_component(&message["components"], custom_id).unwrap_or_else(|| {
                panic!(
                    "message {message_id} has no component {custom_id:?}; it has {:?}",
                    model::component_rows(&message["components"])
                )
            });
        assert!(
            component["disabled"].as_bool() != Some(true),
            "the component {custom_id:?} is disabled"
        );
        let kind = component["type"].as_u64().unwrap_or(0);
        let mut data = json!({"custom_id": custom_id, "component_type": kind});
        match values {
            None => assert!(
                kind == 2 && component["style"].as_u64() != Some(5),
                "{custom_id:?} is not a button with a custom id"
            ),
            Some(values) => {
                assert!(
                    matches!(kind, 3 | 5..=8),
                    "{custom_id:?} is not a select menu"
                );
                if kind == 3 {
                    let options = component["options"]
                        .as_array()
                        .map_or(&[][..], Vec::as_slice);
                    for v in values {
                        assert!(
                            options.iter().any(|o| o["value"] == *v),
                            "{v:?} is not an option of {custom_id:?}"
                        );
                    }
                }
                let min = component["min_values"].as_u64().unwrap_or(1);
                let max = component["max_values"].as_u64().unwrap_or(1);
                let n = values.len() as u64;
                assert!(
                    (min..=max).contains(&n),
                    "{custom_id:?} takes {min}..={max} values, not {n}"
                );
                data["values"] = values.iter().map(|v| Value::from(*v)).collect();
            }
        }
        self.new_interaction(Spec {
            kind: 3,
            channel,
            user,
            locale: &user.locale,
            name: custom_id.to_owned(),
            data,
            message: Some((message_id, message)),
            integration_types: None,
        })
    }

    /// Register and dispatch an `INTERACTION_CREATE`; returns the interaction id.
    fn new_interaction(&mut self, spec: Spec<'_>) -> u64 {
        let (ctx, owners) = self.context(
            spec.channel,
            spec.user.id,
            spec.integration_types.as_deref(),
        );
        self.register_user(spec.user);
        // A guild the bot is not in: the interaction names that guild.
        let foreign = match self.channels.get(&spec.channel).map(|c| &c.kind) {
            Some(ChannelKind::Foreign { guild }) => Some(*guild),
            _ => None,
        };
        let id = self.next_id();
        let token = format!(
            "fake-interaction-token.{id}.{:x}",
            id.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        );
        let mut j = json!({
            "id": id.to_string(),
            "application_id": FakeDiscord::APP_ID.to_string(),
            "type": spec.kind,
            "data": spec.data,
            "token": token,
            "version": 1,
            "channel_id": spec.channel.to_string(),
            "channel": self.partial_channel_json(spec.channel),
            "locale": spec.locale,
            "entitlements": [],
            "attachment_size_limit": FILE_LIMIT,
            "app_permissions": match foreign {
                Some(_) => model::USER_APP_PERMISSIONS.to_string().into(),
                None if ctx == 0 => self.bot_permissions(spec.channel).to_string().into(),
                None => model::app_permissions(false),
            },
            "authorizing_integration_owners": owners,
            "context": ctx,
        });
        if ctx == 0 {
            self.add_member(spec.user.id);
            let joined = self.members.get(&spec.user.id).cloned().unwrap_or_default();
            let mut member = member_json(&joined, &[], Some(spec.user));
            // The member's permissions in the channel: @everyone's, and Manage Server
            // for a member whose role gives it.
            let manages = self.managers.contains(&spec.user.id);
            let permissions =
                model::EVERYONE_PERMISSIONS | if manages { model::MANAGE_GUILD } else { 0 };
            member["permissions"] = permissions.to_string().into();
            j["guild_id"] = foreign.unwrap_or(FakeDiscord::GUILD_ID).to_string().into();
            j["guild_locale"] = "en-US".into();
            j["member"] = member;
        } else {
            j["user"] = user_json(spec.user);
        }
        let component_message = spec.message.map(|(mid, message)| {
            j["message"] = message;
            mid
        });
        self.tokens.insert(token.clone(), id);
        self.interactions.insert(
            id,
            Interaction {
                id,
                token,
                kind: spec.kind,
                name: spec.name,
                channel: spec.channel,
                user: spec.user.id,
                created_at: Instant::now(),
                component_message,
                first_callback_at: None,
                response_type: None,
                rejected: 0,
                original: None,
                followups: Vec::new(),
                choices: Vec::new(),
                modal: None,
                message_type: if spec.kind == 2 { 20 } else { 0 },
            },
        );
        self.dispatch("INTERACTION_CREATE", j);
        id
    }
}
