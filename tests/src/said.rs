//! What the end-to-end tests expect the bot to say, rendered from typed messages
//! ([`Msg`]) through the English catalogue, never typed out in English.
//!
//! Where a message has parts that vary (a status line, the terms, a name the test does not
//! know), the test gives a [`HOLE`] in their place and looks for the fixed parts around
//! it: all of them in order ([`parts`], [`fits`]), the part before the first hole
//! ([`lead`]), the part between two ([`between_holes`]), or the first sentence
//! ([`first_sentence`]). The helpers below name the pieces the tests look for most.

use ugolki_core::corners::Variant;
use ugolki_core::game::{EndCause, Rules};
use ugolki_core::words::{english, Msg};
use ugolki_core::{Color, Square};

/// Stands in a message for a part that varies; no message has it of its own.
pub const HOLE: &str = "\u{1}";

/// A hole where a message takes a string.
pub fn hole() -> String {
    HOLE.to_string()
}

/// A hole where a message takes another message (the terms, a status line).
pub fn hole_msg() -> Box<Msg> {
    // `time-fischer` is its text and nothing else.
    Box::new(Msg::TimeFischer { text: hole() })
}

/// The fixed parts of `msg` in English, in order, between its holes.
pub fn parts(msg: &Msg) -> Vec<String> {
    english(msg).split(HOLE).map(str::to_string).collect()
}

/// The text of `msg` before its first hole (all of it without one).
pub fn lead(msg: &Msg) -> String {
    parts(msg).swap_remove(0)
}

/// The text of `msg` between its first two holes: put them around the span wanted.
pub fn between_holes(msg: &Msg) -> String {
    parts(msg)
        .into_iter()
        .nth(1)
        .unwrap_or_else(|| panic!("{msg:?} has fewer than two holes"))
}

/// `text` up to the end of its first sentence (a full stop and a space, or its end).
pub fn sentence_of(text: &str) -> String {
    match text.find(". ") {
        Some(end) => text[..=end].to_string(),
        None => text.trim_end().to_string(),
    }
}

/// The first sentence of `msg` in English.
pub fn first_sentence(msg: &Msg) -> String {
    sentence_of(&english(msg))
}

/// Whether `text` has `parts` in this order (anything may stand between them).
pub fn in_order(text: &str, parts: &[String]) -> bool {
    let mut rest = text;
    for part in parts {
        match rest.find(part.as_str()) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `text` has every fixed part of `msg`, in order (a hole stands for anything).
pub fn fits(text: &str, msg: &Msg) -> bool {
    in_order(text, &parts(msg))
}

/// The fixed parts of a new challenge's message (`Msg::ChallengeTo`, `Msg::ChallengeOpen`)
/// up to its last sentence, when it expires: the table's settings decide that.
pub fn challenge_parts(msg: &Msg) -> Vec<String> {
    let mut p = parts(msg);
    if let Some(last) = p.last_mut() {
        if let Some(end) = last.rfind(". ") {
            last.truncate(end + 1);
        }
    }
    p
}

/// A square by its name (`c3`).
pub fn square(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("{name} is not a square"))
}

/// A move after it is played, with any status line after it.
fn after_move(mover: &str, recorded: &str) -> Msg {
    Msg::AfterMove {
        mover: mover.into(),
        recorded: recorded.into(),
        status: hole_msg(),
        offer_declined: false,
    }
}

/// The first sentence under a board after a move: `Alice played c3-d3.`
pub fn played(mover: &str, recorded: &str) -> String {
    first_sentence(&after_move(mover, recorded))
}

/// The same for a move by anyone: ` played c3-d3.`
pub fn played_move(recorded: &str) -> String {
    sentence_of(&between_holes(&after_move(HOLE, recorded)))
}

/// The start of a move by `mover`, whatever the move: `Bot L1 played `.
pub fn played_by(mover: &str) -> String {
    lead(&after_move(mover, HOLE))
}

/// What stands between the mover and the move in every move's sentence: ` played `.
pub fn played_infix() -> String {
    between_holes(&after_move(HOLE, HOLE))
}

/// A new game's message with `white` and `black`, its terms a hole.
fn started(id: i64, white: &str, black: &str) -> Msg {
    Msg::GameStarted {
        id,
        white: white.into(),
        black: black.into(),
        terms: hole_msg(),
        pair_limit: false,
    }
}

/// `text` without what joins it to the terms after it (spaces and a separator).
fn before_terms(text: &str) -> String {
    text.trim_end_matches(|c: char| !c.is_alphanumeric() && c != ')')
        .to_string()
}

/// The players as a new game names them: `Alice (White) vs Bob (Black)`.
pub fn players(white: &str, black: &str) -> String {
    before_terms(&between_holes(&started(
        0,
        &format!("{HOLE}{white}"),
        black,
    )))
}

/// The start of a new game's message, up to its terms:
/// `Game #1: Alice (White) vs Bot L1 (Black)`.
pub fn game_started(id: i64, white: &str, black: &str) -> String {
    before_terms(&lead(&started(id, white, black)))
}

/// The start of a result by the rules, whoever won: `Game #1 over: `.
pub fn game_over(id: i64) -> String {
    lead(&Msg::RulesResult {
        id,
        winner: Some(Color::White),
        name: hole(),
        cause: EndCause::Completed,
        rule: hole(),
    })
}

/// The start of a game's line about how it ended (a resignation, a flag) or began: `Game #1: `.
pub fn game_line(id: i64) -> String {
    lead(&Msg::Resigned {
        id,
        loser: hole(),
        winner: hole(),
    })
}

/// The start of a challenge to someone, up to its terms: `Alice challenges Bob: `.
pub fn challenges(from: &str, to: &str) -> String {
    lead(&Msg::ChallengeTo {
        id: 0,
        from: from.into(),
        to: to.into(),
        terms: hole_msg(),
        wish: None,
        minutes: 0,
        pair_limit: false,
        buttons: false,
    })
}

/// The first sentence of the rules of a Corners variant:
/// `Corners, classic 3×3: fill the opponent's corner with your pieces (C1).`
pub fn corners_rules_lead(variant: Variant) -> String {
    first_sentence(&Msg::RulesCorners {
        rules: Box::new(Rules::Corners(variant)),
        diagonal: false,
        deadline: None,
        limit: None,
        no_blocking: false,
        home_exemption: false,
        target_lock: false,
    })
}

/// A game of tournament #1 (3+2, casual), numbered up to 6 and not in `ended`, announced in
/// what `said` recognises, between two of `names`: (game, White's index, Black's index).
pub fn tournament_game_announced(
    names: &[&str],
    ended: &std::collections::BTreeSet<i64>,
    said: impl Fn(&str) -> bool,
) -> Option<(i64, usize, usize)> {
    let time = ugolki_core::clock::TimeControl::parse("3+2").expect("a time control");
    for id in (1..=6).filter(|id| !ended.contains(id)) {
        for (w, white) in names.iter().enumerate() {
            for (b, black) in names.iter().enumerate().filter(|(b, _)| *b != w) {
                let text = english(&Msg::TournamentGameStarted {
                    id,
                    tournament: 1,
                    white: (*white).to_string(),
                    black: (*black).to_string(),
                    time,
                    rated: false,
                });
                if said(&text) {
                    return Some((id, w, b));
                }
            }
        }
    }
    None
}
