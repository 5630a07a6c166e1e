//! The fake Discord, driven by a real serenity client (REST through `HttpBuilder::proxy` with
//! the ratelimiter disabled, the gateway through the URL the fake's `GET /gateway` returns).

use std::fmt::Write as _;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde_json::json;
use serenity::all::{
    async_trait, ApplicationId, AttachmentId, ButtonStyle, Cache, ChannelId, ChannelType, Client,
    ClientBuilder, Command, CommandInteraction, CommandOptionType, ComponentInteraction, Context,
    CreateActionRow, CreateAttachment, CreateAutocompleteResponse, CreateButton, CreateCommand,
    CreateCommandOption, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption, CreateThread, EditInteractionResponse, EditMessage, EventHandler,
    GatewayIntents, Guild, GuildChannel, GuildId, HttpBuilder, HttpError, InstallationContext,
    Interaction, InteractionContext, InteractionId, Message, MessageId, MessageUpdateEvent, Ready,
    ResumedEvent, ShardManager, UserId,
};
use serenity::http::Http;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;
use ugolki_tests::fake_discord::{Failure, FakeDiscord, FakeUser, OptionValue};

const SECOND: Duration = Duration::from_secs(1);
const WAIT: Duration = Duration::from_secs(10);

/// What the handler saw and did.
#[derive(Default)]
struct Seen {
    ready: Vec<(u64, Option<u64>, String)>,
    guilds: Vec<(u64, usize, bool)>,
    resumed: usize,
    /// `(channel, content, author is a bot, guild)`.
    messages: Vec<(u64, String, bool, Option<u64>)>,
    /// Messages the handler sent: `(what, channel, id)`.
    sent: Vec<(String, u64, u64)>,
    threads: Vec<u64>,
    commands: Vec<CommandSeen>,
    components: Vec<(String, u64, u64)>,
    autocomplete: Vec<(String, String)>,
    /// Other events, e.g. `"THREAD_CREATE 123"`.
    events: Vec<String>,
    /// The result of answering `/slow` after more than 3 s: Discord's error code.
    late: Option<LateAnswer>,
    errors: Vec<String>,
}

/// What answering `/slow` after Discord's 3 s gave.
#[derive(Debug, PartialEq, Eq)]
enum LateAnswer {
    Accepted,
    /// Discord's JSON error code (-1: not a Discord error).
    Refused(isize),
}

/// A slash command as serenity parsed it.
#[derive(Debug)]
struct CommandSeen {
    name: String,
    user: u64,
    guild: Option<u64>,
    member: bool,
    locale: String,
    context: Option<InteractionContext>,
    opponent: Option<u64>,
    opponent_name: Option<String>,
    variant: Option<String>,
    stake: Option<i64>,
    rated: Option<bool>,
}

#[derive(Clone, Default)]
struct Handler {
    seen: Arc<Mutex<Seen>>,
}

fn lock(seen: &Mutex<Seen>) -> MutexGuard<'_, Seen> {
    seen.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A small valid RGB PNG.
