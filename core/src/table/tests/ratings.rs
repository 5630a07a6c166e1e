//! Ratings, leaderboards and chips through the table (rule R).

use super::*;
use crate::rating::{change, Score};

/// Unix ms of 2026-01-31 23:59:59.999 UTC and of the next millisecond.
const JAN_LAST: i64 = 1_769_903_999_999;
const FEB_FIRST: i64 = 1_769_904_000_000;

async fn ratings_of(c: &Room, name: &str) -> Vec<(String, i64, String, i64)> {
    let p = c.store.player_for("test", &user(name), T0).await.unwrap();
    c.store
        .all_ratings()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.0 == p.id)
        .map(|r| (r.1, r.2, r.3, r.4))
        .collect()
}

#[tokio::test]
async fn r_rated_game_moves_both_ratings_and_casual_does_not() {
    let c = chat().await;
    c.start("casual").await;
    c.says("bob", "/resign").await;
    assert!(
        ratings_of(&c, "alice").await.is_empty(),
        "casual games never move a rating"
    );
    c.start("").await;
    let out = c.says("bob", "/resign").await;
    assert!(
        out.ends_with("Ratings: alice 1015 (+15), bob 985 (−15)."),
        "{out}"
    );
    assert_eq!(ratings_of(&c, "alice").await[0].1, 1015);
    assert_eq!(ratings_of(&c, "bob").await[0].1, 985);
    // Unrated variants never count, even when played to the end.
    c.start("triangle").await;
    c.says("bob", "/resign").await;
    assert_eq!(ratings_of(&c, "alice").await.len(), 1);
}

#[tokio::test]
async fn r_monthly_rating_starts_again_on_the_first_utc() {
    let c = chat().await;
    c.time.set(JAN_LAST - 60_000);
    c.start("").await;
    c.time.set(JAN_LAST);
    c.says("bob", "/resign").await;
    assert_eq!(
        ratings_of(&c, "alice").await[0],
        ("classic3x3".into(), 1015, "2026-01".into(), 1015)
    );
    c.time.set(FEB_FIRST);
    c.start("").await;
    c.says("alice", "/resign").await;
    // General: 1015 loses to 985. Monthly: both start February at 1000.
    let d = change(1015, 985, Score::Loss);
    assert_eq!(
        ratings_of(&c, "alice").await[0],
        ("classic3x3".into(), 1015 + d, "2026-02".into(), 985)
    );
    let out = c.says("alice", "/rating").await;
    assert!(
        out.contains(&format!(
            "classic 3×3: {} (#2) · 985 this month (#2)",
            1015 + d
        )),
        "{out}"
    );
}

#[tokio::test]
async fn r_damas_resignation_in_the_first_ten_moves_annuls_a_rated_game() {
    let c = chat().await;
    let id = c.start("damas rated").await;
    c.says("alice", "11-15").await;
    let out = c.says("bob", "/resign").await;
    assert_eq!(
        out,
        format!("Game #{id}: bob resigned after 10 moves or fewer — the game is annulled (R).")
    );
    assert_eq!(c.status(id).await.1, Some("void".into()));
    assert!(ratings_of(&c, "bob").await.is_empty());
    // After more than 10 moves a resignation is a win.
    let id = c.start("damas rated").await;
    // Eleven half-moves: each side plays its first legal move.
    let mut g = crate::damas::Game::new(true);
    for i in 0..11 {
        let m = g.position().legal_moves()[0];
        g.play(&m).unwrap();
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        let out = c.says(who, &crate::damas::numeric(&m)).await;
        assert!(out.contains("played"), "{m}: {out}");
    }
    let out = c.says("bob", "/resign").await;
    assert!(
        out.contains("alice wins (T2). Ratings: alice 1015 (+15), bob 985 (−15)."),
        "{out}"
    );
    assert_eq!(c.status(id).await.1, Some("white".into()));
}

