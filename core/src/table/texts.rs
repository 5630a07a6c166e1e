//! Every sentence a player reads, in English, in one place. A translation is another module
//! with the same functions; nothing else in the table writes words for players.

use crate::clock::{format_ms, TimeControl};
use crate::color::Color;
use crate::game::Ending;
use std::fmt::Write as _;

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn rated_word(rated: bool) -> &'static str {
    if rated {
        "rated"
    } else {
        "casual"
    }
}

fn time_words(tc: &TimeControl) -> String {
    match tc {
        TimeControl::Unlimited => "no clock".into(),
        TimeControl::Fischer { .. } => tc.to_string(),
        TimeControl::PerMove { .. } => format!("{tc} per move"),
    }
}

/// What a challenge offers, e.g. `Corners, classic 3×3 · 10+5 · rated`.
#[must_use]
pub fn terms(rules_name: &str, tc: &TimeControl, rated: bool, extras: &[String]) -> String {
    let mut s = format!("{rules_name} · {} · {}", time_words(tc), rated_word(rated));
    for e in extras {
        s.push_str(" · ");
        s.push_str(e);
    }
    s
}

#[must_use]
pub fn movetime_extra(ms: i64) -> String {
    format!("movetime {}", format_ms(ms))
}

#[must_use]
pub fn monitor_extra() -> String {
    "activity monitor".into()
}

#[must_use]
pub fn stake_extra(chips: i64) -> String {
    format!("stake {chips} chips")
}

#[must_use]
pub fn color_wish(c: Option<Color>) -> &'static str {
    match c {
        Some(Color::White) => " (they take White)",
        Some(Color::Black) => " (they take Black)",
        None => "",
    }
}

#[must_use]
pub fn challenge_to(
    id: i64,
    from: &str,
    to: &str,
    terms: &str,
    wish: &str,
    minutes: i64,
) -> String {
    format!("{from} challenges {to}: {terms}{wish} — challenge #{id}. {to}: /accept or /decline. It expires in {minutes} min.")
}

#[must_use]
pub fn challenge_open(id: i64, from: &str, terms: &str, wish: &str, minutes: i64) -> String {
    format!("{from} offers a game to anyone here: {terms}{wish} — challenge #{id}. /accept to play. It expires in {minutes} min.")
}

#[must_use]
pub fn self_challenge() -> String {
    "You cannot play against yourself.".into()
}

#[must_use]
pub fn one_at_a_time() -> String {
    "Challenge one player at a time.".into()
}

#[must_use]
pub fn no_challenge_for_you() -> String {
    "There is no open challenge for you here.".into()
}

#[must_use]
pub fn no_such_challenge(id: i64) -> String {
    format!("There is no open challenge #{id} here.")
}

#[must_use]
pub fn challenge_for_someone_else(id: i64) -> String {
    format!("Challenge #{id} is for someone else.")
}

#[must_use]
pub fn own_challenge() -> String {
    "That is your own challenge; /cancel it if you changed your mind.".into()
}

#[must_use]
pub fn challenge_gone() -> String {
    "That challenge was just taken, cancelled or expired.".into()
}

#[must_use]
pub fn declined(id: i64, by: &str, challenger: &str) -> String {
    format!("{by} declined {challenger}'s challenge #{id}.")
}

#[must_use]
pub fn only_target_declines() -> String {
    "Only the challenged player can decline; the challenger can /cancel.".into()
}

#[must_use]
pub fn cancelled(id: i64) -> String {
    format!("Challenge #{id} cancelled.")
}

#[must_use]
pub fn nothing_to_cancel() -> String {
    "You have no open challenge here.".into()
}

#[must_use]
pub fn expired(id: i64, challenger: &str) -> String {
    format!("{challenger}'s challenge #{id} expired.")
}

#[must_use]
pub fn not_enough_chips(who: &str, has: i64, stake: i64) -> String {
    format!("{who} has {has} chips, not enough for a stake of {stake}.")
}

#[must_use]
pub fn stake_not_covered(stake: i64) -> String {
    format!("Both players need {stake} chips for this game; one of you no longer has them.")
}

#[must_use]
pub fn game_started(id: i64, white: &str, black: &str, terms: &str) -> String {
    format!("Game #{id}: {white} (White) vs {black} (Black) · {terms}. {white}, your move.")
}

#[must_use]
pub fn no_game_here() -> String {
    "You have no game in this chat.".into()
}

#[must_use]
pub fn several_games(ids: &[i64]) -> String {
    let list: Vec<String> = ids.iter().map(|i| format!("#{i}")).collect();
    let first = ids.first().copied().unwrap_or(1);
    format!(
        "You have several games here ({}); say which, e.g. /move {first} c3-d4.",
        list.join(", ")
    )
}

