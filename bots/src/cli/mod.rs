//! The command line (DESIGN.md "The command-line contract"): `moves`, `perft`, `replay`.
//! Output formats here are a public interface that outside checks parse; keep them stable.

mod engine_cmd;
mod render_cmd;
mod rules_cmd;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::ffi::OsString;
use std::io::{Read, Write};

#[derive(Parser, Debug)]
#[command(
    name = "ugolki",
    version,
    about = "Corners (Ugolki) and Damas in chat, and their rules on the command line"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameKind {
    Corners,
    Damas,
}

/// Which game and position a rules command works on.
#[derive(Args, Debug)]
pub struct GameArgs {
    #[arg(long, value_enum, default_value = "corners")]
    pub game: GameKind,
    /// Corners variant: classic3x3, classic3x4, diagonal3x3, diagonal3x4, triangle,
    /// square4x4, halma16, or training:… (see the README).
    #[arg(long, default_value = "classic3x3")]
    pub variant: String,
    /// Damas with short kings (one square) instead of flying kings.
    #[arg(long)]
    pub short: bool,
    /// Position text (Damas also takes PDN FEN); the start position when left out.
    #[arg(long)]
    pub position: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print every legal move, one per line, full path, sorted by (from, to).
    Moves {
        #[command(flatten)]
        game: GameArgs,
    },
    /// Count the leaves of the legal-move tree to a depth.
    Perft {
        #[command(flatten)]
        game: GameArgs,
        #[arg(long)]
        depth: u32,
        /// Give up after this many seconds (exit 2); Ctrl-C stops it at any time.
        #[arg(long, default_value_t = 300)]
        timeout: u64,
    },
    /// Draw a position as a PNG file.
    Render {
        #[command(flatten)]
        game: GameArgs,
        /// Where to write the PNG.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Turn the board 180° (Black's view).
        #[arg(long)]
        flip: bool,
        /// Mark the last move's path, e.g. c3-e3-e5.
        #[arg(long)]
        last: Option<String>,
        /// Mark a piece and where it can go, e.g. c3.
        #[arg(long)]
        select: Option<String>,
        /// Picture width in pixels, 160 to 4000 (about; default about 560).
        #[arg(long, value_parser = clap::value_parser!(u32).range(160..=4000))]
        size: Option<u32>,
    },
    /// Play in the terminal: a local chat where each line is `NAME: text`.
    Console {
        /// Database: an `SQLite` file, or a URL (`postgres://…`) (default: `DATABASE_URL`, or ugolki.db here).
        #[arg(long)]
        db: Option<std::path::PathBuf>,
        /// Where board pictures are written.
        #[arg(long, default_value = "boards")]
        boards: std::path::PathBuf,
        /// Read the lines from a file, print the chat, and exit at its end.
        #[arg(long)]
        script: Option<std::path::PathBuf>,
        /// Name this session: line N's message id is NAME-N, so the same script fed again,
        /// or to a second process on the same shared database, is handled once.
        /// (Default: a name of its own for every run.)
        #[arg(long, value_parser = session_name)]
        session: Option<String>,
        /// Serve /health and /metrics (Prometheus) on this address, e.g. 127.0.0.1:9100.
        #[arg(long)]
        metrics: Option<std::net::SocketAddr>,
        /// Serve the public pages (/g/NUMBER, /top, /p/NUMBER) on this address, e.g.
        /// 127.0.0.1:8080.
        #[arg(long)]
        web: Option<std::net::SocketAddr>,
        /// Where readers reach the pages (your HTTPS proxy's address), for the chat's links;
        /// default http:// and --web's address.
        #[arg(long, requires = "web")]
        web_url: Option<String>,
    },
    /// Run the Telegram bot: `TELOXIDE_TOKEN` (required), `TELOXIDE_API_URL` (optional: a
    /// self-hosted Bot API or a test server), `DATABASE_URL` (default ugolki.db;
    /// postgres://… for several processes), `TELEGRAM_WEBHOOK_SECRET` (webhook workers
    /// behind one URL share it), `TELEGRAM_INLINE_CHATS` (inline mode: chat ids, comma-
    /// separated, where the bot posts board pictures for inline games).
    Telegram {
        /// Database: an `SQLite` file, or a URL (`postgres://…`) (default: `DATABASE_URL`, or ugolki.db here).
        #[arg(long)]
        db: Option<std::path::PathBuf>,
        /// Webhook mode: the public HTTPS URL Telegram posts updates to (needs --listen).
        #[arg(long, requires = "listen")]
        webhook: Option<String>,
        /// Webhook mode: the address to serve on, e.g. 0.0.0.0:8443.
        #[arg(long, requires = "webhook")]
        listen: Option<std::net::SocketAddr>,
        /// Serve /health and /metrics (Prometheus) on this address, e.g. 127.0.0.1:9100.
        #[arg(long)]
        metrics: Option<std::net::SocketAddr>,
        /// Serve the public pages (/g/NUMBER, /top, /p/NUMBER) on this address, e.g.
        /// 127.0.0.1:8080.
        #[arg(long)]
        web: Option<std::net::SocketAddr>,
        /// Where readers reach the pages (your HTTPS proxy's address), for the chat's links;
        /// default http:// and --web's address.
        #[arg(long, requires = "web")]
        web_url: Option<String>,
        /// The Mini App's short name (`BotFather`'s /newapp): group boards get a button that
        /// opens the game in it, t.me/BOT/NAME?startapp=GAME. Needs an https --web-url.
        #[arg(long, requires = "web_url")]
        mini_app: Option<String>,
    },
    /// Ask each platform whose token is set (`TELOXIDE_TOKEN`, `DISCORD_TOKEN`, with the
    /// variables the bots read) what the bot can do there, and the database how far it is
    /// migrated: a ✔, ⚠ or ✘ an item, with how to fix each ⚠ and ✘. Changes nothing. Exit 0
    /// when the bot can play everywhere it is configured to (no ✘), else 1.
    Doctor(DoctorArgs),
    /// Run the Discord bot: `DISCORD_TOKEN` (required), `DISCORD_API_URL` (optional: a REST
    /// proxy that keeps Discord's rate limits, or a test server; the gateway comes with it),
    /// `DISCORD_API_ADDR` and `DISCORD_API_CA` (optional: reach discord.com at HOST:PORT,
    /// trusting that certificate authority: a TLS egress proxy), `DISCORD_GUILD_ID` (register
    /// commands in one guild), `DISCORD_CLIENT_SECRET` (with --web: the Activity's players
    /// sign in), `DATABASE_URL` (default ugolki.db; postgres://… for several processes).
    Discord {
        /// Database: an `SQLite` file, or a URL (`postgres://…`) (default: `DATABASE_URL`, or ugolki.db here).
        #[arg(long)]
        db: Option<std::path::PathBuf>,
        /// Run shards A-B only (e.g. 0-3), with --total.
        #[arg(long, requires = "total")]
        shards: Option<String>,
        /// The total number of shards, with --shards.
        #[arg(long, requires = "shards")]
        total: Option<u32>,
        /// Serve /health and /metrics (Prometheus) on this address, e.g. 127.0.0.1:9100.
        #[arg(long)]
        metrics: Option<std::net::SocketAddr>,
        /// Serve the public pages (/g/NUMBER, /top, /p/NUMBER) on this address, e.g.
        /// 127.0.0.1:8080.
        #[arg(long)]
        web: Option<std::net::SocketAddr>,
        /// Where readers reach the pages (your HTTPS proxy's address), for the chat's links;
        /// default http:// and --web's address.
        #[arg(long, requires = "web")]
        web_url: Option<String>,
        /// Ask for the Message Content intent (switch it on in the Developer Portal first):
        /// moves typed as text in servers. Without it: /move and buttons.
        #[arg(long)]
        message_content: bool,
    },
    /// The engine's move in a position, in notation (depth, nodes and score on stderr).
    Bestmove {
        #[command(flatten)]
        game: GameArgs,
        /// Strength 1 (beginner) to 5 (strongest, the default).
        #[arg(long)]
        level: Option<u8>,
        /// Think this many milliseconds instead, at full strength.
        #[arg(long)]
        ms: Option<u64>,
    },
    /// Two players over many games from the start, each colour in turn; prints the score.
    Selfplay {
        #[command(flatten)]
        game: GameArgs,
        /// The first player: 1-5 (a level), random, greedy, ms:T or nodes:N.
        #[arg(long, value_parser = engine_cmd::player)]
        a: engine_cmd::Player,
        /// The second player, the same way.
        #[arg(long, value_parser = engine_cmd::player)]
        b: engine_cmd::Player,
        /// Games with each colour.
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// Level 4 and 5 think this many ms a move instead of their own budget.
        #[arg(long)]
        ms: Option<u64>,
    },
    /// Write the animated replay (GIF) of a game: the start, then the board after each move.
    Gif {
        #[command(flatten)]
        game: GameArgs,
        /// Where to write the GIF.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Moves to play; when none are given, a record is read from stdin.
        moves: Vec<String>,
    },
    /// Play moves (arguments, or a record on stdin) and print the final position and result.
    Replay {
        #[command(flatten)]
        game: GameArgs,
        /// Damas: print the game as PDN (Portuguese numbers) instead.
        #[arg(long)]
        pdn: bool,
        /// Moves to play; when none are given, a record is read from stdin.
        moves: Vec<String>,
    },
}

