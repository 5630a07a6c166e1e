//! The console as a platform: its "calls" print lines. Replies print as text (private ones
//! as `bot → NAME:`, edits of a living message as `bot (edits board #12):`), buttons as
//! `[Accept] [Decline]`; boards are written as PNG files (path printed) and drawn as text.
//! A reply is printed the moment it is marked sent (a terminal cannot be asked what it
//! showed: the mark goes first, then the text at once, then the picture's file), so a kill
//! can lose a line only in the microseconds between the two, and never repeats one.

use super::text_board;
use crate::outbox::{Class, Content, ImageKind, Job, Pace, Posted, Surface};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use ugolki_core::store::SlotRow;
use ugolki_core::table::{Action, Audience, ChatRef, Outgoing, Platform, Slot, SlotUse};
use ugolki_core::words::{english, Lang, Msg};

/// Where boards go and how they are named; the buttons shown so far; what is printed.
pub struct Console {
    dir: PathBuf,
    run: String,
    seq: AtomicU64,
    /// The newest button with each label.
    buttons: Mutex<HashMap<String, Action>>,
    /// Where lines go (the terminal).
    out: Mutex<Box<dyn Write + Send>>,
    /// With `--web`: each game's links, printed under its first board.
    links: Option<Links>,
}

/// With `--web`, for each game whose board the console prints (whatever made it: a line, a
/// timer, a tournament's next round), once: the board's address in a browser and, for each
/// of its console players, a one-time link that signs them in there (so the board can be
/// tried with no platform and no token).
struct Links {
    url: String,
    seats: std::sync::Arc<crate::web::seats::Seats>,
    /// The games whose links were printed.
    printed: Mutex<std::collections::HashSet<i64>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn slot_name(slot: Slot) -> String {
    match slot {
        Slot::Board(id) => format!("board #{id}"),
        Slot::Challenge(id) => format!("challenge #{id}"),
        Slot::Tournament(id) => format!("tournament #{id}"),
    }
}

impl Console {
    #[must_use]
    pub fn new(dir: PathBuf, run: &str, out: Box<dyn Write + Send>) -> Console {
        Console {
            dir,
            run: run.to_string(),
            seq: AtomicU64::new(0),
            buttons: Mutex::new(HashMap::new()),
            out: Mutex::new(out),
            links: None,
        }
    }

    /// Print each game's links to the pages at `url`, seats given by `seats`.
    #[must_use]
    pub fn with_links(
        mut self,
        url: String,
        seats: std::sync::Arc<crate::web::seats::Seats>,
    ) -> Console {
        self.links = Some(Links {
            url,
            seats,
            printed: Mutex::default(),
        });
        self
    }

    /// The lines of the links of a board's game, the first time one is printed.
    fn links_of(&self, o: &Outgoing) -> Vec<String> {
        let (Some(links), Some(game), Some(ugolki_core::table::Picture::Board(b))) =
            (&self.links, o.game, &o.picture)
        else {
            return Vec::new();
        };
        if !lock(&links.printed).insert(game) {
            return Vec::new();
        }
        let mut lines = vec![english(&Msg::ConsoleWebGame {
            id: game,
            url: format!("{}/app/g/{game}", links.url),
        })];
        let minutes =
            i64::try_from(crate::web::seats::CODE_LIFE.as_secs() / 60).unwrap_or(i64::MAX);
        for name in [&b.names.0, &b.names.1] {
            // The engine plays from no browser.
            if !super::valid_name(name) {
                continue;
            }
            let code = links.seats.invite(super::user(name), game);
            lines.push(english(&Msg::ConsoleWebSeat {
                name: name.clone(),
                url: format!("{}/app/in/{code}", links.url),
                minutes,
            }));
        }
        lines
    }

    /// The newest button labelled `label`.
    #[must_use]
    pub fn button(&self, label: &str) -> Option<Action> {
        lock(&self.buttons).get(label).copied()
    }

    /// Print a line of the console's own (an echo, a word about a line).
    pub fn say(&self, line: &str) -> std::io::Result<()> {
        let mut out = lock(&self.out);
        writeln!(out, "{line}")?;
        out.flush()
    }

