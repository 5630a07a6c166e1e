//! Ratings as players read them: `/rating`, `/top` and the chart. (They are written where a
//! game ends: see `games.rs` and the policy in [`crate::settlement`].)

use super::{Result, Store};
use crate::rating::{monthly_now, RatingKind};

/// A player's standing in one kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub player_id: i64,
    pub name: String,
    pub kind: RatingKind,
    pub rating: i64,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// The monthly rating for the month asked about (1000 if none this month).
    pub monthly: i64,
    pub monthly_games: i64,
}

impl Standing {
    /// The rating and its games on a leaderboard: this month's (`monthly`) or all time.
    #[must_use]
    pub fn on_board(&self, monthly: bool) -> (i64, i64) {
        if monthly {
            (self.monthly, self.monthly_games)
        } else {
            (self.rating, self.games)
        }
    }
}

/// A rating row with its player's name, as the leaderboards read it.
#[derive(sqlx::FromRow)]
struct StandingRow {
    player_id: i64,
    display_name: String,
    kind: RatingKind,
    rating: i64,
    games: i64,
    wins: i64,
    draws: i64,
    losses: i64,
    month: String,
    monthly: i64,
    monthly_games: i64,
}

impl StandingRow {
    /// The standing as of `month` (a monthly rating of another month is 1000 again).
    fn into_standing(self, month: &str) -> Standing {
        let this_month = self.month == month;
        Standing {
            player_id: self.player_id,
            name: self.display_name,
            kind: self.kind,
            rating: self.rating,
            games: self.games,
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            monthly: monthly_now(self.monthly, &self.month, month),
            monthly_games: if this_month { self.monthly_games } else { 0 },
        }
    }
}

// The leaderboards, as the index test explains them (`store/tests.rs`): each reads its
// index in order and stops after `LIMIT` rows. The columns are those of `StandingRow`.

/// `/top KIND global`: the whole bot, all time.
pub(crate) const TOP_GENERAL: &str = "SELECT r.player_id, p.display_name, r.kind, r.rating, r.games, r.wins, r.draws, r.losses, r.month, r.monthly, r.monthly_games
     FROM ratings r JOIN players p ON p.id = r.player_id
     WHERE r.kind = $1 AND r.games > 0 ORDER BY r.rating DESC, r.player_id LIMIT $2";
/// `/top KIND month global`: the whole bot, this month.
pub(crate) const TOP_MONTHLY: &str = "SELECT r.player_id, p.display_name, r.kind, r.rating, r.games, r.wins, r.draws, r.losses, r.month, r.monthly, r.monthly_games
     FROM ratings r JOIN players p ON p.id = r.player_id
     WHERE r.kind = $1 AND r.month = $2 AND r.monthly_games > 0 ORDER BY r.monthly DESC, r.player_id LIMIT $3";
/// `/top KIND`: the players of one chat, all time.
pub(crate) const TOP_CHAT: &str = "SELECT r.player_id, p.display_name, r.kind, r.rating, r.games, r.wins, r.draws, r.losses, r.month, r.monthly, r.monthly_games
     FROM chat_players c JOIN ratings r ON r.player_id = c.player_id AND r.kind = $1
     JOIN players p ON p.id = r.player_id
     WHERE c.platform = $2 AND c.chat_id = $3 AND r.games > 0 ORDER BY r.rating DESC, r.player_id LIMIT $4";
/// `/top KIND month`: the players of one chat, this month.
pub(crate) const TOP_CHAT_MONTHLY: &str = "SELECT r.player_id, p.display_name, r.kind, r.rating, r.games, r.wins, r.draws, r.losses, r.month, r.monthly, r.monthly_games
     FROM chat_players c JOIN ratings r ON r.player_id = c.player_id AND r.kind = $1
     JOIN players p ON p.id = r.player_id
     WHERE c.platform = $2 AND c.chat_id = $3 AND r.month = $4 AND r.monthly_games > 0 ORDER BY r.monthly DESC, r.player_id LIMIT $5";

