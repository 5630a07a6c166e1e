//! Ratings written where games end, and read by `/rating` and `/top`; on both backends,
//! with endings that race for the same player.

use super::{game, on_both, player, T0};
use crate::color::Color;
use crate::game::{EndCause, GameResult};
use crate::rating::RatingKind;
use crate::store::{Finish, Store};

on_both!(
    r_a_rated_ending_moves_ratings_pays_stakes_and_writes_history,
    r_endings_racing_for_one_player_all_count,
    r_leaderboards_and_ranks_read_what_was_written,
    r_charts_read_the_history_of_real_games,
);

fn won_by(winner: Color) -> Finish {
    Finish {
        result: GameResult::decided(Some(winner)),
        cause: EndCause::Resigned(winner.opponent()),
        rule: "T2".into(),
        abandoned_by: None,
    }
}

async fn r_a_rated_ending_moves_ratings_pays_stakes_and_writes_history(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let g = game(&store, "room", &a, &b, "damas", true, Some(100)).await;
    let saved = store
        .finish_game(
            g.id,
            0,
            &won_by(Color::Black),
            (1, 1),
            T0,
            crate::store::Says::nothing(),
        )
        .await
        .unwrap();
    let changes: Vec<(i64, i64, i64)> = saved
        .ratings
        .iter()
        .map(|c| (c.player_id, c.before, c.after))
        .collect();
    assert_eq!(changes, [(a.id, 1000, 985), (b.id, 1000, 1015)]);
    assert!(saved.ratings.iter().all(|c| c.kind == RatingKind::Damas));
    assert_eq!(store.chips(a.id).await.unwrap(), 900);
    assert_eq!(
        store.chips(b.id).await.unwrap(),
        1100,
        "the winner takes both stakes"
    );
    let month = crate::rating::month_of(T0);
    assert_eq!(
        store.all_ratings().await.unwrap(),
        [
            (a.id, "damas".into(), 985, month.clone(), 985),
            (b.id, "damas".into(), 1015, month.clone(), 1015)
        ]
    );
    assert_eq!(store.all_rating_history().await.unwrap().len(), 2);
    // An annulled game with an abandonment: only the quitter's row moves (−20).
    let g2 = game(&store, "room", &a, &b, "damas", true, None).await;
    let quit = Finish {
        result: GameResult::Void,
        cause: EndCause::Abandoned(Color::White),
        rule: "D6".into(),
        abandoned_by: Some(a.id),
    };
    let saved = store
        .finish_game(g2.id, 0, &quit, (1, 1), T0, crate::store::Says::nothing())
        .await
        .unwrap();
    assert_eq!(saved.ratings.len(), 1);
    assert_eq!(
        (saved.ratings[0].before, saved.ratings[0].after),
        (985, 965)
    );
    let standings = store.standings(a.id, &month).await.unwrap();
    assert_eq!(standings.len(), 1);
    assert_eq!(
        (standings[0].rating, standings[0].games, standings[0].losses),
        (965, 1, 1),
        "the penalty is no game"
    );
    // A casual game touches no rating at all.
    let c = player(&store, "carol").await;
    let g3 = game(&store, "room", &a, &c, "classic3x3", false, None).await;
    let saved = store
        .finish_game(
            g3.id,
            0,
            &won_by(Color::White),
            (1, 1),
            T0,
            crate::store::Says::nothing(),
        )
        .await
        .unwrap();
    assert!(saved.ratings.is_empty());
    assert!(store.standings(c.id, &month).await.unwrap().is_empty());
}

