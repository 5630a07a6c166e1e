//! The table through `Table::handle`, on an in-memory database and a fake clock.

use super::*;
use crate::store::{NewChallenge, NewGame};

const T0: i64 = 1_767_225_600_000; // 2026-01-01 00:00 UTC
const MIN: i64 = 60_000;

struct Room {
    table: Table,
    time: FakeTime,
    store: Store,
    next_id: std::sync::atomic::AtomicU64,
    chat: String,
}

async fn chat() -> Room {
    let store = Store::connect("sqlite::memory:").await.unwrap();
    let time = FakeTime::at(T0);
    let table = Table::open(store.clone(), Arc::new(time.clone()), Config::default())
        .await
        .unwrap();
    Room {
        table,
        time,
        store,
        next_id: std::sync::atomic::AtomicU64::new(1),
        chat: "room".into(),
    }
}

fn user(name: &str) -> User {
    User {
        id: format!("id-{}", name.to_lowercase()),
        name: name.to_string(),
        handle: Some(name.to_lowercase()),
    }
}

impl Room {
    fn incoming(&self, who: &str, text: &str) -> Incoming {
        let n = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Incoming {
            platform: "test".into(),
            chat: self.chat.clone(),
            user: user(who),
            message_id: format!("m{n}"),
            text: text.to_string(),
            mentions: text
                .split_whitespace()
                .filter_map(|w| w.strip_prefix('@'))
                .map(|w| Mention::User(user(w)))
                .collect(),
        }
    }

    async fn say(&self, who: &str, text: &str) -> Vec<Outgoing> {
        self.table.handle(&self.incoming(who, text)).await
    }

    /// The texts of the replies, joined.
    async fn says(&self, who: &str, text: &str) -> String {
        self.say(who, text)
            .await
            .iter()
            .map(|o| o.text.clone())
            .collect::<Vec<_>>()
            .join("\n")
    }

    async fn reopen(self) -> Room {
        let Room {
            store,
            time,
            chat,
            next_id,
            ..
        } = self;
        let table = Table::open(store.clone(), Arc::new(time.clone()), Config::default())
            .await
            .unwrap();
        Room {
            table,
            time,
            store,
            next_id,
            chat,
        }
    }

    /// A game between alice (White) and bob (Black) from a position, as a test shortcut.
    async fn game_from(&self, rules: &str, position: &str, tc: &str) -> i64 {
        let a = self
            .store
            .player_for("test", &user("alice"), T0)
            .await
            .unwrap();
        let b = self
            .store
            .player_for("test", &user("bob"), T0)
            .await
            .unwrap();
        let now = self.time.now_ms();
        let c = self
            .store
            .create_challenge(&NewChallenge {
                platform: "test".into(),
                chat: self.chat.clone(),
                challenger_id: a.id,
                target_id: Some(b.id),
                target_handle: None,
                rules: rules.into(),
                time_control: tc.into(),
                rated: false,
                color: "white".into(),
                movetime_ms: None,
                monitor: false,
                stake: None,
                created_at: now,
                expires_at: now + MIN,
            })
            .await
            .unwrap();
        let bank = match crate::clock::TimeControl::parse(tc).unwrap() {
            crate::clock::TimeControl::Fischer { base_ms, .. } => base_ms,
            _ => 0,
        };
        let g = self
            .store
            .accept_challenge(
                c.id,
                &NewGame {
                    rules: rules.into(),
                    start_position: Some(position.into()),
                    white_id: a.id,
                    black_id: b.id,
                    rated: false,
                    stake: None,
                    time_control: tc.into(),
                    bank_ms: bank,
                    movetime_ms: None,
                    monitor: false,
                    now,
                },
            )
            .await
            .unwrap();
        match g {
            crate::store::Accepted::Started(g) => g.id,
            other => panic!("{other:?}"),
        }
    }

