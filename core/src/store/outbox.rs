//! The outbox: every reply the table gives is a row here, written in the same transaction
//! as the change it tells of, and sent by one process per chat (a lease), in order, after
//! the commit. What is sent and where the living messages are (slots, threads) are rows
//! too, so a restart or a second process carries on where the first stopped.
//!
//! A row keeps what to say as codes (the message's key and arguments, the buttons' text
//! forms, the picture's spec), never prose or pictures: it is rendered in the reader's
//! language and drawn when sent.

use super::{Result, Store};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

/// One reply, as the outbox keeps it (the table turns its typed reply into this and back).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct OutRow {
    pub platform: String,
    pub chat_id: String,
    /// `group`, `private`, `one_message` or `topic`.
    pub chat_kind: String,
    /// The delivery lane it goes out in: its chat, or a topic's group
    /// ([`crate::table::ChatRef::lane`]).
    pub lane: String,
    /// A thread or topic inside the chat that the reply answers from.
    pub place: Option<String>,
    /// `chat` or `sender`.
    pub audience: String,
    pub sender_id: Option<String>,
    pub sender_name: Option<String>,
    /// The platform message it answers.
    pub reply_to: Option<String>,
    /// `replace` or `edit`, with the slot's kind (`board`, `challenge`) and id.
    pub slot_use: Option<String>,
    pub slot_kind: Option<String>,
    pub slot_id: Option<i64>,
    pub game_id: Option<i64>,
    /// A board that starts a clock: the ply to report once it is delivered.
    pub ply: Option<i64>,
    /// The message's code and arguments (JSON).
    pub message: String,
    pub lang: String,
    /// The buttons' text forms, separated by spaces.
    pub actions: String,
    /// The picture's spec (JSON), drawn when the row is sent.
    pub picture: Option<String>,
}

/// A row waiting in the outbox.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Queued {
    pub id: i64,
    #[sqlx(flatten)]
    pub row: OutRow,
    pub created_at: i64,
    /// The living message of the row's slot (a one-message chat's: its one message) as
    /// the row was read: read with it, in the same statement, since only the chat's lease
    /// holder changes it.
    #[sqlx(skip)]
    pub living: Option<SlotRow>,
    /// When the living message was last posted or changed (ms), read with it.
    #[sqlx(skip)]
    pub living_since: Option<i64>,
    /// Committed by this process without a notice to the others (its sender held the lane
    /// then: see [`Signal::notices`]).
    #[sqlx(skip)]
    pub untold: bool,
}

impl Queued {
    /// A row as its transaction wrote it (its slot's living message not known here).
    #[must_use]
    pub fn written(id: i64, row: OutRow, created_at: i64) -> Queued {
        Queued {
            id,
            row,
            created_at,
            living: None,
            living_since: None,
            untold: false,
        }
    }

    /// The slot whose living message the row shows or changes: a one-message chat's one
    /// message, or the row's own slot (kind, id).
    #[must_use]
    pub fn slot_key(&self) -> Option<(&str, i64)> {
        if self.row.chat_kind == "one_message" {
            return Some(ONE_MESSAGE_SLOT);
        }
        Some((self.row.slot_kind.as_deref()?, self.row.slot_id?))
    }
}

/// The slot a one-message chat's one message is kept in.
pub const ONE_MESSAGE_SLOT: (&str, i64) = ("message", 0);

/// A row read with its slot's living message (see [`Store::unsent`]).
#[derive(sqlx::FromRow)]
struct QueuedWithSlot {
    #[sqlx(flatten)]
    q: Queued,
    living_message_id: Option<String>,
    living_place: Option<String>,
    living_photo: Option<bool>,
    living_buttons: Option<bool>,
    living_state: Option<String>,
    living_updated_at: Option<i64>,
}

impl QueuedWithSlot {
    fn into_queued(self) -> Queued {
        let living = self.living_message_id.map(|message_id| SlotRow {
            message_id,
            place: self.living_place,
            photo: self.living_photo.unwrap_or(false),
            buttons: self.living_buttons.unwrap_or(false),
            state: self.living_state,
        });
        Queued {
            living,
            living_since: self.living_updated_at,
            ..self.q
        }
    }
}

/// How a row left the outbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The platform took it.
    Sent,
    /// What it asked for was there already (an edit to the same text).
    Unchanged,
    /// A later board of the same game, waiting behind it, said more: not sent.
    Overtaken,
    /// It cannot be delivered (the chat is gone, the bot was removed, it waited too long).
    Dropped,
}

impl Outcome {
    pub(crate) fn code(self) -> &'static str {
        match self {
            Outcome::Sent => "sent",
            Outcome::Unchanged => "unchanged",
            Outcome::Overtaken => "overtaken",
            Outcome::Dropped => "dropped",
        }
    }
}

/// Replies made from what a change came to.
pub type MakeRows<T> = Box<dyn FnOnce(&T) -> Vec<OutRow> + Send>;

/// What a change says: its replies as outbox rows, written in the change's own
/// transaction, so a change that commits is told even if the process dies at once.
pub enum Says<T> {
    Rows(Vec<OutRow>),
    /// Replies that depend on what the change came to (a new challenge's number, a game's
    /// rating changes): made inside the transaction, from its result.
    After(MakeRows<T>),
}

impl<T> Says<T> {
    /// A change with nothing to say.
    #[must_use]
    pub fn nothing() -> Says<T> {
        Says::Rows(Vec::new())
    }

    pub(crate) fn rows(self, result: &T) -> Vec<OutRow> {
        match self {
            Says::Rows(rows) => rows,
            Says::After(f) => f(result),
        }
    }
}

impl<T> std::fmt::Debug for Says<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Says::Rows(r) => write!(f, "Says::Rows({})", r.len()),
            Says::After(_) => f.write_str("Says::After"),
        }
    }
}

