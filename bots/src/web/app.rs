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
use ugolki_core::view::BoardKind;
use ugolki_core::words::{render, Lang, Msg};
use ugolki_core::Color;

/// The page's look: the board as wide as the screen, square squares.
const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0;background:#f4f1ea;color:#222}\
main{max-width:40rem;margin:0 auto;padding:.5rem}h1{font-size:1.1rem;margin:.3rem 0}\
#board{display:grid;width:100%;aspect-ratio:1;border:3px solid #333}\
#board button{border:0;padding:0;margin:0;aspect-ratio:1;display:flex;align-items:center;justify-content:center}\
.light{background:#f0d9b5}.dark{background:#b58863}.hw{box-shadow:inset 0 0 0 2px #6a8caf}\
.hb{box-shadow:inset 0 0 0 2px #c76f6f}.last{outline:3px solid #e8c547;outline-offset:-3px}\
.p{width:78%;height:78%;border-radius:50%;display:block}.w{background:#fafafa;border:2px solid #555}\
.b{background:#222;border:2px solid #000}.k{box-shadow:inset 0 0 0 5px gold}\
.picked{background:#7fb069!important}.to{background:radial-gradient(#7fb069 28%,transparent 30%)}\
.cursor{outline:3px solid #2a6fdb;outline-offset:-3px}#said{color:#a33;min-height:1.2em}";

/// The script: picks, destinations, keys, the signed move. Values come from `data-`.
const SCRIPT: &str = include_str!("app.js");

/// The page of game `g` for a player, seen from `viewer`.
pub fn page(g: &PublicGame, viewer: Color, lang: Lang) -> Response {
    let title = render(&g.title(), lang);
    let b = &g.board;
    let side = b.side;
    let mut squares = String::new();
    let flip = viewer == Color::Black;
    for row in 0..side {
        for col in 0..side {
            let (file, rank) = if flip {
                (side - 1 - col, row)
            } else {
                (col, side - 1 - row)
            };
            let sq = Square::new(file, rank);
            let shade = if (file + rank) % 2 == 0 {
                "dark"
            } else {
                "light"
            };
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
                squares,
                "<button class=\"{class}\" data-sq=\"{sq}\" aria-label=\"{sq}\">{}</button>",
                piece.unwrap_or_default()
            );
        }
    }
    let kind = match b.kind {
        BoardKind::Corners => "corners",
        BoardKind::Damas => "damas",
    };
    let status = g.outcome.as_ref().unwrap_or(&g.status);
    let (id, ply, code) = (g.id, g.plies(), lang.code());
    // What the script reads: the game, the ply shown, the kind, the language.
    let board = format!(
        "<div id=\"board\" style=\"grid-template-columns:repeat({side},1fr)\" data-game=\"{id}\" data-ply=\"{ply}\" data-kind=\"{kind}\" data-lang=\"{code}\">{squares}</div>"
    );
    let status = esc(&render(status, lang));
    let said = "<p id=\"said\" role=\"status\"></p>";
    let body = format!(
        "<h1>{}</h1>{board}<p id=\"status\">{status}</p>{said}<script>{SCRIPT}</script>",
        esc(&title)
    );
    html(lang, &title, &body)
}

/// Telegram's script, which gives a Mini App its `Telegram.WebApp` (and `initData`).
const TELEGRAM_JS: &str = "https://telegram.org/js/telegram-web-app.js";

/// A page of the Mini App: Telegram's script first, then the page's own.
fn html(lang: Lang, title: &str, body: &str) -> Response {
    let (code, meta, title) = (lang.code(), super::page::META, esc(title));
    let page = format!(
        "<!doctype html>\n<html lang=\"{code}\"><head>{meta}<title>{title}</title>\
         <script src=\"{TELEGRAM_JS}\"></script><style>{STYLE}</style></head>\
         <body><main>{body}</main></body></html>\n"
    );
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page,
    )
        .into_response()
}

/// `/app`, where a `t.me/<bot>/<app>?startapp=<game>` link opens the Mini App: on to the
/// board of the game its (signed) start parameter names; without one, how to open a game.
pub fn start(lang: Lang) -> Response {
    let words = render(&Msg::WebOpenFromChat, lang);
    let body = format!("<p>{}</p><script>{START}</script>", esc(&words));
    html(lang, &words, &body)
}

/// Where `/app` goes: `/app/g/<start_param>` when the parameter is a game's number.
const START: &str = r#"(function(){var w=window.Telegram&&window.Telegram.WebApp;var p=w&&w.initDataUnsafe&&w.initDataUnsafe.start_param;if(p&&/^[0-9]{1,18}$/.test(p)){location.replace("/app/g/"+p+location.search);}})();"#;
