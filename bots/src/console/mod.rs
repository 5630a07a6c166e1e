//! The console adapter: a local chat in the terminal. Each line is `NAME: text`; every name
//! that speaks or is mentioned with `@` is a user of the chat. `NAME: [Label]` presses the
//! newest button with that label. Replies go through the outbox like every platform's and
//! are printed by its console surface (`surface.rs`) before the next line is read.

mod surface;
mod text_board;

pub use surface::Console;

use crate::outbox::Outbox;
use crate::service::{Service, Start};
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::Arc;
use ugolki_core::table::clean::clean;
use ugolki_core::table::{
    ChatKind, ChatRef, Incoming, Input, Mention, Origin, Platform, Table, User,
};
use ugolki_core::words::{english, Msg};

/// The chat the console plays in.
const CHAT: &str = "console";

/// Longest input line read.
const MAX_LINE: u64 = 4096;

/// Longest name the console accepts.
const MAX_NAME: usize = 32;

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

fn user(name: &str) -> User {
    User {
        id: name.to_lowercase(),
        name: name.to_string(),
        handle: Some(name.to_lowercase()),
    }
}

/// What a line of the local chat is.
#[derive(Debug)]
pub enum Line {
    /// Typed text.
    Say(Box<Incoming>),
    /// `NAME: [Label]`: a button press, to be matched with the buttons shown.
    Press { who: String, label: String },
}

/// Read one line of the local chat: `NAME: text` or `NAME: [Label]`.
pub fn parse_line(line: &str, run: &str, n: u64) -> Result<Option<Line>, Msg> {
    // Cleaned first, as the table cleans every message: an invisible character after a
    // name (`alice\u{200B}: …`, `@mallory\u{200B}`) is not the name's fault.
    let line = clean(line);
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let Some((name, text)) = line.split_once(':') else {
        return Err(Msg::ConsoleLineShape);
    };
    let name = name.trim();
    if !valid_name(name) {
        // Never echoed with its invisible or control characters.
        return Err(Msg::ConsoleBadName {
            name: name.chars().take(MAX_NAME).collect(),
            max: MAX_NAME,
        });
    }
    let text = text.trim();
    if let Some(label) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        return Ok(Some(Line::Press {
            who: name.to_string(),
            label: label.trim().to_string(),
        }));
    }
    let mentions = text
        .split_whitespace()
        .filter_map(|w| w.strip_prefix('@'))
        .map(|w| w.trim_end_matches([',', '.', '!', '?']))
        .filter(|w| valid_name(w))
        .map(|w| Mention::User(user(w)))
        .collect();
    Ok(Some(Line::Say(Box::new(Incoming::text(
        origin(name, run, n),
        text,
        mentions,
    )))))
}

fn chat() -> ChatRef {
    ChatRef::new(Platform::Console, CHAT, ChatKind::Group)
}

fn origin(name: &str, run: &str, n: u64) -> Origin {
    Origin {
        // Nobody replies to a line of the terminal: the answer follows it.
        reply_to: None,
        ..Origin::message(chat(), user(name), format!("{run}-{n}"))
    }
}

/// Options of `ugolki console`.
pub struct Options {
    pub database_url: String,
    pub boards: PathBuf,
    pub script: Option<PathBuf>,
    /// The session's name, for message ids that repeat on purpose (`--session`).
    pub session: Option<String>,
    /// `--metrics ADDR`: serve `/health` and `/metrics` there.
    pub metrics: Option<std::net::SocketAddr>,
    /// `--web ADDR`: serve the public pages there.
    pub web: Option<crate::web::Pages>,
}

/// The console's process: the service, and the outbox printing through the console.
struct Running {
    rt: tokio::runtime::Runtime,
    service: Service,
    outbox: Arc<Outbox<Console>>,
}

impl Running {
    fn table(&self) -> &Arc<Table> {
        &self.service.table
    }

    /// Print what waits in the outbox for the console's chat (a pause first, when the
    /// crash test asks for one: see [`REPLY_PAUSE`]).
    fn flush(&self) {
        if let Some(ms) = std::env::var(REPLY_PAUSE).ok().and_then(|v| v.parse().ok()) {
            std::thread::sleep(std::time::Duration::from_millis(ms));
        }
        // Let go of the chat after: another console on the database shows its own lines.
        self.rt.block_on(self.outbox.flush(CHAT, true));
    }

    /// Without live timers: fire what is due now (a flag, an expiry, the bot's answer) and
    /// print what it said.
    fn fire_due(&self) {
        self.rt.block_on(self.table().fire_due());
        self.flush();
    }

    /// A line of the console's own.
    fn say(&self, line: &str) {
        let _ = self.outbox.surface().say(line);
    }
}

/// Fault injection for the crash test: milliseconds to wait between a line's change being
/// committed and its replies being printed, so a kill can fall there.
pub const REPLY_PAUSE: &str = "UGOLKI_CONSOLE_REPLY_PAUSE_MS";

/// Fault injection for the crash test: milliseconds a tournament's step waits between
/// being worked out and being written (see `Config::tournament_step_pause_ms`).
pub const TOURNAMENT_STEP_PAUSE: &str = "UGOLKI_TOURNAMENT_STEP_PAUSE_MS";

