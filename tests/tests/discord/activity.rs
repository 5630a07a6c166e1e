//! The Discord Activity (issue 25): the board inside Discord, signed in by `OAuth2`.

use crate::harness::*;

/// Issue 25, the Activity's sign-in: the page posts the code the Embedded App SDK's
/// `authorize` gave it; the server trades it with Discord (its client secret never leaves
/// the server) and seats the reader Discord names. That seat, sent back in a header (a
/// cookie in Discord's frame is a third party's), moves in the reader's game, and the
/// game's thread gets the move's board as for a typed move. A spent code, or no seat,
/// moves nothing.
// One story: the sign-in, its refusals, the launch, and a move from the frame.
#[allow(clippy::too_many_lines)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_activity_reader_signed_in_by_discord_moves_and_the_thread_gets_the_board() {
    use ugolki_tests::http;
    let s = Server::new().await;
    s.fake.grant_intents(FakeDiscord::INTENT_MESSAGE_CONTENT);
    s.fake.enable_activity();
    let addr = ugolki_tests::free_addr();
    let options = Options {
        message_content: true,
        web: Some(ugolki_bots::web::Pages::new(addr, None).expect("pages")),
        client_secret: Some(FakeDiscord::CLIENT_SECRET.into()),
        // Registered globally, beside the Activity's Entry Point, which stays.
        guild: None,
        ..options(&s.fake, "activity")
    };
    let bot = RunningBot::spawn(|stopped| run(options, stopped));
    s.ready().await;
    let commands = s.fake.commands();
    let launch = commands.iter().filter(|c| c.kind == 4).count();
    assert_eq!(launch, 1, "the Entry Point kept: {commands:#?}");
    let board = s.start_game("classic3x3", "none").await;
    // The board opens the Activity in its thread: the button answers LAUNCH_ACTIVITY.
    let open = english(&Msg::BtnOpenBoard);
    assert!(has_button(&board, &open), "{board:#?}");
    let pressed = s.press(&s.alice, &board, &open);
    let launched = s
        .fake
        .wait_until(WAIT, |f| {
            f.interaction(pressed)
                .is_some_and(|r| r.response_type == Some(12))
        })
        .await;
    assert!(launched, "{:#?}", s.fake.interaction(pressed));
    let json = ["Content-Type: application/json".to_string()];
    let sign_in = ugolki_bots::web::DISCORD_SIGN_IN;
    // Alice consents in the Activity; her page trades the code.
    let code = s.fake.authorize(&s.alice, &["identify"]);
    let body = format!(r#"{{"code":"{code}"}}"#);
    let (status, answer) = http(addr, "POST", sign_in, &json, &body, WAIT).await;
    assert_eq!(status, 200, "{answer}");
    assert!(!answer.contains(FakeDiscord::CLIENT_SECRET), "{answer}");
    let answer: serde_json::Value = serde_json::from_str(&answer).expect("JSON");
    let seat = answer["seat"].as_str().expect("a seat").to_string();
    assert!(answer["access_token"]
        .as_str()
        .is_some_and(|t| !t.is_empty()));
    // Good once: the same code again seats nobody.
    let (status, again) = http(addr, "POST", sign_in, &json, &body, WAIT).await;
    assert_eq!(status, 401, "{again}");
    let refused: serde_json::Value = serde_json::from_str(&again).expect("JSON");
    assert_eq!(refused["said"], english(&Msg::WebNotSeated));
    assert_eq!(s.fake.oauth_exchanges(), 2);
    // Without the seat a move is refused, and nothing is played.
    let game = Game::new(&Rules::Corners(Variant::classic3x3()));
    let mv = safe_moves(&game)[0].clone();
    let asked = format!(r#"{{"move":"{mv}","ply":0}}"#);
    let path = "/api/g/1/move";
    let (status, _) = http(addr, "POST", path, &json, &asked, WAIT).await;
    assert_eq!(status, 401);
    // With it, Alice's move is played, and her thread gets its board.
    let seated = [json[0].clone(), format!("X-Ugolki-Seat: {seat}")];
    let (status, done) = http(addr, "POST", path, &seated, &asked, WAIT).await;
    assert_eq!((status, done.as_str()), (200, r#"{"done":true}"#));
    let shown = s.expect_text(&played("alice", &mv)).await;
    assert_eq!(shown.channel, board.channel, "in the game's thread");
    // Bob signs in too; his seat knows him as Black.
    let code = s.fake.authorize(&s.bob, &["identify"]);
    let body = format!(r#"{{"code":"{code}"}}"#);
    let (status, answer) = http(addr, "POST", sign_in, &json, &body, WAIT).await;
    assert_eq!(status, 200, "{answer}");
    let answer: serde_json::Value = serde_json::from_str(&answer).expect("JSON");
    let bob_seat = answer["seat"].as_str().expect("a seat").to_string();
    let header = [format!("X-Ugolki-Seat: {bob_seat}")];
    let page = http(addr, "GET", "/app/g/1", &header, "", WAIT).await;
    assert_eq!(page.0, 200);
    assert!(page.1.contains(r#"data-me="black""#), "{}", page.1);
    // The Activity launched in the thread opens that thread's game: signed in first
    // inside the Discord client (which names the frame), else straight to the board; a
    // channel with no game is told to open one from its board.
    let thread = board.channel;
    let plain = format!("/app/discord?channel_id={thread}");
    let (status, _) = http(addr, "GET", &plain, &[], "", WAIT).await;
    assert_eq!(status, 303);
    let launch = format!("{plain}&frame_id=f1&instance_id=i1&platform=desktop");
    let (status, page) = http(addr, "GET", &launch, &[], "", WAIT).await;
    assert_eq!(status, 200);
    let client = format!(r#"data-client="{}""#, FakeDiscord::APP_ID);
    assert!(page.contains(&client), "{page}");
    assert!(!page.contains(FakeDiscord::CLIENT_SECRET));
    let elsewhere = format!("/app/discord?channel_id={}", FakeDiscord::OTHER_CHANNEL_ID);
    let (status, page) = http(addr, "GET", &elsewhere, &[], "", WAIT).await;
    assert_eq!(status, 404);
    assert!(page.contains(&english(&Msg::WebOpenFromChat)), "{page}");
    // In a browser, in the Activity's frame inside a page speaking the Discord client's
    // side: each player consents, the page trades the code and keeps the seat, and the
    // game is played on by clicks, the thread getting every board.
    if let Some(dir) = ugolki_tests::browser::browser() {
        let mut game = game;
        game.play_text(&mv).expect("legal");
        activity_game_by_clicks(&s, &format!("http://{addr}{launch}"), game, &dir).await;
    } else {
        eprintln!("the browser part skipped: no node, chromium or tests/browser/node_modules");
    }
    bot.stop().await;
}

/// Plies played in the Activity's frames, after the first (played through the API).
const ACTIVITY_PLIES: usize = 21;

/// Alice and Bob each open the Activity at `url` (launched in game 1's thread, where
/// `game` stands), signed in through the Discord client; they play [`ACTIVITY_PLIES`] by
/// clicks, each board reaching the thread, and Alice resigns on her page: the thread is
/// told, both pages show the end.
async fn activity_game_by_clicks(s: &Server, url: &str, mut game: Game, dir: &std::path::Path) {
    let mut b = ugolki_tests::browser::Browsers::start(dir);
    for (who, user, side) in [("alice", &s.alice, "white"), ("bob", &s.bob, "black")] {
        let code = s.fake.authorize(user, &["identify"]);
        let exchanges = s.fake.oauth_exchanges();
        let opened = b.ask(who, &format!("discord-open {url} {code}")).await;
        assert_eq!(opened, "/app/g/1", "{who}");
        assert_eq!(
            s.fake.oauth_exchanges(),
            exchanges + 1,
            "{who} traded a code"
        );
        // Seated by the header alone, the page learns its side (Black's board turned).
        let seated = format!("wait #board[data-me={side}]");
        assert_eq!(b.ask(who, &seated).await, "ok", "{who}");
    }
    let mut rng = Rng(0xd15c);
    for ply in 1..=ACTIVITY_PLIES {
        let (who, other) = if ply % 2 == 0 {
            ("alice", "bob")
        } else {
            ("bob", "alice")
        };
        let (mv, from, to) = ugolki_tests::e2e::clickable(&game, &mut rng);
        assert_eq!(b.ask(who, &format!("click {from}")).await, "ok");
        assert_eq!(b.ask(who, &format!("click {to}")).await, "ok");
        let shown = format!("ply {}", ply + 1);
        assert_eq!(b.ask(who, &format!("wait-ply {}", ply + 1)).await, shown);
        assert_eq!(b.ask(other, &format!("wait-ply {}", ply + 1)).await, shown);
        let board = s.expect_text(&played(who, &mv)).await;
        assert_ne!(
            board.channel,
            FakeDiscord::CHANNEL_ID,
            "in the game's thread"
        );
        game.play_text(&mv).expect("legal");
    }
    // Resigning on the page takes a second tap: the first only asks (above the buttons,
    // which stay where they are), and a double tap is one tap.
    let resign = english(&Msg::BtnResign);
    let sure = english(&Msg::WebResignSure);
    assert_eq!(b.ask("alice", &format!("double-act {resign}")).await, "ok");
    assert_eq!(b.ask("alice", "text #said").await, sure, "asked again");
    assert_eq!(b.ask("alice", "count .act.sure").await, "1");
    // The second tap, half a second on at least.
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert_eq!(b.ask("alice", &format!("act {resign}")).await, "ok");
    s.expect_text(&english(&Msg::Resigned {
        id: 1,
        loser: "alice".into(),
        winner: "bob".into(),
    }))
    .await;
    for who in ["alice", "bob"] {
        assert_eq!(b.ask(who, "wait #acts:empty").await, "ok", "{who}");
    }
    b.close().await;
}
