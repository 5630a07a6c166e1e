//! The public pages (`--web`) over HTTP on 127.0.0.1, against a table on `SQLite`: a game's
//! page, its boards at every ply, its PDN and its replay, checked against the store; the
//! page's words in the reader's language; names escaped; games of private chats not shown.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use ugolki_core::game::{Game, Rules};
use ugolki_core::store::Store;
use ugolki_core::table::{
    ChatKind, ChatRef, Config, Incoming, Mention, Origin, Outgoing, Platform, SystemTime, Table,
    User,
};
use ugolki_core::words::{english, render, Lang, Msg};
use ugolki_tests::browser::{browser, closes, init_data, next};
use ugolki_tests::e2e::{decodes, safe_moves, sqlite_url, temp_db, Rng, WAIT};

/// A chat of the table, its players typing.
struct Room {
    table: Arc<Table>,
    chat: ChatRef,
    n: AtomicU64,
}

impl Room {
    async fn say(&self, who: &User, text: &str, mentions: &[&User]) -> Vec<Outgoing> {
        let n = self.n.fetch_add(1, Ordering::SeqCst);
        let origin = Origin::message(self.chat.clone(), who.clone(), format!("m{n}"));
        let mentions = mentions
            .iter()
            .map(|u| Mention::User((*u).clone()))
            .collect();
        self.table
            .handle(&Incoming::text(origin, text, mentions))
            .await
    }

    /// alice challenges bob and bob accepts: the game's number, and what the chat is told.
    async fn start(&self, alice: &User, bob: &User, terms: &str) -> (i64, Vec<Outgoing>) {
        let challenge = format!("/challenge @bob classic3x3 {terms} white");
        self.say(alice, &challenge, &[bob]).await;
        let out = self.say(bob, "/accept", &[]).await;
        let id = out
            .iter()
            .find_map(|o| o.game)
            .unwrap_or_else(|| panic!("a game: {out:#?}"));
        (id, out)
    }
}

fn user(id: &str, name: &str) -> User {
    User {
        id: format!("platform-id-{id}"),
        name: name.into(),
        handle: Some(id.into()),
    }
}

async fn get(addr: std::net::SocketAddr, path: &str, headers: &[String]) -> (u16, String, Vec<u8>) {
    ugolki_tests::http_bytes(addr, "GET", path, headers, "", WAIT).await
}

async fn page(addr: std::net::SocketAddr, path: &str) -> (u16, String) {
    let (code, _, body) = get(addr, path, &[]).await;
    (code, String::from_utf8(body).expect("UTF-8 HTML"))
}

/// The lines of a message (itself when it is one line).
fn lines(m: &Msg) -> Vec<Msg> {
    match m {
        Msg::Lines(l) => l.clone(),
        other => vec![other.clone()],
    }
}

/// HTML-escaped, as the page writes text.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// A table on a database of its own, its pages served on a free loopback port (signing
/// Telegram readers with `token`), and a room of it: `chat`.
struct Served {
    store: Store,
    addr: std::net::SocketAddr,
    room: Room,
    web: ugolki_bots::web::Server,
}

/// Serve the pages of a new table named `name` with `config` (its `web_url` set to where
/// they are served when `linked`).
async fn served(name: &str, chat: ChatRef, linked: bool, token: Option<&str>) -> Served {
    let store = Store::connect(&sqlite_url(&temp_db("web", name)))
        .await
        .expect("store");
    let addr = ugolki_tests::free_addr();
    let config = Config {
        web_url: linked.then(|| format!("http://{addr}")),
        ..Config::default()
    };
    let table = Arc::new(
        Table::open(store.clone(), Arc::new(SystemTime), config)
            .await
            .expect("table"),
    );
    let signers = ugolki_bots::web::Signers {
        telegram_token: token.map(str::to_owned),
        seats: None,
        discord: None,
    };
    let web = ugolki_bots::web::serve_signed(addr, table.clone(), signers)
        .await
        .expect("served");
    let room = Room {
        table,
        chat,
        n: AtomicU64::new(0),
    };
    Served {
        store,
        addr,
        room,
        web,
    }
}

/// A group of the tests' platform.
fn test_group(id: &str) -> ChatRef {
    ChatRef::new(Platform::Test, id, ChatKind::Group)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(clippy::too_many_lines)]