fn png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("PNG header");
    let pixels = vec![200_u8; (width * height * 3) as usize];
    writer.write_image_data(&pixels).expect("PNG data");
    writer.finish().expect("PNG end");
    out
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
    async fn ready(&self, _ctx: Context, ready: Ready) {
        let shard = ready.shard.map(|s| u64::from(s.total));
        self.note(|s| {
            s.ready
                .push((ready.user.id.get(), shard, ready.session_id.clone()));
        });
    }

    async fn guild_create(&self, ctx: Context, guild: Guild, _is_new: Option<bool>) {
        let bot_is_member = guild.members.contains_key(&ctx.cache.current_user().id);
        self.note(|s| {
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

/// A running serenity client connected to the fake.
struct Bot {
    http: Arc<Http>,
    cache: Arc<Cache>,
    shards: Arc<ShardManager>,
    task: JoinHandle<serenity::Result<()>>,
    seen: Arc<Mutex<Seen>>,
}

impl Bot {
    fn seen(&self) -> MutexGuard<'_, Seen> {
        lock(&self.seen)
    }

    /// Wait (at most `WAIT`) until `f` holds for what the handler saw.
    async fn wait_seen(&self, fake: &FakeDiscord, f: impl Fn(&Seen) -> bool) -> bool {
        fake.wait_until(WAIT, |_| f(&self.seen())).await
    }

    async fn stop(self) {
        self.shards.shutdown_all().await;
        let ended = tokio::time::timeout(WAIT, self.task).await;
        assert!(ended.is_ok(), "the client did not stop");
        let errors = &lock(&self.seen).errors;
        assert!(errors.is_empty(), "{errors:#?}");
    }
}

fn all_intents() -> GatewayIntents {
    GatewayIntents::GUILDS
        | GatewayIntents::GUILD_MESSAGES
        | GatewayIntents::DIRECT_MESSAGES
        | GatewayIntents::MESSAGE_CONTENT
}

/// Build the client as the bot will, start it, wait for READY and the guild.
async fn connect(fake: &FakeDiscord, intents: GatewayIntents) -> Bot {
    let http = HttpBuilder::new(FakeDiscord::TOKEN)
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    let handler = Handler::default();
    let seen = Arc::clone(&handler.seen);
    let mut client: Client = ClientBuilder::new_with_http(http, intents)
        .event_handler(handler)
        .await
        .expect("the client");
    let bot = Bot {
        http: Arc::clone(&client.http),
        cache: Arc::clone(&client.cache),
        shards: Arc::clone(&client.shard_manager),
        task: tokio::spawn(async move { client.start().await }),
        seen,
    };
    assert!(fake.wait_until(WAIT, FakeDiscord::connected).await);
    assert!(
        bot.wait_seen(fake, |s| !s.ready.is_empty() && !s.guilds.is_empty())
            .await,
        "READY and GUILD_CREATE"
    );
    bot
}

fn alice() -> FakeUser {
    FakeDiscord::user(101, "alice")
}

fn bob() -> FakeUser {
    FakeDiscord::user(102, "bob")
}

/// The id of the message the handler sent as `what`.
fn sent(bot: &Bot, what: &str) -> Option<(u64, u64)> {
    bot.seen()
        .sent
        .iter()
        .find(|(w, _, _)| w == what)
        .map(|(_, c, m)| (*c, *m))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gateway_messages_attachments_buttons_threads() {
    let fake = FakeDiscord::start().await;
    let bot = connect(&fake, all_intents()).await;

    ready_and_cache(&fake, &bot).await;
    let pong = say_and_echo(&fake, &bot).await;
    let board = attachment_and_buttons(&fake, &bot).await;
    rest_reads_and_edit(&fake, &bot, board).await;
    threads(&fake, &bot).await;
    direct_messages(&fake, &bot).await;
    deletes_and_errors(&fake, &bot, pong).await;
    bot.stop().await;
}

async fn ready_and_cache(fake: &FakeDiscord, bot: &Bot) {
    // The gateway: `?v=10`, one IDENTIFY with the client's intents; READY and the guild.
    assert_eq!(fake.gateway_query(), "v=10");
    assert_eq!(fake.identify_count(), 1);
    assert_eq!(fake.intents(), Some(all_intents().bits()));
    {
        let seen = bot.seen();
        assert_eq!(seen.ready[0].0, FakeDiscord::BOT_ID);
        assert_eq!(seen.ready[0].1, Some(1));
        assert_eq!(seen.guilds, vec![(FakeDiscord::GUILD_ID, 2, true)]);
    }
    // serenity's cache took the guild, and the application id came from READY.
    let guild = bot
        .cache
        .guild(FakeDiscord::GUILD_ID)
        .expect("the guild in the cache")
        .clone();
    assert_eq!(guild.name, FakeDiscord::GUILD_NAME);
    assert!(guild
        .channels
        .contains_key(&ChannelId::new(FakeDiscord::CHANNEL_ID)));
    assert_eq!(guild.roles.len(), 2);
    assert_eq!(bot.cache.current_user().id.get(), FakeDiscord::BOT_ID);
    assert_eq!(
        bot.http.application_id().map(ApplicationId::get),
        Some(FakeDiscord::APP_ID)
    );
    assert!(
        bot.wait_seen(fake, |s| s.events.contains(&format!(
            "CACHE_READY [GuildId({})]",
            FakeDiscord::GUILD_ID
        )))
        .await
    );
    // Heartbeats (every second here) are acknowledged.
    assert!(
        fake.wait_until(3 * SECOND, |f| f.heartbeat_count() >= 1)
            .await
    );
}

async fn say_and_echo(fake: &FakeDiscord, bot: &Bot) -> u64 {
    // A message reaches the handler; `ChannelId::say` answers it.
    let alice = alice();
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "!say", &[]);
    assert!(
        fake.wait_until(WAIT, |f| f.messages(FakeDiscord::CHANNEL_ID).len() == 1)
            .await
    );
    let pong = fake.messages(FakeDiscord::CHANNEL_ID).remove(0);
    assert_eq!(pong.content, "pong");
    assert!(!pong.ephemeral && pong.attachments.is_empty() && pong.components.is_empty());
    {
        let seen = bot.seen();
        let (channel, content, bot_author, guild) = &seen.messages[0];
        assert_eq!(
            (*channel, content.as_str(), *bot_author, *guild),
            (
                FakeDiscord::CHANNEL_ID,
                "!say",
                false,
                Some(FakeDiscord::GUILD_ID)
            )
        );
    }
    // The bot's own message comes back as MESSAGE_CREATE, as on Discord.
    assert!(
        bot.wait_seen(fake, |s| s.messages.iter().any(|m| m.1 == "pong" && m.2))
            .await
    );
    pong.id
}

async fn attachment_and_buttons(fake: &FakeDiscord, bot: &Bot) -> u64 {
    let alice = alice();
    // A message with a PNG attachment and two buttons (multipart upload).
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "!board", &[]);
    assert!(bot.wait_seen(fake, |s| sent_in(s, "board")).await);
    let (_, board_id) = sent(bot, "board").expect("the board");
    let board = fake
        .message(FakeDiscord::CHANNEL_ID, board_id)
        .expect("the board message");
    assert_eq!(board.content, "Your move");
    assert_eq!(board.attachments.len(), 1);
    assert_eq!(board.attachments[0].filename, "board.png");
    assert_eq!(board.attachments[0].content_type, "image/png");
    assert_eq!(board.attachments[0].bytes, png(3, 2));
    assert_eq!(board.json["attachments"][0]["width"], json!(3));
    assert_eq!(
        board.components,
        vec![vec![
            ("A1".to_owned(), "move:a1".to_owned()),
            ("Resign".to_owned(), "resign".to_owned())
        ]]
    );
    let upload = fake
        .calls()
        .into_iter()
        .find(|c| c.route == "create_message" && !c.files.is_empty())
        .expect("the multipart call");
    assert_eq!(
        upload.files,
        vec![("board.png".to_owned(), png(3, 2).len())]
    );
    assert_eq!(upload.body["attachments"][0]["id"], json!(0));
    // The attachment's URL serves the bytes.
    let url = board.json["attachments"][0]["url"].as_str().expect("url");
    let path = url.strip_prefix(&fake.api_base()).expect("on the fake");
    let (status, _, bytes) = raw_get(fake, path, false).await;
    assert_eq!((status, bytes), (200, png(3, 2)));
    board_id
}

async fn rest_reads_and_edit(fake: &FakeDiscord, bot: &Bot, board_id: u64) {
    // REST reads deserialize into serenity's models.
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    let fetched = bot
        .http
        .get_message(channel, MessageId::new(board_id))
        .await
        .expect("get_message");
    assert_eq!(fetched.attachments[0].dimensions(), Some((3, 2)));
    assert_eq!(fetched.components[0].components.len(), 2);
    let general = bot.http.get_channel(channel).await.expect("get_channel");
    assert_eq!(general.guild().map(|c| c.name), Some("general".to_owned()));
    let partial = bot
        .http
        .get_guild(GuildId::new(FakeDiscord::GUILD_ID))
        .await
        .expect("get_guild");
    assert_eq!(partial.owner_id.get(), FakeDiscord::OWNER_ID);
    let me = bot.http.get_current_user().await.expect("get_current_user");
    assert!(me.bot && me.discriminator.is_none());
    let app = bot
        .http
        .get_current_application_info()
        .await
        .expect("application");
    assert_eq!(app.id.get(), FakeDiscord::APP_ID);
    assert_eq!(app.owner.map(|o| o.id.get()), Some(FakeDiscord::OWNER_ID));
    let gateway = bot.http.get_bot_gateway().await.expect("gateway/bot");
    assert_eq!((gateway.url, gateway.shards), (fake.gateway_url(), 1));

    // An edit with `components: []` removes the buttons; the attachment stays.
    let edited = channel
        .edit_message(
            &bot.http,
            MessageId::new(board_id),
            EditMessage::new().content("Game over").components(vec![]),
        )
        .await
        .expect("edit");
    assert!(edited.components.is_empty() && edited.edited_timestamp.is_some());
    let board = fake
        .message(FakeDiscord::CHANNEL_ID, board_id)
        .expect("the board message");
    assert_eq!(
        (board.content.as_str(), board.edits, board.attachments.len()),
        ("Game over", 1, 1)
    );
    assert!(board.components.is_empty());
    let update = format!("MESSAGE_UPDATE {board_id} Game over");
    assert!(bot.wait_seen(fake, |s| s.events.contains(&update)).await);

    // A new image in place of the old one (a multipart PATCH whose `attachments` names only
    // the new file), then a second file next to the kept one.
    let old = board.attachments[0].id;
    let replaced = channel
        .edit_message(
            &bot.http,
            MessageId::new(board_id),
            EditMessage::new().new_attachment(CreateAttachment::bytes(png(4, 4), "board.png")),
        )
        .await
        .expect("a new image");
    assert_eq!(replaced.attachments.len(), 1);
    assert_ne!(replaced.attachments[0].id.get(), old);
    let board = fake
        .message(FakeDiscord::CHANNEL_ID, board_id)
        .expect("the board message");
    assert_eq!(board.attachments[0].bytes, png(4, 4));
    assert_eq!(board.content, "Game over");
    let two = channel
        .edit_message(
            &bot.http,
            MessageId::new(board_id),
            EditMessage::new()
                .keep_existing_attachment(AttachmentId::new(board.attachments[0].id))
                .new_attachment(CreateAttachment::bytes(png(1, 1), "extra.png")),
        )
        .await
        .expect("two files");
    let names: Vec<&str> = two
        .attachments
        .iter()
        .map(|a| a.filename.as_str())
        .collect();
    assert_eq!(names, ["board.png", "extra.png"]);
    let board = fake
        .message(FakeDiscord::CHANNEL_ID, board_id)
        .expect("the board message");
    assert_eq!(board.attachments[1].bytes, png(1, 1));
    assert_eq!(board.edits, 3);
}

async fn threads(fake: &FakeDiscord, bot: &Bot) {
    let (alice, channel) = (alice(), ChannelId::new(FakeDiscord::CHANNEL_ID));
    // A thread from the user's message (it gets the message's id), and a message in it.
    let start = fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "!thread", &[]);
    assert!(bot.wait_seen(fake, |s| sent_in(s, "thread")).await);
    let threads = fake.threads();
    assert_eq!(threads.len(), 1);
    assert_eq!(
        (threads[0].id, threads[0].parent, threads[0].name.as_str()),
        (start, FakeDiscord::CHANNEL_ID, "Game 1")
    );
    assert_eq!(threads[0].starter, Some(start));
    let in_thread = fake.messages(threads[0].id);
    assert_eq!(in_thread.len(), 1);
    assert_eq!(in_thread[0].content, "Game started");
    assert_eq!(bot.seen().threads, vec![start]);
    let created = format!("THREAD_CREATE {start}");
    assert!(bot.wait_seen(fake, |s| s.events.contains(&created)).await);
    let cached = bot
        .cache
        .guild(FakeDiscord::GUILD_ID)
        .map(|g| g.threads.len());
    assert_eq!(cached, Some(1));
    // A user writes in the thread: the event has the guild.
    fake.message_create(threads[0].id, &alice, "gg", &[]);
    assert!(
        bot.wait_seen(fake, |s| s.messages.iter().any(|m| m.1 == "gg"
            && m.0 == start
            && m.3 == Some(FakeDiscord::GUILD_ID)))
            .await
    );
    // A reply to the thread's starter (its `referenced_message` carries the `thread`).
    fake.message_reply(FakeDiscord::CHANNEL_ID, &alice, "nice", start);
    assert!(
        bot.wait_seen(fake, |s| s.messages.iter().any(|m| m.1 == "nice"))
            .await
    );
    // A thread without a message.
    let lobby = channel
        .create_thread(
            &bot.http,
            CreateThread::new("Lobby").kind(ChannelType::PublicThread),
        )
        .await
        .expect("create_thread");
    assert_eq!(lobby.kind, ChannelType::PublicThread);
    assert_eq!(fake.threads().len(), 2);
}

