//! Tournaments survive SIGKILL: a Swiss killed in the middle of a round and while its next
//! round is being paired, an arena killed while it starts and while it pairs players. Each
//! is played twice through `ugolki console` with the same game results, once with the kills
//! and once without; both must finish with the same standings, every pairing made once and
//! nobody ever in two of its games at once. Bounded: every wait has a time limit.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;
use ugolki_core::game::{Game, Rules};
use ugolki_core::store::Store;

mod support;
use support::{serve, temp_dir, Console, Transcript};

/// Long enough for a kill to fall inside a tournament's step.
const STEP_PAUSE_MS: u64 = 1500;

/// A game's announcement as the console prints it: (game, White, Black).
fn announced(line: &str) -> Option<(i64, String, String)> {
    let rest = line.strip_prefix("bot: Game #")?;
    let (id, rest) = rest.split_once(" of tournament #")?;
    let (_, rest) = rest.split_once(": ")?;
    let (white, rest) = rest.split_once(" (White) vs ")?;
    let (black, _) = rest.split_once(" (Black)")?;
    Some((id.parse().ok()?, white.into(), black.into()))
}

/// One run: a console on its own database, restarted as the script says.
struct Run {
    dir: PathBuf,
    transcript: Transcript,
    console: Option<Console>,
    games: BTreeMap<i64, (String, String)>,
    ended: BTreeSet<i64>,
}

impl Run {
    fn new(name: &str) -> Run {
        let dir = temp_dir(name);
        let mut run = Run {
            dir,
            transcript: Transcript::default(),
            console: None,
            games: BTreeMap::new(),
            ended: BTreeSet::new(),
        };
        run.start(false);
        run
    }

    fn db(&self) -> PathBuf {
        self.dir.join("t.db")
    }

    /// Start a console (with its tournament steps paused, to be killed in one).
    fn start(&mut self, paused: bool) {
        let (db, boards) = (self.db(), self.dir.join("boards"));
        let console = if paused {
            let mut c = Console::start_with(
                &db,
                &boards,
                &self.transcript,
                &[(
                    ugolki_bots::console::TOURNAMENT_STEP_PAUSE,
                    STEP_PAUSE_MS.to_string(),
                )],
            );
            c.send("carol: /chips");
            c.wait_for(&["carol has"]).expect("the console answers");
            c
        } else {
            serve(&db, &boards, &self.transcript).0
        };
        self.console = Some(console);
    }

    fn console(&mut self) -> &mut Console {
        self.console.as_mut().expect("a console")
    }

    /// Say `line` and wait for a line containing `answer`.
    fn say(&mut self, line: &str, answer: &str) {
        let c = self.console();
        c.send(line);
        assert!(
            c.wait_for(&[answer]).is_some(),
            "{line}: no {answer:?}; {:#?}",
            self.transcript
                .lock()
                .map(|t| t.clone())
                .unwrap_or_default()
        );
    }

    /// Say `line` and kill the console while what it set off is being worked out.
    fn say_and_kill_in_step(&mut self, line: &str) {
        let mut c = self.console.take().expect("a console");
        c.send(line);
        std::thread::sleep(Duration::from_millis(STEP_PAUSE_MS / 3));
        c.kill();
        std::thread::sleep(Duration::from_millis(300));
        self.start(false);
    }

    fn kill_and_restart(&mut self) {
        let c = self.console.take().expect("a console");
        c.kill();
        std::thread::sleep(Duration::from_millis(300));
        self.start(false);
    }

    /// Every game announced so far.
    fn scan(&mut self) {
        let lines = self
            .transcript
            .lock()
            .map(|t| t.clone())
            .unwrap_or_default();
        for l in &lines {
            if let Some((id, w, b)) = announced(l) {
                self.games.insert(id, (w, b));
            }
        }
    }

    fn over(&self) -> bool {
        self.transcript
            .lock()
            .is_ok_and(|t| t.iter().any(|l| l.contains("Tournament #1 is over")))
    }

