-- Forum topics (Telegram): a topic is a chat of its own for the table ('topic'), whose
-- replies go out in its group's delivery lane — one sender and one pace per group, since
-- the platform counts a group's messages together, whatever topic they are in.

ALTER TABLE games DROP CONSTRAINT games_chat_kind_check,
    ADD CONSTRAINT games_chat_kind_check CHECK (chat_kind IN ('group', 'private', 'one_message', 'topic'));
ALTER TABLE challenges DROP CONSTRAINT challenges_chat_kind_check,
    ADD CONSTRAINT challenges_chat_kind_check CHECK (chat_kind IN ('group', 'private', 'one_message', 'topic'));
ALTER TABLE outbox DROP CONSTRAINT outbox_chat_kind_check,
    ADD CONSTRAINT outbox_chat_kind_check CHECK (chat_kind IN ('group', 'private', 'one_message', 'topic'));

-- The lane a row is delivered in: its chat, or a topic's group.
ALTER TABLE outbox ADD COLUMN lane TEXT NOT NULL DEFAULT '';
UPDATE outbox SET lane = chat_id;
ALTER TABLE outbox ALTER COLUMN lane DROP DEFAULT;
DROP INDEX outbox_unsent;
DROP INDEX outbox_sent;
CREATE INDEX outbox_unsent ON outbox (platform, lane, id) WHERE sent_at IS NULL;
CREATE INDEX outbox_sent ON outbox (platform, lane, sent_at) WHERE sent_at IS NOT NULL;

-- Leases are a lane's.
ALTER TABLE outbox_leases RENAME COLUMN chat_id TO lane;
