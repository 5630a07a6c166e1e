//! Corners variants as data (RULES.md C10): board size, home shape, directions, which rules
//! apply and their numbers. The move generator reads these; it has no variant branches.

use crate::square::Square;
use std::fmt;

/// How pieces move: four orthogonal directions, or all eight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Directions {
    Orthogonal,
    Eight,
}

/// One Corners variant. Black's home is always White's rotated 180°.
// Each flag is one rule of C10's table, on or off for a variant.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// The id players type (`classic3x3`, `training:diagonal3x3,ortho`); canonical.
    pub id: String,
    /// A name for people (`classic 3×3`).
    pub name: String,
    /// Board side: 8 or 16.
    pub side: u8,
    /// White's home squares, in a1, b1, … order.
    pub white_home: Vec<Square>,
    pub directions: Directions,
    /// C8: moves that newly block an opponent piece are illegal.
    pub blocking_forbidden: bool,
    /// C6: the move number by which every piece must have left home; `None` = no such rule.
    pub deadline: Option<u16>,
    /// C7: the last move number; `None` = no limit.
    pub limit: Option<u16>,
    /// Halma: a piece in its target may move inside it but never leave it.
    pub target_lock: bool,
    /// Whether finished games move ratings (R).
    pub rated: bool,
    /// Training room solo: White alone crosses to the far corner; the turn never passes
    /// (Black has no pieces), and the attempt ends when the target is full.
    pub solo: bool,
}

/// The ids of the standard variants, in the order of RULES.md C10.
pub const STANDARD_IDS: [&str; 7] = [
    "classic3x3",
    "classic3x4",
    "diagonal3x3",
    "diagonal3x4",
    "triangle",
    "square4x4",
    "halma16",
];

/// Why a variant id was not understood (the words are in the catalogue, `words`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VariantError {
    Unknown(String),
    BadOption(String),
    BadHome(HomeError),
}

/// Why a custom home shape (`home=…`) is not usable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HomeError {
    /// An item that is neither a square nor a range.
    NotASquare(String),
    Empty,
    OffBoard(Square),
    /// More squares than a quarter of the board.
    TooMany {
        count: usize,
        max: usize,
    },
    /// A square whose rotation is also in the home.
    BothHomes(Square),
}

fn rect(files: u8, ranks: u8) -> Vec<Square> {
    let mut v = Vec::new();
    for r in 0..ranks {
        for f in 0..files {
            v.push(Square::new(f, r));
        }
    }
    v
}

/// Rows of a staircase home, bottom row first: `[4, 3, 2, 1]` is the triangle.
fn rows(lengths: &[u8]) -> Vec<Square> {
    let mut v = Vec::new();
    for (r, &len) in lengths.iter().enumerate() {
        for f in 0..len {
            v.push(Square::new(f, r as u8));
        }
    }
    v
}

struct Spec {
    id: &'static str,
    name: &'static str,
    side: u8,
    home: fn() -> Vec<Square>,
    directions: Directions,
    deadline: u16,
    limit: u16,
    rated: bool,
}

const SPECS: [Spec; 8] = [
    Spec {
        id: "classic3x3",
        name: "classic 3×3",
        side: 8,
        home: || rect(3, 3),
        directions: Directions::Orthogonal,
        deadline: 40,
        limit: 80,
        rated: true,
    },
    Spec {
        id: "classic3x4",
        name: "classic 3×4",
        side: 8,
        home: || rect(4, 3),
        directions: Directions::Orthogonal,
        deadline: 40,
        limit: 80,
        rated: true,
    },
    // The mirror of 3×4 (a1–c4) that some sites use: the same game, so rated the same.
    Spec {
        id: "classic4x3",
        name: "classic 3×4 (mirrored)",
        side: 8,
        home: || rect(3, 4),
        directions: Directions::Orthogonal,
        deadline: 40,
        limit: 80,
        rated: true,
    },
    Spec {
        id: "diagonal3x3",
        name: "diagonal 3×3",
        side: 8,
        home: || rect(3, 3),
        directions: Directions::Eight,
        deadline: 30,
        limit: 80,
        rated: true,
    },
    Spec {
        id: "diagonal3x4",
        name: "diagonal 3×4",
        side: 8,
        home: || rect(4, 3),
        directions: Directions::Eight,
        deadline: 30,
        limit: 80,
        rated: false,
    },
    Spec {
        id: "triangle",
        name: "triangular home",
        side: 8,
        home: || rows(&[4, 3, 2, 1]),
        directions: Directions::Eight,
        deadline: 30,
        limit: 80,
        rated: false,
    },
    Spec {
        id: "square4x4",
        name: "4×4 home",
        side: 8,
        home: || rect(4, 4),
        directions: Directions::Orthogonal,
        deadline: 40,
        limit: 80,
        rated: false,
    },
    Spec {
        id: "halma16",
        name: "Halma 16×16",
        side: 16,
        home: || rows(&[5, 5, 4, 3, 2]),
        directions: Directions::Eight,
        deadline: 60,
        limit: 200,
        rated: false,
    },
];

