//! The public pages, served with `--web ADDR`: read-only, no sign-in, HTML made on the
//! server that works without JavaScript.
//!
//! - `/g/<game>`: the board (a PNG of any ply, stepped through with links), the players,
//!   the terms, the status line of the ply shown and the result, the move list, and while the game runs a page
//!   that reloads itself; `?ply=N` shows the board after N plies, `?lang=xx` the words in
//!   another language (else the browser's `Accept-Language`).
//! - `/g/<game>/board.png?ply=N`, `/g/<game>/record.pdn`, `/g/<game>/replay.gif`.
//! - `/g/<game>/events`: server-sent events as the game changes (see `live.rs`).
//! - `/g/<game>/moves.json`: the legal moves now, for a board a player clicks.
//! - `/app/g/<game>`: that board (the Telegram Mini App's page; see `app.rs`), whose
//!   players move (`POST /api/g/<game>/move`) and act (`POST /api/g/<game>/act`: resign,
//!   the draw offer's answers, abort) signed by Telegram or seated by the console.
//! - `/app/in/<code>`: a console player's one-time sign-in link (see `seats.rs`).
//! - `/top` (and `/`): every kind's leaderboard over the whole bot, all time and this month.
//! - `/p/<player>`: a player's ratings with their charts (`/p/<player>/chart.png?kind=…`)
//!   and their newest games of groups.
//!
//! Only the table's public view of a game is shown ([`Table::public_game`]): names as the
//! chat shows them, never a chat or platform id; games of private chats are not public.

mod app;
pub mod discord_auth;
mod limits;
mod live;
mod page;
pub mod seats;
pub mod telegram_auth;

pub use limits::{PER_PLAYER, PER_WINDOW, WINDOW};
pub use live::{ALL as STREAMS, PER_GAME as STREAMS_PER_GAME};

use axum::extract::ConnectInfo;
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::sync::Arc;
use ugolki_core::rating::RatingKind;
use ugolki_core::table::command::Command;
use ugolki_core::table::public::PublicGame;
use ugolki_core::table::{
    Action, ChatKind, ChatRef, Incoming, Input, Origin, Picture, PictureView, Platform,
    StandingsSpec, Table, User,
};
use ugolki_core::words::{render, Lang, Msg};
use ugolki_render::{Renderer, Scene};

/// `--web ADDR [--web-url URL]`: where the pages are served, and where readers reach them.
#[derive(Clone)]
pub struct Pages {
    pub listen: SocketAddr,
    /// The address readers use, as the chat's links give it (behind a proxy: `https://…`).
    pub url: String,
    /// The Telegram bot's token, which signs its Mini App readers' `initData` (set by the
    /// Telegram adapter): with it, those readers may move in their games.
    pub telegram_token: Option<String>,
    /// The console's players' seats (set by the console), signed in by the links it prints.
    pub seats: Option<Arc<seats::Seats>>,
    /// The Telegram Mini App's short name (`--mini-app`, from `BotFather`'s `/newapp`): group
    /// boards link to `t.me/<bot>/<name>?startapp=<game>`.
    pub mini_app: Option<String>,
    /// The Discord application whose Activity's readers sign in here (set by the Discord
    /// adapter given `DISCORD_CLIENT_SECRET`).
    pub discord: Option<Arc<discord_auth::DiscordApp>>,
}

/// Who may vouch for a reader of the pages who acts in a game.
#[derive(Clone, Default)]
pub struct Signers {
    /// The Telegram bot's token: it signs its Mini App readers' `initData`.
    pub telegram_token: Option<String>,
    /// The console's seats.
    pub seats: Option<Arc<seats::Seats>>,
    /// The Discord application: it vouches for its Activity's readers (`OAuth2`).
    pub discord: Option<Arc<discord_auth::DiscordApp>>,
}

/// Never the token.
impl std::fmt::Debug for Pages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pages")
            .field("listen", &self.listen)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl Pages {
    /// Served on `listen`, read there (`http://`) unless `url` says otherwise: an `http` or
    /// `https` URL, or why not.
    pub fn new(listen: SocketAddr, url: Option<&str>) -> Result<Pages, String> {
        let url = match url {
            None => format!("http://{listen}"),
            Some(u) => {
                let parsed = url::Url::parse(u).map_err(|e| format!("--web-url {u}: {e}"))?;
                if !matches!(parsed.scheme(), "http" | "https") || parsed.host().is_none() {
                    return Err(format!("--web-url {u}: an http:// or https:// address"));
                }
                parsed.as_str().trim_end_matches('/').to_string()
            }
        };
        Ok(Pages {
            listen,
            url,
            telegram_token: None,
            seats: None,
            mini_app: None,
            discord: None,
        })
    }
}

/// How often a running game's page reloads itself.
pub const RELOAD_SECONDS: i64 = 5;

/// What the pages draw with: the renderers, prepared once; and what bounds their use.
struct Web {
    table: Arc<Table>,
    boards: Arc<Renderer>,
    replays: Arc<Renderer>,
    budget: limits::PerAddress,
    drawing: tokio::sync::Semaphore,
    watching: Arc<live::Watching>,
    signers: Signers,
    /// The seats of this process: the console's, or the Mini App readers' own.
    seats: Arc<seats::Seats>,
}

