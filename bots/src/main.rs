//! The `ugolki` binary.

use std::io::{self, IsTerminal};
use std::process::ExitCode;

fn main() -> ExitCode {
    // Logs go to stderr (RUST_LOG=info for more); stdout is the command's own output.
    tracing_subscriber::fmt()
        .with_writer(io::stderr)
        // Colours for a terminal only: a log file or journal gets plain text.
        .with_ansi(io::stderr().is_terminal())
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let stdin = io::stdin();
    let interactive = stdin.is_terminal();
    let code = ugolki_bots::cli::run(
        std::env::args_os(),
        &mut stdin.lock(),
        interactive,
        // Not locked for the whole run: the console's timer thread prints too.
        &mut io::stdout(),
        &mut io::stderr(),
    );
    ExitCode::from(code)
}