    /// The first running game: announced, not ended by us.
    fn next_game(&mut self) -> Option<i64> {
        self.scan();
        self.games.keys().copied().find(|g| !self.ended.contains(g))
    }

    /// Game `id` to its end: White moves; an even game Black resigns, an odd one Black
    /// moves and White resigns. `kill` kills the console while the step its end sets off
    /// (the next pairing) is worked out.
    fn end(&mut self, id: i64, kill: bool) {
        let (white, black) = self.games[&id].clone();
        let mut game = Game::new(&Rules::from_id("classic3x3").expect("a variant"));
        let first = game.legal_move_texts()[0].clone();
        self.say(
            &format!("{white}: /move {id} {first}"),
            &format!("{white} played"),
        );
        game.play_text(&first).expect("legal");
        let resign = if id % 2 == 0 {
            format!("{black}: /resign {id}")
        } else {
            let second = game.legal_move_texts()[0].clone();
            self.say(
                &format!("{black}: /move {id} {second}"),
                &format!("{black} played"),
            );
            format!("{white}: /resign {id}")
        };
        if kill {
            // Killed in the step the ending sets off; its ending was committed before.
            let c = self.console.take().expect("a console");
            c.kill();
            self.start(true);
            self.say_and_kill_in_step(&resign);
        } else {
            self.say(&resign, &format!("Game #{id}: "));
        }
        self.ended.insert(id);
    }

    /// Let the timers fire (the console fires what is due after each line).
    fn tick(&mut self) {
        self.say("carol: /chips", "carol has");
    }

    /// Play every game as it comes until the tournament is over; `kill_at(n)` says
    /// whether to kill in the step the n-th ending sets off, `restart_at(n)` whether to
    /// kill the console after the n-th ending.
    fn play(&mut self, kill_at: impl Fn(usize) -> bool, restart_at: impl Fn(usize) -> bool) {
        for _ in 0..60 {
            if self.over() {
                return;
            }
            let Some(id) = self.next_game() else {
                // A step cut short is done again a few seconds later.
                std::thread::sleep(Duration::from_millis(250));
                self.tick();
                continue;
            };
            let n = self.ended.len() + 1;
            self.end(id, kill_at(n));
            if restart_at(n) {
                self.kill_and_restart();
            }
            // A killed step is done again by the next timer.
            self.tick();
        }
        let lines: Vec<String> = self
            .transcript
            .lock()
            .map(|t| t.clone())
            .unwrap_or_default()
            .into_iter()
            .filter(|l| l.starts_with("bot") && !l.contains("carol has") && !l.contains("[b"))
            .collect();
        panic!(
            "the tournament did not end: {:#?}",
            &lines[lines.len().saturating_sub(30)..]
        );
    }

    /// The final standings as kept, by name, and the games as stored; the console closed.
    fn finish(mut self) -> (Vec<(String, i64)>, Vec<ugolki_core::store::GameRow>) {
        if let Some(c) = self.console.take() {
            c.close();
        }
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        rt.block_on(async {
            let store = Store::connect(&format!("sqlite://{}", self.db().display()))
                .await
                .expect("the database opens");
            let t = store.tournament(1).await.unwrap().expect("tournament #1");
            let order: Vec<(i64, i64)> =
                serde_json::from_str(t.standings.as_deref().expect("kept")).expect("JSON");
            let mut named = Vec::new();
            for (player, score) in order {
                let p = store.player(player).await.unwrap().expect("a player");
                named.push((p.name, score));
            }
            let mut games = Vec::new();
            for p in store.pairings(1).await.unwrap() {
                if let Some(g) = p.game_id {
                    games.push(store.game(g).await.unwrap().expect("its game"));
                }
            }
            (named, games)
        })
    }
}

/// A tournament's run: its final standings (name, score) and its games.
type Ended = (Vec<(String, i64)>, Vec<ugolki_core::store::GameRow>);

