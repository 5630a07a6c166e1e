-- Old boards whose buttons are still to come off: a busy Telegram group's calls go to new
-- boards first, and an old board loses its buttons once its lane is quiet again. Kept
-- here, not in the sending process, so that whichever process serves the lane next strips
-- them (meanwhile a press on them is refused as out of date).
CREATE TABLE stale_buttons (
    platform   TEXT    NOT NULL,
    lane       TEXT    NOT NULL,
    chat_id    TEXT    NOT NULL,
    chat_kind  TEXT    NOT NULL CHECK (chat_kind IN ('group', 'private', 'one_message', 'topic')),
    message_id TEXT    NOT NULL,
    place      TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (platform, chat_id, message_id)
);
CREATE INDEX stale_buttons_by_lane ON stale_buttons (platform, lane, created_at);