/// The pages' server, running: [`Server::stop`] ends it and every connection it holds.
pub struct Server {
    task: tokio::task::JoinHandle<()>,
    watching: Arc<live::Watching>,
    closing: tokio::sync::watch::Sender<bool>,
}

/// How long a stopping server waits for its connections' answers to finish.
const STOP_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

impl Server {
    /// Stop taking connections, end the live streams, and wait (at most [`STOP_GRACE`])
    /// for the answers under way: after this no task of the server holds the table, so
    /// the process's store (and a `SQLite` file's lock) goes with its last other holder.
    pub async fn stop(mut self) {
        self.close();
        if tokio::time::timeout(STOP_GRACE, &mut self.task)
            .await
            .is_err()
        {
            tracing::warn!("public pages: connections still open at the stop, cut");
            self.task.abort();
        }
    }

    /// Stop at once, connections and all as they stand (a test's end).
    pub fn abort(&self) {
        self.close();
        self.task.abort();
    }

    /// No new connection, and every live stream ended.
    fn close(&self) {
        self.closing.send_replace(true);
        self.watching.close();
    }
}

/// Serve the public pages on `addr` until stopped.
pub async fn serve(addr: SocketAddr, table: Arc<Table>) -> Result<Server, String> {
    serve_signed(addr, table, Signers::default()).await
}

/// [`serve`], and the moves and actions of the readers `signers` vouch for
/// (`POST /api/g/<game>/move`, `/act`).
pub async fn serve_signed(
    addr: SocketAddr,
    table: Arc<Table>,
    signers: Signers,
) -> Result<Server, String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("--web: cannot listen on {addr}: {e}"))?;
    let web = Arc::new(Web {
        seats: signers.seats.clone().unwrap_or_default(),
        signers,
        watching: live::Watching::new(table.clone()),
        table,
        boards: Arc::new(Renderer::default()),
        replays: Arc::new(Renderer::for_replays()),
        budget: limits::PerAddress::new(limits::PER_WINDOW, limits::PER_PLAYER, limits::WINDOW),
        drawing: tokio::sync::Semaphore::new(limits::DRAWING),
    });
    let watching = web.watching.clone();
    let pages = web.clone();
    let route = move |ConnectInfo(peer): ConnectInfo<SocketAddr>, uri: Uri, headers: HeaderMap| {
        let web = pages.clone();
        async move {
            match web.over_budget(peer, &uri, &headers) {
                None => kept_language(&uri, web.answer(&uri, &headers).await),
                Some(wait) => wait,
            }
        }
    };
    let moves = move |ConnectInfo(peer): ConnectInfo<SocketAddr>,
                      uri: Uri,
                      headers: HeaderMap,
                      body: axum::body::Bytes| {
        let web = web.clone();
        async move {
            match web.over_budget(peer, &uri, &headers) {
                None if uri.path() == "/app/seat" => web.seat_signed(&headers),
                // Only a JSON body is read: a form or a `text/plain` post from another
                // page (another port of this host counts as the same site for the seat's
                // cookie) cannot be sent without the browser asking first, which is never
                // allowed here.
                None if !is_json(&headers) => StatusCode::UNSUPPORTED_MEDIA_TYPE.into_response(),
                None if uri.path() == DISCORD_SIGN_IN => {
                    web.seat_discord(&uri, &headers, &body).await
                }
                None => web.act(&uri, &headers, &body).await,
                Some(wait) => wait,
            }
        }
    };
    let app = axum::Router::new()
        .fallback(axum::routing::get(route))
        .route("/api/g/{game}/move", axum::routing::post(moves.clone()))
        .route("/api/g/{game}/act", axum::routing::post(moves.clone()))
        .route("/app/seat", axum::routing::post(moves.clone()))
        .route(DISCORD_SIGN_IN, axum::routing::post(moves));
    tracing::info!(%addr, "public pages served");
    let closing = tokio::sync::watch::Sender::new(false);
    let mut closed = closing.subscribe();
    let task = tokio::spawn(async move {
        let app = app.into_make_service_with_connect_info::<SocketAddr>();
        let stopped = async move {
            let _ = closed.wait_for(|c| *c).await;
        };
        let served = axum::serve(listener, app).with_graceful_shutdown(stopped);
        if let Err(e) = served.await {
            tracing::error!(error = %e, "public pages stopped");
        }
    });
    Ok(Server {
        task,
        watching,
        closing,
    })
}

/// What a path asks for.
#[derive(Debug, PartialEq, Eq)]
enum Asked {
    Game(i64),
    Board(i64),
    Pdn(i64),
    Replay(i64),
    Events(i64),
    Moves(i64),
    App(i64),
    AppStart,
    /// A Discord Activity launched in a channel (`/app/discord?channel_id=…`, the URL
    /// mapping's root): that thread's game.
    AppDiscord,
    SignIn(String),
    Top,
    Player(i64),
    Chart(i64),
    /// A tournament's page, and its standings picture.
    Tournament(i64),
    Standings(i64),
}

/// A number in a path: a positive one of at most 18 plain digits.
fn number(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 18 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|n| *n > 0)
}

