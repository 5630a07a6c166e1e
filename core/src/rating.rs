//! Elo as rule R says: the 400-point logistic curve, K = 30, whole points; general (all
//! time) and monthly ratings, the monthly one starting again at 1000 on the 1st of each
//! month (UTC). Pure: no store, no clock.

/// Every player starts here, and every monthly rating starts here again each month.
pub const START: i64 = 1000;
/// The K factor.
pub const K: f64 = 30.0;
/// What abandoning a game costs (R, D6).
pub const ABANDON_PENALTY: i64 = 20;

/// The result of a game for the first player: 1 win, ½ draw, 0 loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    fn value(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }
}

/// The rated kinds (R), each with its own general and monthly list. Defined once: the store
/// keeps the id, players type a name, the catalogue says its title.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "table",
    derive(sqlx::Type),
    sqlx(type_name = "rating_kind", rename_all = "lowercase")
)]
pub enum RatingKind {
    Classic3x3,
    /// Classic 3×4 and its mirror `classic4x3`.
    Classic3x4,
    Diagonal3x3,
    Damas,
}

impl RatingKind {
    /// Every kind, in the order `/rating` lists them.
    pub const ALL: [RatingKind; 4] = [
        RatingKind::Classic3x3,
        RatingKind::Classic3x4,
        RatingKind::Diagonal3x3,
        RatingKind::Damas,
    ];

    /// The id the store keeps.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            RatingKind::Classic3x3 => "classic3x3",
            RatingKind::Classic3x4 => "classic3x4",
            RatingKind::Diagonal3x3 => "diagonal3x3",
            RatingKind::Damas => "damas",
        }
    }

    /// Read a stored id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<RatingKind> {
        RatingKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The kind a player's word names (`3x3`, `classic4x3`, `checkers`, …).
    #[must_use]
    pub fn named(word: &str) -> Option<RatingKind> {
        match word.to_ascii_lowercase().as_str() {
            "classic3x3" | "3x3" | "classic" => Some(RatingKind::Classic3x3),
            "classic3x4" | "classic4x3" | "3x4" => Some(RatingKind::Classic3x4),
            "diagonal3x3" | "diagonal" => Some(RatingKind::Diagonal3x3),
            "damas" | "checkers" => Some(RatingKind::Damas),
            _ => None,
        }
    }

    /// The list a game of these rules counts in, if any.
    #[must_use]
    pub fn of_rules(rules: &crate::game::Rules) -> Option<RatingKind> {
        match rules {
            crate::game::Rules::Corners(v) => v.rating_kind().and_then(RatingKind::from_id),
            crate::game::Rules::Damas { .. } => Some(RatingKind::Damas),
        }
    }
}

/// Expected score of a player rated `a` against one rated `b`.
#[must_use]
pub fn expected(a: i64, b: i64) -> f64 {
    // Ratings differ by a few thousand at most: exact in f64.
    #[allow(clippy::cast_precision_loss)]
    let diff = (b - a) as f64;
    1.0 / (1.0 + 10f64.powf(diff / 400.0))
}

/// The change for a player rated `a` who scored `s` against `b`, rounded to whole points.
/// The opponent's change is its negative (rounding is symmetric), so points are conserved.
#[must_use]
pub fn change(a: i64, b: i64, s: Score) -> i64 {
    (K * (s.value() - expected(a, b))).round() as i64
}

/// `2026-11` — the month (UTC) of a moment in ms since the epoch.
#[must_use]
pub fn month_of(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let (y, m, _) = civil_from_days(days);
    format!("{y:04}-{m:02}")
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian (H. Hinnant's algorithm).
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// A monthly rating as stored: its value and the month it belongs to.
#[must_use]
pub fn monthly_now(stored: i64, stored_month: &str, month: &str) -> i64 {
    if stored_month == month {
        stored
    } else {
        START
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_seed_examples() {
        // Equal ratings: the winner gains 15, the loser loses 15.
        assert_eq!(change(1000, 1000, Score::Win), 15);
        assert_eq!(change(1000, 1000, Score::Loss), -15);
        // 2000 beats 1000: no change; 1000 beats 2000: +30 / −30.
        assert_eq!(change(2000, 1000, Score::Win), 0);
        assert_eq!(change(1000, 2000, Score::Loss), 0);
        assert_eq!(change(1000, 2000, Score::Win), 30);
        assert_eq!(change(2000, 1000, Score::Loss), -30);
    }

    #[test]
    fn r_table_of_changes() {
        let cases = [
            (1200, 1000, Score::Win, 7),
            (1000, 1200, Score::Loss, -7),
            (1000, 1200, Score::Win, 23),
            (1000, 1000, Score::Draw, 0),
            (1000, 1200, Score::Draw, 8),
            (1200, 1000, Score::Draw, -8),
            (1500, 1400, Score::Win, 11),
            (1000, 1400, Score::Win, 27),
        ];
        for (a, b, s, want) in cases {
            assert_eq!(change(a, b, s), want, "{a} vs {b} {s:?}");
            let opp = match s {
                Score::Win => Score::Loss,
                Score::Loss => Score::Win,
                Score::Draw => Score::Draw,
            };
            assert_eq!(change(b, a, opp), -want, "conserved");
        }
    }

    #[test]
    fn r_month_boundary_in_utc() {
        // 2026-01-31 23:59:59.999 UTC is January; one millisecond later is February.
        let feb1 = 1_769_904_000_000;
        assert_eq!(month_of(feb1 - 1), "2026-01");
        assert_eq!(month_of(feb1), "2026-02");
        assert_eq!(month_of(0), "1970-01");
        assert_eq!(
            month_of(1_709_164_800_000),
            "2024-02",
            "leap day 2024-02-29"
        );
        assert_eq!(month_of(1_709_251_200_000), "2024-03");
        assert_eq!(monthly_now(1100, "2026-01", "2026-01"), 1100);
        assert_eq!(monthly_now(1100, "2026-01", "2026-02"), 1000);
    }
}