impl Spec {
    fn variant(&self) -> Variant {
        Variant {
            id: self.id.to_string(),
            name: self.name.to_string(),
            side: self.side,
            white_home: (self.home)(),
            directions: self.directions,
            // C8 applies exactly to the orthogonal (classic) variants.
            blocking_forbidden: self.directions == Directions::Orthogonal,
            deadline: Some(self.deadline),
            limit: Some(self.limit),
            target_lock: self.side == 16,
            rated: self.rated,
            solo: false,
        }
    }
}

impl Variant {
    /// A variant by id: a standard id (`classic3x3`, …, alias `classic4x3`), or a training
    /// room `training[:BASE][,OPTION…]` (see [`Variant::training`]).
    pub fn by_id(id: &str) -> Result<Variant, VariantError> {
        let id = id.trim();
        let lower = id.to_ascii_lowercase();
        if lower == "training" || lower.starts_with("training:") || lower.starts_with("training,") {
            return Variant::training(&lower["training".len()..]);
        }
        SPECS
            .iter()
            .find(|s| s.id == lower)
            .map(Spec::variant)
            .ok_or_else(|| VariantError::Unknown(id.chars().take(40).collect()))
    }

    /// The classic 3×3 game, the default.
    #[must_use]
    pub fn classic3x3() -> Variant {
        SPECS[0].variant()
    }

    /// A training room: `:BASE` picks a standard variant to start from (default classic3x3),
    /// then comma-separated options change it: `ortho` / `diag` (directions), `deadline=N|off`,
    /// `limit=N|off`, `blocking=on|off` (on = blocking allowed, C8 off), `lock=on|off`
    /// (Halma's target lock), `home=ITEMS` with items `a1` or rectangles `a1-c3` joined by
    /// `.` (a custom home shape), `solo` (White alone, no opponent: no deadline, no
    /// blocking rule). Training rooms are never rated.
    pub fn training(spec: &str) -> Result<Variant, VariantError> {
        let spec = spec.strip_prefix(':').unwrap_or(spec);
        let mut parts = spec.split(',').map(str::trim).filter(|p| !p.is_empty());
        let mut v = Variant::classic3x3();
        let first = spec.split(',').next().unwrap_or("").trim();
        if !first.is_empty() && !first.contains('=') && !matches!(first, "ortho" | "diag" | "solo")
        {
            v = SPECS
                .iter()
                .find(|s| s.id == first)
                .map(Spec::variant)
                .ok_or_else(|| VariantError::Unknown(first.chars().take(40).collect()))?;
            parts.next();
        }
        let base = v.id.clone();
        for part in parts {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            let bad = || VariantError::BadOption(part.chars().take(40).collect());
            match key {
                "ortho" if value.is_empty() => v.directions = Directions::Orthogonal,
                "diag" if value.is_empty() => v.directions = Directions::Eight,
                "deadline" => v.deadline = Setting::parse(value).ok_or_else(bad)?.value(),
                "limit" => v.limit = Setting::parse(value).ok_or_else(bad)?.value(),
                "blocking" => v.blocking_forbidden = !on_off(value).ok_or_else(bad)?,
                "lock" => v.target_lock = on_off(value).ok_or_else(bad)?,
                "home" => v.white_home = parse_home(value, v.side)?,
                "solo" if value.is_empty() => v.solo = true,
                _ => return Err(bad()),
            }
        }
        check_home(&v.white_home, v.side)?;
        if v.solo {
            // Nobody to block and no one to race: only the crossing and the limit remain.
            v.deadline = None;
            v.blocking_forbidden = false;
        }
        v.rated = false;
        let room = if v.solo { "solo" } else { "training" };
        v.name = format!("{room} ({})", v.name);
        v.id = v.training_id(&base);
        Ok(v)
    }

