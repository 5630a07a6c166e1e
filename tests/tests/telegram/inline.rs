//! Inline mode, its harness and its cards: a room with the operator's picture chat and four
//! users, the challenge cards an inline query offers for what it names (or why none), and
//! the cap on the pictures made-up training rooms may cost.

use crate::harness::{data_of, has_button, quick, temp_db, RunningBot, StartTelegram, WAIT};
use ugolki_bots::telegram::{Options, MAX_EXTRA_PICTURES};
use ugolki_core::game::Rules;
use ugolki_core::words::{english, rules_name, Msg};
use ugolki_tests::e2e::sqlite_url;
use ugolki_tests::fake_telegram::SentMessage;
use ugolki_tests::fake_telegram::{CallbackAnswer, FakeChat, FakeTelegram, FakeUser, InlineAnswer};
use ugolki_tests::said::{hole_msg, lead};

/// Inline mode: a fake Telegram, the operator's picture chat, four users, and a bot that
/// posts its pictures there.
pub struct InlineRoom {
    pub fake: FakeTelegram,
    pub pictures: FakeChat,
    pub alice: FakeUser,
    pub bob: FakeUser,
    pub carol: FakeUser,
    pub dana: FakeUser,
    pub bot: RunningBot,
}

impl InlineRoom {
    pub async fn new(name: &str) -> InlineRoom {
        let fake = FakeTelegram::start().await;
        let operator = FakeTelegram::user(99, "Operator", Some("operator"), Some("en"));
        let pictures = FakeTelegram::private(&operator);
        fake.add_chat(&pictures);
        let db = temp_db(name);
        let bot = RunningBot::start_with(Options {
            token: FakeTelegram::TOKEN.into(),
            api_url: Some(fake.api_url()),
            database_url: sqlite_url(&db),
            webhook: None,
            webhook_secret: None,
            metrics: None,
            limits: quick(),
            inline_chats: vec![pictures.id],
            web: None,
        });
        InlineRoom {
            fake,
            pictures,
            alice: FakeTelegram::user(11, "Alice", Some("alice"), Some("en")),
            bob: FakeTelegram::user(12, "Bob", Some("bob"), Some("en")),
            carol: FakeTelegram::user(13, "Carol", Some("carol"), Some("en")),
            dana: FakeTelegram::user(14, "Dana", Some("dana"), Some("en")),
            bot,
        }
    }

    /// `from` types `@bot query`: the query's id and the bot's answer.
    pub async fn query(&self, from: &FakeUser, query: &str) -> (String, InlineAnswer) {
        let id = self.fake.inline_query(from, query);
        assert!(
            self.fake
                .wait_until(WAIT, |f| f.inline_answer(&id).is_some())
                .await,
            "inline query {query:?} not answered: {:#?}",
            self.fake
                .calls()
                .iter()
                .filter(|c| c.method == "answerinlinequery")
                .collect::<Vec<_>>()
        );
        let answer = self.fake.inline_answer(&id).expect("answered");
        (id, answer)
    }

    /// The cards `@bot query` offers.
    pub async fn cards(&self, from: &FakeUser, query: &str) -> InlineAnswer {
        self.query(from, query).await.1
    }

    /// `from` sends the first card `query` offers: the inline message's id.
    pub async fn send(&self, from: &FakeUser, query: &str) -> String {
        let (id, answer) = self.query(from, query).await;
        let first = answer.results[0]["id"].as_str().expect("a result id");
        self.fake
            .choose_inline_result(&id, first)
            .expect("an inline message id")
    }

    /// Wait until `inline` satisfies `f`; the message then.
    pub async fn expect(
        &self,
        inline: &str,
        what: &str,
        f: impl Fn(&SentMessage) -> bool,
    ) -> SentMessage {
        let ok = self
            .fake
            .wait_until(WAIT, |fake| {
                fake.inline_message(inline).is_some_and(|m| f(&m))
            })
            .await;
        assert!(
            ok,
            "inline message never {what}: {:#?}",
            self.fake.inline_message(inline)
        );
        self.fake
            .inline_message(inline)
            .expect("the inline message")
    }

    /// Wait until the caption of `inline` contains `part`.
    pub async fn expect_caption(&self, inline: &str, part: &str) -> SentMessage {
        self.expect(inline, part, |m| caption_has(m, part)).await
    }

    /// `who` presses `label` on `m`, the current state of `inline`: the callback query id.
    pub fn press(&self, who: &FakeUser, inline: &str, m: &SentMessage, label: &str) -> String {
        self.fake.press_inline(who, inline, &data_of(m, label))
    }

    /// `who` picks the piece on `from`: the message once it offers the destinations.
    pub async fn pick(
        &self,
        who: &FakeUser,
        inline: &str,
        board: &SentMessage,
        from: &str,
    ) -> SentMessage {
        self.press(who, inline, board, from);
        let back = english(&Msg::BtnBack);
        self.expect(inline, "picked", |m| has_button(m, &back))
            .await
    }

