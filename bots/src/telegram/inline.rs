//! Telegram's inline mode: `@bot halma16 5+3` in any chat, even one the bot is not in.
//!
//! The query is answered with the table's challenge cards (`table::inline::cards`), each a
//! cached photo of the start position with Accept / Decline. Sending one makes an inline
//! message; its `chosen_inline_result` (inline feedback must be on in `BotFather`) becomes
//! `/challenge ARGS` in that message's one-message chat (the `inline_message_id`), and from
//! then on the game is that message, edited through the outbox.
//!
//! A card's buttons carry the card itself (`card:a|d:SENDER:MAC:ARGS`) until the challenge
//! replaces them: pressed before the chosen result has come (it may never come when the
//! operator's inline feedback is off or sampled), a press makes the challenge in the
//! sender's name first (the same message id as the chosen result, so it is made once) and
//! then answers it. The MAC (HMAC-SHA256 keyed by the bot's token, cut to 32 bits) keeps a
//! modified client from making challenges in someone else's name. A card too long for the
//! 64 bytes of callback data carries only [`CARD`], and such a press is asked to wait.

use super::surface::is_start_picture;
use super::{alerts, incoming, Running};
use teloxide::payloads::AnswerInlineQuerySetters;
use teloxide::prelude::Requester;
use teloxide::types::{
    CallbackQuery, ChosenInlineResult, InlineKeyboardButton, InlineKeyboardMarkup, InlineQuery,
    InlineQueryResult, InlineQueryResultCachedPhoto, InlineQueryResultsButton,
    InlineQueryResultsButtonKind,
};
use ugolki_core::table::inline::{cards, Card};
use ugolki_core::table::{Incoming, Origin, Outgoing, Platform};
use ugolki_core::words::{render, Lang, Msg};

/// The callback data of a card's buttons that cannot carry the card.
pub const CARD: &str = "card";
/// The message id of a card's `/challenge`, whichever way it comes (chosen or pressed).
const CARD_MESSAGE: &str = "chosen";

/// A press on a card's button: Accept or Decline, whose card, when it was offered
/// (minutes since the epoch), which challenge.
#[derive(Debug, PartialEq, Eq)]
struct CardPress {
    accept: bool,
    sender: String,
    issued: u64,
    args: String,
}

/// How long a card's buttons can make its challenge (minutes). Telegram does not say who
/// sent an inline message, so signed card data copied from one message could be pressed
/// on another (made from a card of the presser's own, before its chosen result): only
/// within this while, as long as a challenge lives anyway.
const CARD_LIFETIME_MIN: u64 = 15;

impl CardPress {
    /// Offered at most [`CARD_LIFETIME_MIN`] ago (and not in the future).
    fn fresh(&self, now_min: u64) -> bool {
        self.issued <= now_min + 1 && now_min.saturating_sub(self.issued) <= CARD_LIFETIME_MIN
    }
}

/// Minutes since the epoch, now.
fn now_min() -> u64 {
    u64::try_from(crate::now_ms() / 60_000).unwrap_or(0)
}

fn base36(mut n: u64) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(char::from_digit(u32::try_from(n % 36).unwrap_or(0), 36).unwrap_or('0'));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
}

/// The first 32 bits of HMAC-SHA256(`key`, the card), in hex.
fn mac(key: &[u8], accept: bool, sender: &str, issued: &str, args: &str) -> String {
    use hmac::{KeyInit, Mac};
    use std::fmt::Write as _;
    let Ok(mut m) = hmac::Hmac::<sha2::Sha256>::new_from_slice(key) else {
        return String::new();
    };
    m.update(&[u8::from(accept)]);
    m.update(sender.as_bytes());
    m.update(b":");
    m.update(issued.as_bytes());
    m.update(b":");
    m.update(args.as_bytes());
    let bytes = m.finalize().into_bytes();
    bytes[..4].iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The callback data of a card's button, offered at `now_min`.
fn card_data(key: &[u8], accept: bool, sender: u64, args: &str, now_min: u64) -> String {
    let sender = sender.to_string();
    let issued = base36(now_min);
    let mac = mac(key, accept, &sender, &issued, args);
    let data = format!(
        "{CARD}:{}:{sender}:{issued}:{mac}:{args}",
        if accept { 'a' } else { 'd' }
    );
    if data.len() <= ugolki_core::table::MAX_ACTION_TEXT {
        data
    } else {
        CARD.to_string()
    }
}

/// Whether callback data is a card's.
pub fn is_card(data: &str) -> bool {
    data == CARD || data.starts_with("card:")
}

/// A card's press, if its data is a whole card the bot signed.
fn read_card(key: &[u8], data: &str) -> Option<CardPress> {
    let mut parts = data.strip_prefix("card:")?.splitn(5, ':');
    let accept = match parts.next()? {
        "a" => true,
        "d" => false,
        _ => return None,
    };
    let sender = parts.next().filter(|s| s.parse::<u64>().is_ok())?;
    let issued_text = parts.next()?;
    let issued = u64::from_str_radix(issued_text, 36).ok()?;
    let signed = parts.next()?;
    let args = parts.next()?;
    (signed == mac(key, accept, sender, issued_text, args)).then(|| CardPress {
        accept,
        sender: sender.to_string(),
        issued,
        args: args.to_string(),
    })
}
/// How long Telegram may keep an answer for the same user and query (the cards are the
/// same for them: the args are read again from the query when one is chosen).
const CACHE_SECONDS: u32 = 30;
/// The start parameter of the button above the results (opens a private chat).
const START_PARAMETER: &str = "inline";
/// The longest an inline query waits for the cards' pictures.
const PICTURE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);
/// Telegram shows about this much of the button's text.
const MAX_BUTTON_TEXT: usize = 64;