    async fn status(&self, id: i64) -> (String, Option<String>, Option<String>) {
        let g = self.store.game(id).await.unwrap().unwrap();
        (g.status, g.result, g.end_rule)
    }

    /// alice challenges bob with `terms` and bob accepts; alice is White. Returns the game id.
    async fn start(&self, terms: &str) -> i64 {
        let out = self
            .says("alice", &format!("/challenge @bob {terms} white"))
            .await;
        assert!(out.contains("challenge #"), "{out}");
        let out = self.say("bob", "/accept").await;
        assert!(out[0].text.starts_with("Game #"), "{}", out[0].text);
        assert!(out[0].board.is_some());
        let games = self.store.active_games().await.unwrap();
        games.last().unwrap().id
    }
}

// ---- Challenges ----

#[tokio::test]
async fn challenge_accept_and_first_move_with_board() {
    let c = chat().await;
    let id = c.start("classic3x4 3+2").await;
    let out = c.say("alice", "d3-e3").await;
    assert_eq!(out.len(), 1);
    assert!(out[0].text.starts_with("alice played d3-e3. Move 1 · alice 3:02 · bob 3:00 · leave home by 40 · limit 80 · bob to move"), "{}", out[0].text);
    let board = out[0].board.as_ref().unwrap();
    assert!(board.flip, "oriented for Black, who moves next");
    assert_eq!(board.last_path.len(), 2);
    assert_eq!(c.store.moves(id).await.unwrap(), ["d3-e3"]);
}

#[tokio::test]
async fn challenge_expires_and_cannot_be_accepted_after() {
    let c = chat().await;
    c.says("alice", "/challenge @bob").await;
    c.time.advance(10 * MIN - 1);
    assert!(c.table.fire_due().await.is_empty());
    c.time.advance(1);
    let out = c.table.fire_due().await;
    assert_eq!(out[0].text, "alice's challenge #1 expired.");
    assert_eq!(
        c.says("bob", "/accept").await,
        "There is no open challenge for you here."
    );
}

#[tokio::test]
async fn open_challenges_are_for_anyone_but_the_challenger() {
    let c = chat().await;
    let out = c.says("alice", "/challenge damas 5+3").await;
    assert!(out.contains("to anyone here"), "{out}");
    assert_eq!(
        c.says("alice", "/accept").await,
        "That is your own challenge; /cancel it if you changed your mind."
    );
    let out = c.says("carol", "/accept").await;
    assert!(out.contains("carol"), "{out}");
    assert_eq!(
        c.says("dave", "/accept").await,
        "There is no open challenge for you here."
    );
}

#[tokio::test]
async fn challenges_refuse_self_and_crowds_and_nonsense() {
    let c = chat().await;
    assert_eq!(
        c.says("alice", "/challenge @alice").await,
        "You cannot play against yourself."
    );
    assert_eq!(
        c.says("alice", "/challenge @bob @carol").await,
        "Challenge one player at a time."
    );
    assert_eq!(
        c.says("alice", "/challenge @bob blitz").await,
        "I don't understand 'blitz' in the challenge (see /help)"
    );
    assert_eq!(
        c.says("carol", "/decline 99").await,
        "There is no open challenge #99 here."
    );
    c.says("alice", "/challenge @bob").await;
    assert_eq!(
        c.says("carol", "/accept 1").await,
        "Challenge #1 is for someone else."
    );
    assert_eq!(
        c.says("carol", "/decline 1").await,
        "Only the challenged player can decline; the challenger can /cancel."
    );
    assert_eq!(
        c.says("bob", "/decline").await,
        "bob declined alice's challenge #1."
    );
    c.says("alice", "/challenge @bob").await;
    assert_eq!(
        c.says("bob", "/cancel").await,
        "You have no open challenge here."
    );
    assert_eq!(c.says("alice", "/cancel").await, "Challenge #2 cancelled.");
    assert!(c.store.active_games().await.unwrap().is_empty());
}

// ---- Moves ----