/// The route of a path: `/` and `/top`, `/g/<id>` and its files, `/p/<id>` and its chart,
/// `/t/<id>` and its standings picture.
fn route(path: &str) -> Option<Asked> {
    if path == "/" || path == "/top" {
        return Some(Asked::Top);
    }
    if path == "/app" {
        return Some(Asked::AppStart);
    }
    if path == "/app/discord" {
        return Some(Asked::AppDiscord);
    }
    if let Some(rest) = path.strip_prefix("/app/g/") {
        return number(rest).map(Asked::App);
    }
    if let Some(code) = path.strip_prefix("/app/in/") {
        let ok = code.len() == 32 && code.bytes().all(|b| b.is_ascii_hexdigit());
        return ok.then(|| Asked::SignIn(code.to_string()));
    }
    let (kind, rest) = if let Some(rest) = path.strip_prefix("/g/") {
        ('g', rest)
    } else if let Some(rest) = path.strip_prefix("/t/") {
        ('t', rest)
    } else {
        ('p', path.strip_prefix("/p/")?)
    };
    let (id, file) = match rest.split_once('/') {
        Some((id, file)) => (id, Some(file)),
        None => (rest, None),
    };
    let id = number(id)?;
    match (kind, file) {
        ('g', None) => Some(Asked::Game(id)),
        ('g', Some("board.png")) => Some(Asked::Board(id)),
        ('g', Some("record.pdn")) => Some(Asked::Pdn(id)),
        ('g', Some("replay.gif")) => Some(Asked::Replay(id)),
        ('g', Some("events")) => Some(Asked::Events(id)),
        ('g', Some("moves.json")) => Some(Asked::Moves(id)),
        ('p', None) => Some(Asked::Player(id)),
        ('p', Some("chart.png")) => Some(Asked::Chart(id)),
        ('t', None) => Some(Asked::Tournament(id)),
        ('t', Some("standings.png")) => Some(Asked::Standings(id)),
        _ => None,
    }
}

/// A query's value of `key` (`?ply=3&lang=ru`); only short values are read.
fn query<'a>(uri: &'a Uri, key: &str) -> Option<&'a str> {
    query_up_to(uri, key, 16)
}

/// [`query`], for values of at most `max` bytes.
fn query_up_to<'a>(uri: &'a Uri, key: &str, max: usize) -> Option<&'a str> {
    uri.query()?
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
        .filter(|v| v.len() <= max)
}

/// The cookie that keeps a language asked for by `?lang=` for the pages a reader goes on
/// to: their links do not carry the query.
const LANG_COOKIE: &str = "ugolki_lang";

/// `page`, keeping a language asked for by `?lang=` (one the bot speaks) in a cookie.
fn kept_language(uri: &Uri, mut page: Response) -> Response {
    let asked = query(uri, "lang").and_then(Lang::from_tag);
    let cookie = asked.and_then(|lang| {
        let c = format!(
            "{LANG_COOKIE}={};Path=/;Max-Age=31536000;SameSite=Lax",
            lang.code()
        );
        header::HeaderValue::from_str(&c).ok()
    });
    if let Some(c) = cookie {
        page.headers_mut().append(header::SET_COOKIE, c);
    }
    page
}

/// An address one slash off a page's (`/g/1/`, `/top/`), or a folder of pages with no
/// number (`/g/`, as the console's banner writes it): sent to the page, or to the first
/// page. Only to a page of ours: never elsewhere (`//host/` stays a missing page).
fn moved(uri: &Uri) -> Option<Response> {
    let path = uri.path();
    let trimmed = path
        .strip_suffix('/')
        .filter(|p| !p.is_empty())
        .unwrap_or(path);
    let to = if matches!(trimmed, "/g" | "/p" | "/t" | "/app/g") {
        "/"
    } else if trimmed != path && route(trimmed).is_some() {
        trimmed
    } else {
        return None;
    };
    let to = match uri.query() {
        Some(q) if q.len() <= 512 => format!("{to}?{q}"),
        _ => to.to_string(),
    };
    Some((StatusCode::MOVED_PERMANENTLY, [(header::LOCATION, to)]).into_response())
}

/// The reader's language: `?lang=`, else the one `?lang=` asked for before (its cookie),
/// else the one of `Accept-Language` the bot speaks that it weighs most (`q`, 1 when not
/// given; the first of equals).
fn language(uri: &Uri, headers: &HeaderMap) -> Lang {
    if let Some(lang) = query(uri, "lang").and_then(Lang::from_tag) {
        return lang;
    }
    let kept = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == LANG_COOKIE)
        .and_then(|(_, v)| Lang::from_tag(v));
    if let Some(lang) = kept {
        return lang;
    }
    let mut best: Option<(u16, Lang)> = None;
    let asked = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    for item in asked.split(',').take(32) {
        let mut parts = item.split(';');
        let Some(lang) = Lang::from_tag(parts.next().unwrap_or("").trim()) else {
            continue;
        };
        // In thousandths, as the header's three decimals allow.
        let weight = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .and_then(|q| q.trim().parse::<f32>().ok())
            .map_or(1000, |q| {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let w = (q.clamp(0.0, 1.0) * 1000.0).round() as u16;
                w
            });
        if weight > 0 && best.is_none_or(|(w, _)| weight > w) {
            best = Some((weight, lang));
        }
    }
    best.map(|(_, lang)| lang).unwrap_or_default()
}