/// Lanes with new rows since their senders last looked, in this process: the committing
/// process wakes its own senders at once, without asking the store, and hands them the rows
/// it wrote (so that delivering them reads nothing). Other processes hear of new rows
/// through `PostgreSQL`'s `NOTIFY`, sent in the same transaction unless this process's
/// sender holds the lane ([`Signal::notices`]); a lane told of that way, or by the senders'
/// periodic look, is *unknown*: its sender reads the store. The signal also keeps which
/// lanes this process's senders hold.
#[derive(Debug, Default)]
pub struct Signal {
    state: Mutex<SignalState>,
    notify: tokio::sync::Notify,
    /// This store's name in the notices it sends (see [`NOTIFY_CHANNEL`]).
    origin: String,
}

#[derive(Debug, Default)]
struct SignalState {
    /// Lanes to wake.
    dirty: HashSet<(String, String)>,
    /// Rows committed by this process, per lane, not yet taken by its sender.
    fresh: HashMap<(String, String), Fresh>,
    /// Lanes this process's senders hold the lease of, until when (ms): a commit there
    /// tells no other process (see [`Signal::notices`]).
    held: HashMap<(String, String), i64>,
    /// Lanes committed to without a notice, since their sender last took.
    untold: HashSet<(String, String)>,
}

/// What a lane's sender is told of since it last took: the rows this process committed
/// there, in commit order, and whether rows may have come that only the store knows of.
#[derive(Debug, Default)]
pub struct Fresh {
    pub rows: Vec<Queued>,
    pub unknown: bool,
    /// Rows were committed there without telling other processes (this one held it).
    pub untold: bool,
}

/// What a commit's rows need said to the other processes ([`Signal::notices`]).
#[derive(Debug, Default)]
pub struct Notices {
    /// The `NOTIFY` payloads to send in the transaction.
    pub payloads: Vec<String>,
    /// Lanes this process's senders hold: not told.
    skipped: Vec<(String, String)>,
}

impl Notices {
    /// Note on the rows as written which were committed without a notice.
    pub fn mark(&self, written: &mut [Queued]) {
        for q in written {
            q.untold = self
                .skipped
                .iter()
                .any(|(p, l)| *p == q.row.platform && *l == q.row.lane);
        }
    }
}

/// Rows kept per lane for a sender that has not taken them; past this the lane is
/// unknown (its sender reads the store) and the rows are dropped from memory.
const MAX_FRESH: usize = 256;

/// A lease this process holds counts as held for a commit's notice only with this much of
/// it left (ms): far more than a commit takes, so its sender still holds the lane when the
/// rows reach it.
const HELD_MARGIN_MS: i64 = 2_000;

impl Signal {
    pub(crate) fn with_origin(origin: String) -> Signal {
        Signal {
            origin,
            ..Signal::default()
        }
    }

