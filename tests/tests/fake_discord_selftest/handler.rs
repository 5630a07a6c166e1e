//! The event handler the fake is driven with: a serenity handler that notes what it saw
//! (READY, guilds, messages, commands, presses, other events) and answers a few messages
//! and commands the way the bot will (a reply, a board with buttons, a thread, deferred and
//! late answers, follow-ups).

use crate::harness::{discord_code, png};
use serenity::all::{
    async_trait, AuthorizingIntegrationOwner, ButtonStyle, ChannelId, CommandInteraction,
    ComponentInteraction, Context, CreateActionRow, CreateAttachment, CreateAutocompleteResponse,
    CreateButton, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, CreateThread, EditInteractionResponse,
    EventHandler, Guild, GuildChannel, GuildId, Interaction, InteractionContext, Message,
    MessageId, MessageUpdateEvent, Ready, ResumedEvent, UserId,
};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// What the handler saw and did.
#[derive(Default)]
pub struct Seen {
    pub ready: Vec<(u64, Option<u64>, String)>,
    /// Which shard each event came on: `("READY" | "GUILD_CREATE" | "MESSAGE <channel>",
    /// shard id)`.
    pub shard_of: Vec<(String, u32)>,
    pub guilds: Vec<(u64, usize, bool)>,
    pub resumed: usize,
    /// `(channel, content, author is a bot, guild)`.
    pub messages: Vec<(u64, String, bool, Option<u64>)>,
    /// Messages the handler sent: `(what, channel, id)`.
    pub sent: Vec<(String, u64, u64)>,
    pub threads: Vec<u64>,
    pub commands: Vec<CommandSeen>,
    pub components: Vec<(String, u64, u64)>,
    pub autocomplete: Vec<(String, String)>,
    /// Other events, e.g. `"THREAD_CREATE 123"`.
    pub events: Vec<String>,
    /// The result of answering `/slow` after more than 3 s: Discord's error code.
    pub late: Option<LateAnswer>,
    pub errors: Vec<String>,
}

/// What answering `/slow` after Discord's 3 s gave.
#[derive(Debug, PartialEq, Eq)]
pub enum LateAnswer {
    Accepted,
    /// Discord's JSON error code (-1: not a Discord error).
    Refused(isize),
}

/// A slash command as serenity parsed it.
#[derive(Debug)]
pub struct CommandSeen {
    pub name: String,
    pub user: u64,
    pub guild: Option<u64>,
    pub member: bool,
    pub locale: String,
    pub context: Option<InteractionContext>,
    /// Whether a guild install authorizes it (`authorizing_integration_owners["0"]`).
    pub guild_install: bool,
    pub opponent: Option<u64>,
    pub opponent_name: Option<String>,
    pub variant: Option<String>,
    pub stake: Option<i64>,
    pub rated: Option<bool>,
}

#[derive(Clone, Default)]
pub struct Handler {
    pub seen: Arc<Mutex<Seen>>,
}

pub fn lock(seen: &Mutex<Seen>) -> MutexGuard<'_, Seen> {
    seen.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Handler {
    fn note(&self, f: impl FnOnce(&mut Seen)) {
        f(&mut lock(&self.seen));
    }

    fn check<T>(&self, what: &str, r: serenity::Result<T>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.note(|s| s.errors.push(format!("{what}: {e:?}")));
                None
            }
        }
    }

    async fn on_message(&self, ctx: &Context, msg: &Message) {
        match msg.content.as_str() {
            "!say" => {
                if let Some(m) = self.check("say", msg.channel_id.say(&ctx.http, "pong").await) {
                    self.note(|s| s.sent.push(("say".into(), m.channel_id.get(), m.id.get())));
                }
            }
            "!board" => {
                let row = CreateActionRow::Buttons(vec![
                    CreateButton::new("move:a1")
                        .label("A1")
                        .style(ButtonStyle::Primary),
                    CreateButton::new("resign")
                        .label("Resign")
                        .style(ButtonStyle::Danger),
                ]);
                let builder = CreateMessage::new()
                    .content("Your move")
                    .add_file(CreateAttachment::bytes(png(3, 2), "board.png"))
                    .components(vec![row]);
                // With the context: serenity checks the bot's permissions in its cache.
                let sent = msg.channel_id.send_message(ctx, builder).await;
                if let Some(m) = self.check("board", sent) {
                    self.note(|s| {
                        s.sent
                            .push(("board".into(), m.channel_id.get(), m.id.get()));
                    });
                }
            }
            "!thread" => {
                let thread = msg
                    .channel_id
                    .create_thread_from_message(&ctx.http, msg.id, CreateThread::new("Game 1"))
                    .await;
                let Some(thread) = self.check("thread", thread) else {
                    return;
                };
                let said = thread.id.say(&ctx.http, "Game started").await;
                if let Some(m) = self.check("say in thread", said) {
                    self.note(|s| {
                        s.threads.push(thread.id.get());
                        s.sent
                            .push(("thread".into(), m.channel_id.get(), m.id.get()));
                    });
                }
            }
            _ => {}
        }
    }

    async fn on_command(&self, ctx: &Context, cmd: &CommandInteraction) {
        let option = |name: &str| cmd.data.options.iter().find(|o| o.name == name);
        let opponent = option("opponent").and_then(|o| o.value.as_user_id());
        let seen = CommandSeen {
            name: cmd.data.name.clone(),
            user: cmd.user.id.get(),
            guild: cmd.guild_id.map(GuildId::get),
            member: cmd.member.is_some(),
            locale: cmd.locale.clone(),
            context: cmd.context,
            guild_install: cmd
                .authorizing_integration_owners
                .0
                .iter()
                .any(|o| matches!(o, AuthorizingIntegrationOwner::GuildInstall(_))),
            opponent: opponent.map(UserId::get),
            opponent_name: opponent
                .and_then(|id| cmd.data.resolved.users.get(&id))
                .map(|u| u.name.clone()),
            variant: option("variant").and_then(|o| o.value.as_str().map(str::to_owned)),
            stake: option("stake").and_then(|o| o.value.as_i64()),
            rated: option("rated").and_then(|o| o.value.as_bool()),
        };
        self.note(|s| s.commands.push(seen));
        match cmd.data.name.as_str() {
            "lang" => {
                let message = CreateInteractionResponseMessage::new()
                    .content("Language saved")
                    .ephemeral(true);
                let response = CreateInteractionResponse::Message(message);
                self.check("lang", cmd.create_response(&ctx.http, response).await);
                return;
            }
            "slow" => {
                tokio::time::sleep(Duration::from_millis(3200)).await;
                let late = cmd.defer(&ctx.http).await.err();
                let late = match late {
                    None => LateAnswer::Accepted,
                    Some(e) => LateAnswer::Refused(discord_code(&e).unwrap_or(-1)),
                };
                self.note(|s| s.late = Some(late));
                return;
            }
            _ => {}
        }
        if self.check("defer", cmd.defer(&ctx.http).await).is_none() {
            return;
        }
        let text = format!("Challenge sent to <@{}>", opponent.map_or(0, UserId::get));
        let edit = EditInteractionResponse::new().content(text);
        self.check("edit response", cmd.edit_response(&ctx.http, edit).await);
    }

    async fn on_component(&self, ctx: &Context, c: &ComponentInteraction) {
        self.note(|s| {
            s.components.push((
                c.data.custom_id.clone(),
                c.message.id.get(),
                c.user.id.get(),
            ));
        });
        if c.data.custom_id == "resign" {
            let update = CreateInteractionResponseMessage::new()
                .content("Resigned")
                .components(Vec::new());
            let response = CreateInteractionResponse::UpdateMessage(update);
            self.check("update", c.create_response(&ctx.http, response).await);
            return;
        }
        if self
            .check("acknowledge", c.defer(&ctx.http).await)
            .is_none()
        {
            return;
        }
        let followup = CreateInteractionResponseFollowup::new()
            .content(format!("You pressed {}", c.data.custom_id))
            .ephemeral(true);
        self.check("follow-up", c.create_followup(&ctx.http, followup).await);
    }
}