impl Web {
    async fn answer(&self, uri: &Uri, headers: &HeaderMap) -> Response {
        let lang = language(uri, headers);
        let Some(asked) = route(uri.path()) else {
            return moved(uri).unwrap_or_else(|| page::no_page(lang));
        };
        let id = match asked {
            Asked::Top => return self.top(lang).await,
            Asked::AppStart => return app::start(lang, self.mini_app()),
            Asked::AppDiscord => return self.discord_start(uri, lang).await,
            Asked::SignIn(code) => return self.sign_in(&code, lang),
            Asked::Player(id) | Asked::Chart(id) => {
                let kind = query(uri, "kind").and_then(RatingKind::from_id);
                return self.player(id, kind, asked == Asked::Chart(id), lang).await;
            }
            Asked::Tournament(id) | Asked::Standings(id) => {
                return self
                    .tournament(id, asked == Asked::Standings(id), lang)
                    .await;
            }
            Asked::Game(id)
            | Asked::Board(id)
            | Asked::Pdn(id)
            | Asked::Replay(id)
            | Asked::Events(id)
            | Asked::Moves(id)
            | Asked::App(id) => id,
        };
        // The board page and what it reads are also a player's own private game's; the
        // public pages are public games' only.
        let board_page = matches!(
            asked,
            Asked::App(_) | Asked::Moves(_) | Asked::Events(_) | Asked::Board(_)
        );
        let player = if board_page {
            self.seated_player(headers).await
        } else {
            None
        };
        let found = match player {
            Some(p) => self.table.player_game(id, p).await,
            None => self.table.public_game(id).await,
        };
        let game = match found {
            Ok(Some(g)) => g,
            // A Mini App opened on a private game: it seats itself, and comes back.
            Ok(None) if matches!(asked, Asked::App(_)) => {
                return app::shell(id, lang, self.mini_app())
            }
            Ok(None) => return page::missing(id, lang),
            Err(e) => return unavailable(&e),
        };
        let ply = query(uri, "ply").and_then(|p| p.parse::<i64>().ok());
        match asked {
            Asked::Board(_) => self.board(&game, ply.unwrap_or(game.plies()), lang).await,
            Asked::Pdn(_) => pdn(&game),
            Asked::Replay(_) => self.replay(&game, lang).await,
            Asked::Events(_) => {
                let offer = game.draw_offer_by;
                self.watching.stream(id, game.plies(), !game.active, offer)
            }
            Asked::Moves(_) => moves_json(&game, player.and_then(|p| app::side_of(&game, p))),
            Asked::App(_) => {
                // A seated player is shown their own side; else the link's `?as=`.
                let me = player.and_then(|p| app::side_of(&game, p));
                let viewer = match (me, query(uri, "as")) {
                    (Some(side), _) => side,
                    (None, Some("black")) => ugolki_core::Color::Black,
                    (None, _) => ugolki_core::Color::White,
                };
                app::page(&game, viewer, me, lang, self.mini_app())
            }
            _ => page::game(&game, ply.unwrap_or(game.plies()), lang),
        }
    }

    async fn top(&self, lang: Lang) -> Response {
        match self.table.public_top().await {
            Ok(boards) => page::top(&boards, lang),
            Err(e) => unavailable(&e),
        }
    }

