//! Messages as stored codes: a [`Msg`] becomes its catalogue key and its arguments as JSON
//! (`{"k":"after-move","mover":"alice",…}`) and is read back exactly, so a reply kept in
//! the outbox is rendered in the reader's language only when it is sent, and the store
//! never holds prose. Every argument kind says how it is written; a value this version
//! cannot read is `None`, never a panic.

use super::args::{Duration, List, OrList};
use super::Msg;
use crate::clock::TimeControl;
use crate::color::Color;
use crate::game::{EndCause, Rules};
use crate::rating::RatingKind;
use crate::square::Square;
use serde_json::Value;

/// A message argument as stored.
pub trait Code: Sized {
    fn encode(&self) -> Value;
    fn decode(v: &Value) -> Option<Self>;
}

impl Code for i64 {
    fn encode(&self) -> Value {
        Value::from(*self)
    }
    fn decode(v: &Value) -> Option<Self> {
        v.as_i64()
    }
}

macro_rules! unsigned {
    ($($t:ty),+) => {$(
        impl Code for $t {
            fn encode(&self) -> Value {
                Value::from(*self)
            }
            fn decode(v: &Value) -> Option<Self> {
                v.as_u64().and_then(|n| <$t>::try_from(n).ok())
            }
        }
    )+};
}
unsigned!(u16, u32, usize);

impl Code for String {
    fn encode(&self) -> Value {
        Value::from(self.as_str())
    }
    fn decode(v: &Value) -> Option<Self> {
        v.as_str().map(str::to_string)
    }
}

impl Code for bool {
    fn encode(&self) -> Value {
        Value::from(*self)
    }
    fn decode(v: &Value) -> Option<Self> {
        v.as_bool()
    }
}

/// `null` when absent.
impl<T: Code> Code for Option<T> {
    fn encode(&self) -> Value {
        self.as_ref().map_or(Value::Null, Code::encode)
    }
    fn decode(v: &Value) -> Option<Self> {
        if v.is_null() {
            Some(None)
        } else {
            T::decode(v).map(Some)
        }
    }
}

