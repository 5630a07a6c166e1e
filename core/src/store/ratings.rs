//! Ratings and chips: settled in the transaction that ends a game, read for `/rating`,
//! `/top` and `/chips`.

use super::games::{Finish, GameRow};
use super::{Result, Store};
use crate::game::Rules;
use crate::rating::{change, month_of, monthly_now, RatingKind, Score, ABANDON_PENALTY, START};
use sqlx::{Row, SqliteConnection};

/// The rating list a game counts in, if any.
#[must_use]
pub fn kind_of(rules: &str) -> Option<String> {
    let rules = Rules::from_id(rules).ok()?;
    RatingKind::of_rules(&rules).map(|k| k.id().to_string())
}

/// One player's rating change at the end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingChange {
    pub player_id: i64,
    pub kind: String,
    pub before: i64,
    pub after: i64,
    pub monthly_before: i64,
    pub monthly_after: i64,
}

/// A player's standing in one kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub player_id: i64,
    pub name: String,
    pub kind: String,
    pub rating: i64,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// The monthly rating for the month asked about (1000 if none this month).
    pub monthly: i64,
    pub monthly_games: i64,
}

struct Stored {
    rating: i64,
    month: String,
    monthly: i64,
    monthly_games: i64,
}

async fn stored(tx: &mut SqliteConnection, player: i64, kind: &str) -> Result<Stored> {
    let row = sqlx::query("SELECT rating, month, monthly, monthly_games FROM ratings WHERE player_id = ?1 AND kind = ?2")
        .bind(player)
        .bind(kind)
        .fetch_optional(&mut *tx)
        .await?;
    Ok(match row {
        Some(r) => Stored {
            rating: r.get("rating"),
            month: r.get("month"),
            monthly: r.get("monthly"),
            monthly_games: r.get("monthly_games"),
        },
        None => Stored {
            rating: START,
            month: String::new(),
            monthly: START,
            monthly_games: 0,
        },
    })
}

/// Apply one change (a game or a penalty) to a player's rating and write its history row.
#[allow(clippy::too_many_arguments)]
async fn apply(
    tx: &mut SqliteConnection,
    game: &GameRow,
    player: i64,
    kind: &str,
    delta: i64,
    monthly_delta: i64,
    score: Option<Score>,
    now: i64,
) -> Result<RatingChange> {
    let month = month_of(now);
    let s = stored(tx, player, kind).await?;
    let monthly_before = monthly_now(s.monthly, &s.month, &month);
    let monthly_games = if s.month == month { s.monthly_games } else { 0 };
    let (after, monthly_after) = (s.rating + delta, monthly_before + monthly_delta);
    let (w, d, l) = match score {
        Some(Score::Win) => (1, 0, 0),
        Some(Score::Draw) => (0, 1, 0),
        Some(Score::Loss) => (0, 0, 1),
        None => (0, 0, 0),
    };
    let played = i64::from(score.is_some());
    sqlx::query(
        "INSERT INTO ratings (player_id, kind, rating, games, wins, draws, losses, month, monthly, monthly_games)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
         ON CONFLICT (player_id, kind) DO UPDATE SET rating = excluded.rating,
             games = ratings.games + excluded.games, wins = ratings.wins + excluded.wins,
             draws = ratings.draws + excluded.draws, losses = ratings.losses + excluded.losses,
             month = excluded.month, monthly = excluded.monthly, monthly_games = excluded.monthly_games",
    )
    .bind(player)
    .bind(kind)
    .bind(after)
    .bind(played)
    .bind(w)
    .bind(d)
    .bind(l)
    .bind(&month)
    .bind(monthly_after)
    .bind(monthly_games + played)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO rating_history (game_id, player_id, kind, at, month, reason, before, after, monthly_before, monthly_after)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )
    .bind(game.id)
    .bind(player)
    .bind(kind)
    .bind(now)
    .bind(&month)
    .bind(if score.is_some() { "game" } else { "abandon" })
    .bind(s.rating)
    .bind(after)
    .bind(monthly_before)
    .bind(monthly_after)
    .execute(&mut *tx)
    .await?;
    Ok(RatingChange {
        player_id: player,
        kind: kind.to_string(),
        before: s.rating,
        after,
        monthly_before,
        monthly_after,
    })
}

