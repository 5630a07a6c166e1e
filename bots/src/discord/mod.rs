//! The Discord adapter: slash commands (structured, registered globally or per guild),
//! buttons through one global interaction handler (so they keep working after a restart),
//! typed moves in a game's thread, and replies delivered through the outbox. Every game
//! decision is the table's.
//!
//! Every interaction is deferred at once (Discord allows 3 s); refusals come back as
//! ephemeral follow-ups, everything for the channel through the outbox.

mod commands;
mod private;
mod surface;

use crate::observe::Health;
use crate::outbox::Outbox;
use crate::service::{Service, Start};
use serenity::all::{
    async_trait, Client, ClientBuilder, Command, CommandInteraction, ComponentInteraction, Context,
    CreateAutocompleteResponse, CreateInteractionResponse, CreateInteractionResponseFollowup,
    EditInteractionResponse, EventHandler, GatewayIntents, GuildId, HttpBuilder, Interaction,
    Message, Permissions, Ready,
};
use std::sync::Arc;
use std::time::Duration;
use surface::Discord;
use ugolki_core::table::{
    Action, ChatKind, ChatRef, Config, Incoming, Input, Mention, Origin, Outgoing, Platform, Table,
};
use ugolki_core::words::{render, Lang, Msg};

/// How to run the bot.
pub struct Options {
    pub token: String,
    /// The REST base (`DISCORD_API_URL`), e.g. a test server; the gateway comes with it.
    pub api_url: Option<String>,
    pub database_url: String,
    /// Register the commands in this guild only (instant, for development).
    pub guild: Option<u64>,
    /// Run shards `first..=last` of `total` (several processes); all of them when `None`.
    pub shards: Option<(u32, u32, u32)>,
    /// `--metrics ADDR`: serve `/health` and `/metrics` there.
    pub metrics: Option<std::net::SocketAddr>,
}

/// Prefix for plain-text commands (`!challenge @bob`), the fallback to slash commands.
const PREFIX: char = '!';

struct Handler {
    table: Arc<Table>,
    outbox: Arc<Outbox<Discord>>,
    /// Threads' parent channels, as the store keeps them (a message in a game's thread is
    /// in its channel's chat), at most [`MAX_PARENTS`] remembered.
    parents: std::sync::Mutex<std::collections::HashMap<u64, u64>>,
    guild: Option<u64>,
    health: Health,
    /// Each shard of this process: whether its gateway connection is up.
    shards: std::sync::Mutex<std::collections::HashMap<u32, bool>>,
}

impl Handler {
    /// A shard's connection changed: the platform is up while every shard is connected.
    fn shard(&self, id: u32, up: bool) {
        let mut shards = crate::lock(&self.shards);
        shards.insert(id, up);
        self.health
            .platform_up(!shards.is_empty() && shards.values().all(|u| *u));
    }
}

/// Threads' parents remembered at most (the store has them all).
const MAX_PARENTS: usize = 10_000;

fn lang_of_tag(tag: &str) -> Lang {
    Lang::from_tag(tag).unwrap_or(Lang::EN)
}

/// Who asked, where: `chat` is the table's chat (a game's thread belongs to its channel),
/// `place` the channel or thread it was asked in.
struct Where {
    chat: ChatRef,
    place: u64,
}

impl Handler {
    fn origin(w: &Where, user: &serenity::all::User, id: String, interaction: bool) -> Origin {
        let user = commands::user(user);
        let mut o = if interaction {
            Origin::interaction(w.chat.clone(), user, id)
        } else {
            Origin::message(w.chat.clone(), user, id)
        };
        o.place = (w.place.to_string() != w.chat.id).then(|| w.place.to_string());
        o
    }

