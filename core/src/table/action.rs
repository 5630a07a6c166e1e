//! Buttons: a small typed action naming its game or challenge and the ply it was offered at,
//! with a text form of at most 64 bytes (Telegram's `callback_data`, Discord's custom id)
//! that reads back to the same action.

use crate::square::Square;
use crate::words::Msg;

/// Longest text form any platform takes.
pub const MAX_ACTION_TEXT: usize = 64;

/// A button press. Game actions carry the ply they were offered at: pressed after the game
/// moved on, they are refused as out of date.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Accept {
        challenge: i64,
    },
    Decline {
        challenge: i64,
    },
    Cancel {
        challenge: i64,
    },
    /// Join (or come back to) a tournament.
    Join {
        tournament: i64,
    },
    Withdraw {
        tournament: i64,
    },
    Resign {
        game: i64,
        ply: i64,
    },
    OfferDraw {
        game: i64,
        ply: i64,
    },
    AcceptDraw {
        game: i64,
        ply: i64,
    },
    DeclineDraw {
        game: i64,
        ply: i64,
    },
    Abort {
        game: i64,
        ply: i64,
    },
    /// Play the losing move (C6) that waits for confirmation.
    Confirm {
        game: i64,
        ply: i64,
    },
    /// Claim the game from an idle opponent (D6).
    Claim {
        game: i64,
        ply: i64,
    },
    /// Pick the piece on `from`: its destinations become the buttons (playing by buttons).
    ShowMoves {
        game: i64,
        ply: i64,
        from: Square,
    },
    /// Play the picked piece's move `from`→`to`.
    MoveTo {
        game: i64,
        ply: i64,
        from: Square,
        to: Square,
    },
    /// Back to the pieces that can move.
    Back {
        game: i64,
        ply: i64,
    },
}