    /// This store's name in its notices (empty on `SQLite`, which sends none).
    #[must_use]
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// A notice from `PostgreSQL` (see [`NOTIFY_CHANNEL`]): its lane marked unknown,
    /// unless this store sent it.
    pub fn heard(&self, payload: &str) {
        let (body, from) = payload.split_once('\t').unwrap_or((payload, ""));
        if !self.origin.is_empty() && from == self.origin {
            return;
        }
        if let Some((platform, lane)) = body.split_once(' ') {
            self.poke(platform, lane);
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, SignalState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn wake(&self, woke: bool) {
        if woke {
            self.notify.notify_waiters();
            self.notify.notify_one();
        }
    }

    /// Rows this process just committed: their lanes' senders are woken and handed them.
    /// The lanes of rows committed without a notice (see [`Signal::notices`]) whose sender
    /// no longer holds them are returned: the other processes must be told of them now.
    #[must_use]
    pub fn written(&self, rows: &[Queued]) -> Vec<(String, String)> {
        if rows.is_empty() {
            return Vec::new();
        }
        let mut late: Vec<(String, String)> = Vec::new();
        let woke = {
            let mut state = self.state();
            let before = state.dirty.len();
            for q in rows {
                let key = (q.row.platform.clone(), q.row.lane.clone());
                if q.untold {
                    if state.held.contains_key(&key) {
                        // Its sender takes them; should it let the lane go first, it tells.
                        state.untold.insert(key.clone());
                    } else if !late.contains(&key) {
                        late.push(key.clone());
                    }
                }
                let fresh = state.fresh.entry(key.clone()).or_default();
                if !fresh.unknown {
                    if fresh.rows.len() < MAX_FRESH {
                        fresh.rows.push(q.clone());
                    } else {
                        fresh.rows.clear();
                        fresh.unknown = true;
                    }
                }
                state.dirty.insert(key);
            }
            state.dirty.len() > before
        };
        self.wake(woke);
        late
    }

    /// Mark one lane as having rows only the store knows of (a notice from another
    /// process, rows waiting with nobody serving them, a chat moved here).
    pub fn poke(&self, platform: &str, lane: &str) {
        let woke = {
            let mut state = self.state();
            let key = (platform.to_string(), lane.to_string());
            let fresh = state.fresh.entry(key.clone()).or_default();
            fresh.rows.clear();
            fresh.unknown = true;
            state.dirty.insert(key)
        };
        self.wake(woke);
    }

    /// This process's sender holds the lease of `lane` until `until` (ms).
    pub fn hold(&self, platform: &str, lane: &str, until: i64) {
        self.state()
            .held
            .insert((platform.to_string(), lane.to_string()), until);
    }

    /// This process's sender no longer holds `lane`.
    pub fn let_go(&self, platform: &str, lane: &str) {
        self.state()
            .held
            .remove(&(platform.to_string(), lane.to_string()));
    }

    /// The notices (`NOTIFY` payloads, see [`NOTIFY_CHANNEL`]) that rows about to be
    /// committed at `now` need: one per lane that this process's senders do not hold. A lane
    /// one of them holds (with over [`HELD_MARGIN_MS`] of its lease left) is told of by
    /// [`Signal::written`] alone: its rows go out from here, and a `NOTIFY` would only make
    /// the committing transaction queue for `PostgreSQL`'s one notice lock. Whoever lets
    /// such a lane go before its sender took the rows tells the next holder then (see
    /// [`Signal::written`], [`Fresh::untold`]).
    #[must_use]
    pub fn notices(&self, rows: &[OutRow], now: i64) -> Notices {
        let state = self.state();
        let mut out = Notices::default();
        for (platform, lane) in lanes_of(rows) {
            let key = (platform.to_string(), lane.to_string());
            let held = state
                .held
                .get(&key)
                .is_some_and(|until| until - now > HELD_MARGIN_MS);
            if held {
                out.skipped.push(key);
            } else {
                out.payloads.push(notice(platform, lane, &self.origin));
            }
        }
        out
    }

    /// What the lane's sender has been told since it last took (nothing: no rows, known).
    pub fn take(&self, platform: &str, lane: &str) -> Fresh {
        let key = (platform.to_string(), lane.to_string());
        let mut state = self.state();
        let untold = state.untold.remove(&key);
        let fresh = state.fresh.remove(&key).unwrap_or_default();
        Fresh { untold, ..fresh }
    }

    /// Take the lanes marked so far, waiting for one if there is none. (Their rows wait
    /// for [`Signal::take`].)
    pub async fn changed(&self) -> Vec<(String, String)> {
        loop {
            let notified = self.notify.notified();
            {
                let mut state = self.state();
                if !state.dirty.is_empty() {
                    return state.dirty.drain().collect();
                }
            }
            notified.await;
        }
    }
}

/// The channel `PostgreSQL` tells of new rows on: the payload is `PLATFORM LANE`, a tab and
/// the committing store's origin, so that a process skips what it told itself already (its
/// senders were handed the rows).
pub const NOTIFY_CHANNEL: &str = "ugolki_outbox";

/// A notice's payload (see [`NOTIFY_CHANNEL`]).
fn notice(platform: &str, lane: &str, origin: &str) -> String {
    format!("{platform} {lane}\t{origin}")
}

/// A living message: where the message that shows a slot is, and what it shows.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct SlotRow {
    pub message_id: String,
    /// The channel or thread it is in, where the platform needs it (Discord).
    pub place: Option<String>,
    pub photo: bool,
    pub buttons: bool,
    /// What a one-message chat shows, in the platform's own words (JSON).
    pub state: Option<String>,
}

/// What delivering a row did to its slot (kept with the row's mark).
#[derive(Clone, Copy, Debug)]
pub enum SlotChange<'a> {
    /// The slot's living message is now `row`.
    Keep {
        platform: &'a str,
        chat: &'a str,
        slot: (&'a str, i64),
        row: &'a SlotRow,
    },
    /// Nothing will edit or strip the slot's message again (its game or challenge is over).
    Drop {
        platform: &'a str,
        chat: &'a str,
        slot: (&'a str, i64),
    },
}

const SET_SLOT: &str = "INSERT INTO slots (platform, chat_id, kind, id, message_id, place, photo, buttons, state, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (platform, chat_id, kind, id) DO UPDATE SET message_id = excluded.message_id,
         place = excluded.place, photo = excluded.photo, buttons = excluded.buttons,
         state = excluded.state, updated_at = excluded.updated_at";

const DROP_SLOT: &str =
    "DELETE FROM slots WHERE platform = $1 AND chat_id = $2 AND kind = $3 AND id = $4";

/// A row's mark, owned, written in a run: `SQLite`'s in its group commit (see `commits.rs`),
/// `PostgreSQL`'s by its runs' task (`mark_runs.rs`).
pub(crate) struct Mark {
    id: i64,
    outcome: Outcome,
    calls: i64,
    /// (platform, chat, slot kind, slot id), and the living message kept, or none: dropped.
    slot: Option<(String, String, String, i64, Option<SlotRow>)>,
    report: Option<super::games::Report>,
    now: i64,
}

impl Mark {
    fn new(
        id: i64,
        (outcome, calls): (Outcome, i64),
        slot: Option<SlotChange<'_>>,
        report: Option<super::games::Report>,
        now: i64,
    ) -> Mark {
        let slot = slot.map(|c| match c {
            SlotChange::Keep {
                platform,
                chat,
                slot: (kind, sid),
                row,
            } => (
                platform.into(),
                chat.into(),
                kind.into(),
                sid,
                Some(row.clone()),
            ),
            SlotChange::Drop {
                platform,
                chat,
                slot: (kind, sid),
            } => (platform.into(), chat.into(), kind.into(), sid, None),
        });
        Mark {
            id,
            outcome,
            calls,
            slot,
            report,
            now,
        }
    }

    /// Write a run of marks on `SQLite`'s connection in one trip to its thread: `before`,
    /// [`MARKS_SQLITE`] with the run as its one JSON parameter, `after`. Each mark's report,
    /// in order. A failing statement stops the rest of the query: the caller rolls back.
    pub(crate) async fn apply_run(
        marks: &[Mark],
        (before, after): (&str, &str),
        conn: &mut sqlx::SqliteConnection,
    ) -> Result<Vec<super::games::Reported>> {
        let sql = format!("{before}{MARKS_SQLITE}{after}");
        let counted = sqlx::query_as::<_, (i64, i64, Option<i64>)>(sqlx::AssertSqlSafe(sql))
            .bind(run_json(marks))
            .fetch_all(&mut *conn)
            .await?;
        Ok(reports_of(marks, &counted))
    }
}

/// Each mark's report, from the boards a run's reports counted for (game, ply, due time):
/// the run's first report of a board is the one that counted.
pub(crate) fn reports_of(
    marks: &[Mark],
    counted: &[(i64, i64, Option<i64>)],
) -> Vec<super::games::Reported> {
    let mut out = vec![super::games::Reported::No; marks.len()];
    for &(game, ply, due) in counted {
        let first = marks
            .iter()
            .position(|m| m.report.is_some_and(|r| (r.game, r.ply) == (game, ply)));
        if let Some(slot) = first.and_then(|i| out.get_mut(i)) {
            *slot = super::games::Reported::Counted { due };
        }
    }
    out
}

/// A run of marks as [`MARKS_SQLITE`] reads them, with what applying them one after the
/// other comes to: each row's last mark, each slot's last change (kept as its last row,
/// or dropped), and each board's first report (a later one of the same ply never counts).
pub(crate) fn run_json(marks: &[Mark]) -> String {
    use serde_json::json;
    // A slot: platform, chat, kind, id.
    type SlotKey<'a> = (&'a str, &'a str, &'a str, i64);
    let mut rows: Vec<(i64, serde_json::Value)> = Vec::with_capacity(marks.len());
    let mut slots: Vec<(SlotKey, Option<serde_json::Value>)> = Vec::new();
    let mut reports: Vec<super::games::Report> = Vec::new();
    for m in marks {
        let row = json!({"id": m.id, "t": m.now, "outcome": m.outcome.code(), "calls": m.calls});
        match rows.iter_mut().find(|(id, _)| *id == m.id) {
            Some(r) => r.1 = row,
            None => rows.push((m.id, row)),
        }
        if let Some((platform, chat, kind, id, kept)) = &m.slot {
            let key = (platform.as_str(), chat.as_str(), kind.as_str(), *id);
            let change = kept.as_ref().map(|r| {
                json!({
                    "platform": platform, "chat": chat, "kind": kind, "id": id,
                    "message": r.message_id, "place": r.place, "photo": r.photo,
                    "buttons": r.buttons, "state": r.state, "t": m.now,
                })
            });
            match slots.iter_mut().find(|(k, _)| *k == key) {
                Some(s) => s.1 = change,
                None => slots.push((key, change)),
            }
        }
        if let Some(r) = m.report {
            if !reports.iter().any(|x| (x.game, x.ply) == (r.game, r.ply)) {
                reports.push(r);
            }
        }
    }
    let (kept, dropped): (Vec<_>, Vec<_>) = slots.into_iter().partition(|(_, c)| c.is_some());
    json!({
        "rows": rows.into_iter().map(|(_, r)| r).collect::<Vec<_>>(),
        "keep": kept.into_iter().filter_map(|(_, c)| c).collect::<Vec<_>>(),
        "drop": dropped
            .into_iter()
            .map(|((platform, chat, kind, id), _)| {
                json!({"platform": platform, "chat": chat, "kind": kind, "id": id})
            })
            .collect::<Vec<_>>(),
        "reports": reports
            .iter()
            .map(|r| json!({"game": r.game, "ply": r.ply, "at_ms": r.at, "credit": r.max_credit_ms}))
            .collect::<Vec<_>>(),
    })
    .to_string()
}

/// `PostgreSQL`: a run of marks in one statement ([`run_json`]'s parameter), committed
/// without waiting for a flush of the log (`synchronous_commit` off for its transaction
/// alone, as `SQLite`'s marks commit unsynced: a mark lost in a crash of the database
/// server only repeats a send, said in the README; every move keeps its full sync): the
/// rows marked, the slots kept and dropped, and the boards' reports with their due times
/// (one row of nulls when none counted: the last select always runs, and with it the
/// setting).
pub(crate) const MARKS_PG: &str = "WITH run AS (SELECT $1::jsonb AS j),
 m AS (
     UPDATE outbox o SET sent_at = r.t, outcome = r.outcome, calls = r.calls
     FROM jsonb_to_recordset((SELECT j->'rows' FROM run))
         AS r(id bigint, t bigint, outcome text, calls bigint)
     WHERE o.id = r.id
 ), k AS (
     INSERT INTO slots (platform, chat_id, kind, id, message_id, place, photo, buttons, state, updated_at)
     SELECT r.platform, r.chat, r.kind, r.id, r.message, r.place, r.photo, r.buttons, r.state, r.t
     FROM jsonb_to_recordset((SELECT j->'keep' FROM run))
         AS r(platform text, chat text, kind text, id bigint, message text, place text,
              photo boolean, buttons boolean, state text, t bigint)
     ON CONFLICT (platform, chat_id, kind, id) DO UPDATE SET message_id = excluded.message_id,
         place = excluded.place, photo = excluded.photo, buttons = excluded.buttons,
         state = excluded.state, updated_at = excluded.updated_at
 ), d AS (
     DELETE FROM slots s
     USING jsonb_to_recordset((SELECT j->'drop' FROM run)) AS r(platform text, chat text, kind text, id bigint)
     WHERE s.platform = r.platform AND s.chat_id = r.chat AND s.kind = r.kind AND s.id = r.id
 ), g AS (
     UPDATE games SET delivered_ply = r.ply,
         turn_started_at = turn_started_at + LEAST(GREATEST(r.at_ms - turn_started_at, 0), r.credit),
         due_at = due_at + LEAST(GREATEST(r.at_ms - turn_started_at, 0), r.credit)
     FROM jsonb_to_recordset((SELECT j->'reports' FROM run))
         AS r(game bigint, ply bigint, at_ms bigint, credit bigint)
     WHERE games.id = r.game AND games.ply = r.ply AND games.status = 'active'
       AND (games.delivered_ply IS NULL OR games.delivered_ply <> r.ply)
     RETURNING games.id, games.ply, games.due_at
 )
 SELECT g.id, g.ply, g.due_at
 FROM (SELECT set_config('synchronous_commit', 'off', true)) AS unsynced LEFT JOIN g ON true";

/// `SQLite`: a run of marks as four statements whatever their number (the rows marked, the
/// slots kept, the slots dropped, the boards' reports, as [`MARKS_PG`] writes them), read from
/// one JSON parameter ([`run_json`]). Parameters numbered per mark would cost a run
/// quadratic time: `sqlx` binds, in each statement, every number up to its highest. (The
/// `+` keeps the planner off the index of active games: by it, every active game would be
/// matched against the whole run.)
const MARKS_SQLITE: &str = "UPDATE outbox SET sent_at = j.t, outcome = j.outcome, calls = j.calls
     FROM (SELECT value->>'id' AS id, value->>'t' AS t, value->>'outcome' AS outcome,
                  value->>'calls' AS calls
           FROM json_each($1, '$.rows')) AS j
     WHERE outbox.id = j.id;
 INSERT INTO slots (platform, chat_id, kind, id, message_id, place, photo, buttons, state, updated_at)
     SELECT value->>'platform', value->>'chat', value->>'kind', value->>'id', value->>'message',
            value->>'place', value->>'photo', value->>'buttons', value->>'state', value->>'t'
     FROM json_each($1, '$.keep') WHERE true
     ON CONFLICT (platform, chat_id, kind, id) DO UPDATE SET message_id = excluded.message_id,
         place = excluded.place, photo = excluded.photo, buttons = excluded.buttons,
         state = excluded.state, updated_at = excluded.updated_at;
 DELETE FROM slots WHERE (platform, chat_id, kind, id) IN
     (SELECT value->>'platform', value->>'chat', value->>'kind', value->>'id'
      FROM json_each($1, '$.drop'));
 UPDATE games SET delivered_ply = j.ply,
     turn_started_at = turn_started_at + MIN(MAX(j.at_ms - turn_started_at, 0), j.credit),
     due_at = due_at + MIN(MAX(j.at_ms - turn_started_at, 0), j.credit)
 FROM (SELECT value->>'game' AS game, value->>'ply' AS ply, value->>'at_ms' AS at_ms,
              value->>'credit' AS credit
       FROM json_each($1, '$.reports')) AS j
 WHERE games.id = j.game AND games.ply = j.ply AND +status = 'active'
   AND (delivered_ply IS NULL OR delivered_ply <> j.ply)
 RETURNING id, ply, due_at;
";

#[cfg(test)]
mod tests {
    #[test]
    fn a_rows_parameters_are_renumbered_for_its_place_in_the_query() {
        assert_eq!(
            super::shift_params("a = $1 AND b = $19 RETURNING x", 38),
            "a = $39 AND b = $57 RETURNING x"
        );
    }
}

/// `sql` with every parameter `$N` renumbered `$(N + by)`.
pub(crate) fn shift_params(sql: &str, by: usize) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if let Ok(n) = rest[..digits].parse::<usize>() {
            out.push_str(&(n + by).to_string());
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    out
}

/// A game's own thread (Discord): grown from its challenge's message in the chat.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ThreadRow {
    pub game_id: i64,
    pub chat_id: String,
    pub thread_id: String,
}