async fn direct_messages(fake: &FakeDiscord, bot: &Bot) {
    let alice = alice();
    // A DM channel, and a message in it.
    let dm = UserId::new(alice.id)
        .create_dm_channel(&bot.http)
        .await
        .expect("create_dm_channel");
    assert_eq!(dm.recipient.id.get(), alice.id);
    dm.id.say(&bot.http, "hello in private").await.expect("DM");
    assert_eq!(fake.dm_channel(&alice), dm.id.get());
    assert_eq!(fake.messages(dm.id.get())[0].content, "hello in private");
    fake.message_create(dm.id.get(), &alice, "hi bot", &[]);
    assert!(
        bot.wait_seen(fake, |s| s
            .messages
            .iter()
            .any(|m| m.1 == "hi bot" && m.3.is_none()))
            .await
    );
}

async fn deletes_and_errors(fake: &FakeDiscord, bot: &Bot, pong: u64) {
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);
    // A deleted message is gone.
    channel
        .delete_message(&bot.http, MessageId::new(pong))
        .await
        .expect("delete");
    assert!(fake.message(FakeDiscord::CHANNEL_ID, pong).is_none());
    let deleted = format!("MESSAGE_DELETE {pong}");
    assert!(bot.wait_seen(fake, |s| s.events.contains(&deleted)).await);

    // A channel added later arrives as CHANNEL_CREATE and lands in the cache.
    let lobby_channel = fake.add_text_channel("lobby");
    assert!(
        bot.wait_seen(fake, |s| s
            .events
            .iter()
            .any(|e| e == "CHANNEL_CREATE lobby"))
            .await
    );
    let cached = bot
        .cache
        .guild(FakeDiscord::GUILD_ID)
        .is_some_and(|g| g.channels.contains_key(&ChannelId::new(lobby_channel)));
    assert!(cached);

    // Discord's checks answer like Discord.
    let too_long = channel.say(&bot.http, "x".repeat(2001)).await;
    assert!(too_long.is_err(), "serenity itself refuses 2001 characters");
    let empty = bot
        .http
        .send_message(channel, Vec::new(), &json!({"content": ""}))
        .await
        .expect_err("empty");
    assert_eq!(discord_code(&empty), Some(50_006));
    let duplicate = CreateActionRow::Buttons(vec![
        CreateButton::new("x").label("1"),
        CreateButton::new("x").label("2"),
    ]);
    let err = channel
        .send_message(
            &bot.http,
            CreateMessage::new()
                .content("dup")
                .components(vec![duplicate]),
        )
        .await
        .expect_err("duplicate custom ids");
    assert_eq!(discord_code(&err), Some(50_035));
}

