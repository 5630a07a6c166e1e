//! The public pages, served with `--web ADDR`: read-only, no sign-in, HTML made on the
//! server that works without JavaScript.
//!
//! - `/g/<game>`: the board (a PNG of any ply, stepped through with links), the players,
//!   the terms, the status or the result, the move list, and while the game runs a page
//!   that reloads itself; `?ply=N` shows the board after N plies, `?lang=xx` the words in
//!   another language (else the browser's `Accept-Language`).
//! - `/g/<game>/board.png?ply=N`, `/g/<game>/record.pdn`, `/g/<game>/replay.gif`.
//!
//! Only the table's public view of a game is shown ([`Table::public_game`]): names as the
//! chat shows them, never a chat or platform id; games of private chats are not public.

mod page;

use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::sync::Arc;
use ugolki_core::table::public::PublicGame;
use ugolki_core::table::{PictureView, Table};
use ugolki_core::words::Lang;
use ugolki_render::{Renderer, Scene};

/// How often a running game's page reloads itself.
pub const RELOAD_SECONDS: i64 = 5;

/// What the pages draw with: the renderers, prepared once.
struct Web {
    table: Arc<Table>,
    boards: Renderer,
    replays: Renderer,
}

/// Serve the public pages on `addr` until the task is aborted.
pub async fn serve(
    addr: SocketAddr,
    table: Arc<Table>,
) -> Result<tokio::task::JoinHandle<()>, String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("--web: cannot listen on {addr}: {e}"))?;
    let web = Arc::new(Web {
        table,
        boards: Renderer::default(),
        replays: Renderer::for_replays(),
    });
    let route = move |uri: Uri, headers: HeaderMap| {
        let web = web.clone();
        async move { web.answer(&uri, &headers).await }
    };
    let app = axum::Router::new().fallback(axum::routing::get(route));
    tracing::info!(%addr, "public pages served");
    Ok(tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "public pages stopped");
        }
    }))
}

/// What a path asks for.
#[derive(Debug, PartialEq, Eq)]
enum Asked {
    Game(i64),
    Board(i64),
    Pdn(i64),
    Replay(i64),
}

/// The route of a path: `/g/<id>` and its files. Ids are positive numbers of at most 18
/// digits; anything else is not a page.
fn route(path: &str) -> Option<Asked> {
    let rest = path.strip_prefix("/g/")?;
    let (id, file) = match rest.split_once('/') {
        Some((id, file)) => (id, Some(file)),
        None => (rest, None),
    };
    if id.is_empty() || id.len() > 18 || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let id: i64 = id.parse().ok().filter(|n| *n > 0)?;
    match file {
        None => Some(Asked::Game(id)),
        Some("board.png") => Some(Asked::Board(id)),
        Some("record.pdn") => Some(Asked::Pdn(id)),
        Some("replay.gif") => Some(Asked::Replay(id)),
        _ => None,
    }
}

/// A query's value of `key` (`?ply=3&lang=ru`); only short values are read.
fn query<'a>(uri: &'a Uri, key: &str) -> Option<&'a str> {
    uri.query()?
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
        .filter(|v| v.len() <= 16)
}

/// The reader's language: `?lang=`, else the first of `Accept-Language` the bot speaks.
fn language(uri: &Uri, headers: &HeaderMap) -> Lang {
    if let Some(lang) = query(uri, "lang").and_then(Lang::from_tag) {
        return lang;
    }
    headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .into_iter()
        .flat_map(|v| v.split(','))
        .find_map(|tag| Lang::from_tag(tag.split(';').next().unwrap_or("").trim()))
        .unwrap_or_default()
}

impl Web {
    async fn answer(&self, uri: &Uri, headers: &HeaderMap) -> Response {
        let lang = language(uri, headers);
        let Some(asked) = route(uri.path()) else {
            return (StatusCode::NOT_FOUND, "not found\n").into_response();
        };
        let id = match asked {
            Asked::Game(id) | Asked::Board(id) | Asked::Pdn(id) | Asked::Replay(id) => id,
        };
        let game = match self.table.public_game(id).await {
            Ok(Some(g)) => g,
            Ok(None) => return page::missing(id, lang),
            Err(e) => {
                tracing::warn!(error = %e, game = id, "public game not read");
                return (StatusCode::SERVICE_UNAVAILABLE, "try again\n").into_response();
            }
        };
        let ply = query(uri, "ply").and_then(|p| p.parse::<i64>().ok());
        match asked {
            Asked::Game(_) => page::game(&game, ply.unwrap_or(game.plies()), lang),
            Asked::Board(_) => self.board(&game, ply.unwrap_or(game.plies()), lang).await,
            Asked::Pdn(_) => pdn(&game),
            Asked::Replay(_) => self.replay(&game, lang).await,
        }
    }

    async fn board(&self, game: &PublicGame, ply: i64, lang: Lang) -> Response {
        let ply = game.clamp(ply);
        let Ok(PictureView::Board(view)) = self.table.draw_picture(&game.board(ply), lang).await
        else {
            return (StatusCode::NOT_FOUND, "no such board\n").into_response();
        };
        let png = self.boards.render(&Scene::from_view(&view));
        // A past position never changes; the latest does with the next move.
        let cache = if ply < game.plies() || !game.active {
            "public, max-age=86400"
        } else {
            "no-cache"
        };
        (
            [
                (header::CONTENT_TYPE, "image/png"),
                (header::CACHE_CONTROL, cache),
            ],
            png,
        )
            .into_response()
    }

    async fn replay(&self, game: &PublicGame, lang: Lang) -> Response {
        let Ok(PictureView::Replay(frames)) = self.table.draw_picture(&game.replay(), lang).await
        else {
            return (StatusCode::NOT_FOUND, "no replay\n").into_response();
        };
        let scenes: Vec<Scene> = frames.iter().map(Scene::from_view).collect();
        match self.replays.animate(&scenes) {
            Ok(gif) => ([(header::CONTENT_TYPE, "image/gif")], gif).into_response(),
            Err(e) => {
                tracing::error!(error = %e, "replay not drawn");
                (StatusCode::INTERNAL_SERVER_ERROR, "no replay\n").into_response()
            }
        }
    }
}

fn pdn(game: &PublicGame) -> Response {
    let disposition = format!("attachment; filename=\"ugolki-{}.pdn\"", game.id);
    (
        [
            (
                header::CONTENT_TYPE,
                "application/x-pdn; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        game.pdn.clone(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::{route, Asked};

    #[test]
    fn only_game_paths_with_a_plain_positive_id_are_pages() {
        assert_eq!(route("/g/12"), Some(Asked::Game(12)));
        assert_eq!(route("/g/12/board.png"), Some(Asked::Board(12)));
        assert_eq!(route("/g/12/record.pdn"), Some(Asked::Pdn(12)));
        assert_eq!(route("/g/12/replay.gif"), Some(Asked::Replay(12)));
        for bad in [
            "/",
            "/g/",
            "/g/0",
            "/g/-1",
            "/g/+1",
            "/g/1x",
            "/g/١",
            "/g/12/other",
            "/g/12/",
            "/g/99999999999999999999",
            "/x/1",
        ] {
            assert_eq!(route(bad), None, "{bad}");
        }
    }
}