    /// A tournament's page, or (`picture`) its standings picture.
    async fn tournament(&self, id: i64, picture: bool, lang: Lang) -> Response {
        let t = match self.table.public_tournament(id).await {
            Ok(Some(t)) => t,
            Ok(None) => return page::no_tournament(id, lang),
            Err(e) => return unavailable(&e),
        };
        if !picture {
            return page::tournament(&t, lang);
        }
        let spec = Picture::Standings(StandingsSpec {
            tournament: id,
            title: t.heading,
        });
        match self.table.draw_picture(&spec, lang).await {
            Ok(PictureView::Standings(v)) => (
                [
                    (header::CONTENT_TYPE, "image/png"),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                self.draw(&self.boards, move |r| r.standings(&v)).await,
            )
                .into_response(),
            _ => StatusCode::NOT_FOUND.into_response(),
        }
    }

    /// A player's page, or (`chart`) their rating chart of `kind`.
    async fn player(&self, id: i64, kind: Option<RatingKind>, chart: bool, lang: Lang) -> Response {
        let p = match self.table.public_player(id).await {
            Ok(Some(p)) => p,
            Ok(None) => return page::no_player(id, lang),
            Err(e) => return unavailable(&e),
        };
        if !chart {
            return page::player(&p, lang);
        }
        let spec = p.charts.iter().find(|(k, _)| Some(*k) == kind);
        let Some((_, spec)) = spec else {
            return StatusCode::NOT_FOUND.into_response();
        };
        match self.table.draw_picture(spec, lang).await {
            Ok(PictureView::Chart(c)) => (
                [
                    (header::CONTENT_TYPE, "image/png"),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                self.draw(&self.boards, move |r| r.chart(&c)).await,
            )
                .into_response(),
            _ => StatusCode::NOT_FOUND.into_response(),
        }
    }

    async fn board(&self, game: &PublicGame, ply: i64, lang: Lang) -> Response {
        let ply = game.clamp(ply);
        let Ok(PictureView::Board(view)) = self.table.draw_picture(&game.board(ply), lang).await
        else {
            return StatusCode::NOT_FOUND.into_response();
        };
        let scene = Scene::from_view(&view);
        let png = self.draw(&self.boards, move |r| r.render(&scene)).await;
        // A past position never changes; the latest does with the next move.
        let cache = if ply < game.plies() || !game.active {
            "public, max-age=86400"
        } else {
            "no-cache"
        };
        (
            [
                (header::CONTENT_TYPE, "image/png"),
                (header::CACHE_CONTROL, cache),
            ],
            png,
        )
            .into_response()
    }

    async fn replay(&self, game: &PublicGame, lang: Lang) -> Response {
        let Ok(PictureView::Replay(frames)) = self.table.draw_picture(&game.replay(), lang).await
        else {
            return StatusCode::NOT_FOUND.into_response();
        };
        let scenes: Vec<Scene> = frames.iter().map(Scene::from_view).collect();
        match self.draw(&self.replays, move |r| r.animate(&scenes)).await {
            Ok(gif) => ([(header::CONTENT_TYPE, "image/gif")], gif).into_response(),
            Err(e) => {
                tracing::error!(error = %e, "replay not drawn");
                (StatusCode::INTERNAL_SERVER_ERROR, "no replay\n").into_response()
            }
        }
    }
}

impl Web {
    /// One more request of the reader's budget: `None`, or the page that says to wait.
    fn over_budget(&self, peer: SocketAddr, uri: &Uri, headers: &HeaderMap) -> Option<Response> {
        // A seated player counts as themselves, wherever they are; anyone else by address.
        let who = match self.seated(headers) {
            Some((p, u)) => limits::Who::Player(format!("{}:{}", p.as_str(), u.id)),
            None => limits::Who::Address(limits::reader(peer, headers)),
        };
        let wait = self.budget.take(who, std::time::Instant::now()).err()?;
        let seconds = i64::try_from(wait.as_secs().max(1)).unwrap_or(60);
        Some(page::too_many(seconds, language(uri, headers)))
    }

    /// The player seated in this browser (its cookie), and their platform, if any.
    /// The reader's seat: its cookie, or (inside Discord's frame, where a cookie of this
    /// site is a third party's and may be dropped) the same session in [`SEAT_HEADER`].
    fn seated(&self, headers: &HeaderMap) -> Option<(Platform, User)> {
        let cookie = headers
            .get(header::COOKIE)
            .and_then(|v| v.to_str().ok())
            .and_then(seats::session_of);
        let sent = headers
            .get(SEAT_HEADER)
            .and_then(|v| v.to_str().ok())
            .filter(|s| seats::is_session(s));
        self.seats.who(cookie.or(sent)?)
    }

    /// `/app/discord?channel_id=<thread>&…`: the game grown in the thread the Activity was
    /// launched in, at `/app/g/<game>` with the launch's parameters (the Embedded App SDK
    /// reads them); a channel with no game is told to open one from its board.
    async fn discord_start(&self, uri: &Uri, lang: Lang) -> Response {
        // A snowflake: at most 20 digits.
        let channel = query_up_to(uri, "channel_id", 20)
            .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()));
        let store = self.table.store();
        let game = match channel {
            Some(c) => store
                .thread_game(Platform::Discord.as_str(), c)
                .await
                .ok()
                .flatten(),
            None => None,
        };
        let Some(game) = game else {
            let mut answer = app::start(lang, self.mini_app());
            *answer.status_mut() = StatusCode::NOT_FOUND;
            return answer;
        };
        // Launched by the Discord client (it names the frame): signed in first, when the
        // Activity's sign-in is set up.
        let framed = query_up_to(uri, "frame_id", 128).is_some();
        if let (Some(app), true) = (&self.signers.discord, framed) {
            return app::activity(lang, game, app.client_id);
        }
        let kept: String = uri.query().unwrap_or_default().chars().take(512).collect();
        (
            StatusCode::SEE_OTHER,
            [
                (header::LOCATION, format!("/app/g/{game}?{kept}")),
                (header::CACHE_CONTROL, "no-store".to_string()),
            ],
        )
            .into_response()
    }

