//! Random conversations: many users typing commands, moves (legal and not), garbage and
//! repeats, with time jumping; afterwards every stored game replays to its stored state.

use super::*;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Step {
    /// A challenge from one user to another with some terms, and its acceptance.
    Game(usize, usize, usize),
    Say(usize, usize),
    LegalMove(usize),
    Repeat,
    Wait(i64),
}

const USERS: [&str; 4] = ["ann", "bob", "cy", "dee"];
const LINES: [&str; 22] = [
    "/challenge @bob",
    "/challenge @ann damas 1+0",
    "/challenge classic3x4 30s+1 black",
    "/challenge @cy damas rated stake 10 movetime 5s monitor",
    "/challenge @dee diagonal3x3 1d casual",
    "/accept",
    "/decline",
    "/cancel",
    "/resign",
    "/draw",
    "/nodraw",
    "/abort",
    "/claim",
    "/confirm",
    "/board",
    "/games",
    "/record 1",
    "/moves c3",
    "c3-d3",
    "11-15",
    "e6-e4-e2",
    "/move 99999999999999999999999 x",
];

const TERMS: [&str; 6] = [
    "",
    "damas 1+0",
    "classic3x4 30s+1 black",
    "damas rated stake 10 movetime 5s monitor",
    "diagonal3x3 1d casual",
    "halma16 none",
];

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        2 => (0..USERS.len(), 1..USERS.len(), 0..TERMS.len()).prop_map(|(a, d, t)| Step::Game(a, (a + d) % USERS.len(), t)),
        4 => (0..USERS.len(), 0..LINES.len()).prop_map(|(u, l)| Step::Say(u, l)),
        12 => (0..USERS.len()).prop_map(Step::LegalMove),
        1 => Just(Step::Repeat),
        1 => (1i64..400_000).prop_map(Step::Wait),
    ]
}

/// Vary which legal move is played without a random source in the step itself.
fn ms_pick(legal: &[String], ply: i64) -> usize {
    if legal.is_empty() {
        0
    } else {
        (ply as usize * 7 + 3) % legal.len()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_conversations_never_corrupt_a_game(steps in prop::collection::vec(step(), 1..80)) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            let c = chat().await;
            let mut last: Option<Incoming> = None;
            for s in steps {
                match s {
                    Step::Game(a, b, t) => {
                        let text = format!("/challenge @{} {}", USERS[b], TERMS[t]);
                        c.table.handle(&c.incoming(USERS[a], &text)).await;
                        let msg = c.incoming(USERS[b], "/accept");
                        c.table.handle(&msg).await;
                        last = Some(msg);
                    }
                    Step::Say(u, l) => {
                        let msg = c.incoming(USERS[u], LINES[l]);
                        c.table.handle(&msg).await;
                        last = Some(msg);
                    }
                    Step::LegalMove(u) => {
                        // A legal move in one of the user's games, if it is their turn.
                        let me = c.store.player_for("test", &user(USERS[u]), T0).await.unwrap();
                        for g in c.store.active_games_of(me.id).await.unwrap() {
                            let Some(live) = c.table.live(g.id).await.unwrap() else { continue };
                            if live.color_of(me.id) != Some(live.game.turn()) {
                                continue;
                            }
                            let legal = live.game.legal_move_texts();
                            if let Some(m) = legal.get(ms_pick(&legal, g.ply)) {
                                let msg = c.incoming(USERS[u], &format!("/move {} {m}", g.id));
                                c.table.handle(&msg).await;
                                last = Some(msg);
                            }
                            break;
                        }
                    }
                    Step::Repeat => {
                        if let Some(m) = &last {
                            assert!(c.table.handle(m).await.is_empty(), "a repeat is ignored");
                        }
                    }
                    Step::Wait(ms) => {
                        c.time.advance(ms);
                        c.table.fire_due().await;
                    }
                }
            }
            // Every game: its moves replay legally, the ply count matches, and an active
            // game's stored clocks are sane.
            let mut id = 1;
            while let Some(row) = c.store.game(id).await.unwrap() {
                let moves = c.store.moves(id).await.unwrap();
                assert_eq!(moves.len() as i64, row.ply, "game {id}");
                let rules = crate::game::Rules::from_id(&row.rules).unwrap();
                let mut g = crate::game::Game::new(&rules);
                for m in &moves {
                    g.play_text(m).unwrap_or_else(|e| panic!("game {id}: stored move {m} does not replay: {e}"));
                }
                assert_ne!(row.white_id, row.black_id);
                if row.status == "active" {
                    assert!(g.ending().is_none(), "an active game {id} has ended by the rules");
                }
                id += 1;
            }
            // Chips are conserved: what is held in active games plus balances is 1000 each.
            let mut total = 0;
            let mut players = 0;
            for name in USERS {
                let p = c.store.player_for("test", &user(name), T0).await.unwrap();
                total += c.store.chips(p.id).await.unwrap();
                players += 1;
            }
            let held: i64 = c.store.active_games().await.unwrap().iter().filter_map(|g| g.stake).map(|s| 2 * s).sum();
            assert_eq!(total + held, 1000 * players);
        });
    }
}
