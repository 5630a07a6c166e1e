//! The hot reads use their indexes: each test asks the database to explain the very SQL the
//! store runs (the same constants), on enough rows, with statistics gathered, and fails if
//! the plan scans a whole table or sorts a whole list. On both backends.

use super::on_both;
use crate::rating::RatingKind;
use crate::store::challenges::OPEN_IN_CHAT;
use crate::store::games::{ACTIVE_IN_CHAT, PUBLIC_GAMES_OF};
use crate::store::ratings::{TOP_CHAT, TOP_CHAT_MONTHLY, TOP_GENERAL, TOP_MONTHLY};
use crate::store::timers::{CLAIM_GAMES_PG, CLAIM_GAMES_SQLITE, NEXT_DUE_GAMES};
use crate::store::{Db, Store};

on_both!(
    r_leaderboards_read_their_index_in_order,
    per_chat_reads_search_the_chat_not_the_tables,
    t1_due_timers_are_found_from_their_index,
);

/// 20,000 players in 1,000 chats, each rated in classic 3×3, with a few games each, and the
/// statistics gathered.
async fn fill(store: &Store) -> crate::store::Result<()> {
    on_db!(store, conn, _pg => {
        sqlx::query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
             INSERT INTO players (platform, platform_user_id, display_name, created_at)
             SELECT 'test', 'u' || i, 'u' || i, 0 FROM n",
        )
        .execute(&mut *conn)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO ratings (player_id, kind, rating, games, month, monthly, monthly_games)
             SELECT id, $1, 900 + (id * 37) % 400, 5, CASE WHEN id % 2 = 0 THEN '2026-01' ELSE '2025-12' END, 1000 + id % 50, 5
             FROM players",
        )
        .bind(RatingKind::Classic3x3)
        .execute(&mut *conn)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO chat_players (platform, chat_id, player_id)
             SELECT 'test', 'chat' || (id % 1000), id FROM players",
        )
        .execute(&mut *conn)
        .await
        .unwrap();
        // Games: every player plays the next one, in their chat; a tenth are still going.
        sqlx::query(
            "INSERT INTO games (platform, chat_id, rules, white_id, black_id, rated, time_control,
                                white_ms, black_ms, turn_started_at, status, created_at, due_at)
             SELECT 'test', 'chat' || (id % 1000), 'classic3x3', id, id + 1000, FALSE, '5+0',
                    300000, 300000, 0, $1, 0, CASE WHEN id % 10 = 0 THEN id * 1000 ELSE NULL END
             FROM players WHERE id + 1000 <= 20000 AND id % 10 = 0",
        )
        .bind(crate::store::GameStatus::Active)
        .execute(&mut *conn)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO games (platform, chat_id, rules, white_id, black_id, rated, time_control,
                                white_ms, black_ms, turn_started_at, status, created_at)
             SELECT 'test', 'chat' || (id % 1000), 'classic3x3', id, id + 1000, FALSE, '5+0',
                    300000, 300000, 0, $1, 0
             FROM players WHERE id + 1000 <= 20000 AND id % 10 <> 0",
        )
        .bind(crate::store::GameStatus::Finished)
        .execute(&mut *conn)
        .await
        .unwrap();
        // Challenges: one a player, a tenth still open.
        for (status, filter) in [
            (crate::store::ChallengeStatus::Open, "="),
            (crate::store::ChallengeStatus::Expired, "<>"),
        ] {
            let sql = format!(
                "INSERT INTO challenges (platform, chat_id, challenger_id, rules, time_control, rated, color,
                                         created_at, expires_at, status)
                 SELECT 'test', 'chat' || (id % 1000), id, 'classic3x3', '5+0', FALSE, $2, 0, id * 1000, $1
                 FROM players WHERE id % 10 {filter} 0"
            );
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(status)
                .bind(crate::color::ColorChoice::Random)
                .execute(&mut *conn)
                .await
                .unwrap();
        }
        sqlx::query("ANALYZE").execute(&mut *conn).await.unwrap();
    });
    Ok(())
}

