//! The engine on the command line: `bestmove` (the engine's move in a position) and
//! `selfplay` (two players — levels, budgets, a random or a greedy mover — over many games,
//! and the score).

use super::rules_cmd::game;
use super::{CliError, GameArgs, Io};
use ugolki_core::color::Color;
use ugolki_core::engine::{self, Budget, Level, Settings};
use ugolki_core::game::Game;

/// Who plays in `selfplay`, as typed: `1`–`5`, `random`, `greedy`, `ms:T`, `nodes:N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Level(Level),
    /// The full search for this many milliseconds a move.
    Millis(u64),
    /// The full search with at most this many positions a move (reproducible).
    Nodes(u64),
    /// A uniformly random legal move.
    Random,
    /// One ply, the move that scores best right after it ("advance the most").
    Greedy,
}

/// Read a `selfplay` player.
pub fn player(text: &str) -> Result<Player, String> {
    let t = text.trim().to_ascii_lowercase();
    if let Some(ms) = t.strip_prefix("ms:") {
        return ms
            .parse()
            .ok()
            .filter(|m| (1..=60_000).contains(m))
            .map(Player::Millis)
            .ok_or_else(|| format!("ms:T takes 1 to 60000 ms, not {ms}"));
    }
    if let Some(n) = t.strip_prefix("nodes:") {
        return n
            .parse()
            .ok()
            .filter(|n| (1..=1_000_000_000).contains(n))
            .map(Player::Nodes)
            .ok_or_else(|| format!("nodes:N takes 1 to 1000000000, not {n}"));
    }
    match t.as_str() {
        "random" => Ok(Player::Random),
        "greedy" => Ok(Player::Greedy),
        n => n
            .parse::<u8>()
            .ok()
            .and_then(Level::new)
            .map(Player::Level)
            .ok_or_else(|| {
                format!("a player is 1 to 5, random, greedy, ms:T or nodes:N, not {text}")
            }),
    }
}

impl Player {
    fn settings(self, seed: u64, level5_ms: Option<u64>) -> Settings {
        match self {
            Player::Level(l) => {
                let mut s = l.settings(seed);
                if let (Some(ms), Some(_)) = (level5_ms, s.budget.millis) {
                    s.budget.millis = Some(ms);
                }
                s
            }
            Player::Millis(ms) => Settings::timed(ms),
            Player::Nodes(n) => Settings::nodes(n),
            Player::Random => Settings {
                budget: Budget {
                    depth: 1,
                    nodes: u64::MAX,
                    millis: None,
                },
                slack: i32::MAX / 4,
                seed,
            },
            Player::Greedy => Settings {
                budget: Budget {
                    depth: 1,
                    nodes: u64::MAX,
                    millis: None,
                },
                slack: 0,
                seed,
            },
        }
    }

    fn name(self) -> String {
        match self {
            Player::Level(l) => format!("level {}", l.number()),
            Player::Millis(ms) => format!("{ms} ms"),
            Player::Nodes(n) => format!("{n} nodes"),
            Player::Random => "random".into(),
            Player::Greedy => "greedy".into(),
        }
    }
}

/// `ugolki bestmove`: the engine's move, in notation, on stdout; its depth, nodes, time
/// and score on stderr.
pub fn bestmove(
    io: &mut Io,
    args: &GameArgs,
    level: Option<u8>,
    ms: Option<u64>,
) -> Result<u8, CliError> {
    let g = game(args)?;
    let settings = match (level, ms) {
        (Some(_), Some(_)) => return Err(CliError::Usage("give --level or --ms, not both".into())),
        (Some(n), None) => Level::new(n)
            .ok_or_else(|| CliError::Usage(format!("--level is 1 to 5, not {n}")))?
            .settings(0),
        (None, Some(ms)) if (1..=600_000).contains(&ms) => Settings::timed(ms),
        (None, Some(ms)) => return Err(CliError::Usage(format!("--ms is 1 to 600000, not {ms}"))),
        (None, None) => Level::STRONGEST.settings(0),
    };
    let Some(choice) = engine::choose(&g, settings) else {
        return Err(CliError::Usage(
            "the game is over: there is no move to make".into(),
        ));
    };
    writeln!(io.out, "{}", choice.text)?;
    let s = choice.stats;
    let nps = s.nodes * 1000 / s.millis.max(1);
    writeln!(
        io.err,
        "depth {} nodes {} time {} ms nps {} score {}",
        s.depth, s.nodes, s.millis, nps, choice.score
    )?;
    Ok(0)
}

/// One finished game: the winner (None: a draw).
fn play_one(
    start: &Game,
    white: Player,
    black: Player,
    seed: u64,
    level5_ms: Option<u64>,
) -> Option<Color> {
    // The same few random plies open the two games of a pair (one with each colour), so
    // deterministic players do not play one game a hundred times.
    let mut g = opening(start, seed / 2);
    // Corners ends by its own limits (C7); Damas by repetition or the pieces. This bound
    // only stops a game that somehow goes on.
    for ply in 0..2_000u64 {
        if let Some(e) = g.ending() {
            return e.winner;
        }
        let who = if g.turn() == Color::White {
            white
        } else {
            black
        };
        let s = who.settings(engine::splitmix(seed ^ (ply << 32)), level5_ms);
        let Some(c) = engine::choose(&g, s) else {
            return g.ending().and_then(|e| e.winner);
        };
        if g.play_text(&c.text).is_err() {
            // Never happens (the engine plays legal moves); a loss for the side that tried.
            return Some(g.turn().opponent());
        }
    }
    None
}

