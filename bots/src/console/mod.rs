//! The console adapter: a local chat in the terminal. Each line is `NAME: text`; every name
//! that speaks or is mentioned with `@` is a user of the chat. `NAME: [Label]` presses the
//! newest button with that label. Replies print as text (private ones as `bot → NAME:`,
//! edits of a living message as `bot (edits board #12):`), buttons as `[Accept] [Decline]`;
//! boards are written as PNG files (path printed) and drawn as text too.

mod text_board;

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use ugolki_core::store::Store;
use ugolki_core::table::clean::clean;
use ugolki_core::table::{
    Action, Audience, Incoming, Input, Mention, Origin, Outgoing, Platform, Slot, SlotUse,
    SystemTime, Table, User,
};
use ugolki_core::words::{english, Msg};
use ugolki_render::{Renderer, Scene};

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
            name: clean(name).chars().take(MAX_NAME).collect(),
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

fn origin(name: &str, run: &str, n: u64) -> Origin {
    Origin {
        platform: Platform::Console,
        chat: CHAT.into(),
        user: user(name),
        message_id: format!("{run}-{n}"),
        locale: None,
        group_admin: None,
    }
}

/// Where boards go and how they are named; the buttons shown so far.
pub struct Boards {
    dir: PathBuf,
    run: String,
    seq: u64,
    renderer: Renderer,
    /// The newest button with each label.
    buttons: HashMap<String, Action>,
}

fn slot_name(slot: Slot) -> String {
    match slot {
        Slot::Board(id) => format!("board #{id}"),
        Slot::Challenge(id) => format!("challenge #{id}"),
    }
}

impl Boards {
    #[must_use]
    pub fn new(dir: &Path, run: &str) -> Boards {
        Boards {
            dir: dir.to_path_buf(),
            run: run.to_string(),
            seq: 0,
            renderer: Renderer::default(),
            buttons: HashMap::new(),
        }
    }

    /// The newest button labelled `label`.
    #[must_use]
    pub fn button(&self, label: &str) -> Option<Action> {
        self.buttons.get(label).copied()
    }