#[must_use]
pub fn no_such_game(id: i64) -> String {
    format!("There is no game #{id} in this chat.")
}

#[must_use]
pub fn not_your_game(id: i64) -> String {
    format!("You are not playing in game #{id}.")
}

#[must_use]
pub fn game_is_over(id: i64) -> String {
    format!("Game #{id} is over.")
}

#[must_use]
pub fn not_your_turn() -> String {
    "Not your turn.".into()
}

#[must_use]
pub fn refused(text: &str, reason: &str) -> String {
    format!("{text}: {reason}")
}

#[must_use]
pub fn confirm_needed(recorded: &str, deadline: u16) -> String {
    format!("{recorded} ends in your own home after move {deadline}, which loses the game at once (rule C6). Type /confirm to play it anyway.")
}

#[must_use]
pub fn nothing_to_confirm() -> String {
    "There is no move waiting for /confirm.".into()
}

/// The caption under a board after a move.
#[must_use]
pub fn after_move(mover: &str, recorded: &str, status: &str) -> String {
    format!("{mover} played {recorded}. {status}")
}

/// `Move 12 · alice 4:32 · bob 3:10 · leave home by 40 · limit 80 · bob to move`.
#[must_use]
pub fn status_line(
    move_no: u32,
    clocks: Option<(&str, String, &str, String)>,
    deadline_limit: (Option<u16>, Option<u16>),
    to_move: &str,
) -> String {
    let mut s = format!("Move {move_no}");
    if let Some((w, wt, b, bt)) = clocks {
        let _ = write!(s, " · {w} {wt} · {b} {bt}");
    }
    if let Some(d) = deadline_limit.0 {
        let _ = write!(s, " · leave home by {d}");
    }
    if let Some(l) = deadline_limit.1 {
        let _ = write!(s, " · limit {l}");
    }
    let _ = write!(s, " · {to_move} to move");
    s
}

/// The board header's second line: move number, deadline and limit.
#[must_use]
pub fn board_info(move_no: u32, deadline_limit: (Option<u16>, Option<u16>)) -> String {
    let mut s = format!("Move {move_no}");
    if let Some(d) = deadline_limit.0 {
        let _ = write!(s, " · leave home by {d}");
    }
    if let Some(l) = deadline_limit.1 {
        let _ = write!(s, " · limit {l}");
    }
    s
}

#[must_use]
pub fn draw_offer_declined_by_move() -> String {
    " The draw offer is declined.".into()
}

/// A result by the rules, e.g. `alice (White) wins — completed target (C5).`
#[must_use]
pub fn rules_result(id: i64, e: &Ending, white: &str, black: &str) -> String {
    match e.winner {
        Some(c) => {
            let name = if c == Color::White { white } else { black };
            format!(
                "Game #{id} over: {name} ({}) wins — {} ({}).",
                side(c),
                e.reason,
                e.rule
            )
        }
        None => format!("Game #{id} over: draw — {} ({}).", e.reason, e.rule),
    }
}

/// The reason words for results that are not in the rules of the game itself.
#[must_use]
pub fn reason_flag(loser: Color) -> String {
    format!("{} ran out of time", side(loser))
}

#[must_use]
pub fn reason_resign(loser: Color) -> String {
    format!("{} resigned", side(loser))
}

#[must_use]
pub fn reason_agreed() -> String {
    "draw agreed".into()
}

#[must_use]
pub fn reason_abort() -> String {
    "aborted before both sides moved".into()
}

#[must_use]
pub fn reason_abandon(loser: Color) -> String {
    format!("{} abandoned the game", side(loser))
}

#[must_use]
pub fn flagged(id: i64, loser: &str, winner: &str) -> String {
    format!("Game #{id}: {loser} ran out of time — {winner} wins (T1).")
}

#[must_use]
pub fn resigned(id: i64, loser: &str, winner: &str) -> String {
    format!("Game #{id}: {loser} resigned — {winner} wins (T2).")
}

#[must_use]
pub fn resigned_annulled(id: i64, loser: &str) -> String {
    format!("Game #{id}: {loser} resigned after 10 moves or fewer — the game is annulled (R).")
}

/// `Ratings: alice 1015 (+15), bob 985 (−15).`
#[must_use]
pub fn rating_changes(changes: &[(String, i64, i64)]) -> String {
    let parts: Vec<String> = changes
        .iter()
        .map(|(name, after, delta)| {
            let sign = match delta.signum() {
                1 => "+",
                -1 => "−",
                _ => "±",
            };
            format!("{name} {after} ({sign}{})", delta.abs())
        })
        .collect();
    format!("Ratings: {}.", parts.join(", "))
}