    /// The answer to callback query `id`, once it is answered.
    pub async fn answer(&self, id: &str) -> CallbackAnswer {
        assert!(
            self.fake
                .wait_until(WAIT, |f| f.callback_answers().iter().any(|a| a.id == id))
                .await,
            "press {id} not answered"
        );
        self.fake
            .callback_answers()
            .into_iter()
            .find(|a| a.id == id)
            .expect("answered")
    }
}

pub fn caption_has(m: &SentMessage, part: &str) -> bool {
    m.caption.as_deref().is_some_and(|c| c.contains(part))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inline_query_is_answered_with_challenge_cards_for_what_it_names() {
    let r = InlineRoom::new("inline-cards").await;
    // `@bot` alone: a card for every game, each a stored photo with Accept and Decline.
    let all = r.cards(&r.alice, "").await;
    assert_eq!(all.results.len(), 8, "{all:#?}");
    assert!(all.is_personal);
    let offers = lead(&Msg::InlineCardOpen {
        from: "Alice".into(),
        terms: hole_msg(),
    });
    let (accept, decline) = (english(&Msg::BtnAccept), english(&Msg::BtnDecline));
    for card in &all.results {
        assert_eq!(card["type"], "photo");
        assert!(card["caption"]
            .as_str()
            .is_some_and(|c| c.starts_with(&offers)));
        let row = &card["reply_markup"]["inline_keyboard"][0];
        assert_eq!(
            (row[0]["text"].as_str(), row[1]["text"].as_str()),
            (Some(accept.as_str()), Some(decline.as_str()))
        );
    }
    let damas = english(&rules_name(&Rules::Damas { flying: true }));
    assert!(
        all.results[7]["title"]
            .as_str()
            .is_some_and(|t| t.starts_with(&damas)),
        "{:#?}",
        all.results[7]
    );
    // `@bot damas`: Damas at a few time controls; a bad query: no cards, and why.
    assert_eq!(r.cards(&r.alice, "damas").await.results.len(), 4);
    let bad = r.cards(&r.alice, "classic3x3 zebra").await;
    assert!(bad.results.is_empty());
    let why = english(&Msg::CmdChallengeWord {
        word: "zebra".into(),
    });
    assert!(
        bad.button
            .as_ref()
            .and_then(|b| b["text"].as_str())
            .is_some_and(|t| t.contains(&why)),
        "{bad:#?}"
    );
    // `@bot halma16 5+3 @dana`: one card, for Dana only.
    let halma = r.cards(&r.alice, "halma16 5+3 @dana").await;
    assert_eq!(halma.results.len(), 1);
    assert_eq!(
        halma.results[0]["description"],
        english(&Msg::InlineCardFor { to: "@dana".into() })
    );
    assert!(halma.results[0]["title"]
        .as_str()
        .is_some_and(|t| t.contains("5+3")));
    r.bot.stop().await;
}

/// Every training room a query names costs an upload to a picture chat, which the games'
/// boards need too: made-up rooms, one per query, stop getting cards (and uploads) after
/// `MAX_EXTRA_PICTURES`, and say why; the standard games' cards go on as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn made_up_training_rooms_cannot_fill_the_picture_chat() {
    let r = InlineRoom::new("inline-extra").await;
    assert_eq!(r.cards(&r.alice, "").await.results.len(), 8);
    let photos = |r: &InlineRoom| {
        r.fake
            .calls()
            .iter()
            .filter(|c| c.method == "sendphoto" && !c.failed)
            .count()
    };
    let before = photos(&r);
    for n in 0..MAX_EXTRA_PICTURES {
        let q = format!("training:classic3x3,limit={} none", 10 + n);
        assert_eq!(r.cards(&r.alice, &q).await.results.len(), 1, "{q}");
    }
    assert_eq!(photos(&r), before + MAX_EXTRA_PICTURES);
    let full = r.cards(&r.alice, "training:classic3x3,limit=99 none").await;
    assert!(full.results.is_empty(), "{full:#?}");
    let why = english(&Msg::InlineNoTraining);
    assert!(
        full.button
            .as_ref()
            .and_then(|b| b["text"].as_str())
            .is_some_and(|t| t.contains(&why)),
        "{full:#?}"
    );
    assert_eq!(photos(&r), before + MAX_EXTRA_PICTURES, "no upload for it");
    // A room already pictured, and the standard games, still have their cards.
    let again = r.cards(&r.alice, "training:classic3x3,limit=10 none").await;
    assert_eq!(again.results.len(), 1);
    assert_eq!(r.cards(&r.bob, "damas").await.results.len(), 4);
    // Built-in games the empty query does not offer are not training rooms: no cap.
    assert_eq!(r.cards(&r.bob, "classic4x3 5+3").await.results.len(), 1);
    r.bot.stop().await;
}
