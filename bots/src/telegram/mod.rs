//! The Telegram adapter: updates in, replies out, with Telegram's conventions (commands with
//! `@botname`, inline buttons, alerts for button presses, edited boards, flood limits,
//! update offsets). Every game decision is the table's.
//!
//! Updates are read by long polling (`getUpdates`), or by a webhook (`--webhook URL
//! --listen ADDR`), and handled in lanes: one chat's in order, different chats' at once.
//! The update offset never passes an update still being handled, so a restart never
//! skips one (and the table ignores a message id it has seen).

mod incoming;
mod inline;
mod surface;

pub use surface::Limits;
pub use ugolki_core::table::inline::MAX_EXTRA_PICTURES;

use crate::lanes::{InFlight, Lanes};
use crate::observe::Health;
use crate::outbox::direct_lines as alerts;
use crate::service::{briefly, patiently, serve_posts, take_role};
use crate::service::{Service, Start};
use crate::setup::telegram as setup;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
pub(crate) use surface::classify;
use surface::Telegram;
use teloxide::payloads::{
    AnswerCallbackQuerySetters, GetUpdatesSetters, SetMyCommandsSetters, SetWebhookSetters,
};
use teloxide::prelude::Requester;
use teloxide::types::{AllowedUpdate, BotCommand, Update, UpdateKind};
use teloxide::Bot;
use ugolki_core::table::{command, Config, Platform, Table};
use ugolki_core::words::{render, Lang, Msg};

/// Where the update offset is kept across restarts.
const OFFSET_KEY: &str = "telegram_offset";
/// Seconds a `getUpdates` long poll waits (teloxide's client gives a request 17 s).
const POLL_SECONDS: u32 = 10;
/// The most updates `getUpdates` gives at once (its default `limit`).
const BATCH_LIMIT: usize = 100;
/// How soon to ask again while every update Telegram holds is still being handled.
const BUSY_POLL: Duration = Duration::from_millis(20);
/// The updates the bot takes: messages, presses, inline mode's queries and choices, and
/// changes of the bot's own membership.
const UPDATES: [AllowedUpdate; 5] = [
    AllowedUpdate::Message,
    AllowedUpdate::CallbackQuery,
    AllowedUpdate::InlineQuery,
    AllowedUpdate::ChosenInlineResult,
    // The bot removed from a group or blocked in a private chat.
    AllowedUpdate::MyChatMember,
];

/// Store the update offset `to`, if it is not what `stored` says is stored.
async fn store_offset(store: &ugolki_core::store::Store, stored: &mut i64, to: i64) {
    if to != *stored {
        match store.set_counter(OFFSET_KEY, to).await {
            Ok(()) => *stored = to,
            Err(e) => tracing::error!(error = %e, "update offset not stored"),
        }
    }
}

/// How to run the bot.
pub struct Options {
    pub token: String,
    /// The Bot API base URL (`TELOXIDE_API_URL`); Telegram's when `None`.
    pub api_url: Option<String>,
    pub database_url: String,
    /// Webhook mode: Telegram posts updates to `url`, served on `listen`.
    pub webhook: Option<(url::Url, SocketAddr)>,
    /// Webhook mode: the secret Telegram sends with each update
    /// (`TELEGRAM_WEBHOOK_SECRET`). Several workers behind one URL must share it; without
    /// it, each start makes one of its own.
    pub webhook_secret: Option<String>,
    /// `--metrics ADDR`: serve `/health` and `/metrics` there.
    pub metrics: Option<SocketAddr>,
    pub limits: Limits,
    /// Inline mode: chats the bot may post board pictures to (`TELEGRAM_INLINE_CHATS`),
    /// because an inline message's photo can only become a file already on Telegram.
    /// Empty: inline queries are answered with a way to a private chat instead.
    pub inline_chats: Vec<i64>,
    /// `--web ADDR`: serve the public pages there.
    pub web: Option<crate::web::Pages>,
}

/// The running bot's parts.
struct Running {
    bot: Bot,
    /// Updates being handled, a lane per chat.
    lanes: Arc<Lanes<incoming::Lane>>,
    table: Arc<Table>,
    surface: Arc<Telegram>,
    health: Health,
}

/// Where a webhook secret may come from: 1 to 256 of `A-Z a-z 0-9 _ -` (Telegram's rule).
pub(crate) fn valid_secret(s: &str) -> bool {
    (1..=256).contains(&s.len())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
}