    /// The table's chat for a channel: its parent channel when it is a thread the bot made
    /// for a game; `private`: a DM where only the user installed the app.
    async fn chat_of(&self, channel: u64, private: bool, dm: bool) -> Where {
        let kind = match (private, dm) {
            (true, _) => ChatKind::OneMessage,
            (false, true) => ChatKind::Private,
            (false, false) => ChatKind::Group,
        };
        let mut parent = crate::lock(&self.parents).get(&channel).copied();
        if parent.is_none() && kind == ChatKind::Group {
            let stored = self
                .table
                .store()
                .thread_parent(Platform::Discord.as_str(), &channel.to_string())
                .await
                .ok()
                .flatten()
                .and_then(|p| p.parse::<u64>().ok());
            let mut parents = crate::lock(&self.parents);
            if parents.len() >= MAX_PARENTS {
                parents.clear();
            }
            parents.insert(channel, stored.unwrap_or(channel));
            parent = stored;
        }
        let chat = parent.unwrap_or(channel);
        Where {
            chat: ChatRef::new(Platform::Discord, chat.to_string(), kind),
            place: channel,
        }
    }

    /// Replies for the one who asked become ephemeral follow-ups; the rest are in the
    /// outbox.
    async fn answer(
        &self,
        http: &serenity::http::Http,
        token: &InteractionReply<'_>,
        outs: Vec<Outgoing>,
    ) {
        let private: Vec<String> = outs
            .iter()
            .filter(|o| o.direct)
            .map(Outgoing::text)
            .collect();
        if private.is_empty() {
            token.done(http).await;
        } else {
            token.say(http, &private.join("\n")).await;
        }
    }

