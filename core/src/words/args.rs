//! The kinds of value a message carries, and how each becomes a Fluent argument: numbers stay
//! numbers (so plural rules apply), colours and flags become selector words, nested messages
//! are rendered first in the same language.

use super::{render, Lang, Msg};
use crate::clock::TimeControl;
use crate::color::Color;
use crate::game::{EndCause, Rules};
use crate::rating::RatingKind;
use crate::square::Square;
use fluent_bundle::FluentValue;

/// A message argument: its Fluent value, and a sample for the catalogue tests.
pub trait Arg: Sized {
    fn value(&self, lang: Lang) -> FluentValue<'static>;
    fn sample() -> Self;
}

/// A length of time: `4:32`, `1:02:03`, or days and hours (`2d 3h`, in words per language).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duration(pub i64);

/// Alternatives joined with the language's "or": `a or b or c`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrList(pub Vec<String>);

/// Messages joined with `, ` (rating changes, lists of game numbers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct List(pub Vec<Msg>);

/// The largest integer an `f64` (Fluent's number) holds exactly.
const EXACT_IN_F64: i64 = 1 << 53;

impl Arg for i64 {
    fn value(&self, _: Lang) -> FluentValue<'static> {
        // Fluent keeps numbers as `f64`: past 2^53 an id would be shown rounded
        // (9223372036854775807 as 9223372036854776000), so such a one goes as its digits.
        if self.unsigned_abs() > EXACT_IN_F64.unsigned_abs() {
            return FluentValue::from(self.to_string());
        }
        FluentValue::from(*self)
    }
    fn sample() -> Self {
        12
    }
}

impl Arg for u32 {
    fn value(&self, _: Lang) -> FluentValue<'static> {
        FluentValue::from(*self)
    }
    fn sample() -> Self {
        3
    }
}

impl Arg for u16 {
    fn value(&self, _: Lang) -> FluentValue<'static> {
        FluentValue::from(*self)
    }
    fn sample() -> Self {
        40
    }
}

impl Arg for usize {
    fn value(&self, _: Lang) -> FluentValue<'static> {
        FluentValue::from(*self)
    }
    fn sample() -> Self {
        2
    }
}

impl Arg for String {
    fn value(&self, _: Lang) -> FluentValue<'static> {
        FluentValue::from(self.clone())
    }
    fn sample() -> Self {
        "alice".into()
    }
}

impl Arg for bool {
    fn value(&self, _: Lang) -> FluentValue<'static> {
        FluentValue::from(if *self { "yes" } else { "no" })
    }
    fn sample() -> Self {
        true
    }
}

/// `none` when absent: catalogues select on it (`[none] …`).
impl<T: Arg> Arg for Option<T> {
    fn value(&self, lang: Lang) -> FluentValue<'static> {
        match self {
            Some(v) => v.value(lang),
            None => FluentValue::from("none"),
        }
    }
    fn sample() -> Self {
        Some(T::sample())
    }
}

impl Arg for Color {
    fn value(&self, _: Lang) -> FluentValue<'static> {
        FluentValue::from(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
    fn sample() -> Self {
        Color::Black
    }
}

impl Arg for Square {
    fn value(&self, _: Lang) -> FluentValue<'static> {
        FluentValue::from(self.to_string())
    }
    fn sample() -> Self {
        Square::new(2, 2)
    }
}

impl Arg for Box<Msg> {
    fn value(&self, lang: Lang) -> FluentValue<'static> {
        FluentValue::from(render(self, lang))
    }
    fn sample() -> Self {
        Box::new(Msg::NotYourTurn)
    }
}

impl Arg for Duration {
    fn value(&self, lang: Lang) -> FluentValue<'static> {
        const SECOND: i64 = 1000;
        const HOUR: i64 = 3600 * SECOND;
        const DAY: i64 = 24 * HOUR;
        let ms = self.0.max(0);
        if ms >= DAY {
            let msg = Msg::DurationDays {
                days: ms / DAY,
                hours: (ms % DAY) / HOUR,
            };
            return FluentValue::from(render(&msg, lang));
        }
        FluentValue::from(crate::clock::digits(ms))
    }
    fn sample() -> Self {
        Duration(272_000)
    }
}

impl Arg for TimeControl {
    fn value(&self, lang: Lang) -> FluentValue<'static> {
        let msg = match self {
            TimeControl::Unlimited => Msg::TimeNone,
            TimeControl::Fischer { .. } => Msg::TimeFischer {
                text: self.to_string(),
            },
            TimeControl::PerMove { .. } => Msg::TimePerMove {
                text: self.to_string(),
            },
        };
        FluentValue::from(render(&msg, lang))
    }
    fn sample() -> Self {
        TimeControl::Fischer {
            base_ms: 600_000,
            increment_ms: 5_000,
        }
    }
}

/// Boxed: a variant's settings would make every message large.
impl Arg for Box<Rules> {
    fn value(&self, lang: Lang) -> FluentValue<'static> {
        FluentValue::from(render(&super::rules_name(self), lang))
    }
    fn sample() -> Self {
        Box::new(Rules::Corners(crate::corners::Variant::classic3x3()))
    }
}

impl Arg for RatingKind {
    fn value(&self, lang: Lang) -> FluentValue<'static> {
        FluentValue::from(render(
            &Msg::KindName {
                kind: self.id().to_string(),
            },
            lang,
        ))
    }
    fn sample() -> Self {
        RatingKind::Classic3x4
    }
}

impl Arg for EndCause {
    fn value(&self, lang: Lang) -> FluentValue<'static> {
        FluentValue::from(render(&super::cause(*self), lang))
    }
    fn sample() -> Self {
        EndCause::Limit { white: 5, black: 3 }
    }
}

impl Arg for OrList {
    fn value(&self, lang: Lang) -> FluentValue<'static> {
        let mut items = self.0.iter();
        let mut text = items.next().cloned().unwrap_or_default();
        for next in items {
            text = render(
                &Msg::ListOr {
                    first: text,
                    second: next.clone(),
                },
                lang,
            );
        }
        FluentValue::from(text)
    }
    fn sample() -> Self {
        OrList(vec!["f7xc4xe2xh5".into(), "f7xd5xf3xh5".into()])
    }
}

impl Arg for List {
    /// At most [`super::LISTED`] items, then how many more: no list runs past a message.
    fn value(&self, lang: Lang) -> FluentValue<'static> {
        let mut parts: Vec<String> = self
            .0
            .iter()
            .take(super::LISTED)
            .map(|m| render(m, lang))
            .collect();
        let more = self.0.len().saturating_sub(super::LISTED);
        if more > 0 {
            parts.push(render(&Msg::AndMore { count: more }, lang));
        }
        FluentValue::from(parts.join(", "))
    }
    fn sample() -> Self {
        List(vec![Msg::GameNumber { id: 3 }, Msg::GameNumber { id: 4 }])
    }
}
