//! Tournaments run whole through the table, with simulated players and a simulated clock:
//! an arena, a Swiss and a round robin. Each one's scores and tie-breaks are checked
//! against a recomputation from the stored games alone, written here independently of the
//! tournament code.

use super::*;
use crate::store::{EntrantRow, TournamentStatus};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// How a simulated game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    White,
    Black,
    Draw,
}

/// A game of the tournament as stored: (id, white, black).
#[derive(Clone, Debug)]
struct Board {
    id: i64,
    white: String,
    black: String,
    created_at: i64,
}

impl Room {
    /// `text` from a group admin.
    async fn as_admin(&self, who: &str, text: &str) -> Vec<Outgoing> {
        let mut m = self.incoming(who, text);
        m.origin.group_admin = Some(true);
        self.table.handle(&m).await
    }

    /// Make a tournament as an admin: its id.
    async fn make_tournament(&self, text: &str) -> i64 {
        let out = self.as_admin("host", text).await;
        let card = out
            .iter()
            .find_map(|o| match &o.message {
                Msg::TournamentCard { id, status, .. } => {
                    assert_eq!(status, "open");
                    assert_eq!(o.slot, Some(SlotUse::Replace(Slot::Tournament(*id))));
                    Some(*id)
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("{text}: {out:#?}"));
        card
    }

    async fn tournament(&self, id: i64) -> crate::store::TournamentRow {
        self.store.tournament(id).await.unwrap().unwrap()
    }

    /// The tournament's games still being played.
    async fn running_boards(&self, t: i64) -> Vec<Board> {
        let mut out = Vec::new();
        for p in self.store.pairings(t).await.unwrap() {
            let Some(id) = p.game_id else { continue };
            let g = self.row(id).await;
            if g.is_active() {
                out.push(self.board_of(&g).await);
            }
        }
        out
    }

    async fn board_of(&self, g: &GameRow) -> Board {
        let name = |id| async move { self.store.player(id).await.unwrap().unwrap().name };
        Board {
            id: g.id,
            white: name(g.white_id).await,
            black: name(g.black_id).await,
            created_at: g.created_at,
        }
    }

    /// A legal move of `who`'s game here, played.
    async fn play_any(&self, who: &str, game: i64) {
        let moves = self.table.suggest_moves(&self.origin(who), "", 1).await;
        let mv = moves
            .first()
            .unwrap_or_else(|| panic!("{who} has no move in #{game}"));
        let out = self.say(who, &format!("/move {game} {mv}")).await;
        assert!(
            out.iter()
                .any(|o| o.game == Some(game) && o.audience == Audience::Chat),
            "{who} {mv}: {out:#?}"
        );
    }

    /// Bring a game to `end` (White moves first; resignation or an agreed draw).
    async fn end_board(&self, b: &Board, end: End) {
        self.play_any(&b.white, b.id).await;
        match end {
            End::White => {
                self.say(&b.black, &format!("/resign {}", b.id)).await;
            }
            End::Black => {
                self.play_any(&b.black, b.id).await;
                self.say(&b.white, &format!("/resign {}", b.id)).await;
            }
            End::Draw => {
                self.play_any(&b.black, b.id).await;
                self.say(&b.white, &format!("/draw {}", b.id)).await;
                self.say(&b.black, &format!("/draw {}", b.id)).await;
            }
        }
        let g = self.row(b.id).await;
        assert_eq!(g.status, GameStatus::Finished, "#{} {end:?}", b.id);
    }

    /// The standings `/standings` shows, as its picture draws them: (name, score as
    /// written, dimmed), best first. Its text has the first three lines of the same.
    async fn standings_shown(&self, t: i64) -> Vec<(String, String, bool)> {
        let out = self.say("host", &format!("/standings {t}")).await;
        let Msg::Lines(lines) = &out[0].message else {
            panic!("{out:#?}")
        };
        let picture = out[0].picture.as_ref().expect("a picture");
        let Ok(PictureView::Standings(view)) = self.table.draw_picture(picture, Lang::EN).await
        else {
            panic!("not standings")
        };
        let rows: Vec<(String, String, bool)> = view
            .rows
            .iter()
            .map(|r| (r.name.clone(), r.score.clone(), r.away))
            .collect();
        let podium: Vec<(String, String)> = lines
            .iter()
            .filter_map(|m| match m {
                Msg::TournamentLine { name, score, .. } => Some((name.clone(), score.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(podium.len(), rows.len().min(3));
        for ((n, s), (rn, rs, _)) in podium.iter().zip(&rows) {
            assert_eq!((n, s), (rn, rs));
        }
        rows
    }

    /// Every game of the tournament as stored, in the order they ended.
    async fn finished_games(&self, t: i64) -> Vec<GameRow> {
        let mut games = Vec::new();
        for p in self.store.pairings(t).await.unwrap() {
            if let Some(id) = p.game_id {
                games.push(self.row(id).await);
            }
        }
        games.retain(|g| !g.is_active());
        games.sort_by_key(|g| (g.finished_at, g.id));
        games
    }

    async fn entrants(&self, t: i64) -> Vec<EntrantRow> {
        self.store.entrants(t).await.unwrap()
    }
}

/// `name`'s half-points from a stored game (a game they never moved in is theirs lost).
fn half_points(g: &GameRow, id: i64) -> u32 {
    let white = g.white_id == id;
    if let Some(EndCause::NoFirstMove(side)) = g.end_reason.as_deref().and_then(EndCause::from_code)
    {
        return if (side == Color::White) == white {
            0
        } else {
            2
        };
    }
    match g.result {
        Some(GameResult::Draw) => 1,
        Some(GameResult::White) if white => 2,
        Some(GameResult::Black) if !white => 2,
        _ => 0,
    }
}

/// A score as a crosstable writes half-points.
fn written(half: u32) -> String {
    match (half / 2, half % 2) {
        (0, 1) => "½".into(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

/// Swiss or round-robin standings recomputed from the games alone: score (byes: the
/// rounds a player who never withdrew did not play, when `byes_score`), then Buchholz
/// (Swiss) or none, then Sonneborn-Berger, then the order of joining.
fn recomputed(
    entrants: &[EntrantRow],
    games: &[GameRow],
    rounds: u32,
    swiss: bool,
) -> Vec<(String, String)> {
    let played = |id: i64| {
        games
            .iter()
            .filter(|g| g.white_id == id || g.black_id == id)
            .count()
    };
    let score: HashMap<i64, u32> = entrants
        .iter()
        .map(|e| {
            let id = e.player_id;
            let mut s: u32 = games
                .iter()
                .filter(|g| g.white_id == id || g.black_id == id)
                .map(|g| half_points(g, id))
                .sum();
            if swiss {
                s += 2 * (rounds - u32::try_from(played(id)).unwrap());
            }
            (id, s)
        })
        .collect();
    let mut rows: Vec<(u32, u32, u32, i64, String)> = entrants
        .iter()
        .map(|e| {
            let id = e.player_id;
            let (mut buchholz, mut sb) = (0, 0);
            for g in games
                .iter()
                .filter(|g| g.white_id == id || g.black_id == id)
            {
                let opp = if g.white_id == id {
                    g.black_id
                } else {
                    g.white_id
                };
                buchholz += score[&opp];
                sb += score[&opp] * half_points(g, id);
            }
            let buchholz = if swiss { buchholz } else { 0 };
            (score[&id], buchholz, sb, e.seat, e.name.clone())
        })
        .collect();
    rows.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(b.1.cmp(&a.1))
            .then(b.2.cmp(&a.2))
            .then(a.3.cmp(&b.3))
    });
    rows.into_iter().map(|r| (r.4, written(r.0))).collect()
}

/// Each pair met at most once, and nobody's whites and blacks differ by more than one.
fn no_repeats_and_colours_within_one(games: &[GameRow]) {
    let mut pairs = BTreeSet::new();
    let mut lean: BTreeMap<i64, i64> = BTreeMap::new();
    for g in games {
        let pair = (g.white_id.min(g.black_id), g.white_id.max(g.black_id));
        assert!(pairs.insert(pair), "pair {pair:?} met twice");
        *lean.entry(g.white_id).or_default() += 1;
        *lean.entry(g.black_id).or_default() -= 1;
    }
    for (p, l) in lean {
        assert!(l.abs() <= 1, "player {p}: whites − blacks = {l}");
    }
}

/// The results a simulated round gives: by board, so that every kind of result occurs.
fn pattern(board: usize, round: usize) -> End {
    match (board + round) % 3 {
        0 => End::White,
        1 => End::Black,
        _ => End::Draw,
    }
}

async fn players(c: &Room, t: i64, names: &[&str]) {
    for (i, p) in names.iter().enumerate() {
        let out = c.say(p, "/join").await;
        assert!(
            out.iter().any(|o| matches!(&o.message, Msg::TournamentJoined { id, count, .. } if *id == t && *count == i + 1)),
            "{p}: {out:#?}"
        );
        // The announcement is edited to show who has joined.
        assert!(out
            .iter()
            .any(|o| o.slot == Some(SlotUse::Edit(Slot::Tournament(t)))
                && matches!(&o.message, Msg::TournamentCard { count, .. } if *count == i + 1)));
    }
}

#[tokio::test]
async fn t_swiss_of_7_over_5_rounds_with_byes_no_repeats_and_colours_within_one() {
    let c = chat().await;
    let t = c
        .make_tournament("/tournament swiss classic3x3 3+2 rated 5 rounds in 10m")
        .await;
    let names = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"];
    players(&c, t, &names).await;
    // Not yet: the start is ten minutes away.
    assert!(c.table.fire_due().await.is_empty());
    c.time.advance(10 * MIN);
    let out = c.table.fire_due().await;
    assert!(
        out.iter().any(|o| matches!(
            &o.message,
            Msg::TournamentStarted {
                count: 7,
                rounds: Some(5),
                ..
            }
        )),
        "{out:#?}"
    );
    for round in 1..=5usize {
        let boards = c.running_boards(t).await;
        assert_eq!(boards.len(), 3, "round {round}: three games and a bye");
        let round_now = i64::try_from(round).unwrap();
        assert_eq!(c.tournament(t).await.round, round_now);
        for (i, b) in boards.iter().enumerate() {
            c.end_board(b, pattern(i, round)).await;
        }
        c.time.advance(MIN);
        let out = c.table.fire_due().await;
        if round < 5 {
            // The standings after the round, then the next round's boards.
            assert!(out.iter().any(|o| matches!(&o.message, Msg::Lines(l)
                if matches!(l.first(), Some(Msg::TournamentStandings { round: Some(r), .. }) if *r == round_now))));
            assert!(out.iter().any(|o| matches!(&o.message, Msg::Lines(l)
                if matches!(l.first(), Some(Msg::TournamentRound { round: r, rounds: 5, .. }) if *r == round_now + 1))));
        } else {
            assert!(out
                .iter()
                .any(|o| matches!(&o.message, Msg::TournamentOver { id, .. } if *id == t)));
        }
    }
    let row = c.tournament(t).await;
    assert_eq!(row.status, TournamentStatus::Finished);
    let games = c.finished_games(t).await;
    assert_eq!(games.len(), 15);
    no_repeats_and_colours_within_one(&games);
    // One bye a round, never two for one player.
    let byes: Vec<i64> = c
        .store
        .pairings(t)
        .await
        .unwrap()
        .iter()
        .filter(|p| p.black_seat.is_none())
        .map(|p| p.white_seat)
        .collect();
    assert_eq!(byes.len(), 5);
    assert_eq!(byes.iter().collect::<BTreeSet<_>>().len(), 5);
    // Scores and tie-breaks as the games alone give them.
    let shown: Vec<(String, String)> = c
        .standings_shown(t)
        .await
        .into_iter()
        .map(|(n, s, _)| (n, s))
        .collect();
    assert_eq!(shown, recomputed(&c.entrants(t).await, &games, 5, true));
    // The final standings are kept: the winner's /rating lists the tournament, first of 7.
    let winner = &shown[0].0;
    let out = c.say(winner, "/rating").await;
    let Msg::Lines(lines) = &out[0].message else {
        panic!("{out:#?}")
    };
    assert!(lines.contains(&Msg::TournamentPlace {
        id: t,
        format: "swiss".into(),
        place: 1,
        of: 7
    }));
}

#[tokio::test]
async fn t_round_robin_of_6_everyone_meets_everyone_once() {
    let c = chat().await;
    let t = c
        .make_tournament("/tournament roundrobin classic3x4 5+3 casual")
        .await;
    let names = ["r1", "r2", "r3", "r4", "r5", "r6"];
    players(&c, t, &names).await;
    // The creator starts it early.
    let out = c.as_admin("host", "/tournament start").await;
    assert!(
        out.iter().any(|o| matches!(
            &o.message,
            Msg::TournamentStarted {
                count: 6,
                rounds: Some(5),
                ..
            }
        )),
        "{out:#?}"
    );
    // The round robin takes nobody new once under way.
    assert_eq!(
        c.refused("late", "/join").await,
        Msg::TournamentClosed { id: t }
    );
    for round in 1..=5usize {
        let boards = c.running_boards(t).await;
        assert_eq!(boards.len(), 3, "round {round}: all three games at once");
        for (i, b) in boards.iter().enumerate() {
            c.end_board(b, pattern(i, round)).await;
        }
        c.table.fire_due().await;
    }
    assert_eq!(c.tournament(t).await.status, TournamentStatus::Finished);
    let games = c.finished_games(t).await;
    assert_eq!(games.len(), 15, "6 players: 15 pairs");
    no_repeats_and_colours_within_one(&games);
    let shown: Vec<(String, String)> = c
        .standings_shown(t)
        .await
        .into_iter()
        .map(|(n, s, _)| (n, s))
        .collect();
    assert_eq!(shown, recomputed(&c.entrants(t).await, &games, 5, false));
}

/// Arena points recomputed from the games alone, in the order they ended: a win 2, a draw
/// 1, doubled after two wins in a row until a game that is not a win.
fn arena_points(entrants: &[EntrantRow], games: &[GameRow]) -> HashMap<String, u32> {
    entrants
        .iter()
        .map(|e| {
            let (mut points, mut streak) = (0, 0);
            for g in games
                .iter()
                .filter(|g| g.white_id == e.player_id || g.black_id == e.player_id)
            {
                let times = if streak >= 2 { 2 } else { 1 };
                match half_points(g, e.player_id) {
                    2 => {
                        points += 2 * times;
                        streak += 1;
                    }
                    1 => {
                        points += times;
                        streak = 0;
                    }
                    _ => streak = 0,
                }
            }
            (e.name.clone(), points)
        })
        .collect()
}

// One story: thirty minutes of an arena, with its checks as they come.
#[allow(clippy::too_many_lines)]
#[tokio::test]
async fn t_arena_of_9_for_30_minutes_with_streaks_a_paused_no_show_and_a_late_game() {
    let c = chat().await;
    let t = c
        .make_tournament("/tournament arena classic3x3 3+2 casual 30m in 1m")
        .await;
    let names = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"];
    players(&c, t, &names).await;
    c.time.advance(MIN);
    c.table.fire_due().await;
    let started = c.tournament(t).await;
    assert_eq!(started.status, TournamentStatus::Running);
    let ends = started.ends_at.unwrap();
    assert_eq!(ends, started.started_at.unwrap() + 30 * MIN);
    // a8 never moves in its first game: it loses it and is paused until it comes back.
    let mut a8_paused_at = None;
    let mut a8_back = false;
    let mut late_game = None;
    // Whole minutes from the start: the arena ends at step 30.
    let involves = |b: &Board, who: &str| b.white == who || b.black == who;
    for step in 0..60usize {
        let now = c.time.now_ms();
        if c.tournament(t).await.status == TournamentStatus::Finished {
            break;
        }
        for b in c.running_boards(t).await {
            if involves(&b, "a8") && a8_paused_at.is_none() {
                // Left alone: the clock runs out before a8's first move.
                if b.black == "a8" && c.row(b.id).await.ply == 0 {
                    c.play_any(&b.white, b.id).await;
                }
                continue;
            }
            if late_game.as_ref().is_some_and(|l: &Board| l.id == b.id) {
                // It runs on past the end, and ends a minute after it.
                if now <= ends {
                    continue;
                }
            } else if now == ends - MIN
                && late_game.is_none()
                && !involves(&b, "a0")
                && !involves(&b, "a8")
            {
                if c.row(b.id).await.ply == 0 {
                    c.play_any(&b.white, b.id).await;
                    c.play_any(&b.black, b.id).await;
                }
                late_game = Some(b.clone());
                continue;
            } else if b.created_at >= now {
                // Games just paired are played next minute.
                continue;
            }
            // a0 wins every game it plays (a streak); the rest by board.
            let end = if b.white == "a0" {
                End::White
            } else if b.black == "a0" {
                End::Black
            } else {
                pattern(usize::try_from(b.id).unwrap(), step)
            };
            c.end_board(&b, end).await;
        }
        // a8 comes back three minutes after it was paused.
        if let Some(at) = a8_paused_at {
            if !a8_back && now >= at + 3 * MIN {
                // While paused, it was never paired.
                assert!(c
                    .running_boards(t)
                    .await
                    .iter()
                    .all(|b| b.white != "a8" && b.black != "a8"));
                let out = c.say("a8", "/join").await;
                assert!(
                    out.iter().any(
                        |o| matches!(&o.message, Msg::TournamentBack { name, .. } if name == "a8")
                    ),
                    "{out:#?}"
                );
                a8_back = true;
            }
        }
        c.time.advance(MIN);
        let out = c.table.fire_due().await;
        if a8_paused_at.is_none()
            && out.iter().any(|o| {
                matches!(&o.message, Msg::TournamentNoShow { who, paused: true, tournament, .. }
                    if who == "a8" && *tournament == t)
            })
        {
            a8_paused_at = Some(c.time.now_ms());
            // Paused shows on the standings.
            assert!(c
                .standings_shown(t)
                .await
                .iter()
                .any(|(n, _, paused)| n == "a8" && *paused));
        }
        // Past its end the arena waits for its last game before it is over.
        if let Some(l) = &late_game {
            if c.row(l.id).await.is_active() && c.time.now_ms() > ends {
                assert_eq!(c.tournament(t).await.status, TournamentStatus::Running);
                assert!(!out
                    .iter()
                    .any(|o| matches!(&o.message, Msg::TournamentOver { .. })));
            }
        }
    }
    let over = c.tournament(t).await;
    assert_eq!(over.status, TournamentStatus::Finished);
    assert!(
        a8_paused_at.is_some() && a8_back,
        "a8 was paused and came back"
    );
    let late = late_game.expect("a game ran past the end");
    let late_row = c.row(late.id).await;
    assert!(
        late_row.finished_at.unwrap() > ends,
        "it ended after the arena's end"
    );
    assert!(over.finished_at.unwrap() >= late_row.finished_at.unwrap());
    // a8 played again after coming back.
    let games = c.finished_games(t).await;
    let a8 = c.player("a8").await.id;
    assert!(games
        .iter()
        .filter(|g| g.white_id == a8 || g.black_id == a8)
        .any(|g| g.created_at >= a8_paused_at.unwrap()));
    // Nobody was ever paired with the same opponent twice in a row.
    let mut last: HashMap<i64, i64> = HashMap::new();
    let mut by_start = games.clone();
    by_start.sort_by_key(|g| (g.created_at, g.id));
    for g in &by_start {
        for (me, opp) in [(g.white_id, g.black_id), (g.black_id, g.white_id)] {
            assert_ne!(last.insert(me, opp), Some(opp), "an immediate rematch");
        }
    }
    // Points (streaks doubled, the late game counted) as the games alone give them, and
    // the order they give.
    let points = arena_points(&c.entrants(t).await, &games);
    let shown = c.standings_shown(t).await;
    for (name, score, _) in &shown {
        assert_eq!(score, &points[name].to_string(), "{name}");
    }
    let scores: Vec<u32> = shown.iter().map(|(n, _, _)| points[n]).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{shown:?}");
    // a0 won every game: after two wins each counted double.
    let a0 = c.player("a0").await.id;
    let a0_games = games
        .iter()
        .filter(|g| g.white_id == a0 || g.black_id == a0)
        .count();
    let a0_games = u32::try_from(a0_games).unwrap();
    assert!(a0_games >= 4, "a0 played {a0_games}");
    assert_eq!(points["a0"], 2 + 2 + 4 * (a0_games - 2));
    assert_eq!(shown[0].0, "a0");
}

#[tokio::test]
async fn t_only_admins_make_tournaments_in_groups_and_one_at_a_time() {
    let c = chat().await;
    assert_eq!(
        c.refused("bob", "/tournament swiss 3+2").await,
        Msg::TournamentAdminsOnly
    );
    let t = c.make_tournament("/tournament swiss 3+2").await;
    let out = c.as_admin("host", "/tournament arena 3+2").await;
    assert_eq!(messages(&out), vec![Msg::TournamentBusy { id: t }]);
    // Only its creator (or an admin) starts or cancels it.
    assert_eq!(
        c.refused("bob", "/tournament cancel").await,
        Msg::TournamentNotCreator { id: t }
    );
    assert_eq!(
        c.refused("bob", "/withdraw").await,
        Msg::TournamentNotIn { id: t }
    );
    c.say("bob", "/join").await;
    assert_eq!(
        c.refused("bob", "/join").await,
        Msg::TournamentAlreadyIn { id: t }
    );
    // Alone at the start: cancelled, and the chat may make another.
    c.time.advance(5 * MIN);
    let out = c.table.fire_due().await;
    assert!(out.iter().any(|o| o.message
        == Msg::TournamentCancelled {
            id: t,
            why: "few".into()
        }));
    assert_eq!(c.tournament(t).await.status, TournamentStatus::Cancelled);
    let again = c.make_tournament("/tournament arena 3+2 casual").await;
    let out = c.as_admin("host", "/tournament cancel").await;
    assert!(out.iter().any(|o| o.message
        == Msg::TournamentCancelled {
            id: again,
            why: "creator".into()
        }));
    // The announcement loses its buttons once it is over.
    assert!(out
        .iter()
        .any(|o| matches!(o.message, Msg::TournamentCard { .. }) && o.actions.is_empty()));
    // A private chat has no tournaments.
    let mut m = c.incoming("bob", "/tournament swiss 3+2");
    m.origin.chat = ChatRef::new(Platform::Test, "bob-dm", ChatKind::Private);
    assert_eq!(
        messages(&c.table.handle(&m).await),
        vec![Msg::TournamentGroupsOnly]
    );
}

#[tokio::test]
async fn t_the_join_button_joins_and_withdraws() {
    let c = chat().await;
    let t = c.make_tournament("/tournament swiss 3+2").await;
    let out = c.press("bob", Action::Join { tournament: t }).await;
    assert!(out
        .iter()
        .any(|o| matches!(&o.message, Msg::TournamentJoined { name, .. } if name == "bob")));
    let out = c.press("bob", Action::Withdraw { tournament: t }).await;
    assert!(out
        .iter()
        .any(|o| matches!(&o.message, Msg::TournamentWithdrew { name, .. } if name == "bob")));
    assert!(out
        .iter()
        .any(|o| matches!(&o.message, Msg::TournamentCard { count: 0, .. })));
    // Back again: the same seat.
    let out = c.press("bob", Action::Join { tournament: t }).await;
    assert!(out
        .iter()
        .any(|o| matches!(&o.message, Msg::TournamentBack { name, .. } if name == "bob")));
    assert_eq!(c.entrants(t).await.len(), 1);
    // A button of another chat's tournament does nothing here.
    let mut m = c.pressing("bob", Action::Join { tournament: t });
    m.origin.chat = room("elsewhere");
    assert_eq!(
        messages(&c.table.handle(&m).await),
        vec![Msg::NoSuchTournament { id: t }]
    );
    // A number no tournament here has is named.
    assert_eq!(
        c.refused("bob", "/standings 99").await,
        Msg::NoSuchTournament { id: 99 }
    );
}

/// A tournament's replies are in their sender's language, as every reply is: joining,
/// withdrawing and starting it (the card too, as a board is in its mover's); what the clock
/// posts later is in the chat's.
#[tokio::test]
async fn t_joining_withdrawing_and_starting_answer_in_the_senders_language() {
    let c = chat().await;
    let ru = crate::words::Lang::from_tag("ru").unwrap();
    let t = c
        .make_tournament("/tournament roundrobin classic3x3 3+2 casual")
        .await;
    for who in ["bob", "carol", "dave"] {
        let mut m = c.incoming(who, "/join");
        m.origin.locale = Some("ru".into());
        let out = c.table.handle(&m).await;
        assert!(!out.is_empty());
        assert!(out.iter().all(|o| o.lang == ru), "{who}: {out:#?}");
    }
    let mut m = c.incoming("dave", "/withdraw");
    m.origin.locale = Some("ru".into());
    let out = c.table.handle(&m).await;
    assert!(out
        .iter()
        .any(|o| matches!(o.message, Msg::TournamentWithdrew { .. })));
    assert!(out.iter().all(|o| o.lang == ru), "{out:#?}");
    let mut m = c.incoming("host", "/tournament start");
    m.origin.group_admin = Some(true);
    m.origin.locale = Some("ru".into());
    let out = c.table.handle(&m).await;
    assert!(
        out.iter()
            .any(|o| matches!(o.message, Msg::TournamentCard { .. })),
        "{out:#?}"
    );
    assert!(out.iter().all(|o| o.lang == ru), "{out:#?}");
    assert!(c.tournament(t).await.started_at.is_some());
}