#[tokio::test]
async fn only_players_move_in_turn_and_bad_moves_get_a_reason() {
    let c = chat().await;
    let id = c.start("").await;
    assert_eq!(c.says("bob", "f6-e6").await, "Not your turn.");
    assert_eq!(
        c.says("carol", "c3-d3").await,
        "",
        "a bystander's move-shaped text is not for us"
    );
    assert_eq!(
        c.says("carol", &format!("/move {id} c3-d3")).await,
        format!("You are not playing in game #{id}.")
    );
    assert_eq!(
        c.says("alice", "c3-e5").await,
        "c3-e5: the piece on c3 cannot reach e5"
    );
    assert_eq!(c.says("alice", "a1-b1").await, "a1-b1: b1 is occupied");
    assert_eq!(c.says("alice", "hello there").await, "");
    assert_eq!(
        c.says("alice", &format!("/move {} c3-d3", id + 5)).await,
        format!("There is no game #{} in this chat.", id + 5)
    );
    assert!(
        c.store.moves(id).await.unwrap().is_empty(),
        "nothing was played"
    );
    assert!(!c.says("alice", "c3 d3").await.is_empty());
    assert_eq!(c.store.moves(id).await.unwrap(), ["c3-d3"]);
}

#[tokio::test]
async fn a_repeated_message_is_handled_once() {
    let c = chat().await;
    let id = c.start("").await;
    let msg = c.incoming("alice", "c3-d3");
    assert_eq!(c.table.handle(&msg).await.len(), 1);
    assert!(c.table.handle(&msg).await.is_empty());
    assert_eq!(c.store.moves(id).await.unwrap().len(), 1);
}

#[tokio::test]
async fn two_games_at_once_in_one_chat() {
    let c = chat().await;
    let g1 = c.start("").await;
    c.says("alice", "/challenge @carol white").await;
    c.says("carol", "/accept").await;
    let g2 = c.store.active_games().await.unwrap().last().unwrap().id;
    assert_eq!(
        c.says("alice", "c3-d3").await,
        format!("You have several games here (#{g1}, #{g2}); say which, e.g. /move {g1} c3-d4.")
    );
    assert!(c
        .says("alice", &format!("/move {g2} c3-d3"))
        .await
        .contains("alice played c3-d3"));
    assert!(c
        .says("carol", "f6-e6")
        .await
        .contains("carol played f6-e6"));
    assert!(c
        .says("alice", &format!("/move {g1} b3-b4"))
        .await
        .contains("alice played b3-b4"));
    assert!(c.says("bob", "f6-f5").await.contains("bob played f6-f5"));
    assert_eq!(c.store.moves(g1).await.unwrap(), ["b3-b4", "f6-f5"]);
    assert_eq!(c.store.moves(g2).await.unwrap(), ["c3-d3", "f6-e6"]);
    let games = c.says("alice", "/games").await;
    assert_eq!(games.lines().count(), 2, "{games}");
}

#[tokio::test]
async fn concurrent_messages_for_one_game_never_apply_twice() {
    let c = chat().await;
    let id = c.start("").await;
    // Two different texts for the same move, sent at once: exactly one is played.
    let a = c.incoming("alice", "c3-d3");
    let b = c.incoming("alice", "c3 d3");
    let (ra, rb) = tokio::join!(c.table.handle(&a), c.table.handle(&b));
    let played = [ra, rb]
        .iter()
        .filter(|r| r.iter().any(|o| o.text.contains("played")))
        .count();
    assert_eq!(played, 1);
    assert_eq!(c.store.moves(id).await.unwrap().len(), 1);
}

// ---- Ends of games ----