    /// This variant as a training room (itself if it is one), solo if `solo`.
    pub fn for_training(&self, solo: bool) -> Result<Variant, VariantError> {
        let base = if self.is_training() {
            self.id.clone()
        } else {
            format!("training:{}", self.id)
        };
        if solo && !self.solo {
            Variant::by_id(&format!("{base},solo"))
        } else {
            Variant::by_id(&base)
        }
    }

    /// The canonical id of a training room: base, then every setting spelled out.
    fn training_id(&self, base: &str) -> String {
        let off_or = |n: Option<u16>| n.map_or_else(|| "off".to_string(), |n| n.to_string());
        let home: Vec<String> = self.white_home.iter().map(ToString::to_string).collect();
        format!(
            "training:{base},{},deadline={},limit={},blocking={},lock={},home={}{}",
            match self.directions {
                Directions::Orthogonal => "ortho",
                Directions::Eight => "diag",
            },
            off_or(self.deadline),
            off_or(self.limit),
            if self.blocking_forbidden { "off" } else { "on" },
            if self.target_lock { "on" } else { "off" },
            home.join("."),
            if self.solo { ",solo" } else { "" },
        )
    }

    /// Black's home: White's rotated 180°.
    #[must_use]
    pub fn black_home(&self) -> Vec<Square> {
        let mut v: Vec<Square> = self
            .white_home
            .iter()
            .map(|s| s.rotated(self.side))
            .collect();
        v.sort_by_key(|s| s.index(self.side));
        v
    }

    /// The home of `side`.
    #[must_use]
    pub fn home(&self, side: crate::color::Color) -> Vec<Square> {
        match side {
            crate::color::Color::White => self.white_home.clone(),
            crate::color::Color::Black => self.black_home(),
        }
    }

    /// The rating list this variant's games count in, if rated: the mirrored 3×4 is 3×4.
    #[must_use]
    pub fn rating_kind(&self) -> Option<&str> {
        if !self.rated {
            return None;
        }
        Some(if self.id == "classic4x3" {
            "classic3x4"
        } else {
            &self.id
        })
    }

