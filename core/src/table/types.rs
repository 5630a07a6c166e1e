//! The table's platform contract: what an adapter hands in ([`Incoming`]) and what it gets
//! back ([`Outgoing`]). Adapters translate platform updates into these and these into
//! platform calls; every game decision is the table's.

use super::action::Action;
use super::command::Command;
use crate::view::{BoardView, ChartView};
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
    pub platform: Platform,
    pub chat: String,
    pub user: User,
    /// The platform's id of this message or button press: a repeat of the same id is ignored.
    pub message_id: String,
    /// The platform's language hint (Telegram `language_code`, Discord `locale`). Once the
    /// table has read a message, it holds the language chosen for the answer.
    pub locale: Option<String>,
    /// In a group: whether the sender may change the chat's settings (an admin). `None` in
    /// a private chat (and the console), where settings are the sender's own.
    pub group_admin: Option<bool>,
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everyone in the chat.
    Chat,
    /// One user, privately (a direct message where the platform allows it).
    User(User),
    /// Only the person who pressed or typed (Discord's ephemeral reply, a Telegram alert).
    Sender,
}

/// A living message: a game's board, or a challenge's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    Board(i64),
    Challenge(i64),
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

/// One reply to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub platform: Platform,
    pub chat: String,
    pub audience: Audience,
    pub slot: Option<SlotUse>,
    /// The game it belongs to (Discord keeps each game in a thread).
    pub game: Option<i64>,
    /// For a board that starts a clock: the ply to report to `Table::delivered` once the
    /// board has reached the chat.
    pub ply: Option<i64>,
    /// What to say, and in which language.
    pub message: Msg,
    pub lang: Lang,
    pub board: Option<BoardView>,
    pub chart: Option<ChartView>,
    /// The buttons that apply now, in order.
    pub actions: Vec<Action>,
    /// A game's replay (`/review`): one board per position, the last move marked on each;
    /// adapters draw it as an animation (`ugolki_render::Animation`). Empty: none.
    pub replay: Vec<BoardView>,
}

impl Outgoing {
    /// A message for a whole chat.
    #[must_use]
    pub fn to_chat(platform: Platform, chat: &str, message: Msg) -> Outgoing {
        Outgoing {
            platform,
            chat: chat.to_string(),
            audience: Audience::Chat,
            slot: None,
            game: None,
            ply: None,
            message,
            lang: Lang::EN,
            board: None,
            chart: None,
            actions: Vec::new(),
            replay: Vec::new(),
        }
    }

    /// A reply to the chat an incoming message came from, in its sender's language.
    #[must_use]
    pub fn reply(origin: &Origin, message: Msg) -> Outgoing {
        Outgoing {
            lang: lang_of(origin),
            ..Outgoing::to_chat(origin.platform, &origin.chat, message)
        }
    }

    /// A reply only the sender sees.
    #[must_use]
    pub fn private(origin: &Origin, message: Msg) -> Outgoing {
        Outgoing {
            audience: Audience::Sender,
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
    pub fn with_board(mut self, board: BoardView) -> Outgoing {
        self.board = Some(board);
        self
    }

    #[must_use]
    pub fn with_replay(mut self, frames: Vec<BoardView>) -> Outgoing {
        self.replay = frames;
        self
    }

    #[must_use]
    pub fn with_chart(mut self, chart: Option<ChartView>) -> Outgoing {
        self.chart = chart;
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
}

/// The language to answer a message in: the platform's hint where we speak it, else English.
#[must_use]
pub fn lang_of(origin: &Origin) -> Lang {
    origin
        .locale
        .as_deref()
        .and_then(Lang::from_tag)
        .unwrap_or(Lang::EN)
}