/// Output streams of one command.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
}

/// Errors that stop a command before it does its work.
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments or input: a message for the user, exit code 2.
    Usage(String),
    Io(std::io::Error),
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Io(e)
    }
}

/// Run the command line; returns the exit code (0 ok, 1 illegal move in replay, 2 bad input).
pub fn run<I, T>(
    args: I,
    stdin: &mut dyn Read,
    stdin_is_terminal: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let text = e.render().to_string();
            return if e.use_stderr() {
                let _ = err.write_all(text.as_bytes());
                2
            } else {
                let _ = out.write_all(text.as_bytes());
                0
            };
        }
    };
    let mut io = Io { out, err };
    let result = match cli.command {
        Command::Moves { game } => rules_cmd::moves(&mut io, &game),
        Command::Perft {
            game,
            depth,
            timeout,
        } => rules_cmd::perft(&mut io, &game, depth, timeout),
        Command::Render {
            game,
            out,
            flip,
            last,
            select,
            size,
        } => render_cmd::render(
            &mut io,
            &game,
            &render_cmd::RenderArgs {
                out: &out,
                flip,
                last: last.as_deref(),
                select: select.as_deref(),
                width: size,
            },
        ),
        Command::Telegram {
            db,
            webhook,
            listen,
            metrics,
            web,
            web_url,
            mini_app,
        } => pages(web, web_url.as_deref())
            .and_then(|web| mini_app_of(web, mini_app))
            .and_then(|web| telegram(database_url(db), webhook, listen, (metrics, web))),
        Command::Doctor(args) => doctor(&mut io, &args),
        Command::Discord {
            db,
            shards,
            total,
            metrics,
            web,
            web_url,
            message_content,
        } => pages(web, web_url.as_deref()).and_then(|web| {
            discord(
                database_url(db),
                (shards, total),
                (metrics, web),
                message_content,
            )
        }),
        Command::Console {
            db,
            boards,
            script,
            session,
            metrics,
            web,
            web_url,
        } => pages(web, web_url.as_deref()).and_then(|web| {
            let options = crate::console::Options {
                database_url: database_url(db),
                boards,
                script,
                session,
                metrics,
                web,
            };
            console(&options, stdin, stdin_is_terminal)
        }),
        Command::Bestmove { game, level, ms } => engine_cmd::bestmove(&mut io, &game, level, ms),
        Command::Selfplay {
            game,
            a,
            b,
            games,
            ms,
        } => engine_cmd::selfplay(&mut io, &game, a, b, games, ms),
        Command::Gif { game, out, moves } => moves_or_stdin(moves, stdin, stdin_is_terminal)
            .and_then(|m| engine_cmd::gif(&mut io, &game, &m, &out)),
        Command::Replay { game, pdn, moves } => moves_or_stdin(moves, stdin, stdin_is_terminal)
            .and_then(|m| rules_cmd::replay(&mut io, &game, &m, pdn)),
    };
    exit_code(result, io.err)
}

