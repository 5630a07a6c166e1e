//! The table's platform contract: what an adapter hands in ([`Incoming`]) and what it gets
//! back ([`Outgoing`]). Adapters translate platform updates into these and these into
//! platform calls; every game decision is the table's.

use super::action::Action;
use super::command::Command;
use super::picture::Picture;
use crate::words::{Lang, Msg};

/// Where a message came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Platform {
    Console,
    Telegram,
    Discord,
    /// The table's own tests.
    Test,
}

impl Platform {
    /// The name the store keeps.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Platform::Console => "console",
            Platform::Telegram => "telegram",
            Platform::Discord => "discord",
            Platform::Test => "test",
        }
    }

    /// Read a stored name.
    #[must_use]
    pub fn parse(name: &str) -> Option<Platform> {
        [
            Platform::Console,
            Platform::Telegram,
            Platform::Discord,
            Platform::Test,
        ]
        .into_iter()
        .find(|p| p.as_str() == name)
    }
}

/// What kind of chat a chat is: how its replies reach it, and what its people can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChatKind {
    /// Many people: a group, a server channel, the console's local chat.
    Group,
    /// A private chat between one person and the bot.
    Private,
    /// One message in a chat the bot can neither read nor post to — a Telegram inline
    /// message, a Discord DM where only a user installed the app: nothing can be typed,
    /// everything is shown by editing that one message (or answering a press on it).
    OneMessage,
    /// A topic of a forum group (Telegram): a group of its own for the table, whose
    /// messages share the group's delivery (its lease and its pace, which Telegram counts
    /// for the whole group).
    Topic,
}

impl ChatKind {
    /// Many people can be here (a group or one of its topics).
    #[must_use]
    pub fn is_group(self) -> bool {
        matches!(self, ChatKind::Group | ChatKind::Topic)
    }

    /// The name the store keeps.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ChatKind::Group => "group",
            ChatKind::Private => "private",
            ChatKind::OneMessage => "one_message",
            ChatKind::Topic => "topic",
        }
    }

    /// Read a stored name.
    #[must_use]
    pub fn parse(name: &str) -> Option<ChatKind> {
        [
            ChatKind::Group,
            ChatKind::Private,
            ChatKind::OneMessage,
            ChatKind::Topic,
        ]
        .into_iter()
        .find(|k| k.as_str() == name)
    }
}

/// A chat: on which platform, its id there, and its kind.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChatRef {
    pub platform: Platform,
    pub id: String,
    pub kind: ChatKind,
}

impl ChatRef {
    #[must_use]
    pub fn new(platform: Platform, id: impl Into<String>, kind: ChatKind) -> ChatRef {
        ChatRef {
            platform,
            id: id.into(),
            kind,
        }
    }

    /// Topic `topic` of forum group `group`: a chat of its own, delivered with its group.
    #[must_use]
    pub fn topic(platform: Platform, group: &str, topic: &str) -> ChatRef {
        ChatRef::new(
            platform,
            format!("{group}{TOPIC_SEPARATOR}{topic}"),
            ChatKind::Topic,
        )
    }

    /// A topic's group and its id in the group.
    #[must_use]
    pub fn group_and_topic(&self) -> Option<(&str, &str)> {
        (self.kind == ChatKind::Topic)
            .then(|| self.id.split_once(TOPIC_SEPARATOR))
            .flatten()
    }

    /// The delivery lane the chat's replies go out in, one sender and one pace per lane:
    /// its group for a topic (the platform counts a group's calls together), else itself.
    #[must_use]
    pub fn lane(&self) -> &str {
        self.group_and_topic().map_or(&self.id, |(group, _)| group)
    }

    /// Nothing can be typed here: messages name buttons, not commands.
    #[must_use]
    pub fn one_message(&self) -> bool {
        self.kind == ChatKind::OneMessage
    }
}

/// Between a topic chat's group and topic in its id (no platform's chat id holds it).
pub const TOPIC_SEPARATOR: char = '/';

/// A person on a platform, as the adapter knows them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct User {
    /// The platform's stable id for the user.
    pub id: String,
    /// What to call them (cached in the store).
    pub name: String,
    /// Their @handle, where the platform has one.
    pub handle: Option<String>,
}