    /// Print one reply (`sender`: who sent the line it answers): the text, its buttons, and
    /// for a board the PNG's path and a text board.
    pub fn print(
        &mut self,
        out: &mut dyn Write,
        o: &Outgoing,
        sender: Option<&str>,
    ) -> std::io::Result<()> {
        let who = match (&o.audience, o.slot) {
            (Audience::Sender, _) => format!("bot → {}", sender.unwrap_or("you")),
            (Audience::User(u), _) => format!("bot → {}", u.name),
            (Audience::Chat, Some(SlotUse::Edit(slot))) => {
                format!("bot (edits {})", slot_name(slot))
            }
            (Audience::Chat, _) => "bot".to_string(),
        };
        for line in o.text().lines() {
            writeln!(out, "{who}: {line}")?;
        }
        if let Some(chart) = &o.chart {
            self.seq += 1;
            let path = self
                .dir
                .join(format!("chart-{}-{:04}.png", self.run, self.seq));
            std::fs::create_dir_all(&self.dir)?;
            std::fs::write(&path, self.renderer.chart(chart))?;
            writeln!(out, "{who}: [chart] {}", path.display())?;
        }
        if let Some(view) = &o.board {
            self.seq += 1;
            let path = self
                .dir
                .join(format!("board-{}-{:04}.png", self.run, self.seq));
            std::fs::create_dir_all(&self.dir)?;
            std::fs::write(&path, self.renderer.render(&Scene::from_view(view)))?;
            writeln!(out, "{who}: [board] {}", path.display())?;
            out.write_all(text_board::draw(view).as_bytes())?;
        }
        if !o.replay.is_empty() {
            self.seq += 1;
            let path = self
                .dir
                .join(format!("replay-{}-{:04}.gif", self.run, self.seq));
            let scenes: Vec<Scene> = o.replay.iter().map(Scene::from_view).collect();
            match ugolki_render::Renderer::for_replays().animate(&scenes) {
                Ok(gif) => {
                    std::fs::create_dir_all(&self.dir)?;
                    std::fs::write(&path, gif)?;
                    writeln!(out, "{who}: [replay] {}", path.display())?;
                }
                Err(e) => tracing::error!(error = %e, "replay not drawn"),
            }
        }
        if !o.actions.is_empty() {
            let labels: Vec<String> = o
                .actions
                .iter()
                .map(|a| {
                    let label = english(&a.label());
                    self.buttons.insert(label.clone(), *a);
                    format!("[{label}]")
                })
                .collect();
            writeln!(out, "{who}: {}", labels.join(" "))?;
        }
        Ok(())
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
}

/// Print replies and report their boards' delivery (the console shows them at once).
fn show(
    rt: &tokio::runtime::Runtime,
    table: &Table,
    boards: &mut Boards,
    out: &mut dyn Write,
    replies: &[Outgoing],
    sender: Option<&str>,
) -> Result<(), String> {
    for o in replies {
        boards
            .print(out, o, sender)
            .map_err(|e| format!("cannot write: {e}"))?;
        if let (Some(game), Some(ply)) = (o.game, o.ply) {
            rt.block_on(table.delivered(game, ply, crate::now_ms()));
        }
    }
    Ok(())
}

/// The runtime and the table on the database of `options`.
fn open(options: &Options) -> Result<(tokio::runtime::Runtime, Arc<Table>), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start: {e}"))?;
    let store = rt
        .block_on(Store::connect(&options.database_url))
        .map_err(|e| {
            format!(
                "cannot open the database {}: {e}",
                ugolki_core::store::display_url(&options.database_url)
            )
        })?;
    let table = Arc::new(
        rt.block_on(Table::open(
            store,
            Arc::new(SystemTime),
            ugolki_core::table::Config::default(),
        ))
        .map_err(|e| format!("cannot load games: {e}"))?,
    );
    Ok((rt, table))
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

/// Run the console: lines from `--script` (echoed, then exit) or from `input` until it ends.
pub fn run(
    options: &Options,
    input: &mut dyn BufRead,
    interactive: bool,
    out: &mut dyn Write,
) -> Result<(), String> {
    let (rt, table) = open(options)?;
    let (run, tag) = names(options);
    let mut boards = Boards::new(&options.boards, &tag);
    let echo = options.script.is_some();
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
    // The heartbeat runs in every mode: after a crash, clocks get back only the time since
    // the last beat.
    rt.spawn(table.clone().keep_alive());
    if let Some(addr) = options.metrics {
        // The console's "platform" is this terminal: always there.
        let health = crate::observe::Health::new(table.store().clone());
        health.platform_up(true);
        rt.block_on(crate::observe::serve(addr, health, "console"))?;
    }
    if interactive && !echo {
        let _ = writeln!(out, "{}", english(&Msg::ConsoleWelcome));
        // Timers (flags, expiries, automatic moves) print as they fire.
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Outgoing>(64);
        rt.spawn(table.clone().run_timers(tx));
        let dir = options.boards.clone();
        let run2 = tag.clone();
        std::thread::spawn(move || {
            let mut boards = Boards::new(&dir, &format!("{run2}-t"));
            let stdout = std::io::stdout();
            while let Some(o) = rx.blocking_recv() {
                let _ = boards.print(&mut stdout.lock(), &o, None);
            }
        });
    }
    let console_says = |out: &mut dyn Write, m: &Msg| {
        let _ = writeln!(out, "console: {}", english(m));
    };
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
            let mut sink = Vec::new();
            lines
                .read_until(b'\n', &mut sink)
                .map_err(|e| format!("cannot read input: {e}"))?;
            console_says(
                out,
                &Msg::ConsoleLineTooLong {
                    max: MAX_LINE as usize,
                },
            );
            continue;
        }
        // A line that is not UTF-8 is answered and skipped; the session goes on.
        let Ok(line) = String::from_utf8(std::mem::take(&mut raw)) else {
            console_says(out, &Msg::ConsoleNotText);
            continue;
        };
        if echo && !line.trim().is_empty() {
            let _ = writeln!(out, "> {}", clean(line.trim_end()));
        }
        let incoming = match parse_line(&line, &run, n) {
            Ok(None) => continue,
            Ok(Some(Line::Say(msg))) => *msg,
            Ok(Some(Line::Press { who, label })) => {
                let Some(action) = boards.button(&label) else {
                    console_says(out, &Msg::ConsoleNoSuchButton { label });
                    continue;
                };
                Incoming {
                    origin: origin(&who, &run, n),
                    input: Input::Action(action),
                }
            }
            Err(m) => {
                console_says(out, &m);
                continue;
            }
        };
        let replies = rt.block_on(table.handle(&incoming));
        let sender = incoming.origin.user.name.clone();
        show(&rt, &table, &mut boards, out, &replies, Some(&sender))?;
        if !interactive || echo {
            // No live timers here: what is due now (the bot's answer, a flag that fell
            // while the line was typed) fires before the next line.
            let fired = rt.block_on(table.fire_due());
            show(&rt, &table, &mut boards, out, &fired, None)?;
        }
    }
    Ok(())
}
