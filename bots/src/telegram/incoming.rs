//! Telegram updates as the table's input: a text message becomes typed text with its
//! mentions (an `@username` as a handle, a text mention as a known user); a button press
//! becomes an action. Nothing here decides anything about games.

use std::fmt::Write as _;
use teloxide::types::{
    CallbackQuery, Message, MessageEntityKind, Update, UpdateKind, User as TgUser,
};
use ugolki_core::table::{
    Action, ChatKind, ChatRef, Incoming, Input, Mention, Origin, Platform, User,
};

/// The player a Telegram user is.
pub fn user(u: &TgUser) -> User {
    let name = match &u.last_name {
        Some(last) if !last.is_empty() => format!("{} {last}", u.first_name),
        _ => u.first_name.clone(),
    };
    User {
        id: u.id.0.to_string(),
        name,
        handle: u.username.as_ref().map(|h| h.to_ascii_lowercase()),
    }
}

/// A Telegram chat as the table's: private chats are the positive ids, groups (and
/// channels) the negative ones.
pub fn chat_of(id: i64) -> ChatRef {
    let kind = if id < 0 {
        ChatKind::Group
    } else {
        ChatKind::Private
    };
    ChatRef::new(Platform::Telegram, id.to_string(), kind)
}

/// The table's chat a message is in: in a forum group, a topic other than General is a
/// chat of its own (General, whose messages name no topic, is the group's).
pub fn chat_in(m: &Message) -> ChatRef {
    match m.thread_id.filter(|_| m.is_topic_message) {
        Some(topic) => ChatRef::topic(
            Platform::Telegram,
            &m.chat.id.0.to_string(),
            &topic.0 .0.to_string(),
        ),
        None => chat_of(m.chat.id.0),
    }
}

/// Who said it where; whether the sender is a group's admin is asked when it matters.
fn origin(mut o: Origin, from: &TgUser) -> Origin {
    o.group_admin = o.chat.kind.is_group().then_some(false);
    o.locale.clone_from(&from.language_code);
    o
}

/// A group upgraded to a supergroup: (old chat id, new chat id), read from the service
/// message either chat gets.
pub fn migration(m: &Message) -> Option<(i64, i64)> {
    if let Some(to) = m.migrate_to_chat_id() {
        return Some((m.chat.id.0, to.0));
    }
    m.migrate_from_chat_id().map(|from| (from.0, m.chat.id.0))
}

/// A text message from a person, with its mentions; `None` for anything else (photos,
/// service messages, other bots).
pub fn message(m: &Message) -> Option<Incoming> {
    let from = m.from.as_ref().filter(|u| !u.is_bot)?;
    let text = m.text()?;
    let entities = m.parse_entities().unwrap_or_default();
    let mut mentions = Vec::new();
    // A text mention is a name in the text, not an @word: it becomes `@<user id>` (no
    // Telegram handle starts with a digit), so "/challenge Dana 5+3" names Dana instead of
    // reading "Dana" as a variant.
    let mut typed = String::with_capacity(text.len());
    let mut at = 0;
    for e in &entities {
        match e.kind() {
            MessageEntityKind::Mention => mentions.push(Mention::Handle(
                e.text().trim_start_matches('@').to_ascii_lowercase(),
            )),
            MessageEntityKind::TextMention { user: u } if e.start() >= at => {
                mentions.push(Mention::User(user(u)));
                typed.push_str(&text[at..e.start()]);
                let _ = write!(typed, " @{} ", u.id.0);
                at = e.end();
            }
            _ => {}
        }
    }
    typed.push_str(&text[at..]);
    let o = Origin::message(chat_in(m), user(from), m.id.0.to_string());
    Some(Incoming::text(origin(o, from), &typed, mentions))
}

/// A button press on one of the bot's messages, as the table's input; `None` when the
/// press is not one of ours (no message, unreadable data): it is answered as out of date.
/// A press on an inline message (sent through inline mode into a chat the bot is not in)
/// comes from that message's own one-message chat.
pub fn press(q: &CallbackQuery) -> Option<Incoming> {
    if q.message.is_none() && q.inline_message_id.is_none() {
        return None;
    }
    let action = q.data.as_deref().and_then(Action::parse)?;
    Some(Incoming {
        origin: pressed_where(q),
        input: Input::Action(action),
    })
}

/// Who pressed where: the chat of the message the button is on (an inline message's own
/// chat), else the presser's private chat with the bot.
pub fn pressed_where(q: &CallbackQuery) -> Origin {
    let chat = match (&q.message, &q.inline_message_id) {
        // (A message too old for Telegram to show names no topic: its group's.)
        (Some(msg), _) => msg
            .regular_message()
            .map_or_else(|| chat_of(msg.chat().id.0), chat_in),
        (None, Some(inline)) => inline_chat(inline),
        (None, None) => private_chat_of(&q.from),
    };
    // A press has no message of its own: its query id names it, once.
    let o = Origin::interaction(chat, user(&q.from), format!("cb:{}", q.id.0));
    origin(o, &q.from)
}

/// A user's private chat with the bot (its id is theirs), where what they do outside any
/// chat of the bot's (an inline query) is answered from.
pub fn private_chat_of(u: &TgUser) -> ChatRef {
    chat_of(i64::try_from(u.id.0).unwrap_or(i64::MAX))
}

/// Who asked, outside any chat of the bot's (an inline query, a chosen card): their private
/// chat with it.
pub fn alone(u: &TgUser) -> Origin {
    origin(
        Origin::message(private_chat_of(u), user(u), String::new()),
        u,
    )
}

/// Updates that must be handled in the order they came: one chat's, one inline message's,
/// one user's inline queries. Different lanes are handled at once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lane {
    Chat(i64),
    Inline(String),
    User(u64),
}

/// The lane of an update.
pub fn lane(u: &Update) -> Lane {
    match &u.kind {
        UpdateKind::Message(m) | UpdateKind::EditedMessage(m) => Lane::Chat(m.chat.id.0),
        UpdateKind::CallbackQuery(q) => match (&q.message, &q.inline_message_id) {
            (Some(m), _) => Lane::Chat(m.chat().id.0),
            (None, Some(inline)) => Lane::Inline(inline.clone()),
            (None, None) => Lane::User(q.from.id.0),
        },
        // A chosen card's challenge comes before any press on its message.
        UpdateKind::ChosenInlineResult(r) => r
            .inline_message_id
            .clone()
            .map_or(Lane::User(r.from.id.0), Lane::Inline),
        UpdateKind::InlineQuery(q) => Lane::User(q.from.id.0),
        UpdateKind::MyChatMember(c) => Lane::Chat(c.chat.id.0),
        _ => Lane::User(0),
    }
}

/// The table's chat for an inline message: that one message.
pub fn inline_chat(inline_message_id: &str) -> ChatRef {
    ChatRef::new(Platform::Telegram, inline_message_id, ChatKind::OneMessage)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inline_message_is_a_one_message_chat() {
        assert_eq!(inline_chat("AgAA").kind, ChatKind::OneMessage);
    }
}