async fn a_games_page_shows_its_moves_boards_record_and_result_from_the_store() {
    let Served {
        store,
        addr,
        room: group,
        web,
    } = served("pages", test_group("the-group"), true, None).await;
    let base = format!("http://{addr}");
    // A name that would be markup if it were not escaped.
    let (alice, bob) = (user("alice", "alice"), user("bob", "<b>Bob</b> & \"co\""));
    let (id, started) = group.start(&alice, &bob, "none rated").await;
    // The first board links the page, to watch from the start.
    let link = Msg::WebGameAt {
        url: format!("{base}/g/{id}"),
    };
    assert!(
        started.iter().any(|o| lines(&o.message).contains(&link)),
        "{started:#?}"
    );
    let mut game = Game::new(&Rules::Corners(ugolki_core::corners::Variant::classic3x3()));
    let mut rng = Rng(0x3eb);
    for ply in 0..6 {
        let mv = rng.pick(&safe_moves(&game)).clone();
        let who = if ply % 2 == 0 { &alice } else { &bob };
        group.say(who, &mv, &[]).await;
        game.play_text(&mv).expect("legal");
    }
    let stored = store.moves(id).await.expect("moves");
    assert_eq!(stored.len(), 6);

    // The page: names escaped, every stored move, where the board stands, alive.
    let (code, html) = page(addr, &format!("/g/{id}")).await;
    assert_eq!(code, 200, "{html}");
    let title = english(&Msg::WebGameTitle {
        id,
        white: alice.name.clone(),
        black: bob.name.clone(),
    });
    assert!(html.contains(&esc(&title)), "{html}");
    assert!(!html.contains("<b>Bob</b>"), "a name is text, not markup");
    for (ply, mv) in game.move_texts().iter().enumerate() {
        assert!(
            html.contains(&format!("?ply={}\">{mv}</a>", ply + 1)),
            "{mv}: {html}"
        );
    }
    assert!(html.contains(&esc(&english(&Msg::WebAtPly { ply: 6, plies: 6 }))));
    assert!(
        html.contains("http-equiv=\"refresh\""),
        "a running game reloads"
    );
    assert!(!html.contains("platform-id-"), "no platform id is shown");
    assert!(!html.contains("the-group"), "no chat id is shown");

    // Stepping back: the board after two plies, its move marked.
    let (_, back) = page(addr, &format!("/g/{id}?ply=2")).await;
    assert!(back.contains(&format!("/g/{id}/board.png?ply=2")), "{back}");
    assert!(back.contains(&format!("class=\"here\" href=\"/g/{id}?ply=2\"")));
    assert!(back.contains(&esc(&english(&Msg::WebAtPly { ply: 2, plies: 6 }))));
    // Its status line is that ply's: move 2, White (alice) to move, no clocks of then.
    let mut at_two = Game::new(&Rules::Corners(ugolki_core::corners::Variant::classic3x3()));
    for mv in &game.move_texts()[..2] {
        at_two.play_text(mv).expect("legal");
    }
    let (deadline, limit) = at_two.deadline_and_limit();
    let then = Msg::Status {
        move_no: at_two.move_number(),
        clocks: None,
        deadline,
        limit,
        to_move: alice.name.clone(),
    };
    assert_eq!(at_two.move_number(), 2);
    assert!(back.contains(&esc(&english(&then))), "{back}");
    let (_, now) = page(addr, &format!("/g/{id}")).await;
    assert!(
        !now.contains(&esc(&english(&then))),
        "the latest is move 4's"
    );
    assert!(
        !back.contains("http-equiv=\"refresh\""),
        "a past position stays put"
    );

    // Boards: PNGs, different at different plies, the same for the same ply.
    let board =
        |ply: i64| async move { get(addr, &format!("/g/{id}/board.png?ply={ply}"), &[]).await };
    let (code, head, two) = board(2).await;
    assert_eq!(code, 200, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: image/png"),
        "{head}"
    );
    assert!(decodes(&two));
    let (_, _, six) = board(6).await;
    assert!(decodes(&six));
    assert_ne!(two, six);
    assert_eq!(board(2).await.2, two);
    // Past the end is the latest.
    assert_eq!(board(99).await.2, six);

    // The record: tags and the stored moves, in order.
    let (code, head, pdn) = get(addr, &format!("/g/{id}/record.pdn"), &[]).await;
    assert_eq!(code, 200);
    assert!(head.contains(&format!("ugolki-{id}.pdn")), "{head}");
    let pdn = String::from_utf8(pdn).expect("text");
    assert!(pdn.contains("[White \"alice\"]"), "{pdn}");
    assert!(pdn.contains("[Result \"*\"]"), "{pdn}");
    assert!(pdn.contains(&game.record()), "{pdn}");

    // The replay: an animated GIF.
    let (code, _, gif) = get(addr, &format!("/g/{id}/replay.gif"), &[]).await;
    assert_eq!(code, 200);
    assert!(gif.starts_with(b"GIF89a"), "{:?}", &gif[..gif.len().min(8)]);

    // The reader's language: asked for, or the browser's.
    let (_, ru) = page(addr, &format!("/g/{id}?lang=ru")).await;
    assert!(
        ru.contains(&esc(&render(
            &Msg::WebMoves,
            Lang::from_tag("ru").expect("ru")
        ))),
        "{ru}"
    );
    let (_, _, pt) = get(
        addr,
        &format!("/g/{id}"),
        &["Accept-Language: pt-BR,pt;q=0.9,en;q=0.5".to_string()],
    )
    .await;
    let pt = String::from_utf8(pt).expect("UTF-8");
    assert!(
        pt.contains(&esc(&render(
            &Msg::WebMoves,
            Lang::from_tag("pt").expect("pt")
        ))),
        "{pt}"
    );

    // Over: the result instead of the status, the record's result, no more reloading.
    let ended = group.say(&alice, "/resign", &[]).await;
    assert!(
        ended.iter().any(|o| lines(&o.message).contains(&link)),
        "the ending links the page: {ended:#?}"
    );
    let record = group.say(&bob, &format!("/record {id}"), &[]).await;
    assert_eq!(
        record.last().map(|o| &o.message),
        Some(&link),
        "{record:#?}"
    );
    let top = group.say(&bob, "/top", &[]).await;
    let top_link = Msg::WebTopAt {
        url: format!("{base}/top"),
    };
    assert!(lines(&top[0].message).contains(&top_link), "{top:#?}");
    let (_, over) = page(addr, &format!("/g/{id}")).await;
    let result = english(&Msg::RecordResult {
        result: "black".into(),
        name: bob.name.clone(),
        cause: Some(ugolki_core::game::EndCause::Resigned(
            ugolki_core::Color::White,
        )),
    });
    assert!(over.contains(&esc(&result)), "{result}: {over}");
    assert!(!over.contains("http-equiv=\"refresh\""));
    let (_, _, pdn) = get(addr, &format!("/g/{id}/record.pdn"), &[]).await;
    assert!(String::from_utf8_lossy(&pdn).contains("[Result \"0-1\"]"));

    // A game of a private chat is its players' own; no game, no page.
    let private = Room {
        table: group.table.clone(),
        chat: ChatRef::new(Platform::Test, "alice-dm", ChatKind::Private),
        n: AtomicU64::new(100),
    };
    let (hidden, started) = private.start(&alice, &bob, "none casual").await;
    assert!(
        !started.iter().any(|o| lines(&o.message)
            .iter()
            .any(|m| matches!(m, Msg::WebGameAt { .. }))),
        "no link to a private game: {started:#?}"
    );
    let record = private.say(&bob, &format!("/record {hidden}"), &[]).await;
    assert!(
        !record
            .iter()
            .any(|o| matches!(o.message, Msg::WebGameAt { .. })),
        "no link to a private game: {record:#?}"
    );
    for path in [
        format!("/g/{hidden}"),
        format!("/g/{hidden}/board.png"),
        format!("/g/{hidden}/record.pdn"),
        "/g/999".to_string(),
    ] {
        assert_eq!(page(addr, &path).await.0, 404, "{path}");
    }
    let (_, html) = page(addr, &format!("/g/{hidden}")).await;
    assert!(
        html.contains(&esc(&english(&Msg::WebNoGame { id: hidden }))),
        "{html}"
    );
    for path in ["/g/abc", "/g/1/../../etc/passwd", "/g/-1", "/p/999", "/x"] {
        assert_eq!(page(addr, path).await.0, 404, "{path}");
    }
    // A mistyped address is a page of its own, with the way to the first page.
    let (_, lost) = page(addr, "/g/abc").await;
    assert!(lost.contains(&esc(&english(&Msg::WebNoPage))), "{lost}");
    assert!(lost.contains("<a href=\"/\">"), "{lost}");

    // The leaderboards: the rated kind, all time and this month, names escaped and linked.
    let bob_id = store
        .player_by_platform_id(Platform::Test.as_str(), &bob.id)
        .await
        .expect("read")
        .expect("bob")
        .id;
    let (code, top) = page(addr, "/top").await;
    assert_eq!(code, 200, "{top}");
    let first = english(&Msg::TopLine {
        place: 1,
        name: bob.name.clone(),
        rating: 1015,
        games: 1,
    });
    assert_eq!(
        top.matches(&esc(&first)).count(),
        2,
        "all time and this month: {top}"
    );
    assert!(top.contains(&format!("<a href=\"/p/{bob_id}\">")), "{top}");
    assert_eq!(page(addr, "/").await.1, top);
    // bob's page: his rating as /rating says it, its chart, his public game and not the
    // private one.
    let (code, mine) = page(addr, &format!("/p/{bob_id}")).await;
    assert_eq!(code, 200, "{mine}");
    let month = ugolki_core::rating::month_of(ugolki_bots::now_ms());
    let standing = &store.standings(bob_id, &month).await.expect("read")[0];
    let line = english(&Msg::RatingLine {
        kind: ugolki_core::rating::RatingKind::Classic3x3,
        rating: standing.rating,
        rank: Some(1),
        monthly: standing.monthly,
        monthly_rank: Some(1),
        games: 1,
        won: 1,
        drawn: 0,
        lost: 0,
    });
    assert_eq!(standing.rating, 1015);
    assert!(mine.contains(&esc(&line)), "{line}: {mine}");
    // Its heading is a heading (the chat's `/rating` title ends in a colon).
    let heading = english(&Msg::WebPlayerTitle {
        name: bob.name.clone(),
    });
    assert!(
        mine.contains(&format!("<h1>{}</h1>", esc(&heading))),
        "{mine}"
    );
    assert!(mine.contains(&format!("href=\"/g/{id}\"")), "{mine}");
    assert!(
        !mine.contains(&format!("href=\"/g/{hidden}\"")),
        "a private game is listed"
    );
    assert!(!mine.contains("platform-id-"), "no platform id is shown");
    let (code, _, chart) = get(addr, &format!("/p/{bob_id}/chart.png?kind=classic3x3"), &[]).await;
    assert_eq!(code, 200);
    assert!(decodes(&chart));
    let (code, _, _) = get(addr, &format!("/p/{bob_id}/chart.png?kind=damas"), &[]).await;
    assert_eq!(code, 404, "no damas games, no chart");
    // The game's page links its players.
    let (_, game_page) = page(addr, &format!("/g/{id}")).await;
    assert!(game_page.contains(&format!("href=\"/p/{bob_id}\"")));
    screenshots(
        addr,
        &[
            (format!("/g/{id}"), "web-game"),
            ("/top".into(), "web-top"),
            (format!("/p/{bob_id}"), "web-player"),
        ],
    )
    .await;
    web.abort();
}

/// Each of `pages` on a phone (390×844) in a real browser, with script off as the pages
/// need none: nothing wider than the screen, and a screenshot of each kept under the
/// target directory (`tmp/NAME.png`, CI's artifacts).
async fn screenshots(addr: std::net::SocketAddr, pages: &[(String, &str)]) {
    let Some(dir) = browser() else {
        eprintln!("no screenshots: no node, chromium or tests/browser/node_modules");
        return;
    };
    let mut b = ugolki_tests::browser::Browsers::start(&dir);
    for (path, name) in pages {
        let who = format!("reader-{name}");
        b.ask(&who, &format!("open-static http://{addr}{path}"))
            .await;
        let wide: u32 = b.ask(&who, "scroll-width").await.parse().expect("px");
        assert!(wide <= 390, "{path} is {wide} px wide on a 390 px phone");
        let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.png"));
        assert_eq!(b.ask(&who, &format!("shot {}", shot.display())).await, "ok");
        assert!(decodes(&std::fs::read(&shot).expect("the screenshot")));
    }
    b.close().await;
}

/// One address gets its budget of requests a minute and then 429 with when to come back, in
/// its words; another address is served all the while. Behind a proxy on this machine the
/// reader is the address the proxy appended to `X-Forwarded-For`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_hammering_the_pages_is_told_to_wait_and_others_are_served() {
    let Served { addr, web, .. } = served("budget", test_group("budget"), false, None).await;
    let from = |ip: &str| vec![format!("X-Forwarded-For: 10.0.0.1, {ip}")];
    let hammer = from("203.0.113.5");
    for n in 0..ugolki_bots::web::PER_WINDOW {
        let (code, _, _) = get(addr, "/top", &hammer).await;
        assert_eq!(code, 200, "request {n}");
    }
    let (code, head, body) = get(addr, "/top?lang=ru", &hammer).await;
    assert_eq!(code, 429, "{head}");
    let wait: i64 = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("retry-after: ")
                .map(str::to_owned)
        })
        .and_then(|v| v.trim().parse().ok())
        .expect("Retry-After");
    assert!((1..=60).contains(&wait), "{wait}");
    let said = render(
        &Msg::WebTooMany { seconds: wait },
        Lang::from_tag("ru").expect("ru"),
    );
    assert!(String::from_utf8_lossy(&body).contains(&esc(&said)));
    // Someone else, meanwhile.
    assert_eq!(get(addr, "/top", &from("203.0.113.6")).await.0, 200);
    web.abort();
}

/// Read from `stream` into `seen` until it holds `want`, for at most `within`.
async fn until(
    stream: &mut tokio::net::TcpStream,
    seen: &mut Vec<u8>,
    want: &str,
    within: std::time::Duration,
) -> bool {
    use tokio::io::AsyncReadExt;
    let deadline = tokio::time::Instant::now() + within;
    let mut chunk = [0u8; 4096];
    while !String::from_utf8_lossy(seen).contains(want) {
        let Ok(Ok(n)) = tokio::time::timeout_at(deadline, stream.read(&mut chunk)).await else {
            return false;
        };
        if n == 0 {
            return false;
        }
        seen.extend_from_slice(&chunk[..n]);
    }
    true
}