impl Action {
    /// The short code of each kind, first in the text form.
    fn code(self) -> &'static str {
        match self {
            Action::Accept { .. } => "acc",
            Action::Decline { .. } => "dec",
            Action::Cancel { .. } => "can",
            Action::Join { .. } => "tjn",
            Action::Withdraw { .. } => "twd",
            Action::Resign { .. } => "res",
            Action::OfferDraw { .. } => "odr",
            Action::AcceptDraw { .. } => "adr",
            Action::DeclineDraw { .. } => "ddr",
            Action::Abort { .. } => "abt",
            Action::Confirm { .. } => "cnf",
            Action::Claim { .. } => "clm",
            Action::ShowMoves { .. } => "sho",
            Action::MoveTo { .. } => "mto",
            Action::Back { .. } => "bck",
        }
    }

    /// `acc:7`, `res:12:30`, `sho:12:30:c3`: at most 64 bytes for any ids up to 2^63.
    #[must_use]
    pub fn to_text(self) -> String {
        let code = self.code();
        match self {
            Action::Accept { challenge }
            | Action::Decline { challenge }
            | Action::Cancel { challenge } => format!("{code}:{challenge}"),
            Action::Join { tournament } | Action::Withdraw { tournament } => {
                format!("{code}:{tournament}")
            }
            Action::ShowMoves { game, ply, from } => format!("{code}:{game}:{ply}:{from}"),
            Action::MoveTo {
                game,
                ply,
                from,
                to,
            } => format!("{code}:{game}:{ply}:{from}:{to}"),
            Action::Resign { game, ply }
            | Action::OfferDraw { game, ply }
            | Action::AcceptDraw { game, ply }
            | Action::DeclineDraw { game, ply }
            | Action::Abort { game, ply }
            | Action::Confirm { game, ply }
            | Action::Claim { game, ply }
            | Action::Back { game, ply } => format!("{code}:{game}:{ply}"),
        }
    }

    /// Read a text form written by [`Action::to_text`]; anything else is `None`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Action> {
        if text.len() > MAX_ACTION_TEXT {
            return None;
        }
        let mut parts = text.split(':');
        let code = parts.next()?;
        let number = |p: Option<&str>| -> Option<i64> {
            let p = p?;
            // Canonical numbers only, so a text form reads back to itself.
            if p.is_empty()
                || (p.len() > 1 && p.starts_with('0'))
                || !p.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            p.parse().ok()
        };
        let first = number(parts.next())?;
        let action = match code {
            "acc" => Action::Accept { challenge: first },
            "dec" => Action::Decline { challenge: first },
            "can" => Action::Cancel { challenge: first },
            "tjn" => Action::Join { tournament: first },
            "twd" => Action::Withdraw { tournament: first },
            _ => {
                let (game, ply) = (first, number(parts.next())?);
                match code {
                    "res" => Action::Resign { game, ply },
                    "odr" => Action::OfferDraw { game, ply },
                    "adr" => Action::AcceptDraw { game, ply },
                    "ddr" => Action::DeclineDraw { game, ply },
                    "abt" => Action::Abort { game, ply },
                    "cnf" => Action::Confirm { game, ply },
                    "clm" => Action::Claim { game, ply },
                    "sho" => {
                        let from = Square::parse(parts.next()?)?;
                        Action::ShowMoves { game, ply, from }
                    }
                    "mto" => {
                        let from = Square::parse(parts.next()?)?;
                        let to = Square::parse(parts.next()?)?;
                        Action::MoveTo {
                            game,
                            ply,
                            from,
                            to,
                        }
                    }
                    "bck" => Action::Back { game, ply },
                    _ => return None,
                }
            }
        };
        if parts.next().is_some() {
            return None;
        }
        Some(action)
    }

    /// The button's label.
    #[must_use]
    pub fn label(self) -> Msg {
        match self {
            Action::Accept { .. } => Msg::BtnAccept,
            Action::Decline { .. } => Msg::BtnDecline,
            Action::Cancel { .. } => Msg::BtnCancel,
            Action::Join { .. } => Msg::BtnJoin,
            Action::Withdraw { .. } => Msg::BtnWithdraw,
            Action::Resign { .. } => Msg::BtnResign,
            Action::OfferDraw { .. } => Msg::BtnOfferDraw,
            Action::AcceptDraw { .. } => Msg::BtnAcceptDraw,
            Action::DeclineDraw { .. } => Msg::BtnDeclineDraw,
            Action::Abort { .. } => Msg::BtnAbort,
            Action::Confirm { .. } => Msg::BtnConfirm,
            Action::Claim { .. } => Msg::BtnClaim,
            Action::ShowMoves { from, .. } => Msg::BtnSquare { square: from },
            Action::MoveTo { to, .. } => Msg::BtnSquare { square: to },
            Action::Back { .. } => Msg::BtnBack,
        }
    }

    /// A square button (a piece to pick, or where it goes): platforms lay these out in a
    /// grid of their own, apart from the game's other buttons.
    #[must_use]
    pub fn is_square(self) -> bool {
        matches!(self, Action::ShowMoves { .. } | Action::MoveTo { .. })
    }

    /// The running game a message's buttons belong to: one that can still be resigned
    /// (a board whose game has ended keeps none of these).
    #[must_use]
    pub fn running_game(actions: &[Action]) -> Option<i64> {
        actions.iter().find_map(|a| match a {
            Action::Resign { game, .. } => Some(*game),
            _ => None,
        })
    }

    /// The game it acts on, with the ply it was offered at.
    #[must_use]
    pub fn game(self) -> Option<(i64, i64)> {
        match self {
            Action::Accept { .. }
            | Action::Decline { .. }
            | Action::Cancel { .. }
            | Action::Join { .. }
            | Action::Withdraw { .. } => None,
            Action::Resign { game, ply }
            | Action::OfferDraw { game, ply }
            | Action::AcceptDraw { game, ply }
            | Action::DeclineDraw { game, ply }
            | Action::Abort { game, ply }
            | Action::Confirm { game, ply }
            | Action::Claim { game, ply }
            | Action::ShowMoves { game, ply, .. }
            | Action::MoveTo { game, ply, .. }
            | Action::Back { game, ply } => Some((game, ply)),
        }
    }
}

