//! Shared helpers for the end-to-end tests of ugolki (the tests live in `tests/tests/`).

pub mod fake_discord;
pub mod fake_telegram;

/// What one in-process run of the `ugolki` command line produced.
#[derive(Debug)]
pub struct Run {
    pub code: u8,
    pub stdout: String,
    pub stderr: String,
}

/// Run the `ugolki` command line in-process with `args` (without the program name) and
/// `stdin` as standard input.
pub fn ugolki(args: &[&str], stdin: &str) -> Run {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut input = stdin.as_bytes();
    let argv = std::iter::once("ugolki").chain(args.iter().copied());
    let code = ugolki_bots::cli::run(argv, &mut input, false, &mut out, &mut err);
    Run {
        code,
        stdout: String::from_utf8(out).expect("stdout is UTF-8"),
        stderr: String::from_utf8(err).expect("stderr is UTF-8"),
    }
}