/// A stream of the game's events, opened: the connection and what it said so far.
async fn watch(addr: std::net::SocketAddr, id: i64) -> (tokio::net::TcpStream, Vec<u8>) {
    use tokio::io::AsyncWriteExt;
    let mut s = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let ask =
        format!("GET /g/{id}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
    s.write_all(ask.as_bytes()).await.expect("asked");
    (s, Vec::new())
}

/// A page watching a running game hears of a move typed in the chat, and of its end, within
/// a second, with nobody touching the page; the page carries the few lines that listen
/// (and, for browsers without script, reloads itself). The streams are bounded per game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watched_game_tells_its_page_of_each_move_and_its_end_within_a_second() {
    let Served {
        addr,
        room: group,
        web,
        ..
    } = served("live", test_group("watchers"), false, None).await;
    let (alice, bob) = (user("alice", "alice"), user("bob", "bob"));
    let (id, _) = group.start(&alice, &bob, "none casual").await;
    let (_, html) = page(addr, &format!("/g/{id}")).await;
    assert!(
        html.contains(&format!("new EventSource(\"/g/{id}/events\")")),
        "{html}"
    );
    assert!(
        html.contains("<noscript><meta http-equiv=\"refresh\""),
        "{html}"
    );
    let second = std::time::Duration::from_secs(1);
    let (mut s, mut seen) = watch(addr, id).await;
    assert!(
        until(&mut s, &mut seen, "event: ply\ndata: 0\n", WAIT).await,
        "{}",
        String::from_utf8_lossy(&seen)
    );
    assert!(String::from_utf8_lossy(&seen).contains("text/event-stream"));
    let mut game = Game::new(&Rules::Corners(ugolki_core::corners::Variant::classic3x3()));
    let mut rng = Rng(0x11fe);
    for ply in 1..=3 {
        let mv = rng.pick(&safe_moves(&game)).clone();
        let who = if ply % 2 == 1 { &alice } else { &bob };
        group.say(who, &mv, &[]).await;
        game.play_text(&mv).expect("legal");
        let heard = until(&mut s, &mut seen, &format!("data: {ply}\n"), second).await;
        assert!(heard, "ply {ply}: {}", String::from_utf8_lossy(&seen));
    }
    group.say(&bob, "/resign", &[]).await;
    assert!(
        until(&mut s, &mut seen, "event: over\ndata: 3\n", second).await,
        "{}",
        String::from_utf8_lossy(&seen)
    );
    drop(s);
    // At most so many streams a game: the next is refused (503) until one closes.
    let mut open = Vec::new();
    for _ in 0..ugolki_bots::web::STREAMS_PER_GAME {
        let (mut s, mut seen) = watch(addr, id).await;
        assert!(until(&mut s, &mut seen, "event: over", WAIT).await);
        open.push(s);
    }
    let (mut s, mut seen) = watch(addr, id).await;
    assert!(until(&mut s, &mut seen, "503 Service Unavailable", WAIT).await);
    drop(open.pop());
    let mut served = false;
    for _ in 0..200 {
        let (mut s, mut seen) = watch(addr, id).await;
        if until(&mut s, &mut seen, "\r\n\r\n", WAIT).await
            && String::from_utf8_lossy(&seen).starts_with("HTTP/1.1 200")
        {
            served = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(served, "a stream closed makes room for another");
    web.abort();
}

/// In a real browser (chromium at a phone's size) the page of a running game shows each
/// move typed in the chat within a second, nobody touching the page. Its screenshot is kept
/// under the target directory (`tmp/web-live-game.png`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_browser_a_move_typed_in_the_chat_shows_on_the_open_page_within_a_second() {
    let dir = ugolki_tests::browser_or_skip!();
    let Served {
        addr,
        room: group,
        web,
        ..
    } = served("browser", test_group("browser"), false, None).await;
    let (alice, bob) = (user("alice", "alice"), user("bob", "bob"));
    let (id, _) = group.start(&alice, &bob, "5+3 casual").await;
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-live-game.png");
    let mut b = ugolki_tests::browser::Browsers::start(&dir);
    assert_eq!(
        b.ask("reader", &format!("open http://{addr}/g/{id}")).await,
        format!("/g/{id}")
    );
    let mut game = Game::new(&Rules::Corners(ugolki_core::corners::Variant::classic3x3()));
    let mut rng = Rng(0xb0a7);
    for ply in 0..4 {
        let mv = rng.pick(&safe_moves(&game)).clone();
        let who = if ply % 2 == 0 { &alice } else { &bob };
        group.say(who, &mv, &[]).await;
        game.play_text(&mv).expect("legal");
        let answer = b.ask("reader", &format!("wait-text ol.moves {mv}")).await;
        let ms: u64 = answer
            .strip_prefix("shown ")
            .and_then(|m| m.parse().ok())
            .unwrap_or_else(|| panic!("{mv}: {answer}"));
        assert!(ms < 1000, "{mv} shown after {ms} ms");
    }
    assert_eq!(
        b.ask("reader", &format!("shot {}", shot.display())).await,
        "ok"
    );
    b.close().await;
    assert!(decodes(&std::fs::read(&shot).expect("the screenshot")));
    web.abort();
}

/// A Telegram Mini App's reader moves in their game through the pages' API, signed by
/// `initData`: the player to move plays (the chat's game goes on, as a typed move would);
/// an unsigned, forged or expired request is 401 and changes nothing; a stale ply, a move
/// out of turn or a bystander's move is refused (409) in the table's words, changing
/// nothing; the same move sent twice is played once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(clippy::too_many_lines)]
async fn a_mini_app_reader_moves_only_in_their_own_game_and_only_when_signed() {
    const TOKEN: &str = "777:mini-app-test-token";
    let telegram_group = ChatRef::new(Platform::Telegram, "-100123", ChatKind::Group);
    let Served {
        store,
        addr,
        room: group,
        web,
    } = served("mini-app", telegram_group, false, Some(TOKEN)).await;
    let (alice, bob) = (tg_user(11, "Alice"), tg_user(12, "Bob"));
    let (id, _) = group.start(&alice, &bob, "none casual").await;
    let now = ugolki_bots::now_ms() / 1000;
    let post = |auth: Option<String>, body: String| async move {
        let mut headers = vec!["Content-Type: application/json".to_string()];
        if let Some(a) = auth {
            headers.push(format!("Authorization: tma {a}"));
        }
        let (code, _, said) = ugolki_tests::http_bytes(
            addr,
            "POST",
            &format!("/api/g/{id}/move"),
            &headers,
            &body,
            WAIT,
        )
        .await;
        (code, String::from_utf8_lossy(&said).into_owned())
    };
    let ply = || async { store.game(id).await.expect("read").expect("game").ply };
    let signed = |who: i64, name: &str| Some(init_data(TOKEN, who, name, now));
    let mv = |text: &str, ply: i64| serde_json::json!({ "move": text, "ply": ply }).to_string();
    // Unsigned, signed by another bot, or too old: nothing happens.
    for auth in [
        None,
        Some(init_data("999:another-bot", 11, "Alice", now)),
        Some(init_data(TOKEN, 11, "Alice", now - 7200)),
    ] {
        assert_eq!(post(auth, mv("c3-d3", 0)).await.0, 401);
    }
    assert_eq!(ply().await, 0);
    // Bob is not to move; Carol is not playing; a stale board's ply: refused, in words.
    let (code, said) = post(signed(12, "Bob"), mv("f6-e6", 0)).await;
    assert_eq!(code, 409, "{said}");
    assert!(said.contains(&english(&Msg::NotYourTurn)), "{said}");
    let (code, said) = post(signed(13, "Carol"), mv("c3-d3", 0)).await;
    assert_eq!(code, 409, "{said}");
    let (code, said) = post(signed(11, "Alice"), mv("c3-d3", 5)).await;
    assert_eq!(code, 409);
    assert!(said.contains(&english(&Msg::ButtonStale)), "{said}");
    assert_eq!(ply().await, 0, "nothing was played");
    // Alice, signed, at the board's ply: played; sent again, played once.
    let (code, said) = post(signed(11, "Alice"), mv("c3-d3", 0)).await;
    assert_eq!(code, 200, "{said}");
    assert_eq!(ply().await, 1);
    let again = post(signed(11, "Alice"), mv("c3-d3", 0)).await;
    assert_ne!(again.0, 200, "{again:?}");
    assert_eq!(store.moves(id).await.expect("moves"), ["c3-d3"]);
    // The game goes on in the chat: Bob's typed reply is the next move.
    let reply = group.say(&bob, "f6-e6", &[]).await;
    assert!(reply.iter().any(|o| o.game == Some(id)), "{reply:#?}");
    assert_eq!(ply().await, 2);
    // What the page offers: the legal moves now, from the server, as the rules have them.
    let (code, _, listed) = get(addr, &format!("/g/{id}/moves.json"), &[]).await;
    assert_eq!(code, 200);
    let listed: serde_json::Value = serde_json::from_slice(&listed).expect("JSON");
    assert_eq!(listed["ply"], 2);
    assert_eq!(listed["turn"], "white");
    assert_eq!(listed["offer"], "none", "no draw offer waits");
    // A watcher is nobody's side.
    assert!(listed["me"].is_null());
    let mut game = Game::new(&Rules::Corners(ugolki_core::corners::Variant::classic3x3()));
    game.play_text("c3-d3").expect("legal");
    game.play_text("f6-e6").expect("legal");
    let offered: Vec<String> = listed["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["move"].as_str().expect("text").to_string())
        .collect();
    assert_eq!(offered, game.legal_move_texts());
    let first = &listed["moves"][0];
    let text = first["move"].as_str().expect("text");
    assert!(text.starts_with(first["from"].as_str().expect("from")));
    assert!(text.ends_with(first["to"].as_str().expect("to")));
    // One of them, clicked: played.
    assert_eq!(post(signed(11, "Alice"), mv(text, 2)).await.0, 200);
    assert_eq!(ply().await, 3);
    // Bad bodies: not JSON, no ply, a move longer than any, nothing; a move that is no
    // move, in any script: each answered, nothing played.
    for body in [
        "{nonsense".to_string(),
        serde_json::json!({ "move": "c3-d3" }).to_string(),
        mv(&"c3-d3".repeat(40), 3),
        mv("  ", 3),
        String::new(),
    ] {
        assert_eq!(post(signed(12, "Bob"), body).await.0, 400);
    }
    for text in ["ц3-д3", "💥", "z9-z10", "c3-d3 /resign"] {
        let (code, said) = post(signed(12, "Bob"), mv(text, 3)).await;
        assert_eq!(code, 409, "{text:?}: {said}");
        assert!(!said.is_empty() && said.len() < 1000, "{text:?}: {said}");
        // Each refusal is its own, not an "out of date" for a second request at this ply.
        assert!(
            !said.contains(&english(&Msg::ButtonStale)),
            "{text:?}: {said}"
        );
    }
    // Out of turn, twice: told so both times.
    for _ in 0..2 {
        let (code, said) = post(signed(11, "Alice"), mv("b3-b4", 3)).await;
        assert_eq!(code, 409, "{said}");
        assert!(said.contains(&english(&Msg::NotYourTurn)), "{said}");
    }
    assert_eq!(ply().await, 3, "nothing was played");
    // After all that, Bob's legal move at the same ply is played.
    game.play_text(text).expect("legal");
    let reply = game.legal_move_texts()[0].clone();
    let (code, said) = post(signed(12, "Bob"), mv(&reply, 3)).await;
    assert_eq!(code, 200, "{said}");
    assert_eq!(ply().await, 4);
    web.abort();
}

/// A whole exchange by clicks and keys in a real browser, on the board a Telegram Mini App
/// shows, opened by a `startapp` link to the game: Alice (signed by `initData`) picks a piece by a click and plays it by clicking its
/// destination; Bob's reply typed in the chat reaches her page by itself; Esc lets go of a
/// picked piece; the arrows and Enter pick and play the next move. The store has every move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_browser_a_player_plays_by_clicks_and_keys_on_the_mini_apps_board() {
    const TOKEN: &str = "778:click-test-token";
    let dir = ugolki_tests::browser_or_skip!();
    let telegram_group = ChatRef::new(Platform::Telegram, "-100777", ChatKind::Group);
    let Served {
        store,
        addr,
        room: group,
        web,
    } = served("clicks", telegram_group, false, Some(TOKEN)).await;
    let (alice, bob) = (tg_user(21, "Alice"), tg_user(22, "Bob"));
    let (id, _) = group.start(&alice, &bob, "none casual").await;
    let signed = init_data(TOKEN, 21, "Alice", ugolki_bots::now_ms() / 1000);
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-mini-app-board.png");
    let mut b = ugolki_tests::browser::Browsers::start(&dir);
    let mut say = async |line: &str| b.ask("alice", line).await;
    // Opened as a `startapp` link opens it: the Mini App's address, the game its start
    // parameter; seated by her initData, the board knows her side.
    let opened = say(&format!("tg-open http://{addr}/app {signed} {id}")).await;
    assert_eq!(opened, format!("/app/g/{id}"));
    assert_eq!(say("wait #board[data-me=white]").await, "ok");
    assert_eq!(say("attr #board data-ply").await, "0");
    // By clicks: the piece, then where it goes.
    say("click c3").await;
    assert_eq!(say("picked").await, "c3");
    say("click d3").await;
    assert_eq!(say("wait-ply 1").await, "ply 1");
    assert_eq!(store.moves(id).await.expect("moves"), ["c3-d3"]);
    // Bob answers in the chat; Alice's page follows by itself.
    group.say(&bob, "f6-e6", &[]).await;
    assert_eq!(say("wait-ply 2").await, "ply 2");
    // Esc lets go of a picked piece. The keyboard's cursor is where the click was: one
    // square, the only one in the tab order (the arrows reach the rest).
    say("click b3").await;
    say("key Escape").await;
    assert_eq!(say("picked").await, "none");
    assert_eq!(say("count #board .cursor").await, "1");
    assert_eq!(say("attr .cursor data-sq").await, "b3");
    assert_eq!(say("count #board [tabindex=\"0\"]").await, "1");
    // The keys, from where the last click left the cursor (b3): up and back down, Enter
    // picks b3; right to c3, Enter plays it.
    for key in ["ArrowUp", "ArrowLeft", "ArrowRight", "ArrowDown", "Enter"] {
        say(&format!("key {key}")).await;
    }
    assert_eq!(say("picked").await, "b3");
    say("key ArrowRight").await;
    say("key Enter").await;
    assert_eq!(say("wait-ply 3").await, "ply 3");
    assert_eq!(
        store.moves(id).await.expect("moves"),
        ["c3-d3", "f6-e6", "b3-c3"]
    );
    // Black's piece, clicked by Alice (seated as White by her initData): not hers to pick,
    // and nothing played.
    say("click g6").await;
    assert_eq!(say("picked").await, "none");
    say("click f6").await;
    assert_eq!(store.moves(id).await.expect("moves").len(), 3);
    assert_eq!(say(&format!("shot {}", shot.display())).await, "ok");
    b.close().await;
    assert!(decodes(&std::fs::read(&shot).expect("the screenshot")));
    web.abort();
}

/// On the narrowest phone (320 CSS pixels), in every language, the first tap on Resign
/// asks without moving any button: the question's line is kept for it, so the second tap
/// lands where the first did (on a phone the question wrapped onto a second line and
/// pushed the buttons down under the finger).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_browser_resigns_question_moves_no_button_on_a_narrow_phone_in_any_language() {
    const TOKEN: &str = "779:narrow-test-token";
    let dir = ugolki_tests::browser_or_skip!();
    let telegram_group = ChatRef::new(Platform::Telegram, "-100779", ChatKind::Group);
    let Served {
        addr,
        room: group,
        web,
        ..
    } = served("narrow", telegram_group, false, Some(TOKEN)).await;
    let (alice, bob) = (tg_user(31, "Alice"), tg_user(32, "Bob"));
    let (id, _) = group.start(&alice, &bob, "none casual").await;
    let signed = init_data(TOKEN, 31, "Alice", ugolki_bots::now_ms() / 1000);
    let mut b = ugolki_tests::browser::Browsers::start(&dir);
    for lang in Lang::all() {
        let code = lang.code();
        let who = format!("alice-{code}");
        let url = format!("http://{addr}/app/g/{id}?lang={code}");
        b.ask(&who, &format!("tg-open {url} {signed} - 320 640"))
            .await;
        assert_eq!(b.ask(&who, "wait #board[data-me=white]").await, "ok");
        assert_eq!(b.ask(&who, "scroll-width").await, "320", "{code}");
        let resign = render(&Msg::BtnResign, lang);
        let before = b.ask(&who, "tops #acts .act").await;
        assert!(!before.is_empty(), "{code}: the game's buttons");
        assert_eq!(b.ask(&who, &format!("act {resign}")).await, "ok");
        assert_eq!(
            b.ask(&who, "text #said").await,
            render(&Msg::WebResignSure, lang),
            "{code}"
        );
        assert_eq!(b.ask(&who, "tops #acts .act").await, before, "{code}");
        let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("web-resign-asked-320-{code}.png"));
        assert_eq!(b.ask(&who, &format!("shot {}", shot.display())).await, "ok");
        assert!(decodes(&std::fs::read(&shot).expect("the screenshot")));
    }
    b.close().await;
    web.abort();
}

