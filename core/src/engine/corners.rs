//! Corners for the search: hashing, move ordering and the evaluation of a race.
//!
//! The evaluation follows what strong Halma and Ugolki programs weigh: how far each piece
//! still has to go to a free square of its target (the race itself), pieces already in the
//! target, the straggler left furthest behind (the last piece decides the race), pieces
//! still at home as the C6 deadline nears, and a tempo for the side to move — Black moves
//! last (C5: White completing first still lets Black draw by completing on the same move),
//! so the move in hand is worth about half a step.

use super::search::{End, Node};
use super::zobrist::{fold, KEYS};
use crate::color::Color;
use crate::corners::{Move, Position};
use crate::square::Square;

#[derive(Clone, Copy, Debug)]
pub(crate) struct CornersNode(pub Position);

/// The fixed facts of the game being searched.
pub(crate) struct Ctx {
    width: u8,
    diagonal: bool,
    /// Target squares per side (the other side's home), as square indices.
    targets: [Vec<usize>; 2],
    /// Per side, per target square (in `targets`' order), its distance from every square:
    /// row `k` is `dist[k * squares ..][.. squares]` (looked up, not computed, per piece).
    dist: [Vec<u8>; 2],
    squares: usize,
    /// Per side, the centre of its target (×2, to stay in integers): where moves head.
    centre: [(i32, i32); 2],
}

impl Ctx {
    pub fn new(pos: &Position) -> Ctx {
        let sets = pos.sets();
        let w = sets.width;
        let indices = |limbs: &[u64; 4]| -> Vec<usize> {
            let mut out = Vec::new();
            each(limbs, |i| out.push(i));
            out
        };
        // White's target is Black's home and the other way round.
        let targets = [indices(&sets.home[1]), indices(&sets.home[0])];
        let mut ctx = Ctx {
            width: w,
            diagonal: sets.diagonal,
            targets,
            dist: [Vec::new(), Vec::new()],
            squares: usize::from(w) * usize::from(w),
            centre: [(0, 0); 2],
        };
        for side in 0..2 {
            let t: Vec<(i32, i32)> = ctx.targets[side].iter().map(|&i| ctx.at(i)).collect();
            let n = i32::try_from(t.len().max(1)).unwrap_or(1);
            ctx.centre[side] = (
                t.iter().map(|p| p.0).sum::<i32>() * 2 / n,
                t.iter().map(|p| p.1).sum::<i32>() * 2 / n,
            );
            ctx.dist[side] = t
                .iter()
                .flat_map(|&target| (0..ctx.squares).map(move |i| (target, i)))
                .map(|(target, i)| u8::try_from(ctx.dist(ctx.at(i), target)).unwrap_or(u8::MAX))
                .collect();
        }
        ctx
    }

    #[inline]
    fn dist(&self, a: (i32, i32), b: (i32, i32)) -> i32 {
        let (df, dr) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
        if self.diagonal {
            df.max(dr)
        } else {
            df + dr
        }
    }

    fn at(&self, i: usize) -> (i32, i32) {
        let s = Square::from_index(i, self.width);
        (i32::from(s.file), i32::from(s.rank))
    }
}

fn each(limbs: &[u64; 4], mut f: impl FnMut(usize)) {
    for (l, &limb) in limbs.iter().enumerate() {
        let mut b = limb;
        while b != 0 {
            f(l * 64 + b.trailing_zeros() as usize);
            b &= b - 1;
        }
    }
}

fn has(limbs: &[u64; 4], i: usize) -> bool {
    limbs[i / 64] >> (i % 64) & 1 == 1
}

/// Weights, in tenths of a step.
const STEP: i32 = 10;
const IN_TARGET: i32 = 6;
const STRAGGLER: i32 = 4;
const TEMPO: i32 = 5;

/// How well `side` is doing in the race (higher is better).
fn race(pos: &Position, sets: &crate::corners::Sets, ctx: &Ctx, side: Color) -> i32 {
    let me = side.index();
    let own = &sets.pieces[me];
    // The rows of the target squares this side has not filled yet (a home has at most a
    // quarter of the board: 64 squares on 16×16).
    let mut free = [0usize; 64];
    let mut n = 0;
    for (k, &t) in ctx.targets[me].iter().enumerate() {
        if !has(own, t) && n < free.len() {
            free[n] = k * ctx.squares;
            n += 1;
        }
    }
    let rows = &ctx.dist[me];
    let mut sum = 0;
    let mut worst = 0;
    let mut home = 0;
    let mut in_target = 0;
    each(own, |i| {
        if has(&sets.home[1 - me], i) {
            in_target += 1;
            return;
        }
        if has(&sets.home[me], i) {
            home += 1;
        }
        let d = free[..n]
            .iter()
            .map(|&row| i32::from(rows[row + i]))
            .min()
            .unwrap_or(0);
        sum += d;
        worst = worst.max(d);
    });
    weigh(pos, sum, worst, home, in_target)
}