#[tokio::test]
async fn corners_completion_black_first_wins() {
    let c = chat().await;
    let id = c
        .game_from(
            "classic3x3",
            "5www/5www/4w1ww/8/7b/bb1b4/bbb5/bbb5 w 30",
            "none",
        )
        .await;
    c.says("alice", "e6-e5").await;
    let out = c.says("bob", "d3-c3").await;
    assert!(
        out.contains(&format!(
            "Game #{id} over: bob (Black) wins — completed target (C5)."
        )),
        "{out}"
    );
    assert_eq!(
        c.status(id).await,
        ("finished".into(), Some("black".into()), Some("C5".into()))
    );
    assert_eq!(
        c.says("alice", "e5-e4").await,
        "",
        "no game of alice's is running here"
    );
    assert_eq!(
        c.says("alice", &format!("/move {id} e5-e4")).await,
        format!("Game #{id} is over.")
    );
}

#[tokio::test]
async fn corners_black_has_the_last_move_draw_and_white_win() {
    let c = chat().await;
    let id = c
        .game_from(
            "classic3x3",
            "5www/5www/4w1ww/8/7b/bb1b4/bbb5/bbb5 w 30",
            "none",
        )
        .await;
    let out = c.says("alice", "e6-f6").await;
    assert!(
        out.contains("bob to move"),
        "Black still plays move 30: {out}"
    );
    let out = c.says("bob", "d3-c3").await;
    assert!(
        out.contains("draw — both completed target on move 30 (C5)"),
        "{out}"
    );
    let id2 = c
        .game_from(
            "classic3x3",
            "5www/5www/4w1ww/8/7b/bb1b4/bbb5/bbb5 w 30",
            "none",
        )
        .await;
    assert_ne!(id, id2);
    // alice now has one game: the first is over.
    c.says("alice", "e6-f6").await;
    let out = c.says("bob", "h4-h3").await;
    assert!(
        out.contains("alice (White) wins — completed target (C5)"),
        "{out}"
    );
}

#[tokio::test]
async fn corners_deadline_limit_and_no_moves() {
    let c = chat().await;
    let id = c
        .game_from("classic3x3", "8/8/8/3bb3/3w4/8/8/w7 b 40", "none")
        .await;
    let out = c.says("bob", "e5-e6").await;
    assert!(
        out.contains(&format!(
            "Game #{id} over: bob (Black) wins — white left home late (C6)."
        )),
        "{out}"
    );
    c.game_from("classic3x3", "8/8/5ww1/8/3b4/8/8/b7 b 80", "none")
        .await;
    let out = c.says("bob", "d4-d5").await;
    assert!(
        out.contains("alice (White) wins — move limit, 2 to 1 in target (C7)"),
        "{out}"
    );
    c.game_from("diagonal3x3", "5wwb/6ww/7w/4w3/8/8/8/8 w 10", "none")
        .await;
    let out = c.says("alice", "e5-f6").await;
    assert!(out.contains("draw — black has no legal move (C7)"), "{out}");
}

#[tokio::test]
async fn corners_losing_return_home_asks_for_confirmation() {
    let c = chat().await;
    let id = c
        .game_from("classic3x3", "8/8/4b3/4w3/8/1b6/2bw4/8 w 41", "none")
        .await;
    let out = c.says("alice", "d2-b2").await;
    assert_eq!(out, "d2-b2 ends in your own home after move 40, which loses the game at once (rule C6). Type /confirm to play it anyway.");
    assert!(c.store.moves(id).await.unwrap().is_empty());
    assert_eq!(
        c.says("bob", "/confirm").await,
        "There is no move waiting for /confirm."
    );
    let out = c.says("alice", "/confirm").await;
    assert!(
        out.contains("bob (Black) wins — white returned home after the deadline (C6)"),
        "{out}"
    );
}

#[tokio::test]
async fn corners_threefold_repetition_through_the_table() {
    let c = chat().await;
    let id = c.start("").await;
    for (who, m) in [
        ("alice", "c3-d3"),
        ("bob", "f6-e6"),
        ("alice", "d3-c3"),
        ("bob", "e6-f6"),
    ]
    .repeat(2)
    {
        c.says(who, m).await;
    }
    assert_eq!(
        c.status(id).await,
        ("finished".into(), Some("draw".into()), Some("C7".into()))
    );
}