/// The process's exit code for a command's result; an error is said on stderr first.
fn exit_code(result: Result<u8, CliError>, err: &mut dyn Write) -> u8 {
    match result {
        Ok(code) => code,
        Err(CliError::Usage(message)) => {
            let _ = writeln!(err, "error: {message}");
            2
        }
        // The reader stopped reading (`| head`): it has what it wanted; nothing to say.
        Err(CliError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(CliError::Io(e)) => {
            let _ = writeln!(err, "error: {e}");
            2
        }
    }
}

#[cfg(test)]
mod exit_tests {
    /// Output cut short by its reader is no error; any other failure to write is.
    #[test]
    fn a_closed_pipe_ends_quietly() {
        let mut err = Vec::new();
        let closed = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        assert_eq!(
            super::exit_code(Err(super::CliError::Io(closed)), &mut err),
            0
        );
        assert!(err.is_empty());
        let full = std::io::Error::other("disk full");
        assert_eq!(
            super::exit_code(Err(super::CliError::Io(full)), &mut err),
            2
        );
        assert_eq!(String::from_utf8_lossy(&err), "error: disk full\n");
    }
}

/// A session name: letters, digits, `-` and `_`, at most 40 (it becomes part of message ids).
fn session_name(text: &str) -> Result<String, String> {
    let ok = !text.is_empty()
        && text.len() <= 40
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
    if ok {
        Ok(text.to_string())
    } else {
        Err("a session name is 1 to 40 letters, digits, '-' or '_'".into())
    }
}

/// The database: `--db`, else `DATABASE_URL`, else `ugolki.db` here. Either may be a URL
/// (`sqlite://…`, `postgres://…`) or a plain file path, an `SQLite` file.
fn database_url(db: Option<std::path::PathBuf>) -> String {
    let given = match db {
        Some(path) => path.display().to_string(),
        None => std::env::var("DATABASE_URL")
            .unwrap_or_else(|_| ugolki_core::store::DEFAULT_URL.to_string()),
    };
    as_url(&given)
}

/// `given` as a database URL: a URL as it is, a plain path as an `SQLite` file's.
fn as_url(given: &str) -> String {
    if given.contains("://") || given.starts_with("sqlite:") {
        given.to_string()
    } else {
        format!("sqlite://{given}")
    }
}

/// What `ugolki telegram` would refuse to start with in its settings, for `doctor`.
fn telegram_settings_wrong() -> Vec<String> {
    let mut wrong = Vec::new();
    if let Err(CliError::Usage(why)) = inline_chats() {
        wrong.push(why);
    }
    let secret = std::env::var("TELEGRAM_WEBHOOK_SECRET").ok();
    if secret.is_some_and(|s| !crate::telegram::valid_secret(&s)) {
        wrong.push(crate::setup::telegram::SECRET_RULE.into());
    }
    wrong
}

/// `TELEGRAM_INLINE_CHATS`: chat ids, comma-separated, where inline games' pictures go.
fn inline_chats() -> Result<Vec<i64>, CliError> {
    let Ok(list) = std::env::var("TELEGRAM_INLINE_CHATS") else {
        return Ok(Vec::new());
    };
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<i64>().map_err(|_| {
                CliError::Usage(format!("TELEGRAM_INLINE_CHATS: {s:?} is not a chat id"))
            })
        })
        .collect()
}

