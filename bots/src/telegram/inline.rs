//! Telegram's inline mode: `@bot halma16 5+3` in any chat, even one the bot is not in.
//!
//! The query is answered with the table's challenge cards (`table::inline::cards`), each a
//! cached photo of the start position with Accept / Decline. Sending one makes an inline
//! message; its `chosen_inline_result` (inline feedback must be on in `BotFather`) becomes
//! `/challenge ARGS` in that message's one-message chat (`inline:<inline_message_id>`), and
//! from then on the game is that message, edited by the delivery layer. A card's buttons
//! carry [`CARD_DATA`] until the challenge replaces them.

use super::{incoming, Running};
use teloxide::payloads::AnswerInlineQuerySetters;
use teloxide::prelude::Requester;
use teloxide::types::{
    ChosenInlineResult, InlineKeyboardButton, InlineKeyboardMarkup, InlineQuery, InlineQueryResult,
    InlineQueryResultCachedPhoto, InlineQueryResultsButton, InlineQueryResultsButtonKind,
};
use ugolki_core::table::inline::{cards, Card};
use ugolki_core::table::{Audience, Incoming};
use ugolki_core::words::{render, Lang, Msg};

/// The callback data of a card's buttons before its challenge is set up.
pub const CARD_DATA: &str = "card";
/// How long Telegram may keep an answer for the same user and query (the cards are the
/// same for them: the args are read again from the query when one is chosen).
const CACHE_SECONDS: u32 = 30;
/// The start parameter of the button above the results (opens a private chat).
const START_PARAMETER: &str = "inline";
/// Telegram shows about this much of the button's text.
const MAX_BUTTON_TEXT: usize = 64;

fn lang_of(u: &teloxide::types::User) -> Lang {
    u.language_code
        .as_deref()
        .and_then(Lang::from_tag)
        .unwrap_or(Lang::EN)
}

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
    /// Answer an inline query with its challenge cards; a query `/challenge` would refuse
    /// gets no cards and its refusal on the button above the (empty) results.
    pub(super) async fn inline_query(&self, q: &InlineQuery) {
        let lang = lang_of(&q.from);
        let (results, button) = if self.delivery.has_picture_store() {
            match cards_for(&q.query, &q.from) {
                Ok(cards) => (self.results(&cards, lang).await, None),
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
    async fn results(&self, cards: &[Card], lang: Lang) -> Vec<InlineQueryResult> {
        let keyboard = InlineKeyboardMarkup::new([[
            InlineKeyboardButton::callback(render(&Msg::BtnAccept, lang), CARD_DATA),
            InlineKeyboardButton::callback(render(&Msg::BtnDecline, lang), CARD_DATA),
        ]]);
        let mut out = Vec::with_capacity(cards.len());
        for (i, card) in cards.iter().enumerate() {
            let Some(file) = self.delivery.picture(&card.picture, &card.board).await else {
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
        let origin = incoming::chosen_origin(&r.from, inline);
        let outs = match card {
            Ok(card) => {
                let text = format!("/challenge {}", card.args);
                let msg = Incoming::text(origin, &text, incoming::handles(&card.args));
                self.table.handle(&msg).await
            }
            Err(refusal) => {
                let mut out =
                    ugolki_core::table::Outgoing::to_chat(origin.platform, &origin.chat, refusal);
                out.lang = lang_of(&r.from);
                vec![out]
            }
        };
        for mut out in outs {
            if out.audience == Audience::Sender {
                out.audience = Audience::Chat;
            }
            self.delivery.enqueue(out, None);
        }
    }
}
