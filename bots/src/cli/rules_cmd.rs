//! The rules commands, for both games through `ugolki_core::game`.

use super::{CliError, GameArgs, GameKind, Io};
use ugolki_core::game::{Game, Rules};
use ugolki_core::words::{english, refusal, variant_error, Msg};
use ugolki_core::{corners, damas};

fn rules(args: &GameArgs) -> Result<Rules, CliError> {
    match args.game {
        GameKind::Corners => corners::Variant::by_id(&args.variant)
            .map(Rules::Corners)
            .map_err(|e| CliError::Usage(english(&variant_error(&e)))),
        GameKind::Damas => Ok(Rules::Damas {
            flying: !args.short,
        }),
    }
}

pub(super) fn game(args: &GameArgs) -> Result<Game, CliError> {
    let rules = rules(args)?;
    match &args.position {
        None => Ok(Game::new(&rules)),
        Some(text) => {
            Game::from_text(&rules, text).map_err(|e| CliError::Usage(format!("bad position: {e}")))
        }
    }
}

/// `ugolki moves`: every legal move, full path, one per line, sorted by (from, to).
pub fn moves(io: &mut Io, args: &GameArgs) -> Result<u8, CliError> {
    let g = game(args)?;
    let mut text = String::new();
    if g.ending().is_none() {
        for m in g.legal_move_texts() {
            text.push_str(&m);
            text.push('\n');
        }
    }
    io.out.write_all(text.as_bytes())?;
    Ok(0)
}

/// `ugolki perft`: the leaf count. The count runs on its own thread; past `timeout_s`
/// the command gives up (a deep perft can take longer than anyone waits).
pub fn perft(io: &mut Io, args: &GameArgs, depth: u32, timeout_s: u64) -> Result<u8, CliError> {
    if depth > 64 {
        return Err(CliError::Usage("depth must be at most 64".into()));
    }
    let bad = |e: String| CliError::Usage(format!("bad position: {e}"));
    let job: Box<dyn FnOnce() -> u64 + Send> = match (rules(args)?, &args.position) {
        (Rules::Corners(v), None) => {
            let p = corners::Position::start(&v);
            Box::new(move || p.perft(depth))
        }
        (Rules::Corners(v), Some(t)) => {
            let p = corners::Position::from_text(&v, t).map_err(|e| bad(e.to_string()))?;
            Box::new(move || p.perft(depth))
        }
        (Rules::Damas { flying }, None) => {
            let p = damas::Position::start(flying);
            Box::new(move || p.perft(depth))
        }
        (Rules::Damas { flying }, Some(t)) => {
            let p = damas::Position::from_text(t, flying).map_err(|e| bad(e.to_string()))?;
            Box::new(move || p.perft(depth))
        }
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(job());
    });
    match rx.recv_timeout(std::time::Duration::from_secs(timeout_s)) {
        Ok(count) => {
            writeln!(io.out, "{count}")?;
            Ok(0)
        }
        Err(_) => Err(CliError::Usage(format!(
            "perft to depth {depth} did not finish in {timeout_s} s (--timeout SECONDS allows more)"
        ))),
    }
}

/// `ugolki replay`: play the moves, print the final position, the move number and the
/// result line; an illegal move goes to stderr as `illegal move N: TEXT: reason`, exit 1.
pub fn replay(io: &mut Io, args: &GameArgs, moves: &[String], pdn: bool) -> Result<u8, CliError> {
    let mut g = game(args)?;
    if pdn && !matches!(g, Game::Damas(_)) {
        return Err(CliError::Usage("--pdn is for Damas games".into()));
    }
    for (i, text) in moves.iter().enumerate() {
        if let Err(e) = g.play_text(text) {
            let reason = english(&refusal(&e.kind));
            writeln!(io.err, "illegal move {}: {}: {}", i + 1, text, reason)?;
            return Ok(1);
        }
    }
    if let (true, Game::Damas(d)) = (pdn, &g) {
        io.out.write_all(d.pdn("White", "Black").as_bytes())?;
        return Ok(0);
    }
    writeln!(io.out, "position: {}", g.position_text())?;
    writeln!(io.out, "move: {}", g.move_number())?;
    let ending = g.ending();
    let line = Msg::ResultLine {
        winner: ending.and_then(|e| e.winner),
        ended: ending.is_some(),
        cause: ending.map(|e| e.cause),
    };
    writeln!(io.out, "result: {}", english(&line))?;
    Ok(0)
}