/// The pieces of `game` that can move now, as buttons (the capturing ones when a capture is
/// compulsory), offered at `ply` of game `id`.
#[must_use]
pub fn pick_buttons(game: &crate::game::Game, id: i64, ply: i64) -> Vec<Action> {
    game.movable()
        .into_iter()
        .map(|from| Action::ShowMoves {
            game: id,
            ply,
            from,
        })
        .collect()
}

/// Where the piece on `from` can go, as buttons, then Back.
#[must_use]
pub fn destination_buttons(
    game: &crate::game::Game,
    id: i64,
    ply: i64,
    from: Square,
) -> Vec<Action> {
    let mut out: Vec<Action> = game
        .destinations(from)
        .into_iter()
        .map(|to| Action::MoveTo {
            game: id,
            ply,
            from,
            to,
        })
        .collect();
    out.push(Action::Back { game: id, ply });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_running_game_is_one_its_buttons_can_resign() {
        let board = [
            Action::OfferDraw { game: 7, ply: 3 },
            Action::Resign { game: 7, ply: 3 },
        ];
        assert_eq!(Action::running_game(&board), Some(7));
        let offer = [Action::AcceptDraw { game: 7, ply: 3 }];
        assert_eq!(Action::running_game(&offer), None);
        assert_eq!(
            Action::running_game(&[Action::Accept { challenge: 7 }]),
            None
        );
    }

    const MAX_ID: i64 = 1 << 53;

    fn any_action() -> impl Strategy<Value = Action> {
        let id = 0..=MAX_ID;
        (0u8..15, id.clone(), id, 0u8..16, 0u8..16).prop_map(|(k, a, b, f, r)| match k {
            13 => Action::Join { tournament: a },
            14 => Action::Withdraw { tournament: a },
            0 => Action::Accept { challenge: a },
            1 => Action::Decline { challenge: a },
            2 => Action::Cancel { challenge: a },
            3 => Action::Resign { game: a, ply: b },
            4 => Action::OfferDraw { game: a, ply: b },
            5 => Action::AcceptDraw { game: a, ply: b },
            6 => Action::DeclineDraw { game: a, ply: b },
            7 => Action::Abort { game: a, ply: b },
            8 => Action::Confirm { game: a, ply: b },
            9 => Action::Back { game: a, ply: b },
            12 => Action::Claim { game: a, ply: b },
            10 => Action::MoveTo {
                game: a,
                ply: b,
                from: Square::new(f, r),
                to: Square::new(r, f),
            },
            _ => Action::ShowMoves {
                game: a,
                ply: b,
                from: Square::new(f, r),
            },
        })
    }

    proptest! {
        #[test]
        fn every_action_round_trips_in_at_most_64_bytes(a in any_action()) {
            let text = a.to_text();
            prop_assert!(text.len() <= MAX_ACTION_TEXT, "{}", text);
            prop_assert_eq!(Action::parse(&text), Some(a));
        }
    }

    #[test]
    fn the_largest_ids_fit() {
        let a = Action::MoveTo {
            game: i64::MAX,
            ply: i64::MAX,
            from: Square::new(15, 15),
            to: Square::new(14, 15),
        };
        assert!(a.to_text().len() <= MAX_ACTION_TEXT);
        assert_eq!(Action::parse(&a.to_text()), Some(a));
    }

    #[test]
    fn other_texts_are_not_actions() {
        for t in [
            "",
            "acc",
            "acc:",
            "acc:x",
            "acc:-1",
            "acc:07",
            "res:1",
            "res:1:2:3",
            "zzz:1:2",
            "sho:1:2:z9",
            "acc:1:2",
            &"9".repeat(80),
        ] {
            assert_eq!(Action::parse(t), None, "{t}");
        }
    }
}
