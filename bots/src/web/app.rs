//! The board a player clicks (`/app/g/<game>`, the Telegram Mini App's page): the position
//! drawn as a grid of squares, a piece picked by a click (or the arrows and Enter), its
//! destinations marked from the server's list of legal moves (`moves.json`), and the move
//! sent signed by the Mini App's `initData` (`POST /api/g/<game>/move`). Esc lets go of a
//! picked piece. The server decides every move; the page reloads when the game changes.
//! `?as=black` turns the board for Black.

use super::page::esc;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use std::fmt::Write as _;
use ugolki_core::square::Square;
use ugolki_core::table::public::PublicGame;
use ugolki_core::table::Action;
use ugolki_core::view::BoardKind;
use ugolki_core::words::{render, Lang, Msg};
use ugolki_core::Color;

/// The page's look: the board as wide as the screen, square squares.
const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0;background:#f4f1ea;color:#222}\
main{max-width:40rem;margin:0 auto;padding:.5rem}h1{font-size:1.1rem;margin:.3rem 0}\
#board{display:grid;width:100%;box-sizing:border-box;padding:3px 3px 0 0;background:#333}\
#board button{border:0;padding:0;margin:0;aspect-ratio:1;display:flex;align-items:center;justify-content:center}\
#board i{font:600 clamp(9px,2.6vw,13px)/1 system-ui,sans-serif;font-style:normal;color:#eee;display:flex;align-items:center;justify-content:center;user-select:none}\
#board .r{padding:0 .25em}#board .f{padding:.2em 0}\
.light{background:#f0d9b5}.dark{background:#b58863}.hw{box-shadow:inset 0 0 0 2px #6a8caf}\
.hb{box-shadow:inset 0 0 0 2px #c76f6f}.last{outline:3px solid #e8c547;outline-offset:-3px}\
.p{width:78%;height:78%;border-radius:50%;display:block}.w{background:#fafafa;border:2px solid #555}\
.b{background:#222;border:2px solid #000}.k{box-shadow:inset 0 0 0 5px gold}\
.picked{background:#7fb069!important}.to{background-image:radial-gradient(#7fb069 28%,transparent 30%)}\
.cursor{outline:3px solid #2a6fdb;outline-offset:-3px}#said{color:#a33;min-height:2.5em;line-height:1.25}\
.clock{display:flex;justify-content:space-between;margin:.3rem 0;font-variant-numeric:tabular-nums}\
.clock .t{padding:0 .4rem;background:#ddd;border-radius:3px}.clock.run .t{background:#2a6fdb;color:#fff}\
#acts button{margin:.2rem .3rem .2rem 0;padding:.5rem .8rem;font-size:1rem}#acts button.sure{background:#c33;color:#fff}#moves{padding-left:2rem}";

/// The script: picks, destinations, keys, the signed move. Values come from `data-`.
const SCRIPT: &str = include_str!("app.js");

/// The side player `player` (their number in the store) plays in `g`.
pub fn side_of(g: &PublicGame, player: i64) -> Option<Color> {
    if g.white_id == player {
        Some(Color::White)
    } else if g.black_id == player {
        Some(Color::Black)
    } else {
        None
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The page of game `g` for a player, seen from `viewer`; `me`: the side of the reader
/// when the server knows it (a seated console player), whose pieces alone are offered.
/// `mini_app`: the pages are a Telegram bot's, opened as its Mini App too.
pub fn page(
    g: &PublicGame,
    viewer: Color,
    me: Option<Color>,
    lang: Lang,
    mini_app: bool,
) -> Response {
    let title = render(&g.title(), lang);
    let w = |m: &Msg| esc(&render(m, lang));
    let b = &g.board;
    let side = b.side;
    let flip = viewer == Color::Black;
    let squares = squares(b, flip);
    let kind = match b.kind {
        BoardKind::Corners => "corners",
        BoardKind::Damas => "damas",
    };
    // The clocks are the boxes above and below the board, counting down.
    let status = &g.line_beside_clocks();
    let (id, ply, code) = (g.id, g.plies(), lang.code());
    let me_attr = me.map_or("", side_name);
    let turn = side_name(g.turn);
    let offer = g.draw_offer_by.map_or("none", side_name);
    let over = u8::from(!g.active);
    // What the script reads: the game, the ply shown, the kind, the language, whose turn,
    // and the reader's side when known.
    let board = format!(
        "<div id=\"board\" style=\"grid-template-columns:auto repeat({side},1fr)\" data-game=\"{id}\" data-ply=\"{ply}\" data-kind=\"{kind}\" data-lang=\"{code}\" data-turn=\"{turn}\" data-me=\"{me_attr}\" data-offer=\"{offer}\" data-over=\"{over}\">{squares}</div>"
    );
    // The clocks, the far side's above the board and the viewer's below, as at a table.
    let clock = |c: Color| {
        let name = esc(if c == Color::White {
            &g.white
        } else {
            &g.black
        });
        let ms = g
            .clocks()
            .map(|(wt, bt)| if c == Color::White { wt } else { bt });
        let running = g.active && g.turn == c && ms.is_some();
        let class = if running { "clock run" } else { "clock" };
        let side = side_name(c);
        // No clock (a game over, or without one): the name alone, not an empty box.
        let time = ms.map_or(String::new(), |ms| {
            format!(
                " <span class=\"t\" data-ms=\"{ms}\">{}</span>",
                clock_text(ms)
            )
        });
        format!(
            "<p class=\"{class}\" data-side=\"{side}\"><span class=\"who\">{name}</span>{time}</p>"
        )
    };
    let (top, bottom) = if flip {
        (clock(Color::White), clock(Color::Black))
    } else {
        (clock(Color::Black), clock(Color::White))
    };
    let mut body = format!("<h1>{}</h1>{top}{board}{bottom}", esc(&title));
    let _ = write!(body, "<p id=\"status\">{}</p>", w(status));
    if let Some(by) = g.draw_offer_by {
        let (by, to) = match by {
            Color::White => (&g.white, &g.black),
            Color::Black => (&g.black, &g.white),
        };
        let offer = Msg::DrawOffered {
            by: by.clone(),
            to: to.clone(),
            buttons: true,
        };
        let _ = write!(body, "<p id=\"offer\">{}</p>", w(&offer));
    }
    // A reader without a seat watches: the game's buttons are not theirs (the script shows
    // them once the server names the reader's side, as a Discord Activity's header does).
    let hidden = if me.is_none() { " hidden" } else { "" };
    let _ = write!(
        body,
        "<p id=\"said\" role=\"status\"></p><div id=\"acts\"{hidden}>"
    );
    for a in &g.actions {
        // The offerer does not answer their own offer.
        let answer = matches!(a, Action::AcceptDraw { .. } | Action::DeclineDraw { .. });
        if answer && me.is_some() && me == g.draw_offer_by {
            continue;
        }
        // Resigning asks a second tap (its words in `data-sure`).
        let sure = if matches!(a, Action::Resign { .. }) {
            format!(" data-sure=\"{}\"", w(&Msg::WebResignSure))
        } else {
            String::new()
        };
        let _ = write!(
            body,
            "<button class=\"act\" data-act=\"{}\"{sure}>{}</button>",
            esc(&a.to_text()),
            w(&a.label())
        );
    }
    let _ = write!(body, "</div><h2>{}</h2>", w(&Msg::WebMoves));
    if g.moves.is_empty() {
        let _ = write!(body, "<p>{}</p>", w(&Msg::WebNoMoves));
    } else {
        body.push_str("<ol id=\"moves\">");
        for pair in g.moves.chunks(2) {
            let m: Vec<String> = pair.iter().map(|m| esc(m)).collect();
            let _ = write!(body, "<li>{}</li>", m.join(" "));
        }
        body.push_str("</ol>");
    }
    let _ = write!(body, "<script>{SCRIPT}</script>");
    html(lang, &title, &body, mini_app)
}

/// The board's squares, row by row from the top as the viewer sees them (`flip`: Black),
/// in a frame that carries the coordinates as a board's margin does: each row's rank on
/// its left, the files under the bottom row, so a move can be read off it and typed.
/// They stand beside the squares, not in them, where a 16×16 board's pieces would hide
/// them.
fn squares(b: &ugolki_core::view::BoardView, flip: bool) -> String {
    let side = b.side;
    let mut out = String::new();
    for row in 0..side {
        let rank = if flip { row } else { side - 1 - row };
        let _ = write!(out, "<i class=\"r\" aria-hidden=\"true\">{}</i>", rank + 1);
        for col in 0..side {
            let file = if flip { side - 1 - col } else { col };
            square(&mut out, b, Square::new(file, rank));
        }
    }
    out.push_str("<i aria-hidden=\"true\"></i>");
    for col in 0..side {
        let file = if flip { side - 1 - col } else { col };
        let letter = char::from(b'a' + file);
        let _ = write!(out, "<i class=\"f\" aria-hidden=\"true\">{letter}</i>");
    }
    out
}

/// One square of the board as a button: its shade, its home, the last move, its piece.
fn square(out: &mut String, b: &ugolki_core::view::BoardView, sq: Square) {
    // Shaded as the picture is: Damas' pieces stand on the dark squares.
    let shade = if b.kind.is_dark(sq) { "dark" } else { "light" };
    let mut class = shade.to_string();
    if b.homes[0].contains(&sq) {
        class.push_str(" hw");
    } else if b.homes[1].contains(&sq) {
        class.push_str(" hb");
    }
    if b.last_path.contains(&sq) {
        class.push_str(" last");
    }
    let piece = b.pieces.iter().find(|p| p.square == sq).map(|p| {
        let c = if p.color == Color::White { "w" } else { "b" };
        let k = if p.king { " k" } else { "" };
        format!("<span class=\"p {c}{k}\"></span>")
    });
    let _ = write!(
        out,
        "<button class=\"{class}\" data-sq=\"{sq}\" aria-label=\"{sq}\">{}</button>",
        piece.unwrap_or_default()
    );
}

/// A clock's time as the page first shows it (the script counts it down): `m:ss`, or
/// `h:mm:ss` from an hour.
fn clock_text(ms: i64) -> String {
    let s = ms.max(0).div_euclid(1000);
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// Telegram's script, which gives a Mini App its `Telegram.WebApp` (and `initData`).
const TELEGRAM_JS: &str = "https://telegram.org/js/telegram-web-app.js";

/// A board page: in a Telegram bot's pages (`mini_app`) Telegram's script first, which
/// seats a Mini App's reader; no other page loads anything from elsewhere.
fn html(lang: Lang, title: &str, body: &str, mini_app: bool) -> Response {
    let (code, meta, title) = (lang.code(), super::page::META, esc(title));
    let telegram = if mini_app {
        format!("<script src=\"{TELEGRAM_JS}\"></script>")
    } else {
        String::new()
    };
    let page = format!(
        "<!doctype html>\n<html lang=\"{code}\"><head>{meta}<title>{title}</title>\
         {telegram}<style>{STYLE}</style></head>\
         <body><main>{body}</main></body></html>\n"
    );
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page,
    )
        .into_response()
}

/// The board page of a game that is not public, to a reader not seated as its player: in
/// the Mini App, the page seats the reader by Telegram's `initData` and comes back (their
/// own game then shows); elsewhere it says there is no such public game.
pub fn shell(id: i64, lang: Lang, mini_app: bool) -> Response {
    let words = render(&Msg::WebNoGame { id }, lang);
    let body = format!("<p id=\"said\">{}</p><script>{SEAT}</script>", esc(&words));
    let mut r = html(lang, &words, &body, mini_app);
    *r.status_mut() = StatusCode::NOT_FOUND;
    r
}

/// Seat the Mini App's reader once (`POST /app/seat` with its `initData`), then load again.
const SEAT: &str = r#"(function(){var w=window.Telegram&&window.Telegram.WebApp;if(!w||!w.initData||sessionStorage.getItem("seated")){return;}sessionStorage.setItem("seated","1");fetch("/app/seat",{method:"POST",headers:{"Authorization":"tma "+w.initData}}).then(function(r){if(r.ok){location.reload();}});})();"#;

/// `/app`, where a `t.me/<bot>/<app>?startapp=<game>` link opens the Mini App: on to the
/// board of the game its (signed) start parameter names; without one, how to open a game.
pub fn start(lang: Lang, mini_app: bool) -> Response {
    let words = render(&Msg::WebOpenFromChat, lang);
    let body = format!("<p>{}</p><script>{START}</script>", esc(&words));
    html(lang, &words, &body, mini_app)
}

/// A Discord Activity's first page: the reader signed in through the Discord client
/// (`activity.js`), then on to game `game`'s board.
pub fn activity(lang: Lang, game: i64, client_id: u64) -> Response {
    let words = render(&Msg::WebActivitySigningIn, lang);
    let body = format!(
        "<p id=\"activity\" data-game=\"{game}\" data-client=\"{client_id}\">{}</p>\
         <script>{ACTIVITY}</script>",
        esc(&words)
    );
    html(lang, &words, &body, false)
}

/// The Activity's sign-in, spoken to the Discord client.
const ACTIVITY: &str = include_str!("activity.js");

/// Where `/app` goes: `/app/g/<start_param>` when the parameter is a game's number.
const START: &str = r#"(function(){var w=window.Telegram&&window.Telegram.WebApp;var p=w&&w.initDataUnsafe&&w.initDataUnsafe.start_param;if(p&&/^[0-9]{1,18}$/.test(p)){location.replace("/app/g/"+p+location.search);}})();"#;
