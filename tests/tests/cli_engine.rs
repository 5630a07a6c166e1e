//! `ugolki bestmove`, `ugolki selfplay` and `ugolki gif`.

use ugolki_tests::ugolki;

#[test]
fn bestmove_prints_a_legal_move_in_notation() {
    for args in [
        &["bestmove", "--variant", "classic3x3", "--level", "2"][..],
        &["bestmove", "--game", "damas", "--ms", "50"][..],
        &[
            "bestmove",
            "--game",
            "damas",
            "--position",
            "W:W12,9:B15,32",
            "--level",
            "1",
        ][..],
    ] {
        let r = ugolki(args, "");
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        let mv = r.stdout.trim();
        let mut game_args: Vec<&str> = vec!["moves"];
        game_args.extend(
            args[1..]
                .iter()
                .take_while(|a| !a.starts_with("--level") && !a.starts_with("--ms")),
        );
        let legal = ugolki(&game_args, "");
        assert!(
            legal.stdout.lines().any(|l| l == mv),
            "{mv} is not among {}",
            legal.stdout
        );
        assert!(r.stderr.starts_with("depth "), "{}", r.stderr);
    }
    // A forced capture: the only legal move.
    let r = ugolki(
        &[
            "bestmove",
            "--game",
            "damas",
            "--position",
            "W:W12,9:B15,32",
        ],
        "",
    );
    assert_eq!(r.stdout.trim(), "b3xd5");
}

#[test]
fn bestmove_refuses_bad_settings_and_finished_games() {
    let r = ugolki(&["bestmove", "--level", "9"], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--level is 1 to 5"), "{}", r.stderr);
    let r = ugolki(&["bestmove", "--level", "2", "--ms", "10"], "");
    assert_eq!(r.code, 2);
    let r = ugolki(
        &["bestmove", "--game", "damas", "--position", "W:W24:B28,31"],
        "",
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("game is over"), "{}", r.stderr);
}

#[test]
fn selfplay_prints_the_score_of_each_colour_and_the_total() {
    let r = ugolki(
        &[
            "selfplay",
            "--variant",
            "classic3x3",
            "--a",
            "2",
            "--b",
            "random",
            "--games",
            "2",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "level 2 against random");
    assert!(lines[1].starts_with("as White: 2 games, "), "{}", r.stdout);
    assert!(lines[3].starts_with("total: 4 games, "), "{}", r.stdout);
    assert!(ugolki(&["selfplay", "--a", "7", "--b", "random"], "").code == 2);
}

#[test]
fn gif_writes_the_replay_of_a_game() {
    let dir = std::env::temp_dir().join(format!("ugolki-gif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("g.gif");
    let path = out.to_str().unwrap();
    let r = ugolki(
        &[
            "gif",
            "--variant",
            "classic3x3",
            "--out",
            path,
            "c3-d3",
            "f6-e6",
            "b3-b4",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.trim(), path);
    assert!(r.stderr.starts_with("4 frames, "), "{}", r.stderr);
    assert!(std::fs::read(&out).unwrap().starts_with(b"GIF89a"));
    // An illegal move stops it, as in `replay`.
    let r = ugolki(
        &["gif", "--variant", "classic3x3", "--out", path, "c3-c9"],
        "",
    );
    assert_eq!(r.code, 1);
    let _ = std::fs::remove_dir_all(&dir);
}