    /// Whether this is a training room (takebacks, hints, unrated).
    #[must_use]
    pub fn is_training(&self) -> bool {
        self.id.starts_with("training")
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// A training setting's number: `off`, or 1 to 1000.
enum Setting {
    Off,
    Number(u16),
}

impl Setting {
    fn parse(value: &str) -> Option<Setting> {
        if value == "off" {
            return Some(Setting::Off);
        }
        let n: u16 = value.parse().ok()?;
        (1..=1000).contains(&n).then_some(Setting::Number(n))
    }

    fn value(self) -> Option<u16> {
        match self {
            Setting::Off => None,
            Setting::Number(n) => Some(n),
        }
    }
}

fn on_off(value: &str) -> Option<bool> {
    match value {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}

fn parse_home(value: &str, side: u8) -> Result<Vec<Square>, VariantError> {
    let mut squares = Vec::new();
    for item in value.split('.').filter(|s| !s.is_empty()) {
        let bad = || {
            VariantError::BadHome(HomeError::NotASquare(
                item.chars().take(20).collect::<String>(),
            ))
        };
        let (a, b) = if let Some((a, b)) = item.split_once('-') {
            (
                Square::parse(a).ok_or_else(bad)?,
                Square::parse(b).ok_or_else(bad)?,
            )
        } else {
            let s = Square::parse(item).ok_or_else(bad)?;
            (s, s)
        };
        for r in a.rank.min(b.rank)..=a.rank.max(b.rank) {
            for f in a.file.min(b.file)..=a.file.max(b.file) {
                squares.push(Square::new(f, r));
            }
        }
    }
    squares.sort_by_key(|s| s.index(side));
    squares.dedup();
    Ok(squares)
}

fn check_home(home: &[Square], side: u8) -> Result<(), VariantError> {
    if home.is_empty() {
        return Err(VariantError::BadHome(HomeError::Empty));
    }
    if let Some(s) = home.iter().find(|s| !s.is_on(side)) {
        return Err(VariantError::BadHome(HomeError::OffBoard(*s)));
    }
    let max = usize::from(side) * usize::from(side) / 4;
    if home.len() > max {
        return Err(VariantError::BadHome(HomeError::TooMany {
            count: home.len(),
            max,
        }));
    }
    if let Some(s) = home.iter().find(|s| home.contains(&s.rotated(side))) {
        return Err(VariantError::BadHome(HomeError::BothHomes(*s)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[Square]) -> Vec<String> {
        v.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn c10_homes_match_the_table() {
        let v = Variant::by_id("classic3x3").unwrap();
        assert_eq!(
            names(&v.black_home()),
            ["f6", "g6", "h6", "f7", "g7", "h7", "f8", "g8", "h8"]
        );
        let t = Variant::by_id("triangle").unwrap();
        assert_eq!(t.white_home.len(), 10);
        assert_eq!(
            names(&t.black_home()),
            ["h5", "g6", "h6", "f7", "g7", "h7", "e8", "f8", "g8", "h8"]
        );
        let h = Variant::by_id("halma16").unwrap();
        assert_eq!(h.white_home.len(), 19);
        let mut bh = names(&h.black_home());
        bh.sort();
        let mut want: Vec<String> = [
            "p16", "o16", "n16", "m16", "l16", "p15", "o15", "n15", "m15", "l15", "p14", "o14",
            "n14", "m14", "p13", "o13", "n13", "p12", "o12",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        want.sort();
        assert_eq!(bh, want);
        assert_eq!(Variant::by_id("classic3x4").unwrap().white_home.len(), 12);
        assert_eq!(
            names(&Variant::by_id("classic3x4").unwrap().white_home)[3],
            "d1"
        );
        assert_eq!(Variant::by_id("square4x4").unwrap().white_home.len(), 16);
    }

    #[test]
    fn c10_rules_per_variant() {
        for id in STANDARD_IDS {
            let v = Variant::by_id(id).unwrap();
            assert_eq!(
                v.blocking_forbidden,
                v.directions == Directions::Orthogonal,
                "{id}"
            );
            let (deadline, limit) = match id {
                "classic3x3" | "classic3x4" | "square4x4" => (40, 80),
                "halma16" => (60, 200),
                _ => (30, 80),
            };
            assert_eq!((v.deadline, v.limit), (Some(deadline), Some(limit)), "{id}");
            assert_eq!(
                v.rated,
                matches!(id, "classic3x3" | "classic3x4" | "diagonal3x3")
            );
            assert_eq!(v.target_lock, id == "halma16");
        }
        assert_eq!(
            Variant::by_id("classic4x3").unwrap().rating_kind(),
            Some("classic3x4")
        );
        assert_eq!(Variant::by_id("CLASSIC3X3").unwrap().id, "classic3x3");
    }

    #[test]
    fn c10_training_room_settings() {
        let t = Variant::by_id("training").unwrap();
        assert!(!t.rated && t.is_training());
        assert_eq!(t.white_home.len(), 9);
        let t =
            Variant::by_id("training:diagonal3x3,ortho,deadline=off,limit=20,blocking=on").unwrap();
        assert_eq!(t.directions, Directions::Orthogonal);
        assert_eq!((t.deadline, t.limit), (None, Some(20)));
        assert!(!t.blocking_forbidden);
        // The canonical id reads back to the same variant.
        assert_eq!(Variant::by_id(&t.id).unwrap(), t);
        let t = Variant::by_id("training,home=a1-b2.c1,diag").unwrap();
        assert_eq!(names(&t.white_home), ["a1", "b1", "c1", "a2", "b2"]);
        assert!(matches!(
            Variant::by_id("training,speed=9"),
            Err(VariantError::BadOption(_))
        ));
        assert!(matches!(
            Variant::by_id("training,home=a1-h8"),
            Err(VariantError::BadHome(_))
        ));
        assert!(matches!(
            Variant::by_id("training,home=d4.e5"),
            Err(VariantError::BadHome(_))
        ));
        assert!(matches!(
            Variant::by_id("training,home=z1"),
            Err(VariantError::BadHome(_))
        ));
        assert!(matches!(
            Variant::by_id("nonsense"),
            Err(VariantError::Unknown(_))
        ));
    }
}