/// `--web` and `--web-url` as the pages' options.
fn pages(
    listen: Option<std::net::SocketAddr>,
    url: Option<&str>,
) -> Result<Option<crate::web::Pages>, CliError> {
    listen
        .map(|l| crate::web::Pages::new(l, url))
        .transpose()
        .map_err(CliError::Usage)
}

/// `ugolki console`: the chat in the terminal (or a script's), until its input ends.
fn console(
    options: &crate::console::Options,
    stdin: &mut dyn Read,
    stdin_is_terminal: bool,
) -> Result<u8, CliError> {
    let mut input = std::io::BufReader::new(stdin);
    crate::console::run(options, &mut input, stdin_is_terminal)
        .map(|()| 0)
        .map_err(CliError::Usage)
}

/// `ugolki telegram`: run the bot until Ctrl-C or SIGTERM.
fn telegram(
    database_url: String,
    webhook: Option<String>,
    listen: Option<std::net::SocketAddr>,
    (metrics, web): (Option<std::net::SocketAddr>, Option<crate::web::Pages>),
) -> Result<u8, CliError> {
    let token = std::env::var("TELOXIDE_TOKEN")
        .ok()
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| CliError::Usage("set TELOXIDE_TOKEN to the bot's token".into()))?;
    let webhook = match (webhook, listen) {
        (Some(url), Some(addr)) => Some((
            url::Url::parse(&url).map_err(|e| CliError::Usage(format!("--webhook: {e}")))?,
            addr,
        )),
        _ => None,
    };
    let options = crate::telegram::Options {
        token,
        api_url: std::env::var("TELOXIDE_API_URL").ok(),
        database_url,
        webhook,
        webhook_secret: std::env::var("TELEGRAM_WEBHOOK_SECRET")
            .ok()
            .filter(|s| !s.is_empty()),
        metrics,
        limits: crate::telegram::Limits::default(),
        inline_chats: inline_chats()?,
        web,
    };
    let rt = tokio::runtime::Runtime::new().map_err(CliError::Io)?;
    rt.block_on(crate::telegram::run(options, stop_signal()))
        .map(|()| 0)
        .map_err(CliError::Usage)
}