async fn r_endings_racing_for_one_player_all_count(store: Store) {
    // alice plays twelve rated games at once, against six opponents, and they all end
    // together: every one must count, each from the rating the one before left.
    let a = player(&store, "alice").await;
    let mut games = Vec::new();
    for i in 0..12 {
        let o = player(&store, &format!("p{}", i % 6)).await;
        games.push(game(&store, "room", &a, &o, "classic3x3", true, None).await);
    }
    let mut tasks = tokio::task::JoinSet::new();
    for (i, g) in games.iter().enumerate() {
        let (store, id) = (store.clone(), g.id);
        let winner = if i % 3 == 0 {
            Color::Black
        } else {
            Color::White
        };
        tasks.spawn(async move {
            store
                .finish_game(
                    id,
                    0,
                    &won_by(winner),
                    (1, 1),
                    T0,
                    crate::store::Says::nothing(),
                )
                .await
                .map(|s| s.ratings.len())
        });
    }
    while let Some(done) = tasks.join_next().await {
        assert_eq!(done.unwrap().unwrap(), 2);
    }
    let history = store.all_rating_history().await.unwrap();
    assert_eq!(history.len(), 24);
    // Each player's history is one chain: every change starts where the last one ended,
    // and the stored rating is where the chain ends.
    let ratings = store.all_ratings().await.unwrap();
    for (player, _, rating, _, monthly) in &ratings {
        let mine: Vec<_> = history.iter().filter(|h| h.0 == *player).collect();
        let mut at = (1000, 1000);
        for h in &mine {
            assert_eq!((h.3, h.5), at, "player {player}: {mine:?}");
            at = (h.4, h.6);
        }
        assert_eq!((*rating, *monthly), at, "player {player}");
    }
    let alice = store
        .standings(a.id, &crate::rating::month_of(T0))
        .await
        .unwrap();
    assert_eq!(
        (alice[0].games, alice[0].wins, alice[0].losses),
        (12, 8, 4),
        "all twelve counted"
    );
}

async fn r_leaderboards_and_ranks_read_what_was_written(store: Store) {
    let month = "2026-01";
    let mut ids = Vec::new();
    for i in 0..30i64 {
        let p = player(&store, &format!("u{i:02}")).await;
        store
            .put_rating(
                p.id,
                RatingKind::Classic3x3,
                900 + (i * 37) % 400,
                5,
                if i % 3 == 0 { "2025-12" } else { month },
                1000 + i,
            )
            .await
            .unwrap();
        let chat = if i % 2 == 0 { "even" } else { "odd" };
        store.note_chat_player("test", chat, p.id).await.unwrap();
        ids.push(p.id);
    }
    let top = store
        .top(RatingKind::Classic3x3, None, None, 10)
        .await
        .unwrap();
    assert_eq!(top.len(), 10);
    assert!(top.windows(2).all(|w| w[0].rating >= w[1].rating));
    let best = store
        .all_ratings()
        .await
        .unwrap()
        .iter()
        .map(|r| r.2)
        .max()
        .unwrap();
    assert_eq!(top[0].rating, best);
    assert_eq!(
        store
            .rank(top[0].player_id, RatingKind::Classic3x3, None, None)
            .await
            .unwrap(),
        Some(1)
    );
    // This month: only those with a rating this month, by their monthly figure.
    let monthly = store
        .top(RatingKind::Classic3x3, Some(month), None, 50)
        .await
        .unwrap();
    assert_eq!(monthly.len(), 20);
    assert!(monthly.windows(2).all(|w| w[0].monthly >= w[1].monthly));
    assert_eq!(monthly[0].monthly, 1029);
    assert_eq!(
        store
            .rank(ids[0], RatingKind::Classic3x3, Some(month), None)
            .await
            .unwrap(),
        None,
        "no rated game this month"
    );
    // One chat's players only.
    let even = store
        .top(RatingKind::Classic3x3, None, Some(("test", "even")), 50)
        .await
        .unwrap();
    assert_eq!(even.len(), 15);
    assert!(even
        .iter()
        .all(|s| s.name.trim_start_matches('u').parse::<i64>().unwrap() % 2 == 0));
    let even_month = store
        .top(
            RatingKind::Classic3x3,
            Some(month),
            Some(("test", "even")),
            50,
        )
        .await
        .unwrap();
    assert!(even_month.len() < 15 && !even_month.is_empty());
    let last_even = even.last().unwrap();
    assert_eq!(
        store
            .rank(
                last_even.player_id,
                RatingKind::Classic3x3,
                None,
                Some(("test", "even"))
            )
            .await
            .unwrap(),
        Some(15)
    );
    assert!(store
        .top(RatingKind::Damas, None, None, 10)
        .await
        .unwrap()
        .is_empty());
}

async fn r_charts_read_the_history_of_real_games(store: Store) {
    let a = player(&store, "alice").await;
    let b = player(&store, "bob").await;
    let g = game(&store, "room", &a, &b, "classic3x3", true, None).await;
    store
        .finish_game(
            g.id,
            0,
            &won_by(Color::White),
            (1, 1),
            T0,
            crate::store::Says::nothing(),
        )
        .await
        .unwrap();
    assert_eq!(
        store
            .rating_history(a.id, RatingKind::Classic3x3)
            .await
            .unwrap(),
        [(1000, 1015, g.id)]
    );
}