#[tokio::test]
async fn flag_falls_when_time_runs_out_even_if_nobody_types() {
    let c = chat().await;
    let id = c.start("1+0").await;
    c.says("alice", "c3-d3").await;
    // Black's minute runs from alice's move.
    assert_eq!(c.table.next_deadline(), Some(T0 + MIN));
    c.time.advance(MIN - 1);
    assert!(c.table.fire_due().await.is_empty());
    c.time.advance(1);
    let out = c.table.fire_due().await;
    assert_eq!(
        out[0].text,
        format!("Game #{id}: bob ran out of time — alice wins (T1). Ratings: alice 1015 (+15), bob 985 (−15).")
    );
    assert!(out[0].board.is_some());
    assert_eq!(
        c.status(id).await,
        ("finished".into(), Some("white".into()), Some("T1".into()))
    );
}

#[tokio::test]
async fn a_move_racing_its_own_flag_loses() {
    let c = chat().await;
    let id = c.start("1+0").await;
    c.time.advance(MIN);
    // The timer has not fired yet, but the move comes too late.
    let out = c.says("alice", "c3-d3").await;
    assert_eq!(
        out,
        format!("Game #{id}: alice ran out of time — bob wins (T1). Ratings: alice 985 (−15), bob 1015 (+15).")
    );
    assert!(c.store.moves(id).await.unwrap().is_empty());
    assert!(
        c.table.fire_due().await.is_empty(),
        "the flag is announced once"
    );
}

#[tokio::test]
async fn fischer_increment_is_added_after_the_own_move() {
    let c = chat().await;
    let id = c.start("1+5").await;
    c.time.advance(10_000);
    c.says("alice", "c3-d3").await;
    let g = c.store.game(id).await.unwrap().unwrap();
    assert_eq!((g.white_ms, g.black_ms), (55_000, 60_000));
}

#[tokio::test]
async fn correspondence_reminds_then_flags() {
    let c = chat().await;
    let id = c.start("1d").await;
    c.time.advance(18 * 60 * MIN);
    let out = c.table.fire_due().await;
    assert_eq!(
        out[0].text,
        format!("alice, it is your move in game #{id}: 6:00:00 left.")
    );
    assert!(c.table.fire_due().await.is_empty(), "one reminder");
    c.time.advance(6 * 60 * MIN);
    let out = c.table.fire_due().await;
    assert!(
        out[0]
            .text
            .contains("alice ran out of time — bob wins (T1)"),
        "{}",
        out[0].text
    );
}

#[tokio::test]
async fn resign_draw_and_abort() {
    let c = chat().await;
    let id = c.start("").await;
    assert_eq!(
        c.says("alice", "/abort").await,
        format!("Game #{id} aborted by alice; it does not count.")
    );
    assert_eq!(c.status(id).await.1, Some("void".into()));

    let id = c.start("").await;
    c.says("alice", "c3-d3").await;
    c.says("bob", "f6-e6").await;
    assert_eq!(
        c.says("bob", "/abort").await,
        "Too late to abort: both sides have moved. You can /resign or offer a /draw."
    );
    assert_eq!(
        c.says("alice", "/draw").await,
        "alice offers a draw. bob: /draw to accept, /nodraw to decline."
    );
    assert_eq!(
        c.says("alice", "/draw").await,
        "You have already offered a draw."
    );
    assert_eq!(c.says("bob", "/nodraw").await, "bob declined the draw.");
    c.says("alice", "/draw").await;
    // A move by bob declines it too; alice's own move leaves her offer standing.
    assert!(!c.says("alice", "b3-b4").await.contains("declined"));
    assert!(c
        .says("bob", "e6-e5")
        .await
        .contains("The draw offer is declined."));
    c.says("bob", "/draw").await;
    assert_eq!(
        c.says("alice", "/draw").await,
        format!("Game #{id}: draw agreed (T2). Ratings: alice 1000 (±0), bob 1000 (±0).")
    );
    assert_eq!(c.status(id).await.1, Some("draw".into()));

    let id = c.start("").await;
    assert_eq!(
        c.says("bob", "/resign").await,
        format!(
            "Game #{id}: bob resigned — alice wins (T2). Ratings: alice 1015 (+15), bob 985 (−15)."
        )
    );
    assert_eq!(
        c.status(id).await,
        ("finished".into(), Some("white".into()), Some("T2".into()))
    );
}