/// Random plies that open a selfplay game.
const OPENING_PLIES: u64 = 2;

/// `start` after [`OPENING_PLIES`] random legal moves drawn from `seed`.
fn opening(start: &Game, seed: u64) -> Game {
    let mut g = start.clone();
    let mut s = seed;
    for _ in 0..OPENING_PLIES {
        let moves = g.legal_move_texts();
        if moves.is_empty() || g.ending().is_some() {
            break;
        }
        s = engine::splitmix(s);
        let i = usize::try_from(s % moves.len() as u64).unwrap_or(0);
        if g.play_text(&moves[i]).is_err() {
            break;
        }
    }
    g
}

/// The tally of one side of a match.
#[derive(Default, Clone, Copy)]
struct Tally {
    won: u32,
    drawn: u32,
    lost: u32,
}

impl Tally {
    fn add(&mut self, r: Option<Color>, me: Color) {
        match r {
            Some(c) if c == me => self.won += 1,
            Some(_) => self.lost += 1,
            None => self.drawn += 1,
        }
    }

    fn points(self) -> f64 {
        f64::from(self.won) + f64::from(self.drawn) / 2.0
    }

    fn games(self) -> u32 {
        self.won + self.drawn + self.lost
    }
}

/// `ugolki selfplay`: `a` against `b`, `games` games with each colour, on two threads.
pub fn selfplay(
    io: &mut Io,
    args: &GameArgs,
    a: Player,
    b: Player,
    games: u32,
    level5_ms: Option<u64>,
) -> Result<u8, CliError> {
    if !(1..=10_000).contains(&games) {
        return Err(CliError::Usage(format!(
            "--games is 1 to 10000, not {games}"
        )));
    }
    let start = game(args)?;
    if start.ending().is_some() {
        return Err(CliError::Usage("the game is over before it starts".into()));
    }
    // Game i: `a` is White when i is even. Each game has a seed of its own.
    let jobs: Vec<u32> = (0..games * 2).collect();
    let results: Vec<(u32, Option<Color>)> = std::thread::scope(|scope| {
        let halves: Vec<_> = jobs
            .chunks(jobs.len().div_ceil(2))
            .map(|chunk| {
                let start = &start;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|&i| {
                            let (w, bl) = if i % 2 == 0 { (a, b) } else { (b, a) };
                            (i, play_one(start, w, bl, u64::from(i), level5_ms))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let (mut as_white, mut as_black) = (Tally::default(), Tally::default());
    for (i, r) in results {
        if i % 2 == 0 {
            as_white.add(r, Color::White);
        } else {
            as_black.add(r, Color::Black);
        }
    }
    let line = |io: &mut Io, label: &str, t: Tally| -> std::io::Result<()> {
        writeln!(
            io.out,
            "{label}: {} games, {} won, {} drawn, {} lost, {:.1}%",
            t.games(),
            t.won,
            t.drawn,
            t.lost,
            100.0 * t.points() / f64::from(t.games().max(1))
        )
    };
    writeln!(io.out, "{} against {}", a.name(), b.name())?;
    line(io, "as White", as_white)?;
    line(io, "as Black", as_black)?;
    let all = Tally {
        won: as_white.won + as_black.won,
        drawn: as_white.drawn + as_black.drawn,
        lost: as_white.lost + as_black.lost,
    };
    line(io, "total", all)?;
    Ok(0)
}

/// `ugolki gif`: the replay of `moves` from the position as an animated GIF at `out`; the
/// path on stdout, frames and size on stderr. An illegal move stops it like `replay` does.
pub fn gif(
    io: &mut Io,
    args: &GameArgs,
    moves: &[String],
    out: &std::path::Path,
) -> Result<u8, CliError> {
    use ugolki_core::view::BoardView;
    let mut g = game(args)?;
    let frame = |g: &Game| {
        // One header for the whole replay: only the board changes between frames.
        let mut v = BoardView::of_game(g);
        v.to_move = None;
        ugolki_render::Scene::from_view(&v)
    };
    let mut scenes = vec![frame(&g)];
    for (i, text) in moves.iter().enumerate() {
        if let Err(e) = g.play_text(text) {
            let reason = ugolki_core::words::english(&ugolki_core::words::refusal(&e.kind));
            writeln!(io.err, "illegal move {}: {}: {}", i + 1, text, reason)?;
            return Ok(1);
        }
        scenes.push(frame(&g));
    }
    let bytes = ugolki_render::Renderer::for_replays()
        .animate(&scenes)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    std::fs::write(out, &bytes)?;
    writeln!(io.out, "{}", out.display())?;
    writeln!(io.err, "{} frames, {} bytes", scenes.len(), bytes.len())?;
    Ok(0)
}
