//! The `ugolki` binary.

use std::io::{self, IsTerminal};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = io::stdin();
    let interactive = stdin.is_terminal();
    let code = ugolki_bots::cli::run(
        std::env::args_os(),
        &mut stdin.lock(),
        interactive,
        &mut io::stdout().lock(),
        &mut io::stderr().lock(),
    );
    ExitCode::from(code)
}
