//! Replies as outbox rows and back: the typed message as its code and arguments, the
//! buttons as their text forms, the picture as its spec. The row a reply becomes is written
//! in the transaction of the change it tells of; a sender reads it back, renders it in the
//! reader's language and draws its picture when it is sent.

use super::action::Action;
use super::picture::Picture;
use super::types::{Audience, ChatKind, ChatRef, Outgoing, Platform, Slot, SlotUse, User};
use crate::store::{OutRow, Says};
use crate::words::{Lang, Msg};
use std::sync::{Arc, Mutex};

impl Outgoing {
    /// The row this reply is kept as.
    #[must_use]
    pub fn to_row(&self) -> OutRow {
        let (slot_use, slot) = match self.slot {
            Some(SlotUse::Replace(s)) => (Some("replace"), Some(s.key())),
            Some(SlotUse::Edit(s)) => (Some("edit"), Some(s.key())),
            None => (None, None),
        };
        OutRow {
            platform: self.chat.platform.as_str().to_string(),
            chat_id: self.chat.id.clone(),
            chat_kind: self.chat.kind.as_str().to_string(),
            lane: self.chat.lane().to_string(),
            place: self.place.clone(),
            audience: match self.audience {
                Audience::Chat => "chat",
                Audience::Sender => "sender",
            }
            .to_string(),
            sender_id: self.sender.as_ref().map(|u| u.id.clone()),
            sender_name: self.sender.as_ref().map(|u| u.name.clone()),
            reply_to: self.reply_to.clone(),
            slot_use: slot_use.map(str::to_string),
            slot_kind: slot.map(|s| s.0.to_string()),
            slot_id: slot.map(|s| s.1),
            game_id: self.game,
            ply: self.ply,
            message: self.message.to_json().to_string(),
            lang: self.lang.code().to_string(),
            actions: self
                .actions
                .iter()
                .map(|a| a.to_text())
                .collect::<Vec<_>>()
                .join(" "),
            picture: self.picture.as_ref().map(|p| p.to_json().to_string()),
        }
    }

    /// A stored row read back; `None` when this version cannot read it (it is logged and
    /// dropped, never sent half-read).
    #[must_use]
    pub fn from_row(r: &OutRow) -> Option<Outgoing> {
        let chat = ChatRef::new(
            Platform::parse(&r.platform)?,
            r.chat_id.clone(),
            ChatKind::parse(&r.chat_kind)?,
        );
        let audience = match r.audience.as_str() {
            "chat" => Audience::Chat,
            "sender" => Audience::Sender,
            _ => return None,
        };
        let slot = match (r.slot_use.as_deref(), r.slot_kind.as_deref(), r.slot_id) {
            (None, None, None) => None,
            (Some(u), Some(kind), Some(id)) => {
                let s = Slot::from_key(kind, id)?;
                Some(match u {
                    "replace" => SlotUse::Replace(s),
                    "edit" => SlotUse::Edit(s),
                    _ => return None,
                })
            }
            _ => return None,
        };
        let message = Msg::from_json(&serde_json::from_str(&r.message).ok()?)?;
        let picture = match &r.picture {
            Some(p) => Some(Picture::from_json(&serde_json::from_str(p).ok()?)?),
            None => None,
        };
        let actions = r
            .actions
            .split_whitespace()
            .map(Action::parse)
            .collect::<Option<Vec<_>>>()?;
        let sender = match (&r.sender_id, &r.sender_name) {
            (Some(id), Some(name)) => Some(User {
                id: id.clone(),
                name: name.clone(),
                handle: None,
            }),
            _ => None,
        };
        Some(Outgoing {
            chat,
            audience,
            sender,
            place: r.place.clone(),
            reply_to: r.reply_to.clone(),
            slot,
            game: r.game_id,
            ply: r.ply,
            message,
            lang: Lang::of_hint(Some(&r.lang)),
            picture,
            actions,
            direct: false,
            stored: true,
        })
    }
}

/// The rows of the replies the outbox keeps (all but those answered at once through their
/// interaction), each marked as kept.
pub(super) fn keep(outs: &mut [Outgoing]) -> Vec<OutRow> {
    outs.iter_mut()
        .filter(|o| !o.direct && !o.stored)
        .map(|o| {
            o.stored = true;
            o.to_row()
        })
        .collect()
}

/// Replies that a change makes from what it came to, inside its transaction: what the
/// store writes, and the same replies for the caller once the change has committed.
pub(super) struct Later {
    outs: Arc<Mutex<Vec<Outgoing>>>,
}

impl Later {
    /// `make` turns the change's result into its replies.
    pub(super) fn new<T: 'static>(
        make: impl FnOnce(&T) -> Vec<Outgoing> + Send + 'static,
    ) -> (Later, Says<T>) {
        let outs = Arc::new(Mutex::new(Vec::new()));
        let kept = outs.clone();
        let says = Says::After(Box::new(move |result: &T| {
            let mut made = make(result);
            let rows = keep(&mut made);
            *super::lock(&kept) = made;
            rows
        }));
        (Later { outs }, says)
    }

    /// The replies, once the change has committed.
    pub(super) fn take(self) -> Vec<Outgoing> {
        std::mem::take(&mut *super::lock(&self.outs))
    }
}

/// Replies known before the change: kept in its transaction.
pub(super) fn says_now<T>(outs: &mut [Outgoing]) -> Says<T> {
    Says::Rows(keep(outs))
}