    /// `POST /app/discord/token` from a Discord Activity, `{"code": …}` from the SDK's
    /// `authorize`: traded with Discord for who the reader is, who is then seated. 200 with
    /// `access_token` (for the SDK's `authenticate`) and `seat` (sent back in
    /// [`SEAT_HEADER`]); 401 when Discord refuses; 404 when no Activity is set up.
    async fn seat_discord(&self, uri: &Uri, headers: &HeaderMap, body: &[u8]) -> Response {
        let Some(app) = self.signers.discord.as_ref() else {
            return StatusCode::NOT_FOUND.into_response();
        };
        let v = serde_json::from_slice::<serde_json::Value>(body).unwrap_or_default();
        let Some(code) = v["code"].as_str() else {
            return StatusCode::BAD_REQUEST.into_response();
        };
        match app.sign_in(code).await {
            Ok(signed) => {
                let now = std::time::Instant::now();
                let session = self.seats.seat(Platform::Discord, signed.user, now);
                let body = serde_json::json!({
                    "access_token": signed.access_token,
                    "seat": session,
                });
                let mut answer = json(StatusCode::OK, &body);
                if let Ok(cookie) = header::HeaderValue::from_str(&seat_cookie(&session)) {
                    answer.headers_mut().insert(header::SET_COOKIE, cookie);
                }
                answer
            }
            Err(discord_auth::SignInError::BadCode) => StatusCode::BAD_REQUEST.into_response(),
            Err(e) => {
                tracing::info!(error = %e, "a Discord Activity sign-in refused");
                let said = render(&Msg::WebNotSeated, language(uri, headers));
                json(
                    StatusCode::UNAUTHORIZED,
                    &serde_json::json!({ "said": said }),
                )
            }
        }
    }

    /// The seated player's number in the store (once they have played).
    async fn seated_player(&self, headers: &HeaderMap) -> Option<i64> {
        let (platform, user) = self.seated(headers)?;
        let store = self.table.store();
        let found = store.player_by_platform_id(platform.as_str(), &user.id);
        found.await.ok().flatten().map(|p| p.id)
    }

    /// `POST /app/seat` from the Mini App, `Authorization: tma <initData>`: Telegram's
    /// signature checked, the reader is seated (a cookie, as the console's links give), so
    /// the pages of their own games know them. 204, or 401.
    fn seat_signed(&self, headers: &HeaderMap) -> Response {
        let Some(r) = self.telegram_reader(headers) else {
            return StatusCode::UNAUTHORIZED.into_response();
        };
        let session = self
            .seats
            .seat(r.platform, r.user, std::time::Instant::now());
        (
            StatusCode::NO_CONTENT,
            [(header::SET_COOKIE, seat_cookie(&session))],
        )
            .into_response()
    }

    /// Whether these are a Telegram bot's pages, opened as its Mini App too (its board
    /// pages then load Telegram's script).
    fn mini_app(&self) -> bool {
        self.signers.telegram_token.is_some()
    }