#[must_use]
pub fn draw_offered(by: &str, to: &str) -> String {
    format!("{by} offers a draw. {to}: /draw to accept, /nodraw to decline.")
}

#[must_use]
pub fn draw_already_offered() -> String {
    "You have already offered a draw.".into()
}

#[must_use]
pub fn draw_agreed(id: i64) -> String {
    format!("Game #{id}: draw agreed (T2).")
}

#[must_use]
pub fn no_draw_offer() -> String {
    "There is no draw offer to decline.".into()
}

#[must_use]
pub fn draw_declined(by: &str) -> String {
    format!("{by} declined the draw.")
}

#[must_use]
pub fn abort_too_late() -> String {
    "Too late to abort: both sides have moved. You can /resign or offer a /draw.".into()
}

#[must_use]
pub fn aborted(id: i64, by: &str) -> String {
    format!("Game #{id} aborted by {by}; it does not count.")
}

#[must_use]
pub fn not_monitored(id: i64) -> String {
    format!("Game #{id} has no activity monitor.")
}

#[must_use]
pub fn claim_on_own_turn() -> String {
    "It is your move; you can claim only while your opponent keeps you waiting.".into()
}

#[must_use]
pub fn claim_too_early(who: &str, idle_ms: i64, limit_ms: i64) -> String {
    format!(
        "{who} has been idle for {}; you can claim after {}.",
        format_ms(idle_ms),
        format_ms(limit_ms)
    )
}

#[must_use]
pub fn idle_notice(id: i64, idler: &str, other: &str, idle_ms: i64) -> String {
    format!(
        "Game #{id}: {idler} has been idle for {}. {other} may /claim the game (D6).",
        format_ms(idle_ms)
    )
}

#[must_use]
pub fn abandoned_win(id: i64, loser: &str, winner: &str) -> String {
    format!("Game #{id}: {loser} abandoned the game — {winner} wins (D6).")
}

#[must_use]
pub fn abandoned_void(id: i64, loser: &str) -> String {
    format!("Game #{id}: {loser} abandoned the game after 10 moves or fewer — the game is annulled (D6).")
}

#[must_use]
pub fn auto_moved(id: i64, who: &str, recorded: &str) -> String {
    format!("Game #{id}: {who}'s move time ran out, so the table played {recorded} for them (D6).")
}

#[must_use]
pub fn reminder(id: i64, who: &str, left_ms: i64) -> String {
    format!(
        "{who}, it is your move in game #{id}: {} left.",
        format_ms(left_ms)
    )
}

#[must_use]
pub fn games_none() -> String {
    "You have no unfinished games.".into()
}

#[must_use]
pub fn games_line(id: i64, rules_name: &str, opponent: &str, my_turn: bool, here: bool) -> String {
    let whose = if my_turn { "your move" } else { "their move" };
    let place = if here { "" } else { " (another chat)" };
    format!("#{id} {rules_name} vs {opponent} — {whose}{place}")
}

#[must_use]
pub fn record(
    id: i64,
    white: &str,
    black: &str,
    rules_name: &str,
    record: &str,
    result: Option<&str>,
) -> String {
    let moves = if record.is_empty() {
        "no moves yet"
    } else {
        record
    };
    match result {
        Some(r) => format!("Game #{id}, {white} – {black}, {rules_name}: {moves} — {r}"),
        None => format!("Game #{id}, {white} – {black}, {rules_name}: {moves}"),
    }
}

#[must_use]
pub fn no_moves_from(square: &str) -> String {
    format!("Nothing can move from {square} now.")
}

#[must_use]
pub fn moves_from(square: &str, list: &str) -> String {
    format!("{square} can go to {list}.")
}

#[must_use]
pub fn bad_square(text: &str) -> String {
    format!("'{text}' is not a square.")
}

#[must_use]
pub fn board_caption(id: i64, status: &str) -> String {
    format!("Game #{id}. {status}")
}

#[must_use]
pub fn internal_error() -> String {
    "Something went wrong on our side; nothing was changed. Please try again.".into()
}

#[must_use]
pub fn conflict() -> String {
    "The game changed while your message was being handled; nothing was changed. Look at the /board and try again.".into()
}

