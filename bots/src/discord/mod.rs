//! The Discord adapter: slash commands (structured, registered globally or per guild),
//! buttons through one global interaction handler (so they keep working after a restart),
//! typed moves in a game's thread, and replies delivered through the outbox. Every game
//! decision is the table's.
//!
//! Every interaction is deferred at once (Discord allows 3 s); refusals come back as
//! ephemeral follow-ups, everything for the channel through the outbox.

mod answers;
pub(crate) mod commands;
pub(crate) mod permissions;
mod surface;

use crate::observe::Health;
use crate::outbox::Outbox;
use crate::service::{Service, Start};
use answers::Via;
/// The slash commands as the bot registers them.
pub use commands::definitions as slash_commands;
use serenity::all::{
    async_trait, ChannelId, ChannelType, Client, ClientBuilder, Command, CommandInteraction,
    ComponentInteraction, Context, CreateAllowedMentions, CreateAutocompleteResponse,
    CreateInteractionResponse, EventHandler, GatewayIntents, Guild, GuildId, HttpBuilder,
    Interaction, InteractionContext, Message, Permissions, Ready, UnavailableGuild,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use surface::Discord;
use ugolki_core::table::{
    Action, ChatKind, ChatRef, Config, GroupReading, Incoming, Input, Mention, Origin, Platform,
    Table,
};
use ugolki_core::words::{render, Msg};

/// How to run the bot.
#[derive(Clone)]
pub struct Options {
    pub token: String,
    /// The REST base (`DISCORD_API_URL`): a REST proxy that keeps Discord's rate limits
    /// itself (twilight's http-proxy); serenity's ratelimiter is off then. The gateway
    /// comes with it.
    pub api_url: Option<String>,
    /// Where to reach `discord.com` instead of by DNS, and the authority its certificate is
    /// signed by (`DISCORD_API_ADDR`, `DISCORD_API_CA`): a TLS egress proxy, or the tests'
    /// fake. Everything else is as in production: serenity's ratelimiter on, every URL on
    /// `https://discord.com`.
    pub api_at: Option<ApiAt>,
    pub database_url: String,
    /// Register the commands in this guild only (instant, for development).
    pub guild: Option<u64>,
    /// Run shards `first..=last` of `total` (several processes); all of them when `None`.
    pub shards: Option<(u32, u32, u32)>,
    /// `--metrics ADDR`: serve `/health` and `/metrics` there.
    pub metrics: Option<std::net::SocketAddr>,
    /// `--message-content`: ask for the privileged `MESSAGE_CONTENT` intent (switched on
    /// in the Developer Portal), so moves can be typed as text in servers. Without it,
    /// servers play by `/move` and buttons, and text reaches the bot only in DMs and in
    /// messages that mention it.
    pub message_content: bool,
    /// `--web ADDR`: serve the public pages there.
    pub web: Option<crate::web::Pages>,
    /// The application's `OAuth2` client secret (`DISCORD_CLIENT_SECRET`): with `web`, the
    /// Activity's readers sign in through Discord and may move in their games. Never
    /// logged, never sent to a page.
    pub client_secret: Option<String>,
}

pub use crate::setup::discord::{client_for, try_client_for, ApiAt};

/// The pages, with the Activity's sign-in when the client secret is given: the application's
/// id from Discord (an old application's differs from its bot's), else the bot's.
async fn activity_pages(
    options: &Options,
    http: &serenity::http::Http,
    bot: u64,
) -> Option<crate::web::Pages> {
    let mut pages = options.web.clone()?;
    let Some(secret) = options.client_secret.clone() else {
        return Some(pages);
    };
    let client_id = match http.get_current_application_info().await {
        Ok(app) => app.id.get(),
        Err(e) => {
            tracing::warn!(error = %e, "the application's id not read: the bot's taken");
            bot
        }
    };
    let client = client_for(options.api_at.as_ref());
    let app = crate::web::discord_auth::DiscordApp::new(client_id, secret, client);
    pages.discord = Some(Arc::new(app));
    Some(pages)
}

/// The most characters a Discord message holds (a Nitro member's limit; 2,000 otherwise).
const MAX_CONTENT: usize = 4000;
/// Prefix for plain-text commands (`!challenge @bob`), the fallback to slash commands.
const PREFIX: char = '!';
/// The counter of channels looked up in the store because serenity's cache did not hold
/// them (an archived thread after a restart): once per channel, never per message.
const THREAD_LOOKUPS: &str = "ugolki_discord_thread_lookups_total";
/// Threads' parents remembered at most (the store has them all).
const MAX_PARENTS: usize = 10_000;

struct Handler {
    table: Arc<Table>,
    outbox: Arc<Outbox<Discord>>,
    /// Threads' parent channels, as the store keeps them (a message in a game's thread is
    /// in its channel's chat).
    parents: Mutex<HashMap<u64, u64>>,
    guild: Option<u64>,
    /// The bot's user, from READY.
    me: std::sync::OnceLock<serenity::all::UserId>,
    /// The slash commands were registered (or found registered) by this process.
    registered: std::sync::atomic::AtomicBool,
    health: Health,
    /// Each shard of this process: whether its gateway connection is up.
    shards: Mutex<HashMap<u32, bool>>,
    /// Each server's chats as its last `GUILD_CREATE` listed them ([`chats_of`]): serenity's
    /// cache drops a server on an outage, and a removal during one comes without them.
    servers: Mutex<HashMap<GuildId, Vec<u64>>>,
}

/// The chats a server's games can be in: its channels (categories hold no messages) and
/// active threads (a thread the bot did not make, a forum's post or a user's thread, is a
/// chat of its own: `thread_chat`).
fn chats_of(guild: &Guild) -> Vec<u64> {
    let channels = guild
        .channels
        .values()
        .filter(|c| c.kind != ChannelType::Category)
        .map(|c| c.id);
    channels
        .chain(guild.threads.iter().map(|t| t.id))
        .map(ChannelId::get)
        .collect()
}

/// Where something was asked, and who asked.
struct Asked<'a> {
    /// serenity's cache: the guild's channels and active threads.
    cache: &'a serenity::all::Cache,
    guild: Option<GuildId>,
    channel: u64,
    /// A DM where only the user installed the app: nothing can be posted there.
    private: bool,
    dm: bool,
    user: &'a serenity::all::User,
    id: u64,
    interaction: bool,
}

