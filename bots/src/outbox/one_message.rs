//! What a one-message chat shows — one message edited for every line, nothing posted: the
//! game's board with its caption and buttons, and the latest line since the board under
//! it (a challenge, an offer, a notice) with its own buttons first. Kept as codes in the
//! chat's slot row (`message`, 0), so a restart or another process edits it alike.

use serde_json::{json, Value};
use ugolki_core::store::SlotRow;
use ugolki_core::table::{Action, Outgoing, Slot, SlotUse, Table};
use ugolki_core::words::{render, Lang, Msg};

/// The slot of a one-message chat's message.
pub const SLOT: (&str, i64) = ugolki_core::store::ONE_MESSAGE_SLOT;

/// A message in a language, with its buttons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub message: Msg,
    pub lang: Lang,
    pub actions: Vec<Action>,
}

impl Line {
    fn of(out: &Outgoing) -> Line {
        Line {
            message: out.message.clone(),
            lang: out.lang,
            actions: out.actions.clone(),
        }
    }

    fn text(&self) -> String {
        render(&self.message, self.lang)
    }

    fn to_json(&self) -> Value {
        json!({
            "message": self.message.to_json(),
            "lang": self.lang.code(),
            "actions": self.actions.iter().map(|a| a.to_text()).collect::<Vec<_>>(),
        })
    }

    fn from_json(v: &Value) -> Option<Line> {
        Some(Line {
            message: Msg::from_json(v.get("message")?)?,
            lang: Lang::from_tag(v.get("lang")?.as_str()?)?,
            actions: v
                .get("actions")?
                .as_array()?
                .iter()
                .map(|a| a.as_str().and_then(Action::parse))
                .collect::<Option<Vec<_>>>()?,
        })
    }
}

/// What the message shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// The board's caption and buttons (before a game, none).
    pub board: Option<Line>,
    /// A line since the board, and its buttons.
    pub note: Option<Line>,
}

impl Shown {
    /// The caption: the board's, then the line under it.
    #[must_use]
    pub fn caption(&self) -> String {
        match (&self.board, &self.note) {
            (Some(b), Some(n)) => format!("{}\n\n{}", b.text(), n.text()),
            (Some(l), None) | (None, Some(l)) => l.text(),
            (None, None) => String::new(),
        }
    }

    /// The buttons: the line's first, then the board's not already there.
    #[must_use]
    pub fn actions(&self) -> Vec<Action> {
        let mut out: Vec<Action> = self.note.iter().flat_map(|n| n.actions.clone()).collect();
        for a in self.board.iter().flat_map(|b| b.actions.iter()) {
            if !out.contains(a) {
                out.push(*a);
            }
        }
        out
    }

    /// The language to label the buttons in: the newest line's.
    #[must_use]
    pub fn lang(&self) -> Lang {
        self.note
            .as_ref()
            .or(self.board.as_ref())
            .map_or(Lang::EN, |l| l.lang)
    }

    /// What a slot row says the message shows.
    #[must_use]
    pub fn of_slot(slot: Option<&SlotRow>) -> Shown {
        let Some(v) = slot
            .and_then(|s| s.state.as_deref())
            .and_then(|s| serde_json::from_str::<Value>(s).ok())
        else {
            return Shown::default();
        };
        Shown {
            board: v.get("board").and_then(Line::from_json),
            note: v.get("note").and_then(Line::from_json),
        }
    }

    /// The state a slot row keeps.
    #[must_use]
    pub fn to_state(&self) -> String {
        json!({
            "board": self.board.as_ref().map(Line::to_json),
            "note": self.note.as_ref().map(Line::to_json),
        })
        .to_string()
    }

    /// What the message shows after `out`. A line of a running game is written under the
    /// game's board as the table has it now (another process may have shown a later move):
    /// its text under the board's caption, its buttons — a pick's destinations, a draw
    /// offer's answers — in place of the board's, or before them for a line of its own.
    pub async fn after(mut self, out: &Outgoing, table: &Table) -> Shown {
        if out.picture.is_some() && out.board().is_some() {
            self.board = Some(Line::of(out));
            self.note = None;
            return self;
        }
        let board_slot = matches!(
            out.slot,
            Some(SlotUse::Edit(Slot::Board(_)) | SlotUse::Replace(Slot::Board(_)))
        );
        let now = match out.game {
            Some(game) => table.board_now(game, out.lang).await,
            None => None,
        };
        match (now, board_slot) {
            (Some(now), true) => {
                self.note = (out.message != now.message).then(|| Line {
                    actions: Vec::new(),
                    ..Line::of(out)
                });
                self.board = Some(Line {
                    actions: out.actions.clone(),
                    ..Line::of(&now)
                });
            }
            (Some(now), false) => {
                self.board = Some(Line::of(&now));
                self.note = Some(Line::of(out));
            }
            // No running game (a challenge, a game's last line): under what was shown.
            (None, _) => self.note = Some(Line::of(out)),
        }
        self
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
        let line = |message: Msg, actions: Vec<Action>| Line {
            message,
            lang: Lang::EN,
            actions,
        };
        let mut shown = Shown {
            board: Some(line(Msg::NotYourTurn, vec![resign])),
            note: None,
        };
        assert_eq!(shown.caption(), render(&Msg::NotYourTurn, Lang::EN));
        shown.note = Some(line(Msg::DrawAlreadyOffered, vec![accept, resign]));
        assert_eq!(
            shown.caption(),
            format!(
                "{}\n\n{}",
                render(&Msg::NotYourTurn, Lang::EN),
                render(&Msg::DrawAlreadyOffered, Lang::EN)
            )
        );
        assert_eq!(shown.actions(), [accept, resign], "no button twice");
        // Kept as codes, read back alike.
        let row = SlotRow {
            message_id: "AgAA".into(),
            place: None,
            photo: true,
            buttons: true,
            state: Some(shown.to_state()),
        };
        assert_eq!(Shown::of_slot(Some(&row)), shown);
        assert_eq!(Shown::of_slot(None), Shown::default());
    }
}
