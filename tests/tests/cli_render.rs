//! `ugolki render`: a position text to a PNG file.

use ugolki_tests::ugolki;

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ugolki-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn render_writes_a_png_for_each_game() {
    let cases: [(&str, &[&str]); 3] = [
        (
            "c.png",
            &[
                "--game",
                "corners",
                "--variant",
                "classic3x3",
                "--position",
                "5bbb/5bbb/4b1bb/8/8/1w1ww3/www5/www5 b 2",
                "--last",
                "a3-c3-e3",
            ],
        ),
        (
            "h.png",
            &[
                "--game",
                "corners",
                "--variant",
                "halma16",
                "--flip",
                "--select",
                "e2",
            ],
        ),
        (
            "d.png",
            &[
                "--game",
                "damas",
                "--position",
                "W:WK5,12:B21",
                "--size",
                "400",
            ],
        ),
    ];
    for (name, args) in cases {
        let out = temp(name);
        let out_s = out.to_str().expect("utf-8 path");
        let mut all = vec!["render", "--out", out_s];
        all.extend_from_slice(args);
        let r = ugolki(&all, "");
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert_eq!(r.stdout.trim(), out_s);
        let bytes = std::fs::read(&out).expect("written");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{name} is a PNG");
    }
}

#[test]
fn render_refuses_bad_input_without_writing() {
    let out = temp("bad.png");
    let out_s = out.to_str().expect("utf-8 path");
    let r = ugolki(&["render", "--out", out_s, "--position", "8/8 w 1"], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("bad position"), "{}", r.stderr);
    let r = ugolki(&["render", "--out", out_s, "--last", "c3-zz"], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("bad --last"), "{}", r.stderr);
    assert!(!out.exists());
    for size in ["0", "4294967295", "-1", "big"] {
        let r = ugolki(&["render", "--out", out_s, "--size", size], "");
        assert_eq!(r.code, 2, "--size {size}");
    }
    assert!(!out.exists());
    let r = ugolki(&["render", "--out", "/nonexistent-dir/x.png"], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot write"), "{}", r.stderr);
}

#[test]
fn render_refuses_squares_off_the_board() {
    let out = temp("off.png");
    let out = out.to_str().expect("path");
    for (flag, value) in [
        ("--last", "a1-i9"),
        ("--select", "i9"),
        ("--last", "p16-o15"),
    ] {
        let r = ugolki(
            &[
                "render",
                "--game",
                "corners",
                "--variant",
                "classic3x3",
                flag,
                value,
                "--out",
                out,
            ],
            "",
        );
        assert_eq!(r.code, 2, "{flag} {value}: {}", r.stdout);
        assert!(
            r.stderr.contains("is not on this 8×8 board"),
            "{}",
            r.stderr
        );
    }
    let r = ugolki(
        &[
            "render",
            "--game",
            "corners",
            "--variant",
            "halma16",
            "--last",
            "p16-o15",
            "--out",
            out,
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}
