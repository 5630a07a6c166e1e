//! Ratings, leaderboards and chips through the table (rule R).

use super::*;
use crate::rating::{change, RatingKind, Score};

/// Unix ms of 2026-01-31 23:59:59.999 UTC and of the next millisecond.
const JAN_LAST: i64 = 1_769_903_999_999;
const FEB_FIRST: i64 = 1_769_904_000_000;

/// The first move of each side in a Corners game started by `Room::start` (alice White):
/// after it a resignation or a flag is a loss, not an abort (F1).
async fn both_move(c: &Room) {
    for (who, m) in [("alice", "c3-d3"), ("bob", "f6-e6")] {
        assert!(
            matches!(c.said(who, m).await, Msg::AfterMove { .. }),
            "{who}: {m}"
        );
    }
}

async fn ratings_of(c: &Room, name: &str) -> Vec<(String, i64, String, i64)> {
    let p = c.player(name).await;
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
    let id = c.start("casual").await;
    both_move(&c).await;
    assert!(matches!(c.said("bob", "/resign").await, Msg::Resigned { id: i, .. } if i == id));
    assert!(
        ratings_of(&c, "alice").await.is_empty(),
        "casual games never move a rating"
    );
    let id = c.start("").await;
    both_move(&c).await;
    assert_eq!(
        c.said("bob", "/resign").await,
        alice_won(Msg::Resigned {
            id,
            loser: "bob".into(),
            winner: "alice".into()
        })
    );
    assert_eq!(ratings_of(&c, "alice").await[0].1, 1015);
    assert_eq!(ratings_of(&c, "bob").await[0].1, 985);
    // Unrated variants never count, even when played to the end.
    let id = c.start("triangle").await;
    c.say("alice", "a4-a5").await;
    c.say("bob", "h5-h4").await;
    assert_eq!(c.moves(id).await.len(), 2);
    assert!(matches!(c.said("bob", "/resign").await, Msg::Resigned { id: i, .. } if i == id));
    assert_eq!(ratings_of(&c, "alice").await.len(), 1);
}

#[tokio::test]
async fn r_monthly_rating_starts_again_on_the_first_utc() {
    let c = chat().await;
    c.time.set(JAN_LAST - 60_000);
    c.start("").await;
    both_move(&c).await;
    c.time.set(JAN_LAST);
    c.say("bob", "/resign").await;
    assert_eq!(
        ratings_of(&c, "alice").await[0],
        ("classic3x3".into(), 1015, "2026-01".into(), 1015)
    );
    c.time.set(FEB_FIRST);
    c.start("").await;
    both_move(&c).await;
    c.say("alice", "/resign").await;
    // General: 1015 loses to 985. Monthly: both start February at 1000.
    let d = change(1015, 985, Score::Loss);
    assert_eq!(
        ratings_of(&c, "alice").await[0],
        ("classic3x3".into(), 1015 + d, "2026-02".into(), 985)
    );
    assert_eq!(
        c.said("alice", "/rating").await,
        Msg::Lines(vec![
            Msg::RatingTitle {
                name: "alice".into()
            },
            Msg::RatingLine {
                kind: RatingKind::Classic3x3,
                rating: 1015 + d,
                rank: Some(2),
                monthly: 985,
                monthly_rank: Some(2),
                games: 2,
                won: 1,
                drawn: 0,
                lost: 1,
            },
        ])
    );
}