fn sent_in(s: &Seen, what: &str) -> bool {
    s.sent.iter().any(|(w, _, _)| w == what)
}

/// Discord's JSON error code of a failed REST call.
fn discord_code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

fn commands() -> Vec<CreateCommand> {
    vec![
        CreateCommand::new("challenge")
            .description("Challenge a player")
            .name_localized("ru", "вызов")
            .description_localized("ru", "Вызвать игрока")
            .add_option(
                CreateCommandOption::new(CommandOptionType::User, "opponent", "Who to play")
                    .required(true),
            )
            .add_option(
                CreateCommandOption::new(CommandOptionType::String, "variant", "Which game")
                    .add_string_choice("Corners", "corners")
                    .add_string_choice("Damas", "damas"),
            )
            .add_option(CreateCommandOption::new(
                CommandOptionType::Integer,
                "stake",
                "Points at stake",
            ))
            .add_option(CreateCommandOption::new(
                CommandOptionType::Boolean,
                "rated",
                "Rated game",
            ))
            .integration_types(vec![InstallationContext::Guild, InstallationContext::User])
            .contexts(vec![
                InteractionContext::Guild,
                InteractionContext::BotDm,
                InteractionContext::PrivateChannel,
            ]),
        CreateCommand::new("lang")
            .description("Choose a language")
            .add_option(
                CreateCommandOption::new(CommandOptionType::String, "code", "Language")
                    .required(true)
                    .set_autocomplete(true),
            ),
        CreateCommand::new("slow").description("Answered too late"),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_and_interactions() {
    let fake = FakeDiscord::start().await;
    let bot = connect(&fake, all_intents()).await;

    register_commands(&fake, &bot).await;
    slash_in_three_contexts(&fake, &bot).await;
    // Answered after Discord's 3 s: 404 "Unknown interaction" (started now, checked below).
    let slow = fake.slash_command(FakeDiscord::CHANNEL_ID, &bob(), "slow", &[], "en-US");

    answer_and_autocomplete(&fake, &bot).await;
    buttons(&fake, &bot).await;

    // The late answer.
    assert!(bot.wait_seen(&fake, |s| s.late.is_some()).await);
    assert_eq!(bot.seen().late, Some(LateAnswer::Refused(10_062)));
    let record = fake.interaction(slow).expect("/slow");
    assert_eq!((record.response_type, record.rejected_callbacks), (None, 1));
    assert!(!record.answered_within(Duration::from_secs(3)));

    bot.stop().await;
}

async fn register_commands(fake: &FakeDiscord, bot: &Bot) {
    // Global commands with localizations.
    let registered = Command::set_global_commands(&bot.http, commands())
        .await
        .expect("set_global_commands");
    assert_eq!(registered.len(), 3);
    let challenge = &registered[0];
    assert_eq!(
        challenge
            .name_localizations
            .as_ref()
            .and_then(|l| l.get("ru"))
            .map(String::as_str),
        Some("вызов")
    );
    assert_eq!(challenge.options.len(), 4);
    assert!(challenge.options[0].required);
    let stored = fake.commands();
    assert_eq!(stored.len(), 3);
    assert_eq!(
        (stored[0].guild, stored[0].name.as_str()),
        (None, "challenge")
    );
    assert_eq!(stored[0].id, challenge.id.get());
    assert_eq!(stored[0].description_localizations["ru"], "Вызвать игрока");
    assert_eq!(stored[0].integration_types, vec![0, 1]);
    assert_eq!(stored[0].contexts, Some(vec![0, 1, 2]));
    assert_eq!(stored[1].integration_types, vec![0], "Discord's default");
    // Registering again keeps the ids; GET lists them (localizations only when asked).
    let again = Command::set_global_commands(&bot.http, commands())
        .await
        .expect("again");
    assert_eq!(again[0].id, challenge.id);
    let listed = bot.http.get_global_commands().await.expect("get");
    assert!(listed[0].name_localizations.is_none());
    let listed = bot
        .http
        .get_global_commands_with_localizations()
        .await
        .expect("get with localizations");
    assert!(listed[0].name_localizations.is_some());
    // A locale Discord does not know is refused.
    let bad = CreateCommand::new("bad")
        .description("Bad locale")
        .name_localized("en", "bad");
    let err = Command::create_global_command(&bot.http, bad)
        .await
        .expect_err("the locale en");
    assert_eq!(discord_code(&err), Some(50_035));
    // A guild command.
    GuildId::new(FakeDiscord::GUILD_ID)
        .set_commands(
            &bot.http,
            vec![CreateCommand::new("admin").description("Guild only")],
        )
        .await
        .expect("guild commands");
    assert_eq!(
        fake.commands()
            .iter()
            .filter(|c| c.guild == Some(FakeDiscord::GUILD_ID))
            .count(),
        1
    );
}

async fn slash_in_three_contexts(fake: &FakeDiscord, bot: &Bot) {
    let (alice, bob) = (alice(), bob());
    // A slash command in the guild, deferred at once, then its response edited.
    let options = [
        ("opponent", OptionValue::User(bob.clone())),
        ("variant", OptionValue::String("damas".into())),
        ("stake", OptionValue::Integer(5)),
        ("rated", OptionValue::Boolean(true)),
    ];
    let started = Instant::now();
    let id = fake.slash_command(FakeDiscord::CHANNEL_ID, &alice, "challenge", &options, "ru");
    let done = |f: &FakeDiscord| {
        f.interaction(id)
            .and_then(|i| i.original)
            .is_some_and(|m| !m.loading)
    };
    assert!(fake.wait_until(WAIT, done).await);
    let record = fake.interaction(id).expect("the interaction");
    assert_eq!((record.kind, record.response_type), (2, Some(5)));
    assert!(record.answered_within(Duration::from_secs(3)));
    assert!(record.first_callback_at.expect("answered") < started + Duration::from_secs(3));
    let original = record.original.expect("the original response");
    assert_eq!(original.content, format!("Challenge sent to <@{}>", bob.id));
    assert_eq!((original.edits, original.ephemeral), (1, false));
    assert_eq!(original.interaction, Some(id));
    assert_eq!(original.json["type"], json!(20));
    {
        let seen = bot.seen();
        let c = &seen.commands[0];
        assert_eq!(c.name, "challenge");
        assert_eq!(
            (c.user, c.guild, c.member),
            (alice.id, Some(FakeDiscord::GUILD_ID), true)
        );
        assert_eq!(c.locale, "ru");
        assert_eq!(c.context, Some(InteractionContext::Guild));
        assert_eq!(
            (c.opponent, c.opponent_name.as_deref()),
            (Some(bob.id), Some("bob"))
        );
        assert_eq!(c.variant.as_deref(), Some("damas"));
        assert_eq!((c.stake, c.rated), (Some(5), Some(true)));
    }
    // The original response is in the channel (and came back through the gateway).
    assert_eq!(fake.messages(FakeDiscord::CHANNEL_ID).len(), 1);

    // The same command in the user's DM with the bot: `user`, no guild, context 1.
    let dm = fake.dm_channel(&alice);
    let in_dm = fake.slash_command(dm, &alice, "challenge", &options[..1], "en-US");
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(in_dm)
            .is_some_and(|i| i.original.is_some_and(|m| !m.loading)))
            .await
    );
    {
        let seen = bot.seen();
        let c = &seen.commands[1];
        assert_eq!((c.user, c.guild, c.member), (alice.id, None, false));
        assert_eq!(c.context, Some(InteractionContext::BotDm));
    }
    // In a DM between users, for a user who installed the app: context 2.
    fake.install_for_user(&alice);
    let private = fake.private_channel(&[&alice, &bob]);
    let in_private = fake.slash_command(private, &alice, "challenge", &options[..1], "en-US");
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(in_private)
            .is_some_and(|i| i.original.is_some_and(|m| !m.loading)))
            .await
    );
    assert_eq!(
        bot.seen().commands[2].context,
        Some(InteractionContext::PrivateChannel)
    );
}

