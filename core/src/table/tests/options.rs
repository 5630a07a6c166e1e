//! Slash commands' options read as the typed commands would be.

use super::*;
use crate::table::command::{TrainMode, DEFAULT_BOT_LEVEL};
use crate::table::options::{self, OptionKind, OptionValue};

/// Command `name` with these options.
fn read(name: &str, given: &[(&str, OptionValue)]) -> Result<Command, Msg> {
    options::read(name, |n| {
        given.iter().find(|(k, _)| *k == n).map(|(_, v)| v.clone())
    })
}

fn text(v: &str) -> OptionValue {
    OptionValue::Text(v.into())
}

#[test]
fn play_options_read_as_the_typed_command() {
    let c = read(
        "play",
        &[
            ("level", OptionValue::Number(2)),
            ("variant", text("triangle")),
            ("time", text("5+3")),
            ("color", text("black")),
        ],
    );
    let Ok(Command::PlayBot { level, spec }) = c else {
        panic!("{c:?}")
    };
    assert_eq!(level, 2);
    assert_eq!(spec.rules.id(), "triangle");
    assert_eq!(spec.time.to_string(), "5+3");
    assert_eq!(spec.color, crate::color::ColorChoice::Black);
    // Nothing said: the default level and game.
    let Ok(Command::PlayBot { level, .. }) = read("play", &[]) else {
        panic!()
    };
    assert_eq!(level, DEFAULT_BOT_LEVEL);
    // Words /play bot refuses are refused the same way.
    assert!(read("play", &[("level", OptionValue::Number(9))]).is_err());
    assert!(read("play", &[("variant", text("zebra"))]).is_err());
}

#[test]
fn train_options_read_as_the_typed_command() {
    let c = read(
        "train",
        &[
            ("against", text("bot")),
            ("level", OptionValue::Number(2)),
            ("variant", text("triangle")),
        ],
    );
    assert!(
        matches!(&c, Ok(Command::Train { mode: TrainMode::Bot(2), spec })
            if spec.rules.id().starts_with("training:triangle")),
        "{c:?}"
    );
    let bob = Mention::Handle("bob".into());
    let c = read(
        "train",
        &[
            ("time", text("5+3")),
            ("opponent", OptionValue::Person(bob.clone())),
        ],
    );
    assert!(
        matches!(&c, Ok(Command::Train { mode: TrainMode::Person, spec })
            if spec.opponent == Some(bob.clone())),
        "{c:?}"
    );
    assert!(matches!(
        read("train", &[]),
        Ok(Command::Train {
            mode: TrainMode::Solo,
            ..
        })
    ));
    // Solo and a friend at once is not one thing.
    assert_eq!(
        read(
            "train",
            &[
                ("against", text("solo")),
                ("opponent", OptionValue::Person(bob))
            ]
        )
        .unwrap_err(),
        Msg::CmdTrainVs
    );
    assert_eq!(
        read("train", &[("variant", text("damas"))]).unwrap_err(),
        Msg::TrainCornersOnly
    );
}

#[test]
fn challenge_options_are_checked_as_typed_words_are() {
    let c = read(
        "challenge",
        &[
            ("variant", text("damas")),
            ("rated", OptionValue::Flag(true)),
            ("stake", OptionValue::Number(50)),
            ("color", text("white")),
        ],
    );
    let Ok(Command::Challenge(spec)) = c else {
        panic!("{c:?}")
    };
    assert_eq!((spec.rated, spec.stake), (Some(true), Some(50)));
    // A stake needs a rated game, as typed.
    assert_eq!(
        read("challenge", &[("stake", OptionValue::Number(5))]).unwrap_err(),
        Msg::CmdStakeNeedsRated
    );
    assert!(read("challenge", &[("variant", text("nonsense"))]).is_err());
    assert!(read("challenge", &[("time", text("soon"))]).is_err());
}

#[test]
fn every_slash_command_has_its_options_described_in_the_catalogue() {
    for c in options::slash_commands() {
        for o in options::options(c) {
            let line = crate::words::render(
                &Msg::OptionHelp {
                    option: o.help.into(),
                },
                Lang::EN,
            );
            assert!(
                !line.is_empty() && line.chars().count() <= 100,
                "{c} {}",
                o.name
            );
            if o.help != "game" {
                assert_ne!(
                    line,
                    crate::words::render(
                        &Msg::OptionHelp {
                            option: "game".into()
                        },
                        Lang::EN
                    ),
                    "{c} {}: its own line, not the default",
                    o.name
                );
            }
            assert!(
                o.kind != OptionKind::Number || o.range.is_some(),
                "{c} {}",
                o.name
            );
        }
    }
}