/// The race's worth from its measures: the steps still to go (`sum`), the straggler's
/// (`worst`), the pieces still at home and those in the target.
fn weigh(pos: &Position, sum: i32, worst: i32, home: i32, in_target: i32) -> i32 {
    let mut score = -STEP * sum - STRAGGLER * worst + IN_TARGET * in_target;
    // C6: every piece must be out of home by the deadline; the nearer it is, the more a
    // piece still at home costs.
    if let Some(deadline) = pos.deadline() {
        let left = i32::from(deadline) - i32::from(pos.move_number());
        if left >= 0 && home > 0 {
            score -= home * (20 + 400 / (left + 1));
        }
    }
    score
}

/// What the other side's failing the deadline is worth while one's own home is empty (in
/// tenths of a step): far more than any race, far less than a game proven won. Each piece
/// still at home takes a share off, the larger the fewer moves are left to take it out
/// (its last pieces out decide between a win and a draw).
const HOPELESS: i32 = 5_000;

/// [`HOPELESS`] for a side with `home` pieces at home and `left` moves to take them out
/// (`home <= left`): from all of it down to a share for the last move.
fn outlook(home: i32, left: i32) -> i32 {
    HOPELESS * (left + 1 - home) / (left + 1)
}

/// C6 settled by counting, from the side to move's view: a move takes one piece out at
/// most, so a side with more pieces at home than moves before
/// the check cannot empty it and loses there, or draws if the other side cannot either.
/// Then the race no longer matters, only whether the other side gets its last pieces out:
/// the search sees that from as far as it sees the deadline, where the race's penalty for
/// pieces at home only leans that way. `None` while both sides still can.
fn deadline_outlook(
    pos: &Position,
    sets: &crate::corners::Sets,
    ctx: &Ctx,
    me: Color,
) -> Option<i32> {
    // Where blocking is allowed a piece at home can still be blocked in by the time of the
    // check (even by its own side's moves, beside an opponent's piece), and then does not
    // count: counting proves nothing there.
    if pos.is_solo() || !sets.no_blocking {
        return None;
    }
    let left = [
        pos.moves_before_deadline(me)?,
        pos.moves_before_deadline(me.opponent())?,
    ];
    // The pieces at home (none is exempt where blocking is forbidden).
    let home = [me, me.opponent()].map(|side| {
        let i = side.index();
        let n: u32 = (0..4)
            .map(|l| (sets.pieces[i][l] & sets.home[i][l]).count_ones())
            .sum();
        i32::try_from(n).unwrap_or(i32::MAX)
    });
    // To move with as many at home as moves left, every move must take one out: if none
    // can now, it is late already.
    let must_leave_now = home[0] == left[0] && home[0] > 0;
    let late = [
        home[0] > left[0] || (must_leave_now && !pos.can_leave_home_now()),
        home[1] > left[1],
    ];
    let settled = match late {
        [false, false] => return None,
        [true, true] => return Some(0),
        [true, false] => -outlook(home[1], left[1]),
        [false, true] => {
            let mut mine = home[0];
            // The last piece at home, on the last move before the check, with a move out.
            if mine == 1 && left[0] == 1 {
                mine = 0;
            }
            outlook(mine, left[0])
        }
    };
    // The race only breaks ties (nothing else then makes a winner press on), well inside
    // the least step between two outlooks.
    let race = race(pos, sets, ctx, me) - race(pos, sets, ctx, me.opponent());
    Some(settled + (race / 32).clamp(-RACE_TIE, RACE_TIE))
}

/// The most the race adds to a position settled by the count: less than the least step
/// between two outlooks, `HOPELESS / (left + 1)` — a late side has fewer moves left than
/// pieces at home (19 at most, Halma's), and the sides' moves left differ by one at most.
const RACE_TIE: i32 = 100;

impl Node for CornersNode {
    type Move = Move;
    type Ctx = Ctx;
    // `after` ends a game whose side to move has no move (C7), and nothing is noisy.
    const MOVES_AT_HORIZON: bool = false;

    fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        self.0.legal_moves_into(out);
    }

    fn after(&self, _ctx: &Ctx, m: &Move) -> (CornersNode, Option<End>) {
        let next = self.0.play_unchecked(*m);
        let end = crate::corners::end_of_game(&self.0, *m, &next, false);
        (CornersNode(next), end.map(|o| End::of(o.winner)))
    }

    fn turn(&self) -> Color {
        self.0.turn()
    }

    fn key(&self) -> u64 {
        let s = self.0.sets();
        let mut h = fold(&KEYS.piece[0], &s.pieces[0]) ^ fold(&KEYS.piece[1], &s.pieces[1]);
        if self.0.turn() == Color::Black {
            h ^= KEYS.black_to_move;
        }
        // The move number matters near the deadline and the limit.
        h ^ u64::from(self.0.move_number()).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn eval(&self, ctx: &Ctx) -> i32 {
        let sets = self.0.sets();
        let me = self.0.turn();
        if let Some(settled) = deadline_outlook(&self.0, &sets, ctx, me) {
            return settled;
        }
        race(&self.0, &sets, ctx, me) - race(&self.0, &sets, ctx, me.opponent()) + TEMPO
    }

    fn order(&self, ctx: &Ctx, m: &Move) -> i32 {
        let me = self.0.turn().index();
        let c = ctx.centre[me];
        let twice = |s: Square| (i32::from(s.file) * 2, i32::from(s.rank) * 2);
        ctx.dist(twice(m.from), c) - ctx.dist(twice(m.to), c)
    }

    fn id(m: &Move) -> u32 {
        let w = 16;
        u32::try_from(m.from.index(w) * 256 + m.to.index(w)).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corners::STANDARD_IDS;
    use crate::game::{Game, Rules};
    use proptest::prelude::*;

    /// The race as first written: each piece's distance to the nearest free target square,
    /// computed from the squares (the lookup table must give the same), and the pieces in
    /// the target.
    fn race_by_squares(pos: &Position, ctx: &Ctx, side: Color) -> (i32, i32) {
        let target = pos.home(side.opponent());
        let own = pos.pieces(side);
        let free: Vec<Square> = target
            .iter()
            .copied()
            .filter(|t| !own.contains(t))
            .collect();
        let xy = |s: Square| (i32::from(s.file), i32::from(s.rank));
        let (mut sum, mut worst, mut home, mut in_target) = (0, 0, 0, 0);
        for p in &own {
            if target.contains(p) {
                in_target += 1;
                continue;
            }
            if pos.home(side).contains(p) {
                home += 1;
            }
            let d = free
                .iter()
                .map(|&t| ctx.dist(xy(*p), xy(t)))
                .min()
                .unwrap_or(0);
            sum += d;
            worst = worst.max(d);
        }
        (weigh(pos, sum, worst, home, in_target), in_target)
    }

    fn random_position(variant: usize, plies: usize, mut seed: u64) -> Position {
        let rules = Rules::from_id(STANDARD_IDS[variant % STANDARD_IDS.len()]).unwrap();
        let mut g = Game::new(&rules);
        for _ in 0..plies {
            let moves = g.legal_move_texts();
            if moves.is_empty() || g.ending().is_some() {
                break;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            g.play_text(&moves[usize::try_from(seed >> 33).unwrap() % moves.len()])
                .unwrap();
        }
        let Game::Corners(c) = g else { unreachable!() };
        *c.position()
    }

    /// Random plies seldom fill a target square, the one case where the table's rows are
    /// picked (only the free squares'): games the engine plays fill them, to the end.
    #[test]
    fn the_race_looked_up_is_the_race_measured_as_targets_fill() {
        for id in STANDARD_IDS {
            let rules = Rules::from_id(id).unwrap();
            let mut g = Game::new(&rules);
            let mut filled = 0;
            while g.ending().is_none() && g.plies() < 300 {
                let Game::Corners(c) = &g else { unreachable!() };
                let pos = *c.position();
                let (ctx, sets) = (Ctx::new(&pos), pos.sets());
                for side in [Color::White, Color::Black] {
                    let (want, in_target) = race_by_squares(&pos, &ctx, side);
                    filled = filled.max(in_target);
                    assert_eq!(race(&pos, &sets, &ctx, side), want, "{id}: {pos:?}");
                }
                let c = crate::engine::choose(&g, crate::engine::Settings::nodes(2_000));
                g.play_text(&c.expect("a move").text).unwrap();
            }
            assert!(filled >= 3, "{id}: the targets filled ({filled})");
        }
    }

    /// A classic 3×3 position at move `move_no` with `side` to move: White's pieces at
    /// `white`, Black's at `black`.
    fn classic(white: &[&str], black: &[&str], side: Color, move_no: u16) -> Position {
        let v = crate::corners::Variant::classic3x3();
        let squares =
            |l: &[&str]| -> Vec<Square> { l.iter().map(|s| Square::parse(s).unwrap()).collect() };
        Position::from_pieces(&v, &squares(white), &squares(black), side, move_no)
    }

    /// C6 by counting: a move takes one piece out of home at most, so more pieces at home
    /// than moves before the check lose there, or draw when both sides have that.
    #[test]
    fn c6_more_pieces_at_home_than_moves_left_is_a_deadline_lost() {
        let score = |p: &Position| CornersNode(*p).eval(&Ctx::new(p));
        // Settled at `want`, the race breaking ties only.
        let settled = |p: &Position, want: i32| {
            let s = score(p);
            assert!((s - want).abs() <= RACE_TIE, "{s} for {want}: {p:?}");
        };
        // Black's home (f6–h8) empty; White has two at home (a1, b1) and, at move 40 with
        // White to move, one move left before the check: lost.
        let white = ["a1", "b1", "d4", "e4", "f5", "g4", "e6", "d5", "c5"];
        let black = ["a5", "b5", "a4", "b4", "c4", "e3", "e2", "g1", "h1"];
        let p = classic(&white, &black, Color::White, 40);
        settled(&p, -HOPELESS);
        // At move 39 White has two moves left (39 and 40), but neither a1 nor b1 can leave
        // home now: late already.
        let early = classic(&white, &black, Color::White, 39);
        assert!(early.too_late_to_leave_home(Color::White));
        settled(&early, -HOPELESS);
        // With c3 and c2 at home instead, which can step out, nothing is settled.
        let mut out = white;
        out[0] = "c3";
        out[1] = "c2";
        let p = classic(&out, &black, Color::White, 39);
        assert!(!p.too_late_to_leave_home(Color::White));
        assert!(score(&p).abs() < HOPELESS / 2, "{}", score(&p));
        // Nor at move 38 for a1 and b1: three moves for two pieces.
        let p = classic(&white, &black, Color::White, 38);
        assert!(score(&p).abs() < HOPELESS / 2, "{}", score(&p));
        // With Black to move at 39, White's move 39 is played: one left, and two at home.
        let black_to_move = classic(&white, &black, Color::Black, 39);
        settled(&black_to_move, HOPELESS);
        // With Black to move at 40, White has no move left: Black wins the deadline.
        let p = classic(&white, &black, Color::Black, 40);
        settled(&p, HOPELESS);
        // Black also has two at home and one move: a draw at the check.
        let mut black_home = black;
        black_home[7] = "h8";
        black_home[8] = "g8";
        let p = classic(&white, &black_home, Color::Black, 40);
        assert_eq!(score(&p), 0, "both short: a draw");
        // Black with one at home on its last move: as good as out when it has a move out
        // (f6 jumps over f5 to f4), late too when it has none (h8): a draw.
        black_home[8] = "h1";
        let p = classic(&white, &black_home, Color::Black, 40);
        assert_eq!(score(&p), 0, "h8 cannot leave: a draw");
        black_home[7] = "f6";
        let p = classic(&white, &black_home, Color::Black, 40);
        settled(&p, HOPELESS);
        // However many pieces the winning side still has to take out, its outlook stays a
        // win's (above nothing and the race's tie-break), dearer a piece the fewer moves
        // are left.
        for left in 1..=40 {
            for home in 0..=left {
                assert!(
                    outlook(home, left) > RACE_TIE,
                    "{home} at home, {left} moves"
                );
                assert!(
                    home == 0
                        || outlook(home, left) - outlook(home - 1, left) < -2 * RACE_TIE
                        || left > 20
                );
            }
            assert!(outlook(1, left) <= outlook(1, left + 1));
        }
        // Past the deadline the count says nothing (C6's check is over), nor where the
        // game's limit comes first.
        let late = classic(&white, &black, Color::White, 41);
        assert!(score(&late).abs() < HOPELESS / 2);
        let v = crate::corners::Variant::by_id("training:classic3x3,limit=35").unwrap();
        let squares =
            |l: &[&str]| -> Vec<Square> { l.iter().map(|s| Square::parse(s).unwrap()).collect() };
        let limited =
            Position::from_pieces(&v, &squares(&white), &squares(&black), Color::White, 34);
        assert_eq!(limited.moves_before_deadline(Color::White), None);
        assert!(!limited.too_late_to_leave_home(Color::White));
    }

    /// QA: square 4×4, Black to move at 37 with White unable to empty its home by the
    /// check after move 40. Only Black's last piece at home (e5) decides between a win and
    /// a draw, and e5-e6 gets it out in time; a search of level 4's size played g3-f3.
    #[test]
    fn c6_the_search_sees_a_deadline_won_by_getting_the_last_piece_out() {
        let rules = Rules::from_id("square4x4").unwrap();
        let g = Game::from_text(
            &rules,
            "w7/w1b2w2/w1bb4/b1bwb3/1wwwbbb1/1bbbw1bw/2w1bwb1/ww1wwb2 b 37",
        )
        .unwrap();
        let c = crate::engine::choose(&g, crate::engine::Settings::nodes(400_000)).unwrap();
        assert_eq!(c.text, "e5-e6", "score {}", c.score);
        assert!(c.score >= HOPELESS / 2, "score {}", c.score);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The evaluation's distance table gives each side's race exactly as the squares
        /// do, in every variant (8×8 and 16×16, four and eight directions).
        #[test]
        fn the_race_looked_up_is_the_race_measured(
            variant in 0usize..16, plies in 0usize..120, seed in any::<u64>(),
        ) {
            let pos = random_position(variant, plies, seed);
            let ctx = Ctx::new(&pos);
            let sets = pos.sets();
            for side in [Color::White, Color::Black] {
                let (want, _) = race_by_squares(&pos, &ctx, side);
                prop_assert_eq!(race(&pos, &sets, &ctx, side), want);
            }
        }

        /// The search's count of the deadline is the rule's: settled for a side exactly when
        /// it can no longer empty its home in time, lost, drawn or won as those say.
        #[test]
        fn the_deadline_counted_by_the_search_is_the_rules(
            variant in 0usize..16, plies in 50usize..100, seed in any::<u64>(),
        ) {
            let pos = random_position(variant, plies, seed);
            let me = pos.turn();
            let late = [pos.too_late_to_leave_home(me), pos.too_late_to_leave_home(me.opponent())];
            let outlook = deadline_outlook(&pos, &pos.sets(), &Ctx::new(&pos), me);
            match late {
                [false, false] => prop_assert_eq!(outlook, None),
                [true, true] => prop_assert_eq!(outlook, Some(0)),
                [true, false] => prop_assert!(outlook.is_some_and(|s| s < 0), "{:?}", outlook),
                [false, true] => prop_assert!(outlook.is_some_and(|s| s > 0), "{:?}", outlook),
            }
        }

        /// And the count is the rules': a side it calls too late never wins, however the
        /// game is played on (random moves to its end).
        #[test]
        fn c6_a_side_too_late_to_leave_home_never_wins(
            variant in 0usize..16, plies in 50usize..100, seed in any::<u64>(),
        ) {
            let pos = random_position(variant, plies, seed);
            let late: Vec<Color> = [Color::White, Color::Black]
                .into_iter()
                .filter(|s| pos.too_late_to_leave_home(*s))
                .collect();
            let rules = Rules::from_id(STANDARD_IDS[variant % STANDARD_IDS.len()]).unwrap();
            let mut g = Game::from_text(&rules, &pos.to_text()).unwrap();
            let mut s = seed;
            for _ in 0..200 {
                let moves = g.legal_move_texts();
                if g.ending().is_some() || moves.is_empty() {
                    break;
                }
                s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                g.play_text(&moves[usize::try_from(s >> 33).unwrap() % moves.len()]).unwrap();
            }
            if let Some(winner) = g.ending().and_then(|e| e.winner) {
                prop_assert!(!late.contains(&winner), "{:?} won from {}", winner, pos.to_text());
            }
        }

        /// What lets the search evaluate a Corners position at its horizon without listing
        /// its moves: a move that leaves the side to move without one ends the game (C7).
        #[test]
        fn a_move_that_does_not_end_the_game_leaves_a_move_to_play(
            variant in 0usize..16, plies in 0usize..120, seed in any::<u64>(),
        ) {
            let pos = random_position(variant, plies, seed);
            let ctx = Ctx::new(&pos);
            let node = CornersNode(pos);
            let mut moves = Vec::new();
            node.legal(&mut moves);
            for m in &moves {
                let (child, end) = node.after(&ctx, m);
                if end.is_none() {
                    prop_assert!(child.0.has_legal_moves(), "{:?} after {:?}", pos, m);
                }
            }
        }
    }
}