/// A button above the results that opens a private chat with the bot, saying `text`.
fn to_private_chat(text: &str) -> InlineQueryResultsButton {
    InlineQueryResultsButton {
        text: text.chars().take(MAX_BUTTON_TEXT).collect(),
        kind: InlineQueryResultsButtonKind::StartParameter(START_PARAMETER.into()),
    }
}

/// The cards a query offers, with the name its sender is shown by.
fn cards_for(query: &str, from: &teloxide::types::User) -> Result<Vec<Card>, Msg> {
    let me = incoming::user(from);
    cards(query, &incoming::handles(query), &me.name)
}

impl Running {
    /// What cards' buttons are signed with: the bot's token, which only this bot knows.
    fn card_key(&self) -> &[u8] {
        self.bot.token().as_bytes()
    }

    /// Answer an inline query with its challenge cards; a query `/challenge` would refuse
    /// gets no cards and its refusal on the button above the (empty) results.
    pub(super) async fn inline_query(&self, q: &InlineQuery) {
        let lang = incoming::lang_of(&q.from);
        let (results, button) = if self.surface.has_picture_store() {
            match cards_for(&q.query, &q.from) {
                Ok(cards) => {
                    // Remembered, so a press on a card can make its challenge.
                    let me = incoming::user(&q.from);
                    self.table.know(Platform::Telegram, &me).await;
                    let results = self.results(&cards, q.from.id.0, lang).await;
                    // No card got its picture: the room for training rooms' pictures is
                    // full, or the picture chats are failing.
                    let button = (results.is_empty() && !cards.is_empty()).then(|| {
                        let why = if cards.iter().all(|c| !is_start_picture(&c.picture)) {
                            Msg::InlineNoTraining
                        } else {
                            Msg::InlineUnavailable
                        };
                        to_private_chat(&render(&why, lang))
                    });
                    (results, button)
                }
                Err(refusal) => (Vec::new(), Some(to_private_chat(&render(&refusal, lang)))),
            }
        } else {
            // No place to keep pictures: an inline message could never show a board.
            let text = render(&Msg::InlineUnavailable, lang);
            (Vec::new(), Some(to_private_chat(&text)))
        };
        let mut request = self
            .bot
            .answer_inline_query(q.id.clone(), results)
            .cache_time(CACHE_SECONDS)
            .is_personal(true);
        if let Some(b) = button {
            request = request.button(b);
        }
        if let Err(e) = request.await {
            tracing::warn!(error = %e, "inline query not answered");
        }
    }

    /// The cards as cached photos (cards whose picture could not be stored are left out).
    async fn results(&self, cards: &[Card], sender: u64, lang: Lang) -> Vec<InlineQueryResult> {
        let mut out = Vec::with_capacity(cards.len());
        let deadline = tokio::time::Instant::now() + PICTURE_WAIT;
        let offered = now_min();
        for (i, card) in cards.iter().enumerate() {
            let keyboard = InlineKeyboardMarkup::new([[
                InlineKeyboardButton::callback(
                    render(&Msg::BtnAccept, lang),
                    card_data(self.card_key(), true, sender, &card.args, offered),
                ),
                InlineKeyboardButton::callback(
                    render(&Msg::BtnDecline, lang),
                    card_data(self.card_key(), false, sender, &card.args, offered),
                ),
            ]]);
            // Pictures are stored at start; one missing is waited for briefly (updates
            // are handled in turn: a slow picture chat must not hold up the games).
            let picture = self.surface.picture(&card.picture, &card.board);
            let Ok(Some(file)) = tokio::time::timeout_at(deadline, picture).await else {
                continue;
            };
            out.push(InlineQueryResult::CachedPhoto(
                InlineQueryResultCachedPhoto::new(i.to_string(), file)
                    .title(render(&card.title, lang))
                    .description(render(&card.description, lang))
                    .caption(render(&card.caption, lang))
                    .reply_markup(keyboard.clone()),
            ));
        }
        out
    }