async fn answer_and_autocomplete(fake: &FakeDiscord, bot: &Bot) {
    let alice = alice();
    // A direct answer (type 4), ephemeral.
    let code = [("code", OptionValue::String("ru".into()))];
    let lang = fake.slash_command(FakeDiscord::CHANNEL_ID, &alice, "lang", &code, "ru");
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(lang)
            .is_some_and(|i| i.original.is_some()))
            .await
    );
    let record = fake.interaction(lang).expect("/lang");
    assert_eq!(record.response_type, Some(4));
    assert!(record.ephemeral());
    let original = record.original.expect("the response");
    assert_eq!(
        (original.content.as_str(), original.edits),
        ("Language saved", 0)
    );

    // Autocomplete.
    let typing = [("code", OptionValue::Focused("ру".into()))];
    let ac = fake.autocomplete(FakeDiscord::CHANNEL_ID, &alice, "lang", &typing, "ru");
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(ac)
            .is_some_and(|i| i.response_type == Some(8)))
            .await
    );
    let choices = fake.interaction(ac).expect("autocomplete").choices;
    assert_eq!(choices[0], ("ру (Russian)".to_owned(), json!("ru")));
    assert_eq!(
        bot.seen().autocomplete,
        vec![("lang".to_owned(), "ру".to_owned())]
    );
}

