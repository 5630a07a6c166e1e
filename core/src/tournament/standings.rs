//! Standings, recomputed from the games alone: each entrant's score, its games as marks,
//! its tie-breaks and its performance, in order.
//!
//! - **Swiss**: score, then Buchholz (the sum of the opponents' scores; a bye adds
//!   nothing), then Sonneborn-Berger (the scores of the opponents beaten, and half those
//!   of the opponents drawn with).
//! - **Round robin**: score, then Sonneborn-Berger (Buchholz is the same for everyone who
//!   played everyone), then wins.
//! - **Arena**: points (streaks doubled, see [`super::arena`]), then performance.
//!
//! Then, in every format, the order of joining. Performance: the opponents' mean rating
//! plus 400 × (wins − losses) / games, over decided games.

use super::{arena, Entrant, Format, Played};
use crate::game::GameResult;
use crate::rating::Score;

/// One game on a standings line, in the order played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Win,
    Draw,
    Loss,
    /// A round sat out that scores (Swiss: a point).
    Bye,
    /// A round sat out for no points (a round robin's odd player each round).
    SatOut,
    /// Still being played.
    Running,
}

/// An entrant's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub entrant: Entrant,
    /// Half-points (Swiss, round robin: a win or a bye 2, a draw 1), or arena points.
    pub score: u32,
    pub marks: Vec<Mark>,
    /// Half-points.
    pub buchholz: u32,
    /// The opponents' half-points, each times the half-points scored against them (a
    /// win 2, a draw 1): four times the usual figure.
    pub sonneborn_berger: u32,
    pub wins: u32,
    pub performance: Option<i64>,
}

/// The standings of `entrants` after `games` (in the order they ended: an arena's streaks
/// follow it) and `byes` (an entry per round sat out, with its round: a Swiss bye scores a
/// point, a round robin's none), best first. A Swiss or round robin line's marks are in
/// the order of the rounds, the rounds sat out among them.
#[must_use]
pub fn standings(
    format: Format,
    entrants: &[Entrant],
    games: &[Played],
    byes: &[(u32, Entrant)],
    rating: impl Fn(Entrant) -> i64,
) -> Vec<Line> {
    let mut lines: Vec<Line> = entrants
        .iter()
        .map(|&e| line(format, e, games, byes, &rating))
        .collect();
    let score_of = |e: Entrant| lines_score(format, e, games, byes);
    for l in &mut lines {
        for g in games {
            let (Some(opp), Some(mine)) = (g.opponent_of(l.entrant), g.half_points_of(l.entrant))
            else {
                continue;
            };
            let theirs = score_of(opp);
            l.buchholz += theirs;
            l.sonneborn_berger += theirs * mine;
        }
    }
    lines.sort_by(|a, b| {
        let first = b.score.cmp(&a.score);
        let then = match format {
            Format::Swiss => b
                .buchholz
                .cmp(&a.buchholz)
                .then(b.sonneborn_berger.cmp(&a.sonneborn_berger)),
            Format::RoundRobin => b
                .sonneborn_berger
                .cmp(&a.sonneborn_berger)
                .then(b.wins.cmp(&a.wins)),
            Format::Arena => b.performance.cmp(&a.performance),
        };
        first.then(then).then(a.entrant.cmp(&b.entrant))
    });
    lines
}

/// An entrant's score alone (for its opponents' tie-breaks).
fn lines_score(format: Format, e: Entrant, games: &[Played], byes: &[(u32, Entrant)]) -> u32 {
    let played = || -> u32 { games.iter().filter_map(|g| g.half_points_of(e)).sum() };
    match format {
        Format::Arena => arena::points(results_of(e, games)).points,
        Format::RoundRobin => played(),
        Format::Swiss => {
            let byes = byes.iter().filter(|&&(_, b)| b == e).count();
            played() + 2 * u32::try_from(byes).unwrap_or(0)
        }
    }
}

/// An entrant's decided results, in order.
fn results_of(e: Entrant, games: &[Played]) -> impl Iterator<Item = Score> + '_ {
    games
        .iter()
        .filter_map(move |g| match g.half_points_of(e)? {
            2 => Some(Score::Win),
            1 => Some(Score::Draw),
            _ => Some(Score::Loss),
        })
}

fn line(
    format: Format,
    e: Entrant,
    games: &[Played],
    byes: &[(u32, Entrant)],
    rating: &impl Fn(Entrant) -> i64,
) -> Line {
    let mut marks = Vec::new();
    let (mut wins, mut losses, mut decided, mut opponents) = (0u32, 0i64, 0i64, 0i64);
    let mut rounds: Vec<(u32, Mark)> = Vec::new();
    for g in games {
        let Some(opp) = g.opponent_of(e) else {
            continue;
        };
        let mark = match (g.result, g.half_points_of(e)) {
            (None, _) => Mark::Running,
            (Some(GameResult::Void), _) | (_, None) => continue,
            (_, Some(2)) => Mark::Win,
            (_, Some(1)) => Mark::Draw,
            _ => Mark::Loss,
        };
        match mark {
            Mark::Win => wins += 1,
            Mark::Loss => losses += 1,
            _ => {}
        }
        if mark != Mark::Running {
            decided += 1;
            opponents += rating(opp);
        }
        rounds.push((g.round, mark));
    }
    let sat_out = if format == Format::Swiss {
        Mark::Bye
    } else {
        Mark::SatOut
    };
    rounds.extend(
        byes.iter()
            .filter(|&&(_, b)| b == e)
            .map(|&(r, _)| (r, sat_out)),
    );
    if format != Format::Arena {
        // (Stable: an arena's games stay in the order they ended.)
        rounds.sort_by_key(|&(round, _)| round);
    }
    marks.extend(rounds.into_iter().map(|(_, m)| m));
    let performance =
        (decided > 0).then(|| (opponents + 400 * (i64::from(wins) - losses)) / decided);
    Line {
        entrant: e,
        score: lines_score(format, e, games, byes),
        marks,
        buchholz: 0,
        sonneborn_berger: 0,
        wins,
        performance,
    }
}