/// The console's arguments for [`console_child`], a line each.
const CONSOLE_ARGS: &str = "UGOLKI_CHILD_CONSOLE_ARGS";

/// The console in a process of its own (run by the test below with [`CONSOLE_ARGS`]): its
/// lines from this process's standard input, its chat on its standard output.
#[test]
#[ignore = "run by in_a_browser_two_console_players_sign_in_by_their_links_and_play_to_a_draw"]
fn console_child() {
    let Ok(args) = std::env::var(CONSOLE_ARGS) else {
        return;
    };
    let argv = std::iter::once("ugolki").chain(args.lines());
    let code = ugolki_bots::cli::run(
        argv,
        &mut std::io::stdin().lock(),
        false,
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    );
    std::process::exit(i32::from(code));
}

/// The console's chat, a line at a time, from its child process.
struct ConsoleChild {
    child: std::process::Child,
    input: Option<std::process::ChildStdin>,
    lines: tokio::sync::mpsc::UnboundedReceiver<String>,
    seen: Vec<String>,
}

impl ConsoleChild {
    fn spawn(args: &[String]) -> ConsoleChild {
        use std::io::BufRead;
        let exe = std::env::current_exe().expect("the test binary");
        let mut child = std::process::Command::new(exe)
            .args(["--exact", "console_child", "--ignored", "--nocapture"])
            .args(["--test-threads=1", "--quiet"])
            .env(CONSOLE_ARGS, args.join("\n"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("the console starts");
        let (tx, lines) = tokio::sync::mpsc::unbounded_channel();
        let out = child.stdout.take().expect("stdout");
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let input = child.stdin.take();
        ConsoleChild {
            child,
            input,
            lines,
            seen: Vec::new(),
        }
    }

    fn type_line(&mut self, line: &str) {
        use std::io::Write;
        let input = self.input.as_mut().expect("open");
        writeln!(input, "{line}").expect("typed");
    }

    /// The first line (from the start) that `f` takes, waiting at most `WAIT` for it.
    async fn find(&mut self, f: impl Fn(&str) -> bool) -> String {
        for _ in 0..10_000 {
            if let Some(l) = self.seen.iter().find(|l| f(l)) {
                return l.clone();
            }
            match next(&mut self.lines, WAIT).await {
                Some(l) => self.seen.push(l),
                None => break,
            }
        }
        panic!("not printed; the console said: {:#?}", self.seen);
    }

    /// Its input closed: it ends well.
    async fn end(mut self) {
        drop(self.input.take());
        closes(&mut self.child).await;
    }
}

/// The link a console line names (`http://…` up to a space).
fn link_in(line: &str) -> String {
    let at = line.find("http://").expect("a link");
    line[at..]
        .split_whitespace()
        .next()
        .expect("a link")
        .to_string()
}

/// A console game's board and its players' one-time links.
#[derive(Clone)]
struct Seated {
    id: i64,
    board_url: String,
    alice_link: String,
    bob_link: String,
}

/// A console serving its pages (on a database named `name`), where alice challenged bob to
/// `variant` (on a 10-minute clock) and he accepted: the console, its database, and the
/// links it printed.
async fn console_game(name: &str, variant: &str) -> (ConsoleChild, std::path::PathBuf, Seated) {
    console_game_on(name, variant, "10+0").await
}

/// A console with its pages (`--web`) on a database and a pictures folder named `name`.
fn web_console(name: &str) -> (ConsoleChild, std::path::PathBuf) {
    let addr = ugolki_tests::free_addr();
    let db = temp_db("web", name);
    let console = ConsoleChild::spawn(&[
        "console".into(),
        "--db".into(),
        db.display().to_string(),
        "--boards".into(),
        std::env::temp_dir()
            .join(format!("ugolki-{name}-boards"))
            .display()
            .to_string(),
        "--web".into(),
        addr.to_string(),
    ]);
    (console, db)
}

/// [`console_game`] on the clock `time`.
async fn console_game_on(
    name: &str,
    variant: &str,
    time: &str,
) -> (ConsoleChild, std::path::PathBuf, Seated) {
    let (mut console, db) = web_console(name);
    console.type_line(&format!("alice: /challenge @bob {variant} {time} white"));
    console.type_line("bob: /accept");
    let page_line = console.find(|l| l.contains("/app/g/")).await;
    let board_url = link_in(&page_line);
    let id: i64 = board_url
        .rsplit('/')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("the game's number");
    let seat = |name: &'static str| move |l: &str| l.starts_with(name) && l.contains("/app/in/");
    let alice_link = link_in(&console.find(seat("alice")).await);
    let bob_link = link_in(&console.find(seat("bob")).await);
    (
        console,
        db,
        Seated {
            id,
            board_url,
            alice_link,
            bob_link,
        },
    )
}

/// A tournament's next round, started by the end of the last game of the one before (not
/// by a line of its players): its game's links are printed under its first board too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournaments_next_round_prints_its_games_links() {
    let (mut console, _) = web_console("console-rounds");
    console.type_line("alice: /tournament roundrobin classic3x3 3+2 casual");
    console.type_line("alice: /join");
    console.type_line("bob: /join");
    console.type_line("carol: /join");
    console.type_line("alice: /tournament start");
    // Round 1: one game, one player sitting out; its player with White resigns it.
    let first = console.find(|l| l.contains("/app/g/")).await;
    let id: i64 = link_in(&first)
        .rsplit('/')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a game's number");
    let seat = |l: &str| l.contains("/app/in/");
    let player = console.find(seat).await;
    let name = player
        .split_whitespace()
        .next()
        .expect("a name")
        .to_string();
    console.type_line(&format!("{name}: /resign {id}"));
    // Round 2 starts by itself: its game's links come too.
    let next = console
        .find(|l| l.contains("/app/g/") && !l.contains(&format!("/app/g/{id}")))
        .await;
    let second = english(&Msg::ConsoleWebGame {
        id: id + 1,
        url: link_in(&next),
    });
    assert_eq!(next, second, "the next round's game, with its link");
    // ... and its players' sign-in links, new ones (round 1's came before its line).
    let seats = |l: &str| l.contains("/app/in/");
    let at = console.seen.iter().position(|l| *l == next).expect("seen");
    let earlier: Vec<String> = console.seen[..at]
        .iter()
        .filter(|l| seats(l))
        .cloned()
        .collect();
    let later = console
        .find(|l| seats(l) && !earlier.iter().any(|e| e == l))
        .await;
    assert!(
        ["alice ", "bob ", "carol "]
            .iter()
            .any(|n| later.starts_with(n)),
        "{later}"
    );
    console.end().await;
}

/// Four plies by clicks on the seated players' pages, each shown on the other's page by
/// itself and in the console; on the way, a move out of turn and one from a reader with no
/// seat are refused.
async fn play_four_plies(
    b: &mut ugolki_tests::browser::Browsers,
    console: &mut ConsoleChild,
    seated: &Seated,
) {
    let game_path = format!("/app/g/{}", seated.id);
    let board_url = &seated.board_url;
    let mut game = Game::new(&Rules::Corners(ugolki_core::corners::Variant::classic3x3()));
    for ply in 0..4 {
        let (who, other) = if ply % 2 == 0 {
            ("alice", "bob")
        } else {
            ("bob", "alice")
        };
        // A move whose first and last squares name it alone.
        let legal = game.legal_move_texts();
        let ends = |m: &str| {
            let squares: Vec<&str> = m.split(['-', 'x']).collect();
            (
                squares[0].to_string(),
                squares[squares.len() - 1].to_string(),
            )
        };
        let mv = safe_moves(&game)
            .into_iter()
            .find(|m| legal.iter().filter(|l| ends(l) == ends(m)).count() == 1)
            .expect("a move");
        let (from, to) = ends(&mv);
        if ply == 1 {
            // Out of turn: refused in the table's words, nothing played.
            let body = serde_json::json!({ "move": mv, "ply": 0 }).to_string();
            let said = b.ask("alice", &format!("post move {body}")).await;
            assert!(said.starts_with("409 "), "{said}");
            // A reader with no seat may watch, not move.
            assert_eq!(b.ask("eve", &format!("open {board_url}")).await, game_path);
            let body = serde_json::json!({ "move": mv, "ply": 1 }).to_string();
            assert!(b
                .ask("eve", &format!("post move {body}"))
                .await
                .starts_with("401"));
            // Nor by clicks: a watcher picks nothing and has no buttons; nothing is played.
            assert_eq!(b.ask("eve", "wait #board[data-ready=\"1\"]").await, "ok");
            b.ask("eve", &format!("click {from}")).await;
            assert_eq!(b.ask("eve", "picked").await, "none");
            b.ask("eve", &format!("click {to}")).await;
            assert_eq!(b.ask("eve", "attr #acts hidden").await, "");
            assert_eq!(b.ask("eve", "attr #board data-ply").await, "1");
        }
        assert_eq!(b.ask(who, &format!("click {from}")).await, "ok");
        assert_eq!(b.ask(who, &format!("click {to}")).await, "ok");
        let shown = format!("ply {}", ply + 1);
        assert_eq!(b.ask(who, &format!("wait-ply {}", ply + 1)).await, shown);
        assert_eq!(b.ask(other, &format!("wait-ply {}", ply + 1)).await, shown);
        game.play_text(&mv).expect("legal");
        console.find(|l| l.contains(&mv)).await;
    }
}

/// Two console players, no platform and no token: the console prints the game's board
/// address and each player's one-time link; each opens theirs in a browser of their own
/// and is seated as themselves (White sees White's side, Black the board turned, each a
/// clock that ticks). They play by clicks, each move reaching the other's page by itself
/// and the console as its usual board; a move out of turn is refused in the table's words
/// and a reader with no seat may not move. Alice offers a draw from her page; Bob's page
/// shows the offer with its buttons (hers does not) and he accepts: both pages show the
/// result, the console says the draw, the store keeps it. A link works once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_browser_two_console_players_sign_in_by_their_links_and_play_to_a_draw() {
    let dir = ugolki_tests::browser_or_skip!();
    let (mut console, db, seated) = console_game("console-seats", "classic3x3").await;
    let Seated {
        id,
        alice_link,
        bob_link,
        ..
    } = seated.clone();
    let mut b = ugolki_tests::browser::Browsers::start(&dir);
    let game_path = format!("/app/g/{id}");
    assert_eq!(
        b.ask("alice", &format!("open {alice_link}")).await,
        game_path
    );
    assert_eq!(b.ask("bob", &format!("open {bob_link}")).await, game_path);
    // Seated as themselves: their side, the board turned for Black.
    assert_eq!(b.ask("alice", "attr #board data-me").await, "white");
    assert_eq!(b.ask("bob", "attr #board data-me").await, "black");
    assert_eq!(b.ask("alice", "attr #board>button data-sq").await, "a8");
    assert_eq!(b.ask("bob", "attr #board>button data-sq").await, "h1");
    // White's clock runs, on both pages, and ticks.
    let before = b.ask("bob", "text .clock.run .t").await;
    assert_eq!(
        before,
        b.ask("bob", "text .clock[data-side=white] .t").await
    );
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    let after = b.ask("bob", "text .clock.run .t").await;
    assert!(
        before.starts_with("10:00") || before.starts_with("9:5"),
        "{before}"
    );
    assert_ne!(before, after, "the running clock ticks");
    // Black's clock stands still (White is to move): its figure is nowhere in the line.
    let still = b.ask("bob", "text .clock[data-side=black] .t").await;
    let status = b.ask("bob", "text #status").await;
    assert!(!still.is_empty() && still != "none", "{still}");
    assert!(
        !status.contains(&still),
        "the status line leaves the time to the clocks that tick: {status}"
    );
    play_four_plies(&mut b, &mut console, &seated).await;
    // Alice offers a draw from her page; Bob's page shows it, and its answers.
    let offer = english(&Msg::BtnOfferDraw);
    let (accept, decline) = (english(&Msg::BtnAcceptDraw), english(&Msg::BtnDeclineDraw));
    assert!(b.ask("alice", "acts").await.contains(&offer));
    assert_eq!(b.ask("alice", &format!("act {offer}")).await, "ok");
    assert_eq!(b.ask("bob", "wait #offer").await, "ok");
    let answers = b.ask("bob", "acts").await;
    assert!(
        answers.contains(&accept) && answers.contains(&decline),
        "{answers}"
    );
    assert_eq!(b.ask("alice", "wait #offer").await, "ok");
    assert!(
        !b.ask("alice", "acts").await.contains(&accept),
        "not her own"
    );
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-console-seat.png");
    assert_eq!(
        b.ask("bob", &format!("shot {}", shot.display())).await,
        "ok"
    );
    assert_eq!(b.ask("bob", &format!("act {accept}")).await, "ok");
    // Over on both pages: no buttons, the result said.
    let agreed = english(&Msg::DrawAgreed { id });
    console.find(|l| l.contains(&agreed)).await;
    for who in ["alice", "bob"] {
        assert_eq!(b.ask(who, "wait #acts:empty").await, "ok", "{who}");
        let status = b.ask(who, "text #status").await;
        assert!(!status.is_empty() && status != "none", "{who}: {status}");
    }
    // A link works once.
    assert_eq!(b.ask("alice", &format!("get {alice_link}")).await, "404");
    b.close().await;
    console.end().await;
    let store = Store::connect(&sqlite_url(&db)).await.expect("store");
    let row = store.game(id).await.expect("read").expect("kept");
    assert_eq!(
        row.result.map(ugolki_core::game::GameResult::code),
        Some("draw")
    );
    assert!(decodes(&std::fs::read(&shot).expect("the screenshot")));
}

