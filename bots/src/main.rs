//! The `ugolki` binary.

use std::io::{self, IsTerminal};
use std::process::ExitCode;

/// The logs shown without `RUST_LOG`: a bot's process says what it does (its start, its
/// role, a chat moved or left, a call retried) and the libraries' warnings; the console
/// and the one-shot commands, whose terminal is the game's, only warnings.
fn default_filter() -> &'static str {
    match std::env::args_os()
        .nth(1)
        .as_deref()
        .and_then(|a| a.to_str())
    {
        Some("telegram" | "discord") => "warn,ugolki_bots=info,ugolki_core=info",
        _ => "warn",
    }
}

fn main() -> ExitCode {
    // Logs go to stderr (RUST_LOG to choose); stdout is the command's own output.
    tracing_subscriber::fmt()
        .with_writer(io::stderr)
        // Colours for a terminal only: a log file or journal gets plain text.
        .with_ansi(io::stderr().is_terminal())
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_filter())),
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
