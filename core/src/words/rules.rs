//! The rules' own data (end causes, refused moves, variant errors, rules names) as messages.
//! The rules modules keep these as typed values and never say them in words.

use super::args::OrList;
use super::Msg;
use crate::corners::{self, HomeError, VariantError};
use crate::damas;
use crate::game::{EndCause, Refusal, RefusalKind, Rules};
use crate::notation::MoveTextError;

/// Why a game ended, in words.
#[must_use]
pub fn cause(c: EndCause) -> Msg {
    match c {
        EndCause::Completed => Msg::CauseCompleted,
        EndCause::BothCompleted { move_no } => Msg::CauseBothCompleted { move_no },
        EndCause::ReturnedHome(side) => Msg::CauseReturnedHome { side },
        EndCause::LeftHomeLate(side) => Msg::CauseLeftHomeLate { side },
        EndCause::BothLeftHomeLate => Msg::CauseBothLeftHomeLate,
        EndCause::Limit { white, black } => Msg::CauseLimit { white, black },
        EndCause::Repetition => Msg::CauseRepetition,
        EndCause::NoLegalMove(side) => Msg::CauseNoLegalMove { side },
        EndCause::NoReply => Msg::CauseNoReply,
        EndCause::NoPieces(side) => Msg::CauseNoPieces { side },
        EndCause::CannotMove(side) => Msg::CauseCannotMove { side },
        EndCause::Flag(side) => Msg::CauseFlag { side },
        EndCause::Resigned(side) => Msg::CauseResigned { side },
        EndCause::Agreed => Msg::CauseAgreed,
        EndCause::Aborted => Msg::CauseAborted,
        EndCause::ChatGone => Msg::CauseChatGone,
        EndCause::Abandoned(side) => Msg::CauseAbandoned { side },
        EndCause::NoFirstMove(side) => Msg::CauseNoFirstMove { side },
    }
}

fn text_error(e: &MoveTextError) -> Msg {
    match e {
        MoveTextError::Empty => Msg::TextEmpty,
        MoveTextError::TooLong => Msg::TextTooLong,
        MoveTextError::BadSquare(text) => Msg::TextBadSquare { text: text.clone() },
        MoveTextError::OneSquare => Msg::TextOneSquare,
    }
}

fn corners_illegal(e: corners::IllegalMove) -> Msg {
    use corners::IllegalMove as I;
    match e {
        I::NoPieceOfYours(square) => Msg::IllNoPieceOfYours { square },
        I::OffBoard(square) => Msg::IllOffBoard { square },
        I::Occupied(square) => Msg::IllOccupied { square },
        I::Mixed => Msg::IllMixed,
        I::WouldBlock(square) => Msg::IllWouldBlock { square },
        I::Unreachable(from, to) => Msg::IllUnreachable { from, to },
        I::SameSquare(square) => Msg::IllSameSquare { square },
        I::NotDiagonally(from, to) => Msg::IllNotDiagonally { from, to },
        I::NotAJump(from, to) => Msg::IllNotAJump { from, to },
        I::NothingToJump(square) => Msg::IllNothingToJump { square },
        I::Revisit(square) => Msg::IllRevisit { square },
        I::TargetLocked(square) => Msg::IllTargetLocked { square },
        I::TooShort => Msg::TextOneSquare,
        I::GameOver => Msg::IllGameOver,
    }
}

fn damas_illegal(e: &damas::IllegalMove) -> Msg {
    use damas::IllegalMove as I;
    match e {
        I::NoPieceOfYours(square) => Msg::IllNoPieceOfYours { square: *square },
        I::NotPlaying(square) => Msg::IllNotPlaying { square: *square },
        I::Occupied(square) => Msg::IllOccupied { square: *square },
        I::CaptureCompulsory => Msg::IllCaptureCompulsory,
        I::Quantity(count) => Msg::IllQuantity { count: *count },
        I::Quality(kings, count) => Msg::IllQuality {
            kings: *kings,
            count: *count,
        },
        I::MustContinue(square) => Msg::IllMustContinue { square: *square },
        I::Backward => Msg::IllBackward,
        I::Crowned(square) => Msg::IllCrowned { square: *square },
        I::NotAMove(from, to) => Msg::IllNotAMove {
            from: *from,
            to: *to,
        },
        I::NothingToTake(from, to) => Msg::IllNothingToTake {
            from: *from,
            to: *to,
        },
        I::TakenTwice(square) => Msg::IllTakenTwice { square: *square },
        I::Ambiguous(options) => Msg::IllAmbiguous {
            options: OrList(options.clone()),
        },
        I::GameOver => Msg::IllGameOver,
    }
}