/// What the outbox holds unsent for one platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Depth {
    pub platform: String,
    pub unsent: i64,
    /// When the oldest unsent row was written (ms).
    pub oldest: Option<i64>,
}

/// A lease's holder counts as alive while its heartbeat is this recent (ms): a process that
/// dies holding chats gives them up within this, not at the end of its leases.
pub const HOLDER_ALIVE_MS: i64 = 1_000;

/// Bind an outbox row's nineteen values (`$1`..`$19`, in the order of the `INSERT INTO
/// outbox` column lists here and in `games.rs`) to the query `$q`.
macro_rules! bind_outbox_row {
    ($q:expr, $r:expr, $now:expr) => {{
        let r: &$crate::store::OutRow = $r;
        $q.bind(&r.platform)
            .bind(&r.chat_id)
            .bind(&r.chat_kind)
            .bind(&r.place)
            .bind(&r.audience)
            .bind(&r.sender_id)
            .bind(&r.sender_name)
            .bind(&r.reply_to)
            .bind(&r.slot_use)
            .bind(&r.slot_kind)
            .bind(r.slot_id)
            .bind(r.game_id)
            .bind(r.ply)
            .bind(&r.message)
            .bind(&r.lang)
            .bind(&r.actions)
            .bind(&r.picture)
            .bind($now)
            .bind(&r.lane)
    }};
}
pub(crate) use bind_outbox_row;

