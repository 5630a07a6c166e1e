//! Telegram updates as the table's input: a text message becomes typed text with its
//! mentions (an `@username` as a handle, a text mention as a known user); a button press
//! becomes an action. Nothing here decides anything about games.

use teloxide::types::{CallbackQuery, Message, MessageEntityKind, User as TgUser};
use ugolki_core::table::{Action, Incoming, Input, Mention, Origin, Platform, User};

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

fn origin(chat: i64, from: &TgUser, message_id: String) -> Origin {
    Origin {
        platform: Platform::Telegram,
        chat: chat.to_string(),
        user: user(from),
        message_id,
        locale: from.language_code.clone(),
    }
}

/// A text message from a person, with its mentions; `None` for anything else (photos,
/// service messages, other bots).
pub fn message(m: &Message) -> Option<Incoming> {
    let from = m.from.as_ref().filter(|u| !u.is_bot)?;
    let text = m.text()?;
    let mentions = m
        .parse_entities()
        .unwrap_or_default()
        .iter()
        .filter_map(|e| match e.kind() {
            MessageEntityKind::Mention => Some(Mention::Handle(
                e.text().trim_start_matches('@').to_ascii_lowercase(),
            )),
            MessageEntityKind::TextMention { user: u } => Some(Mention::User(user(u))),
            _ => None,
        })
        .collect();
    Some(Incoming::text(
        origin(m.chat.id.0, from, m.id.0.to_string()),
        text,
        mentions,
    ))
}

/// A button press on one of the bot's messages, as the table's input; `None` when the
/// press is not one of ours (no message, unreadable data): it is answered as out of date.
pub fn press(q: &CallbackQuery) -> Option<Incoming> {
    let msg = q.message.as_ref()?;
    let action = q.data.as_deref().and_then(Action::parse)?;
    // A press has no message of its own: its query id names it, once.
    Some(Incoming {
        origin: origin(msg.chat().id.0, &q.from, format!("cb:{}", q.id.0)),
        input: Input::Action(action),
    })
}