#[tokio::test]
async fn damas_game_to_the_end_and_records() {
    let c = chat().await;
    let id = c.start("damas").await;
    for (who, m) in [("alice", "11-15"), ("bob", "22-19")] {
        assert!(c.says(who, m).await.contains("played"));
    }
    // Taking is compulsory.
    assert_eq!(
        c.says("alice", "9-13").await,
        "9-13: a capture is compulsory"
    );
    let out = c.say("alice", "15x22").await;
    assert_eq!(
        out[0].board.as_ref().unwrap().taken.len(),
        1,
        "the taken piece is shown"
    );
    let rec = c.says("alice", &format!("/record {id}")).await;
    assert_eq!(
        rec,
        format!("Game #{id}, alice – bob, Damas (flying kings): 1. d3-c4 e6-d5 2. c4xe6")
    );
    let id2 = c.game_from("damas", "W:W12:B15", "none").await;
    let out = c.says("alice", &format!("/move {id2} b3xd5")).await;
    assert!(
        out.contains("alice (White) wins — black has no pieces left (D5)"),
        "{out}"
    );
}

#[tokio::test]
async fn damas_movetime_plays_for_the_idle_player_and_monitor_claims() {
    let c = chat().await;
    let id = c.start("damas movetime 30s monitor").await;
    c.time.advance(30_000);
    let out = c.table.fire_due().await;
    assert!(
        out[0].text.starts_with(&format!(
            "Game #{id}: alice's move time ran out, so the table played"
        )),
        "{}",
        out[0].text
    );
    assert_eq!(c.store.moves(id).await.unwrap().len(), 1);
    // bob idles; alice may claim after the idle limit (3 min) — before 10 moves: annulled.
    c.time.advance(20_000);
    assert_eq!(
        c.says("bob", "/claim").await,
        "It is your move; you can claim only while your opponent keeps you waiting."
    );
    assert_eq!(
        c.says("alice", "/claim").await,
        "bob has been idle for 0:20; you can claim after 3:00."
    );
}

#[tokio::test]
async fn monitor_claim_after_the_idle_limit() {
    let c = chat().await;
    let id = c.start("damas monitor").await;
    c.says("alice", "11-15").await;
    c.time.advance(3 * MIN);
    let out = c.table.fire_due().await;
    assert_eq!(
        out[0].text,
        format!("Game #{id}: bob has been idle for 3:00. alice may /claim the game (D6).")
    );
    assert!(c.table.fire_due().await.is_empty(), "said once a turn");
    assert_eq!(c.says("alice", "/claim").await, format!("Game #{id}: bob abandoned the game after 10 moves or fewer — the game is annulled (D6)."));
    assert_eq!(c.status(id).await.1, Some("void".into()));
}

#[tokio::test]
async fn boards_moves_help_and_rules() {
    let c = chat().await;
    c.start("").await;
    let out = c.say("alice", "/moves c3").await;
    assert_eq!(out[0].text, "c3 can go to d3, c4.");
    let b = out[0].board.as_ref().unwrap();
    assert_eq!(b.destinations.len(), 2);
    assert!(c
        .says("alice", "/moves a1")
        .await
        .contains("Nothing can move from a1"));
    assert_eq!(c.says("alice", "/moves zz").await, "'zz' is not a square.");
    let out = c.say("bob", "/board").await;
    assert!(out[0].board.as_ref().unwrap().flip, "bob sees his own side");
    assert!(c.says("carol", "/help").await.contains("/challenge"));
    assert!(c
        .says("carol", "/rules diagonal3x3")
        .await
        .contains("move 30"));
    assert!(c.says("carol", "/rules damas").await.contains("Kings fly"));
    assert_eq!(
        c.says("carol", "/frobnicate").await,
        "unknown command /frobnicate (see /help)"
    );
    assert_eq!(
        c.says("carol", &format!("/help {}", "x".repeat(600))).await,
        "that message is too long"
    );
}