/// The pages with `--mini-app NAME`: a name as `BotFather` allows one (3–30 of `a-z`,
/// `0-9`, `_`).
fn mini_app_of(
    web: Option<crate::web::Pages>,
    name: Option<String>,
) -> Result<Option<crate::web::Pages>, CliError> {
    let Some(name) = name else {
        return Ok(web);
    };
    let ok = (3..=30).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !ok {
        return Err(CliError::Usage(format!(
            "--mini-app {name}: the short name BotFather gave (3 to 30 of a-z, 0-9 and _)"
        )));
    }
    Ok(web.map(|mut p| {
        p.mini_app = Some(name);
        p
    }))
}

/// `ugolki doctor`'s options.
#[derive(clap::Args, Debug)]
pub struct DoctorArgs {
    /// Database: an `SQLite` file, or a URL (`postgres://…`) (default: `DATABASE_URL`, or ugolki.db here).
    #[arg(long)]
    db: Option<std::path::PathBuf>,
    /// Telegram: the webhook `ugolki telegram --webhook` would set (else: polling).
    #[arg(long)]
    webhook: Option<String>,
    /// Discord: as `ugolki discord --message-content` would be started.
    #[arg(long)]
    message_content: bool,
}

/// `ugolki doctor`: the report on stdout; exit 1 when something keeps the bot from playing.
fn doctor(io: &mut Io<'_>, args: &DoctorArgs) -> Result<u8, CliError> {
    let database_url = database_url(args.db.clone());
    let (webhook, message_content) = (args.webhook.as_deref(), args.message_content);
    let set = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let webhook = webhook
        .map(|w| url::Url::parse(w).map_err(|e| CliError::Usage(format!("--webhook {w}: {e}"))))
        .transpose()?;
    let guild = set("DISCORD_GUILD_ID")
        .map(|g| {
            g.parse::<u64>().map_err(|_| {
                CliError::Usage("DISCORD_GUILD_ID must be a guild id (a number)".into())
            })
        })
        .transpose()?;
    let options = crate::doctor::Options {
        database_url,
        telegram: set("TELOXIDE_TOKEN").map(|token| crate::doctor::Telegram {
            token,
            api_url: set("TELOXIDE_API_URL"),
            webhook,
            inline: set("TELEGRAM_INLINE_CHATS").is_some(),
            wrong: telegram_settings_wrong(),
        }),
        discord: set("DISCORD_TOKEN").map(|token| crate::doctor::Discord {
            token,
            api_url: set("DISCORD_API_URL"),
            guild,
            message_content,
        }),
    };
    let rt = tokio::runtime::Runtime::new().map_err(CliError::Io)?;
    let checks = rt.block_on(crate::doctor::run(&options));
    let (text, fine) = crate::doctor::report(&checks);
    io.out.write_all(text.as_bytes())?;
    Ok(u8::from(!fine))
}

/// `DISCORD_API_ADDR` (`HOST:PORT`) and `DISCORD_API_CA` (a certificate file, DER or PEM):
/// where to reach `discord.com`, and the authority to trust there; both or neither.
fn api_at() -> Result<Option<crate::discord::ApiAt>, CliError> {
    let set = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    match (set("DISCORD_API_ADDR"), set("DISCORD_API_CA")) {
        (None, None) => Ok(None),
        (Some(addr), Some(ca)) => {
            let addr = addr.parse().map_err(|_| {
                CliError::Usage(format!(
                    "DISCORD_API_ADDR must be an address such as 10.0.0.5:443, not '{addr}'"
                ))
            })?;
            let ca_der = std::fs::read(&ca)
                .map_err(|e| CliError::Usage(format!("DISCORD_API_CA: cannot read {ca}: {e}")))?;
            let at = crate::discord::ApiAt { addr, ca_der };
            // Refused here, not found out as a start-up call failing forever.
            crate::discord::try_client_for(Some(&at))
                .map_err(|e| CliError::Usage(format!("DISCORD_API_CA: {ca}: {e}")))?;
            Ok(Some(at))
        }
        _ => Err(CliError::Usage(
            "set DISCORD_API_ADDR and DISCORD_API_CA together (or neither)".into(),
        )),
    }
}

