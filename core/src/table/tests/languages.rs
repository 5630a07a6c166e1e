//! Each player reads the bot in their own language: their `/lang`, else the chat's (set by
//! an admin), else the platform's hint, else English. Settings survive a restart.

use super::*;
use crate::words::{render, Lang};

fn lang(code: &str) -> Lang {
    Lang::from_tag(code).unwrap_or_else(|| panic!("a {code} catalogue"))
}

impl Room {
    /// What `who` says, with the platform's language hint `hint`.
    async fn say_in(&self, who: &str, hint: &str, text: &str) -> Vec<Outgoing> {
        let mut msg = self.incoming(who, text);
        msg.origin.locale = Some(hint.into());
        self.table.handle(&msg).await
    }
}

#[tokio::test]
async fn a_russian_and_a_portuguese_player_each_read_their_own_language() {
    let c = chat().await;
    let (ru, pt) = (lang("ru"), lang("pt"));
    let out = c
        .say_in("alice", "ru", "/challenge @bob classic3x3 5+3 white")
        .await;
    assert_eq!(out[0].lang, ru);
    let out = c.say_in("bob", "pt-BR", "/accept").await;
    assert!(out.iter().all(|o| o.lang == pt), "{out:#?}");
    // The board's header is drawn in the language of the one who moved.
    let board = c.view(&out[1]).await;
    assert_eq!(
        board.info,
        render(
            &Msg::BoardInfo {
                move_no: 1,
                deadline: Some(40),
                limit: Some(80)
            },
            pt
        )
    );
    let out = c.say_in("alice", "ru", "c3-d3").await;
    assert_eq!(out[0].lang, ru);
    assert!(out[0].text().contains("c3-d3"));
    assert_ne!(out[0].text(), render(&out[0].message, Lang::EN));
    let refusal = c.say_in("bob", "pt", "a1-a2").await;
    assert_eq!(refusal[0].audience, Audience::Sender);
    assert_eq!(refusal[0].lang, pt);
}

#[tokio::test]
async fn a_players_choice_beats_the_chat_and_the_hint_and_survives_a_restart() {
    let c = chat().await;
    let (ru, it) = (lang("ru"), lang("it"));
    // Without a choice: the hint.
    assert_eq!(c.say_in("carol", "it", "/help").await[0].lang, it);
    let out = c.say_in("carol", "it", "/lang ru").await;
    assert_eq!(
        out[0].message,
        Msg::LangSet {
            whose: "you".into(),
            lang: Some(Box::new(Msg::LangName { code: "ru".into() }))
        }
    );
    assert_eq!(out[0].lang, ru, "the answer is in the new language");
    assert_eq!(c.say_in("carol", "it", "/help").await[0].lang, ru);
    // A chat admin sets the chat's language: players without a choice of their own read it.
    let mut admin = c.incoming("dave", "/lang it");
    admin.origin.group_admin = Some(true);
    let out = c.table.handle(&admin).await;
    assert!(
        matches!(&out[0].message, Msg::LangSet { whose, .. } if whose == "chat"),
        "{out:#?}"
    );
    assert_eq!(c.say_in("erin", "en", "/help").await[0].lang, it);
    assert_eq!(
        c.say_in("carol", "en", "/help").await[0].lang,
        ru,
        "her own choice first"
    );
    // A member who is not an admin sets only their own.
    let mut member = c.incoming("frank", "/lang en");
    member.origin.group_admin = Some(false);
    let out = c.table.handle(&member).await;
    assert!(matches!(&out[0].message, Msg::LangSet { whose, .. } if whose == "you"));
    assert_eq!(
        c.refused("carol", "/lang xx").await,
        Msg::LangUnknown {
            code: "xx".into(),
            list: Lang::all().map(Lang::code).collect::<Vec<_>>().join(", ")
        }
    );
    // Both choices are stored.
    let c = c.reopen().await;
    assert_eq!(c.say_in("carol", "en", "/help").await[0].lang, ru);
    assert_eq!(c.say_in("erin", "en", "/help").await[0].lang, it);
    // `auto` goes back to the hint.
    c.say_in("carol", "en", "/lang auto").await;
    assert_eq!(
        c.say_in("carol", "pt", "/help").await[0].lang,
        it,
        "then the chat's"
    );
}

#[tokio::test]
async fn timer_messages_use_the_chats_language() {
    let c = chat().await;
    let mut admin = c.incoming("dave", "/lang pt");
    admin.origin.group_admin = Some(true);
    c.table.handle(&admin).await;
    c.start("classic3x3 3s+0").await;
    c.say("alice", "c3-d3").await;
    c.say("bob", "f6-e6").await;
    c.time.advance(10_000);
    let out = c.table.fire_due().await;
    assert!(
        matches!(head(&out[0].message), Msg::Flagged { .. }),
        "{out:#?}"
    );
    assert_eq!(out[0].lang, lang("pt"));
}

#[tokio::test]
async fn the_adapters_ask_who_is_an_admin_for_the_commands_the_table_reads_as_admin_ones() {
    let c = chat().await;
    // As `handle` reads them: any case, an alias, a look-alike slash, a space first.
    for text in [
        "/lang ru",
        "/Lang ru",
        "/LANGUAGE it",
        " /lang",
        "／lang pt",
        "\u{200b}/lang pt",
        "/tournament start",
        "/Tourney cancel",
    ] {
        assert!(c.table.asks_admin(&c.incoming("alice", text)), "{text}");
    }
    for text in [
        "/games",
        "/help",
        "c3-d3",
        "с3-d3",
        "lang ru",
        "\u{200b}lang ru",
        "/languages",
        "/challenge @bob",
    ] {
        assert!(!c.table.asks_admin(&c.incoming("alice", text)), "{text}");
    }
}

/// What an adapter says itself (a press it cannot read, a permission missing) is in the
/// language the table would answer in, and asking makes nobody a player.
#[tokio::test]
async fn an_adapters_own_words_follow_the_players_and_the_chats_choice() {
    let c = chat().await;
    let (ru, it, pt) = (lang("ru"), lang("it"), lang("pt"));
    let asker = |who: &str, hint: &str| {
        let mut o = c.incoming(who, "").origin;
        o.locale = Some(hint.into());
        o
    };
    // Nothing chosen: the platform's hint; a stranger is not made a player by asking.
    assert_eq!(c.table.lang_for(&asker("gina", "it")).await, it);
    let platform = asker("gina", "it").platform();
    let is_player = || async {
        let found = c
            .table
            .store()
            .player_by_platform_id(platform.as_str(), "id-gina");
        found.await.unwrap().is_some()
    };
    assert!(!is_player().await);
    // (Once she has spoken she is one.)
    c.say_in("gina", "it", "/help").await;
    assert!(is_player().await);
    // Her own choice beats the hint (read from the store after a restart too).
    c.say_in("gina", "it", "/lang ru").await;
    assert_eq!(c.table.lang_for(&asker("gina", "pt")).await, ru);
    let c = c.reopen().await;
    let mut o = c.incoming("gina", "").origin;
    o.locale = Some("pt".into());
    assert_eq!(c.table.lang_for(&o).await, ru);
    // The chat's choice, for those without one of their own.
    let mut admin = c.incoming("dave", "/lang pt");
    admin.origin.group_admin = Some(true);
    c.table.handle(&admin).await;
    let mut o = c.incoming("hank", "").origin;
    o.locale = Some("it".into());
    assert_eq!(c.table.lang_for(&o).await, pt);
}
