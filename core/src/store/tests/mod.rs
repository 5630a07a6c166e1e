//! The store's test suite, run on both backends: each suite function takes a fresh store,
//! and [`on_both!`] makes a `sqlite::NAME` test (in memory) and a `postgres::NAME` test (a
//! database of its own on the server `DATABASE_URL_PG` names; skipped, with the reason
//! printed, when it is unset). Also the read-everything helpers other tests check with.

pub(crate) mod pg;

mod games;
mod indexes;
mod outbox;
mod players;
mod processes;
mod ratings;
mod timers;

use super::{ChallengeRow, GameRow, Player, Result, Store};
use crate::color::ColorChoice;
use crate::game::Rules;
use crate::rating::RatingKind;

/// One suite function as a test on each backend.
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    super::$name(crate::store::tests::sqlite().await).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    let Some(db) = crate::store::tests::pg::TestDb::create(stringify!($name)).await
                    else {
                        return;
                    };
                    super::$name(db.store().await).await;
                }
            )*
        }
    };
}
pub(crate) use on_both;

/// A fresh in-memory `SQLite` store.
pub(crate) async fn sqlite() -> Store {
    Store::connect("sqlite::memory:").await.expect("store")
}

pub(crate) const T0: i64 = 1_767_225_600_000; // 2026-01-01 00:00 UTC

/// A player named `name` on the test platform.
pub(crate) async fn player(store: &Store, name: &str) -> Player {
    store
        .player_for("test", &format!("id-{name}"), name, Some(name), T0)
        .await
        .expect("player")
}

/// A challenge from `from` to `to` in chat `chat` (classic 3×3 unless said, 5+0, casual).
pub(crate) async fn challenge(
    store: &Store,
    chat: &str,
    from: &Player,
    to: Option<&Player>,
    rules: &str,
    rated: bool,
    stake: Option<i64>,
) -> ChallengeRow {
    store
        .create_challenge(
            &super::NewChallenge {
                platform: "test".into(),
                chat: chat.into(),
                chat_kind: "group".into(),
                challenger_id: from.id,
                target_id: to.map(|p| p.id),
                target_handle: None,
                rules: Rules::from_id(rules).expect("rules"),
                time_control: "5+0".into(),
                rated,
                color: ColorChoice::White,
                movetime_ms: None,
                monitor: false,
                stake,
                created_at: T0,
                expires_at: T0 + 600_000,
            },
            crate::store::Says::nothing(),
        )
        .await
        .expect("challenge")
}

/// A game between `white` and `black` in `chat`, started from a challenge.
pub(crate) async fn game(
    store: &Store,
    chat: &str,
    white: &Player,
    black: &Player,
    rules: &str,
    rated: bool,
    stake: Option<i64>,
) -> GameRow {
    let c = challenge(store, chat, white, Some(black), rules, rated, stake).await;
    let accepted = store
        .accept_challenge(
            c.id,
            &super::NewGame {
                rules: c.rules.clone(),
                start_position: None,
                white_id: white.id,
                black_id: black.id,
                rated,
                stake,
                time_control: "5+0".into(),
                bank_ms: 300_000,
                movetime_ms: None,
                monitor: false,
                now: T0,
            },
            crate::store::Says::nothing(),
        )
        .await
        .expect("accept");
    match accepted {
        super::Accepted::Started(g) => *g,
        other => panic!("{other:?}"),
    }
}

/// Rows read whole, for tests that check the store against a recomputation.
impl Store {
    /// Every stored rating: (player, kind, general, month, monthly).
    pub(crate) async fn all_ratings(&self) -> Result<Vec<(i64, String, i64, String, i64)>> {
        let rows: Vec<(i64, RatingKind, i64, String, i64)> = on_db!(self, conn, _pg => sqlx::query_as(
            "SELECT player_id, kind, rating, month, monthly FROM ratings ORDER BY player_id, kind",
        )
        .fetch_all(&mut *conn)
        .await?);
        Ok(rows
            .into_iter()
            .map(|(p, k, r, m, mr)| (p, k.id().to_string(), r, m, mr))
            .collect())
    }

    /// Every history row in order: (player, kind, month, before, after, monthly before,
    /// monthly after).
    pub(crate) async fn all_rating_history(
        &self,
    ) -> Result<Vec<(i64, String, String, i64, i64, i64, i64)>> {
        let rows: Vec<(i64, RatingKind, String, i64, i64, i64, i64)> = on_db!(self, conn, _pg => sqlx::query_as(
            "SELECT player_id, kind, month, before, after, monthly_before, monthly_after FROM rating_history ORDER BY id",
        )
        .fetch_all(&mut *conn)
        .await?);
        Ok(rows
            .into_iter()
            .map(|(p, k, m, b, a, mb, ma)| (p, k.id().to_string(), m, b, a, mb, ma))
            .collect())
    }

    /// Every open challenge.
    pub(crate) async fn open_challenges(&self) -> Result<Vec<ChallengeRow>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as("SELECT * FROM challenges WHERE status = 'open' ORDER BY id")
            .fetch_all(&mut *conn)
            .await?))
    }

    /// Set a player's rating row directly; no history row.
    pub(crate) async fn put_rating(
        &self,
        player: i64,
        kind: RatingKind,
        rating: i64,
        games: i64,
        month: &str,
        monthly: i64,
    ) -> Result<()> {
        on_db!(self, conn, _pg => {
            sqlx::query(
                "INSERT INTO ratings (player_id, kind, rating, games, month, monthly, monthly_games) VALUES ($1, $2, $3, $4, $5, $6, $4)
                 ON CONFLICT (player_id, kind) DO UPDATE SET rating = excluded.rating, games = excluded.games,
                     month = excluded.month, monthly = excluded.monthly, monthly_games = excluded.monthly_games",
            )
            .bind(player)
            .bind(kind)
            .bind(rating)
            .bind(games)
            .bind(month)
            .bind(monthly)
            .execute(&mut *conn)
            .await?;
        });
        Ok(())
    }

    /// Run one statement of a test's own (a damaged row, a clock moved by hand).
    pub(crate) async fn exec(&self, sql: &'static str) -> Result<u64> {
        on_db!(self, conn, _pg => Ok(sqlx::query(sql).execute(&mut *conn).await?.rows_affected()))
    }
}