/// The client's menu in English for everyone, and in each language the bot speaks for the
/// clients set to it.
async fn set_menu(bot: &Bot) -> Result<(), String> {
    for lang in Lang::all() {
        let line = |c: &str| render(&Msg::CommandHelp { command: c.into() }, lang);
        let menu: Vec<BotCommand> = command::MENU
            .iter()
            .map(|c| BotCommand::new(*c, line(c)))
            .collect();
        patiently("setMyCommands", classify, || {
            let req = bot.set_my_commands(menu.clone());
            if lang == Lang::EN {
                req
            } else {
                req.language_code(lang.code())
            }
        })
        .await?;
    }
    Ok(())
}

/// Where boards open as the Mini App, from the pages' address and `--mini-app`; an operator
/// whose pages are not on https is told why no board gets the button.
fn board_links(options: &Options, username: &str) -> surface::BoardLinks {
    let pages = options.web.as_ref();
    if let Some(p) = pages.filter(|p| !p.url.starts_with("https://")) {
        // Telegram opens Mini Apps over HTTPS only: no button to one is offered.
        tracing::warn!(
            url = %p.url,
            "the pages are not at an https:// address (--web-url): boards get no Open the board button"
        );
    }
    surface::BoardLinks::new(
        pages.map(|p| p.url.as_str()),
        username,
        pages.and_then(|p| p.mini_app.as_deref()),
    )
}

/// Run the bot until `shutdown` resolves; then stop taking updates, give queued replies ten
/// seconds to go out, and return with every task stopped (the database is free again).
pub async fn run(
    options: Options,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let mut bot = Bot::new(options.token.clone());
    if let Some(url) = &options.api_url {
        let url = url::Url::parse(url).map_err(|e| format!("TELOXIDE_API_URL: {e}"))?;
        bot = bot.set_api_url(url);
    }
    if let Some((url, _)) = &options.webhook {
        if let Some(why) = setup::webhook_refusal(url) {
            return Err(format!("--webhook {url}: {why}"));
        }
    }
    let me = patiently("getMe", setup::classify_start, || bot.get_me())
        .await
        .map_err(|e| setup::refused_token(&e).unwrap_or(e))?;
    let username = me.username.clone().unwrap_or_default();
    if let Some(secret) = &options.webhook_secret {
        if !valid_secret(secret) {
            return Err(setup::SECRET_RULE.into());
        }
    }
    let mut service = Service::start(Start {
        database_url: &options.database_url,
        config: Config {
            bot_name: Some(username.clone()),
            group_reading: setup::privacy_mode(&me),
            ..Config::default()
        },
        metrics: options.metrics,
        // The Mini App's readers sign with what the token signs.
        web: options.web.clone().map(|mut pages| {
            pages.telegram_token = Some(options.token.clone());
            pages
        }),
        platform: "telegram",
        timers: true,
    })
    .await?;
    // getMe answered: the Bot API is reachable.
    service.health.platform_up(true);
    let table = service.table.clone();
    let links = board_links(&options, &username);
    let surface = Arc::new(
        Telegram::new(bot.clone(), options.limits, options.inline_chats.clone()).with_links(links),
    );
    let outbox = service.deliver(surface.clone());
    if !options.inline_chats.is_empty() && !me.supports_inline_queries {
        tracing::warn!(
            "inline chats are set but inline mode is off: turn it on with BotFather's \
             /setinline (and /setinlinefeedback, for every chosen result)"
        );
    }
    set_menu(&bot).await?;
    let b = Arc::new(Running {
        bot: bot.clone(),
        lanes: Lanes::new(),
        table: table.clone(),
        surface: surface.clone(),
        health: service.health.clone(),
    });
    // The cards' start pictures, stored ahead of the first inline query.
    let pictures = surface.has_picture_store().then(|| {
        let s = surface.clone();
        tokio::spawn(async move { s.store_start_pictures().await })
    });
    tracing::info!(bot = %username, "telegram bot running");
    // A token refused while running (revoked in BotFather) ends the process as at the start.
    let stopped = {
        let outbox = outbox.clone();
        async move {
            tokio::select! {
                () = shutdown => {}
                () = outbox.token_refused() => {}
            }
        }
    };
    let result = match options.webhook {
        None => b.poll(me.id.0, stopped).await,
        Some((url, listen)) => {
            b.serve_webhook(url, listen, options.webhook_secret, stopped)
                .await
        }
    };
    let result = match result {
        Ok(()) if outbox.is_refused() => Err(setup::TOKEN_REFUSED.to_string()),
        other => other.map_err(|e| setup::refused_token(&e).unwrap_or(e)),
    };
    if let Some(p) = pictures {
        p.abort();
    }
    service.finish(outbox.is_refused()).await;
    result
}

