//! What the end of a game settles (R): stakes paid out, ratings moved, the abandonment
//! penalty taken. Pure policy: the store reads the players' ratings as they stand (locked
//! against other endings), asks [`settle`], and writes what it says in the transaction that
//! ends the game.

use crate::game::GameResult;
use crate::rating::{change, monthly_now, RatingKind, Score, ABANDON_PENALTY, START};

/// A player's rating in one kind as stored, or as it starts for someone never rated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rated {
    pub rating: i64,
    /// The month (`2026-11`) the monthly figures belong to; another month means 1000 again.
    pub month: String,
    pub monthly: i64,
    pub monthly_games: i64,
}

impl Rated {
    /// The rating of a player with no rated game in the kind.
    #[must_use]
    pub fn newcomer() -> Rated {
        Rated {
            rating: START,
            month: String::new(),
            monthly: START,
            monthly_games: 0,
        }
    }
}

/// Why a history row was written: a rated game, or the monitor's abandonment penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "table",
    derive(sqlx::Type),
    sqlx(type_name = "rating_reason", rename_all = "lowercase")
)]
pub enum Reason {
    Game,
    Abandon,
}

/// One line of a player's rating history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    pub player: i64,
    pub reason: Reason,
    pub month: String,
    pub before: i64,
    pub after: i64,
    pub monthly_before: i64,
    pub monthly_after: i64,
}

/// A player's rating row after the game: the new figures and what to add to the counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingRow {
    pub player: i64,
    pub now: Rated,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
}

/// One player's rating change at the end of a game, the penalty folded in (what the chat
/// is told).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingChange {
    pub player_id: i64,
    pub kind: RatingKind,
    pub before: i64,
    pub after: i64,
    pub monthly_before: i64,
    pub monthly_after: i64,
}

/// The facts of an ended game that settling reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    pub white: i64,
    pub black: i64,
    /// Chips each player put in when the game began.
    pub stake: Option<i64>,
    /// The list it counts in: `Some` only for a rated game of a rated kind.
    pub kind: Option<RatingKind>,
    pub result: GameResult,
    /// The player who abandoned the game (activity monitor): costs rating points.
    pub abandoned_by: Option<i64>,
}

/// Everything an ending writes besides the game row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settlement {
    /// Chips paid back to players: (player, chips).
    pub payouts: Vec<(i64, i64)>,
    /// Rating rows to write, one per player whose rating moved.
    pub rows: Vec<RatingRow>,
    /// History lines, in the order they happened.
    pub history: Vec<History>,
    /// What the chat is told, one per player.
    pub changes: Vec<RatingChange>,
}

/// The stakes of a game that ended: the winner takes both, otherwise each gets theirs back.
fn payouts(e: &Ended) -> Vec<(i64, i64)> {
    let Some(stake) = e.stake else {
        return Vec::new();
    };
    match e.result.winner() {
        Some(crate::Color::White) => vec![(e.white, 2 * stake)],
        Some(crate::Color::Black) => vec![(e.black, 2 * stake)],
        None => vec![(e.white, stake), (e.black, stake)],
    }
}

/// A rating as it stands in `month`, and one change applied to it.
fn apply(
    state: &mut Rated,
    player: i64,
    delta: i64,
    monthly_delta: i64,
    reason: Reason,
    month: &str,
) -> History {
    let monthly_before = monthly_now(state.monthly, &state.month, month);
    if state.month != month {
        state.monthly_games = 0;
    }
    let before = state.rating;
    state.rating += delta;
    state.monthly = monthly_before + monthly_delta;
    state.month = month.to_string();
    History {
        player,
        reason,
        month: month.to_string(),
        before,
        after: state.rating,
        monthly_before,
        monthly_after: state.monthly,
    }
}

/// The players whose rating an ending moves (the store locks their rating rows first).
#[must_use]
pub fn touched(e: &Ended) -> Vec<i64> {
    if e.kind.is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if e.result != GameResult::Void {
        out.extend([e.white, e.black]);
    }
    if let Some(q) = e.abandoned_by {
        if !out.contains(&q) {
            out.push(q);
        }
    }
    out
}

