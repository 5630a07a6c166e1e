//! Delivery to inline messages: a one-message chat (`inline:<inline_message_id>`) is shown
//! by editing that one message. A board becomes its photo — posted first to one of the
//! operator's picture chats, because an inline message's photo can only be replaced by a
//! file already on Telegram — with its caption and buttons; any other line is added under
//! the board's caption (its buttons before the board's) until the next board. Private lines
//! go to the player's private chat when there is one; there is nowhere else for them.

use super::{cut, Delivery, Job, Sent, MAX_CAPTION};
use crate::queues::lock;
use std::hash::BuildHasher;
use teloxide::payloads::{
    EditMessageCaptionInlineSetters, EditMessageMediaInlineSetters, SendPhotoSetters,
};
use teloxide::prelude::Requester;
use teloxide::types::{ChatId, FileId, InputFile, InputMedia, InputMediaPhoto};
use ugolki_core::game::Rules;
use ugolki_core::table::inline::ONE_MESSAGE_PREFIX;
use ugolki_core::table::{Action, Outgoing, Slot, SlotUse};
use ugolki_core::view::BoardView;
use ugolki_render::Scene;

/// How long storing pictures pauses after every picture chat has failed.
const STORE_PAUSE_MS: i64 = 60_000;
/// Inline messages whose last state is remembered.
const MAX_SHOWN: usize = 10_000;
/// Card pictures stored besides the built-in games' start positions (training rooms):
/// every new room a query names costs an upload to a picture chat, which the games' boards
/// need too, so made-up rooms, one per query, must not go on filling it.
pub const MAX_EXTRA_PICTURES: usize = 32;

/// Queue (and flood limit) keys of inline messages: at and above this, far above any
/// Telegram chat id, so they never share a real chat's queue.
const INLINE_KEYS: i64 = 1 << 62;

/// What an inline message shows now.
#[derive(Clone, Debug, Default)]
pub(super) struct Shown {
    /// The board's caption and buttons (or, before a game, none).
    board: Option<(String, Vec<Action>)>,
    /// A line since the board (a challenge, an offer, a notice) and its buttons.
    note: Option<(String, Vec<Action>)>,
}

impl Shown {
    fn caption(&self) -> String {
        match (&self.board, &self.note) {
            (Some((b, _)), Some((n, _))) => format!("{b}\n\n{n}"),
            (Some((t, _)), None) | (None, Some((t, _))) => t.clone(),
            (None, None) => String::new(),
        }
    }

    fn actions(&self) -> Vec<Action> {
        let mut out: Vec<Action> = self.note.iter().flat_map(|n| n.1.clone()).collect();
        for a in self.board.iter().flat_map(|b| b.1.iter()) {
            if !out.contains(a) {
                out.push(*a);
            }
        }
        out
    }
}

/// Whether `key` is a built-in game's start picture (any variant but a training room's:
/// a few dozen at most), as opposed to a training room's, of which there is no end.
pub(in crate::telegram) fn is_start_picture(key: &str) -> bool {
    !matches!(Rules::from_id(key), Ok(Rules::Corners(v)) if v.is_training())
}

/// The queue key of an inline message.
pub(super) fn key(inline_message_id: &str) -> i64 {
    // A fixed hasher: the same message has the same key in every process.
    let h = std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default()
        .hash_one(inline_message_id);
    INLINE_KEYS | i64::try_from(h >> 2).unwrap_or(0)
}

/// Whether a queue key is an inline message's.
pub(super) fn is_key(chat: i64) -> bool {
    chat >= INLINE_KEYS
}

impl Delivery {
    /// Whether inline messages can show boards (the operator gave picture chats).
    pub fn has_picture_store(&self) -> bool {
        !self.inline_chats.is_empty()
    }

    /// Post `png` to a picture chat, each in turn, trying the others when one fails; the
    /// photo's `file_id`. After all have failed, nothing is tried for a minute (a broken
    /// picture chat must not hold up every board and every inline query).
    async fn store_png(&self, png: Vec<u8>) -> Option<FileId> {
        let chats = self.inline_chats.len();
        if chats == 0 {
            return None;
        }
        let now = crate::now_ms();
        if lock(&self.store_failed_at).is_some_and(|t| now - t < STORE_PAUSE_MS) {
            return None;
        }
        for _ in 0..chats {
            let n = self
                .next_store
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let chat = self.inline_chats[n % chats];
            let sent = self
                .call(chat, "sendPhoto", || {
                    self.bot
                        .send_photo(
                            ChatId(chat),
                            InputFile::memory(png.clone()).file_name("board.png"),
                        )
                        .disable_notification(true)
                })
                .await;
            match sent {
                Sent::Done(m) => {
                    if let Some(p) = m.photo().and_then(<[_]>::last) {
                        *lock(&self.store_failed_at) = None;
                        return Some(p.file.id.clone());
                    }
                }
                Sent::Unchanged => {}
                Sent::Failed(e) => {
                    tracing::error!(chat, error = %e, "board picture not stored for an inline message");
                }
            }
        }
        *lock(&self.store_failed_at) = Some(crate::now_ms());
        None
    }

    /// The stored picture of `view` under `key` (a start position), stored on first use.
    pub async fn picture(&self, key: &str, view: &BoardView) -> Option<FileId> {
        if let Some(f) = lock(&self.pictures).get(key) {
            return Some(f.clone());
        }
        // One at a time, so a picture asked for twice at once is stored once.
        let _one = self.storing.lock().await;
        {
            let pictures = lock(&self.pictures);
            if let Some(f) = pictures.get(key) {
                return Some(f.clone());
            }
            let standard = is_start_picture(key);
            let extra = pictures.keys().filter(|k| !is_start_picture(k));
            if !standard && extra.count() >= MAX_EXTRA_PICTURES {
                return None;
            }
        }
        let png = self.renderer.render(&Scene::from_view(view));
        let file = self.store_png(png).await?;
        lock(&self.pictures).insert(key.to_string(), file.clone());
        Some(file)
    }