async fn pay(tx: &mut SqliteConnection, player: i64, chips: i64) -> Result<()> {
    sqlx::query("UPDATE players SET chips = chips + ?2 WHERE id = ?1")
        .bind(player)
        .bind(chips)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Settle a game that just ended, inside its transaction: stakes (held since the game
/// began) paid out, ratings moved for rated games, the abandonment penalty taken.
pub(super) async fn settle(
    tx: &mut SqliteConnection,
    game: &GameRow,
    finish: &Finish,
    now: i64,
) -> Result<Vec<RatingChange>> {
    let (white, black) = (game.white_id, game.black_id);
    if let Some(stake) = game.stake {
        match finish.result.as_str() {
            "white" => pay(tx, white, 2 * stake).await?,
            "black" => pay(tx, black, 2 * stake).await?,
            _ => {
                pay(tx, white, stake).await?;
                pay(tx, black, stake).await?;
            }
        }
    }
    let mut changes = Vec::new();
    let kind = match kind_of(&game.rules) {
        Some(k) if game.rated => k,
        _ => return Ok(changes),
    };
    let score = match finish.result.as_str() {
        "white" => Some(Score::Win),
        "black" => Some(Score::Loss),
        "draw" => Some(Score::Draw),
        _ => None,
    };
    if let Some(s) = score {
        let month = month_of(now);
        let w = stored(tx, white, &kind).await?;
        let b = stored(tx, black, &kind).await?;
        let (wm, bm) = (
            monthly_now(w.monthly, &w.month, &month),
            monthly_now(b.monthly, &b.month, &month),
        );
        let d = change(w.rating, b.rating, s);
        let dm = change(wm, bm, s);
        let opposite = match s {
            Score::Win => Score::Loss,
            Score::Loss => Score::Win,
            Score::Draw => Score::Draw,
        };
        changes.push(apply(tx, game, white, &kind, d, dm, Some(s), now).await?);
        changes.push(apply(tx, game, black, &kind, -d, -dm, Some(opposite), now).await?);
    }
    if let Some(quitter) = finish.abandoned_by {
        let c = apply(
            tx,
            game,
            quitter,
            &kind,
            -ABANDON_PENALTY,
            -ABANDON_PENALTY,
            None,
            now,
        )
        .await?;
        // Report one change per player: fold the penalty into the game's change.
        match changes.iter_mut().find(|x| x.player_id == quitter) {
            Some(x) => {
                x.after = c.after;
                x.monthly_after = c.monthly_after;
            }
            None => changes.push(c),
        }
    }
    Ok(changes)
}

fn standing(r: &sqlx::sqlite::SqliteRow, month: &str) -> Standing {
    let stored_month: String = r.get("month");
    let monthly: i64 = r.get("monthly");
    Standing {
        player_id: r.get("player_id"),
        name: r.get("display_name"),
        kind: r.get("kind"),
        rating: r.get("rating"),
        games: r.get("games"),
        wins: r.get("wins"),
        draws: r.get("draws"),
        losses: r.get("losses"),
        monthly: monthly_now(monthly, &stored_month, month),
        monthly_games: if stored_month == month {
            r.get("monthly_games")
        } else {
            0
        },
    }
}

impl Store {
    /// A player's standings in every kind they have played, for `month`.
    pub async fn standings(&self, player: i64, month: &str) -> Result<Vec<Standing>> {
        let rows = sqlx::query(
            "SELECT r.*, p.display_name FROM ratings r JOIN players p ON p.id = r.player_id
             WHERE r.player_id = ?1 ORDER BY r.games DESC, r.kind",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| standing(r, month)).collect())
    }

    /// A player's rank in a kind (1 = best): general (month None) or monthly, over the
    /// whole bot or among the players of one chat (platform, chat).
    pub async fn rank(
        &self,
        player: i64,
        kind: &str,
        month: Option<&str>,
        chat: Option<(&str, &str)>,
    ) -> Result<Option<i64>> {
        let mine = sqlx::query(
            "SELECT rating, month, monthly FROM ratings WHERE player_id = ?1 AND kind = ?2",
        )
        .bind(player)
        .bind(kind)
        .fetch_optional(&self.pool)
        .await?;
        let Some(mine) = mine else { return Ok(None) };
        if month.is_some_and(|m| mine.get::<String, _>("month") != m) {
            return Ok(None); // no rated game this month
        }
        // ?4 NULL: the whole bot; otherwise only players of that chat.
        let (platform, chat) = chat.unzip();
        let above: i64 = match month {
            None => sqlx::query_scalar(
                "SELECT COUNT(*) FROM ratings r WHERE r.kind = ?1 AND r.rating > ?2
                 AND (?3 IS NULL OR EXISTS (SELECT 1 FROM chat_players c
                      WHERE c.player_id = r.player_id AND c.platform = ?3 AND c.chat_id = ?4))",
            )
            .bind(kind)
            .bind(mine.get::<i64, _>("rating"))
            .bind(platform)
            .bind(chat)
            .fetch_one(&self.pool)
            .await?,
            Some(m) => sqlx::query_scalar(
                "SELECT COUNT(*) FROM ratings r WHERE r.kind = ?1 AND r.month = ?5 AND r.monthly > ?2
                 AND (?3 IS NULL OR EXISTS (SELECT 1 FROM chat_players c
                      WHERE c.player_id = r.player_id AND c.platform = ?3 AND c.chat_id = ?4))",
            )
            .bind(kind)
            .bind(mine.get::<i64, _>("monthly"))
            .bind(platform)
            .bind(chat)
            .bind(m)
            .fetch_one(&self.pool)
            .await?,
        };
        Ok(Some(above + 1))
    }

    /// The leaderboard of a kind: top `n` general (month None) or of a month, over the whole
    /// bot or over the players of one chat. Read from the indexes, best first.
    pub async fn top(
        &self,
        kind: &str,
        month: Option<&str>,
        chat: Option<(&str, &str)>,
        n: i64,
    ) -> Result<Vec<Standing>> {
        let m = month.unwrap_or("");
        let rows = match (month, chat) {
            (None, None) => {
                sqlx::query(
                    "SELECT r.*, p.display_name FROM ratings r INDEXED BY ratings_general JOIN players p ON p.id = r.player_id
                     WHERE r.kind = ?1 ORDER BY r.rating DESC, r.player_id LIMIT ?2",
                )
                .bind(kind)
                .bind(n)
                .fetch_all(&self.pool)
                .await?
            }
            (Some(m), None) => {
                sqlx::query(
                    "SELECT r.*, p.display_name FROM ratings r INDEXED BY ratings_monthly JOIN players p ON p.id = r.player_id
                     WHERE r.kind = ?1 AND r.month = ?2 ORDER BY r.monthly DESC, r.player_id LIMIT ?3",
                )
                .bind(kind)
                .bind(m)
                .bind(n)
                .fetch_all(&self.pool)
                .await?
            }
            (None, Some((platform, chat))) => {
                sqlx::query(
                    "SELECT r.*, p.display_name FROM chat_players c JOIN ratings r ON r.player_id = c.player_id AND r.kind = ?1
                     JOIN players p ON p.id = r.player_id
                     WHERE c.platform = ?2 AND c.chat_id = ?3 ORDER BY r.rating DESC, r.player_id LIMIT ?4",
                )
                .bind(kind)
                .bind(platform)
                .bind(chat)
                .bind(n)
                .fetch_all(&self.pool)
                .await?
            }
            (Some(m), Some((platform, chat))) => {
                sqlx::query(
                    "SELECT r.*, p.display_name FROM chat_players c JOIN ratings r ON r.player_id = c.player_id AND r.kind = ?1
                     JOIN players p ON p.id = r.player_id
                     WHERE c.platform = ?2 AND c.chat_id = ?3 AND r.month = ?4 ORDER BY r.monthly DESC, r.player_id LIMIT ?5",
                )
                .bind(kind)
                .bind(platform)
                .bind(chat)
                .bind(m)
                .bind(n)
                .fetch_all(&self.pool)
                .await?
            }
        };
        Ok(rows.iter().map(|r| standing(r, m)).collect())
    }

    /// A player's general rating after each rated game of a kind, starting with the rating
    /// before the first (for the chart).
    pub async fn rating_history(&self, player: i64, kind: &str) -> Result<Vec<(i64, i64, i64)>> {
        let rows = sqlx::query("SELECT before, after, game_id FROM rating_history WHERE player_id = ?1 AND kind = ?2 ORDER BY id")
            .bind(player)
            .bind(kind)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| (r.get("before"), r.get("after"), r.get("game_id")))
            .collect())
    }

    /// Every history row in order: (player, kind, month, before, after, monthly before,
    /// monthly after) — to recompute ratings and check them.
    pub async fn all_rating_history(
        &self,
    ) -> Result<Vec<(i64, String, String, i64, i64, i64, i64)>> {
        let rows = sqlx::query("SELECT player_id, kind, month, before, after, monthly_before, monthly_after FROM rating_history ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| {
                (
                    r.get("player_id"),
                    r.get("kind"),
                    r.get("month"),
                    r.get("before"),
                    r.get("after"),
                    r.get("monthly_before"),
                    r.get("monthly_after"),
                )
            })
            .collect())
    }

    /// Every stored rating: (player, kind, general, month, monthly).
    pub async fn all_ratings(&self) -> Result<Vec<(i64, String, i64, String, i64)>> {
        let rows = sqlx::query(
            "SELECT player_id, kind, rating, month, monthly FROM ratings ORDER BY player_id, kind",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                (
                    r.get("player_id"),
                    r.get("kind"),
                    r.get("rating"),
                    r.get("month"),
                    r.get("monthly"),
                )
            })
            .collect())
    }

    /// A player's chips, read fresh.
    pub async fn chips(&self, player: i64) -> Result<i64> {
        Ok(
            sqlx::query_scalar("SELECT chips FROM players WHERE id = ?1")
                .bind(player)
                .fetch_optional(&self.pool)
                .await?
                .unwrap_or(0),
        )
    }
}