/// Damas on the board page (D3, D4): when a capture is compulsory only the pieces that must
/// capture can be picked, a piece that could only step is not, and a capture of two pieces
/// is played by clicking the square it ends on. The position is reached by moves typed in
/// the console.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d3_in_a_browser_only_the_pieces_that_must_capture_can_be_picked() {
    let dir = ugolki_tests::browser_or_skip!();
    let (mut console, db, seated) = console_game("console-damas", "damas").await;
    // Moves that lead to White having to capture twice in one move, typed in the chat.
    let (moves, game) = to_a_double_capture();
    for (n, mv) in moves.iter().enumerate() {
        let who = if n % 2 == 0 { "alice" } else { "bob" };
        console.type_line(&format!("{who}: {mv}"));
    }
    let typed = moves.len();
    let legal = game.legal_move_texts();
    let ends = |m: &str| {
        let squares: Vec<&str> = m.split(['-', 'x']).collect();
        (
            squares[0].to_string(),
            squares[squares.len() - 1].to_string(),
        )
    };
    let capturers: std::collections::BTreeSet<String> = legal.iter().map(|m| ends(m).0).collect();
    let mut b = ugolki_tests::browser::Browsers::start(&dir);
    b.ask("alice", &format!("open {}", seated.alice_link)).await;
    assert_eq!(
        b.ask("alice", &format!("wait-ply {typed}")).await,
        format!("ply {typed}")
    );
    // A white piece that could step but must not: not picked.
    let board = ugolki_core::view::BoardView::of_game(&game);
    let idle = board
        .pieces
        .iter()
        .filter(|p| p.color == ugolki_core::Color::White)
        .map(|p| p.square.to_string())
        .find(|sq| !capturers.contains(sq))
        .expect("a white piece that cannot capture");
    b.ask("alice", &format!("click {idle}")).await;
    assert_eq!(
        b.ask("alice", "picked").await,
        "none",
        "{idle} cannot be picked"
    );
    // The capturer that takes two: picked, its landings marked; clicking its last square
    // plays both jumps.
    let mv = legal
        .iter()
        .find(|m| m.matches('x').count() >= 2)
        .expect("a double capture")
        .clone();
    let (from, to) = ends(&mv);
    b.ask("alice", &format!("click {from}")).await;
    assert_eq!(b.ask("alice", "picked").await, from);
    let targets = b.ask("alice", "targets").await;
    let want: std::collections::BTreeSet<String> = legal
        .iter()
        .filter(|m| ends(m).0 == from)
        .map(|m| ends(m).1)
        .collect();
    let got: std::collections::BTreeSet<String> = targets.split('|').map(str::to_string).collect();
    assert_eq!(got, want);
    b.ask("alice", &format!("click {to}")).await;
    let after = typed + 1;
    assert_eq!(
        b.ask("alice", &format!("wait-ply {after}")).await,
        format!("ply {after}")
    );
    b.close().await;
    console.end().await;
    let store = Store::connect(&sqlite_url(&db)).await.expect("store");
    let played = store.moves(seated.id).await.expect("moves");
    let last = played.last().expect("played");
    assert_eq!(ends(last), (from, to), "{last}: both jumps, by one click");
    assert!(last.matches('x').count() >= 2, "{last}");
}