/// `ugolki discord`: run the bot until Ctrl-C or SIGTERM.
fn discord(
    database_url: String,
    (shards, total): (Option<String>, Option<u32>),
    (metrics, web): (Option<std::net::SocketAddr>, Option<crate::web::Pages>),
    message_content: bool,
) -> Result<u8, CliError> {
    let token = std::env::var("DISCORD_TOKEN")
        .ok()
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| CliError::Usage("set DISCORD_TOKEN to the bot's token".into()))?;
    let shards = match (shards, total) {
        (Some(range), Some(total)) => {
            let bad = || CliError::Usage(format!("--shards takes A-B, e.g. 0-3, not '{range}'"));
            let (a, b) = range.split_once('-').ok_or_else(bad)?;
            let (a, b): (u32, u32) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
            if a > b || b >= total {
                return Err(CliError::Usage(format!(
                    "--shards {a}-{b} does not fit --total {total}"
                )));
            }
            Some((a, b, total))
        }
        _ => None,
    };
    let guild = match std::env::var("DISCORD_GUILD_ID") {
        Ok(g) => Some(g.parse::<u64>().map_err(|_| {
            CliError::Usage("DISCORD_GUILD_ID must be a guild id (a number)".into())
        })?),
        Err(_) => None,
    };
    let options = crate::discord::Options {
        token,
        api_url: std::env::var("DISCORD_API_URL").ok(),
        api_at: api_at()?,
        database_url,
        guild,
        shards,
        metrics,
        message_content,
        web,
        // Read from the environment only: a flag's value shows in `ps`.
        client_secret: std::env::var("DISCORD_CLIENT_SECRET")
            .ok()
            .filter(|s| !s.trim().is_empty()),
    };
    let rt = tokio::runtime::Runtime::new().map_err(CliError::Io)?;
    rt.block_on(crate::discord::run(options, stop_signal()))
        .map(|()| 0)
        .map_err(CliError::Usage)
}

/// Ctrl-C or SIGTERM.
async fn stop_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let Ok(mut term) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        else {
            let _ = ctrl_c.await;
            return;
        };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

/// Longest record read from stdin.
const MAX_RECORD: u64 = 1 << 20;

fn moves_or_stdin(
    moves: Vec<String>,
    stdin: &mut dyn Read,
    stdin_is_terminal: bool,
) -> Result<Vec<String>, CliError> {
    // Moves read as the chat reads them: fullwidth forms, a move's Cyrillic look-alike
    // letters, `×` and dashes are what they look like.
    let ascii = |m: &str| -> String {
        let m = ugolki_core::table::clean::fold_look_alikes(m);
        ugolki_core::table::clean::fold_move_look_alikes(&m).into_owned()
    };
    if !moves.is_empty() || stdin_is_terminal {
        return Ok(moves.into_iter().map(|m| ascii(&m)).collect());
    }
    let mut text = String::new();
    stdin
        .take(MAX_RECORD + 1)
        .read_to_string(&mut text)
        .map_err(|e| CliError::Usage(format!("cannot read the record on stdin: {e}")))?;
    if text.len() as u64 > MAX_RECORD {
        return Err(CliError::Usage(
            "the record on stdin is larger than 1 MiB".into(),
        ));
    }
    // Each move once read: a record's ` — ` before its result is no move's dash.
    Ok(ugolki_core::notation::record_moves(&text)
        .into_iter()
        .map(ascii)
        .collect())
}

#[cfg(test)]
mod url_tests {
    /// `--db` and `DATABASE_URL` take a URL as it is and a plain path as an `SQLite` file.
    #[test]
    fn a_database_is_a_url_or_a_plain_sqlite_file() {
        assert_eq!(super::as_url("games.db"), "sqlite://games.db");
        assert_eq!(
            super::as_url("/var/lib/ugolki/games.db"),
            "sqlite:///var/lib/ugolki/games.db"
        );
        assert_eq!(super::as_url("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(super::as_url("sqlite::memory:"), "sqlite::memory:");
        assert_eq!(super::as_url("sqlite://x.db"), "sqlite://x.db");
    }
}
