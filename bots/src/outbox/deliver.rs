//! One chat's rows, delivered: read in order, a running game's board left out when a later
//! board of the game waits behind it, the picture drawn, the platform called with retries
//! and the chat's pace, the living message edited or replaced (the one before loses its
//! buttons), the row marked, and a board's arrival reported for fair clocks.

use super::one_message::{Shown, SLOT};
use super::surface::{Class, Content, Image, ImageKind, Job, Surface};
use super::{Claim, Drained, Known, Outbox, Pace, BATCH};
use backon::{ExponentialBuilder, Retryable};
use std::sync::atomic::Ordering;
use std::time::Duration;
use ugolki_core::store::{Outcome, Queued, SlotChange, SlotRow, StaleButtons};
use ugolki_core::table::{
    Audience, ChatKind, ChatRef, DrawError, Outgoing, PictureView, Slot, SlotUse, Table,
};
use ugolki_render::Scene;

/// Tries of one call before its row is given up (about five minutes of backoff).
const MAX_TRIES: usize = 12;

/// A call that did not go through.
enum Fail {
    /// The chat or message is gone, or the bot may not post there.
    Gone,
    /// The chat has a new id.
    Moved(String),
    /// Another process holds the chat now, or the token was refused: stop serving it (its
    /// rows wait).
    Lost,
    /// The bot was removed from the chat or blocked there.
    Left,
    /// Retried until given up.
    GaveUp,
}

/// What one try came to, for the retry loop.
enum Tried<E> {
    Lost,
    Failed(E),
}

/// A wait between tries.
type Waiting = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

/// A row on its way: where, at what pace, and what it says, drawn.
struct Row<'a> {
    chat: &'a ChatRef,
    pace: Pace,
    q: &'a Queued,
    job: Job<'a>,
    content: Content,
}

/// What to do after a row.
enum Step {
    Next,
    /// Stop serving the chat (it moved, or another process has it).
    Stop,
    /// The store failed: try again in a while.
    Later,
}