impl Code for Color {
    fn encode(&self) -> Value {
        Value::from(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
    fn decode(v: &Value) -> Option<Self> {
        match v.as_str()? {
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            _ => None,
        }
    }
}

impl Code for Square {
    fn encode(&self) -> Value {
        Value::from(self.to_string())
    }
    fn decode(v: &Value) -> Option<Self> {
        Square::parse(v.as_str()?)
    }
}

impl Code for Box<Msg> {
    fn encode(&self) -> Value {
        self.to_json()
    }
    fn decode(v: &Value) -> Option<Self> {
        Msg::from_json(v).map(Box::new)
    }
}

impl Code for Duration {
    fn encode(&self) -> Value {
        Value::from(self.0)
    }
    fn decode(v: &Value) -> Option<Self> {
        v.as_i64().map(Duration)
    }
}

/// Kept as its parts (`[base, increment]`, `{"move": limit}`, `"none"`): exact, whatever
/// bounds the text form checks.
impl Code for TimeControl {
    fn encode(&self) -> Value {
        match *self {
            TimeControl::Unlimited => Value::from("none"),
            TimeControl::Fischer {
                base_ms,
                increment_ms,
            } => Value::from(vec![base_ms, increment_ms]),
            TimeControl::PerMove { limit_ms } => serde_json::json!({ "move": limit_ms }),
        }
    }
    fn decode(v: &Value) -> Option<Self> {
        if v.as_str() == Some("none") {
            return Some(TimeControl::Unlimited);
        }
        if let Some(limit_ms) = v.get("move").and_then(Value::as_i64) {
            return Some(TimeControl::PerMove { limit_ms });
        }
        match v.as_array()?.as_slice() {
            [base, inc] => Some(TimeControl::Fischer {
                base_ms: base.as_i64()?,
                increment_ms: inc.as_i64()?,
            }),
            _ => None,
        }
    }
}

impl Code for Box<Rules> {
    fn encode(&self) -> Value {
        Value::from(self.id())
    }
    fn decode(v: &Value) -> Option<Self> {
        Rules::from_id(v.as_str()?).ok().map(Box::new)
    }
}

impl Code for RatingKind {
    fn encode(&self) -> Value {
        Value::from(self.id())
    }
    fn decode(v: &Value) -> Option<Self> {
        RatingKind::from_id(v.as_str()?)
    }
}

impl Code for EndCause {
    fn encode(&self) -> Value {
        Value::from(self.code())
    }
    fn decode(v: &Value) -> Option<Self> {
        EndCause::from_code(v.as_str()?)
    }
}

impl Code for OrList {
    fn encode(&self) -> Value {
        Value::from(self.0.clone())
    }
    fn decode(v: &Value) -> Option<Self> {
        v.as_array()?
            .iter()
            .map(String::decode)
            .collect::<Option<Vec<_>>>()
            .map(OrList)
    }
}

impl Code for List {
    fn encode(&self) -> Value {
        Value::Array(self.0.iter().map(Msg::to_json).collect())
    }
    fn decode(v: &Value) -> Option<Self> {
        v.as_array()?
            .iter()
            .map(Msg::from_json)
            .collect::<Option<Vec<_>>>()
            .map(List)
    }
}

/// A message stored by an older version, in this version's shape (`None`: it is already).
/// A solo's start carried its variant's English name (`variant: "solo (classic 3×3)"`);
/// it carries its rules now, found again from that name.
pub(crate) fn upgrade(v: &Value) -> Option<Value> {
    if v.get("k")?.as_str()? != "solo-started" || v.get("rules").is_some() {
        return None;
    }
    let name = v.get("variant")?.as_str()?;
    let inner = name
        .strip_prefix("solo (")
        .and_then(|n| n.strip_suffix(')'))
        .unwrap_or(name);
    let base = crate::corners::STANDARD_IDS
        .iter()
        .chain(&["classic4x3"])
        .find(|id| crate::corners::Variant::by_id(id).is_ok_and(|v| v.name == inner))
        .unwrap_or(&"classic3x3");
    let mut up = v.clone();
    let fields = up.as_object_mut()?;
    fields.remove("variant");
    fields.insert("rules".into(), Value::from(format!("training:{base},solo")));
    Some(up)
}

#[cfg(test)]
mod tests {
    /// A solo's start stored before it carried its rules is read with them, found from the
    /// variant's name it carried.
    #[test]
    fn an_old_solo_start_is_read_with_its_rules() {
        use crate::words::{render, Lang, Msg};
        let old = serde_json::json!({
            "k": "solo-started", "id": 4, "variant": "solo (diagonal 3×3)", "minimum": 15
        });
        let msg = Msg::from_json(&old).expect("read");
        assert_eq!(
            render(&msg, Lang::EN).split(':').next(),
            Some("Training #4, Corners, training (diagonal 3×3; solo)")
        );
        let unknown = serde_json::json!({
            "k": "solo-started", "id": 5, "variant": "solo (custom)", "minimum": 0
        });
        assert!(Msg::from_json(&unknown).is_some());
    }

    use super::*;

    #[test]
    fn every_message_reads_back_as_it_was_written() {
        let mut all = Msg::samples();
        all.push(Msg::Lines(vec![Msg::Help, Msg::NotYourTurn]));
        for m in all {
            let stored = m.to_json().to_string();
            let back = serde_json::from_str::<Value>(&stored)
                .ok()
                .and_then(|v| Msg::from_json(&v));
            assert_eq!(back.as_ref(), Some(&m), "{stored}");
        }
    }

    #[test]
    fn a_damaged_or_unknown_code_reads_as_nothing() {
        for text in [
            r#"{"k":"no-such-message"}"#,
            r#"{"k":"game-number"}"#,
            r#"{"k":"game-number","id":"twelve"}"#,
            r#"{"k":"terms","rules":"nonsense","time":"none","rated":true,"movetime":null,"monitor":false,"stake":null}"#,
            r"[]",
            r#""help""#,
        ] {
            let v: Value = serde_json::from_str(text).expect("json");
            assert_eq!(Msg::from_json(&v), None, "{text}");
        }
    }

    #[test]
    fn time_controls_keep_their_exact_parts() {
        for t in [
            TimeControl::Unlimited,
            TimeControl::Fischer {
                base_ms: 15_000,
                increment_ms: 0,
            },
            TimeControl::PerMove {
                limit_ms: 86_400_000,
            },
        ] {
            assert_eq!(TimeControl::decode(&t.encode()), Some(t));
        }
    }
}