    /// Print one reply: the text, its picture's file name (a board also as text), its
    /// buttons — then write the picture's file.
    fn print(&self, o: &Outgoing, c: &Content) -> std::io::Result<u64> {
        let n = self.seq.fetch_add(1, Ordering::Relaxed) + 1;
        let mut text = Vec::new();
        let who = match (o.audience, o.slot) {
            (Audience::Sender, _) => format!(
                "bot → {}",
                o.sender.as_ref().map_or("you", |u| u.name.as_str())
            ),
            (Audience::Chat, Some(SlotUse::Edit(slot))) => {
                format!("bot (edits {})", slot_name(slot))
            }
            (Audience::Chat, _) => "bot".to_string(),
        };
        for line in c.text.lines() {
            writeln!(text, "{who}: {line}")?;
        }
        let file = c.image.as_ref().map(|image| {
            let (stem, ext) = match image.kind {
                ImageKind::Board => ("board", "png"),
                ImageKind::Chart => ("chart", "png"),
                ImageKind::Standings => ("standings", "png"),
                ImageKind::Replay => ("replay", "gif"),
            };
            let path = self.dir.join(format!("{stem}-{}-{n:04}.{ext}", self.run));
            (stem, path, &image.bytes)
        });
        if let Some((label, path, bytes)) = &file {
            // Written first: a line never names a file that is not there. Not written (a
            // folder this user may not write), the reply still goes out, and the log (on
            // the terminal too) says why.
            let written =
                std::fs::create_dir_all(&self.dir).and_then(|()| std::fs::write(path, bytes));
            match written {
                Ok(()) => writeln!(text, "{who}: [{label}] {}", path.display())?,
                Err(e) => tracing::warn!(path = %path.display(), error = %e, "picture not written"),
            }
            if let Some(view) = &c.board {
                text.extend_from_slice(text_board::draw(view).as_bytes());
            }
        }
        if !c.actions.is_empty() {
            let labels = self.layout(&c.actions, c.lang);
            writeln!(text, "{who}: {}", labels.join(" "))?;
        }
        for line in self.links_of(o) {
            writeln!(text, "{line}")?;
        }
        let mut out = lock(&self.out);
        out.write_all(&text)?;
        out.flush()?;
        Ok(n)
    }
}

impl Surface for Console {
    type Error = std::io::Error;
    type Buttons = Vec<String>;

    fn platform(&self) -> Platform {
        Platform::Console
    }

    fn pace(&self, _chat: &ChatRef) -> Pace {
        Pace::FREE
    }

    fn marks_first(&self) -> bool {
        true
    }

    fn classify(&self, _e: &std::io::Error) -> Class {
        // A file that cannot be written will not be written by trying again.
        Class::Gone
    }

    /// `[Label]` for each button; the newest of each label is the one `NAME: [Label]`
    /// presses.
    fn layout(&self, actions: &[Action], _lang: Lang) -> Vec<String> {
        let mut buttons = lock(&self.buttons);
        actions
            .iter()
            .map(|a| {
                let label = english(&a.label());
                buttons.insert(label.clone(), *a);
                format!("[{label}]")
            })
            .collect()
    }

    async fn send(&self, job: &Job<'_>, c: &Content) -> std::io::Result<Posted> {
        let n = self.print(job.out, c)?;
        Ok(Posted {
            message_id: n.to_string(),
            place: None,
            photo: c.image.is_some(),
            extra_calls: 0,
        })
    }

    async fn edit(&self, job: &Job<'_>, _at: &SlotRow, c: &Content) -> std::io::Result<()> {
        self.print(job.out, c).map(|_| ())
    }

    async fn clear_buttons(&self, _chat: &ChatRef, _at: &SlotRow) -> std::io::Result<()> {
        // Printed buttons cannot be taken back; an old one is refused when pressed.
        Ok(())
    }

    async fn one_message(
        &self,
        job: &Job<'_>,
        c: &Content,
        _: &crate::outbox::one_message::Shown,
    ) -> std::io::Result<bool> {
        self.print(job.out, c).map(|_| c.image.is_some())
    }
}
