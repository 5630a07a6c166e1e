//! `ugolki render`: a position to a PNG file.

use super::{CliError, GameArgs, GameKind, Io};
use ugolki_core::game::RefusalKind;
use ugolki_core::notation::read_squares;
use ugolki_core::words::{english, variant_error};
use ugolki_core::{corners, damas, Color, Square};
use ugolki_render::{ghost, Options, Renderer, Scene, Theme};

/// What `render` draws besides the position.
pub struct RenderArgs<'a> {
    pub out: &'a std::path::Path,
    pub flip: bool,
    pub last: Option<&'a str>,
    pub select: Option<&'a str>,
    pub width: Option<u32>,
}

fn squares(text: &str, what: &str) -> Result<Vec<Square>, CliError> {
    read_squares(text).map(|r| r.squares).map_err(|e| {
        let why = english(&ugolki_core::words::refusal(&RefusalKind::Text(e)));
        CliError::Usage(format!("bad {what} '{text}': {why}"))
    })
}

fn bad_position(e: impl std::fmt::Display) -> CliError {
    CliError::Usage(format!("bad position: {e}"))
}

/// Damas pieces a path took, as far as the after-position tells: the middle of each
/// two-square hop, of the colour opposite the piece that moved.
fn damas_ghosts(pos: &damas::Position, path: &[Square]) -> Vec<(Square, ugolki_render::Stone)> {
    let Some(mover) = path.last().and_then(|s| pos.piece_at(*s)) else {
        return Vec::new();
    };
    path.windows(2)
        .filter(|w| w[0].file.abs_diff(w[1].file) == 2 && w[0].rank.abs_diff(w[1].rank) == 2)
        .map(|w| {
            let mid = Square::new(
                u8::midpoint(w[0].file, w[1].file),
                u8::midpoint(w[0].rank, w[1].rank),
            );
            (mid, ghost(mover.color.opponent()))
        })
        .filter(|(s, _)| pos.piece_at(*s).is_none())
        .collect()
}

pub fn render(io: &mut Io, game: &GameArgs, args: &RenderArgs) -> Result<u8, CliError> {
    let last = args
        .last
        .map(|t| squares(t, "--last"))
        .transpose()?
        .unwrap_or_default();
    let select = match args.select {
        Some(t) => Some(
            Square::parse(t.trim())
                .ok_or_else(|| CliError::Usage(format!("bad --select '{t}': not a square")))?,
        ),
        None => None,
    };
    let side = match game.game {
        GameKind::Corners => {
            corners::Variant::by_id(&game.variant)
                .map_err(|e| CliError::Usage(english(&variant_error(&e))))?
                .side
        }
        GameKind::Damas => 8,
    };
    // Squares off this board are refused, never dropped in silence.
    if let Some(s) = last.iter().chain(select.as_ref()).find(|s| !s.is_on(side)) {
        return Err(CliError::Usage(format!(
            "{s} is not on this {side}×{side} board"
        )));
    }
    let mut scene = match game.game {
        GameKind::Corners => {
            let v = corners::Variant::by_id(&game.variant)
                .map_err(|e| CliError::Usage(english(&variant_error(&e))))?;
            let pos = match &game.position {
                Some(t) => corners::Position::from_text(&v, t).map_err(bad_position)?,
                None => corners::Position::start(&v),
            };
            let mut scene = Scene::corners(&pos).with_last_move(last, &[]);
            if let Some(s) = select {
                scene = scene.with_selection(s, pos.destinations(s));
            }
            scene
        }
        GameKind::Damas => {
            let pos = match &game.position {
                Some(t) => damas::Position::from_text(t, !game.short).map_err(bad_position)?,
                None => damas::Position::start(!game.short),
            };
            let ghosts = damas_ghosts(&pos, &last);
            let mut scene = Scene::damas(&pos).with_last_move(last, &ghosts);
            if let Some(s) = select {
                let dests = pos
                    .legal_moves()
                    .iter()
                    .filter(|m| m.from() == s)
                    .map(damas::Move::to)
                    .collect();
                scene = scene.with_selection(s, dests);
            }
            scene
        }
    };
    scene = scene.flipped(args.flip);
    if scene.header.to_move.is_none() {
        scene.header.to_move = Some(Color::White);
    }
    let options = args.width.map_or_else(Options::default, Options::for_width);
    let png = Renderer::new(options, &Theme::default()).render(&scene);
    std::fs::write(args.out, &png)
        .map_err(|e| CliError::Usage(format!("cannot write {}: {e}", args.out.display())))?;
    writeln!(io.out, "{}", args.out.display())?;
    Ok(0)
}
