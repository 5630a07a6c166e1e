//! The console adapter: a local chat in the terminal. Each line is `NAME: text`; every name
//! that speaks or is mentioned with `@` is a user of the chat. Replies print as text; boards
//! are written as PNG files (path printed) and drawn as text too.

mod text_board;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use ugolki_core::store::Store;
use ugolki_core::table::{Config, Incoming, Mention, Outgoing, SystemTime, Table, User};
use ugolki_render::{Renderer, Scene};

/// The chat the console plays in.
const PLATFORM: &str = "console";
const CHAT: &str = "console";

/// Longest input line read.
const MAX_LINE: u64 = 4096;

/// Drop the rest of an over-long line.
fn skip_rest_of_line(lines: &mut dyn BufRead) -> std::io::Result<()> {
    let mut sink = Vec::new();
    lines.read_until(b'\n', &mut sink).map(|_| ())
}

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

/// Read one line of the local chat: `NAME: text`.
pub fn parse_line(line: &str, run: &str, n: u64) -> Result<Option<Incoming>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let Some((name, text)) = line.split_once(':') else {
        return Err("write lines as NAME: text, e.g. alice: /challenge @bob".into());
    };
    let name = name.trim();
    if !valid_name(name) {
        return Err(format!(
            "'{}' is not a name here: letters, digits, _ . - (at most {MAX_NAME})",
            name.chars().take(MAX_NAME).collect::<String>()
        ));
    }
    let text = text.trim().to_string();
    let mentions = text
        .split_whitespace()
        .filter_map(|w| w.strip_prefix('@'))
        .map(|w| w.trim_end_matches([',', '.', '!', '?']))
        .filter(|w| valid_name(w))
        .map(|w| Mention::User(user(w)))
        .collect();
    Ok(Some(Incoming {
        platform: PLATFORM.into(),
        chat: CHAT.into(),
        user: user(name),
        message_id: format!("{run}-{n}"),
        text,
        mentions,
    }))
}

/// Where boards go and how they are named.
pub struct Boards {
    dir: PathBuf,
    run: String,
    seq: u64,
    renderer: Renderer,
}

impl Boards {
    #[must_use]
    pub fn new(dir: &Path, run: &str) -> Boards {
        Boards {
            dir: dir.to_path_buf(),
            run: run.to_string(),
            seq: 0,
            renderer: Renderer::default(),
        }
    }

    /// Print one reply: the text, and for a board the PNG's path and a text board.
    pub fn print(&mut self, out: &mut dyn Write, o: &Outgoing) -> std::io::Result<()> {
        for line in o.text.lines() {
            writeln!(out, "bot: {line}")?;
        }
        if let Some(chart) = &o.chart {
            self.seq += 1;
            let path = self
                .dir
                .join(format!("chart-{}-{:04}.png", self.run, self.seq));
            std::fs::create_dir_all(&self.dir)?;
            std::fs::write(&path, self.renderer.chart(chart))?;
            writeln!(out, "bot: [chart] {}", path.display())?;
        }
        let Some(view) = &o.board else {
            return Ok(());
        };
        if let Some(scene) = Scene::from_view(view) {
            self.seq += 1;
            let path = self
                .dir
                .join(format!("board-{}-{:04}.png", self.run, self.seq));
            std::fs::create_dir_all(&self.dir)?;
            std::fs::write(&path, self.renderer.render(&scene))?;
            writeln!(out, "bot: [board] {}", path.display())?;
        }
        out.write_all(text_board::draw(view).as_bytes())
    }
}

/// Options of `ugolki console`.
pub struct Options {
    pub database_url: String,
    pub boards: PathBuf,
    pub script: Option<PathBuf>,
}

/// Run the console: lines from `--script` (echoed, then exit) or from `input` until it ends.
pub fn run(
    options: &Options,
    input: &mut dyn BufRead,
    interactive: bool,
    out: &mut dyn Write,
) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start: {e}"))?;
    let store = rt
        .block_on(Store::connect(&options.database_url))
        .map_err(|e| format!("cannot open the database {}: {e}", options.database_url))?;
    let table = Arc::new(
        rt.block_on(Table::open(store, Arc::new(SystemTime), Config::default()))
            .map_err(|e| format!("cannot load games: {e}"))?,
    );
    // Message ids must never repeat across runs on one database (a repeat is ignored):
    // the start time to the nanosecond and the process id make each run's ids its own.
    let run = format!(
        "{}-{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
        std::process::id()
    );
    let mut boards = Boards::new(&options.boards, &run);
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
    if interactive && !echo {
        let _ = writeln!(out, "ugolki console — type lines as NAME: text (alice: /challenge @bob), /help for commands, Ctrl-D to quit.");
        // Timers (flags, expiries, automatic moves) print as they fire.
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Outgoing>(64);
        rt.spawn(table.clone().run_timers(tx));
        let dir = options.boards.clone();
        let run2 = run.clone();
        std::thread::spawn(move || {
            let mut boards = Boards::new(&dir, &format!("{run2}-t"));
            let stdout = std::io::stdout();
            while let Some(o) = rx.blocking_recv() {
                let _ = boards.print(&mut stdout.lock(), &o);
            }
        });
    }
    let mut n = 0u64;
    let mut line = String::new();
    loop {
        line.clear();
        // Read at most 4 KiB of a line; nobody types more, and the rest is skipped.
        match std::io::Read::take(&mut *lines, MAX_LINE).read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("cannot read input: {e}")),
        }
        n += 1;
        if !line.ends_with('\n') && line.len() as u64 == MAX_LINE {
            skip_rest_of_line(lines).map_err(|e| format!("cannot read input: {e}"))?;
            let _ = writeln!(
                out,
                "console: that line is longer than {MAX_LINE} bytes; it was ignored"
            );
            continue;
        }
        if echo && !line.trim().is_empty() {
            let _ = writeln!(out, "> {}", line.trim_end());
        }
        match parse_line(&line, &run, n) {
            Ok(None) => {}
            Ok(Some(msg)) => {
                for o in rt.block_on(table.handle(&msg)) {
                    boards
                        .print(out, &o)
                        .map_err(|e| format!("cannot write: {e}"))?;
                }
            }
            Err(e) => {
                let _ = writeln!(out, "console: {e}");
            }
        }
    }
    Ok(())
}
