//! Playing by buttons: the board's buttons are the pieces that can move; a press on one
//! turns them into its destinations and Back; a press on a destination plays the move
//! through the typed path (the clock, the rules, a confirmation for a losing move). Only the
//! player to move may press them; the picture does not change until the move (a pick costs
//! no picture).

use super::live::Target;
use super::types::{lang_of, Incoming, Outgoing};
use super::{refuse, Handled, Table};
use crate::square::Square;
use crate::store::Player;
use crate::words::Msg;

impl Table {
    /// A piece picked: the living message shows where it can go.
    pub(super) async fn pick_piece(
        &self,
        msg: &Incoming,
        me: &Player,
        t: Target,
        from: Square,
    ) -> Handled<Vec<Outgoing>> {
        let o = &msg.origin;
        let (live, color, _guard) = self.my_game_locked(o, me, t).await?;
        if live.game.turn() != color {
            return refuse(Msg::NotYourTurn);
        }
        let dests = live.game.destinations(from);
        if dests.is_empty() {
            return refuse(Msg::NoMovesFrom { square: from });
        }
        let list: Vec<String> = dests.iter().map(ToString::to_string).collect();
        let text = Msg::Picked {
            id: live.id(),
            square: from,
            list: list.join(", "),
        };
        Ok(vec![
            edit_of(&live, text, lang_of(o)).with_actions(live.destination_buttons(from))
        ])
    }

    /// Back from a picked piece to the pieces that can move.
    pub(super) async fn unpick(
        &self,
        msg: &Incoming,
        me: &Player,
        t: Target,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let o = &msg.origin;
        let (live, color, _guard) = self.my_game_locked(o, me, t).await?;
        if live.game.turn() != color {
            return refuse(Msg::NotYourTurn);
        }
        let text = Msg::BoardCaption {
            id: live.id(),
            status: Box::new(live.status(now)),
        };
        Ok(vec![
            edit_of(&live, text, lang_of(o)).with_actions(live.buttons())
        ])
    }

    /// A destination pressed: the move, as if typed.
    pub(super) async fn press_move(
        &self,
        msg: &Incoming,
        me: &Player,
        game: i64,
        from: Square,
        to: Square,
        now: i64,
    ) -> Handled<Vec<Outgoing>> {
        let o = &msg.origin;
        let Some(live) = self.live(game).await? else {
            return self.refuse_once(o, Msg::ButtonStale, now).await;
        };
        let Some(color) = live.color_of(me.id) else {
            return self.refuse_once(o, Msg::ButtonNotYours, now).await;
        };
        if live.game.turn() != color {
            return self.refuse_once(o, Msg::NotYourTurn, now).await;
        }
        let Some(text) = live.game.move_between(from, to) else {
            return self.refuse_once(o, Msg::ButtonStale, now).await;
        };
        self.typed_move(msg, me, Some(game), &text, true, now).await
    }
}

/// The living message edited in place: its text, and buttons set by the caller.
fn edit_of(live: &super::live::Live, text: Msg, lang: crate::words::Lang) -> Outgoing {
    Outgoing::to_chat(&live.chat(), text)
        .in_lang(lang)
        .in_game(live.id())
        .editing(super::types::Slot::Board(live.id()))
}