/// Someone named in a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mention {
    /// The adapter knows who it is (a Discord `<@id>`, a Telegram text mention).
    User(User),
    /// Only the handle is known (a typed Telegram `@username`).
    Handle(String),
}

/// Who sent a message, where, and in which language they probably read.
#[derive(Clone, Debug)]
pub struct Origin {
    pub chat: ChatRef,
    pub user: User,
    /// The platform's id of this message or button press: a repeat of the same id is ignored.
    pub message_id: String,
    /// The platform's language hint (Telegram `language_code`, Discord `locale`). Once the
    /// table has read a message, it holds the language chosen for the answer.
    pub locale: Option<String>,
    /// In a group: whether the sender may change the chat's settings (an admin). `None` in
    /// a private chat (and the console), where settings are the sender's own.
    pub group_admin: Option<bool>,
    /// A thread or topic inside the chat the message came from (a Discord thread): replies
    /// that belong to no game go back there.
    pub place: Option<String>,
    /// The platform message to reply to (typed messages; none for a press or a slash
    /// command).
    pub reply_to: Option<String>,
    /// A button press or a slash command: what only its sender reads is the press's answer
    /// (an alert, an ephemeral message), given by the adapter at once through the
    /// interaction, not a message in the chat.
    pub interaction: bool,
}

impl Origin {
    /// A typed message `message_id` from `user` in `chat`.
    #[must_use]
    pub fn message(chat: ChatRef, user: User, message_id: impl Into<String>) -> Origin {
        let message_id = message_id.into();
        Origin {
            chat,
            user,
            reply_to: Some(message_id.clone()),
            message_id,
            locale: None,
            group_admin: None,
            place: None,
            interaction: false,
        }
    }

    /// A button press or slash command `id` from `user` in `chat`.
    #[must_use]
    pub fn interaction(chat: ChatRef, user: User, id: impl Into<String>) -> Origin {
        Origin {
            interaction: true,
            reply_to: None,
            ..Origin::message(chat, user, id)
        }
    }

    /// The platform the message came from.
    #[must_use]
    pub fn platform(&self) -> Platform {
        self.chat.platform
    }
}

/// What was said.
#[derive(Clone, Debug)]
pub enum Input {
    /// Typed text: a command or a move, read by the table. Mentions arrive structured.
    Text {
        text: String,
        mentions: Vec<Mention>,
    },
    /// A command with its options already structured (a Discord slash command).
    Command(Command),
    /// A button press.
    Action(Action),
    /// A button press its client confirmed already: the board page asks its own second
    /// tap for Resign, so the table resigns at once where a chat's press would ask first.
    Confirmed(Action),
}

/// One message or button press from a chat.
#[derive(Clone, Debug)]
pub struct Incoming {
    pub origin: Origin,
    pub input: Input,
}

impl Incoming {
    /// Typed text with its mentions.
    #[must_use]
    pub fn text(origin: Origin, text: &str, mentions: Vec<Mention>) -> Incoming {
        Incoming {
            origin,
            input: Input::Text {
                text: text.to_string(),
                mentions,
            },
        }
    }
}

/// Who reads a reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everyone in the chat.
    Chat,
    /// Only the person who pressed or typed (Discord's ephemeral reply, a Telegram alert,
    /// a reply to their message).
    Sender,
}

/// A living message: a game's board, or a challenge's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    Board(i64),
    Challenge(i64),
    /// A tournament's announcement: who has joined, and where it stands.
    Tournament(i64),
}

impl Slot {
    /// The slot's kind and id, as the store keeps them.
    #[must_use]
    pub fn key(self) -> (&'static str, i64) {
        match self {
            Slot::Board(id) => ("board", id),
            Slot::Challenge(id) => ("challenge", id),
            Slot::Tournament(id) => ("tournament", id),
        }
    }

    /// Read a stored kind and id.
    #[must_use]
    pub fn from_key(kind: &str, id: i64) -> Option<Slot> {
        match kind {
            "board" => Some(Slot::Board(id)),
            "challenge" => Some(Slot::Challenge(id)),
            "tournament" => Some(Slot::Tournament(id)),
            _ => None,
        }
    }
}