// ---- Restart ----

#[tokio::test]
async fn restart_reloads_games_and_credits_the_downtime() {
    let c = chat().await;
    let id = c.start("5+0").await;
    c.time.advance(10_000);
    c.says("alice", "c3-d3").await;
    c.time.advance(20_000);
    c.says("bob", "f6-e6").await; // bob used 20 s; alice's clock runs from here
    c.time.advance(5_000);
    let before = c.store.game(id).await.unwrap().unwrap();
    let left_before = before.white_ms - (c.time.now_ms() - before.turn_started_at);
    // The bot is down for an hour.
    let c = c.reopen().await;
    c.time.advance(60 * MIN);
    let c = c.reopen().await;
    let after = c.store.game(id).await.unwrap().unwrap();
    let left_after = after.white_ms - (c.time.now_ms() - after.turn_started_at);
    assert!(
        left_after >= left_before && left_after - left_before <= 5_000,
        "{left_before} → {left_after}"
    );
    // The flag timer is armed again, and the game goes on to its end.
    assert!(c.table.next_deadline().is_some());
    assert!(c
        .says("alice", "b3-b4")
        .await
        .contains("alice played b3-b4"));
    assert_eq!(
        c.says("bob", "/resign").await,
        format!(
            "Game #{id}: bob resigned — alice wins (T2). Ratings: alice 1015 (+15), bob 985 (−15)."
        )
    );
    assert_eq!(
        c.store.moves(id).await.unwrap(),
        ["c3-d3", "f6-e6", "b3-b4"]
    );
}

#[tokio::test]
async fn old_message_ids_are_forgotten_but_recent_ones_kept() {
    let c = chat().await;
    let msg = c.incoming("alice", "/help");
    assert_eq!(c.table.handle(&msg).await.len(), 1);
    assert_eq!(
        c.store.forget_messages(T0).await.unwrap(),
        0,
        "seen at T0: kept"
    );
    assert!(c.table.handle(&msg).await.is_empty());
    assert_eq!(c.store.forget_messages(T0 + 1).await.unwrap(), 1);
}

mod ratings;

/// The real timer loop (system clock, short challenge life): it fires on its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_timers_fires_without_anyone_typing() {
    let store = Store::connect("sqlite::memory:").await.unwrap();
    let config = Config {
        challenge_ttl_ms: 300,
        ..Config::default()
    };
    let table = Arc::new(
        Table::open(store, Arc::new(SystemTime), config)
            .await
            .unwrap(),
    );
    let (tx, mut rx) = tokio::sync::mpsc::channel(8);
    tokio::spawn(table.clone().run_timers(tx));
    let msg = Incoming {
        platform: "test".into(),
        chat: "room".into(),
        user: user("alice"),
        message_id: "1".into(),
        text: "/challenge @bob".into(),
        mentions: vec![Mention::User(user("bob"))],
    };
    table.handle(&msg).await;
    let got = tokio::time::timeout(std::time::Duration::from_secs(5), rx.recv()).await;
    let out = got
        .expect("a timer message within 5 s")
        .expect("the loop is running");
    assert_eq!(out.text, "alice's challenge #1 expired.");
}