/// Whether an interaction comes from where the bot is no member, only a user installed the
/// app: a DM or group DM between users, or a server that never added the bot (no guild
/// install authorizes it). There it can only answer the interaction itself.
fn not_a_member(
    context: Option<InteractionContext>,
    owners: &serenity::all::AuthorizingIntegrationOwners,
) -> bool {
    use serenity::all::AuthorizingIntegrationOwner as Owner;
    match context {
        Some(InteractionContext::PrivateChannel) => true,
        Some(InteractionContext::Guild) => {
            !owners.0.iter().any(|o| matches!(o, Owner::GuildInstall(_)))
        }
        _ => false,
    }
}

/// Where an interaction (a command, a press, an autocomplete: they carry the same
/// fields) was asked.
macro_rules! asked {
    ($ctx:expr, $i:expr) => {
        Asked {
            cache: &$ctx.cache,
            guild: $i.guild_id,
            channel: $i.channel_id.get(),
            private: not_a_member($i.context, &$i.authorizing_integration_owners),
            dm: $i.guild_id.is_none(),
            user: &$i.user,
            id: $i.id.get(),
            interaction: true,
        }
    };
}

/// The chat a guild channel's messages belong to, from serenity's cache: a thread the bot
/// started (a game's) belongs to its parent channel's chat; any other channel or thread the
/// cache holds is its own chat. `None` when the cache does not hold it — an archived thread
/// after a restart (Discord's `GUILD_CREATE` sends only active threads), or a cache not yet
/// filled — and the store must say.
pub fn thread_chat(
    cache: &serenity::all::Cache,
    guild: GuildId,
    channel: serenity::all::ChannelId,
) -> Option<serenity::all::ChannelId> {
    let me = cache.current_user().id;
    let guild = cache.guild(guild)?;
    if guild.channels.contains_key(&channel) {
        return Some(channel);
    }
    let thread = guild.threads.iter().find(|t| t.id == channel)?;
    Some(match (thread.owner_id, thread.parent_id) {
        (Some(owner), Some(parent)) if owner == me => parent,
        _ => channel,
    })
}