async fn buttons(fake: &FakeDiscord, bot: &Bot) {
    let bob = bob();
    // A button on the bot's message: acknowledged, then an ephemeral follow-up.
    let channel = ChannelId::new(FakeDiscord::OTHER_CHANNEL_ID);
    let row = CreateActionRow::Buttons(vec![
        CreateButton::new("move:a1").label("A1"),
        CreateButton::new("resign").label("Resign"),
    ]);
    let board = CreateMessage::new()
        .content("Board")
        .add_file(CreateAttachment::bytes(png(2, 2), "board.png"))
        .components(vec![row]);
    let board = channel.send_message(&bot.http, board).await.expect("board");
    let press = fake.button(
        FakeDiscord::OTHER_CHANNEL_ID,
        &bob,
        board.id.get(),
        "move:a1",
    );
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(press)
            .is_some_and(|i| !i.followups.is_empty()))
            .await
    );
    let record = fake.interaction(press).expect("the press");
    assert_eq!((record.kind, record.response_type), (3, Some(6)));
    assert!(record.answered_within(Duration::from_secs(3)));
    assert_eq!(record.original.map(|m| m.id), Some(board.id.get()));
    let followup = &record.followups[0];
    assert!(followup.ephemeral);
    assert_eq!(followup.content, "You pressed move:a1");
    assert_eq!(
        bot.seen().components,
        vec![("move:a1".to_owned(), board.id.get(), bob.id)]
    );
    // An ephemeral message is not visible through the channel.
    let hidden = channel
        .message(&bot.http, MessageId::new(followup.id))
        .await
        .expect_err("ephemeral");
    assert_eq!(discord_code(&hidden), Some(10_008));
    // A second answer to the same interaction is refused, as on Discord.
    let token = fake
        .events()
        .iter()
        .find(|(name, d)| {
            name == "INTERACTION_CREATE" && d["id"].as_str() == Some(press.to_string().as_str())
        })
        .map(|(_, d)| d["token"].as_str().unwrap_or_default().to_owned())
        .expect("the token");
    let twice = bot
        .http
        .create_interaction_response(
            InteractionId::new(press),
            &token,
            &CreateInteractionResponse::Acknowledge,
            Vec::new(),
        )
        .await
        .expect_err("twice");
    assert_eq!(discord_code(&twice), Some(40_060));
    // The follow-up through the webhook routes: read the original, edit, delete.
    let original = bot
        .http
        .get_original_interaction_response(&token)
        .await
        .expect("@original");
    assert_eq!(original.id, board.id);
    let moved = bot
        .http
        .edit_followup_message(
            &token,
            MessageId::new(followup.id),
            &json!({"content": "Moved"}),
            Vec::new(),
        )
        .await
        .expect("edit follow-up");
    assert_eq!(moved.content, "Moved");
    bot.http
        .delete_followup_message(&token, MessageId::new(followup.id))
        .await
        .expect("delete follow-up");
    let record = fake.interaction(press).expect("the press");
    assert!(record.followups.is_empty());

    select_menu(fake, bot).await;
    resign(fake, bot, board.id.get()).await;
}