#[tokio::test]
async fn damas_blocked_side_and_repetition_through_the_table() {
    let c = chat().await;
    let id = c.game_from("damas", "W:WK7:B8", "none").await;
    let out = c.says("alice", "7-4").await;
    assert!(
        out.contains(&format!(
            "Game #{id} over: alice (White) wins — black cannot move (D5)."
        )),
        "{out}"
    );
    let id = c.game_from("damas", "W:WK4:BK29", "none").await;
    for (who, m) in [
        ("alice", "4-7"),
        ("bob", "29-25"),
        ("alice", "7-4"),
        ("bob", "25-29"),
    ]
    .repeat(2)
    {
        c.says(who, m).await;
    }
    assert_eq!(
        c.status(id).await,
        ("finished".into(), Some("draw".into()), Some("D5".into()))
    );
}
mod fuzz;

#[tokio::test]
async fn the_same_message_twice_at_once_is_played_and_answered_once() {
    let c = chat().await;
    let id = c.start("").await;
    let msg = c.incoming("alice", "c3-d3");
    let (a, b) = tokio::join!(c.table.handle(&msg), c.table.handle(&msg));
    assert_eq!(a.len() + b.len(), 1, "one answer: {a:?} {b:?}");
    assert_eq!(c.store.moves(id).await.unwrap().len(), 1);
    // A refused move is recorded too: re-sent later, when it would be legal, it stays unplayed.
    let early = c.incoming("bob", "f6-e6");
    let msg2 = c.incoming("alice", "b3-b4");
    assert_eq!(c.table.handle(&msg2).await[0].text, "Not your turn.");
    c.table.handle(&early).await;
    assert!(
        c.table.handle(&msg2).await.is_empty(),
        "the re-sent refused move is ignored"
    );
    assert_eq!(c.store.moves(id).await.unwrap().len(), 2);
}

#[tokio::test]
async fn an_at_name_nobody_could_resolve_is_not_an_open_challenge() {
    let c = chat().await;
    let mut msg = c.incoming("alice", "/challenge @ghost");
    msg.mentions.clear();
    assert_eq!(
        c.table.handle(&msg).await[0].text,
        "I don't know @ghost yet."
    );
    assert!(c.store.open_challenges().await.unwrap().is_empty());
}

#[tokio::test]
async fn a_challenge_by_handle_waits_for_that_handle() {
    // Telegram knows only @handles: the challenged player may not be registered yet.
    let c = chat().await;
    let mut msg = c.incoming("alice", "/challenge @zed");
    msg.mentions = vec![Mention::Handle("@Zed".into())];
    assert!(c.table.handle(&msg).await[0]
        .text
        .contains("alice challenges @zed"));
    assert_eq!(
        c.says("bob", "/accept").await,
        "There is no open challenge for you here."
    );
    let out = c.says("zed", "/accept").await;
    assert!(out.starts_with("Game #1:"), "{out}");
}

#[tokio::test]
async fn damas_flag_resign_agreed_draw_and_abort() {
    let c = chat().await;
    let id = c.start("damas 1+0").await;
    c.says("alice", "11-15").await;
    c.time.advance(MIN);
    let out = c.table.fire_due().await;
    assert_eq!(
        out[0].text,
        format!("Game #{id}: bob ran out of time — alice wins (T1)."),
        "casual: no ratings"
    );
    let id = c.start("damas").await;
    assert_eq!(
        c.says("alice", "/abort").await,
        format!("Game #{id} aborted by alice; it does not count.")
    );
    let id = c.start("damas").await;
    c.says("alice", "11-15").await;
    c.says("bob", "/draw").await;
    assert_eq!(
        c.says("alice", "/draw").await,
        format!("Game #{id}: draw agreed (T2).")
    );
    let id = c.start("damas").await;
    c.says("alice", "11-15").await;
    c.says("bob", "22-19").await;
    assert_eq!(
        c.says("alice", "/resign").await,
        format!("Game #{id}: alice resigned — bob wins (T2).")
    );
    assert_eq!(
        c.status(id).await,
        ("finished".into(), Some("black".into()), Some("T2".into()))
    );
}