    async fn on_command(&self, ctx: &Context, cmd: &CommandInteraction) {
        // A DM or group DM the bot is not part of (the app installed on a user's account):
        // the answer is the interaction's own, public response.
        let private = cmd.context == Some(serenity::all::InteractionContext::PrivateChannel);
        // Deferred at once, privately: whatever the table says in public goes to the channel.
        let deferred = if private {
            cmd.defer(&ctx.http).await
        } else {
            cmd.defer_ephemeral(&ctx.http).await
        };
        if let Err(e) = deferred {
            tracing::warn!(error = %e, "interaction not deferred");
            return;
        }
        let w = self
            .chat_of(cmd.channel_id.get(), private, cmd.guild_id.is_none())
            .await;
        let mut origin = Self::origin(&w, &cmd.user, format!("i:{}", cmd.id.get()), true);
        origin.locale = Some(cmd.locale.clone());
        origin.group_admin = cmd.guild_id.map(|_| {
            cmd.member
                .as_ref()
                .and_then(|m| m.permissions)
                .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD))
        });
        let reply = InteractionReply::Command(cmd);
        let input = match commands::read(cmd) {
            Ok(c) => Input::Command(c),
            Err(m) => {
                reply
                    .say(&ctx.http, &render(&m, lang_of_tag(&cmd.locale)))
                    .await;
                return;
            }
        };
        let help = matches!(
            input,
            Input::Command(ugolki_core::table::command::Command::Help)
        );
        let incoming = Incoming { origin, input };
        let mut outs = self.table.handle(&incoming).await;
        if private {
            if help {
                // What is different here, said plainly.
                outs.push(
                    Outgoing::reply(&incoming.origin, Msg::DiscordPrivateHelp)
                        .in_lang(outs.first().map_or(Lang::EN, |o| o.lang)),
                );
            }
            private::answer(&ctx.http, &self.outbox, private::Via::Command(cmd), outs).await;
            return;
        }
        self.answer(&ctx.http, &reply, outs).await;
    }

    async fn on_button(&self, ctx: &Context, c: &ComponentInteraction) {
        if let Err(e) = c.defer(&ctx.http).await {
            tracing::warn!(error = %e, "button not acknowledged");
            return;
        }
        let reply = InteractionReply::Component(c);
        // A select menu's choice is its value; a button's is its id.
        let text = match &c.data.kind {
            serenity::all::ComponentInteractionDataKind::StringSelect { values } => {
                values.first().cloned().unwrap_or_default()
            }
            _ => c.data.custom_id.clone(),
        };
        let Some(action) = Action::parse(&text) else {
            reply
                .say(
                    &ctx.http,
                    &render(&Msg::ButtonStale, lang_of_tag(&c.locale)),
                )
                .await;
            return;
        };
        let private = c.context == Some(serenity::all::InteractionContext::PrivateChannel);
        let w = self
            .chat_of(c.channel_id.get(), private, c.guild_id.is_none())
            .await;
        let mut origin = Self::origin(&w, &c.user, format!("i:{}", c.id.get()), true);
        origin.locale = Some(c.locale.clone());
        origin.group_admin = c.guild_id.map(|_| false);
        let outs = self
            .table
            .handle(&Incoming {
                origin,
                input: Input::Action(action),
            })
            .await;
        if private {
            private::answer(&ctx.http, &self.outbox, private::Via::Component(c), outs).await;
            return;
        }
        self.answer(&ctx.http, &reply, outs).await;
    }

    /// `/move`'s autocomplete: the legal moves of the player's game that fit what is typed.
    async fn on_autocomplete(&self, ctx: &Context, a: &CommandInteraction) {
        let typed = a
            .data
            .autocomplete()
            .map(|o| o.value.to_string())
            .unwrap_or_default();
        let private = a.context == Some(serenity::all::InteractionContext::PrivateChannel);
        let w = self
            .chat_of(a.channel_id.get(), private, a.guild_id.is_none())
            .await;
        let origin = Self::origin(&w, &a.user, format!("a:{}", a.id.get()), true);
        let mut choices = CreateAutocompleteResponse::new();
        for m in self.table.suggest_moves(&origin, &typed, 25).await {
            choices = choices.add_string_choice(m.clone(), m);
        }
        let response = CreateInteractionResponse::Autocomplete(choices);
        if let Err(e) = a.create_response(&ctx.http, response).await {
            tracing::debug!(error = %e, "autocomplete not answered");
        }
    }

    async fn on_message(&self, msg: &Message) {
        if msg.author.bot || msg.content.len() > 2000 {
            return;
        }
        let w = self
            .chat_of(msg.channel_id.get(), false, msg.guild_id.is_none())
            .await;
        // `<@123>` mentions arrive as users; the words keep an `@` in their place.
        let mut text = msg.content.clone();
        for u in &msg.mentions {
            for form in [format!("<@{}>", u.id), format!("<@!{}>", u.id)] {
                text = text.replace(&form, &format!("@{}", u.id));
            }
        }
        if let Some(rest) = text.strip_prefix(PREFIX) {
            text = format!("/{rest}");
        }
        let mentions = msg
            .mentions
            .iter()
            .filter(|u| !u.bot)
            .map(|u| Mention::User(commands::user(u)))
            .collect();
        let mut origin = Self::origin(&w, &msg.author, msg.id.get().to_string(), false);
        origin.group_admin = msg.guild_id.map(|_| false);
        // Its replies are in the outbox, sent from there.
        self.table
            .handle(&Incoming::text(origin, &text, mentions))
            .await;
    }
}

/// The interaction a deferred answer belongs to.
enum InteractionReply<'a> {
    Command(&'a CommandInteraction),
    Component(&'a ComponentInteraction),
}

impl InteractionReply<'_> {
    /// Say `text` to the one who asked only.
    async fn say(&self, http: &serenity::http::Http, text: &str) {
        let text: String = text.chars().take(2000).collect();
        let r = match self {
            InteractionReply::Command(c) => c
                .edit_response(http, EditInteractionResponse::new().content(text))
                .await
                .map(|_| ()),
            InteractionReply::Component(c) => c
                .create_followup(
                    http,
                    CreateInteractionResponseFollowup::new()
                        .content(text)
                        .ephemeral(true),
                )
                .await
                .map(|_| ()),
        };
        if let Err(e) = r {
            tracing::warn!(error = %e, "private answer not delivered");
        }
    }

    /// Nothing to say privately: a command's "thinking…" goes away.
    async fn done(&self, http: &serenity::http::Http) {
        if let InteractionReply::Command(c) = self {
            if let Err(e) = c.delete_response(http).await {
                tracing::debug!(error = %e, "deferred answer not deleted");
            }
        }
    }
}

