-- Timers and processes kept in the store (the same shape as the PostgreSQL schema, so one
-- store API serves both): a game's next timer is due at `due_at`, and a process that claims
-- a due timer (or a due challenge expiry) holds it until `lease_until`. Each process keeps
-- its own heartbeat row; the gaps in the union of them are `outages`, and a game's clock is
-- credited with those that ended after its `credited_until` when it is next touched (a
-- start costs nothing per game).
ALTER TABLE games ADD COLUMN due_at INTEGER;
ALTER TABLE games ADD COLUMN lease_until INTEGER;
ALTER TABLE challenges ADD COLUMN lease_until INTEGER;
ALTER TABLE games ADD COLUMN credited_until INTEGER;
CREATE INDEX games_due ON games (due_at) WHERE status = 'active';
CREATE INDEX challenges_due ON challenges (expires_at) WHERE status = 'open';
CREATE INDEX seen_messages_by_time ON seen_messages (seen_at);

-- Games started before due times were kept: due at once. Firing a timer early only reads
-- the game and stores when it is really due, so the first start after this migration sets
-- them all, in the background.
UPDATE games SET due_at = 0 WHERE status = 'active';

CREATE TABLE heartbeats (
    process    TEXT    PRIMARY KEY,
    started_at INTEGER NOT NULL,
    beat_at    INTEGER NOT NULL
);
INSERT INTO heartbeats (process, started_at, beat_at)
    SELECT 'before-0006', value, value FROM meta WHERE key = 'heartbeat';
DELETE FROM meta WHERE key = 'heartbeat';
-- Until now every start credited every clock at once: they are credited up to the last beat.
UPDATE games SET credited_until = COALESCE((SELECT MAX(beat_at) FROM heartbeats), created_at)
    WHERE status = 'active';

CREATE TABLE outages (
    id         INTEGER PRIMARY KEY,
    started_at INTEGER NOT NULL,
    ended_at   INTEGER NOT NULL
);

-- English end reasons left from before 0004, rewritten at the next start (then this goes).
INSERT INTO meta (key, value)
    SELECT 'recode-end-reasons', 1 WHERE EXISTS (SELECT 1 FROM games WHERE end_reason LIKE '% %');