/// The plan of `sql` with its parameters bound, one line per step.
macro_rules! plan {
    ($store:expr, $sql:expr $(, $arg:expr)*) => {{
        let lines: Vec<String> = match &$store.db {
            Db::Sqlite(db) => {
                let mut guard = db.lock().await;
                let conn = guard.as_mut().unwrap();
                let rows: Vec<(i64, i64, i64, String)> = sqlx::query_as(sqlx::AssertSqlSafe(
                    format!("EXPLAIN QUERY PLAN {}", $sql),
                ))
                $(.bind($arg))*
                .fetch_all(&mut *conn)
                .await
                .unwrap();
                rows.into_iter().map(|r| r.3).collect()
            }
            Db::Postgres(pool) => {
                let mut conn = pool.acquire().await.unwrap();
                sqlx::query_scalar(sqlx::AssertSqlSafe(format!("EXPLAIN {}", $sql)))
                    $(.bind($arg))*
                    .fetch_all(&mut *conn)
                    .await
                    .unwrap()
            }
        };
        lines.join(" | ")
    }};
}

fn pg(store: &Store) -> bool {
    matches!(store.db, Db::Postgres(_))
}

/// Neither backend scans `table` whole in `plan`.
fn no_full_scan(store: &Store, plan: &str, table: &str, alias: &str) {
    if pg(store) {
        assert!(
            !plan.contains(&format!("Seq Scan on {table}")),
            "{table} scanned whole: {plan}"
        );
    } else {
        assert!(
            !plan.contains(&format!("SCAN {alias} ")) && !plan.ends_with(&format!("SCAN {alias}")),
            "{table} scanned whole: {plan}"
        );
    }
}

async fn r_leaderboards_read_their_index_in_order(store: Store) {
    fill(&store).await.unwrap();
    let kind = RatingKind::Classic3x3;
    for (sql, index, plan) in [
        (
            TOP_GENERAL,
            "ratings_general",
            plan!(store, TOP_GENERAL, kind, 10i64),
        ),
        (
            TOP_MONTHLY,
            "ratings_monthly",
            plan!(store, TOP_MONTHLY, kind, "2026-01", 10i64),
        ),
    ] {
        assert!(plan.contains(index), "{sql}\n→ {plan}");
        no_full_scan(&store, &plan, "ratings", "r");
        // In index order: no sort of the whole list before the ten are taken.
        if pg(&store) {
            assert!(!plan.contains("Sort"), "sorted: {plan}");
        } else {
            assert!(!plan.contains("TEMP B-TREE"), "sorted: {plan}");
        }
    }
    // The answer is right too.
    let top = store.top(kind, None, None, 10).await.unwrap();
    assert_eq!(top.len(), 10);
    assert_eq!(top[0].rating, 1299);
}

async fn per_chat_reads_search_the_chat_not_the_tables(store: Store) {
    fill(&store).await.unwrap();
    let kind = RatingKind::Classic3x3;
    let chat = plan!(store, TOP_CHAT, kind, "test", "chat7", 10i64);
    let chat_month = plan!(
        store,
        TOP_CHAT_MONTHLY,
        kind,
        "test",
        "chat7",
        "2026-01",
        10i64
    );
    for plan in [&chat, &chat_month] {
        no_full_scan(&store, plan, "ratings", "r");
        no_full_scan(&store, plan, "chat_players", "c");
        no_full_scan(&store, plan, "players", "p");
    }
    // A player's public page: both colours from their partial indexes.
    let public = plan!(store, PUBLIC_GAMES_OF, 1007i64, 20i64);
    assert!(
        public.contains("games_public_by_white") && public.contains("games_public_by_black"),
        "{public}"
    );
    no_full_scan(&store, &public, "games", "games");
    let games = plan!(store, ACTIVE_IN_CHAT, "test", "chat7", 1007i64);
    assert!(games.contains("games_active"), "{games}");
    no_full_scan(&store, &games, "games", "games");
    let open = plan!(store, OPEN_IN_CHAT, "test", "chat7");
    assert!(open.contains("challenges_open"), "{open}");
    no_full_scan(&store, &open, "challenges", "challenges");
    let top = store
        .top(kind, None, Some(("test", "chat7")), 10)
        .await
        .unwrap();
    assert_eq!(top.len(), 10);
}

async fn t1_due_timers_are_found_from_their_index(store: Store) {
    fill(&store).await.unwrap();
    let next = plan!(store, NEXT_DUE_GAMES, 0i64);
    assert!(next.contains("games_due"), "{next}");
    no_full_scan(&store, &next, "games", "games");
    let claim = if pg(&store) {
        plan!(store, CLAIM_GAMES_PG, 50_000i64, 60_000i64, 64i64)
    } else {
        plan!(store, CLAIM_GAMES_SQLITE, 50_000i64, 60_000i64, 64i64)
    };
    assert!(claim.contains("games_due"), "{claim}");
    assert_eq!(store.next_due(0).await.unwrap(), Some(10_000));
}
