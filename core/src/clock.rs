//! Time controls and the game clock as values (T1). Pure: the caller says what time it is.

use crate::color::Color;
use std::fmt;

/// How much time players get.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// No clock at all.
    Unlimited,
    /// Fischer: a bank for the game plus an increment after each own move.
    Fischer { base_ms: i64, increment_ms: i64 },
    /// Correspondence: a fixed time for every move, no bank.
    PerMove { limit_ms: i64 },
}

/// Why a time control was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a time control (try 10+5, 30s+2, 1d or none)")]
pub struct BadTimeControl(pub String);

const SECOND: i64 = 1000;
const MINUTE: i64 = 60 * SECOND;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;
/// Longest bank or per-move time accepted: 30 days.
const MAX_MS: i64 = 30 * DAY;

/// `30s`, `10` (minutes), `5m`, `2h`, `1d` → milliseconds; `default_unit` for a bare number.
fn duration(text: &str, default_unit: i64) -> Option<i64> {
    let (num, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => (&text[..i], &text[i..]),
        None => (text, ""),
    };
    if num.is_empty() || num.len() > 6 {
        return None;
    }
    let n: i64 = num.parse().ok()?;
    let unit = match unit {
        "" => default_unit,
        "s" => SECOND,
        "m" | "min" => MINUTE,
        "h" => HOUR,
        "d" => DAY,
        _ => return None,
    };
    Some(n * unit)
}

fn short(ms: i64) -> String {
    match ms {
        m if m % DAY == 0 => format!("{}d", m / DAY),
        m if m % HOUR == 0 => format!("{}h", m / HOUR),
        m if m % MINUTE == 0 => format!("{}", m / MINUTE),
        m => format!("{}s", m / SECOND),
    }
}

impl TimeControl {
    /// The longest one move can take under it (`i64::MAX` without a clock): a Fischer
    /// clock's whole base (its increment comes after the move), a per-move limit.
    #[must_use]
    pub fn longest_move_ms(&self) -> i64 {
        match *self {
            TimeControl::Fischer { base_ms, .. } => base_ms,
            TimeControl::PerMove { limit_ms } => limit_ms,
            TimeControl::Unlimited => i64::MAX,
        }
    }

    /// Read `10+5` (minutes + seconds), `30s+2`, `1d` / `12h` / `30m` (per move), `none`.
    pub fn parse(text: &str) -> Result<TimeControl, BadTimeControl> {
        let t = text.trim().to_ascii_lowercase();
        let bad = || BadTimeControl(text.chars().take(20).collect());
        if t == "none" || t == "-" || t == "unlimited" {
            return Ok(TimeControl::Unlimited);
        }
        if let Some((base, inc)) = t.split_once('+') {
            let base_ms = duration(base, MINUTE).ok_or_else(bad)?;
            let increment_ms = duration(inc, SECOND).ok_or_else(bad)?;
            if base_ms <= 0 || base_ms > MAX_MS || increment_ms > HOUR {
                return Err(bad());
            }
            return Ok(TimeControl::Fischer {
                base_ms,
                increment_ms,
            });
        }
        // A unit but no '+' is a time per move (correspondence), e.g. 1d.
        if t.ends_with(['d', 'h', 'm']) {
            let limit_ms = duration(&t, DAY).ok_or_else(bad)?;
            if !(MINUTE..=MAX_MS).contains(&limit_ms) {
                return Err(bad());
            }
            return Ok(TimeControl::PerMove { limit_ms });
        }
        Err(bad())
    }
}

impl fmt::Display for TimeControl {
    /// The form `parse` reads: `10+5`, `30s+2`, `1d`, `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Unlimited => f.write_str("none"),
            TimeControl::Fischer {
                base_ms,
                increment_ms,
            } => write!(f, "{}+{}", short(base_ms), increment_ms / SECOND),
            TimeControl::PerMove { limit_ms } => {
                let s = short(limit_ms);
                if s.ends_with(['d', 'h']) {
                    f.write_str(&s)
                } else {
                    write!(f, "{}m", limit_ms / MINUTE)
                }
            }
        }
    }
}

/// The state of a game's clock: time left per side as of `turn_started`, when the side to
/// move began thinking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub control: TimeControl,
    /// Milliseconds left for White and Black at `turn_started` (unused per move/unlimited).
    pub remaining: [i64; 2],
    /// When the side to move's time began to run (ms since the epoch).
    pub turn_started: i64,
}

/// The side to move ran out of time before moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged {
    /// When the time ran out.
    pub at: i64,
}

impl Clock {
    /// A fresh clock; White's time starts at `now`.
    #[must_use]
    pub fn start(control: TimeControl, now: i64) -> Clock {
        let bank = match control {
            TimeControl::Fischer { base_ms, .. } => base_ms,
            _ => 0,
        };
        Clock {
            control,
            remaining: [bank, bank],
            turn_started: now,
        }
    }

    /// When the side to move (`side`) loses on time, if ever.
    #[must_use]
    pub fn flag_at(&self, side: Color) -> Option<i64> {
        match self.control {
            TimeControl::Unlimited => None,
            TimeControl::Fischer { .. } => Some(self.turn_started + self.remaining[side.index()]),
            TimeControl::PerMove { limit_ms } => Some(self.turn_started + limit_ms),
        }
    }