#[tokio::test]
async fn r_abandonment_costs_twenty_points_either_way() {
    let c = chat().await;
    c.start("damas rated monitor").await;
    c.says("alice", "11-15").await;
    c.time.advance(3 * MIN);
    let out = c.says("alice", "/claim").await;
    assert!(
        out.contains("annulled (D6). Ratings: bob 980 (−20)."),
        "{out}"
    );
    assert_eq!(ratings_of(&c, "bob").await[0].1, 980);
    assert_eq!(
        ratings_of(&c, "alice").await.len(),
        0,
        "the claimant is not rated"
    );
    let hist = c.store.all_rating_history().await.unwrap();
    assert_eq!(hist.len(), 1);
    assert_eq!((hist[0].3, hist[0].4), (1000, 980));
}

#[tokio::test]
async fn r_abandonment_after_ten_moves_is_a_loss_and_costs_twenty_more() {
    let c = chat().await;
    c.start("damas rated monitor").await;
    let mut g = crate::damas::Game::new(true);
    for i in 0..12 {
        let m = g.position().legal_moves()[0];
        g.play(&m).unwrap();
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        c.says(who, &crate::damas::numeric(&m)).await;
    }
    // alice to move after 12 half-moves; she idles, bob claims.
    c.time.advance(3 * MIN);
    let out = c.says("bob", "/claim").await;
    assert!(
        out.contains(
            "alice abandoned the game — bob wins (D6). Ratings: alice 965 (−35), bob 1015 (+15)."
        ),
        "{out}"
    );
}

#[tokio::test]
async fn r_stakes_are_held_and_paid_to_the_winner() {
    let c = chat().await;
    let out = c
        .says("alice", "/challenge @bob damas rated stake 50000")
        .await;
    assert_eq!(
        out,
        "alice has 1000 chips, not enough for a stake of 50000."
    );
    c.start("damas rated stake 50").await;
    assert_eq!(c.says("alice", "/chips").await, "alice has 950 chips.");
    c.says("bob", "/resign").await; // annulled: stakes back
    assert_eq!(c.says("alice", "/chips").await, "alice has 1000 chips.");
    assert_eq!(c.says("bob", "/chips").await, "bob has 1000 chips.");
    c.start("damas rated stake 50").await;
    c.says("alice", "11-15").await;
    c.says("bob", "/draw").await;
    c.says("alice", "/draw").await;
    assert_eq!(
        c.says("bob", "/chips").await,
        "bob has 1000 chips.",
        "a draw returns the stake"
    );
    c.start("damas rated stake 100").await;
    c.time.advance(11 * MIN);
    let out = c.table.fire_due().await;
    assert!(
        out[0].text.contains("alice ran out of time — bob wins"),
        "{}",
        out[0].text
    );
    assert_eq!(c.says("bob", "/chips").await, "bob has 1100 chips.");
    assert_eq!(c.says("alice", "/chips").await, "alice has 900 chips.");
    // Winnings count at once: bob can stake more than he started with.
    assert!(c
        .says("bob", "/challenge @alice damas rated stake 1050")
        .await
        .contains("challenge #"));
    assert_eq!(
        c.says("alice", "/accept").await,
        "alice has 900 chips, not enough for a stake of 1050."
    );
}