/// Write `$rows` (a `Vec<OutRow>`) in the transaction `$tx`, and on `PostgreSQL` tell the
/// other processes of their lanes when it commits, unless `$signal` (the store's) says
/// this process holds them; evaluates to the rows as written (with
/// their ids), for this process's senders to deliver from memory once the commit is done.
macro_rules! say_in {
    ($tx:ident, $pg:ident, $rows:expr, $now:expr, $signal:expr) => {
        async {
            let (rows, now): (&[$crate::store::OutRow], i64) = (&$rows, $now);
            let signal: &$crate::store::outbox::Signal = $signal;
            let mut written = Vec::with_capacity(rows.len());
            for r in rows {
                let insert = sqlx::query_scalar(
                    "INSERT INTO outbox (platform, chat_id, chat_kind, place, audience, sender_id, sender_name,
                         reply_to, slot_use, slot_kind, slot_id, game_id, ply, message, lang, actions, picture, created_at, lane)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
                     RETURNING id",
                );
                let id: i64 = $crate::store::outbox::bind_outbox_row!(insert, r, now)
                    .fetch_one(&mut *$tx)
                    .await?;
                written.push($crate::store::Queued::written(id, r.clone(), now));
            }
            if $pg && !rows.is_empty() {
                let notices = signal.notices(rows, now);
                for payload in &notices.payloads {
                    sqlx::query("SELECT pg_notify($1, $2)")
                        .bind($crate::store::outbox::NOTIFY_CHANNEL)
                        .bind(payload)
                        .execute(&mut *$tx)
                        .await?;
                }
                notices.mark(&mut written);
            }
            Ok::<Vec<$crate::store::Queued>, $crate::store::StoreError>(written)
        }
        .await
    };
}
pub(crate) use say_in;

/// The lanes rows go out in, each once.
pub(crate) fn lanes_of(rows: &[OutRow]) -> Vec<(&str, &str)> {
    let mut out: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        let c = (r.platform.as_str(), r.lane.as_str());
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The rows as one JSON array, for `PostgreSQL` statements that write them in one go.
pub(crate) fn rows_json(rows: &[OutRow]) -> String {
    let all: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "platform": r.platform, "chat_id": r.chat_id, "chat_kind": r.chat_kind, "lane": r.lane,
                "place": r.place, "audience": r.audience, "sender_id": r.sender_id,
                "sender_name": r.sender_name, "reply_to": r.reply_to, "slot_use": r.slot_use,
                "slot_kind": r.slot_kind, "slot_id": r.slot_id, "game_id": r.game_id,
                "ply": r.ply, "message": r.message, "lang": r.lang, "actions": r.actions,
                "picture": r.picture,
            })
        })
        .collect();
    serde_json::Value::Array(all).to_string()
}

