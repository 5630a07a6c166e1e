//! The command-line commands for Corners.

use super::{CliError, Io};
use ugolki_core::corners::{Game, Position, Variant};
use ugolki_core::notation::join_path;

fn variant(id: &str) -> Result<Variant, CliError> {
    Variant::by_id(id).map_err(|e| CliError::Usage(e.to_string()))
}

fn position(v: &Variant, text: Option<&str>) -> Result<Position, CliError> {
    match text {
        None => Ok(Position::start(v)),
        Some(t) => {
            Position::from_text(v, t).map_err(|e| CliError::Usage(format!("bad position: {e}")))
        }
    }
}

/// `ugolki moves`: every legal move, full path, one per line, sorted by (from, to).
pub fn moves(io: &mut Io, variant_id: &str, pos: Option<&str>) -> Result<u8, CliError> {
    let v = variant(variant_id)?;
    let pos = position(&v, pos)?;
    let mut text = String::new();
    for mv in pos.legal_moves() {
        text.push_str(&join_path(&pos.path(mv), "-"));
        text.push('\n');
    }
    io.out.write_all(text.as_bytes())?;
    Ok(0)
}

/// `ugolki perft`: the leaf count.
pub fn perft(io: &mut Io, variant_id: &str, depth: u32, pos: Option<&str>) -> Result<u8, CliError> {
    let v = variant(variant_id)?;
    let pos = position(&v, pos)?;
    if depth > 64 {
        return Err(CliError::Usage("depth must be at most 64".into()));
    }
    writeln!(io.out, "{}", pos.perft(depth))?;
    Ok(0)
}

/// `ugolki replay`: play the moves, print the final position, the move number and the
/// result line; an illegal move goes to stderr as `illegal move N: TEXT: reason`, exit 1.
pub fn replay(
    io: &mut Io,
    variant_id: &str,
    pos: Option<&str>,
    moves: &[String],
) -> Result<u8, CliError> {
    let v = variant(variant_id)?;
    let start = position(&v, pos)?;
    let mut game = Game::from_position(&v, start);
    for (i, text) in moves.iter().enumerate() {
        if let Err(e) = game.play_text(text) {
            writeln!(io.err, "illegal move {}: {}: {}", i + 1, text, e.reason())?;
            return Ok(1);
        }
    }
    let pos = game.position();
    writeln!(io.out, "position: {}", pos.to_text())?;
    writeln!(io.out, "move: {}", pos.move_number())?;
    match game.outcome() {
        Some(o) => writeln!(io.out, "result: {o}")?,
        None => writeln!(io.out, "result: ongoing")?,
    }
    Ok(0)
}