impl<S: Surface> Outbox<S> {
    /// Deliver a lane's rows (a chat's, or a forum group's topics') while this process
    /// holds its lease.
    pub(super) async fn drain_held(&self, lane: &str) -> Drained {
        loop {
            // A refused token stops every sender as a stop does: its rows wait for a
            // process with a good token, and no call is made meanwhile.
            if self.stopping.load(Ordering::SeqCst) || self.is_refused() {
                return Drained::Stopping;
            }
            match self.claim(lane).await {
                Claim::Lost => {
                    let untold = self.forget(lane);
                    self.tell(lane, untold).await;
                    return Drained::LostLease;
                }
                Claim::Taken => self.take_anew(lane).await,
                Claim::Kept => {}
            }
            let Some(first) = self.gather(lane).await else {
                return Drained::Empty;
            };
            let pace = self.surface.pace(&first);
            if !self.known(lane, |k| std::mem::replace(&mut k.seeded, true)) {
                self.seed(lane, pace).await;
            }
            // Wait for the pace first, then choose: what came meanwhile may make the next
            // board pointless.
            if self.pacing.ready(lane, pace).await {
                self.gather(lane).await;
            }
            let Some((q, out)) = self.next_row(lane).await else {
                continue;
            };
            // (The lane's rows may be different topics' chats, paced as their group.)
            match self.deliver(&out.chat, pace, &q, &out).await {
                Step::Next => self.known(lane, |k| k.delivered(q.id)),
                Step::Stop if self.is_refused() => return Drained::Stopping,
                Step::Stop => {
                    self.start_over(lane);
                    return Drained::LostLease;
                }
                Step::Later => {
                    self.known(lane, |k| k.complete = false);
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    /// Work on what this process knows of a lane.
    fn known<T>(&self, lane: &str, f: impl FnOnce(&mut Known) -> T) -> T {
        f(super::lock(&self.known)
            .entry(lane.to_string())
            .or_default())
    }

    /// A lane's lease taken anew: this process's own marks written first (the store is read
    /// next, and must show what it sent), then what it knew forgotten.
    async fn take_anew(&self, lane: &str) {
        self.settle(lane).await;
        self.start_over(lane);
    }

    /// Forget what was known of a lane (its lease was taken anew: another process may
    /// have sent its rows and changed its slots meanwhile); the store is read next.
    pub(super) fn start_over(&self, lane: &str) {
        // What it delivered itself stays known (its marks may still be on the way).
        self.known(lane, |k| {
            *k = Known {
                done: std::mem::take(&mut k.done),
                marking: k.marking.take(),
                ..Known::default()
            };
        });
    }

    /// The lane's rows to deliver: those its commits told of and, when they may not be all
    /// (a lease taken anew, a notice from another process, a full batch, a failure), those
    /// the store holds; the chat of the first, or `None` when nothing waits.
    async fn gather(&self, lane: &str) -> Option<ChatRef> {
        let fresh = self.table.store().signal().take(self.platform(), lane);
        let read = self.known(lane, |k| {
            if fresh.unknown {
                k.complete = false;
            }
            for q in fresh.rows {
                if !k.done.contains(&q.id) {
                    k.pending.entry(q.id).or_insert(q);
                }
            }
            !k.complete
        });
        if read {
            self.counters.read.fetch_add(1, Ordering::Relaxed);
            match self
                .table
                .store()
                .unsent(self.platform(), lane, BATCH)
                .await
            {
                Ok(rows) => self.known(lane, |k| {
                    k.complete = rows.len() < usize::try_from(BATCH).unwrap_or(0);
                    for q in rows {
                        // Delivered, its mark still on the way: not sent again.
                        if k.done.contains(&q.id) {
                            continue;
                        }
                        // What memory knows of a slot is newer than the store (its marks
                        // may still be on the way); the store tells of those it has not seen.
                        if let Some((kind, id)) = q.slot_key() {
                            let living = q.living.clone().map(|l| (l, q.living_since.unwrap_or(0)));
                            k.living
                                .entry((q.row.chat_id.clone(), kind.to_string(), id))
                                .or_insert(living);
                        }
                        k.pending.insert(q.id, q);
                    }
                }),
                Err(e) => tracing::warn!(error = %e, "unsent replies not read"),
            }
        }
        let first = self.known(lane, |k| k.pending.values().next().cloned())?;
        // A row this version cannot read is dropped by `next_row`: paced as the lane's.
        Some(Outgoing::from_row(&first.row).map_or_else(
            || ChatRef::new(self.surface.platform(), lane, ChatKind::Group),
            |out| out.chat,
        ))
    }

    /// The next row to deliver, with its slot's living message: the boards that later
    /// boards of their games overtake are marked (not sent), and a row this version cannot
    /// read is dropped.
    async fn next_row(&self, lane: &str) -> Option<(Queued, Outgoing)> {
        let rows: Vec<Queued> = self.known(lane, |k| k.pending.values().cloned().collect());
        let mut outs = Vec::with_capacity(rows.len());
        for q in rows {
            if let Some(o) = Outgoing::from_row(&q.row) {
                outs.push((q, o));
            } else {
                tracing::error!(row = q.id, "a reply this version cannot read: dropped");
                self.mark(&q, Outcome::Dropped, 0, None).await;
                self.known(lane, |k| k.delivered(q.id));
            }
        }
        let next = self.coalesce(lane, &outs).await?;
        let (mut q, out) = outs.into_iter().nth(next)?;
        let Some((kind, id)) = q.slot_key() else {
            return Some((q, out));
        };
        let key = (q.row.chat_id.clone(), kind.to_string(), id);
        let known = self.known(lane, |k| k.living.get(&key).cloned());
        let living = if let Some(living) = known {
            living
        } else {
            let read = self
                .table
                .store()
                .living(self.platform(), &q.row.chat_id, (kind, id))
                .await;
            match read {
                Ok(living) => {
                    self.known(lane, |k| k.living.insert(key, living.clone()));
                    living
                }
                Err(e) => {
                    // Tried again in a while (the row waits: it is not delivered without
                    // knowing which message it replaces).
                    tracing::warn!(error = %e, "living message not read");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    return None;
                }
            }
        };
        (q.living, q.living_since) = match living {
            Some((row, since)) => (Some(row), Some(since)),
            None => (None, None),
        };
        Some((q, out))
    }

    /// Mark the boards that later boards of their games overtake (not sent); the index of
    /// the first row to send.
    async fn coalesce(&self, lane: &str, rows: &[(Queued, Outgoing)]) -> Option<usize> {
        for (i, (q, out)) in rows.iter().enumerate() {
            if overtaken(out, &rows[i + 1..]) {
                self.counters.overtaken.fetch_add(1, Ordering::Relaxed);
                self.mark(q, Outcome::Overtaken, 0, None).await;
                self.known(lane, |k| k.delivered(q.id));
            } else {
                return Some(i);
            }
        }
        None
    }

    async fn mark(&self, q: &Queued, outcome: Outcome, calls: i64, slot: Option<SlotChange<'_>>) {
        self.mark_reporting(q, (outcome, calls), slot, None).await;
    }

    /// Mark a row with what it did to its slot and, for a board that starts a clock, its
    /// arrival (fair clocks) in the same write; wake the timers for the game's new due time.
    /// The sender does not wait for the write: it goes on to the next row (memory knows the
    /// row is done — see [`Known`] — and the slot's message), and a lane's marks are
    /// written one after the other, in order, behind it (a surface that marks first, the
    /// console, waits: it prints after).
    async fn mark_reporting(
        &self,
        q: &Queued,
        (outcome, calls): (Outcome, i64),
        slot: Option<SlotChange<'_>>,
        report: Option<ugolki_core::store::Report>,
    ) {
        if outcome == Outcome::Dropped {
            self.counters.dropped.fetch_add(1, Ordering::Relaxed);
        }
        let id = q.id;
        let write = self.table.store().mark_reported_later(
            id,
            (outcome, calls),
            slot,
            report,
            crate::now_ms(),
        );
        let table = self.table.clone();
        let lane = q.row.lane.as_str();
        let before = self.known(lane, |k| k.marking.take());
        let marking = tokio::spawn(async move {
            if let Some(before) = before {
                let _ = before.await;
            }
            match (write.await, report) {
                (Ok(ugolki_core::store::Reported::Counted { due }), Some(r)) => {
                    table.reported(r.game, due);
                }
                (Ok(_), _) => {}
                (Err(e), _) => tracing::warn!(row = id, error = %e, "reply not marked"),
            }
        });
        if self.surface.marks_first() {
            self.table.store().hurry_marks();
            let _ = marking.await;
        } else {
            self.known(lane, |k| k.marking = Some(marking));
        }
    }

    /// Wait until the lane's marks are written (before letting the lane go: the next
    /// holder reads what was sent from them).
    pub(super) async fn settle(&self, lane: &str) {
        let marking = super::lock(&self.known)
            .get_mut(lane)
            .and_then(|k| k.marking.take());
        if let Some(m) = marking {
            if !m.is_finished() {
                self.table.store().hurry_marks();
            }
            let _ = m.await;
        }
    }

    /// What the row says, ready for the platform: its text and its picture, drawn now.
    pub async fn content(&self, out: &Outgoing) -> Result<Content, DrawError> {
        let mut c = Content {
            text: out.text(),
            image: None,
            board: None,
            actions: out.actions.clone(),
            lang: out.lang,
        };
        let Some(picture) = &out.picture else {
            return Ok(c);
        };
        c.image = match self.table.draw_picture(picture, out.lang).await? {
            PictureView::Board(view) => {
                let bytes = self.renderer.render(&Scene::from_view(&view));
                c.board = Some(*view);
                Some(Image {
                    bytes,
                    kind: ImageKind::Board,
                })
            }
            PictureView::Chart(chart) => Some(Image {
                bytes: self.renderer.chart(&chart),
                kind: ImageKind::Chart,
            }),
            PictureView::Standings(table) => Some(Image {
                bytes: self.renderer.standings(&table),
                kind: ImageKind::Standings,
            }),
            PictureView::Replay(frames) => {
                let scenes: Vec<Scene> = frames.iter().map(Scene::from_view).collect();
                match self.replays.animate(&scenes) {
                    Ok(bytes) => Some(Image {
                        bytes,
                        kind: ImageKind::Replay,
                    }),
                    Err(e) => {
                        tracing::error!(error = %e, "replay not drawn");
                        None
                    }
                }
            }
        };
        Ok(c)
    }

    /// Deliver one row.
    async fn deliver(&self, chat: &ChatRef, pace: Pace, q: &Queued, out: &Outgoing) -> Step {
        let content = match self.content(out).await {
            Ok(c) => c,
            Err(DrawError::Gone) => {
                // A board of a line taken back, a game no longer there: nothing to show.
                self.mark(q, Outcome::Dropped, 0, None).await;
                return Step::Next;
            }
            Err(DrawError::Store(e)) => {
                tracing::warn!(error = %e, "picture not drawn");
                return Step::Later;
            }
        };
        let row = Row {
            chat,
            pace,
            q,
            job: Job { id: q.id, out },
            content,
        };
        if self.surface.marks_first() {
            self.mark(q, Outcome::Sent, 1, None).await;
        }
        if chat.one_message() {
            return self.show_one_message(&row).await;
        }
        match out.slot {
            Some(SlotUse::Edit(slot)) => {
                if let Some(step) = self.edit_living(&row, slot).await {
                    return step;
                }
            }
            Some(SlotUse::Replace(slot)) if self.in_place(&row) => {
                if let Some(step) = self.edit_living(&row, slot).await {
                    return step;
                }
            }
            _ => {}
        }
        self.post(&row).await
    }

    /// Whether a running game's new board is shown by editing its living board in place
    /// (one call, where a post takes two): a board with the game's buttons, for everyone,
    /// whose living board is a photo with buttons the platform finds still in view. A
    /// game's last board is posted anew, so that the players are told.
    fn in_place(&self, r: &Row<'_>) -> bool {
        let (Some(living), Some(since)) = (&r.q.living, r.q.living_since) else {
            return false;
        };
        let board = r
            .content
            .image
            .as_ref()
            .is_some_and(|i| i.kind == ImageKind::Board);
        let running = r.content.actions.iter().any(|a| a.game().is_some());
        let idle = Duration::from_millis(u64::try_from(crate::now_ms() - since).unwrap_or(0));
        board
            && running
            && living.photo
            && living.buttons
            && r.job.out.audience == Audience::Chat
            && self.surface.in_place(r.chat, living, idle)
    }

    /// A one-message chat's row: its one message edited to show it, under what it showed
    /// (kept in the chat's slot row).
    async fn show_one_message(&self, r: &Row<'_>) -> Step {
        let (platform, chat) = (self.platform(), r.chat.id.as_str());
        let shown = Shown::of_slot(r.q.living.as_ref())
            .after(r.job.out, &self.table)
            .await;
        let done = self
            .call(r.chat, r.pace, || {
                self.surface.one_message(&r.job, &r.content, &shown)
            })
            .await;
        let pictured = match done {
            Ok(pictured) => pictured,
            Err(f) => return self.failed(r.chat, r.q, f).await,
        };
        self.counters.edited.fetch_add(1, Ordering::Relaxed);
        let report = (pictured == Some(true)).then_some(r.job.out);
        let row = SlotRow {
            message_id: chat.to_string(),
            place: None,
            photo: true,
            buttons: !shown.actions().is_empty(),
            state: Some(shown.to_state()),
        };
        let outcome = pictured.map_or(Outcome::Unchanged, |_| Outcome::Sent);
        let keep = SlotChange::Keep {
            platform,
            chat,
            slot: SLOT,
            row: &row,
        };
        self.done(r.q, outcome, 1, Some(keep), report).await;
        Step::Next
    }

    /// An edit of the slot's living message, if there is one to edit: `None` when the
    /// reply is to be posted anew (no such message, or it is gone).
    async fn edit_living(&self, r: &Row<'_>, slot: Slot) -> Option<Step> {
        let living = r.q.living.clone()?;
        let edited = self
            .call(r.chat, r.pace, || {
                self.surface.edit(&r.job, &living, &r.content)
            })
            .await;
        match edited {
            Ok(done) => {
                self.counters.edited.fetch_add(1, Ordering::Relaxed);
                let now = SlotRow {
                    buttons: !r.content.actions.is_empty(),
                    ..living
                };
                let report = r.content.image.is_some().then_some(r.job.out);
                let outcome = done.map_or(Outcome::Unchanged, |()| Outcome::Sent);
                let change = self.slot_change(r.chat, slot, &now, &r.content);
                self.done(r.q, outcome, 1, Some(change), report).await;
                Some(Step::Next)
            }
            // The message is gone: the reply is posted anew.
            Err(Fail::Gone) => None,
            Err(f) => Some(self.failed(r.chat, r.q, f).await),
        }
    }

    /// A new message; it becomes its slot's living message, and the one it replaces loses
    /// its buttons.
    async fn post(&self, r: &Row<'_>) -> Step {
        if !self.surface.sends_once() {
            // The rows before it marked first (they are, almost always, by the time the
            // chat's pace lets the next call go).
            self.settle(r.chat.lane()).await;
        }
        let posted = self
            .call(r.chat, r.pace, || self.surface.send(&r.job, &r.content))
            .await;
        let posted = match posted {
            Ok(Some(p)) => p,
            Ok(None) => {
                self.done(r.q, Outcome::Unchanged, 1, None, None).await;
                return Step::Next;
            }
            Err(f) => return self.failed(r.chat, r.q, f).await,
        };
        self.counters.sent.fetch_add(1, Ordering::Relaxed);
        for _ in 0..posted.extra_calls {
            self.pacing.count(r.chat.lane());
        }
        let mut calls = 1 + i64::from(posted.extra_calls);
        let Some(slot) = r.job.out.slot.map(SlotUse::slot) else {
            self.done(r.q, Outcome::Sent, calls, None, Some(r.job.out))
                .await;
            return Step::Next;
        };
        // The slot's message as the row was read: nobody but this sender (the lease's
        // holder) changed it since.
        let old = r.q.living.clone();
        let now = SlotRow {
            message_id: posted.message_id.clone(),
            place: posted.place.clone(),
            photo: posted.photo,
            buttons: !r.content.actions.is_empty(),
            state: None,
        };
        // The message it replaces keeps no buttons (its call counted with this row's),
        // now, or once the lane is not busy: a group's scarce calls go to new boards
        // first (meanwhile a press on the old one is refused as out of date).
        let mut stale = old.filter(|o| o.buttons && o.message_id != posted.message_id);
        if stale.is_some() && self.pacing.busy(r.chat.lane(), r.pace) {
            if let Some(o) = stale.take() {
                self.keep_stale(r.chat, o).await;
            }
        }
        calls += i64::from(stale.is_some());
        // The new message is the slot's from here; a crash before the old one is stripped
        // leaves it its buttons (a press on them is refused as out of date).
        let change = self.slot_change(r.chat, slot, &now, &r.content);
        self.done(r.q, Outcome::Sent, calls, Some(change), Some(r.job.out))
            .await;
        if let Some(old) = stale {
            let cleared = self
                .call(r.chat, r.pace, || self.surface.clear_buttons(r.chat, &old))
                .await;
            match cleared {
                Err(Fail::GaveUp) => tracing::warn!("an old message kept its buttons"),
                // Removed or blocked between the post and the strip: the chat closes now.
                Err(Fail::Left) => return self.failed(r.chat, r.q, Fail::Left).await,
                _ => {}
            }
        }
        Step::Next
    }

    /// Keep an old board to take its buttons off later (see [`Outbox::strip_stale`]): a
    /// row, so that another process serving the lane next strips it.
    async fn keep_stale(&self, chat: &ChatRef, message: SlotRow) {
        let stale = StaleButtons {
            chat: chat.clone(),
            message_id: message.message_id,
            place: message.place,
        };
        if let Err(e) = self.table.store().keep_stale(&stale, crate::now_ms()).await {
            tracing::warn!(error = %e, "an old board's buttons not kept to strip");
        }
        // Once the lane's rows are read, new ones are kept here too.
        if let Some(list) = super::lock(&self.stale).get_mut(chat.lane()) {
            list.push(stale);
        }
    }

    /// Take the buttons off the lane's old boards, while the lane is not busy: whether
    /// some still wait (the sender looks again in a while).
    pub(super) async fn strip_stale(&self, lane: &str) -> bool {
        let loaded = super::lock(&self.stale).contains_key(lane);
        if !loaded {
            match self.table.store().stale_of(self.platform(), lane).await {
                Ok(rows) => {
                    super::lock(&self.stale).insert(lane.to_string(), rows);
                }
                Err(e) => {
                    tracing::warn!(error = %e, "old boards to strip not read");
                    return false;
                }
            }
        }
        for _ in 0..super::MAX_STALE {
            let next = {
                let stale = super::lock(&self.stale);
                let Some(first) = stale.get(lane).and_then(|l| l.first()) else {
                    return false;
                };
                first.clone()
            };
            let pace = self.surface.pace(&next.chat);
            if self.pacing.busy(lane, pace) {
                return true;
            }
            let old = SlotRow {
                message_id: next.message_id.clone(),
                place: next.place.clone(),
                photo: true,
                buttons: true,
                state: None,
            };
            let chat = &next.chat;
            let cleared = self
                .call(chat, pace, || self.surface.clear_buttons(chat, &old))
                .await;
            if matches!(cleared, Err(Fail::Lost)) {
                // Another process serves the lane now: it strips them.
                return false;
            }
            // Stripped, or it cannot be (gone, refused): either way not tried again. (A
            // chat the bot left is closed by its next row.)
            if let Err(e) = self.table.store().drop_stale(&next).await {
                tracing::warn!(error = %e, "a stripped board not forgotten");
            }
            if let Some(list) = super::lock(&self.stale).get_mut(lane) {
                list.retain(|s| *s != next);
            }
        }
        false
    }

    /// Mark a delivered row, with what it did to its slot (a row marked before its call
    /// keeps its slot alone), and report the arrival of its board (`shown`: a board that
    /// starts a clock, for fair clocks) in the same transaction.
    async fn done(
        &self,
        q: &Queued,
        outcome: Outcome,
        calls: i64,
        slot: Option<SlotChange<'_>>,
        shown: Option<&Outgoing>,
    ) {
        let report = shown.and_then(|out| match (out.game, out.ply, out.board()) {
            (Some(game), Some(ply), Some(_)) => Some(Table::report(game, ply, crate::now_ms())),
            _ => None,
        });
        if let Some(change) = slot {
            self.remember(&q.row.lane, change);
        }
        if !self.surface.marks_first() {
            self.mark_reporting(q, (outcome, calls), slot, report).await;
            return;
        }
        if let Some(r) = report {
            self.table.delivered(r.game, r.ply, r.at).await;
        }
        if let Some(change) = slot {
            let store = self.table.store();
            let r = match change {
                SlotChange::Keep {
                    platform,
                    chat,
                    slot,
                    row,
                } => {
                    store
                        .set_slot(platform, chat, slot, row, crate::now_ms())
                        .await
                }
                SlotChange::Drop {
                    platform,
                    chat,
                    slot,
                } => store.drop_slot(platform, chat, slot.0, slot.1).await,
            };
            if let Err(e) = r {
                tracing::warn!(error = %e, "living message not kept");
            }
        }
    }

    /// What a delivery did to its slot, for the lane's next rows (they are not read back).
    fn remember(&self, lane: &str, change: SlotChange<'_>) {
        let (key, living) = match change {
            SlotChange::Keep {
                chat, slot, row, ..
            } => (
                (chat.to_string(), slot.0.to_string(), slot.1),
                Some((row.clone(), crate::now_ms())),
            ),
            SlotChange::Drop { chat, slot, .. } => {
                ((chat.to_string(), slot.0.to_string(), slot.1), None)
            }
        };
        self.known(lane, |k| k.living.insert(key, living));
    }

    /// The slot's living message kept, or forgotten once nothing will change it again: a
    /// finished game's last board, an answered challenge.
    fn slot_change<'a>(
        &'a self,
        chat: &'a ChatRef,
        slot: Slot,
        row: &'a SlotRow,
        c: &Content,
    ) -> SlotChange<'a> {
        let over = c.actions.is_empty()
            && match slot {
                Slot::Board(_) => c.board.as_ref().is_some_and(|b| b.to_move.is_none()),
                Slot::Challenge(_) | Slot::Tournament(_) => true,
            };
        let (platform, chat, slot) = (self.platform(), chat.id.as_str(), slot.key());
        if over {
            SlotChange::Drop {
                platform,
                chat,
                slot,
            }
        } else {
            SlotChange::Keep {
                platform,
                chat,
                slot,
                row,
            }
        }
    }

    /// A board that starts a clock reached the chat: its clock starts now (fair clocks).
    pub async fn delivered(&self, out: &Outgoing) {
        if let (Some(game), Some(ply), Some(_)) = (out.game, out.ply, out.board()) {
            self.table.delivered(game, ply, crate::now_ms()).await;
        }
    }

    /// A row that could not be delivered.
    async fn failed(&self, chat: &ChatRef, q: &Queued, f: Fail) -> Step {
        match f {
            Fail::Lost => Step::Stop,
            Fail::Moved(to) => {
                tracing::info!(chat = %chat.id, to = %to, "the chat has a new id");
                // Its games and everything still to be said there move with it.
                self.table.chat_moved(chat.platform, &chat.id, &to).await;
                Step::Stop
            }
            Fail::Left => {
                // Its games are void and everything still to be said there is dropped; if
                // the store failed, the row waits and the next try closes the chat. Refused
                // in a topic, the bot left its group: the group closes, topics and all.
                let left = match chat.group_and_topic() {
                    Some((group, _)) => ChatRef::new(chat.platform, group, ChatKind::Group),
                    None => chat.clone(),
                };
                match self.table.chat_gone(&left, None).await {
                    Some(_) => Step::Stop,
                    None => Step::Later,
                }
            }
            Fail::Gone | Fail::GaveUp => {
                tracing::warn!(chat = %chat.id, row = q.id, "reply not delivered");
                self.done(q, Outcome::Dropped, 1, None, None).await;
                Step::Next
            }
        }
    }

    /// One platform call for `chat`: the lease renewed and the pace kept before each try,
    /// server trouble retried with backoff and the platform's waits waited out (keeping the
    /// lease meanwhile). `Ok(None)`: what was asked is there already.
    async fn call<T, F, Fut>(&self, chat: &ChatRef, pace: Pace, f: F) -> Result<Option<T>, Fail>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = Result<T, S::Error>>,
    {
        let f = &f;
        let attempt = || async move {
            if self.is_refused() {
                // Another sender met the refusal: no more calls with this token.
                return Err(Tried::Lost);
            }
            match self.claim(chat.lane()).await {
                Claim::Lost => return Err(Tried::Lost),
                Claim::Taken => self.take_anew(chat.lane()).await,
                Claim::Kept => {}
            }
            self.pacing.acquire(chat.lane(), pace).await;
            f().await.map_err(Tried::Failed)
        };
        let platform = self.platform();
        let result = attempt
            .retry(
                ExponentialBuilder::default()
                    .with_min_delay(Duration::from_millis(500))
                    .with_max_delay(Duration::from_secs(30))
                    .with_max_times(MAX_TRIES),
            )
            .sleep(self.holding(chat.lane()))
            .when(|e| {
                let class = match e {
                    Tried::Failed(e) => self.surface.classify(e),
                    Tried::Lost => Class::Gone,
                };
                matches!(class, Class::Retry | Class::RetryAfter(_))
            })
            .adjust(|e, d| match e {
                Tried::Failed(e) => match self.surface.classify(e) {
                    Class::RetryAfter(wait) => Some(wait),
                    _ => d,
                },
                Tried::Lost => None,
            })
            .notify(|e, d| {
                if let Tried::Failed(e) = e {
                    self.counters.retried.fetch_add(1, Ordering::Relaxed);
                    if matches!(self.surface.classify(e), Class::RetryAfter(_)) {
                        metrics::counter!("ugolki_platform_429_total", "platform" => platform)
                            .increment(1);
                    }
                    metrics::counter!("ugolki_platform_retries_total", "platform" => platform)
                        .increment(1);
                    let wait_ms = d.as_millis();
                    tracing::info!(chat = %chat.id, wait_ms, error = %e, "retrying");
                }
            })
            .await;
        match result {
            Ok(v) => Ok(Some(v)),
            Err(Tried::Lost) => Err(Fail::Lost),
            Err(Tried::Failed(e)) => match self.surface.classify(&e) {
                Class::Unchanged => Ok(None),
                Class::Moved(to) => Err(Fail::Moved(to)),
                Class::Gone => {
                    // A reply lost: the operator is told why (a Telegram chat gone, a
                    // console's pictures folder not writable).
                    tracing::warn!(chat = %chat.id, error = %e, "refused for good");
                    Err(Fail::Gone)
                }
                Class::Left => {
                    tracing::info!(chat = %chat.id, error = %e, "the bot left the chat");
                    Err(Fail::Left)
                }
                Class::Refused => {
                    // Not this chat's fault: its row waits, unsent, for a good token.
                    tracing::error!(error = %e, "the platform refused the bot's token");
                    self.refused.send_replace(true);
                    Err(Fail::Lost)
                }
                Class::Retry | Class::RetryAfter(_) => {
                    tracing::error!(chat = %chat.id, error = %e, "given up after retries");
                    Err(Fail::GaveUp)
                }
            },
        }
    }

    /// A wait of the retry loop that keeps the chat's lease: it is renewed every few
    /// seconds meanwhile (a platform may ask for a wait longer than a lease).
    fn holding(&self, chat: &str) -> impl Fn(Duration) -> Waiting + 'static {
        let store = self.table.store().clone();
        let (platform, chat, holder) =
            (self.platform(), chat.to_string(), self.holder().to_string());
        move |d| {
            let (store, chat, holder) = (store.clone(), chat.clone(), holder.clone());
            Box::pin(async move {
                let until = tokio::time::Instant::now() + d;
                let piece =
                    Duration::from_millis(u64::try_from(super::LEASE_MS / 3).unwrap_or(5000));
                loop {
                    let now = tokio::time::Instant::now();
                    if now >= until {
                        return;
                    }
                    tokio::time::sleep((until - now).min(piece)).await;
                    let at = crate::now_ms();
                    let renewed = store
                        .claim_chat(platform, &chat, &holder, at, at + super::LEASE_MS)
                        .await;
                    if !matches!(renewed, Ok(true)) {
                        return;
                    }
                }
            })
        }
    }
}

/// A running game's board that a later board of the same game, waiting behind it, makes
/// pointless: the next one names the last move and shows the clocks. A board without the
/// game's buttons (a final board, a shown position) is never left out.
fn overtaken(out: &Outgoing, later: &[(Queued, Outgoing)]) -> bool {
    let (Some(SlotUse::Replace(Slot::Board(game))), Some(_), true) = (
        out.slot,
        out.board(),
        out.actions.iter().any(|a| a.game().is_some()),
    ) else {
        return false;
    };
    later
        .iter()
        .any(|(_, o)| o.slot == Some(SlotUse::Replace(Slot::Board(game))) && o.board().is_some())
}
