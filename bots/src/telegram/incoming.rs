//! Telegram updates as the table's input: a text message becomes typed text with its
//! mentions (an `@username` as a handle, a text mention as a known user); a button press
//! becomes an action. Nothing here decides anything about games.

use std::fmt::Write as _;
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
        // Negative ids are groups; whether the sender is an admin is asked when it matters.
        group_admin: (chat < 0).then_some(false),
    }
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
    Some(Incoming::text(
        origin(m.chat.id.0, from, m.id.0.to_string()),
        &typed,
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