impl Handler {
    /// The bot's own user id (known from the first READY).
    fn me(&self) -> serenity::all::UserId {
        self.me
            .get()
            .copied()
            .unwrap_or(serenity::all::UserId::new(u64::MAX))
    }

    /// A shard's connection changed: the platform is up while every shard is connected.
    fn shard(&self, id: u32, up: bool) {
        let mut shards = crate::lock(&self.shards);
        shards.insert(id, up);
        self.health
            .platform_up(!shards.is_empty() && shards.values().all(|u| *u));
    }

    /// The table's origin: the chat is the channel's (a game's thread belongs to its
    /// channel), the place the channel or thread it was asked in.
    async fn origin(&self, a: Asked<'_>) -> Origin {
        let kind = match (a.private, a.dm) {
            (true, _) => ChatKind::OneMessage,
            (false, true) => ChatKind::Private,
            (false, false) => ChatKind::Group,
        };
        let chat = if kind == ChatKind::Group {
            let cached = a
                .guild
                .and_then(|g| thread_chat(a.cache, g, a.channel.into()));
            match cached {
                Some(chat) => chat.get(),
                None => self.parent(a.channel).await,
            }
        } else {
            a.channel
        };
        let chat = ChatRef::new(Platform::Discord, chat.to_string(), kind);
        let user = commands::user(a.user);
        let mut o = if a.interaction {
            Origin::interaction(chat, user, format!("i:{}", a.id))
        } else {
            Origin::message(chat, user, a.id.to_string())
        };
        o.place = (a.channel.to_string() != o.chat.id).then(|| a.channel.to_string());
        o
    }

    /// A channel's parent channel when it is a thread the bot made for a game, else itself,
    /// for a channel serenity's cache does not hold: from the store, once per channel.
    async fn parent(&self, channel: u64) -> u64 {
        if let Some(p) = crate::lock(&self.parents).get(&channel) {
            return *p;
        }
        let (store, id) = (self.table.store(), channel.to_string());
        // Counted, so an operator (and a test) sees the cache miss; it is once per channel.
        metrics::counter!(THREAD_LOOKUPS).increment(1);
        let stored = store.thread_parent(Platform::Discord.as_str(), &id).await;
        let stored = stored.ok().flatten().and_then(|p| p.parse().ok());
        let stored = stored.unwrap_or(channel);
        let mut parents = crate::lock(&self.parents);
        if parents.len() >= MAX_PARENTS {
            parents.clear();
        }
        parents.insert(channel, stored);
        stored
    }

    /// What the bot lacks of [`permissions::NEEDED`] in a server's channel, told in the
    /// asker's language; `None` where it has them all, or outside servers.
    async fn lacking(
        &self,
        guild: Option<GuildId>,
        app: Option<Permissions>,
        asker: &Origin,
    ) -> Option<String> {
        let missing = permissions::missing(guild, app)?;
        Some(permissions::told(missing, self.table.lang_for(asker).await))
    }

    /// Hand an interaction's input to the table and answer through it.
    async fn interact(&self, ctx: &Context, via: &Via<'_>, origin: Origin, input: Input) {
        let private = origin.chat.one_message();
        let incoming = Incoming { origin, input };
        let outs = self.table.handle(&incoming).await;
        if !private {
            return via.answer(&ctx.http, &outs).await;
        }
        via.answer_all(&ctx.http, &self.outbox, outs).await;
    }