/// A Damas game from the start, at random (seeded) but for captures when they are due,
/// until White must capture and can take two in one move (within 80 plies; the first seed
/// that gets there): its moves, and the game then.
fn to_a_double_capture() -> (Vec<String>, Game) {
    for seed in 1..500u64 {
        let mut game = Game::new(&Rules::Damas { flying: true });
        let mut rng = Rng(0x5eed_0000 + seed);
        let mut moves = Vec::new();
        for _ in 0..80 {
            let legal = game.legal_move_texts();
            let white = moves.len() % 2 == 0;
            if white && legal.iter().any(|m| m.matches('x').count() >= 2) {
                return (moves, game);
            }
            let safe = safe_moves(&game);
            if safe.is_empty() {
                break;
            }
            let mv = rng.pick(&safe).clone();
            game.play_text(&mv).expect("legal");
            moves.push(mv);
            if game.ending().is_some() {
                break;
            }
        }
    }
    panic!("no seed gives White a double capture within 80 plies");
}

/// Halma on its 16×16 board on a phone (390×844): all 256 squares drawn, each big enough
/// to tap, the board inside the screen's width, and a move played by two taps.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_browser_halma_16x16_fits_a_phone_and_is_played_by_taps() {
    let dir = ugolki_tests::browser_or_skip!();
    let (mut console, _db, seated) = console_game("console-halma", "halma16").await;
    let mut b = ugolki_tests::browser::Browsers::start(&dir);
    b.ask("alice", &format!("open {} 390 844", seated.alice_link))
        .await;
    assert_eq!(b.ask("alice", "count #board>button").await, "256");
    let square: f64 = b
        .ask("alice", "width #board>button")
        .await
        .parse()
        .expect("px");
    assert!(square >= 22.0, "a square of {square} px");
    let board: f64 = b.ask("alice", "width #board").await.parse().expect("px");
    assert!(board <= 390.0, "the board is {board} px wide");
    let game = Game::new(&Rules::Corners(
        ugolki_core::corners::Variant::by_id("halma16").expect("halma16"),
    ));
    let mv = safe_moves(&game)
        .into_iter()
        .find(|m| m.matches('-').count() == 1)
        .expect("a step");
    let (from, to) = mv.split_once('-').expect("a step");
    b.ask("alice", &format!("click {from}")).await;
    b.ask("alice", &format!("click {to}")).await;
    assert_eq!(b.ask("alice", "wait-ply 1").await, "ply 1");
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-halma-phone.png");
    assert_eq!(
        b.ask("alice", &format!("shot {}", shot.display())).await,
        "ok"
    );
    b.close().await;
    console.find(|l| l.contains(&mv)).await;
    console.end().await;
}

/// A game of a private chat is its players' own: its board page answers no one else (the
/// Mini App's page then seats its reader by `initData` and comes back); `POST /app/seat`
/// seats a reader Telegram signed (a forged signature is refused), and then their own
/// game's board, its moves and its events are theirs, and their moves play — with no
/// header but the cookie. The public pages stay public games' only; another reader seated
/// is not let in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_games_board_opens_to_its_player_seated_by_telegrams_signature() {
    const TOKEN: &str = "779:private-app-token";
    let (
        Served {
            store,
            addr,
            room,
            web,
        },
        id,
    ) = alices_private_game("private-app", TOKEN).await;
    let bob = tg_user(32, "Bob");
    let board = format!("/app/g/{id}");
    let (code, _, shell) = get(addr, &board, &[]).await;
    assert_eq!(code, 404);
    let shell = String::from_utf8_lossy(&shell);
    assert!(shell.contains("/app/seat"));
    // A Telegram bot's board pages are its Mini App too: Telegram's script seats a reader.
    assert!(shell.contains("https://telegram.org/js/telegram-web-app.js"));
    let seat = |init: String| seat_by(addr, init);
    let now = ugolki_bots::now_ms() / 1000;
    let forged = init_data("779:not-the-token", 31, "Alice", now);
    assert_eq!(seat(forged).await.0, 401);
    let (code, head, _) = seat(init_data(TOKEN, 31, "Alice", now)).await;
    assert_eq!(code, 204);
    let cookie = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or(l.strip_prefix("Set-Cookie: "))
        })
        .expect("a seat")
        .to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let with = vec![format!(
        "Cookie: {}",
        cookie.split(';').next().expect("pair")
    )];
    let (code, _, page) = get(addr, &board, &with).await;
    assert_eq!(code, 200);
    assert!(String::from_utf8_lossy(&page).contains("data-me=\"white\""));
    assert_eq!(
        get(addr, &format!("/g/{id}/moves.json"), &with).await.0,
        200
    );
    assert_eq!(get(addr, &format!("/g/{id}/moves.json"), &[]).await.0, 404);
    assert_eq!(
        get(addr, &format!("/g/{id}"), &with).await.0,
        404,
        "public only"
    );
    // Her move, with nothing but the seat. Its body must say it is JSON: a post another
    // page could send without asking (a form, `text/plain`; another port of this host is
    // the same site for the cookie) is refused, and plays nothing.
    let body = serde_json::json!({ "move": "c3-d3", "ply": 0 }).to_string();
    let path = format!("/api/g/{id}/move");
    for forged in [
        vec![],
        vec!["Content-Type: text/plain;charset=UTF-8".to_string()],
    ] {
        let headers = [with.clone(), forged].concat();
        let (code, _, _) =
            ugolki_tests::http_bytes(addr, "POST", &path, &headers, &body, WAIT).await;
        assert_eq!(code, 415, "{headers:?}");
    }
    assert!(store.moves(id).await.expect("moves").is_empty());
    let with = [with, vec!["Content-Type: application/json".to_string()]].concat();
    let (code, _, _) = ugolki_tests::http_bytes(addr, "POST", &path, &with, &body, WAIT).await;
    assert_eq!(code, 200);
    assert_eq!(store.moves(id).await.expect("moves"), ["c3-d3"]);
    // Someone else, seated — a player of the bot, with a private game of her own — is not
    // let into theirs.
    let eve_dm = Room {
        table: room.table.clone(),
        chat: ChatRef::new(Platform::Telegram, "33", ChatKind::Private),
        n: AtomicU64::new(1000),
    };
    let (eves, _) = eve_dm.start(&tg_user(33, "Eve"), &bob, "none casual").await;
    let (_, head, _) = seat(init_data(TOKEN, 33, "Eve", now)).await;
    let eve = [cookie_back(&head)];
    assert_eq!(get(addr, &board, &eve).await.0, 404);
    assert_eq!(get(addr, &format!("/g/{id}/moves.json"), &eve).await.0, 404);
    assert_eq!(
        get(addr, &format!("/app/g/{eves}"), &eve).await.0,
        200,
        "her own"
    );
    web.abort();
}