impl Store {
    /// A player's standings in every kind they have played, for `month`.
    /// A player's rating of `kind`, if they have one.
    pub async fn rating_in(&self, player: i64, kind: RatingKind) -> Result<Option<i64>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_scalar(
            "SELECT rating FROM ratings WHERE player_id = $1 AND kind = $2",
        )
        .bind(player)
        .bind(kind)
        .fetch_optional(&mut *conn)
        .await?))
    }

    pub async fn standings(&self, player: i64, month: &str) -> Result<Vec<Standing>> {
        let rows: Vec<StandingRow> = on_db!(self, conn, _pg => sqlx::query_as(
            "SELECT r.player_id, p.display_name, r.kind, r.rating, r.games, r.wins, r.draws, r.losses, r.month, r.monthly, r.monthly_games
             FROM ratings r JOIN players p ON p.id = r.player_id
             WHERE r.player_id = $1 ORDER BY r.games DESC, r.kind",
        )
        .bind(player)
        .fetch_all(&mut *conn)
        .await?);
        Ok(rows.into_iter().map(|r| r.into_standing(month)).collect())
    }

    /// A player's rank in a kind (1 = best): general (month None) or monthly, over the
    /// whole bot or among the players of one chat (platform, chat).
    pub async fn rank(
        &self,
        player: i64,
        kind: RatingKind,
        month: Option<&str>,
        chat: Option<(&str, &str)>,
    ) -> Result<Option<i64>> {
        let mine: Option<(i64, String, i64, i64, i64)> = on_db!(self, conn, _pg => sqlx::query_as(
            "SELECT rating, month, monthly, games, monthly_games FROM ratings WHERE player_id = $1 AND kind = $2",
        )
        .bind(player)
        .bind(kind)
        .fetch_optional(&mut *conn)
        .await?);
        let Some((rating, stored_month, monthly, games, monthly_games)) = mine else {
            return Ok(None);
        };
        if month.is_some_and(|m| stored_month != m) {
            return Ok(None); // no rated game this month
        }
        // A rating without a game (only D6's penalty for abandoning, F1) has no place yet:
        // the leaderboards list players who have played.
        if games == 0 || (month.is_some() && monthly_games == 0) {
            return Ok(None);
        }
        // $3 NULL: the whole bot; otherwise only players of that chat.
        let (platform, chat) = chat.unzip();
        let above: i64 = match month {
            None => on_db!(self, conn, _pg => sqlx::query_scalar(
                "SELECT COUNT(*) FROM ratings r WHERE r.kind = $1 AND r.rating > $2 AND r.games > 0
                 AND ($3 IS NULL OR EXISTS (SELECT 1 FROM chat_players c
                      WHERE c.player_id = r.player_id AND c.platform = $3 AND c.chat_id = $4))",
            )
            .bind(kind)
            .bind(rating)
            .bind(platform)
            .bind(chat)
            .fetch_one(&mut *conn)
            .await?),
            Some(m) => on_db!(self, conn, _pg => sqlx::query_scalar(
                "SELECT COUNT(*) FROM ratings r WHERE r.kind = $1 AND r.month = $5 AND r.monthly > $2
                 AND r.monthly_games > 0 AND ($3 IS NULL OR EXISTS (SELECT 1 FROM chat_players c
                      WHERE c.player_id = r.player_id AND c.platform = $3 AND c.chat_id = $4))",
            )
            .bind(kind)
            .bind(monthly)
            .bind(platform)
            .bind(chat)
            .bind(m)
            .fetch_one(&mut *conn)
            .await?),
        };
        Ok(Some(above + 1))
    }

    /// The leaderboard of a kind: top `n` general (month None) or of a month, over the whole
    /// bot or over the players of one chat. Read from the indexes, best first.
    pub async fn top(
        &self,
        kind: RatingKind,
        month: Option<&str>,
        chat: Option<(&str, &str)>,
        n: i64,
    ) -> Result<Vec<Standing>> {
        let rows: Vec<StandingRow> = on_db!(self, conn, _pg => match (month, chat) {
            (None, None) => sqlx::query_as(TOP_GENERAL).bind(kind).bind(n).fetch_all(&mut *conn).await?,
            (Some(m), None) => {
                sqlx::query_as(TOP_MONTHLY)
                    .bind(kind)
                    .bind(m)
                    .bind(n)
                    .fetch_all(&mut *conn)
                    .await?
            }
            (None, Some((platform, chat))) => {
                sqlx::query_as(TOP_CHAT)
                    .bind(kind)
                    .bind(platform)
                    .bind(chat)
                    .bind(n)
                    .fetch_all(&mut *conn)
                    .await?
            }
            (Some(m), Some((platform, chat))) => {
                sqlx::query_as(TOP_CHAT_MONTHLY)
                    .bind(kind)
                    .bind(platform)
                    .bind(chat)
                    .bind(m)
                    .bind(n)
                    .fetch_all(&mut *conn)
                    .await?
            }
        });
        let m = month.unwrap_or("");
        Ok(rows.into_iter().map(|r| r.into_standing(m)).collect())
    }

    /// A player's general rating after each rated game of a kind, starting with the rating
    /// before the first (for the chart): (before, after, game) per history line.
    pub async fn rating_history(
        &self,
        player: i64,
        kind: RatingKind,
    ) -> Result<Vec<(i64, i64, i64)>> {
        on_db!(self, conn, _pg => Ok(sqlx::query_as(
            "SELECT before, after, game_id FROM rating_history WHERE player_id = $1 AND kind = $2 ORDER BY id",
        )
        .bind(player)
        .bind(kind)
        .fetch_all(&mut *conn)
        .await?))
    }
}