    /// A card was sent: its challenge is made in the inline message's chat. What the table
    /// says about it, refusals too, is shown on that message (the only place there is).
    pub(super) async fn chosen(&self, r: &ChosenInlineResult) {
        let Some(inline) = &r.inline_message_id else {
            return;
        };
        let card = cards_for(&r.query, &r.from).and_then(|cards| {
            r.result_id
                .parse::<usize>()
                .ok()
                .and_then(|i| cards.into_iter().nth(i))
                .ok_or(Msg::ChallengeGone)
        });
        let origin = incoming::inline_origin(
            inline,
            incoming::user(&r.from),
            CARD_MESSAGE.into(),
            r.from.language_code.clone(),
            false,
        );
        match card {
            Ok(card) => self.make_challenge(origin, &card.args).await,
            Err(refusal) => {
                let out =
                    Outgoing::to_chat(&origin.chat, refusal).in_lang(incoming::lang_of(&r.from));
                self.table.tell(vec![out]).await;
            }
        }
    }

    /// `/challenge ARGS` from the card's sender in its message's chat. What the table says,
    /// refusals too, is shown on that message (the only place there is): the outbox edits
    /// it with every line, whoever it is for.
    async fn make_challenge(&self, origin: Origin, args: &str) {
        let text = format!("/challenge {args}");
        let msg = Incoming::text(origin, &text, incoming::handles(args));
        self.table.handle(&msg).await;
    }

    /// A card's button pressed: its challenge is made if it was not yet, then the press
    /// answers it (Accept; Decline, or Cancel by its sender). The alert's lines.
    pub(super) async fn card_pressed(&self, q: &CallbackQuery) -> Vec<String> {
        let lang = incoming::lang_of(&q.from);
        let not_ready = || vec![render(&Msg::InlineNotReady, lang)];
        let (Some(inline), Some(card)) = (
            &q.inline_message_id,
            q.data
                .as_deref()
                .and_then(|d| read_card(self.card_key(), d)),
        ) else {
            return not_ready();
        };
        if !card.fresh(now_min()) {
            return vec![render(&Msg::InlineCardExpired, lang)];
        }
        let Some(sender) = self
            .table
            .known_user(Platform::Telegram, &card.sender)
            .await
        else {
            return not_ready();
        };
        let me = incoming::user(&q.from);
        let command = match (card.accept, me.id == sender.id) {
            (true, _) => "/accept",
            (false, true) => "/cancel",
            (false, false) => "/decline",
        };
        let locale = q.from.language_code.clone();
        let origin =
            incoming::inline_origin(inline, sender, CARD_MESSAGE.into(), locale.clone(), false);
        self.make_challenge(origin, &card.args).await;
        let origin = incoming::inline_origin(inline, me, format!("cb:{}", q.id.0), locale, true);
        let outs = self
            .table
            .handle(&Incoming::text(origin, command, Vec::new()))
            .await;
        alerts(&outs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"123:TEST";

    #[test]
    fn a_card_button_carries_its_card_signed_when_it_fits() {
        let now = 29_500_000;
        let data = card_data(KEY, true, 123_456_789, "halma16 5+3 @dana", now);
        assert!(data.starts_with("card:a:123456789:") && data.ends_with(":halma16 5+3 @dana"));
        assert!(data.len() <= 64 && is_card(&data));
        let card = read_card(KEY, &data).expect("ours");
        assert_eq!(
            card,
            CardPress {
                accept: true,
                sender: "123456789".into(),
                issued: now,
                args: "halma16 5+3 @dana".into()
            }
        );
        // Pressable for a quarter of an hour; not before it was offered, not after.
        assert!(card.fresh(now) && card.fresh(now + CARD_LIFETIME_MIN));
        assert!(!card.fresh(now + CARD_LIFETIME_MIN + 1) && !card.fresh(now - 2));
        let older = data.replacen(&base36(now), &base36(now - 60), 1);
        assert_eq!(read_card(KEY, &older), None, "its time is signed too");
        // Another bot's card, another sender, other terms: not ours.
        assert_eq!(read_card(b"456:OTHER", &data), None);
        let forged = data.replace("123456789", "123456780");
        assert_eq!(read_card(KEY, &forged), None);
        let changed = data.replace("5+3", "1d");
        assert_eq!(read_card(KEY, &changed), None);
        let long = card_data(KEY, false, 123_456_789, &"x".repeat(40), now);
        assert_eq!(long, CARD);
        assert!(is_card(&long) && read_card(KEY, &long).is_none());
        assert!(read_card(KEY, "card:z:1:hkz1s:00000000:classic3x3").is_none());
        assert!(read_card(KEY, "card:a:1:%%:00000000:classic3x3").is_none());
        assert_eq!(base36(0), "0");
        assert_eq!(u64::from_str_radix(&base36(now), 36), Ok(now));
        assert!(!is_card("acc:1") && !is_card("cards"));
    }
}
