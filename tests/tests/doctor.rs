//! `ugolki doctor` against the fakes of Telegram and Discord, in good set-ups (every ✔,
//! exit 0) and bad ones (the right ✘ with its fix, and a non-zero exit where the bot could
//! not play).

use std::time::Duration;
use ugolki_bots::doctor::{report, run, Check, Discord, Options, Telegram};
use ugolki_tests::e2e::{sqlite_url, temp_db};
use ugolki_tests::fake_discord::FakeDiscord;
use ugolki_tests::fake_telegram::FakeTelegram;

fn telegram(fake: &FakeTelegram) -> Telegram {
    Telegram {
        token: FakeTelegram::TOKEN.into(),
        api_url: Some(fake.api_url()),
        webhook: None,
        inline: false,
        wrong: Vec::new(),
    }
}

fn discord(fake: &FakeDiscord) -> Discord {
    Discord {
        token: FakeDiscord::TOKEN.into(),
        api_url: Some(fake.api_base()),
        guild: None,
        message_content: false,
    }
}

fn options(name: &str) -> Options {
    Options {
        database_url: sqlite_url(&temp_db("doctor", name)),
        telegram: None,
        discord: None,
    }
}

/// The one check whose text contains `part`.
fn find<'a>(checks: &'a [Check], part: &str) -> &'a Check {
    checks
        .iter()
        .find(|c| c.what.contains(part))
        .unwrap_or_else(|| panic!("no check of {part}: {checks:#?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_good_telegram_set_up_is_all_ticks() {
    let fake = FakeTelegram::start().await;
    let mut o = options("tg-good");
    o.telegram = Some(telegram(&fake));
    let checks = run(&o).await;
    let (text, fine) = report(&checks);
    assert!(fine, "{text}");
    assert!(checks.iter().all(|c| c.ok), "{text}");
    assert!(text.contains(&format!(
        "✔ telegram: token of @{}",
        FakeTelegram::BOT_USERNAME
    )));
    assert!(find(&checks, "privacy mode on").what.contains("/m@"));
    assert!(find(&checks, "database")
        .what
        .contains("first start creates it"));
    assert!(find(&checks, "long polling").ok);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_telegram_set_ups_get_their_crosses() {
    let fake = FakeTelegram::start().await;
    // A wrong token: one ✘, naming the variable.
    let mut o = options("tg-token");
    o.telegram = Some(Telegram {
        token: "123:WRONG".into(),
        ..telegram(&fake)
    });
    let checks = run(&o).await;
    let (text, fine) = report(&checks);
    assert!(!fine, "{text}");
    assert!(find(&checks, "token is refused")
        .fix
        .as_deref()
        .unwrap()
        .contains("TELOXIDE_TOKEN"));
    // Inline chats set with inline mode off.
    fake.set_inline_mode(false);
    let mut o = options("tg-inline");
    o.telegram = Some(Telegram {
        inline: true,
        ..telegram(&fake)
    });
    let checks = run(&o).await;
    let inline = find(&checks, "inline mode off");
    assert!(!inline.ok && inline.blocking, "{checks:#?}");
    assert!(inline.fix.as_deref().unwrap().contains("/setinline"));
    assert!(!report(&checks).1);
    // A setting `ugolki telegram` refuses to start with: a ✘ that blocks, as the start does.
    let mut o = options("tg-settings");
    o.telegram = Some(Telegram {
        wrong: vec!["TELEGRAM_INLINE_CHATS: \"abc\" is not a chat id".into()],
        ..telegram(&fake)
    });
    let checks = run(&o).await;
    let setting = find(&checks, "is not a chat id");
    assert!(!setting.ok && setting.blocking, "{checks:#?}");
    assert!(report(&checks)
        .0
        .contains("✘ telegram: TELEGRAM_INLINE_CHATS"));
    assert!(!report(&checks).1);
    // A webhook Telegram cannot reach (no TLS proxy in front of it): its last error.
    let url = "https://bot.example.com/tg-hook";
    let bot = teloxide::Bot::new(FakeTelegram::TOKEN).set_api_url(fake.api_url().parse().unwrap());
    teloxide::prelude::Requester::set_webhook(&bot, url.parse().unwrap())
        .await
        .expect("set");
    let group = FakeTelegram::group(-5, "Club");
    let alice = FakeTelegram::user(7, "Alice", Some("alice"), None);
    fake.send_text(&group, &alice, "/help");
    let mut o = options("tg-webhook");
    o.telegram = Some(Telegram {
        webhook: Some(url.parse().unwrap()),
        ..telegram(&fake)
    });
    let mut last = Vec::new();
    for _ in 0..100 {
        last = run(&o).await;
        if last.iter().any(|c| c.what.contains("last try failed")) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let hook = find(&last, "last try failed");
    assert!(
        hook.blocking && hook.what.contains("Connection refused"),
        "{hook:#?}"
    );
    assert!(hook.fix.as_deref().unwrap().contains("TLS proxy"));
    // A webhook URL Telegram would refuse.
    o.telegram = Some(Telegram {
        webhook: Some("http://bot.example.com:8080/hook".parse().unwrap()),
        ..telegram(&fake)
    });
    let checks = run(&o).await;
    assert!(find(&checks, "Telegram would refuse it").blocking);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_good_discord_set_up_is_all_ticks() {
    let fake = FakeDiscord::start().await;
    let http = serenity::http::HttpBuilder::new(FakeDiscord::TOKEN)
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .application_id(serenity::all::ApplicationId::new(FakeDiscord::APP_ID))
        .build();
    serenity::all::Command::set_global_commands(&http, ugolki_bots::discord::slash_commands())
        .await
        .expect("registered");
    let mut o = options("dc-good");
    o.discord = Some(discord(&fake));
    let checks = run(&o).await;
    let (text, fine) = report(&checks);
    assert!(fine && checks.iter().all(|c| c.ok), "{text}");
    assert!(find(&checks, "slash commands registered").ok);
    assert!(find(&checks, "permissions in").ok);
    assert!(find(&checks, "Message Content intent off").ok);
    // With the intent switched on, asked for: still fine.
    fake.grant_intents(FakeDiscord::INTENT_MESSAGE_CONTENT);
    o.discord = Some(Discord {
        message_content: true,
        ..discord(&fake)
    });
    let checks = run(&o).await;
    assert!(find(&checks, "Message Content intent on").ok);
    assert!(report(&checks).1);
    // User Install unticked: a ✘ with its fix, which does not keep servers from playing.
    fake.set_user_install(false);
    let checks = run(&o).await;
    let contexts = find(&checks, "not installable on users' accounts");
    assert!(!contexts.ok && !contexts.blocking, "{checks:#?}");
    assert!(contexts
        .fix
        .as_deref()
        .is_some_and(|f| f.contains("User Install")));
    assert!(report(&checks).1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_discord_set_ups_get_their_crosses() {
    let fake = FakeDiscord::start().await;
    // Nothing registered yet, the intent asked for but off, a permission taken away.
    fake.deny_bot(FakeDiscord::GUILD_ID, FakeDiscord::ATTACH_FILES);
    let mut o = options("dc-bad");
    o.discord = Some(Discord {
        message_content: true,
        ..discord(&fake)
    });
    let checks = run(&o).await;
    let (text, fine) = report(&checks);
    assert!(!fine, "{text}");
    let intent = find(&checks, "Message Content intent off");
    assert!(intent.blocking && intent.what.contains("4014"), "{text}");
    let commands = find(&checks, "not this version's");
    assert!(
        !commands.ok && !commands.blocking,
        "fixed at the start: {text}"
    );
    let perms = find(&checks, "permissions in");
    assert!(
        perms.blocking && perms.what.contains("missing Attach Files"),
        "{text}"
    );
    // A wrong token.
    o.discord = Some(Discord {
        token: "WRONG".into(),
        ..discord(&fake)
    });
    let checks = run(&o).await;
    assert!(find(&checks, "token is refused")
        .fix
        .as_deref()
        .unwrap()
        .contains("DISCORD_TOKEN"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_is_checked_without_being_changed() {
    // Migrated by a start: all applied.
    let db = temp_db("doctor", "migrated");
    drop(
        ugolki_core::store::Store::connect(&sqlite_url(&db))
            .await
            .expect("store"),
    );
    let mut o = options("unused");
    o.database_url = sqlite_url(&db);
    let checks = run(&o).await;
    assert!(find(&checks, "migrations applied").ok, "{checks:#?}");
    // The newest migration not applied yet (an older ugolki made it): the next start
    // applies it, so it does not block.
    let conn = || async {
        use sqlx::ConnectOptions;
        sqlx::sqlite::SqliteConnectOptions::new()
            .filename(&db)
            .connect()
            .await
            .expect("the database")
    };
    let mut c = conn().await;
    sqlx::query(
        "DELETE FROM _sqlx_migrations WHERE version = (SELECT MAX(version) FROM _sqlx_migrations)",
    )
    .execute(&mut c)
    .await
    .expect("one migration undone");
    let checks = run(&o).await;
    let pending = find(&checks, "1 of");
    assert!(
        pending.ok && pending.what.contains("migrations to apply"),
        "{checks:#?}"
    );
    // A migration this ugolki does not know (a newer one ran): a ✘ that blocks.
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (99990101000000, 'from the future', TRUE, X'00', 0)",
    )
    .execute(&mut c)
    .await
    .expect("a newer migration");
    let checks = run(&o).await;
    let newer = find(&checks, "from a newer ugolki");
    assert!(!newer.ok && newer.blocking, "{checks:#?}");
    assert!(!report(&checks).1);
    drop(c);
    // In a folder that does not exist: the start could not create it.
    o.database_url = "sqlite:///nonexistent-ugolki-folder/x.db".into();
    let checks = run(&o).await;
    assert!(
        find(&checks, "folder does not exist").blocking,
        "{checks:#?}"
    );
    // Unreachable: a ✘ that blocks.
    o.database_url = "postgres://nobody@127.0.0.1:1/none".into();
    let checks = run(&o).await;
    let db = find(&checks, "database");
    assert!(!db.ok && db.blocking, "{checks:#?}");
}

/// The command line: a database in a folder that does not exist keeps the bot from
/// starting — exit 1, the ✘ printed with its fix.
#[test]
fn the_command_exits_1_when_the_bot_could_not_play() {
    let out = ugolki_tests::ugolki(
        &["doctor", "--db", "/nonexistent-ugolki-folder/ugolki.db"],
        "",
    );
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout.contains("✘ database") && out.stdout.contains("fix: create the folder"),
        "{}",
        out.stdout
    );
}

/// The command line: no platform configured, a database not there yet — exit 0, the
/// missing platform a warning (⚠), not a cross (✘ is what exits 1).
#[test]
fn the_command_prints_its_report() {
    let path = temp_db("doctor", "cli");
    let out = ugolki_tests::ugolki(&["doctor", "--db", path.to_str().unwrap()], "");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("⚠ no platform configured"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains('✘'), "{}", out.stdout);
}
