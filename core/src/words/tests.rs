//! The catalogues against the messages: every message renders in every language with sample
//! arguments, and every catalogue entry belongs to a message.

use super::*;
use crate::color::Color;
use crate::game::EndCause;
use std::collections::BTreeSet;

#[test]
fn every_message_renders_in_every_language_with_sample_arguments() {
    let mut failures = Vec::new();
    for lang in Lang::all() {
        for msg in Msg::samples() {
            match try_render(&msg, lang) {
                Ok(text) if text.trim().is_empty() => {
                    failures.push(format!("{}: {} is empty", lang.code(), msg.key()));
                }
                Ok(text) if text.contains("{$") || text.contains("{ $") => {
                    failures.push(format!("{}: {} left {text}", lang.code(), msg.key()));
                }
                Ok(_) => {}
                Err(e) => failures.push(e.0),
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_catalogue_entry_is_a_message_and_none_is_missing() {
    let used: BTreeSet<String> = Msg::samples().iter().map(|m| m.key().to_string()).collect();
    for lang in Lang::all() {
        let keys: BTreeSet<String> = catalogue_keys(lang).into_iter().collect();
        let unused: Vec<_> = keys.difference(&used).collect();
        let missing: Vec<_> = used.difference(&keys).collect();
        assert!(unused.is_empty(), "{}: unused {unused:?}", lang.code());
        assert!(missing.is_empty(), "{}: missing {missing:?}", lang.code());
    }
}

#[test]
fn a_missing_argument_is_reported_not_hidden() {
    // A message whose variable is absent must fail loudly in tests.
    let bundle_lang = Lang::EN;
    assert!(try_render(&Msg::NotYourTurn, bundle_lang).is_ok());
    assert_eq!(Lang::from_tag("en-GB"), Some(Lang::EN));
    assert_eq!(Lang::from_tag("xx"), None);
}

#[test]
fn plurals_numbers_and_nested_messages_in_english() {
    let m = Msg::RulesResult {
        id: 3,
        winner: None,
        name: String::new(),
        cause: EndCause::BothCompleted { move_no: 24 },
        rule: "C5".into(),
    };
    assert_eq!(
        english(&m),
        "Game #3 over: draw — both completed target on move 24 (C5)."
    );
    let line = Msg::ResultLine {
        winner: Some(Color::Black),
        ended: true,
        cause: Some(EndCause::ReturnedHome(Color::White)),
    };
    assert_eq!(
        english(&line),
        "black wins (white returned home after the deadline)"
    );
    assert_eq!(english(&Msg::DurationDays { days: 1, hours: 3 }), "1d 3h");
    let lines = Msg::Lines(vec![Msg::NotYourTurn, Msg::GamesNone]);
    assert_eq!(
        english(&lines),
        "Not your turn.\nYou have no unfinished games."
    );
}

#[test]
fn end_causes_round_trip_through_their_codes() {
    use Color::{Black, White};
    let all = [
        EndCause::Completed,
        EndCause::BothCompleted { move_no: 24 },
        EndCause::ReturnedHome(White),
        EndCause::LeftHomeLate(Black),
        EndCause::BothLeftHomeLate,
        EndCause::Limit { white: 5, black: 3 },
        EndCause::Repetition,
        EndCause::NoLegalMove(Black),
        EndCause::NoReply,
        EndCause::NoPieces(White),
        EndCause::CannotMove(Black),
        EndCause::Flag(White),
        EndCause::Resigned(Black),
        EndCause::Agreed,
        EndCause::Aborted,
        EndCause::Abandoned(White),
        EndCause::NoFirstMove(Black),
    ];
    for c in all {
        let code = c.code();
        assert!(!code.contains(' '), "{code}");
        assert_eq!(EndCause::from_code(&code), Some(c), "{code}");
    }
    assert_eq!(EndCause::from_code("white ran out of time"), None);
}

#[test]
fn english_plurals_come_from_the_catalogue() {
    let one = Msg::Chips {
        name: "bob".into(),
        chips: 1,
    };
    let many = Msg::Chips {
        name: "bob".into(),
        chips: 1000,
    };
    assert_eq!(english(&one), "bob has 1 chip.");
    assert_eq!(english(&many), "bob has 1000 chips.");
    let line = |games| Msg::TopLine {
        place: 1,
        name: "alice".into(),
        rating: 1015,
        games,
    };
    assert_eq!(english(&line(1)), "1. alice 1015 (1 game)");
    assert_eq!(english(&line(2)), "1. alice 1015 (2 games)");
}

/// Messages that read the same in every language (numbers, squares, names, notation; the
/// game name Damas, which `kind-name`'s sample falls back to).
const SAME_IN_EVERY_LANGUAGE: [&str; 11] = [
    "kind-name",
    "duration-days",
    "time-fischer",
    "game-number",
    "refused",
    "btn-square",
    "status-clocks",
    "rating-change",
    "lang-name",
    "list-or",
    "tournament-change",
];

#[test]
fn every_language_says_its_own_words() {
    let mut same = Vec::new();
    for lang in Lang::all().filter(|l| *l != Lang::EN) {
        for msg in Msg::samples() {
            if SAME_IN_EVERY_LANGUAGE.contains(&msg.key()) {
                continue;
            }
            let (Ok(theirs), Ok(ours)) = (try_render(&msg, lang), try_render(&msg, Lang::EN))
            else {
                continue;
            };
            if theirs == ours {
                same.push(format!("{}: {} = {theirs}", lang.code(), msg.key()));
            }
        }
    }
    assert!(same.is_empty(), "untranslated:\n{}", same.join("\n"));
}

#[test]
fn russian_plurals_have_three_forms() {
    let Some(ru) = Lang::from_tag("ru") else {
        return;
    };
    let chips = |n| {
        try_render(
            &Msg::Chips {
                name: "Боб".into(),
                chips: n,
            },
            ru,
        )
        .expect("renders")
    };
    let (one, few, many) = (chips(1), chips(2), chips(5));
    assert_ne!(one, few);
    assert_ne!(few, many);
    assert_ne!(one, many);
    assert_eq!(
        Lang::from_tag("pt-BR").map(Lang::code),
        Lang::from_tag("pt").map(Lang::code)
    );
}

/// A training's counts of moves agree with their number in Russian (22 хода, 25 ходов, 21
/// ход), in each of its messages.
#[test]
fn russian_training_counts_agree_with_their_number() {
    let Some(ru) = Lang::from_tag("ru") else {
        return;
    };
    let rules = Box::new(crate::game::Rules::Corners(
        crate::corners::Variant::classic3x3(),
    ));
    for (n, word) in [(22, "хода"), (25, "ходов"), (21, "ход")] {
        let said = [
            Msg::SoloStarted {
                id: 1,
                rules: rules.clone(),
                minimum: n,
            },
            Msg::SoloCrossed {
                id: 1,
                who: "alice".into(),
                moves: n,
                minimum: n + 10,
                optimal: false,
            },
            Msg::SoloNotCrossed { id: 1, moves: n },
        ];
        for msg in said {
            let text = try_render(&msg, ru).expect("renders");
            let whole = text.match_indices(&format!("{n} {word}")).any(|(at, m)| {
                !text[at + m.len()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphabetic)
            });
            assert!(whole, "{n}: {text}");
        }
    }
}

/// A training room is named by its base variant and what it changes of it, in every
/// language; a solo's own rules (no deadline, blocking allowed) go without saying, and a
/// standard variant or a room that changes nothing says nothing more.
#[test]
fn a_training_room_is_named_with_what_it_changes_of_its_base() {
    use crate::corners::Variant;
    use crate::game::Rules;
    let name = |id: &str, lang| {
        let v = Variant::by_id(id).expect("a variant");
        render(&rules_name(&Rules::Corners(v)), lang)
    };
    assert_eq!(name("classic3x3", Lang::EN), "Corners, classic 3×3");
    assert_eq!(
        name("training:classic3x3", Lang::EN),
        "Corners, training (classic 3×3)"
    );
    assert_eq!(
        name("training:classic3x3,solo", Lang::EN),
        "Corners, training (classic 3×3; solo)"
    );
    assert_eq!(
        name("training:diagonal3x3,ortho,deadline=off,limit=100", Lang::EN),
        "Corners, training (diagonal 3×3; orthogonal moves only, no deadline, game ends at move 100)"
    );
    assert_eq!(
        name("training:classic3x3,blocking=on,home=a1-b2", Lang::EN),
        "Corners, training (classic 3×3; blocking allowed, a home of its own)"
    );
    assert_eq!(
        name(
            "training:halma16,lock=off,diag",
            Lang::from_tag("ru").expect("ru")
        ),
        "Уголки, учебная комната (хальма 16×16; из дома соперника можно выйти)"
    );
    assert_eq!(
        name("training:classic4x3,solo", Lang::EN),
        "Corners, training (classic 3×4 (mirrored); solo)"
    );
    for lang in Lang::all() {
        let plain = name("training:classic3x4", lang);
        let solo = name("training:classic3x4,solo", lang);
        assert!(
            solo.starts_with(plain.trim_end_matches(')')),
            "{lang:?}: {solo}"
        );
        assert!(solo.len() > plain.len() + 3, "{lang:?}: {solo}");
    }
}

/// One round is a round, not "1 rounds", where the language says so.
#[test]
fn one_round_is_said_in_the_singular() {
    let started = |rounds| Msg::TournamentStarted {
        id: 7,
        count: 2,
        rounds: Some(rounds),
        minutes: None,
    };
    assert_eq!(
        render(&started(1), Lang::EN),
        "Tournament #7 starts with 2 players over 1 round. Good luck!"
    );
    assert!(render(&started(3), Lang::EN).contains("over 3 rounds"));
    for lang in ["it", "pt"] {
        let lang = Lang::from_tag(lang).expect("a language");
        assert_ne!(
            render(&started(1), lang).replace('1', "3"),
            render(&started(3), lang),
            "{lang:?}"
        );
    }
}

/// A platform's language hint is whatever its client sends: absent, empty, huge, not
/// ASCII, or a language we do not speak all answer in English; a known one is read.
#[test]
fn a_language_hint_of_any_shape_reads_as_a_language_we_speak() {
    let huge = "ru".repeat(50_000);
    for hint in [
        None,
        Some(""),
        Some("-"),
        Some("日本語"),
        Some("ру"),
        Some("xx-RU"),
        Some(huge.as_str()),
    ] {
        assert_eq!(
            Lang::of_hint(hint),
            Lang::EN,
            "{:?}",
            hint.map(|h| h.chars().take(9).collect::<String>())
        );
    }
    assert_eq!(Lang::of_hint(Some("RU_ru")).code(), "ru");
    assert_eq!(Lang::of_hint(Some("pt-BR")).code(), "pt");
}
