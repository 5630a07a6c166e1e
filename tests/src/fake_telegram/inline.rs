//! Inline mode in the fake: inline queries and `answerInlineQuery`; a chosen result that
//! becomes an inline message (with `inline_message_id` only when it has an inline keyboard,
//! as in Telegram) and the `chosen_inline_result` update (inline feedback, on by default);
//! presses on inline messages; edits by `inline_message_id`, which answer `true` and, as in
//! Telegram, cannot upload a new file (a photo must be a `file_id` already on the server).

use super::{
    apply_edit, bad, check_caption, inline_keyboard, str_param, user_json, ApiResult, FakeTelegram,
    FakeUser, Inner, SentMessage, Stored, INVALID_QUERY_ID,
};
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// Telegram's limit on results in one answer.
const MAX_RESULTS: usize = 50;

/// How the bot answered one inline query.
#[derive(Clone, Debug, PartialEq)]
pub struct InlineAnswer {
    /// The results, as sent (`InlineQueryResult` objects).
    pub results: Vec<Value>,
    /// The button above the results (`InlineQueryResultsButton`), if any.
    pub button: Option<Value>,
    pub cache_time: Option<i64>,
    pub is_personal: bool,
}

/// One inline query a user typed.
pub(super) struct Query {
    from: FakeUser,
    text: String,
    answer: Option<InlineAnswer>,
}

/// Inline-mode state of the fake.
#[derive(Default)]
pub(super) struct Inline {
    queries: HashMap<String, Query>,
    last_query: u64,
    /// Inline messages by `inline_message_id`.
    messages: HashMap<String, Stored>,
    last_message: u64,
    /// `chosen_inline_result` updates are not sent (inline feedback off in `BotFather`).
    no_feedback: bool,
}

impl FakeTelegram {
    /// `from` types `@bot query` in some chat: an `inline_query` update. Returns its id.
    pub fn inline_query(&self, from: &FakeUser, query: &str) -> String {
        let mut inner = self.lock();
        inner.inline.last_query += 1;
        let id = format!("{}", 7_000_000 + inner.inline.last_query);
        inner.inline.queries.insert(
            id.clone(),
            Query {
                from: from.clone(),
                text: query.to_owned(),
                answer: None,
            },
        );
        let update = json!({
            "id": id,
            "from": user_json(from),
            "query": query,
            "offset": "",
            "chat_type": "private",
        });
        self.push(inner, "inline_query", update);
        id
    }

    /// The bot's answer to inline query `id`, once it has answered.
    pub fn inline_answer(&self, id: &str) -> Option<InlineAnswer> {
        self.lock()
            .inline
            .queries
            .get(id)
            .and_then(|q| q.answer.clone())
    }

    /// Turn `chosen_inline_result` updates off (or back on).
    pub fn set_inline_feedback(&self, on: bool) {
        self.lock().inline.no_feedback = !on;
    }