    /// A reader Telegram signed (`Authorization: tma <initData>`, checked against the
    /// bot's token).
    fn telegram_reader(&self, headers: &HeaderMap) -> Option<Reader> {
        let signed = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("tma "))
            .filter(|s| !s.is_empty())?;
        let token = self.signers.telegram_token.as_ref()?;
        let now_s = crate::now_ms() / 1000;
        let user = telegram_auth::check(signed, token, now_s).ok()?;
        Some(Reader {
            platform: Platform::Telegram,
            key: user.id.to_string(),
            locale: user.language_code,
            user: User {
                id: user.id.to_string(),
                name: user.name,
                handle: user.username.map(|h| h.to_ascii_lowercase()),
            },
        })
    }

    /// Who sends a request that acts: a Telegram Mini App reader (its signed `initData`),
    /// or a player seated in this browser.
    fn reader(&self, headers: &HeaderMap) -> Option<Reader> {
        if let Some(r) = self.telegram_reader(headers) {
            return Some(r);
        }
        let (platform, user) = self.seated(headers)?;
        Some(Reader {
            platform,
            key: user.id.clone(),
            locale: None,
            user,
        })
    }

    /// `/app/in/<code>`: a console player's one-time link. Opened once and in time, it
    /// seats this browser as them (a cookie for this site's pages only, out of scripts'
    /// reach) and goes on to their game's board; else it says the link is spent.
    fn sign_in(&self, code: &str, lang: Lang) -> Response {
        let Some(seated) = self.seats.redeem(code, std::time::Instant::now()) else {
            return page::seat_gone(lang);
        };
        (
            StatusCode::SEE_OTHER,
            [
                (header::SET_COOKIE, seat_cookie(&seated.session)),
                (header::LOCATION, format!("/app/g/{}", seated.game)),
                (header::CACHE_CONTROL, "no-store".to_string()),
            ],
        )
            .into_response()
    }

    /// `POST /api/g/<game>/move` (`{"move": "c3-d3", "ply": N}`: the move, and the ply the
    /// reader's board shows) and `POST /api/g/<game>/act` (`{"act": "<button>"}`: one of
    /// the game's buttons as the board offers them, in their text form), from a reader
    /// Telegram signs (`Authorization: tma <initData>`) or the console seated. The move or
    /// press is the player's own in their game's chat: the table decides, and the chat
    /// gets its board as usual. 200 when the game changed; 401 unsigned or forged; 400 a
    /// body that is not one; 409 refused (stale, not theirs, not legal), with the table's
    /// words for the reader and any button its answer carries (a C6 move's Confirm).
    async fn act(&self, uri: &Uri, headers: &HeaderMap, body: &[u8]) -> Response {
        let lang = language(uri, headers);
        let path = uri.path().strip_prefix("/api/g/").unwrap_or_default();
        let (id, what) = path.split_once('/').unwrap_or_default();
        let Some(id) = number(id) else {
            return StatusCode::NOT_FOUND.into_response();
        };
        let Some(reader) = self.reader(headers) else {
            let said = render(&Msg::WebNotSeated, lang);
            return json(
                StatusCode::UNAUTHORIZED,
                &serde_json::json!({ "said": said }),
            );
        };
        let v = serde_json::from_slice::<serde_json::Value>(body).unwrap_or_default();
        let asked = match what {
            "move" => v["move"]
                .as_str()
                .filter(|m| !m.trim().is_empty() && m.len() <= 64)
                .zip(v["ply"].as_i64())
                .map(|(m, ply)| (Input::Command(Command::Move(Some(id), m.to_string())), ply)),
            "act" => v["act"]
                .as_str()
                .filter(|a| a.len() <= ugolki_core::table::MAX_ACTION_TEXT)
                .and_then(Action::parse)
                .filter(|a| !a.is_square())
                .and_then(|a| match a.game() {
                    // The page asks its own second tap for Resign: confirmed, it resigns
                    // at once (at its ply), not asked again as a chat's press is.
                    Some((game, ply)) if game == id => Some((Input::Confirmed(a), ply)),
                    _ => None,
                }),
            _ => return StatusCode::NOT_FOUND.into_response(),
        };
        let Some((input, ply)) = asked else {
            return StatusCode::BAD_REQUEST.into_response();
        };
        let row = match self.table.store().game(id).await {
            Ok(Some(row)) if row.platform == reader.platform.as_str() => row,
            Ok(_) => return StatusCode::NOT_FOUND.into_response(),
            Err(e) => return unavailable(&e),
        };
        let refused = |m: &Msg| {
            let said = ugolki_core::words::render(m, lang);
            json(StatusCode::CONFLICT, &serde_json::json!({ "said": said }))
        };
        if row.ply != ply {
            return refused(&Msg::ButtonStale);
        }
        let kind = ChatKind::parse(&row.chat_kind).unwrap_or(ChatKind::Group);
        let chat = ChatRef::new(reader.platform, row.chat.clone(), kind);
        // Each request is its own message: a refused one (not your turn, a move to confirm
        // first) must not make the player's next one at this ply a repeat, answered with
        // nothing. A request sent twice is still played once: the game's ply, checked
        // above and again as the move commits, has moved on.
        let nonce = crate::service::random_secret()
            .unwrap_or_else(|_| format!("{}-{}", std::process::id(), crate::now_ms()));
        let key = format!("web:{id}:{ply}:{what}:{}:{nonce}", reader.key);
        let mut origin = Origin::interaction(chat, reader.user, key);
        origin.locale = reader.locale.or_else(|| Some(lang.code().to_string()));
        let before = (row.ply, row.result, row.draw_offer_by);
        let outs = self.table.handle(&Incoming { origin, input }).await;
        // Done when the game changed; else refused, in the table's words.
        let now = self.table.store().game(id).await.ok().flatten();
        if now.is_some_and(|g| (g.ply, g.result, g.draw_offer_by) != before) {
            return json(StatusCode::OK, &serde_json::json!({ "done": true }));
        }
        let said = crate::outbox::direct_lines(&outs);
        let buttons: Vec<serde_json::Value> = outs
            .iter()
            .flat_map(|o| &o.actions)
            .filter(|a| matches!(a, Action::Confirm { .. }))
            .map(|a| serde_json::json!({ "act": a.to_text(), "label": render(&a.label(), lang) }))
            .collect();
        if said.is_empty() {
            return refused(&Msg::ButtonStale);
        }
        json(
            StatusCode::CONFLICT,
            &serde_json::json!({ "said": said.join("\n"), "buttons": buttons }),
        )
    }

    /// Draw with `renderer` off the request threads, a few pictures at a time.
    async fn draw<T: Send + 'static>(
        &self,
        renderer: &Arc<Renderer>,
        f: impl FnOnce(&Renderer) -> T + Send + 'static,
    ) -> T {
        let _turn = self.drawing.acquire().await;
        let r = renderer.clone();
        match tokio::task::spawn_blocking(move || f(&r)).await {
            Ok(t) => t,
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }
}

/// The cookie that seats a browser: this site's pages only, sent by the browser alone, out
/// of scripts' reach.
/// Where a Discord Activity's page sends back its seat.
pub const SEAT_HEADER: &str = "x-ugolki-seat";
/// Where a Discord Activity's page trades its `authorize` code.
pub const DISCORD_SIGN_IN: &str = "/app/discord/token";

fn seat_cookie(session: &str) -> String {
    format!("{}={session};{}", seats::COOKIE, seats::COOKIE_ATTRIBUTES)
}

/// A reader who acts in a game, as its platform knows them; `key`: who they are in the
/// request's id (with a nonce of the request's own: each request is its own message).
struct Reader {
    platform: Platform,
    user: User,
    key: String,
    locale: Option<String>,
}