async fn select_menu(fake: &FakeDiscord, bot: &Bot) {
    let (alice, channel) = (alice(), ChannelId::new(FakeDiscord::OTHER_CHANNEL_ID));
    // A string select menu.
    let menu = CreateSelectMenu::new(
        "variant",
        CreateSelectMenuKind::String {
            options: vec![
                CreateSelectMenuOption::new("Corners", "corners"),
                CreateSelectMenuOption::new("Damas", "damas"),
            ],
        },
    );
    let pick = CreateMessage::new()
        .content("Pick a game")
        .components(vec![CreateActionRow::SelectMenu(menu)]);
    let pick = channel.send_message(&bot.http, pick).await.expect("menu");
    let picked = fake.select(
        FakeDiscord::OTHER_CHANNEL_ID,
        &alice,
        pick.id.get(),
        "variant",
        &["damas"],
    );
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(picked)
            .is_some_and(|i| !i.followups.is_empty()))
            .await
    );
    assert!(bot
        .seen()
        .components
        .contains(&("variant".to_owned(), pick.id.get(), alice.id)));
}

async fn resign(fake: &FakeDiscord, bot: &Bot, board: u64) {
    let alice = alice();
    // "Resign": the message is updated in place (type 7) and loses its buttons. serenity's
    // `CreateInteractionResponseMessage` always sends `attachments: []`, which (as in an edit)
    // drops the message's attachments.
    let resign = fake.button(FakeDiscord::OTHER_CHANNEL_ID, &alice, board, "resign");
    assert!(
        fake.wait_until(WAIT, |f| f
            .interaction(resign)
            .is_some_and(|i| i.response_type.is_some()))
            .await
    );
    let record = fake.interaction(resign).expect("resign");
    assert_eq!(record.response_type, Some(7));
    let updated = record.original.expect("the board");
    assert_eq!(updated.id, board);
    assert_eq!((updated.content.as_str(), updated.edits), ("Resigned", 1));
    assert!(updated.components.is_empty() && updated.attachments.is_empty());
    let callback = fake
        .calls()
        .into_iter()
        .rfind(|c| c.route == "interaction_callback")
        .expect("the callback");
    assert_eq!(callback.body["type"], json!(7));
    assert_eq!(callback.body["data"]["attachments"], json!([]));
    assert!(bot.seen().components.iter().any(|c| c.0 == "resign"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn injected_failures_surface_without_retry() {
    let fake = FakeDiscord::start().await;
    let bot = connect(&fake, all_intents()).await;
    let channel = ChannelId::new(FakeDiscord::CHANNEL_ID);

    // 429: with its ratelimiter disabled (needed for the proxy), serenity does not retry; the
    // error carries the status, but not Discord's `retry_after` (the body has no `code`, so
    // serenity reports its own decoding message with code -1).
    fake.fail_next(
        1,
        &["create_message"],
        Failure::TooManyRequests {
            retry_after_ms: 500,
        },
    );
    let started = Instant::now();
    let err = channel.say(&bot.http, "one").await.expect_err("429");
    assert!(started.elapsed() < SECOND, "no wait for retry_after");
    let serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(response.status_code.as_u16(), 429);
    assert_eq!(response.error.code, -1);
    let calls: Vec<_> = fake
        .calls()
        .into_iter()
        .filter(|c| c.route == "create_message")
        .collect();
    assert_eq!(calls.len(), 1, "no retry");
    assert!(calls[0].failed);
    assert_eq!(calls[0].status, 429);
    assert!(fake.messages(FakeDiscord::CHANNEL_ID).is_empty());
    // The bot's own retry goes through.
    channel.say(&bot.http, "one").await.expect("retry");
    assert_eq!(fake.messages(FakeDiscord::CHANNEL_ID).len(), 1);

    // 429 headers and body, as Discord sends them.
    fake.fail_next(
        1,
        &["get_channel"],
        Failure::TooManyRequests {
            retry_after_ms: 1500,
        },
    );
    let path = format!("/api/v10/channels/{}", FakeDiscord::CHANNEL_ID);
    let (status, headers, body) = raw_get(&fake, &path, true).await;
    assert_eq!(status, 429);
    let header = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    assert_eq!(header("retry-after").as_deref(), Some("2"));
    assert_eq!(header("x-ratelimit-remaining").as_deref(), Some("0"));
    assert_eq!(header("x-ratelimit-reset-after").as_deref(), Some("1.500"));
    assert_eq!(header("x-ratelimit-scope").as_deref(), Some("user"));
    let body: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(
        body,
        json!({"message": "You are being rate limited.", "retry_after": 1.5, "global": false})
    );

    // 500: also surfaced at once.
    fake.fail_next(2, &[], Failure::ServerError);
    let err = channel.say(&bot.http, "two").await.expect_err("500");
    assert_eq!(discord_code(&err), Some(0));
    let err = bot.http.get_current_user().await.expect_err("500");
    let serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(response.status_code.as_u16(), 500);
    bot.http.get_current_user().await.expect("rules used up");

    // An unknown token is refused.
    let stranger = HttpBuilder::new("wrong")
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    let err = stranger.get_current_user().await.expect_err("401");
    assert_eq!(err_status(&err), Some(401));

    bot.stop().await;
}

/// A plain HTTP/1.1 GET on the fake: status, headers, body.
async fn raw_get(
    fake: &FakeDiscord,
    path: &str,
    auth: bool,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut stream = tokio::net::TcpStream::connect(fake.addr())
        .await
        .expect("connect");
    let mut request = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
        fake.addr()
    );
    if auth {
        let _ = write!(request, "Authorization: Bot {}\r\n", FakeDiscord::TOKEN);
    }
    request += "\r\n";
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut raw))
        .await
        .expect("in time")
        .expect("read");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header block");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    (status, headers, raw[split + 4..].to_vec())
}