    /// Time `side` has left at `now`, if `side` is to move (never below zero).
    #[must_use]
    pub fn left(&self, side: Color, to_move: Color, now: i64) -> Option<i64> {
        let running = |base: i64| {
            if side == to_move {
                (base - (now - self.turn_started)).max(0)
            } else {
                base
            }
        };
        match self.control {
            TimeControl::Unlimited => None,
            TimeControl::Fischer { .. } => Some(running(self.remaining[side.index()])),
            TimeControl::PerMove { limit_ms } => Some(running(limit_ms)),
        }
    }

    /// The clock after `mover` moved at `now`: its time is charged and the increment added;
    /// the opponent's time starts. A move at or after the flag is refused: the flag fell.
    pub fn after_move(&self, mover: Color, now: i64) -> Result<Clock, Flagged> {
        if let Some(at) = self.flag_at(mover) {
            if now >= at {
                return Err(Flagged { at });
            }
        }
        let mut next = *self;
        if let TimeControl::Fischer { increment_ms, .. } = self.control {
            let i = mover.index();
            next.remaining[i] = self.remaining[i] - (now - self.turn_started) + increment_ms;
        }
        next.turn_started = now;
        Ok(next)
    }

    /// The clock with `ms` of downtime given back: the running side's time starts later.
    #[must_use]
    pub fn credited(&self, ms: i64) -> Clock {
        Clock {
            turn_started: self.turn_started + ms.max(0),
            ..*self
        }
    }
}

/// A clock reading in digits, the same in every language: `4:32`, `1:02:03` (hours may pass
/// 24), `0:07.3` under ten seconds. Chat messages say days in words (the catalogue's
/// `duration-days`); pictures always use this.
#[must_use]
pub fn digits(ms: i64) -> String {
    let ms = ms.max(0);
    let s = ms / SECOND;
    let (h, m, s) = (s / 3600, (s / 60) % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if ms < 10 * SECOND {
        format!("0:{s:02}.{}", (ms % SECOND) / 100)
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t1_the_longest_a_move_can_take_is_the_base_or_the_limit() {
        let t = |s| TimeControl::parse(s).unwrap().longest_move_ms();
        assert_eq!(t("10+5"), 10 * MINUTE);
        assert_eq!(t("1d"), DAY);
        assert_eq!(t("none"), i64::MAX);
    }

    #[test]
    fn t1_time_controls_read_and_print() {
        let f = |b, i| TimeControl::Fischer {
            base_ms: b,
            increment_ms: i,
        };
        assert_eq!(TimeControl::parse("10+5"), Ok(f(10 * MINUTE, 5 * SECOND)));
        assert_eq!(TimeControl::parse("30s+2"), Ok(f(30 * SECOND, 2 * SECOND)));
        assert_eq!(
            TimeControl::parse("1d"),
            Ok(TimeControl::PerMove { limit_ms: DAY })
        );
        assert_eq!(TimeControl::parse("none"), Ok(TimeControl::Unlimited));
        for t in ["10+5", "30s+2", "1d", "12h", "none", "3+0"] {
            assert_eq!(TimeControl::parse(t).unwrap().to_string(), t);
        }
        for bad in [
            "",
            "10",
            "abc",
            "0+5",
            "10+",
            "+5",
            "99999999+1",
            "40d",
            "1s",
            "10+7200",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn t1_fischer_increment_after_own_move_and_flag() {
        let tc = TimeControl::parse("1+2").unwrap();
        let c = Clock::start(tc, 0);
        assert_eq!(c.flag_at(Color::White), Some(60_000));
        let c = c.after_move(Color::White, 10_000).unwrap();
        assert_eq!(c.remaining, [52_000, 60_000]);
        assert_eq!(c.left(Color::Black, Color::Black, 70_000), Some(0));
        assert_eq!(c.flag_at(Color::Black), Some(70_000));
        // A move arriving at the flag is too late.
        assert_eq!(
            c.after_move(Color::Black, 70_000),
            Err(Flagged { at: 70_000 })
        );
        let c = c.after_move(Color::Black, 69_999).unwrap();
        assert_eq!(c.remaining, [52_000, 2_001]);
    }

    #[test]
    fn t1_correspondence_has_a_fixed_time_per_move() {
        let c = Clock::start(TimeControl::PerMove { limit_ms: DAY }, 0);
        let c = c.after_move(Color::White, DAY - 1).unwrap();
        assert_eq!(c.flag_at(Color::Black), Some(2 * DAY - 1));
        assert!(c.after_move(Color::Black, 2 * DAY - 1).is_err());
    }

    #[test]
    fn t1_downtime_credit_moves_the_turn_start() {
        let c = Clock::start(TimeControl::parse("5+0").unwrap(), 1000);
        let c = c.credited(3_600_000);
        assert_eq!(c.flag_at(Color::White), Some(1000 + 3_600_000 + 300_000));
    }

    #[test]
    fn clocks_format_for_people() {
        assert_eq!(digits(272_000), "4:32");
        assert_eq!(digits(3_723_000), "1:02:03");
        assert_eq!(digits(9_400), "0:09.4");
        assert_eq!(digits(-5), "0:00.0");
        assert_eq!(digits(DAY + 3 * HOUR), "27:00:00");
    }
}
