-- Forum topics (Telegram): a topic is a chat of its own for the table ('topic'), whose
-- replies go out in its group's delivery lane — one sender and one pace per group, since
-- the platform counts a group's messages together, whatever topic they are in.

-- SQLite cannot change a CHECK in place: each kind column is replaced by one that allows
-- 'topic' (a column's own CHECK goes with it when it is dropped).
ALTER TABLE games ADD COLUMN chat_kind_v2 TEXT NOT NULL DEFAULT 'group'
    CHECK (chat_kind_v2 IN ('group', 'private', 'one_message', 'topic'));
UPDATE games SET chat_kind_v2 = chat_kind;
ALTER TABLE games DROP COLUMN chat_kind;
ALTER TABLE games RENAME COLUMN chat_kind_v2 TO chat_kind;

ALTER TABLE challenges ADD COLUMN chat_kind_v2 TEXT NOT NULL DEFAULT 'group'
    CHECK (chat_kind_v2 IN ('group', 'private', 'one_message', 'topic'));
UPDATE challenges SET chat_kind_v2 = chat_kind;
ALTER TABLE challenges DROP COLUMN chat_kind;
ALTER TABLE challenges RENAME COLUMN chat_kind_v2 TO chat_kind;

ALTER TABLE outbox ADD COLUMN chat_kind_v2 TEXT NOT NULL DEFAULT 'group'
    CHECK (chat_kind_v2 IN ('group', 'private', 'one_message', 'topic'));
UPDATE outbox SET chat_kind_v2 = chat_kind;
ALTER TABLE outbox DROP COLUMN chat_kind;
ALTER TABLE outbox RENAME COLUMN chat_kind_v2 TO chat_kind;

-- The lane a row is delivered in: its chat, or a topic's group.
ALTER TABLE outbox ADD COLUMN lane TEXT NOT NULL DEFAULT '';
UPDATE outbox SET lane = chat_id;
DROP INDEX outbox_unsent;
DROP INDEX outbox_sent;
CREATE INDEX outbox_unsent ON outbox (platform, lane, id) WHERE sent_at IS NULL;
CREATE INDEX outbox_sent ON outbox (platform, lane, sent_at) WHERE sent_at IS NOT NULL;

-- Leases are a lane's.
ALTER TABLE outbox_leases RENAME COLUMN chat_id TO lane;