impl Running {
    /// Long polling. Each update goes to its chat's lane ([`Lanes`]): a chat's updates are
    /// handled in order, different chats' at once, so a slow one holds up its own chat
    /// only. The offset asked with (which makes Telegram forget what is before it) and the
    /// one stored never pass an update still being handled: a restart reads it again, and
    /// the table ignores what it has seen. The Bot API serves one poller per bot: with
    /// several processes on one database, one polls and the others stand by (firing timers
    /// and sending what they fire) until it stops.
    async fn poll(
        self: &Arc<Self>,
        bot_id: u64,
        shutdown: impl std::future::Future<Output = ()>,
    ) -> Result<(), String> {
        tokio::pin!(shutdown);
        let store = self.table.store();
        let role = format!("telegram-poller:{bot_id}");
        let Some(_role) = take_role(&self.table, &role, &mut shutdown).await? else {
            return Ok(());
        };
        // Polling and a webhook exclude each other; pending updates are kept.
        patiently("deleteWebhook", setup::classify_start, || {
            self.bot.delete_webhook()
        })
        .await?;
        let mut stored = store
            .counter(OFFSET_KEY)
            .await
            .map_err(|e| e.to_string())?
            .unwrap_or(0);
        // Updates before `next` have gone to their lanes; those in `handling` not done yet.
        let mut next = stored;
        let handling = Arc::new(InFlight::default());
        // The lowest offset to ask with (see the full batch below).
        let mut floor = 0;
        let mut wait = Duration::from_millis(500);
        let result = loop {
            let oldest = handling.first().unwrap_or(next);
            store_offset(store, &mut stored, oldest).await;
            let confirm = oldest.max(floor);
            let request = self
                .bot
                .get_updates()
                .offset(i32::try_from(confirm).unwrap_or(0))
                .timeout(POLL_SECONDS)
                .allowed_updates(UPDATES);
            let updates = tokio::select! {
                () = &mut shutdown => break Ok(()),
                r = std::future::IntoFuture::into_future(request) => r,
            };
            match updates {
                Ok(updates) => {
                    self.health.platform_up(true);
                    wait = Duration::from_millis(500);
                    let full = updates.len() >= BATCH_LIMIT;
                    let fresh: Vec<Update> = updates
                        .into_iter()
                        .filter(|u| i64::from(u.id.0) >= next)
                        .collect();
                    if fresh.is_empty() && confirm < next && full {
                        // A whole batch still being handled (one chat's long queue behind a
                        // slow update): asked from its start, Telegram would never show the
                        // updates after it, and every other chat would wait. Ask past them:
                        // they wait in their lanes, and only a crash before they are done
                        // loses them (Telegram forgets them; the stored offset still names
                        // the oldest).
                        floor = next;
                        continue;
                    }
                    if fresh.is_empty() && confirm < next {
                        // Telegram answers at once with the updates still being handled:
                        // ask again once the oldest is done, or after a little (new updates
                        // of other chats come after those).
                        tokio::select! {
                            () = &mut shutdown => break Ok(()),
                            () = handling.past(oldest, BUSY_POLL) => {}
                        }
                        continue;
                    }
                    for u in fresh {
                        let id = i64::from(u.id.0);
                        next = id + 1;
                        let (me, done) = (self.clone(), handling.start(id));
                        self.lanes.push(incoming::lane(&u), async move {
                            Box::pin(me.handle(u)).await;
                            drop(done);
                        });
                    }
                }
                Err(teloxide::RequestError::RetryAfter(s)) => {
                    tokio::time::sleep(s.duration()).await;
                }
                Err(teloxide::RequestError::Api(teloxide::ApiError::InvalidToken)) => {
                    break Err(setup::TOKEN_REFUSED.into());
                }
                Err(teloxide::RequestError::Api(
                    teloxide::ApiError::TerminatedByOtherGetUpdates,
                )) => {
                    self.health.platform_up(false);
                    tracing::error!(
                        "another process reads this bot's updates (409 Conflict): the Bot API \
                         serves one poller per bot. Stop the other, or give both one database \
                         (they then take turns)"
                    );
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(30));
                }
                Err(e) => {
                    self.health.platform_up(false);
                    tracing::warn!(error = %e, "getUpdates failed; trying again");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(30));
                }
            }
        };
        // What is being handled is finished (for a while), and the offset stored past it.
        if tokio::time::timeout(Duration::from_secs(10), self.lanes.idle())
            .await
            .is_err()
        {
            tracing::warn!("updates still being handled at the stop: read again at the start");
        }
        store_offset(store, &mut stored, handling.first().unwrap_or(next)).await;
        result
    }

    /// One update, handled to the end (its replies queued, a press answered).
    async fn handle(&self, u: Update) {
        match &u.kind {
            UpdateKind::Message(m) => {
                // How far down the chat's boards are now (a board near the bottom is
                // edited in place).
                self.surface.note_message(m.chat.id, m.id);
                if let Some((from, to)) = incoming::migration(m) {
                    let (old, new) = (from.to_string(), to.to_string());
                    self.table.chat_moved(Platform::Telegram, &old, &new).await;
                    return;
                }
                let Some(mut msg) = incoming::message(m) else {
                    return;
                };
                // `/lang` in a group sets the chat's language when an admin says it, and
                // only admins make, start or cancel a group's tournament.
                if msg.origin.group_admin.is_some() && self.table.asks_admin(&msg) {
                    if let Some(from) = &m.from {
                        let member = self.bot.get_chat_member(m.chat.id, from.id).await;
                        msg.origin.group_admin = Some(member.is_ok_and(|c| c.is_privileged()));
                    }
                }
                // Its replies are in the outbox, sent from there.
                self.table.handle(&msg).await;
            }
            UpdateKind::CallbackQuery(q) => self.press(q).await,
            UpdateKind::InlineQuery(q) => self.inline_query(q).await,
            UpdateKind::ChosenInlineResult(r) => self.chosen(r).await,
            UpdateKind::MyChatMember(m) if !m.new_chat_member.is_present() => {
                // Removed from the group, or blocked: its games and challenges close.
                let at = m.date.timestamp_millis() + 999;
                // (A group closes with its topics.)
                let chat = incoming::chat_of(m.chat.id.0);
                self.table.chat_gone(&chat, Some(at)).await;
            }
            _ => {}
        }
    }

    /// A button press: what is for the presser alone is the press's alert; the rest is in
    /// the outbox. Every press is answered, silently when there is nothing to say.
    async fn press(&self, q: &teloxide::types::CallbackQuery) {
        let mut alert: Vec<String> = Vec::new();
        if q.data
            .as_deref()
            .is_some_and(ugolki_core::table::card_data::is_card)
        {
            // A card pressed before its chosen result has made the challenge.
            alert.extend(self.card_pressed(q).await);
        } else if let Some(msg) = incoming::press(q) {
            alert.extend(alerts(&self.table.handle(&msg).await));
        } else {
            // Not a button of this version's: said in the presser's language, as the table would.
            let lang = self.table.lang_for(&incoming::pressed_where(q)).await;
            alert.push(render(&Msg::ButtonStale, lang));
        }
        let text = alert.join("\n");
        let id = q.id.clone();
        let r = briefly(classify, || {
            let req = self.bot.answer_callback_query(id.clone());
            if text.is_empty() {
                req
            } else {
                // Telegram shows at most 200 characters in an alert.
                req.text(text.chars().take(200).collect::<String>())
                    .show_alert(true)
            }
        })
        .await;
        if let Err(e) = r {
            tracing::warn!(error = %e, "button press not answered");
        }
    }

    /// Webhook mode: Telegram posts each update; it is handled before the answer, so a
    /// failure makes Telegram send it again (and the table ignores what it has seen).
    async fn serve_webhook(
        self: &Arc<Self>,
        url: url::Url,
        listen: SocketAddr,
        secret: Option<String>,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), String> {
        // A secret only Telegram and the bot know: posts without it are refused. Workers
        // behind one URL share the operator's; a lone worker makes one of its own.
        let secret = match secret {
            Some(s) => s,
            None => crate::service::random_secret()?,
        };
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
        patiently("setWebhook", setup::classify_start, || {
            self.bot
                .set_webhook(url.clone())
                .secret_token(secret.clone())
                .allowed_updates(UPDATES)
        })
        .await?;
        tracing::info!(%listen, "webhook listening");
        let me = self.clone();
        let take = move |body: axum::body::Bytes| {
            let me = me.clone();
            async move {
                let Ok(u) = serde_json::from_slice::<Update>(&body) else {
                    return false;
                };
                // In its chat's lane, as polled updates are: Telegram may push a chat's
                // updates over several connections at once.
                let (done, handled) = tokio::sync::oneshot::channel();
                let lane = incoming::lane(&u);
                let handler = me.clone();
                me.lanes.push(lane, async move {
                    Box::pin(handler.handle(u)).await;
                    let _ = done.send(());
                });
                handled.await.is_ok()
            }
        };
        let header = "x-telegram-bot-api-secret-token";
        serve_posts(listener, url.path(), (header, secret), take, shutdown).await
    }
}