#[tokio::test]
async fn r_rating_and_top_commands_with_a_chart() {
    let c = chat().await;
    assert_eq!(
        c.says("alice", "/rating").await,
        "alice has no rated games yet (everyone starts at 1000)."
    );
    for _ in 0..3 {
        c.start("").await;
        c.says("bob", "/resign").await;
    }
    let out = c.say("alice", "/rating").await;
    let chart = out[0].chart.as_ref().expect("a chart");
    assert_eq!(chart.points.len(), 4);
    assert_eq!(chart.points[0], 1000);
    assert!(
        out[0].text.contains("3 games: 3 won, 0 drawn, 0 lost"),
        "{}",
        out[0].text
    );
    let top = c.says("carol", "/top").await;
    assert!(
        top.starts_with("Top classic 3×3, all time, this chat:\n1. alice"),
        "{top}"
    );
    assert!(top.contains("2. bob"), "{top}");
    assert!(c
        .says("carol", "/top damas")
        .await
        .contains("nobody has played a rated game yet"));
    assert!(c
        .says("carol", "/top month global")
        .await
        .contains("month 2026-01, everyone"));
    assert_eq!(
        c.says("carol", "/top chess").await,
        "'chess' is not a rated kind; try classic3x3, classic3x4, diagonal3x3, damas."
    );
    assert!(c
        .says("carol", "/rating @bob")
        .await
        .starts_with("bob's ratings:"));
}

#[tokio::test]
async fn r_top_appends_the_askers_place_below_the_ten() {
    let c = chat().await;
    // Twelve players: p0 … p11; each beats the next one, so the last is at the bottom.
    for i in 0..11 {
        let (w, b) = (format!("p{i}"), format!("p{}", i + 1));
        c.says(&w, &format!("/challenge @{b} white")).await;
        c.says(&b, "/accept").await;
        c.says(&b, "/resign").await;
    }
    let top = c.says("p11", "/top").await;
    assert_eq!(top.lines().count(), 12, "{top}");
    assert!(
        top.lines().last().unwrap().contains("p11")
            && top.lines().last().unwrap().ends_with("(you)"),
        "{top}"
    );
}

/// A season of games between six players through the table; afterwards every stored rating
/// equals the one recomputed from the history rows alone.
#[tokio::test]
async fn r_season_ratings_equal_a_recomputation_from_history() {
    let c = chat().await;
    let names = ["ann", "ben", "cid", "dot", "eve", "fay"];
    let mut seed = 7u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    for g in 0..40 {
        let a = names[next() % 6];
        let b = names
            .iter()
            .copied()
            .filter(|n| *n != a)
            .nth(next() % 5)
            .unwrap();
        let kind = ["", "classic3x4", "diagonal3x3", "damas rated"][next() % 4];
        // Some games cross into the next month.
        if g == 25 {
            c.time.set(FEB_FIRST + 1000);
        }
        c.says(a, &format!("/challenge @{b} {kind} white")).await;
        c.says(b, "/accept").await;
        let first = if kind.starts_with("damas") {
            "11-15"
        } else {
            "c3-d3"
        };
        let first = if kind == "classic3x4" { "d3-e3" } else { first };
        c.says(a, first).await;
        match next() % 3 {
            0 => {
                c.says(b, "/resign").await;
            }
            1 => {
                c.says(a, "/draw").await;
                c.says(b, "/draw").await;
            }
            _ => {
                c.time.advance(11 * MIN);
                c.table.fire_due().await;
            }
        }
        c.time.advance(MIN);
    }
    let history = c.store.all_rating_history().await.unwrap();
    assert!(history.len() > 40, "{} rows", history.len());
    let mut general: HashMap<(i64, String), i64> = HashMap::new();
    let mut monthly: HashMap<(i64, String), (String, i64)> = HashMap::new();
    for (player, kind, month, before, after, mb, ma) in history {
        let g = general.entry((player, kind.clone())).or_insert(1000);
        assert_eq!(*g, before, "history chains");
        *g = after;
        let m = monthly
            .entry((player, kind))
            .or_insert((month.clone(), 1000));
        if m.0 != month {
            *m = (month.clone(), 1000);
        }
        assert_eq!(m.1, mb, "monthly history chains within a month");
        m.1 = ma;
    }
    let stored = c.store.all_ratings().await.unwrap();
    assert_eq!(stored.len(), general.len());
    for (player, kind, rating, month, m) in stored {
        assert_eq!(general[&(player, kind.clone())], rating);
        assert_eq!(monthly[&(player, kind)], (month, m));
    }
}
