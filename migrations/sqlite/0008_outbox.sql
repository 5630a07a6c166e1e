-- The outbox: every reply is a row, written in the transaction of the change it tells of,
-- and sent by one process per chat (a lease) once that has committed. Living messages
-- (slots) and Discord's game threads are rows too, instead of process memory and `meta`
-- keys. Chats carry their kind, instead of an `inline:` prefix on the id.

ALTER TABLE games ADD COLUMN chat_kind TEXT NOT NULL DEFAULT 'group'
    CHECK (chat_kind IN ('group', 'private', 'one_message'));
ALTER TABLE challenges ADD COLUMN chat_kind TEXT NOT NULL DEFAULT 'group'
    CHECK (chat_kind IN ('group', 'private', 'one_message'));
UPDATE games SET chat_kind = 'one_message', chat_id = substr(chat_id, 8) WHERE chat_id LIKE 'inline:%';
UPDATE challenges SET chat_kind = 'one_message', chat_id = substr(chat_id, 8) WHERE chat_id LIKE 'inline:%';
-- Telegram's private chats are the positive ids (groups are negative).
UPDATE games SET chat_kind = 'private'
    WHERE platform = 'telegram' AND chat_kind = 'group' AND chat_id NOT LIKE '-%';
UPDATE challenges SET chat_kind = 'private'
    WHERE platform = 'telegram' AND chat_kind = 'group' AND chat_id NOT LIKE '-%';

CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY,
    platform    TEXT    NOT NULL,
    chat_id     TEXT    NOT NULL,
    chat_kind   TEXT    NOT NULL CHECK (chat_kind IN ('group', 'private', 'one_message')),
    place       TEXT,
    audience    TEXT    NOT NULL CHECK (audience IN ('chat', 'sender')),
    sender_id   TEXT,
    sender_name TEXT,
    reply_to    TEXT,
    slot_use    TEXT    CHECK (slot_use IN ('replace', 'edit')),
    slot_kind   TEXT    CHECK (slot_kind IN ('board', 'challenge')),
    slot_id     INTEGER,
    game_id     INTEGER,
    ply         INTEGER,
    -- The typed message as its code and arguments (JSON), rendered when sent.
    message     TEXT    NOT NULL,
    lang        TEXT    NOT NULL,
    -- The buttons' text forms, separated by spaces.
    actions     TEXT    NOT NULL,
    -- The picture's spec (JSON): drawn when sent, never stored as bytes.
    picture     TEXT,
    created_at  INTEGER NOT NULL,
    sent_at     INTEGER,
    outcome     TEXT    CHECK (outcome IN ('sent', 'unchanged', 'overtaken', 'dropped')),
    calls       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX outbox_unsent ON outbox (platform, chat_id, id) WHERE sent_at IS NULL;
CREATE INDEX outbox_sent ON outbox (platform, chat_id, sent_at) WHERE sent_at IS NOT NULL;
CREATE INDEX outbox_by_age ON outbox (created_at);

-- Which process sends a chat's rows, until when.
CREATE TABLE outbox_leases (
    platform TEXT    NOT NULL,
    chat_id  TEXT    NOT NULL,
    holder   TEXT    NOT NULL,
    until    INTEGER NOT NULL,
    PRIMARY KEY (platform, chat_id)
);

-- Living messages: the message that shows a game's board, a challenge, or a one-message
-- chat ('message', 0), with its platform id and what it shows.
CREATE TABLE slots (
    platform   TEXT    NOT NULL,
    chat_id    TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('board', 'challenge', 'message')),
    id         INTEGER NOT NULL,
    message_id TEXT    NOT NULL,
    place      TEXT,
    photo      BOOLEAN NOT NULL,
    buttons    BOOLEAN NOT NULL,
    state      TEXT,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (platform, chat_id, kind, id)
);

-- A game's own thread (Discord), grown from its challenge's message in the chat.
CREATE TABLE threads (
    platform   TEXT    NOT NULL,
    game_id    INTEGER NOT NULL,
    chat_id    TEXT    NOT NULL,
    thread_id  TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (platform, game_id)
);
CREATE INDEX threads_by_thread ON threads (platform, thread_id);
INSERT INTO threads (platform, game_id, chat_id, thread_id, created_at)
    SELECT 'discord', CAST(substr(t.key, 16) AS INTEGER), CAST(p.value AS TEXT), CAST(t.value AS TEXT), 0
    FROM meta t JOIN meta p ON p.key = 'discord_parent:' || t.value
    WHERE t.key LIKE 'discord_thread:%';
DELETE FROM meta WHERE key LIKE 'discord_thread:%' OR key LIKE 'discord_parent:%';