/// Settle an ended game against the players' ratings as they stand (`white`, `black`: in
/// the game's kind; ignored when it has none) in `month`.
#[must_use]
pub fn settle(e: &Ended, white: &Rated, black: &Rated, month: &str) -> Settlement {
    let mut out = Settlement {
        payouts: payouts(e),
        ..Settlement::default()
    };
    let Some(kind) = e.kind else {
        return out;
    };
    let score = match e.result {
        GameResult::White => Some(Score::Win),
        GameResult::Black => Some(Score::Loss),
        GameResult::Draw => Some(Score::Draw),
        GameResult::Void => None,
    };
    let mut rows: Vec<RatingRow> = Vec::new();
    if let Some(s) = score {
        let (wm, bm) = (
            monthly_now(white.monthly, &white.month, month),
            monthly_now(black.monthly, &black.month, month),
        );
        let d = change(white.rating, black.rating, s);
        let dm = change(wm, bm, s);
        let opposite = match s {
            Score::Win => Score::Loss,
            Score::Loss => Score::Win,
            Score::Draw => Score::Draw,
        };
        for (player, state, delta, monthly_delta, score) in [
            (e.white, white, d, dm, s),
            (e.black, black, -d, -dm, opposite),
        ] {
            let mut now = state.clone();
            out.history.push(apply(
                &mut now,
                player,
                delta,
                monthly_delta,
                Reason::Game,
                month,
            ));
            now.monthly_games += 1;
            rows.push(RatingRow {
                player,
                now,
                games: 1,
                wins: i64::from(score == Score::Win),
                draws: i64::from(score == Score::Draw),
                losses: i64::from(score == Score::Loss),
            });
        }
    }
    if let Some(quitter) = e.abandoned_by {
        let index = if let Some(i) = rows.iter().position(|r| r.player == quitter) {
            i
        } else {
            let state = if quitter == e.white { white } else { black };
            rows.push(RatingRow {
                player: quitter,
                now: state.clone(),
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
            });
            rows.len() - 1
        };
        let row = &mut rows[index];
        out.history.push(apply(
            &mut row.now,
            quitter,
            -ABANDON_PENALTY,
            -ABANDON_PENALTY,
            Reason::Abandon,
            month,
        ));
    }
    // One change per player: from before the first history line to after the last.
    for row in &rows {
        let mut mine = out.history.iter().filter(|h| h.player == row.player);
        let first = mine.clone().next();
        let last = mine.next_back();
        if let (Some(first), Some(last)) = (first, last) {
            out.changes.push(RatingChange {
                player_id: row.player,
                kind,
                before: first.before,
                after: last.after,
                monthly_before: first.monthly_before,
                monthly_after: last.monthly_after,
            });
        }
    }
    out.rows = rows;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(result: GameResult) -> Ended {
        Ended {
            white: 1,
            black: 2,
            stake: None,
            kind: Some(RatingKind::Classic3x3),
            result,
            abandoned_by: None,
        }
    }

    fn rated(rating: i64, month: &str, monthly: i64, games: i64) -> Rated {
        Rated {
            rating,
            month: month.into(),
            monthly,
            monthly_games: games,
        }
    }

    #[test]
    fn r_newcomers_win_and_lose_fifteen() {
        let s = settle(
            &ended(GameResult::White),
            &Rated::newcomer(),
            &Rated::newcomer(),
            "2026-11",
        );
        assert!(s.payouts.is_empty());
        assert_eq!(s.rows.len(), 2);
        assert_eq!(s.rows[0].now, rated(1015, "2026-11", 1015, 1));
        assert_eq!((s.rows[0].wins, s.rows[0].losses), (1, 0));
        assert_eq!(s.rows[1].now, rated(985, "2026-11", 985, 1));
        assert_eq!((s.rows[1].wins, s.rows[1].losses), (0, 1));
        assert_eq!(s.changes[0].after - s.changes[0].before, 15);
        assert_eq!(s.history.len(), 2);
    }

    #[test]
    fn r_monthly_rating_restarts_in_a_new_month() {
        let s = settle(
            &ended(GameResult::Draw),
            &rated(1200, "2026-10", 1100, 9),
            &rated(1000, "2026-11", 1000, 3),
            "2026-11",
        );
        // General: 1200 vs 1000 drawn: −8 / +8. Monthly: 1000 (new month) vs 1000: 0.
        assert_eq!(s.rows[0].now, rated(1192, "2026-11", 1000, 1));
        assert_eq!(s.rows[1].now, rated(1008, "2026-11", 1000, 4));
        assert_eq!(s.rows[0].draws, 1);
    }

    #[test]
    fn r_void_games_move_no_rating_and_return_stakes() {
        let mut e = ended(GameResult::Void);
        e.stake = Some(50);
        let s = settle(&e, &Rated::newcomer(), &Rated::newcomer(), "2026-11");
        assert_eq!(s.payouts, vec![(1, 50), (2, 50)]);
        assert!(s.rows.is_empty() && s.history.is_empty() && s.changes.is_empty());
    }

    #[test]
    fn r_the_winner_takes_both_stakes() {
        let mut e = ended(GameResult::Black);
        e.stake = Some(30);
        e.kind = None;
        let s = settle(&e, &Rated::newcomer(), &Rated::newcomer(), "2026-11");
        assert_eq!(s.payouts, vec![(2, 60)]);
        assert!(s.rows.is_empty());
    }

    #[test]
    fn r_d6_abandonment_costs_twenty_on_top_of_the_loss() {
        let mut e = ended(GameResult::White);
        e.abandoned_by = Some(2);
        let s = settle(&e, &Rated::newcomer(), &Rated::newcomer(), "2026-11");
        assert_eq!(s.history.len(), 3);
        assert_eq!(s.history[2].reason, Reason::Abandon);
        assert_eq!((s.history[2].before, s.history[2].after), (985, 965));
        let black = s.changes.iter().find(|c| c.player_id == 2).unwrap();
        assert_eq!((black.before, black.after), (1000, 965));
        assert_eq!(s.rows[1].now.rating, 965);
        assert_eq!(s.rows[1].games, 1, "the penalty is not a game");
    }

    #[test]
    fn r_d6_annulled_abandonment_still_costs_twenty() {
        let mut e = ended(GameResult::Void);
        e.abandoned_by = Some(1);
        let s = settle(
            &e,
            &rated(1100, "2026-11", 1050, 2),
            &Rated::newcomer(),
            "2026-11",
        );
        assert_eq!(s.rows.len(), 1);
        assert_eq!(s.rows[0].now, rated(1080, "2026-11", 1030, 2));
        assert_eq!(s.rows[0].games, 0);
        assert_eq!(s.changes.len(), 1);
    }

    #[test]
    fn touched_names_exactly_the_players_whose_rows_change() {
        for result in [GameResult::White, GameResult::Draw, GameResult::Void] {
            for quitter in [None, Some(1), Some(2)] {
                for kind in [None, Some(RatingKind::Damas)] {
                    let mut e = ended(result);
                    e.abandoned_by = quitter;
                    e.kind = kind;
                    let s = settle(&e, &Rated::newcomer(), &Rated::newcomer(), "2026-11");
                    let mut rows: Vec<i64> = s.rows.iter().map(|r| r.player).collect();
                    let mut t = touched(&e);
                    rows.sort_unstable();
                    t.sort_unstable();
                    assert_eq!(rows, t, "{e:?}");
                }
            }
        }
    }

    #[test]
    fn casual_games_settle_only_stakes() {
        let mut e = ended(GameResult::White);
        e.kind = None;
        e.abandoned_by = Some(2);
        let s = settle(&e, &Rated::newcomer(), &Rated::newcomer(), "2026-11");
        assert_eq!(s, Settlement::default());
    }
}