/// The record type of [`rows_json`]'s objects, for `jsonb_to_recordset`.
pub(crate) const ROW_RECORD: &str =
    "r(platform text, chat_id text, chat_kind text, lane text, place text, audience text,
     sender_id text, sender_name text, reply_to text, slot_use text, slot_kind text, slot_id bigint,
     game_id bigint, ply bigint, message text, lang text, actions text, picture text)";

impl Store {
    /// `PostgreSQL`: a connection listening for other processes' new rows (see
    /// [`NOTIFY_CHANNEL`]); `None` on `SQLite`, whose one process signals itself.
    pub async fn listen_outbox(&self) -> Option<sqlx::postgres::PgListener> {
        let super::Db::Postgres(pool) = &self.db else {
            return None;
        };
        let mut l = match sqlx::postgres::PgListener::connect_with(pool).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for other processes' replies");
                return None;
            }
        };
        if let Err(e) = l.listen(NOTIFY_CHANNEL).await {
            tracing::warn!(error = %e, "cannot listen for other processes' replies");
            return None;
        }
        Some(l)
    }

    /// This process's signal of new rows.
    #[must_use]
    pub fn signal(&self) -> &Signal {
        &self.signal
    }

    /// Tell this process's senders of rows just committed; and the other processes, of
    /// rows committed without a notice to a lane its sender let go meanwhile.
    pub(crate) fn committed(&self, rows: &[Queued]) {
        let late = self.signal.written(rows);
        if late.is_empty() {
            return;
        }
        let store = self.clone();
        tokio::spawn(async move {
            for (platform, lane) in late {
                if let Err(e) = store.tell(&platform, &lane).await {
                    tracing::debug!(error = %e, "other processes not told of a lane's rows");
                }
            }
        });
    }

    /// Write replies with nothing else to change, in one transaction with the message they
    /// answer, if given: false (and nothing written) when that message was handled already.
    pub async fn say(
        &self,
        seen: Option<(&str, &str, &str)>,
        rows: Vec<OutRow>,
        now: i64,
    ) -> Result<bool> {
        if seen.is_none() && rows.is_empty() {
            return Ok(true);
        }
        let rows = on_db!(self, conn, pg => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            if let Some((platform, chat, id)) = seen {
                let done = sqlx::query(
                    "INSERT INTO seen_messages (platform, chat_id, message_id, seen_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                )
                .bind(platform)
                .bind(chat)
                .bind(id)
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if done == 0 {
                    tx.rollback().await?;
                    return Ok(false);
                }
            }
            let rows = say_in!(tx, pg, rows, now, self.signal())?;
            tx.commit().await?;
            rows
        });
        self.committed(&rows);
        Ok(true)
    }

    /// Tell the other processes now that `lane` has rows waiting (`PostgreSQL`'s `NOTIFY`;
    /// nothing on `SQLite`, which has one process): rows this process committed without a
    /// notice, for a lane its sender held then and has lost since.
    pub async fn tell(&self, platform: &str, lane: &str) -> Result<()> {
        let super::Db::Postgres(pool) = &self.db else {
            return Ok(());
        };
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(NOTIFY_CHANNEL)
            .bind(notice(platform, lane, self.signal.origin()))
            .execute(pool)
            .await?;
        Ok(())
    }

    /// Claim (or keep) chat `chat`'s queue for `holder` until `until`: true when it is
    /// `holder`'s now. A lease is free when it ran out, or when its holder's heartbeat is
    /// older than [`HOLDER_ALIVE_MS`] (it died).
    pub async fn claim_chat(
        &self,
        platform: &str,
        chat: &str,
        holder: &str,
        now: i64,
        until: i64,
    ) -> Result<bool> {
        let held: Option<String> = on_db!(self, conn, _pg => sqlx::query_scalar(
            "INSERT INTO outbox_leases (platform, lane, holder, until) VALUES ($1, $2, $3, $4)
             ON CONFLICT (platform, lane) DO UPDATE SET holder = excluded.holder, until = excluded.until
             WHERE outbox_leases.holder = excluded.holder OR outbox_leases.until <= $5
                OR NOT EXISTS (SELECT 1 FROM heartbeats h WHERE h.process = outbox_leases.holder AND h.beat_at > $6)
             RETURNING holder",
        )
        .bind(platform)
        .bind(chat)
        .bind(holder)
        .bind(until)
        .bind(now)
        .bind(now - HOLDER_ALIVE_MS)
        .fetch_optional(&mut *conn)
        .await?);
        Ok(held.as_deref() == Some(holder))
    }

    /// Renew `holder`'s lease of a lane that it has held without a break since it set
    /// `was` as its end: true when the lease is still exactly as it left it (nobody took it
    /// meanwhile, so what it knows of the lane still holds); false, and nothing changed,
    /// otherwise (it must claim the lane anew).
    pub async fn renew_chat(
        &self,
        platform: &str,
        lane: &str,
        holder: &str,
        was: i64,
        until: i64,
    ) -> Result<bool> {
        let renewed = on_db!(self, conn, _pg => sqlx::query(
            "UPDATE outbox_leases SET until = $5
             WHERE platform = $1 AND lane = $2 AND holder = $3 AND until = $4",
        )
        .bind(platform)
        .bind(lane)
        .bind(holder)
        .bind(was)
        .bind(until)
        .execute(&mut *conn)
        .await?
        .rows_affected());
        Ok(renewed == 1)
    }

    /// Let a chat's queue go (its sender is idle or stopping).
    pub async fn release_chat(&self, platform: &str, chat: &str, holder: &str) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query("DELETE FROM outbox_leases WHERE platform = $1 AND lane = $2 AND holder = $3")
                .bind(platform)
                .bind(chat)
                .bind(holder)
                .execute(&mut *conn)
                .await?;
        });
        Ok(())
    }

    /// Let go of every chat `holder` serves (a process stopping).
    pub async fn release_leases_of(&self, holder: &str) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query("DELETE FROM outbox_leases WHERE holder = $1")
                .bind(holder)
                .execute(&mut *conn)
                .await?;
        });
        Ok(())
    }

    /// Forget every lease (a `SQLite` store has one process: whatever held them is gone).
    pub async fn clear_leases(&self) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query("DELETE FROM outbox_leases").execute(&mut *conn).await?;
        });
        Ok(())
    }

    /// The next unsent rows of a chat, in the order they were written, each with its
    /// slot's living message (one statement, not one more per row on delivery's path).
    pub async fn unsent(&self, platform: &str, chat: &str, limit: i64) -> Result<Vec<Queued>> {
        let rows: Vec<QueuedWithSlot> = on_read!(self, conn, _pg => sqlx::query_as(
            "SELECT o.id, o.platform, o.chat_id, o.chat_kind, o.lane, o.place, o.audience, o.sender_id,
                    o.sender_name, o.reply_to, o.slot_use, o.slot_kind, o.slot_id, o.game_id, o.ply,
                    o.message, o.lang, o.actions, o.picture, o.created_at,
                    s.message_id AS living_message_id, s.place AS living_place,
                    s.photo AS living_photo, s.buttons AS living_buttons, s.state AS living_state,
                    s.updated_at AS living_updated_at
             FROM outbox o
             LEFT JOIN slots s ON s.platform = o.platform AND s.chat_id = o.chat_id
                 AND s.kind = CASE WHEN o.chat_kind = 'one_message' THEN $4 ELSE o.slot_kind END
                 AND s.id = CASE WHEN o.chat_kind = 'one_message' THEN $5 ELSE o.slot_id END
             WHERE o.platform = $1 AND o.lane = $2 AND o.sent_at IS NULL ORDER BY o.id LIMIT $3",
        )
        .bind(platform)
        .bind(chat)
        .bind(limit)
        .bind(ONE_MESSAGE_SLOT.0)
        .bind(ONE_MESSAGE_SLOT.1)
        .fetch_all(&mut *conn)
        .await?);
        Ok(rows.into_iter().map(QueuedWithSlot::into_queued).collect())
    }

    /// Note how a row left the outbox and how many platform calls it took, with what it
    /// did to its slot, in one transaction. A lost mark only repeats a send after a crash
    /// (said in the README), so it waits for no sync of its own; moves keep theirs.
    pub async fn mark_sent(
        &self,
        id: i64,
        (outcome, calls): (Outcome, i64),
        slot: Option<SlotChange<'_>>,
        now: i64,
    ) -> Result<()> {
        self.mark_reported(id, (outcome, calls), slot, None, now)
            .await
            .map(|_| ())
    }

    /// As [`Store::mark_sent`], with the board's arrival reported for fair clocks in the
    /// same transaction (one commit, not two, on a delivery's path): what it came to.
    pub async fn mark_reported(
        &self,
        id: i64,
        (outcome, calls): (Outcome, i64),
        slot: Option<SlotChange<'_>>,
        report: Option<super::games::Report>,
        now: i64,
    ) -> Result<super::games::Reported> {
        let written = self.mark_reported_later(id, (outcome, calls), slot, report, now);
        self.hurry_marks();
        written.await
    }

    /// Someone waits for the marks queued so far (a terminal printing after them, a lane let
    /// go, a stop): they are written at once rather than after gathering more for a while.
    pub fn hurry_marks(&self) {
        if let Some(c) = &self.commits {
            c.hurry();
        }
        if let Some(r) = &self.mark_runs {
            r.hurry();
        }
    }

    /// As [`Store::mark_reported`], with the mark taken now and written later: the future
    /// (owning all it needs) answers what it came to. The mark is queued at once, so marks
    /// are written in the order this is called (in runs: see `commits.rs`, `mark_runs.rs`).
    pub fn mark_reported_later(
        &self,
        id: i64,
        (outcome, calls): (Outcome, i64),
        slot: Option<SlotChange<'_>>,
        report: Option<super::games::Report>,
        now: i64,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<super::games::Reported>> + Send + 'static>,
    > {
        let mark = Mark::new(id, (outcome, calls), slot, report, now);
        match (&self.db, &self.commits) {
            (super::Db::Postgres(_), _) => match &self.mark_runs {
                Some(runs) => Box::pin(runs.enqueue(mark)),
                None => Box::pin(async { Err(super::StoreError::Closed) }),
            },
            (super::Db::Sqlite(_), Some(c)) => Box::pin(c.enqueue_mark(mark)),
            (super::Db::Sqlite(_), None) => Box::pin(async { Err(super::StoreError::Closed) }),
        }
    }

    /// Chats of `platform` with rows waiting that `holder` may take: their lease is free,
    /// ran out, belongs to a dead process, or is `holder`'s own.
    pub async fn chats_waiting(
        &self,
        platform: &str,
        holder: &str,
        now: i64,
        limit: i64,
    ) -> Result<Vec<String>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar(
            "SELECT DISTINCT o.lane FROM outbox o
             LEFT JOIN outbox_leases l ON l.platform = o.platform AND l.lane = o.lane
             WHERE o.platform = $1 AND o.sent_at IS NULL
               AND (l.holder IS NULL OR l.holder = $2 OR l.until <= $3
                    OR NOT EXISTS (SELECT 1 FROM heartbeats h WHERE h.process = l.holder AND h.beat_at > $4))
             LIMIT $5",
        )
        .bind(platform)
        .bind(holder)
        .bind(now)
        .bind(now - HOLDER_ALIVE_MS)
        .bind(limit)
        .fetch_all(&mut *conn)
        .await?))
    }

    /// When the calls to a chat in the window before `now` were made, as far as the outbox
    /// says (each row's calls at the time it was marked): a sender taking over a chat
    /// keeps within its limits from the first call.
    pub async fn recent_calls(
        &self,
        platform: &str,
        chat: &str,
        since: i64,
    ) -> Result<Vec<(i64, i64)>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(
            "SELECT sent_at, calls FROM outbox
             WHERE platform = $1 AND lane = $2 AND sent_at IS NOT NULL AND sent_at > $3 AND calls > 0
             ORDER BY sent_at",
        )
        .bind(platform)
        .bind(chat)
        .bind(since)
        .fetch_all(&mut *conn)
        .await?))
    }

    /// Unsent rows per platform, and the oldest's age (the operator's figures).
    pub async fn outbox_depth(&self) -> Result<Vec<Depth>> {
        let rows: Vec<(String, i64, Option<i64>)> = on_db!(self, conn, _pg => sqlx::query_as(
            "SELECT platform, COUNT(*), MIN(created_at) FROM outbox WHERE sent_at IS NULL GROUP BY platform",
        )
        .fetch_all(&mut *conn)
        .await?);
        Ok(rows
            .into_iter()
            .map(|(platform, unsent, oldest)| Depth {
                platform,
                unsent,
                oldest,
            })
            .collect())
    }

    /// Delete rows sent before `sent_before`, and give up rows still unsent from before
    /// `unsent_before` (no process serves their platform): how many of each.
    pub async fn prune_outbox(&self, sent_before: i64, unsent_before: i64) -> Result<(u64, u64)> {
        on_db!(self, conn, _pg => {
            let sent = sqlx::query("DELETE FROM outbox WHERE sent_at IS NOT NULL AND created_at < $1")
                .bind(sent_before)
                .execute(&mut *conn)
                .await?
                .rows_affected();
            let stale = sqlx::query("DELETE FROM outbox WHERE sent_at IS NULL AND created_at < $1")
                .bind(unsent_before)
                .execute(&mut *conn)
                .await?
                .rows_affected();
            // Living messages nothing changed in a month: their games are long over.
            sqlx::query("DELETE FROM slots WHERE updated_at < $1")
                .bind(unsent_before - 29 * 86_400_000)
                .execute(&mut *conn)
                .await?;
            // Old boards nobody stripped in a day (no process served their lane): Telegram
            // lets a message be edited for 48 hours; they keep their buttons.
            sqlx::query("DELETE FROM stale_buttons WHERE created_at < $1")
                .bind(unsent_before)
                .execute(&mut *conn)
                .await?;
            // Threads of games over for a while are not asked for any more.
            sqlx::query(
                "DELETE FROM threads WHERE game_id IN
                     (SELECT id FROM games WHERE status <> 'active' AND finished_at < $1)",
            )
            .bind(unsent_before)
            .execute(&mut *conn)
            .await?;
            Ok((sent, stale))
        })
    }

    /// The living message of a slot (`kind` `board`, `challenge` or `message`).
    pub async fn slot(
        &self,
        platform: &str,
        chat: &str,
        kind: &str,
        id: i64,
    ) -> Result<Option<SlotRow>> {
        on_read!(self, conn, _pg => Ok(sqlx::query_as(
            "SELECT message_id, place, photo, buttons, state FROM slots
             WHERE platform = $1 AND chat_id = $2 AND kind = $3 AND id = $4",
        )
        .bind(platform)
        .bind(chat)
        .bind(kind)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?))
    }

    /// The living message of a slot with when it was last posted or changed (ms), as
    /// [`Store::unsent`] reads it with a row (for a row known without reading it).
    pub async fn living(
        &self,
        platform: &str,
        chat: &str,
        (kind, id): (&str, i64),
    ) -> Result<Option<(SlotRow, i64)>> {
        #[derive(sqlx::FromRow)]
        struct Living {
            #[sqlx(flatten)]
            slot: SlotRow,
            updated_at: i64,
        }
        let row: Option<Living> = on_read!(self, conn, _pg => sqlx::query_as(
            "SELECT message_id, place, photo, buttons, state, updated_at FROM slots
             WHERE platform = $1 AND chat_id = $2 AND kind = $3 AND id = $4",
        )
        .bind(platform)
        .bind(chat)
        .bind(kind)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?);
        Ok(row.map(|l| (l.slot, l.updated_at)))
    }

    /// Make `row` the slot's living message.
    pub async fn set_slot(
        &self,
        platform: &str,
        chat: &str,
        (kind, id): (&str, i64),
        row: &SlotRow,
        now: i64,
    ) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query(SET_SLOT)
            .bind(platform)
            .bind(chat)
            .bind(kind)
            .bind(id)
            .bind(&row.message_id)
            .bind(&row.place)
            .bind(row.photo)
            .bind(row.buttons)
            .bind(&row.state)
            .bind(now)
            .execute(&mut *conn)
            .await?;
        });
        Ok(())
    }

    /// A slot nothing will edit or strip again (its game or challenge is over).
    pub async fn drop_slot(&self, platform: &str, chat: &str, kind: &str, id: i64) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query(DROP_SLOT)
                .bind(platform)
                .bind(chat)
                .bind(kind)
                .bind(id)
                .execute(&mut *conn)
                .await?;
        });
        Ok(())
    }

    /// A game's thread.
    pub async fn thread_of(&self, platform: &str, game: i64) -> Result<Option<ThreadRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(
            "SELECT game_id, chat_id, thread_id FROM threads WHERE platform = $1 AND game_id = $2",
        )
        .bind(platform)
        .bind(game)
        .fetch_optional(&mut *conn)
        .await?))
    }

    /// The chat a thread grew in, if it is a game's.
    pub async fn thread_parent(&self, platform: &str, thread: &str) -> Result<Option<String>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar(
            "SELECT chat_id FROM threads WHERE platform = $1 AND thread_id = $2 LIMIT 1",
        )
        .bind(platform)
        .bind(thread)
        .fetch_optional(&mut *conn)
        .await?))
    }

    /// The newest game grown in a thread (a Discord Activity launched there shows it).
    pub async fn thread_game(&self, platform: &str, thread: &str) -> Result<Option<i64>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar(
            "SELECT game_id FROM threads WHERE platform = $1 AND thread_id = $2
             ORDER BY game_id DESC LIMIT 1",
        )
        .bind(platform)
        .bind(thread)
        .fetch_optional(&mut *conn)
        .await?))
    }

    /// Keep a game's thread.
    pub async fn set_thread(&self, platform: &str, t: &ThreadRow, now: i64) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query(
                "INSERT INTO threads (platform, game_id, chat_id, thread_id, created_at) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (platform, game_id) DO UPDATE SET chat_id = excluded.chat_id, thread_id = excluded.thread_id",
            )
            .bind(platform)
            .bind(t.game_id)
            .bind(&t.chat_id)
            .bind(&t.thread_id)
            .bind(now)
            .execute(&mut *conn)
            .await?;
        });
        Ok(())
    }
}