#[tokio::test]
async fn r_damas_resignation_in_the_first_ten_moves_annuls_a_rated_game() {
    let c = chat().await;
    let id = c.start("damas rated").await;
    c.say("alice", "11-15").await;
    assert_eq!(
        c.said("bob", "/resign").await,
        Msg::ResignedAnnulled {
            id,
            loser: "bob".into()
        },
        "annulled: no rating changes to show"
    );
    assert_eq!(c.status(id).await.1, Some(GameResult::Void));
    assert_eq!(c.cause(id).await, Some(EndCause::Resigned(Color::Black)));
    assert!(ratings_of(&c, "bob").await.is_empty());
    // After more than 10 moves a resignation is a win.
    let id = c.start("damas rated").await;
    // Eleven half-moves: each side plays its first legal move.
    let mut g = crate::damas::Game::new(true);
    for i in 0..11 {
        let m = g.position().legal_moves()[0];
        g.play(&m).unwrap();
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        let out = c.said(who, &crate::damas::numeric(&m)).await;
        assert!(matches!(out, Msg::AfterMove { .. }), "{m}: {out:?}");
    }
    assert_eq!(
        c.said("bob", "/resign").await,
        alice_won(Msg::Resigned {
            id,
            loser: "bob".into(),
            winner: "alice".into()
        })
    );
    assert_eq!(c.status(id).await.1, Some(GameResult::White));
}