/// A page that fell behind (its events lost) while its player typed a move in the chat and
/// the opponent answered: the move clicked on the old board is refused as stale — never
/// played as some other move — and the page catches up to the game by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_browser_a_move_from_a_board_left_behind_is_refused_and_the_page_catches_up() {
    let dir = ugolki_tests::browser_or_skip!();
    let (mut console, db, seated) = console_game("console-stale", "classic3x3").await;
    let mut b = ugolki_tests::browser::Browsers::start(&dir);
    b.ask("alice", &format!("open {}", seated.alice_link)).await;
    assert_eq!(b.ask("alice", "lose-events").await, "ok");
    let mut game = Game::new(&Rules::Corners(ugolki_core::corners::Variant::classic3x3()));
    let behind = safe_moves(&game);
    // In the chat meanwhile: alice's move and bob's answer.
    let mut played = Vec::new();
    for who in ["alice", "bob"] {
        let mv = safe_moves(&game)[0].clone();
        console.type_line(&format!("{who}: {mv}"));
        console.find(|l| l.contains(&mv)).await;
        game.play_text(&mv).expect("legal");
        played.push(mv);
    }
    assert_eq!(b.ask("alice", "attr #board data-ply").await, "0", "behind");
    // A move of the old board, clicked: refused, and the page comes to the game's ply.
    let old = behind.last().expect("a move").clone();
    let (from, to) = old.split_once('-').expect("a step");
    b.ask("alice", &format!("click {from}")).await;
    b.ask("alice", &format!("click {to}")).await;
    assert_eq!(b.ask("alice", "wait-ply 2").await, "ply 2");
    // The refusal is still said on the page that replaced the stale one.
    let stale = english(&Msg::ButtonStale);
    assert!(b
        .ask("alice", &format!("wait-text #said {stale}"))
        .await
        .starts_with("shown"));
    // Her own move, clicked with the events still lost: played, and her board shows it
    // (the page asks for the game while its events fail).
    let mv = safe_moves(&game)[0].clone();
    let (from, to) = mv.split_once('-').expect("a step");
    b.ask("alice", &format!("click {from}")).await;
    b.ask("alice", &format!("click {to}")).await;
    // (It asks every 3 s without events; each wait is 3 s at most.)
    assert_eq!(
        ask_until(&mut b, "alice", "wait-ply 3", "ply 3", 4).await,
        "ply 3"
    );
    b.close().await;
    console.end().await;
    let store = Store::connect(&sqlite_url(&db)).await.expect("store");
    assert_eq!(
        store.moves(seated.id).await.expect("moves"),
        [played[0].as_str(), played[1].as_str(), mv.as_str()],
        "the stale move not played, hers played"
    );
}

/// Ask `who`'s browser `line` (a wait of its own, 3 s at most) until it answers `want`, at
/// most `tries` times (a loaded machine may take longer to reload a page): the last answer.
async fn ask_until(
    b: &mut ugolki_tests::browser::Browsers,
    who: &str,
    line: &str,
    want: &str,
    tries: usize,
) -> String {
    let mut answer = String::new();
    for _ in 0..tries {
        answer = b.ask(who, line).await;
        if answer == want {
            break;
        }
    }
    answer
}

/// A flag falling while the page is open (the console's timers run live with `--web`):
/// Bob's page shows the game over — no buttons, the result as `/record` says it — by
/// itself. (Five seconds on the clock: a loaded machine may take two before Alice's first
/// move is read, which on two would flag her before it and void the game (F1); F1's second
/// mover has at least the first move's time, and the flag is Alice's at her second move.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_browser_a_flag_that_falls_shows_on_the_open_page() {
    let dir = ugolki_tests::browser_or_skip!();
    let (mut console, db, seated) = console_game_on("console-flag", "classic3x3", "5s+0").await;
    let mut b = ugolki_tests::browser::Browsers::start(&dir);
    b.ask("bob", &format!("open {}", seated.bob_link)).await;
    assert!(b
        .ask("bob", "acts")
        .await
        .contains(&english(&Msg::BtnResign)));
    // Both move in the chat (a game whose first moves were made is played, F1); then
    // Alice, on five seconds, never moves again.
    let mut game = Game::new(&Rules::Corners(ugolki_core::corners::Variant::classic3x3()));
    for who in ["alice", "bob"] {
        let mv = safe_moves(&game)[0].clone();
        console.type_line(&format!("{who}: {mv}"));
        game.play_text(&mv).expect("legal");
    }
    // (Each wait is 3 s at most; a loaded machine may take longer to reload the page.)
    assert_eq!(
        ask_until(&mut b, "bob", "wait-ply 2", "ply 2", 5).await,
        "ply 2"
    );
    let over = ask_until(&mut b, "bob", "wait #acts:empty", "ok", 5).await;
    assert_eq!(over, "ok", "the page showed the flag");
    let status = b.ask("bob", "text #status").await;
    b.close().await;
    console.end().await;
    let store = Store::connect(&sqlite_url(&db)).await.expect("store");
    let row = store.game(seated.id).await.expect("read").expect("kept");
    let result = row.result.expect("over");
    assert_eq!(row.end_reason.as_deref(), Some("flag:white"), "{row:?}");
    let outcome = Msg::RecordResult {
        result: result.code().into(),
        name: "bob".into(),
        cause: Some(ugolki_core::game::EndCause::Flag(ugolki_core::Color::White)),
    };
    assert_eq!(status, english(&outcome));
}

/// `POST /app/seat` signed by `init`: the status, and the answer's head.
async fn seat_by(addr: std::net::SocketAddr, init: String) -> (u16, String, Vec<u8>) {
    let auth = format!("Authorization: tma {init}");
    ugolki_tests::http_bytes(addr, "POST", "/app/seat", &[auth], "", WAIT).await
}

/// The `Cookie:` header line that sends back the cookie (a seat, a language) an answer's
/// head sets.
fn cookie_back(head: &str) -> String {
    let set = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or(l.strip_prefix("Set-Cookie: "))
        })
        .expect("a seat");
    format!("Cookie: {}", set.split(';').next().expect("pair"))
}

/// A Telegram player seated by their `initData` acts only with this game's own buttons,
/// in this platform's games: a press that is no button of the game is a bad request, a
/// move into another platform's game (names alike) is not found, a stale press is refused,
/// and Abort while allowed ends the game. Nothing else changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seated_player_acts_with_their_games_own_buttons_only() {
    const TOKEN: &str = "780:presses-token";
    let (
        Served {
            store,
            addr,
            room,
            web,
        },
        id,
    ) = alices_private_game("private-presses", TOKEN).await;
    let (alice, bob) = (tg_user(31, "Alice"), tg_user(32, "Bob"));
    let now = ugolki_bots::now_ms() / 1000;
    let (_, head, _) = seat_by(addr, init_data(TOKEN, 31, "Alice", now)).await;
    let with = vec![
        cookie_back(&head),
        "Content-Type: application/json".to_string(),
    ];
    let body = serde_json::json!({ "move": "c3-d3", "ply": 0 }).to_string();
    let path = format!("/api/g/{id}/move");
    let (code, _, _) = ugolki_tests::http_bytes(addr, "POST", &path, &with, &body, WAIT).await;
    assert_eq!(code, 200);
    // A Telegram seat moves in Telegram's games only: not in another platform's, even
    // where the names match.
    let elsewhere = Room {
        table: room.table.clone(),
        chat: ChatRef::new(Platform::Test, "other-platform", ChatKind::Group),
        n: AtomicU64::new(2000),
    };
    let (theirs, _) = elsewhere.start(&alice, &bob, "none casual").await;
    let body = serde_json::json!({ "move": "c3-d3", "ply": 0 }).to_string();
    let path = format!("/api/g/{theirs}/move");
    let (code, _, _) = ugolki_tests::http_bytes(addr, "POST", &path, &with, &body, WAIT).await;
    assert_eq!(code, 404);
    assert!(store.moves(theirs).await.expect("moves").is_empty());
    // Presses: what is no button of this game is a bad request, and changes nothing.
    let act = |body: String| {
        let with = with.clone();
        async move {
            let path = format!("/api/g/{id}/act");
            ugolki_tests::http_bytes(addr, "POST", &path, &with, &body, WAIT)
                .await
                .0
        }
    };
    let press =
        |a: ugolki_core::table::Action| serde_json::json!({ "act": a.to_text() }).to_string();
    let other_game = ugolki_core::table::Action::Resign {
        game: id + 1,
        ply: 1,
    };
    let square = ugolki_core::table::Action::ShowMoves {
        game: id,
        ply: 1,
        from: ugolki_core::square::Square::new(5, 5),
    };
    for body in [
        "{\"act\": \"nonsense\"}".to_string(),
        serde_json::json!({ "act": "res:".repeat(40) }).to_string(),
        press(other_game),
        press(square),
        "[]".to_string(),
    ] {
        assert_eq!(act(body.clone()).await, 400, "{body}");
    }
    let (code, _, _) = ugolki_tests::http_bytes(
        addr,
        "POST",
        &format!("/api/g/{id}/other"),
        &with,
        "{}",
        WAIT,
    )
    .await;
    assert_eq!(code, 405, "nothing to post to there");
    // A stale press is refused; Bob's turn, and Alice's Abort while allowed: played.
    assert_eq!(
        act(press(ugolki_core::table::Action::Abort {
            game: id,
            ply: 0
        }))
        .await,
        409
    );
    assert_eq!(
        act(press(ugolki_core::table::Action::Abort {
            game: id,
            ply: 1
        }))
        .await,
        200
    );
    let row = store.game(id).await.expect("read").expect("kept");
    assert!(!row.is_active(), "aborted: {row:?}");
    web.abort();
}