#[async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        self.shard(ctx.shard_id.0, true);
        let defs = commands::definitions();
        let r = match self.guild {
            Some(g) => GuildId::new(g)
                .set_commands(&ctx.http, defs)
                .await
                .map(|_| ()),
            None => Command::set_global_commands(&ctx.http, defs)
                .await
                .map(|_| ()),
        };
        match r {
            Ok(()) => tracing::info!(bot = %ready.user.name, "discord bot ready"),
            Err(e) => tracing::error!(error = %e, "slash commands not registered"),
        }
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        match interaction {
            Interaction::Command(cmd) => self.on_command(&ctx, &cmd).await,
            Interaction::Component(c) => self.on_button(&ctx, &c).await,
            Interaction::Autocomplete(a) => self.on_autocomplete(&ctx, &a).await,
            _ => {}
        }
    }

    async fn message(&self, _ctx: Context, msg: Message) {
        self.on_message(&msg).await;
    }

    async fn resume(&self, ctx: Context, _: serenity::model::event::ResumedEvent) {
        self.shard(ctx.shard_id.0, true);
    }

    async fn shard_stage_update(
        &self,
        _ctx: Context,
        event: serenity::gateway::ShardStageUpdateEvent,
    ) {
        let up = matches!(event.new, serenity::gateway::ConnectionStage::Connected);
        self.shard(event.shard_id.0, up);
    }
}

/// Run the bot until `shutdown` resolves; then stop every shard, give waiting replies ten
/// seconds, and return with every task stopped.
pub async fn run(
    options: Options,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    // One client for the gateway's handlers, one for the outbox (each with its
    // own ratelimiter in production).
    let make_http = || {
        let mut http = HttpBuilder::new(&options.token);
        if let Some(url) = &options.api_url {
            // serenity ignores a proxy while its ratelimiter is on; our delivery layer
            // retries 429s itself, in every mode.
            http = http
                .proxy(url.trim_end_matches('/'))
                .ratelimiter_disabled(true);
        }
        http.build()
    };
    let http = Arc::new(make_http());
    let mut service = Service::start(Start {
        database_url: &options.database_url,
        config: Config::default(),
        metrics: options.metrics,
        platform: "discord",
        timers: true,
    })
    .await?;
    let table = service.table.clone();
    let outbox = service.deliver(Arc::new(Discord::new(http.clone(), table.clone())));
    let handler = Handler {
        table: table.clone(),
        outbox,
        parents: std::sync::Mutex::new(std::collections::HashMap::new()),
        guild: options.guild,
        health: service.health.clone(),
        shards: std::sync::Mutex::new(std::collections::HashMap::new()),
    };
    let intents = GatewayIntents::GUILDS
        | GatewayIntents::GUILD_MESSAGES
        | GatewayIntents::MESSAGE_CONTENT
        | GatewayIntents::DIRECT_MESSAGES;
    let mut client: Client = ClientBuilder::new_with_http(make_http(), intents)
        .event_handler(handler)
        .await
        .map_err(|e| format!("cannot start the Discord client: {e}"))?;
    let manager = client.shard_manager.clone();
    let shards = options.shards;
    let running = async move {
        match shards {
            Some((first, last, total)) => client.start_shard_range(first..last + 1, total).await,
            None => client.start_autosharded().await,
        }
    };
    let result = tokio::select! {
        r = running => r.map_err(|e| format!("Discord: {e}")),
        () = shutdown => {
            manager.shutdown_all().await;
            Ok(())
        }
    };
    // Replies waiting now still go out, for a little while; the rest wait in the outbox.
    service.stop("discord", Duration::from_secs(10)).await;
    result
}