/// Nobody was in two of the tournament's games at once.
fn one_game_at_a_time(games: &[ugolki_core::store::GameRow]) {
    let mut by_player: BTreeMap<i64, Vec<(i64, i64)>> = BTreeMap::new();
    for g in games {
        let span = (g.created_at, g.finished_at.expect("every game ended"));
        by_player.entry(g.white_id).or_default().push(span);
        by_player.entry(g.black_id).or_default().push(span);
    }
    for (p, mut spans) in by_player {
        spans.sort_unstable();
        for w in spans.windows(2) {
            assert!(
                w[1].0 >= w[0].1,
                "player {p} in two games at once: {spans:?}"
            );
        }
    }
}

fn swiss(kills: bool) -> Ended {
    let mut run = Run::new(if kills { "swiss-kills" } else { "swiss" });
    run.say(
        "host: /tournament swiss classic3x3 3+2 casual 3 rounds",
        "Swiss #1",
    );
    for p in ["p1", "p2", "p3", "p4"] {
        run.say(&format!("{p}: /join"), &format!("{p} joins"));
    }
    run.say("host: /tournament start", "starts with 4 players");
    // Two games a round: killed after the first of round 2 (mid-round), and while round
    // 3 is paired (the step the last ending of round 2 sets off).
    run.play(|n| kills && n == 4, |n| kills && n == 3);
    run.finish()
}

/// Tournament `run` played never killed, then with its kills: the same standings of four,
/// nobody ever in two games at once. The two runs' games (calm, killed).
fn ends_as_one_never_killed(
    run: fn(bool) -> Ended,
) -> (
    Vec<ugolki_core::store::GameRow>,
    Vec<ugolki_core::store::GameRow>,
) {
    let (calm, calm_games) = run(false);
    let (killed, games) = run(true);
    assert_eq!(calm.len(), 4);
    assert_eq!(killed, calm, "the same results, the same standings");
    one_game_at_a_time(&games);
    (calm_games, games)
}

#[test]
fn a_swiss_killed_mid_round_and_mid_pairing_ends_as_one_never_killed() {
    let (calm_games, games) = ends_as_one_never_killed(swiss);
    assert_eq!(games.len(), 6, "3 rounds of 2 games, each paired once");
    assert_eq!(calm_games.len(), 6);
}

fn arena(kills: bool) -> Ended {
    let mut run = Run::new(if kills { "arena-kills" } else { "arena" });
    run.say(
        "host: /tournament arena classic3x3 3+2 casual 10m",
        "Arena #1",
    );
    for p in ["q1", "q2", "q3", "q4"] {
        run.say(&format!("{p}: /join"), &format!("{p} joins"));
    }
    if kills {
        // Killed while it starts: its first pairing is not written; the next process's
        // timer starts it.
        let c = run.console.take().expect("a console");
        c.kill();
        run.start(true);
        run.say_and_kill_in_step("host: /tournament start");
        run.tick();
    } else {
        run.say("host: /tournament start", "starts with 4 players");
    }
    // Six endings, the fourth killed while its players are paired again; then its time is
    // up (set in the database while no process runs), and the games still running end.
    for _ in 0..80 {
        if run.ended.len() == 6 {
            break;
        }
        if let Some(id) = run.next_game() {
            let n = run.ended.len() + 1;
            run.end(id, kills && n == 4);
            run.tick();
        } else {
            std::thread::sleep(Duration::from_millis(250));
            run.tick();
        }
    }
    assert_eq!(run.ended.len(), 6, "six games ended");
    let c = run.console.take().expect("a console");
    c.close();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async {
        let url = format!("sqlite://{}", run.db().display());
        let mut conn = <sqlx::SqliteConnection as sqlx::Connection>::connect(&url)
            .await
            .expect("the database");
        sqlx::query("UPDATE tournaments SET ends_at = started_at WHERE id = 1")
            .execute(&mut conn)
            .await
            .expect("the arena's time is up");
    });
    run.start(false);
    run.play(|_| false, |_| false);
    run.finish()
}

#[test]
fn an_arena_killed_while_it_starts_and_while_it_pairs_ends_as_one_never_killed() {
    let (calm_games, games) = ends_as_one_never_killed(arena);
    assert_eq!(games.len(), calm_games.len(), "each pairing made once");
}