    async fn on_command(&self, ctx: &Context, cmd: &CommandInteraction) {
        let private = not_a_member(cmd.context, &cmd.authorizing_integration_owners);
        // Deferred at once; where the bot can post, privately: what the table says in
        // public goes to the channel from the outbox.
        let deferred = if private {
            cmd.defer(&ctx.http).await
        } else {
            cmd.defer_ephemeral(&ctx.http).await
        };
        if let Err(e) = deferred {
            tracing::warn!(error = %e, "interaction not deferred");
            return;
        }
        let via = Via::Command(cmd);
        let asked = asked!(ctx, cmd);
        let mut origin = self.origin(asked).await;
        origin.locale = Some(cmd.locale.clone());
        origin.group_admin = cmd.guild_id.map(|_| {
            cmd.member
                .as_ref()
                .and_then(|m| m.permissions)
                .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD))
        });
        let input = match commands::read(cmd) {
            Ok(c) => Input::Command(c),
            Err(m) => {
                let lang = self.table.lang_for(&origin).await;
                return via.say(&ctx.http, &render(&m, lang)).await;
            }
        };
        let guild = cmd.guild_id.filter(|_| !private);
        if let Some(why) = self.lacking(guild, cmd.app_permissions, &origin).await {
            return via.say(&ctx.http, &why).await;
        }
        self.interact(ctx, &via, origin, input).await;
    }

    async fn on_button(&self, ctx: &Context, c: &ComponentInteraction) {
        if c.data.custom_id == surface::LAUNCH_ID {
            // The Activity opens in this thread; its page finds the game by the channel.
            let launch = CreateInteractionResponse::LaunchActivity;
            if let Err(e) = c.create_response(&ctx.http, launch).await {
                tracing::warn!(error = %e, "the Activity not launched");
            }
            return;
        }
        if let Err(e) = c.defer(&ctx.http).await {
            tracing::warn!(error = %e, "button not acknowledged");
            return;
        }
        let via = Via::Component(c);
        // A select menu's choice is its value; a button's is its id.
        let text = match &c.data.kind {
            serenity::all::ComponentInteractionDataKind::StringSelect { values } => {
                values.first().cloned().unwrap_or_default()
            }
            _ => c.data.custom_id.clone(),
        };
        let asked = asked!(ctx, c);
        let mut origin = self.origin(asked).await;
        origin.locale = Some(c.locale.clone());
        origin.group_admin = c.guild_id.map(|_| false);
        let Some(action) = Action::parse(&text) else {
            // Not a button of this version's: said in the presser's language, as the table would.
            let stale = render(&Msg::ButtonStale, self.table.lang_for(&origin).await);
            return via.say(&ctx.http, &stale).await;
        };
        let private = not_a_member(c.context, &c.authorizing_integration_owners);
        let guild = c.guild_id.filter(|_| !private);
        if let Some(why) = self.lacking(guild, c.app_permissions, &origin).await {
            return via.say(&ctx.http, &why).await;
        }
        self.interact(ctx, &via, origin, Input::Action(action))
            .await;
    }

    /// `/move`'s autocomplete: the legal moves of the player's game that fit what is typed.
    async fn on_autocomplete(&self, ctx: &Context, a: &CommandInteraction) {
        let typed = a
            .data
            .autocomplete()
            .map(|o| o.value.to_string())
            .unwrap_or_default();
        let asked = asked!(ctx, a);
        let origin = self.origin(asked).await;
        let mut choices = CreateAutocompleteResponse::new();
        for m in self.table.suggest_moves(&origin, &typed, 25).await {
            choices = choices.add_string_choice(m.clone(), m);
        }
        let response = CreateInteractionResponse::Autocomplete(choices);
        if let Err(e) = a.create_response(&ctx.http, response).await {
            tracing::debug!(error = %e, "autocomplete not answered");
        }
    }

    async fn on_message(&self, ctx: &Context, msg: &Message) {
        // Longer than Discord lets anyone send (4,000 characters with Nitro): not read. What
        // is within it reaches the table, which says when a command is too long.
        if msg.author.bot || msg.content.chars().nth(MAX_CONTENT).is_some() {
            return;
        }
        // `<@123>` mentions arrive as users; the words keep an `@` in their place.
        let mut text = msg.content.clone();
        for u in &msg.mentions {
            for form in [format!("<@{}>", u.id), format!("<@!{}>", u.id)] {
                text = text.replace(&form, &format!("@{}", u.id));
            }
        }
        // Addressed to the bot (`@bot c3-d4`, all a server without the content intent
        // shows it): the words after the mention.
        if let Some(me) = msg.mentions.iter().find(|u| u.bot && u.id == self.me()) {
            if let Some(rest) = text.trim_start().strip_prefix(&format!("@{}", me.id)) {
                text = rest.trim_start().to_string();
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
        let mut origin = self
            .origin(Asked {
                cache: &ctx.cache,
                guild: msg.guild_id,
                channel: msg.channel_id.get(),
                private: false,
                dm: msg.guild_id.is_none(),
                user: &msg.author,
                id: msg.id.get(),
                interaction: false,
            })
            .await;
        origin.group_admin = msg.guild_id.map(|_| false);
        // Its replies are in the outbox, sent from there.
        self.table
            .handle(&Incoming::text(origin, &text, mentions))
            .await;
    }
}

#[async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        self.shard(ctx.shard_id.0, true);
        let _ = self.me.set(ready.user.id);
        tracing::info!(bot = %ready.user.name, shard = ctx.shard_id.0, "discord shard ready");
        // Once per process, not per shard; and only when what Discord has differs.
        if self
            .registered
            .swap(true, std::sync::atomic::Ordering::SeqCst)
        {
            return;
        }
        let defs = commands::definitions();
        // With their localizations, which we set too.
        let now = match self.guild {
            Some(g) => {
                let g = GuildId::new(g);
                ctx.http.get_guild_commands_with_localizations(g).await
            }
            None => ctx.http.get_global_commands_with_localizations().await,
        };
        let now = now.unwrap_or_default();
        if commands::registered_as(&defs, &now) {
            tracing::info!("slash commands registered already, as they are");
            return;
        }
        let defs = commands::with_entry_points(defs, &now);
        let r = match self.guild {
            Some(g) => GuildId::new(g).set_commands(&ctx.http, defs).await,
            None => Command::set_global_commands(&ctx.http, defs).await,
        };
        match r.map(|_| ()) {
            Ok(()) => tracing::info!("slash commands registered"),
            Err(e) => {
                // The next READY tries again.
                self.registered
                    .store(false, std::sync::atomic::Ordering::SeqCst);
                tracing::error!(error = %e, "slash commands not registered");
            }
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

    async fn message(&self, ctx: Context, msg: Message) {
        self.on_message(&ctx, &msg).await;
    }

    /// A server as it is now (at the start, or back after an outage): its chats kept.
    async fn guild_create(&self, _ctx: Context, guild: Guild, _: Option<bool>) {
        crate::lock(&self.servers).insert(guild.id, chats_of(&guild));
    }

    /// Removed from a server (kicked, banned, or the server deleted; an outage only makes
    /// it `unavailable`): its channels' games are void and challenges cancelled, and
    /// nothing is posted there again, as Telegram's removal from a group does. Its channels
    /// are the cache's, as the server was before the removal (after an outage, which keeps
    /// the list, the last `GUILD_CREATE`'s).
    async fn guild_delete(&self, _ctx: Context, gone: UnavailableGuild, full: Option<Guild>) {
        if gone.unavailable {
            return;
        }
        // The cache's server (with the threads made since its `GUILD_CREATE`), else, after
        // an outage, the one it listed then.
        let listed = crate::lock(&self.servers).remove(&gone.id);
        let Some(chats) = full.as_ref().map(chats_of).or(listed) else {
            tracing::warn!(guild = %gone.id, "removed from a server never seen: nothing to close");
            return;
        };
        tracing::info!(guild = %gone.id, "removed from a server: its games and challenges close");
        for id in chats {
            let chat = ChatRef::new(Platform::Discord, id.to_string(), ChatKind::Group);
            self.table.chat_gone(&chat, None).await;
        }
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

/// The mentions a message of the bot may ping: replies echo what players typed and show
/// their names, either of which can say `@everyone` or `<@&role>`, so none in the text
/// does; only a reply's asker is told, as a reply. The client's default for the messages,
/// edits, follow-ups and interaction responses made through it; set by hand on an
/// interaction's response edit, which serenity gives no default.
pub(super) fn quiet() -> CreateAllowedMentions {
    CreateAllowedMentions::new().replied_user(true)
}

/// A client of Discord's HTTP API for `options`. (The gateway's handlers have one and the
/// outbox another, each with its own ratelimiter in production.)
fn http_client(options: &Options) -> serenity::http::Http {
    let mut http = HttpBuilder::new(&options.token)
        .client(client_for(options.api_at.as_ref()))
        .default_allowed_mentions(quiet());
    if let Some(url) = &options.api_url {
        // serenity ignores a proxy while its ratelimiter is on: the proxy keeps the rate
        // limits (and the outbox waits out any 429 it passes on).
        http = http
            .proxy(url.trim_end_matches('/'))
            .ratelimiter_disabled(true);
    }
    http.build()
}

/// Run the bot until `shutdown` resolves; then stop every shard, give waiting replies ten
/// seconds, and return with every task stopped.
pub async fn run(
    options: Options,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let http = Arc::new(http_client(&options));
    // Who the bot is (its name for `/help`); a refused token ends the start here.
    let me = match http.get_current_user().await {
        Ok(me) => me,
        Err(e) if crate::setup::discord::refused(&e).is_some() => {
            return Err(crate::setup::discord::TOKEN_REFUSED.into())
        }
        Err(_) => {
            crate::service::patiently("GET /users/@me", surface::classify, || {
                http.get_current_user()
            })
            .await?
        }
    };
    let mut service = Service::start(Start {
        database_url: &options.database_url,
        config: Config {
            bot_name: Some(me.name.clone()),
            group_reading: if options.message_content {
                GroupReading::Everything
            } else {
                GroupReading::Mentions
            },
            ..Config::default()
        },
        metrics: options.metrics,
        web: activity_pages(&options, &http, me.id.get()).await,
        platform: "discord",
        timers: true,
    })
    .await?;
    crate::observe::counted(THREAD_LOOKUPS, crate::observe::THREAD_LOOKUPS_HELP);
    let table = service.table.clone();
    let activity = options.web.is_some() && options.client_secret.is_some();
    let discord = Discord::new(http.clone(), table.clone()).with_activity(activity);
    let outbox = service.deliver(Arc::new(discord));
    let delivering = outbox.clone();
    let handler = Handler {
        table: table.clone(),
        outbox,
        parents: Mutex::new(HashMap::new()),
        guild: options.guild,
        me: std::sync::OnceLock::new(),
        registered: std::sync::atomic::AtomicBool::new(false),
        health: service.health.clone(),
        shards: Mutex::new(HashMap::new()),
        servers: Mutex::new(HashMap::new()),
    };
    let mut intents =
        GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES | GatewayIntents::DIRECT_MESSAGES;
    if options.message_content {
        intents |= GatewayIntents::MESSAGE_CONTENT;
    } else {
        tracing::info!(
            "without --message-content: in servers, moves by /move and buttons (and typed \
             in messages that mention the bot); typed moves in DMs. /help says so"
        );
    }
    let mut client: Client = ClientBuilder::new_with_http(http_client(&options), intents)
        .event_handler(handler)
        .await
        .map_err(|e| format!("cannot start the Discord client: {e}"))?;
    let manager = client.shard_manager.clone();
    let shards = options.shards;
    let running = async move {
        match shards {
            // serenity 0.12 boots `range.start..=range.end`: the end is the last shard.
            Some((first, last, total)) => client.start_shard_range(first..last, total).await,
            None => client.start_autosharded().await,
        }
    };
    let result = tokio::select! {
        r = running => r.map_err(|e| {
            crate::setup::discord::refused(&e).map_or_else(|| format!("Discord: {e}"), str::to_string)
        }),
        () = shutdown => {
            manager.shutdown_all().await;
            Ok(())
        }
        // A delivery refused for the token (reset while running) ends it as the gateway's
        // 4004 does; the row waits in the outbox.
        () = delivering.token_refused() => {
            manager.shutdown_all().await;
            Err(crate::setup::discord::TOKEN_REFUSED.into())
        }
    };
    service.finish(delivering.is_refused()).await;
    result
}