#[async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        let shard = ready.shard.map(|s| u64::from(s.total));
        self.note(|s| {
            s.shard_of.push(("READY".to_owned(), ctx.shard_id.0));
            s.ready
                .push((ready.user.id.get(), shard, ready.session_id.clone()));
        });
    }

    async fn guild_create(&self, ctx: Context, guild: Guild, _is_new: Option<bool>) {
        let bot_is_member = guild.members.contains_key(&ctx.cache.current_user().id);
        self.note(|s| {
            s.shard_of.push(("GUILD_CREATE".to_owned(), ctx.shard_id.0));
            s.guilds
                .push((guild.id.get(), guild.channels.len(), bot_is_member));
        });
    }

    async fn cache_ready(&self, _ctx: Context, guilds: Vec<GuildId>) {
        self.note(|s| s.events.push(format!("CACHE_READY {guilds:?}")));
    }

    async fn channel_create(&self, _ctx: Context, channel: GuildChannel) {
        self.note(|s| s.events.push(format!("CHANNEL_CREATE {}", channel.name)));
    }

    async fn thread_create(&self, _ctx: Context, thread: GuildChannel) {
        self.note(|s| s.events.push(format!("THREAD_CREATE {}", thread.id)));
    }

    async fn message_update(
        &self,
        _ctx: Context,
        _old: Option<Message>,
        _new: Option<Message>,
        event: MessageUpdateEvent,
    ) {
        let content = event.content.unwrap_or_default();
        self.note(|s| {
            s.events
                .push(format!("MESSAGE_UPDATE {} {content}", event.id));
        });
    }

    async fn message_delete(
        &self,
        _ctx: Context,
        _channel: ChannelId,
        id: MessageId,
        _guild: Option<GuildId>,
    ) {
        self.note(|s| s.events.push(format!("MESSAGE_DELETE {id}")));
    }

    async fn resume(&self, _ctx: Context, _event: ResumedEvent) {
        self.note(|s| s.resumed += 1);
    }

    async fn message(&self, ctx: Context, msg: Message) {
        self.note(|s| {
            let on = format!("MESSAGE {}", msg.channel_id);
            s.shard_of.push((on, ctx.shard_id.0));
            s.messages.push((
                msg.channel_id.get(),
                msg.content.clone(),
                msg.author.bot,
                msg.guild_id.map(GuildId::get),
            ));
        });
        if !msg.author.bot {
            self.on_message(&ctx, &msg).await;
        }
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        match interaction {
            Interaction::Command(cmd) => self.on_command(&ctx, &cmd).await,
            Interaction::Component(c) => self.on_component(&ctx, &c).await,
            Interaction::Autocomplete(a) => {
                let typed = a
                    .data
                    .autocomplete()
                    .map(|o| o.value.to_owned())
                    .unwrap_or_default();
                self.note(|s| s.autocomplete.push((a.data.name.clone(), typed.clone())));
                let choices = CreateAutocompleteResponse::new()
                    .add_string_choice(format!("{typed} (Russian)"), "ru")
                    .add_string_choice("English", "en");
                let response = CreateInteractionResponse::Autocomplete(choices);
                self.check("autocomplete", a.create_response(&ctx.http, response).await);
            }
            _ => {}
        }
    }
}