impl Store {
    /// Set a player's rating row directly (data import, benchmarks); no history row.
    pub async fn put_rating(
        &self,
        player: i64,
        kind: &str,
        rating: i64,
        games: i64,
        month: &str,
        monthly: i64,
    ) -> Result<()> {
        sqlx::query(
            "INSERT INTO ratings (player_id, kind, rating, games, month, monthly, monthly_games) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?4)
             ON CONFLICT (player_id, kind) DO UPDATE SET rating = excluded.rating, games = excluded.games,
                 month = excluded.month, monthly = excluded.monthly, monthly_games = excluded.monthly_games",
        )
        .bind(player)
        .bind(kind)
        .bind(rating)
        .bind(games)
        .bind(month)
        .bind(monthly)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::User;

    #[tokio::test]
    async fn r_leaderboards_read_an_index_not_the_table() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        for i in 0..300 {
            let u = User {
                id: format!("u{i}"),
                name: format!("u{i}"),
                handle: None,
            };
            let p = store.player_for("t", &u, 0).await.unwrap();
            store
                .put_rating(
                    p.id,
                    "classic3x3",
                    900 + (i * 37) % 400,
                    5,
                    "2026-01",
                    1000 + i % 50,
                )
                .await
                .unwrap();
            store
                .note_chat_player("t", if i % 2 == 0 { "even" } else { "odd" }, p.id)
                .await
                .unwrap();
        }
        let plan = |sql: &'static str| {
            let store = store.clone();
            async move {
                let rows = sqlx::query(sql).fetch_all(&store.pool).await.unwrap();
                rows.iter()
                    .map(|r| r.get::<String, _>("detail"))
                    .collect::<Vec<_>>()
                    .join(" | ")
            }
        };
        let general = plan(
            "EXPLAIN QUERY PLAN SELECT r.*, p.display_name FROM ratings r INDEXED BY ratings_general JOIN players p ON p.id = r.player_id
             WHERE r.kind = 'classic3x3' ORDER BY r.rating DESC, r.player_id LIMIT 10",
        )
        .await;
        assert!(
            general.contains("USING INDEX ratings_general")
                || general.contains("USING COVERING INDEX ratings_general"),
            "{general}"
        );
        assert!(
            !general.contains("TEMP B-TREE"),
            "no sort of the whole list: {general}"
        );
        let top = store.top("classic3x3", None, None, 10).await.unwrap();
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
        let month = store
            .top("classic3x3", Some("2026-01"), None, 10)
            .await
            .unwrap();
        assert!(month.windows(2).all(|w| w[0].monthly >= w[1].monthly));
        let chat = store
            .top("classic3x3", None, Some(("t", "even")), 10)
            .await
            .unwrap();
        assert!(chat
            .iter()
            .all(|s| s.name.trim_start_matches('u').parse::<i64>().unwrap() % 2 == 0));
        assert_eq!(
            store
                .rank(top[0].player_id, "classic3x3", None, None)
                .await
                .unwrap(),
            Some(1)
        );
    }
}