    /// Store the start pictures of every card an empty query offers.
    pub async fn store_start_pictures(&self) {
        let Ok(cards) = ugolki_core::table::inline::cards("", &[], "") else {
            return;
        };
        for card in cards {
            self.picture(&card.picture, &card.board).await;
        }
    }

    /// What the message shows after `out`. A line of a running game is written under the
    /// game's board as the table has it now (not as this process last showed it: another
    /// process may have shown a later move): its text under the board's caption, its
    /// buttons — a pick's destinations, a draw offer's answers — in place of the board's,
    /// or before them for a line of its own.
    async fn shown_after(&self, inline: &str, out: &Outgoing, text: String) -> Shown {
        let mut shown = lock(&self.inline).get(inline).cloned().unwrap_or_default();
        let board_slot = matches!(
            out.slot,
            Some(SlotUse::Edit(Slot::Board(_)) | SlotUse::Replace(Slot::Board(_)))
        );
        if out.board.is_some() {
            shown.board = Some((text, out.actions.clone()));
            shown.note = None;
            return shown;
        }
        let now = match out.game {
            Some(game) => self.table.board_now(game, out.lang).await,
            None => None,
        };
        match (now, board_slot) {
            (Some(now), true) => {
                let caption = now.text();
                shown.note = (text != caption).then(|| (text, Vec::new()));
                shown.board = Some((caption, out.actions.clone()));
            }
            (Some(now), false) => {
                shown.board = Some((now.text(), now.actions));
                shown.note = Some((text, out.actions.clone()));
            }
            // No running game (a challenge, a game's last line): under what was shown.
            (None, _) => shown.note = Some((text, out.actions.clone())),
        }
        shown
    }

    /// Show one reply on its inline message.
    pub(super) async fn deliver_inline(&self, key: i64, job: Job) {
        let out = &job.out;
        let Some(inline) = out.chat.strip_prefix(ONE_MESSAGE_PREFIX) else {
            return;
        };
        let shown = self.shown_after(inline, out, out.text()).await;
        let caption = cut(&shown.caption(), MAX_CAPTION);
        let markup = Self::keyboard_for(&shown.actions(), out.lang);
        let photo = match &out.board {
            Some(view) => {
                let png = self.renderer.render(&Scene::from_view(view));
                self.store_png(png).await
            }
            None => None,
        };
        let new_picture = photo.is_some();
        let r = match photo {
            Some(file) => {
                let media = InputMedia::Photo(
                    InputMediaPhoto::new(InputFile::file_id(file)).caption(caption.clone()),
                );
                self.call(key, "editMessageMedia", || {
                    self.bot
                        .edit_message_media_inline(inline, media.clone())
                        .reply_markup(markup.clone())
                })
                .await
            }
            // No new picture (a line, or the picture could not be stored): the caption,
            // so the game goes on even then.
            None => {
                self.call(key, "editMessageCaption", || {
                    self.bot
                        .edit_message_caption_inline(inline)
                        .caption(caption.clone())
                        .reply_markup(markup.clone())
                })
                .await
            }
        };
        match r {
            Sent::Done(_) | Sent::Unchanged => {
                lock(&self.counters).edited += 1;
                self.keep_shown(inline, shown);
                // A board counts as delivered only with its picture (fair clocks: no
                // credit for a board nobody could see).
                if let (Some(game), Some(ply), true) = (out.game, out.ply, new_picture) {
                    self.table.delivered(game, ply, crate::now_ms()).await;
                }
            }
            Sent::Failed(e) => {
                lock(&self.counters).failed += 1;
                tracing::error!(error = %e, "inline message not edited");
            }
        }
    }

    /// Remember what a message shows, within [`MAX_SHOWN`] messages: past that, those with
    /// nothing left to press go first, then all (a running game's board is read again from
    /// the table when needed).
    fn keep_shown(&self, inline: &str, shown: Shown) {
        let mut all = lock(&self.inline);
        all.insert(inline.to_string(), shown);
        if all.len() > MAX_SHOWN {
            all.retain(|_, s| !s.actions().is_empty());
            if all.len() > MAX_SHOWN {
                all.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_goes_under_the_board_and_its_buttons_before_the_boards() {
        let (game, ply) = (1, 4);
        let resign = Action::Resign { game, ply };
        let accept = Action::AcceptDraw { game, ply };
        let mut shown = Shown {
            board: Some(("Game #1: Bob, your move.".into(), vec![resign])),
            note: None,
        };
        assert_eq!(shown.caption(), "Game #1: Bob, your move.");
        shown.note = Some(("Alice offers a draw.".into(), vec![accept, resign]));
        assert_eq!(
            shown.caption(),
            "Game #1: Bob, your move.\n\nAlice offers a draw."
        );
        assert_eq!(shown.actions(), [accept, resign], "no button twice");
        let before = Shown {
            board: None,
            note: Some(("challenge #1".into(), Vec::new())),
        };
        assert_eq!(before.caption(), "challenge #1");
        assert!(before.actions().is_empty());
    }

    #[test]
    fn inline_keys_are_far_from_every_chat_id_and_stable() {
        let k = key("AgAAAinline1");
        assert!(is_key(k) && k == key("AgAAAinline1") && k != key("AgAAAinline2"));
        assert!(!is_key(-1_001_234_567_890) && !is_key(7_000_000_000));
    }
}
