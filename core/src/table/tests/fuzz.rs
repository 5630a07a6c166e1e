//! Random conversations: many users typing commands, moves (legal and not), garbage,
//! repeats, button presses (fresh and stale) and board delivery reports, with time jumping;
//! every reply renders, and afterwards every stored game replays to its stored state.

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
    /// A user presses one of the buttons the table has offered so far (maybe out of date).
    Press(usize, usize),
    /// The adapter reports a board that asked for it as delivered, some time after now.
    Deliver(usize, i64),
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
        3 => (0..USERS.len(), 0usize..64).prop_map(|(u, i)| Step::Press(u, i)),
        2 => (0usize..64, -2_000i64..30_000).prop_map(|(i, d)| Step::Deliver(i, d)),
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

/// What the table has handed out so far: buttons to press and boards to report delivered
/// (each list bounded, the oldest dropped).
#[derive(Default)]
struct Seen {
    actions: Vec<Action>,
    boards: Vec<(i64, i64)>,
}

const KEEP: usize = 64;

/// More games than any conversation can start (one per step at most).
const MAX_GAMES: i64 = 100;

impl Seen {
    /// Check replies and remember what they offer: every reply renders in its language,
    /// a private reply lives in no slot, and a reply with buttons or a clock names its game.
    fn note(&mut self, out: &[Outgoing]) {
        for o in out {
            let text = crate::words::try_render(&o.message, o.lang)
                .unwrap_or_else(|e| panic!("{:?} does not render: {e:?}", o.message));
            assert!(!text.trim().is_empty(), "{:?} renders empty", o.message);
            if o.audience == Audience::Sender {
                assert_eq!(o.slot, None, "{o:?}");
            }
            if let Some(ply) = o.ply {
                let game = o.game.expect("a board that starts a clock names its game");
                assert!(o.board().is_some(), "{o:?}");
                self.boards.push((game, ply));
            }
            for a in &o.actions {
                if let Some((game, ply)) = a.game() {
                    assert_eq!(o.game, Some(game), "{o:?}");
                    assert!(ply >= 0);
                }
                assert_eq!(Action::parse(&a.to_text()), Some(*a));
                self.actions.push(*a);
            }
        }
        if self.actions.len() > KEEP {
            self.actions.drain(..self.actions.len() - KEEP);
        }
        if self.boards.len() > KEEP {
            self.boards.drain(..self.boards.len() - KEEP);
        }
    }
}

async fn send(c: &Room, seen: &mut Seen, msg: &Incoming) -> Vec<Outgoing> {
    let out = c.table.handle(msg).await;
    seen.note(&out);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_conversations_never_corrupt_a_game(steps in prop::collection::vec(step(), 1..80)) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            let c = chat().await;
            let mut seen = Seen::default();
            let mut last: Option<Incoming> = None;
            for s in steps {
                match s {
                    Step::Game(a, b, t) => {
                        let text = format!("/challenge @{} {}", USERS[b], TERMS[t]);
                        send(&c, &mut seen, &c.incoming(USERS[a], &text)).await;
                        let msg = c.incoming(USERS[b], "/accept");
                        send(&c, &mut seen, &msg).await;
                        last = Some(msg);
                    }
                    Step::Say(u, l) => {
                        let msg = c.incoming(USERS[u], LINES[l]);
                        send(&c, &mut seen, &msg).await;
                        last = Some(msg);
                    }
                    Step::LegalMove(u) => {
                        // A legal move in one of the user's games, if it is their turn.
                        let me = c.player(USERS[u]).await;
                        for g in c.store.active_games_of(me.id).await.unwrap() {
                            let Some(live) = c.table.live(g.id).await.unwrap() else { continue };
                            if live.color_of(me.id) != Some(live.game.turn()) {
                                continue;
                            }
                            let legal = live.game.legal_move_texts();
                            if let Some(m) = legal.get(ms_pick(&legal, g.ply)) {
                                let msg = c.incoming(USERS[u], &format!("/move {} {m}", g.id));
                                send(&c, &mut seen, &msg).await;
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
                        let out = c.table.fire_due().await;
                        seen.note(&out);
                    }
                    Step::Press(u, i) => {
                        if seen.actions.is_empty() {
                            continue;
                        }
                        let action = seen.actions[i % seen.actions.len()];
                        let before = match action.game() {
                            Some((g, _)) => c.store.game(g).await.unwrap(),
                            None => None,
                        };
                        let msg = c.pressing(USERS[u], action);
                        let out = send(&c, &mut seen, &msg).await;
                        // A refused game button changes nothing.
                        if let (Some(before), [o]) = (before, out.as_slice()) {
                            if matches!(o.message, Msg::ButtonStale | Msg::ButtonNotYours) {
                                assert_eq!(o.audience, Audience::Sender);
                                assert_eq!(c.store.game(before.id).await.unwrap(), Some(before));
                            }
                        }
                        last = Some(msg);
                    }
                    Step::Deliver(i, delay) => {
                        if seen.boards.is_empty() {
                            continue;
                        }
                        let (game, ply) = seen.boards[i % seen.boards.len()];
                        let before = c.store.game(game).await.unwrap().unwrap();
                        c.table.delivered(game, ply, c.time.now_ms() + delay).await;
                        let after = c.store.game(game).await.unwrap().unwrap();
                        let credit = after.turn_started_at - before.turn_started_at;
                        assert!(
                            (0..=MAX_DELIVERY_CREDIT_MS).contains(&credit),
                            "game {game}: a delivery moved the clock by {credit} ms"
                        );
                        if credit > 0 {
                            assert_eq!((before.ply, before.status), (ply, GameStatus::Active));
                        }
                    }
                }
            }
            // Every game: its moves replay legally, the ply count matches, and an active
            // game has not ended by the rules.
            let mut games = 0;
            for id in 1..=MAX_GAMES {
                let Some(row) = c.store.game(id).await.unwrap() else { break };
                games += 1;
                let moves = c.moves(id).await;
                assert_eq!(moves.len() as i64, row.ply, "game {id}");
                let rules = row.rules.clone();
                let mut g = crate::game::Game::new(&rules);
                for m in &moves {
                    g.play_text(m).unwrap_or_else(|e| panic!("game {id}: stored move {m} does not replay: {e:?}"));
                }
                assert_ne!(row.white_id, row.black_id);
                if row.status == GameStatus::Active {
                    assert!(g.ending().is_none(), "an active game {id} has ended by the rules");
                } else {
                    let code = row.end_reason.as_deref().expect("an ended game has a cause");
                    assert!(EndCause::from_code(code).is_some(), "game {id}: cause {code}");
                }
            }
            assert!(games < MAX_GAMES, "more games than steps");
            // Chips are conserved: what is held in active games plus balances is 1000 each.
            let mut total = 0;
            let mut players = 0;
            for name in USERS {
                let p = c.player(name).await;
                total += c.store.chips(p.id).await.unwrap();
                players += 1;
            }
            let held: i64 = c.store.active_games().await.unwrap().iter().filter_map(|g| g.stake).map(|s| 2 * s).sum();
            assert_eq!(total + held, 1000 * players);
        });
    }
}