#[tokio::test]
async fn r_d6_abandonment_costs_twenty_points_either_way() {
    let c = chat().await;
    let id = c.start("damas rated monitor").await;
    // bob idles after his first move (before it, a claim aborts the game: F1).
    c.say("alice", "11-15").await;
    c.say("bob", "21-17").await;
    c.say("alice", "9-13").await;
    assert_eq!(c.moves(id).await.len(), 3);
    c.time.advance(3 * MIN);
    assert_eq!(
        c.said("alice", "/claim").await,
        Msg::Lines(vec![
            Msg::AbandonedVoid {
                id,
                loser: "bob".into()
            },
            ratings(&[("bob", 980, -20)]),
        ])
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
    // A rating with no game in it has no place on the leaderboards, general or monthly,
    // nor a rank, until bob plays.
    let kind = RatingKind::Damas;
    let month = crate::rating::month_of(crate::table::time::TimeSource::now_ms(&c.time));
    assert!(c.store.top(kind, None, None, 10).await.unwrap().is_empty());
    assert!(c
        .store
        .top(kind, Some(&month), None, 10)
        .await
        .unwrap()
        .is_empty());
    let bob = c.player("bob").await.id;
    assert_eq!(c.store.rank(bob, kind, None, None).await.unwrap(), None);
    // His /rating says the rating, with no place beside it, and its chart counts the
    // games as the rating does: none (the penalty is a point of its line, not a game).
    let out = c.say("bob", "/rating").await;
    let chart = out[0].picture.as_ref().expect("a chart");
    let Ok(PictureView::Chart(chart)) = c.table.draw_picture(chart, out[0].lang).await else {
        panic!("a chart")
    };
    let footer = Msg::ChartFooter {
        games: 0,
        rating: 980,
    };
    assert_eq!(chart.footer, crate::words::render(&footer, out[0].lang));
    let Msg::Lines(lines) = out[0].message.clone() else {
        panic!("lines")
    };
    assert!(
        lines.iter().any(|l| matches!(
            l,
            Msg::RatingLine {
                rating: 980,
                rank: None,
                games: 0,
                ..
            }
        )),
        "{lines:#?}"
    );
}

#[tokio::test]
async fn r_d6_abandonment_after_ten_moves_is_a_loss_and_costs_twenty_more() {
    let c = chat().await;
    let id = c.start("damas rated monitor").await;
    let mut g = crate::damas::Game::new(true);
    for i in 0..12 {
        let m = g.position().legal_moves()[0];
        g.play(&m).unwrap();
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        c.say(who, &crate::damas::numeric(&m)).await;
    }
    assert_eq!(c.moves(id).await.len(), 12);
    // alice to move after 12 half-moves; she idles, bob claims.
    c.time.advance(3 * MIN);
    assert_eq!(
        c.said("bob", "/claim").await,
        rated(
            Msg::AbandonedWin {
                id,
                loser: "alice".into(),
                winner: "bob".into()
            },
            &[("alice", 965, -35), ("bob", 1015, 15)]
        )
    );
    assert_eq!(c.cause(id).await, Some(EndCause::Abandoned(Color::White)));
}

fn chips(name: &str, chips: i64) -> Msg {
    Msg::Chips {
        name: name.into(),
        chips,
    }
}

#[tokio::test]
async fn r_stakes_are_held_and_paid_to_the_winner() {
    let c = chat().await;
    assert_eq!(
        c.refused("alice", "/challenge @bob damas rated stake 50000")
            .await,
        Msg::NotEnoughChips {
            who: "alice".into(),
            has: 1000,
            stake: 50_000
        }
    );
    let id = c.start("damas rated stake 50").await;
    assert_eq!(c.said("alice", "/chips").await, chips("alice", 950));
    c.say("alice", "11-15").await;
    assert_eq!(
        c.said("bob", "/resign").await,
        Msg::ResignedAnnulled {
            id,
            loser: "bob".into()
        },
        "annulled (R): stakes back"
    );
    assert_eq!(c.said("alice", "/chips").await, chips("alice", 1000));
    assert_eq!(c.said("bob", "/chips").await, chips("bob", 1000));
    c.start("damas rated stake 50").await;
    c.say("alice", "11-15").await;
    c.say("bob", "/draw").await;
    c.say("alice", "/draw").await;
    assert_eq!(
        c.said("bob", "/chips").await,
        chips("bob", 1000),
        "a draw returns the stake"
    );
    let id = c.start("damas rated stake 100").await;
    // Both sides have moved: a flag is a loss (before, F1 aborts and returns the stakes).
    c.say("alice", "11-15").await;
    c.say("bob", "21-17").await;
    assert_eq!(c.moves(id).await.len(), 2);
    c.time.advance(11 * MIN);
    let out = c.table.fire_due().await;
    assert_eq!(
        head(&out[0].message),
        &Msg::Flagged {
            id,
            loser: "alice".into(),
            winner: "bob".into()
        }
    );
    assert_eq!(c.said("bob", "/chips").await, chips("bob", 1100));
    assert_eq!(c.said("alice", "/chips").await, chips("alice", 900));
    // Winnings count at once: bob can stake more than he started with.
    assert!(matches!(
        c.said("bob", "/challenge @alice damas rated stake 1050")
            .await,
        Msg::ChallengeTo { .. }
    ));
    assert_eq!(
        c.refused("alice", "/accept").await,
        Msg::NotEnoughChips {
            who: "alice".into(),
            has: 900,
            stake: 1050
        }
    );
}

fn scope(kind: RatingKind, month: Option<&str>, global: bool) -> Msg {
    Msg::TopScope {
        kind,
        month: month.map(Into::into),
        global,
    }
}

#[tokio::test]
async fn r_rating_and_top_commands_with_a_chart() {
    let c = chat().await;
    assert_eq!(
        c.said("alice", "/rating").await,
        Msg::NoRatedGames {
            name: "alice".into()
        }
    );
    for _ in 0..3 {
        c.start("").await;
        both_move(&c).await;
        c.say("bob", "/resign").await;
    }
    let out = c.say("alice", "/rating").await;
    let chart = out[0].picture.as_ref().expect("a chart");
    let Ok(PictureView::Chart(chart)) = c.table.draw_picture(chart, out[0].lang).await else {
        panic!("a chart")
    };
    assert_eq!(chart.points.len(), 4);
    assert_eq!(chart.points[0], 1000);
    let Msg::Lines(lines) = &out[0].message else {
        panic!("{out:#?}")
    };
    assert!(
        matches!(
            lines[1],
            Msg::RatingLine {
                kind: RatingKind::Classic3x3,
                games: 3,
                won: 3,
                drawn: 0,
                lost: 0,
                ..
            }
        ),
        "{lines:#?}"
    );
    let Msg::Lines(top) = c.said("carol", "/top").await else {
        panic!("a list")
    };
    assert_eq!(top[0], scope(RatingKind::Classic3x3, None, false));
    assert!(
        matches!(&top[1], Msg::TopLine { place: 1, name, games: 3, .. } if name == "alice"),
        "{top:#?}"
    );
    assert!(
        matches!(&top[2], Msg::TopLine { place: 2, name, .. } if name == "bob"),
        "{top:#?}"
    );
    assert_eq!(
        c.said("carol", "/top damas").await,
        Msg::TopEmpty {
            scope: Box::new(scope(RatingKind::Damas, None, false))
        }
    );
    let Msg::Lines(top) = c.said("carol", "/top month global").await else {
        panic!("a list")
    };
    assert_eq!(top[0], scope(RatingKind::Classic3x3, Some("2026-01"), true));
    assert_eq!(
        c.refused("carol", "/top chess").await,
        Msg::UnknownKind {
            word: "chess".into(),
            kinds: "classic3x3, classic3x4, diagonal3x3, damas".into()
        }
    );
    assert!(matches!(
        c.said("carol", "/rating @bob").await,
        Msg::Lines(ref lines) if lines[0] == Msg::RatingTitle { name: "bob".into() }
    ));
}

#[tokio::test]
async fn r_top_appends_the_askers_place_below_the_ten() {
    let c = chat().await;
    // Twelve players: p0 … p11; each beats the next one, so the last is at the bottom.
    for i in 0..11 {
        let (w, b) = (format!("p{i}"), format!("p{}", i + 1));
        c.say(&w, &format!("/challenge @{b} white")).await;
        c.say(&b, "/accept").await;
        c.say(&w, "c3-d3").await;
        c.say(&b, "f6-e6").await;
        assert!(matches!(
            head(&c.said(&b, "/resign").await),
            Msg::Resigned { .. }
        ));
    }
    let Msg::Lines(top) = c.said("p11", "/top").await else {
        panic!("a list")
    };
    assert_eq!(top.len(), 12, "{top:#?}");
    assert!(
        matches!(top.last(), Some(Msg::TopYou { name, .. }) if name == "p11"),
        "{top:#?}"
    );
    assert!(
        top[1..11].iter().all(|l| matches!(l, Msg::TopLine { .. })),
        "{top:#?}"
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
        c.say(a, &format!("/challenge @{b} {kind} white")).await;
        c.say(b, "/accept").await;
        let first = if kind.starts_with("damas") {
            "11-15"
        } else {
            "c3-d3"
        };
        let first = if kind == "classic3x4" { "d3-e3" } else { first };
        c.say(a, first).await;
        // Both sides move, so a flag below is a loss and not an abort (F1).
        let reply = match kind {
            "classic3x4" => "e6-d6",
            "damas rated" => "21-17",
            _ => "f6-e6",
        };
        c.say(b, reply).await;
        match next() % 3 {
            0 => {
                c.say(b, "/resign").await;
            }
            1 => {
                c.say(a, "/draw").await;
                c.say(b, "/draw").await;
            }
            _ => {
                c.time.advance(11 * MIN);
                let out = c.table.fire_due().await;
                assert!(
                    matches!(head(&out[0].message), Msg::Flagged { loser, .. } if loser == a),
                    "{out:#?}"
                );
            }
        }
        c.time.advance(MIN);
    }
    assert!(
        c.store.active_games().await.unwrap().is_empty(),
        "every game ended"
    );
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

/// Equal ratings share a place on `/top` (1, 1, 3, 3), as a player's own place is counted.
#[tokio::test]
async fn r_top_gives_equal_ratings_one_place() {
    let c = chat().await;
    for (w, b) in [("alice", "bob"), ("carol", "dave")] {
        c.say(w, &format!("/challenge @{b} white")).await;
        c.say(b, "/accept").await;
        c.say(w, "c3-d3").await;
        c.say(b, "f6-e6").await;
        c.say(b, "/resign").await;
    }
    let Msg::Lines(top) = c.said("dave", "/top").await else {
        panic!("a list")
    };
    let places: Vec<(i64, String)> = top
        .iter()
        .filter_map(|l| match l {
            Msg::TopLine { place, name, .. } => Some((*place, name.clone())),
            _ => None,
        })
        .collect();
    let just: Vec<i64> = places.iter().map(|(p, _)| *p).collect();
    assert_eq!(just, [1, 1, 3, 3], "{places:?}");
    let dave = c.player("dave").await.id;
    let rank = c.store.rank(dave, RatingKind::Classic3x3, None, None).await;
    assert_eq!(rank.unwrap(), Some(3));
}