/// A Telegram user as the adapter names them: the id, the name, the lower-case handle.
fn tg_user(id: i64, name: &str) -> User {
    User {
        id: id.to_string(),
        name: name.into(),
        handle: Some(name.to_lowercase()),
    }
}

/// Pages served signing with `token`, and a game of Alice's private chat with the bot
/// (Telegram 31) against Bob (32): the served table, and the game.
async fn alices_private_game(name: &str, token: &str) -> (Served, i64) {
    let dm = ChatRef::new(Platform::Telegram, "31", ChatKind::Private);
    let served = served(name, dm, false, Some(token)).await;
    let (alice, bob) = (tg_user(31, "Alice"), tg_user(32, "Bob"));
    let (id, _) = served.room.start(&alice, &bob, "none casual").await;
    (served, id)
}

/// A tournament's page: its announcement, its standings as lines and as a picture, its
/// games linked to their pages, reloading itself while it runs; the chat's standings link
/// it; a tournament that is not there is a 404 in the reader's words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournaments_page_shows_its_standings_games_and_picture() {
    let s = served("tournament", test_group("club"), true, None).await;
    let room = &s.room;
    let (host, alice, bob) = (
        user("host", "Host"),
        user("alice", "Alice"),
        user("bob", "Bob <b>"),
    );
    let as_admin = |text: &str| {
        let n = room.n.fetch_add(1, Ordering::SeqCst);
        let mut origin = Origin::message(room.chat.clone(), host.clone(), format!("m{n}"));
        origin.group_admin = Some(true);
        Incoming::text(origin, text, Vec::new())
    };
    room.table
        .handle(&as_admin("/tournament roundrobin classic3x3 3+2 casual"))
        .await;
    room.say(&alice, "/join", &[]).await;
    room.say(&bob, "/join", &[]).await;
    room.table.handle(&as_admin("/tournament start")).await;
    let t = s
        .store
        .tournament(1)
        .await
        .expect("read")
        .expect("tournament #1");
    let game = s.store.pairings(t.id).await.expect("read")[0]
        .game_id
        .expect("a game");
    let g = s.store.game(game).await.expect("read").expect("its game");
    let (white, black) = if g.white_id
        == s.store
            .player_by_platform_id("test", "platform-id-alice")
            .await
            .expect("read")
            .expect("alice")
            .id
    {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };
    let first =
        Game::new(&Rules::from_id("classic3x3").expect("a variant")).legal_move_texts()[0].clone();
    room.say(white, &format!("/move {game} {first}"), &[]).await;

    // While it runs: the page reloads itself, and links its game.
    let (code, html) = page(s.addr, "/t/1").await;
    assert_eq!(code, 200, "{html}");
    assert!(html.contains("http-equiv=\"refresh\""), "{html}");
    assert!(html.contains(&format!("href=\"/g/{game}\"")), "{html}");
    assert!(
        html.contains(&esc("Bob <b>")) && !html.contains("Bob <b>"),
        "{html}"
    );
    room.say(black, &format!("/resign {game}"), &[]).await;
    // Its timer (this table runs none of its own) ends it.
    room.table.fire_due().await;
    // The round robin of two ends with its one game: the chat's standings link the page.
    let out = room.say(&alice, "/standings", &[]).await;
    let said = lines(&out[0].message);
    let link = Msg::WebTournamentAt {
        url: format!("http://{}/t/1", s.addr),
    };
    assert!(said.contains(&link), "{said:#?}");
    let (code, html) = page(s.addr, "/t/1").await;
    assert_eq!(code, 200);
    assert!(!html.contains("http-equiv=\"refresh\""), "over: no reload");
    for line in said
        .iter()
        .filter(|m| matches!(m, Msg::TournamentLine { .. }))
    {
        assert!(html.contains(&esc(&english(line))), "{line:?} in {html}");
    }
    // Black resigned: White won.
    let result = english(&Msg::RecordResult {
        result: "white".into(),
        name: white.name.clone(),
        cause: Some(ugolki_core::game::EndCause::Resigned(
            ugolki_core::Color::Black,
        )),
    });
    assert!(html.contains(&esc(&result)), "{result} in {html}");
    // The picture, in the reader's language.
    let (code, _, png) = get(s.addr, "/t/1/standings.png?lang=ru", &[]).await;
    assert_eq!(code, 200);
    assert!(decodes(&png));
    let (code, html) = page(s.addr, "/t/99?lang=pt").await;
    assert_eq!(code, 404);
    assert!(html.contains(&esc(&render(
        &Msg::WebNoTournament { id: 99 },
        Lang::from_tag("pt").expect("pt")
    ))));
    s.web.stop().await;
}

/// The clickable board as a watcher (no seat) sees it: a Damas game's pieces on the dark
/// squares, as its picture has them (D1); no buttons to press; a game over shows its
/// players without empty clock boxes. A language asked for by `?lang=` is kept for the next
/// page, whose links do not carry it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watchers_board_is_shaded_as_the_picture_offers_nothing_to_press_and_keeps_its_language()
{
    let Served {
        addr, room, web, ..
    } = served("watcher", test_group("watchers"), true, None).await;
    let (alice, bob) = (user("alice", "alice"), user("bob", "bob"));
    room.say(&alice, "/challenge @bob damas none white", &[&bob])
        .await;
    let out = room.say(&bob, "/accept", &[]).await;
    let id = out.iter().find_map(|o| o.game).expect("a game");
    let board = format!("/app/g/{id}");
    let (code, html) = page(addr, &board).await;
    assert_eq!(code, 200);
    // Pages of no Telegram bot load nothing of Telegram's (nor anything from elsewhere).
    assert!(!html.contains("telegram.org"), "{html}");
    assert!(!html.contains("src=\"http"), "{html}");
    // Each square's button, from its class to its end.
    let squares: Vec<&str> = html
        .split("<button class=\"")
        .skip(1)
        .filter_map(|b| b.split("</button>").next())
        .filter(|b| {
            b.split('>')
                .next()
                .is_some_and(|tag| tag.contains("data-sq="))
        })
        .collect();
    assert_eq!(squares.len(), 64);
    let taken: Vec<&&str> = squares
        .iter()
        .filter(|b| b.contains("<span class=\"p "))
        .collect();
    assert_eq!(taken.len(), 24, "Damas' 24 men");
    assert!(taken.iter().all(|b| b.starts_with("dark")), "{taken:?}");
    // The coordinates, in the board's frame as its margin has them: files under the
    // bottom row, ranks beside the left column (seen from White: a to h, 8 to 1; from
    // Black turned round), none inside a square.
    let labels = |html: &str, class: &str| -> String {
        html.split(&format!("<i class=\"{class}\" aria-hidden=\"true\">"))
            .skip(1)
            .filter_map(|s| s.split("</i>").next())
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(labels(&html, "f"), "a b c d e f g h");
    assert_eq!(labels(&html, "r"), "8 7 6 5 4 3 2 1");
    assert!(squares.iter().all(|b| !b.contains("<i ")), "{squares:?}");
    let (_, turned) = page(addr, &format!("{board}?as=black")).await;
    assert_eq!(labels(&turned, "f"), "h g f e d c b a");
    assert_eq!(labels(&turned, "r"), "1 2 3 4 5 6 7 8");
    assert!(
        html.contains("<div id=\"acts\" hidden>"),
        "a watcher's buttons"
    );
    // Over (resigned before a move: aborted): the players' names, no empty clocks.
    room.say(&alice, "/resign", &[]).await;
    let (code, html) = page(addr, &board).await;
    assert_eq!(code, 200);
    assert!(!html.contains("class=\"t\""), "no clock box once over");
    // ?lang=ru is kept: the player's page, reached by a link without it, is in Russian.
    let (code, head, _) = get(addr, &format!("/g/{id}?lang=ru"), &[]).await;
    assert_eq!(code, 200);
    let cookie = vec![cookie_back(&head)];
    assert!(cookie[0].contains("ugolki_lang=ru"), "{cookie:?}");
    let (_, _, top) = get(addr, "/top", &cookie).await;
    assert!(String::from_utf8_lossy(&top).contains("<html lang=\"ru\">"));
    let (_, _, top) = get(addr, "/top", &[]).await;
    assert!(String::from_utf8_lossy(&top).contains("<html lang=\"en\">"));
    web.abort();
}
