//! The HTML of the public pages: every word from the catalogues, every name escaped, no
//! script. Moving through a game is links (`?ply=N`); a running game's page reloads itself.

use super::RELOAD_SECONDS;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use std::fmt::Write as _;
use ugolki_core::clock::TimeControl;
use ugolki_core::table::public::{PublicBoard, PublicGame, PublicPlayer};
use ugolki_core::table::PublicTournament;
use ugolki_core::words::{render, Lang, Msg};

/// Text made safe for HTML (element content and quoted attributes alike).
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The pages' look: readable on a phone, the board as wide as the screen allows.
const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0;background:#f4f1ea;color:#222}\
main{max-width:40rem;margin:0 auto;padding:1rem}\
h1{font-size:1.3rem;margin:.2rem 0}h2{font-size:1.1rem}\
img.board{width:100%;height:auto;display:block;border-radius:4px}\
nav a,nav span{display:inline-block;padding:.4rem .7rem;margin:.2rem .1rem;background:#fff;\
border:1px solid #ccc;border-radius:4px;text-decoration:none;color:#222}\
nav span{color:#999}ol.moves{padding-left:2rem}ol.moves a{margin-right:.6rem;color:#225}\
ol.moves a.here{font-weight:bold;background:#ffe08a}.terms,.at{color:#555}\
img.chart{width:100%;height:auto}ul.top{list-style:none;padding-left:.5rem}\
ul.top a,ul.games a{color:#225}ul.standings{list-style:none;padding-left:.5rem}";

/// A running game's page, kept live: reloaded (at the latest position, in its language) when
/// the game's events say it changed.
const LIVE: &str = r#"(function(){if(!window.EventSource)return;var s=new EventSource("/g/GAME/events");function go(e){if(e.type==="over"||e.data!=="PLY"){s.close();location.replace("/g/GAME?lang=LANG");}}s.addEventListener("ply",go);s.addEventListener("over",go);})();"#;

/// Every page's head: UTF-8, and a phone's width.
pub const META: &str =
    "<meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";

fn html(lang: Lang, title: &str, head: &str, body: &str) -> String {
    let (lang, title) = (lang.code(), esc(title));
    format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head>{META}<title>{title}</title>{head}\
         <style>{STYLE}</style></head><body><main>{body}</main></body></html>\n"
    )
}

fn respond(status: StatusCode, page: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page,
    )
        .into_response()
}

/// Too many requests from one address: when to come back.
pub fn too_many(seconds: i64, lang: Lang) -> Response {
    let words = render(&Msg::WebTooMany { seconds }, lang);
    let body = format!("<p>{}</p>", esc(&words));
    let mut r = respond(StatusCode::TOO_MANY_REQUESTS, html(lang, &words, "", &body));
    r.headers_mut().insert(
        header::RETRY_AFTER,
        seconds.to_string().parse().expect("digits"),
    );
    r
}

/// A game that is not there, or not public.
pub fn missing(id: i64, lang: Lang) -> Response {
    let words = render(&Msg::WebNoGame { id }, lang);
    let body = format!("<p>{}</p>", esc(&words));
    respond(StatusCode::NOT_FOUND, html(lang, &words, "", &body))
}

/// An address that is no page of ours: said in the reader's language, with the way to the
/// first page.
pub fn no_page(lang: Lang) -> Response {
    let words = render(&Msg::WebNoPage, lang);
    let top = esc(&render(&Msg::WebTopTitle, lang));
    let body = format!("<p>{}</p><p><a href=\"/\">{top}</a></p>", esc(&words));
    respond(StatusCode::NOT_FOUND, html(lang, &words, "", &body))
}

/// A console sign-in link opened a second time, too late, or not the console's.
pub fn seat_gone(lang: Lang) -> Response {
    let words = render(&Msg::WebSeatGone, lang);
    let body = format!("<p>{}</p>", esc(&words));
    respond(StatusCode::NOT_FOUND, html(lang, &words, "", &body))
}

/// A step link of the board's navigation, or its label alone where it leads nowhere.
fn step(out: &mut String, id: i64, to: i64, now: i64, label: &Msg, lang: Lang) {
    let label = esc(&render(label, lang));
    if to == now {
        let _ = write!(out, "<span>{label}</span>");
    } else {
        let _ = write!(out, "<a href=\"/g/{id}?ply={to}\">{label}</a>");
    }
}

/// A game's page with the board after `ply` plies.
pub fn game(g: &PublicGame, ply: i64, lang: Lang) -> Response {
    let ply = g.clamp(ply);
    let latest = ply == g.plies();
    let w = |m: &Msg| esc(&render(m, lang));
    let title = render(&g.title(), lang);
    let mut body = format!("<h1>{}</h1>", esc(&title));
    let _ = write!(
        body,
        "<p class=\"players\">○ <a href=\"/p/{}\">{}</a> · ● <a href=\"/p/{}\">{}</a></p>",
        g.white_id,
        esc(&g.white),
        g.black_id,
        esc(&g.black)
    );
    if let Ok(time) = TimeControl::parse(&g.time_control) {
        let terms = Msg::Terms {
            rules: Box::new(g.rules.clone()),
            time,
            rated: g.rated,
            movetime: None,
            monitor: false,
            stake: None,
        };
        let _ = write!(body, "<p class=\"terms\">{}</p>", w(&terms));
    }
    let _ = write!(
        body,
        "<img class=\"board\" src=\"/g/{}/board.png?ply={ply}\" alt=\"{}\">",
        g.id,
        esc(&title)
    );
    body.push_str("<nav>");
    let (id, first, last) = (g.id, g.first_ply, g.plies());
    step(&mut body, id, first, ply, &Msg::WebFirst, lang);
    step(
        &mut body,
        id,
        (ply - 1).max(first),
        ply,
        &Msg::WebPrevious,
        lang,
    );
    step(&mut body, id, (ply + 1).min(last), ply, &Msg::WebNext, lang);
    step(&mut body, id, last, ply, &Msg::WebLatest, lang);
    body.push_str("</nav>");
    let at = Msg::WebAtPly { ply, plies: last };
    let _ = write!(body, "<p class=\"at\">{}</p>", w(&at));
    // An earlier board's own line (its move, who was to move then), not the game's now.
    if !latest || g.outcome.is_none() {
        let _ = write!(body, "<p class=\"status\">{}</p>", w(&g.status_at(ply)));
    }
    if let Some(o) = &g.outcome {
        let _ = write!(body, "<p class=\"result\"><strong>{}</strong></p>", w(o));
    }
    let mut head = String::new();
    if g.active && latest {
        let live = Msg::WebLive {
            seconds: RELOAD_SECONDS,
        };
        let _ = write!(body, "<p class=\"live\">{}</p>", w(&live));
        // Without script: reloaded every few seconds. With it: reloaded as the game changes.
        let _ = write!(
            head,
            "<noscript><meta http-equiv=\"refresh\" content=\"{RELOAD_SECONDS}\"></noscript>"
        );
        let code = lang.code();
        let _ = write!(
            body,
            "<script>{}</script>",
            LIVE.replace("GAME", &g.id.to_string())
                .replace("PLY", &ply.to_string())
                .replace("LANG", code)
        );
    }
    let _ = write!(body, "<h2>{}</h2>", w(&Msg::WebMoves));
    moves(&mut body, g, ply, lang);
    let _ = write!(
        body,
        "<p><a href=\"/g/{id}/record.pdn\">{}</a> · <a href=\"/g/{id}/replay.gif\">{}</a></p>",
        w(&Msg::WebDownloadPdn),
        w(&Msg::WebReplayGif),
    );
    respond(StatusCode::OK, html(lang, &title, &head, &body))
}

/// The move list, a line a move number, each move a link to the board after it (the
/// ones before the replay's first ply as plain text).
fn moves(out: &mut String, g: &PublicGame, ply: i64, lang: Lang) {
    if g.moves.is_empty() {
        let _ = write!(out, "<p>{}</p>", esc(&render(&Msg::WebNoMoves, lang)));
        return;
    }
    out.push_str("<ol class=\"moves\">");
    for (n, pair) in g.moves.chunks(2).enumerate() {
        out.push_str("<li>");
        for (k, mv) in pair.iter().enumerate() {
            let after = i64::try_from(2 * n + k + 1).unwrap_or(i64::MAX);
            let mv = esc(mv);
            if after < g.first_ply {
                let _ = write!(out, "<span>{mv}</span> ");
            } else {
                let here = if after == ply { " class=\"here\"" } else { "" };
                let _ = write!(out, "<a{here} href=\"/g/{}?ply={after}\">{mv}</a>", g.id);
            }
        }
        out.push_str("</li>");
    }
    out.push_str("</ol>");
}

/// The leaderboards: every kind, all time and this month, each name a link to its player.
pub fn top(boards: &[PublicBoard], lang: Lang) -> Response {
    let title = render(&Msg::WebTopTitle, lang);
    let mut body = format!("<h1>{}</h1>", esc(&title));
    for b in boards {
        let _ = write!(
            body,
            "<h2>{}</h2><ul class=\"top\">",
            esc(&render(&b.scope, lang))
        );
        for (player, line) in &b.lines {
            let _ = write!(
                body,
                "<li><a href=\"/p/{player}\">{}</a></li>",
                esc(&render(line, lang))
            );
        }
        // The lines number themselves, as in the chat.
        body.push_str("</ul>");
    }
    if boards.is_empty() {
        let empty = Msg::TopEmpty {
            scope: Box::new(Msg::WebTopTitle),
        };
        let _ = write!(body, "<p>{}</p>", esc(&render(&empty, lang)));
    }
    respond(StatusCode::OK, html(lang, &title, "", &body))
}

/// A player's page: the ratings with their charts, the newest games of groups.
pub fn player(p: &PublicPlayer, lang: Lang) -> Response {
    let title = render(
        &Msg::WebPlayerTitle {
            name: p.name.clone(),
        },
        lang,
    );
    let mut body = format!("<h1>{}</h1>", esc(&title));
    if p.ratings.is_empty() {
        let none = Msg::NoRatedGames {
            name: p.name.clone(),
        };
        let _ = write!(body, "<p>{}</p>", esc(&render(&none, lang)));
    }
    for (line, (kind, _)) in p.ratings.iter().zip(&p.charts) {
        let _ = write!(
            body,
            "<p>{}</p><img class=\"chart\" src=\"/p/{}/chart.png?kind={}\" alt=\"{}\">",
            esc(&render(line, lang)),
            p.id,
            kind.id(),
            esc(&render(line, lang)),
        );
    }
    let _ = write!(
        body,
        "<h2>{}</h2>",
        esc(&render(&Msg::WebPlayerGames, lang))
    );
    if p.games.is_empty() {
        let _ = write!(
            body,
            "<p>{}</p>",
            esc(&render(&Msg::WebNoPublicGames, lang))
        );
    } else {
        body.push_str("<ul class=\"games\">");
        for (id, line) in &p.games {
            let _ = write!(
                body,
                "<li><a href=\"/g/{id}\">{}</a></li>",
                esc(&render(line, lang))
            );
        }
        body.push_str("</ul>");
    }
    let _ = write!(
        body,
        "<p><a href=\"/top\">{}</a></p>",
        esc(&render(&Msg::WebTopTitle, lang))
    );
    respond(StatusCode::OK, html(lang, &title, "", &body))
}

/// A tournament's page: its announcement, its standings (a picture and the lines), its
/// games each linked to its page. While it runs the page reloads itself.
pub fn tournament(t: &PublicTournament, lang: Lang) -> Response {
    let w = |m: &Msg| esc(&render(m, lang));
    let heading = render(&t.heading, lang);
    let title = heading.trim_end_matches(':').to_string();
    let mut head = String::new();
    let mut body = format!("<h1>{}</h1>", esc(&title));
    for line in render(&t.card, lang).lines() {
        let _ = write!(body, "<p class=\"terms\">{}</p>", esc(line));
    }
    if t.live {
        let live = Msg::WebTournamentLive {
            seconds: RELOAD_SECONDS,
        };
        let _ = write!(body, "<p class=\"at\">{}</p>", w(&live));
        let _ = write!(
            head,
            "<meta http-equiv=\"refresh\" content=\"{RELOAD_SECONDS}\">"
        );
    }
    let _ = write!(
        body,
        "<img class=\"chart\" src=\"/t/{}/standings.png?lang={}\" alt=\"{}\">",
        t.id,
        lang.code(),
        esc(&title)
    );
    // The lines are numbered already (their places, ties and all).
    body.push_str("<ul class=\"standings\">");
    for line in &t.lines {
        let _ = write!(body, "<li>{}</li>", w(line));
    }
    body.push_str("</ul>");
    let _ = write!(body, "<h2>{}</h2>", w(&Msg::WebTournamentGames));
    body.push_str("<ul class=\"games\">");
    for (id, line, result) in &t.games {
        let _ = write!(body, "<li><a href=\"/g/{id}\">{}</a>", w(line));
        if let Some(r) = result {
            let _ = write!(body, " · {}", w(r));
        }
        body.push_str("</li>");
    }
    body.push_str("</ul>");
    respond(StatusCode::OK, html(lang, &title, &head, &body))
}

/// A tournament that is not there.
pub fn no_tournament(id: i64, lang: Lang) -> Response {
    let words = render(&Msg::WebNoTournament { id }, lang);
    let body = format!("<p>{}</p>", esc(&words));
    respond(StatusCode::NOT_FOUND, html(lang, &words, "", &body))
}

/// A player that is not there.
pub fn no_player(id: i64, lang: Lang) -> Response {
    let words = render(&Msg::WebNoPlayer { id }, lang);
    let body = format!("<p>{}</p>", esc(&words));
    respond(StatusCode::NOT_FOUND, html(lang, &words, "", &body))
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn names_cannot_open_tags_or_leave_attributes() {
        assert_eq!(
            esc("<script>\"x\" & 'y'</script>"),
            "&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;"
        );
    }
}
