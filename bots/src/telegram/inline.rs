//! Telegram's inline mode: `@bot halma16 5+3` in any chat, even one the bot is not in.
//!
//! The query is answered with the table's challenge cards (`table::inline::cards`), each a
//! cached photo of the start position with Accept / Decline. Sending one makes an inline
//! message; its `chosen_inline_result` (inline feedback must be on in `BotFather`) becomes
//! `/challenge ARGS` in that message's one-message chat (the `inline_message_id`), and from
//! then on the game is that message, edited through the outbox. Until then a card's buttons
//! carry the card itself, signed with the bot's token (`table::card_data`): a press makes
//! the challenge in its sender's name, once, and then answers it.

use super::{incoming, Running};
use crate::outbox::direct_lines as alerts;
use teloxide::payloads::AnswerInlineQuerySetters;
use teloxide::prelude::Requester;
use teloxide::types::{
    CallbackQuery, ChosenInlineResult, InlineKeyboardButton, InlineKeyboardMarkup, InlineQuery,
    InlineQueryResult, InlineQueryResultCachedPhoto, InlineQueryResultsButton,
    InlineQueryResultsButtonKind,
};
use ugolki_core::table::card_data::card_data;
use ugolki_core::table::inline::{cards, handles, why_no_pictures, Card};
use ugolki_core::table::Platform;
use ugolki_core::words::{render, Lang, Msg};

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
    cards(query, &handles(query), &me.name)
}

impl Running {
    /// What cards' buttons are signed with: the bot's token, which only this bot knows.
    fn card_key(&self) -> &[u8] {
        self.bot.token().as_bytes()
    }

    /// Answer an inline query with its challenge cards; a query `/challenge` would refuse
    /// gets no cards and its refusal on the button above the (empty) results.
    pub(super) async fn inline_query(&self, q: &InlineQuery) {
        let lang = self.table.lang_for(&incoming::alone(&q.from)).await;
        let (results, button) = if self.surface.has_picture_store() {
            match cards_for(&q.query, &q.from) {
                Ok(cards) => {
                    // Remembered, so a press on a card can make its challenge.
                    let me = incoming::user(&q.from);
                    self.table.know(Platform::Telegram, &me).await;
                    let results = self.results(&cards, q.from.id.0, lang).await;
                    // No card got its picture: the room for training rooms' pictures is
                    // full, or the picture chats are failing.
                    let button = (results.is_empty() && !cards.is_empty())
                        .then(|| to_private_chat(&render(&why_no_pictures(&cards), lang)));
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
        let offered = self.table.now_min();
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

    /// A card was sent: its challenge is made in the inline message's chat.
    pub(super) async fn chosen(&self, r: &ChosenInlineResult) {
        let (Some(inline), Ok(index)) = (&r.inline_message_id, r.result_id.parse::<usize>()) else {
            return;
        };
        let (chat, from) = (incoming::inline_chat(inline), incoming::user(&r.from));
        let locale = r.from.language_code.clone();
        self.table
            .card_chosen(&chat, &from, locale, &r.query, index)
            .await;
    }

    /// A card's button pressed: its challenge is made if it was not yet, then the press
    /// answers it. The alert's lines.
    pub(super) async fn card_pressed(&self, q: &CallbackQuery) -> Vec<String> {
        let (Some(inline), Some(data)) = (&q.inline_message_id, q.data.as_deref()) else {
            let lang = self.table.lang_for(&incoming::pressed_where(q)).await;
            return vec![render(&Msg::InlineNotReady, lang)];
        };
        let chat = incoming::inline_chat(inline);
        let (me, locale) = (incoming::user(&q.from), q.from.language_code.clone());
        let press = format!("cb:{}", q.id.0);
        let outs = self
            .table
            .card_pressed(&chat, &me, press, locale, self.card_key(), data)
            .await;
        alerts(&outs)
    }
}