/// The runtime, the table on the database of `options`, and the outbox (delivering in the
/// background in a terminal, where timers fire as they come).
fn open(options: &Options, tag: &str, live: bool) -> Result<Running, String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start: {e}"))?;
    // The console's players sign in to the board through the links it prints.
    let mut web = options.web.clone();
    let seats = Arc::new(crate::web::seats::Seats::default());
    if let Some(pages) = &mut web {
        pages.seats = Some(seats.clone());
    }
    let mut service = rt.block_on(Service::start(Start {
        database_url: &options.database_url,
        config: ugolki_core::table::Config {
            tournament_step_pause_ms: std::env::var(TOURNAMENT_STEP_PAUSE)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0),
            ..ugolki_core::table::Config::default()
        },
        metrics: options.metrics,
        web: web.clone(),
        platform: "console",
        timers: live,
    }))?;
    // The console's "platform" is this terminal: always there.
    service.health.platform_up(true);
    let mut surface = Console::new(options.boards.clone(), tag, Box::new(std::io::stdout()));
    if let Some(pages) = &web {
        surface = surface.with_links(pages.url.clone(), seats.clone());
    }
    let surface = Arc::new(surface);
    let outbox = {
        let _rt = rt.enter();
        if live {
            service.deliver(surface)
        } else {
            Outbox::new(service.table.clone(), surface)
        }
    };
    Ok(Running {
        rt,
        service,
        outbox,
    })
}

/// The run's name, which message ids start with, and the tag its board files carry.
/// Message ids must never repeat across runs on one database (a repeat is ignored): the
/// start time to the nanosecond and the process id make each run's ids its own, unless the
/// session is named on purpose; then two processes in it still name their boards apart.
fn names(options: &Options) -> (String, String) {
    let run = options.session.clone().unwrap_or_else(|| {
        format!(
            "{}-{}",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
            std::process::id()
        )
    });
    let tag = match &options.session {
        Some(_) => format!("{run}-{}", std::process::id()),
        None => run.clone(),
    };
    (run, tag)
}

/// Skip input up to and including the next line break (or its end), holding nothing but
/// the reader's own buffer.
fn skip_line(input: &mut dyn BufRead) -> std::io::Result<()> {
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(i) = buf.iter().position(|b| *b == b'\n') {
            input.consume(i + 1);
            return Ok(());
        }
        let n = buf.len();
        input.consume(n);
    }
}

/// Run the console: lines from `--script` (echoed, then exit) or from `input` until it
/// ends; everything is printed on standard output.
pub fn run(options: &Options, input: &mut dyn BufRead, interactive: bool) -> Result<(), String> {
    let (run, tag) = names(options);
    let echo = options.script.is_some();
    // Live in a terminal, and with `--web`: a move made on the page is printed as it is
    // played, not when the next line comes.
    let live = (interactive || options.web.is_some()) && !echo;
    let r = open(options, &tag, live)?;
    let mut script_reader;
    let lines: &mut dyn BufRead = match &options.script {
        Some(path) => {
            let file = std::fs::File::open(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            script_reader = std::io::BufReader::new(file);
            &mut script_reader
        }
        None => input,
    };
    if live {
        // Timers (flags, expiries, automatic moves) print as they fire.
        r.say(&english(&Msg::ConsoleWelcome));
        if let Some(pages) = &options.web {
            let url = pages.url.clone();
            r.say(&english(&Msg::ConsoleWebAt { url }));
        }
    }
    // Replies a process before this one committed but did not show (it died) come first.
    r.flush();
    let console_says = |m: &Msg| r.say(&format!("console: {}", english(m)));
    let mut n = 0u64;
    let mut raw = Vec::new();
    loop {
        raw.clear();
        // Read at most 4 KiB of a line; nobody types more, and the rest is skipped.
        match std::io::Read::take(&mut *lines, MAX_LINE).read_until(b'\n', &mut raw) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("cannot read input: {e}")),
        }
        n += 1;
        if !raw.ends_with(b"\n") && raw.len() as u64 == MAX_LINE {
            // Refused at once; the rest of the line is skipped as it comes, a buffer at a
            // time, so a line of any length costs no memory.
            console_says(&Msg::ConsoleLineTooLong {
                max: MAX_LINE as usize,
            });
            skip_line(lines).map_err(|e| format!("cannot read input: {e}"))?;
            continue;
        }
        // A line that is not UTF-8 is answered and skipped; the session goes on.
        let Ok(line) = String::from_utf8(std::mem::take(&mut raw)) else {
            console_says(&Msg::ConsoleNotText);
            continue;
        };
        if echo && !line.trim().is_empty() {
            r.say(&format!("> {}", clean(line.trim_end())));
        }
        let incoming = match parse_line(&line, &run, n) {
            Ok(None) => continue,
            Ok(Some(Line::Say(msg))) => *msg,
            Ok(Some(Line::Press { who, label })) => {
                let Some(action) = r.outbox.surface().button(&label) else {
                    console_says(&Msg::ConsoleNoSuchButton { label });
                    continue;
                };
                Incoming {
                    origin: origin(&who, &run, n),
                    input: Input::Action(action),
                }
            }
            Err(m) => {
                console_says(&m);
                continue;
            }
        };
        if !live {
            // What fell due while the line was being typed (a flag, an F1 abort) happened
            // first: the line sees the game as it is (`/record` after a flag shows it over).
            r.fire_due();
        }
        r.rt.block_on(r.table().handle(&incoming));
        r.flush();
        if !live {
            // No live timers here: what the line made due now (the bot's answer) fires
            // before the next line.
            r.fire_due();
        }
    }
    if !live {
        // The input ended: what fell due while waiting for it (a flag) is said before the
        // run ends, not by the next run on this database.
        r.fire_due();
    }
    let Running { rt, service, .. } = r;
    rt.block_on(service.stop(std::time::Duration::ZERO));
    Ok(())
}