/// `/g/<game>/moves.json`: the ply, the side to move and its legal moves, for a board a
/// player clicks (the server still judges the move that comes), the draw offer waiting,
/// the clocks now, and the reader's side (`me`) when they are one of its players.
fn moves_json(game: &PublicGame, me: Option<ugolki_core::Color>) -> Response {
    let side = |c: ugolki_core::Color| match c {
        ugolki_core::Color::White => "white",
        ugolki_core::Color::Black => "black",
    };
    let moves: Vec<serde_json::Value> = game
        .legal
        .iter()
        .map(|(from, to, text)| serde_json::json!({ "from": from, "to": to, "move": text }))
        .collect();
    let v = serde_json::json!({
        "me": me.map(side),
        "ply": game.plies(),
        "over": !game.active,
        // Whose draw offer waits (`none`), as the board page's `data-offer` says it: a page
        // without its events sees an offer come and go by asking.
        "offer": game.draw_offer_by.map_or("none", side),
        "turn": side(game.turn),
        "moves": moves,
        // Milliseconds left, White's first, while a clock runs: the page counts down the
        // side to move's until the next change.
        "clocks": game.clocks().map(|(w, b)| [w, b]),
    });
    json(StatusCode::OK, &v)
}

/// Whether a request's body is JSON by its `Content-Type` (`application/json`, parameters
/// such as a charset allowed).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// A JSON answer (written by hand: axum's `json` feature would rebuild it for everyone).
fn json(status: StatusCode, v: &serde_json::Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        v.to_string(),
    )
        .into_response()
}

/// The store did not answer: the reader may try again.
fn unavailable(e: &ugolki_core::store::StoreError) -> Response {
    tracing::warn!(error = %e, "a public page not read");
    (StatusCode::SERVICE_UNAVAILABLE, "try again\n").into_response()
}

fn pdn(game: &PublicGame) -> Response {
    let disposition = format!("attachment; filename=\"ugolki-{}.pdn\"", game.id);
    (
        [
            (
                header::CONTENT_TYPE,
                "application/x-pdn; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        game.pdn.clone(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::{route, Asked};

    /// One slash off, or a folder with no number: sent to the page; never off the site.
    #[test]
    fn an_address_one_slash_off_is_sent_to_its_page() {
        let to = |path: &str| {
            super::moved(&path.parse().expect("a uri")).map(|r| {
                r.headers()[axum::http::header::LOCATION]
                    .to_str()
                    .expect("text")
                    .to_string()
            })
        };
        assert_eq!(to("/g/12/").as_deref(), Some("/g/12"));
        assert_eq!(to("/top/?lang=ru").as_deref(), Some("/top?lang=ru"));
        assert_eq!(to("/g/").as_deref(), Some("/"));
        assert_eq!(to("/g").as_deref(), Some("/"));
        assert_eq!(to("//evil.example/"), None);
        assert_eq!(to("/g/abc/"), None);
        assert_eq!(to("/x"), None);
    }

    /// `Accept-Language` as browsers send it: the language weighed most that we speak.
    #[test]
    fn the_language_weighed_most_is_taken() {
        use ugolki_core::words::Lang;
        let lang = |accept: &str| {
            let mut h = axum::http::HeaderMap::new();
            h.insert(
                axum::http::header::ACCEPT_LANGUAGE,
                accept.parse().expect("a header"),
            );
            super::language(&"/g/1".parse().expect("a uri"), &h)
        };
        let ru = Lang::from_tag("ru").expect("spoken");
        let it = Lang::from_tag("it").expect("spoken");
        assert_eq!(lang("en;q=0.1, ru;q=0.9"), ru);
        assert_eq!(lang("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7"), ru);
        assert_eq!(lang("de, it;q=0.5, ru;q=0.4"), it, "German is not spoken");
        assert_eq!(lang("it;q=0, ru;q=0.2"), ru, "q=0 means not this one");
        assert_eq!(lang("fr"), Lang::EN, "none spoken: English");
    }

    #[test]
    fn only_game_paths_with_a_plain_positive_id_are_pages() {
        assert_eq!(route("/g/12"), Some(Asked::Game(12)));
        assert_eq!(route("/g/12/board.png"), Some(Asked::Board(12)));
        assert_eq!(route("/g/12/record.pdn"), Some(Asked::Pdn(12)));
        assert_eq!(route("/g/12/replay.gif"), Some(Asked::Replay(12)));
        assert_eq!(route("/g/12/events"), Some(Asked::Events(12)));
        assert_eq!(route("/g/12/moves.json"), Some(Asked::Moves(12)));
        assert_eq!(route("/app/g/12"), Some(Asked::App(12)));
        assert_eq!(route("/app"), Some(Asked::AppStart));
        assert_eq!(route("/"), Some(Asked::Top));
        assert_eq!(route("/top"), Some(Asked::Top));
        assert_eq!(route("/p/3"), Some(Asked::Player(3)));
        assert_eq!(route("/p/3/chart.png"), Some(Asked::Chart(3)));
        assert_eq!(route("/t/4"), Some(Asked::Tournament(4)));
        assert_eq!(route("/t/4/standings.png"), Some(Asked::Standings(4)));
        for bad in [
            "/p/",
            "/p/0",
            "/p/3/board.png",
            "/top/",
            "/g/",
            "/g/0",
            "/g/-1",
            "/g/+1",
            "/g/1x",
            "/g/١",
            "/g/12/other",
            "/g/12/",
            "/g/99999999999999999999",
            "/x/1",
        ] {
            assert_eq!(route(bad), None, "{bad}");
        }
    }
}