    /// The user who typed query `query_id` sends its result `result_id` into a chat: the
    /// result becomes an inline message. Returns its `inline_message_id` (`None` when the
    /// result has no inline keyboard: Telegram gives no id then). Panics if the query was
    /// not answered with that result (a mistake in the test).
    pub fn choose_inline_result(&self, query_id: &str, result_id: &str) -> Option<String> {
        let mut inner = self.lock();
        let q = inner
            .inline
            .queries
            .get(query_id)
            .unwrap_or_else(|| panic!("no inline query {query_id}"));
        let answer = q
            .answer
            .as_ref()
            .unwrap_or_else(|| panic!("inline query {query_id} was not answered"));
        let result = answer
            .results
            .iter()
            .find(|r| r["id"].as_str() == Some(result_id))
            .unwrap_or_else(|| panic!("inline query {query_id} has no result {result_id}"))
            .clone();
        let (from, query) = (q.from.clone(), q.text.clone());
        let result = result.as_object().cloned().unwrap_or_default();
        let (markup, buttons) = inline_keyboard(&result, 0).unwrap_or_default();
        let mut message = Map::new();
        let mut sent = SentMessage {
            id: 0,
            text: None,
            caption: str_param(&result, "caption"),
            photo: None,
            buttons,
            reply_to: None,
            topic: None,
            sent_at: Instant::now(),
            shown_at: Instant::now(),
            edits: 0,
        };
        if let Some(file_id) = str_param(&result, "photo_file_id") {
            sent.photo = inner.files.get(&file_id).cloned();
            message.insert("photo".into(), json!([{ "file_id": file_id }]));
            if let Some(c) = &sent.caption {
                message.insert("caption".into(), c.clone().into());
            }
        } else {
            let text = result["input_message_content"]["message_text"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            message.insert("text".into(), text.clone().into());
            sent.text = Some(text);
            sent.caption = None;
        }
        // Telegram gives an inline message an id only when it has an inline keyboard.
        let inline_id = markup.is_some().then(|| {
            inner.inline.last_message += 1;
            format!("AgAAAinline{}", inner.inline.last_message)
        });
        if let (Some(id), Some(m)) = (&inline_id, markup) {
            message.insert("reply_markup".into(), m);
            inner.inline.messages.insert(
                id.clone(),
                Stored {
                    id: 0,
                    json: Value::Object(message),
                    bot: Some(sent),
                },
            );
        }
        if !inner.inline.no_feedback {
            let mut chosen = json!({
                "result_id": result_id,
                "from": user_json(&from),
                "query": query,
            });
            if let Some(id) = &inline_id {
                chosen["inline_message_id"] = id.clone().into();
            }
            self.push(inner, "chosen_inline_result", chosen);
        }
        inline_id
    }

    /// `from` presses the button with `data` on inline message `inline_message_id`: a
    /// `callback_query` update with no message. Returns the callback query id.
    pub fn press_inline(&self, from: &FakeUser, inline_message_id: &str, data: &str) -> String {
        let inner = self.lock();
        assert!(
            inner.inline.messages.contains_key(inline_message_id),
            "no inline message {inline_message_id}"
        );
        let on = [
            ("inline_message_id", inline_message_id.into()),
            (
                "chat_instance",
                format!("instance-{inline_message_id}").into(),
            ),
        ];
        self.callback_query(inner, from, on, data)
    }

    /// An inline message in its current state.
    pub fn inline_message(&self, inline_message_id: &str) -> Option<SentMessage> {
        self.lock()
            .inline
            .messages
            .get(inline_message_id)
            .and_then(|m| m.bot.clone())
    }
}

impl Inner {
    /// `answerInlineQuery`, checked as Telegram checks it: a live query answered once, at
    /// most 50 results with distinct ids of 1–64 bytes, cached photos that exist, captions
    /// and keyboards within their limits.
    pub(super) fn answer_inline_query(&mut self, p: &Map<String, Value>) -> ApiResult {
        let id = str_param(p, "inline_query_id").unwrap_or_default();
        let results: Vec<Value> = match p.get("results") {
            Some(Value::Array(a)) => a.clone(),
            Some(Value::String(s)) => serde_json::from_str(s)
                .map_err(|_| bad("Bad Request: can't parse inline query results"))?,
            _ => return Err(bad("Bad Request: results are required")),
        };
        if results.len() > MAX_RESULTS {
            return Err(bad("Bad Request: RESULTS_TOO_MUCH"));
        }
        let mut ids = HashSet::new();
        for r in &results {
            let r = r
                .as_object()
                .ok_or_else(|| bad("Bad Request: a result is not an object"))?;
            let rid = str_param(r, "id").unwrap_or_default();
            if !(1..=64).contains(&rid.len()) {
                return Err(bad("Bad Request: RESULT_ID_INVALID"));
            }
            if !ids.insert(rid) {
                return Err(bad("Bad Request: RESULT_ID_DUPLICATE"));
            }
            match r.get("type").and_then(Value::as_str) {
                Some("photo") => {
                    let known =
                        str_param(r, "photo_file_id").is_some_and(|f| self.files.contains_key(&f));
                    if !known {
                        return Err(bad("Bad Request: wrong file identifier/HTTP URL specified"));
                    }
                }
                Some("article") => {
                    let text = r["input_message_content"]["message_text"].as_str();
                    if text.is_none_or(|t| t.trim().is_empty()) {
                        return Err(bad("Bad Request: MESSAGE_EMPTY"));
                    }
                }
                _ => return Err(bad("Bad Request: the fake takes photo and article results")),
            }
            check_caption(str_param(r, "caption").as_deref())?;
            inline_keyboard(r, 0)?;
        }
        let query = self
            .inline
            .queries
            .get_mut(&id)
            .filter(|q| q.answer.is_none())
            .ok_or_else(|| bad(INVALID_QUERY_ID))?;
        query.answer = Some(InlineAnswer {
            results,
            button: p.get("button").cloned(),
            cache_time: p.get("cache_time").and_then(Value::as_i64),
            is_personal: p.get("is_personal").and_then(Value::as_bool) == Some(true),
        });
        Ok(true.into())
    }

    /// An edit by `inline_message_id`: answers `true`. A photo must already be on the server.
    pub(super) fn edit_inline(
        &mut self,
        method: &str,
        p: &Map<String, Value>,
        files: &mut HashMap<String, Vec<u8>>,
    ) -> ApiResult {
        if !files.is_empty() {
            return Err(bad(
                "Bad Request: a new file can't be uploaded to an inline message",
            ));
        }
        let id = str_param(p, "inline_message_id").unwrap_or_default();
        if !self.inline.messages.contains_key(&id) {
            return Err(bad("Bad Request: MESSAGE_ID_INVALID"));
        }
        let media = self.edited_media(method, p, files)?;
        let stored = self
            .inline
            .messages
            .get_mut(&id)
            .ok_or_else(|| bad("Bad Request: MESSAGE_ID_INVALID"))?;
        apply_edit(stored, method, p, media, 0)?;
        Ok(true.into())
    }
}