#[must_use]
pub fn help() -> String {
    "Corners (Ugolki) and Damas in chat.\n\
     /challenge @user [VARIANT | damas [flying|short] [movetime 30s] [monitor]] [10+5 | 30s+2 | 1d | none] [rated|casual] [white|black|random] — no @user: anyone may accept\n\
     /accept, /decline, /cancel [N] — answer or withdraw a challenge\n\
     Type moves as text: c3-d4, c3 e5, c3e3e5 (Damas: c3xe5, 11-15). With several games: /move N c3-d4\n\
     /moves c3 — where c3 can go · /board · /games · /record N\n\
     /resign · /draw (offer or accept) · /nodraw · /abort (before both have moved) · /confirm · /claim\n\
     /rating [@user] [kind] — ratings and a chart · /top [kind] [month] [global] — the leaderboard · /chips\n\
     /rules [variant] — the rules\n\
     Variants: classic3x3 (default), classic3x4, diagonal3x3, diagonal3x4, triangle, square4x4, halma16, training:…"
        .into()
}

#[must_use]
pub fn rules_corners(
    name: &str,
    deadline: Option<u16>,
    limit: Option<u16>,
    diagonal: bool,
    no_blocking: bool,
) -> String {
    let dirs = if diagonal {
        "in all eight directions"
    } else {
        "orthogonally"
    };
    let mut s = format!(
        "Corners, {name}: fill the opponent's corner with your pieces (C1). A move is one step {dirs} to an empty square, or a chain of jumps over single pieces of either colour; stop after any jump, never land twice on a square (C2). White moves first; Black always gets the last move, so both completing on the same move is a draw (C5)."
    );
    if let Some(d) = deadline {
        let _ = write!(s, " Every piece must have left home by move {d}; after that, a move ending in your own home loses (C6).");
    }
    if let Some(l) = limit {
        let _ = write!(
            s,
            " After move {l} the side with more pieces in the target wins (C7)."
        );
    }
    s.push_str(" The same position three times, or a side with no move, is a draw (C7).");
    if no_blocking {
        s.push_str(" You may never block an opponent's piece (C8).");
    }
    s
}

#[must_use]
pub fn rules_damas(flying: bool) -> String {
    let kings = if flying {
        "Kings fly along diagonals any distance and take at a distance (D3)."
    } else {
        "Kings step one square in any diagonal direction (short kings, D3)."
    };
    format!("Damas (8×8 checkers, Spanish/Portuguese): men move one square diagonally forward and take forward only (D2). Taking is compulsory and goes on while possible; take the most pieces, then the most kings (D4). A man reaching the far rank becomes a king. {kings} A side with no pieces or no move loses (D5).")
}

#[must_use]
pub fn unknown_kind(word: &str, kinds: &[&str]) -> String {
    format!(
        "'{}' is not a rated kind; try {}.",
        word.chars().take(20).collect::<String>(),
        kinds.join(", ")
    )
}

#[must_use]
pub fn unknown_player(handle: &str) -> String {
    format!("I don't know @{} yet.", handle.trim_start_matches('@'))
}

#[must_use]
pub fn no_rated_games(name: &str) -> String {
    format!("{name} has no rated games yet (everyone starts at 1000).")
}

#[must_use]
pub fn rating_title(name: &str) -> String {
    format!("{name}'s ratings:")
}

#[must_use]
pub fn rating_line(
    kind: &str,
    rating: i64,
    rank: i64,
    monthly: i64,
    monthly_rank: Option<i64>,
    games: i64,
    wdl: (i64, i64, i64),
) -> String {
    let month = match monthly_rank {
        Some(r) => format!("{monthly} this month (#{r})"),
        None => format!("{monthly} this month"),
    };
    format!(
        "{kind}: {rating} (#{rank}) · {month} · {games} games: {} won, {} drawn, {} lost",
        wdl.0, wdl.1, wdl.2
    )
}

#[must_use]
pub fn chart_title(name: &str, kind: &str) -> String {
    format!("{name} · {kind} rating")
}

#[must_use]
pub fn top_scope(kind: &str, month: Option<&str>, global: bool) -> String {
    let when = month.map_or_else(|| "all time".to_string(), |m| format!("month {m}"));
    let place = if global { "everyone" } else { "this chat" };
    format!("Top {kind}, {when}, {place}:")
}

#[must_use]
pub fn top_empty(scope: &str) -> String {
    format!("{scope} nobody has played a rated game yet.")
}

#[must_use]
pub fn top_line(place: usize, name: &str, rating: i64, games: i64) -> String {
    format!("{place}. {name} {rating} ({games} games)")
}

#[must_use]
pub fn top_you(place: i64, name: &str, rating: i64) -> String {
    format!("… {place}. {name} {rating} (you)")
}

#[must_use]
pub fn chips(name: &str, chips: i64) -> String {
    format!("{name} has {chips} chips.")
}