#[cfg(test)]
mod tests {
    use super::{standings, Mark};
    use crate::game::GameResult::{Black, Draw, White};
    use crate::tournament::{Format, Played};

    fn g(round: u32, white: usize, black: usize, r: crate::game::GameResult) -> Played {
        Played {
            round,
            white,
            black,
            result: Some(r),
        }
    }

    #[test]
    fn swiss_ties_are_broken_by_buchholz_then_sonneborn_berger() {
        // Four entrants, three rounds, everyone met everyone.
        let games = [
            g(1, 0, 1, White),
            g(1, 2, 3, Draw),
            g(2, 2, 0, White),
            g(2, 1, 3, White),
            g(3, 0, 3, Draw),
            g(3, 1, 2, Black),
        ];
        let lines = standings(Format::Swiss, &[0, 1, 2, 3], &games, &[], |_| 1500);
        let order: Vec<(usize, u32)> = lines.iter().map(|l| (l.entrant, l.score)).collect();
        // 2: W W D = 5 half-points; 0: W L D = 3; 1: L W L = 2; 3: D L D = 2. 1 and 3 tie
        // on Buchholz too (3+2+5 = 10 against 5+2+3 = 10); Sonneborn-Berger parts them: 1
        // beat 3 (2 × 2 = 4), 3 drew with 2 and 0 (5 × 1 + 3 × 1 = 8), so 3 is third.
        assert_eq!(order, [(2, 5), (0, 3), (3, 2), (1, 2)]);
        let (three, one) = (&lines[2], &lines[3]);
        assert_eq!((one.buchholz, three.buchholz), (10, 10));
        assert_eq!((one.sonneborn_berger, three.sonneborn_berger), (4, 8));
    }

    #[test]
    fn marks_byes_and_performance() {
        let games = [
            g(1, 0, 1, White),
            g(2, 2, 0, Draw),
            Played {
                round: 3,
                white: 0,
                black: 3,
                result: None,
            },
        ];
        let lines = standings(Format::Swiss, &[0, 1, 2, 3], &games, &[(2, 3)], |e| {
            [1500, 1400, 1600, 1500][e]
        });
        let zero = lines.iter().find(|l| l.entrant == 0).unwrap();
        assert_eq!(zero.marks, [Mark::Win, Mark::Draw, Mark::Running]);
        assert_eq!(zero.score, 3);
        // Opponents 1400 and 1600 decided: (3000 + 400 × 1) / 2.
        assert_eq!(zero.performance, Some(1700));
        let three = lines.iter().find(|l| l.entrant == 3).unwrap();
        assert_eq!(
            three.marks,
            [Mark::Bye, Mark::Running],
            "in the rounds' order"
        );
        assert_eq!(three.score, 2, "a bye is a point");
    }

    /// A round robin's player who sits a round out is marked in that round, for no points.
    #[test]
    fn a_round_robins_round_sat_out_is_marked_in_its_round_for_no_points() {
        let games = [g(1, 1, 2, White), g(2, 0, 1, Draw), g(3, 2, 0, Black)];
        let byes = [(1, 0), (2, 2), (3, 1)];
        let lines = standings(Format::RoundRobin, &[0, 1, 2], &games, &byes, |_| 1500);
        let zero = lines.iter().find(|l| l.entrant == 0).unwrap();
        assert_eq!(zero.marks, [Mark::SatOut, Mark::Draw, Mark::Win]);
        assert_eq!(
            zero.score, 3,
            "a draw and a win; the round sat out adds nothing"
        );
        let two = lines.iter().find(|l| l.entrant == 2).unwrap();
        assert_eq!(two.marks, [Mark::Loss, Mark::SatOut, Mark::Loss]);
        assert_eq!(two.score, 0);
    }

    #[test]
    fn an_arena_counts_streaks_in_the_order_games_ended() {
        let games = [
            g(1, 0, 1, White),
            g(2, 2, 0, Black),
            g(3, 0, 3, White),
            g(4, 1, 2, Draw),
        ];
        let lines = standings(Format::Arena, &[0, 1, 2, 3], &games, &[], |_| 1500);
        assert_eq!(lines[0].entrant, 0);
        assert_eq!(
            lines[0].score,
            2 + 2 + 4,
            "the third win in a row counts double"
        );
    }
}