fn err_status(e: &serenity::Error) -> Option<u16> {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => Some(r.status_code.as_u16()),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disconnect_resumes_and_replays_once() {
    let fake = FakeDiscord::start().await;
    let bot = connect(&fake, all_intents()).await;
    let alice = alice();
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "before", &[]);
    assert!(
        bot.wait_seen(&fake, |s| s.messages.iter().any(|m| m.1 == "before"))
            .await
    );

    assert!(fake.disconnect());
    assert!(!fake.connected());
    // Dispatched while the shard is away: kept and replayed on RESUME.
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "while away", &[]);
    assert!(
        fake.wait_until(WAIT, |f| f.resume_count() == 1 && f.connected())
            .await
    );
    assert!(bot.wait_seen(&fake, |s| s.resumed == 1).await);
    assert!(
        bot.wait_seen(&fake, |s| s.messages.iter().any(|m| m.1 == "while away"))
            .await
    );
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "after", &[]);
    assert!(
        bot.wait_seen(&fake, |s| s.messages.iter().any(|m| m.1 == "after"))
            .await
    );
    // A few heartbeats later: each message arrived exactly once, and no new IDENTIFY.
    let beats = fake.heartbeat_count();
    assert!(
        fake.wait_until(3 * SECOND, |f| f.heartbeat_count() >= beats + 2)
            .await
    );
    {
        let seen = bot.seen();
        for text in ["before", "while away", "after"] {
            let n = seen.messages.iter().filter(|m| m.1 == text).count();
            assert_eq!(n, 1, "{text}");
        }
        assert_eq!(seen.ready.len(), 1);
    }
    assert_eq!((fake.identify_count(), fake.resume_count()), (1, 1));
    assert_eq!(fake.invalid_session_count(), 0);

    // A second disconnection resumes again.
    assert!(fake.disconnect());
    assert!(
        fake.wait_until(WAIT, |f| f.resume_count() == 2 && f.connected())
            .await
    );
    assert_eq!(fake.identify_count(), 1);

    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn message_content_needs_the_intent() {
    let fake = FakeDiscord::start().await;
    let intents = GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES;
    let bot = connect(&fake, intents).await;
    let alice = alice();
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "secret", &[]);
    let mention = format!("<@{}> play", FakeDiscord::BOT_ID);
    fake.message_create(
        FakeDiscord::CHANNEL_ID,
        &alice,
        &mention,
        &[&FakeDiscord::bot_user()],
    );
    assert!(bot.wait_seen(&fake, |s| s.messages.len() == 2).await);
    // serenity runs each event's handler in a task of its own: the order may differ.
    let mut contents: Vec<String> = bot.seen().messages.iter().map(|m| m.1.clone()).collect();
    contents.sort();
    assert_eq!(contents, vec![String::new(), mention]);
    // Without DIRECT_MESSAGES, DMs do not arrive at all.
    let dm = fake.dm_channel(&alice);
    fake.message_create(dm, &alice, "psst", &[]);
    fake.message_create(FakeDiscord::CHANNEL_ID, &alice, "last", &[]);
    assert!(bot.wait_seen(&fake, |s| s.messages.len() == 3).await);
    assert!(bot.seen().messages.iter().all(|m| m.0 != dm));
    bot.stop().await;
}