/// How a reply relates to its slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotUse {
    /// A new message that becomes the slot's living message: the one before loses its
    /// buttons (or the adapter edits it into this one).
    Replace(Slot),
    /// An update of the slot's living message in place (a challenge answered or expired).
    Edit(Slot),
}

impl SlotUse {
    #[must_use]
    pub fn slot(self) -> Slot {
        match self {
            SlotUse::Replace(s) | SlotUse::Edit(s) => s,
        }
    }
}

/// One reply to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub chat: ChatRef,
    pub audience: Audience,
    /// Who [`Audience::Sender`] is.
    pub sender: Option<User>,
    /// A thread or topic of the chat it answers from (see [`Origin::place`]).
    pub place: Option<String>,
    /// The platform message it answers, if any.
    pub reply_to: Option<String>,
    pub slot: Option<SlotUse>,
    /// The game it belongs to (Discord keeps each game in a thread).
    pub game: Option<i64>,
    /// For a board that starts a clock: the ply to report to `Table::delivered` once the
    /// board has reached the chat.
    pub ply: Option<i64>,
    /// What to say, and in which language.
    pub message: Msg,
    pub lang: Lang,
    /// The picture it carries, drawn when it is sent (`Table::draw_picture`).
    pub picture: Option<Picture>,
    /// The buttons that apply now, in order.
    pub actions: Vec<Action>,
    /// Answered through the interaction it came from, by the adapter at once (not kept in
    /// the outbox: the interaction's token lives in that process only).
    pub direct: bool,
    /// Written to the outbox already (by the change that made it).
    pub(crate) stored: bool,
}

impl Outgoing {
    /// A message for a whole chat.
    #[must_use]
    pub fn to_chat(chat: &ChatRef, message: Msg) -> Outgoing {
        Outgoing {
            chat: chat.clone(),
            audience: Audience::Chat,
            sender: None,
            place: None,
            reply_to: None,
            slot: None,
            game: None,
            ply: None,
            message,
            lang: Lang::EN,
            picture: None,
            actions: Vec::new(),
            direct: false,
            stored: false,
        }
    }

    /// A reply to the chat an incoming message came from, in its sender's language.
    #[must_use]
    pub fn reply(origin: &Origin, message: Msg) -> Outgoing {
        Outgoing {
            lang: lang_of(origin),
            place: origin.place.clone(),
            reply_to: origin.reply_to.clone(),
            ..Outgoing::to_chat(&origin.chat, message)
        }
    }

    /// A reply only the sender sees.
    #[must_use]
    pub fn private(origin: &Origin, message: Msg) -> Outgoing {
        Outgoing {
            audience: Audience::Sender,
            sender: Some(origin.user.clone()),
            direct: origin.interaction,
            ..Outgoing::reply(origin, message)
        }
    }

    #[must_use]
    pub fn in_game(mut self, game: i64) -> Outgoing {
        self.game = Some(game);
        self
    }

    #[must_use]
    pub fn replacing(mut self, slot: Slot) -> Outgoing {
        self.slot = Some(SlotUse::Replace(slot));
        self
    }

    #[must_use]
    pub fn editing(mut self, slot: Slot) -> Outgoing {
        self.slot = Some(SlotUse::Edit(slot));
        self
    }

    #[must_use]
    pub fn with_picture(mut self, picture: Option<Picture>) -> Outgoing {
        self.picture = picture;
        self
    }

    #[must_use]
    pub fn with_actions(mut self, actions: Vec<Action>) -> Outgoing {
        self.actions = actions;
        self
    }

    #[must_use]
    pub fn in_lang(mut self, lang: Lang) -> Outgoing {
        self.lang = lang;
        self
    }

    /// The text in its language.
    #[must_use]
    pub fn text(&self) -> String {
        crate::words::render(&self.message, self.lang)
    }

    /// The board's spec, if it carries a board.
    #[must_use]
    pub fn board(&self) -> Option<&super::picture::BoardSpec> {
        self.picture.as_ref().and_then(Picture::board)
    }
}

/// The language to answer a message in: the platform's hint where we speak it, else English.
#[must_use]
pub fn lang_of(origin: &Origin) -> Lang {
    Lang::of_hint(origin.locale.as_deref())
}