/// Why a move was refused (the reason alone, without the move).
#[must_use]
pub fn refusal(kind: &RefusalKind) -> Msg {
    match kind {
        RefusalKind::Text(e) => text_error(e),
        RefusalKind::BadNumber(text) => Msg::TextBadNumber { text: text.clone() },
        RefusalKind::Corners(e) => corners_illegal(*e),
        RefusalKind::Damas(e) => damas_illegal(e),
    }
}

impl From<&Refusal> for Msg {
    /// `c3-e5: e5 is occupied`.
    fn from(r: &Refusal) -> Msg {
        Msg::Refused {
            text: r.text.clone(),
            reason: Box::new(refusal(&r.kind)),
        }
    }
}

/// Why a variant id was not understood.
#[must_use]
pub fn variant_error(e: &VariantError) -> Msg {
    match e {
        VariantError::Unknown(id) => Msg::VariantUnknown { id: id.clone() },
        VariantError::BadOption(option) => Msg::VariantBadOption {
            option: option.clone(),
        },
        VariantError::BadHome(h) => Msg::VariantBadHome {
            problem: Box::new(match h {
                HomeError::NotASquare(item) => Msg::HomeNotASquare { item: item.clone() },
                HomeError::Empty => Msg::HomeEmpty,
                HomeError::OffBoard(square) => Msg::HomeOffBoard { square: *square },
                HomeError::TooMany { count, max } => Msg::HomeTooMany {
                    count: *count,
                    max: *max,
                },
                HomeError::BothHomes(square) => Msg::HomeBothHomes { square: *square },
            }),
        },
    }
}

/// What a training room changes of its base variant `base` (a standard id), in the order
/// its options are written; a solo's own rules (no deadline, blocking allowed) go without
/// saying.
fn room_changes(room: &corners::Variant, base: &str) -> Vec<Msg> {
    let change = |change: &str, value: Option<u16>| Msg::RoomChange {
        change: change.into(),
        value: value.map_or(0, i64::from),
    };
    let mut out = Vec::new();
    if room.solo {
        out.push(change("solo", None));
    }
    let Ok(base) = corners::Variant::by_id(base) else {
        return out;
    };
    if room.directions != base.directions {
        let d = match room.directions {
            corners::Directions::Orthogonal => "ortho",
            corners::Directions::Eight => "diag",
        };
        out.push(change(d, None));
    }
    if room.deadline != base.deadline && !room.solo {
        let d = if room.deadline.is_some() {
            "deadline"
        } else {
            "deadline-off"
        };
        out.push(change(d, room.deadline));
    }
    if room.limit != base.limit {
        let l = if room.limit.is_some() {
            "limit"
        } else {
            "limit-off"
        };
        out.push(change(l, room.limit));
    }
    if room.blocking_forbidden != base.blocking_forbidden && !room.solo {
        let b = if room.blocking_forbidden {
            "blocking-off"
        } else {
            "blocking-on"
        };
        out.push(change(b, None));
    }
    if room.target_lock != base.target_lock {
        let l = if room.target_lock {
            "lock-on"
        } else {
            "lock-off"
        };
        out.push(change(l, None));
    }
    if room.white_home != base.white_home {
        out.push(change("home", None));
    }
    out
}

/// The name of a game's rules: `Corners, classic 3×3`, `Damas (flying kings)`; a training
/// room names its base variant and what it changes (`Corners, training (classic 3×3; solo,
/// orthogonal moves)`).
#[must_use]
pub fn rules_name(rules: &Rules) -> Msg {
    match rules {
        Rules::Corners(v) => {
            let training = v.id.starts_with("training");
            let family = if training {
                v.id.trim_start_matches("training")
                    .trim_start_matches(':')
                    .split(',')
                    .next()
                    .filter(|b| !b.starts_with("training") && corners::Variant::by_id(b).is_ok())
                    .unwrap_or("custom")
                    .to_string()
            } else {
                v.id.clone()
            };
            let changes = if training {
                room_changes(v, &family)
            } else {
                Vec::new()
            };
            Msg::RulesName {
                family,
                training,
                flying: false,
                changed: !changes.is_empty(),
                changes: super::List(changes),
            }
        }
        Rules::Damas { flying } => Msg::RulesName {
            family: "damas".into(),
            training: false,
            flying: *flying,
            changes: super::List(Vec::new()),
            changed: false,
        },
    }
}
