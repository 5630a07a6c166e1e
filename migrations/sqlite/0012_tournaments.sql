-- Tournaments (arena, Swiss, round robin) run by the table in a chat. Pairings, scores
-- and standings are recomputed from these rows and the games they point at, so any
-- process, or the same one after a restart, comes to the same answer.
CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY,
    platform     TEXT    NOT NULL,
    chat_id      TEXT    NOT NULL,
    chat_kind    TEXT    NOT NULL CHECK (chat_kind IN ('group', 'private', 'one_message', 'topic')),
    format       TEXT    NOT NULL CHECK (format IN ('arena', 'swiss', 'roundrobin')),
    rules        TEXT    NOT NULL,
    time_control TEXT    NOT NULL,
    rated        INTEGER NOT NULL,
    -- Swiss: the rounds asked for; round robin: set at the start.
    rounds       INTEGER,
    -- Arena: how long it runs.
    length_ms    INTEGER,
    creator_id   INTEGER NOT NULL REFERENCES players (id),
    status       TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    -- The round under way (Swiss, round robin), or the pairings made (arena): each
    -- transition changes it from what it read, so it happens once.
    round        INTEGER NOT NULL DEFAULT 0,
    starts_at    INTEGER NOT NULL,
    started_at   INTEGER,
    ends_at      INTEGER,
    finished_at  INTEGER,
    -- Its timer (see store/timers.rs): the start, an arena's end, a round to pair.
    due_at       INTEGER,
    lease_until  INTEGER,
    -- When the standings were last posted (an arena posts them every few minutes).
    posted_at    INTEGER,
    -- The final standings, as codes (JSON), once it is over.
    standings    TEXT,
    created_at   INTEGER NOT NULL
);
-- At most one tournament open or running per chat.
CREATE UNIQUE INDEX tournaments_one_per_chat ON tournaments (platform, chat_id)
    WHERE status IN ('open', 'running');
CREATE INDEX tournaments_due ON tournaments (due_at) WHERE status IN ('open', 'running');

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    player_id     INTEGER NOT NULL REFERENCES players (id),
    -- The order of joining, from 0: the entrant's number in the pairings.
    seat          INTEGER NOT NULL,
    joined_at     INTEGER NOT NULL,
    -- The last time they (re)joined: a no-show before it no longer pauses them.
    back_at       INTEGER NOT NULL,
    withdrawn     INTEGER NOT NULL DEFAULT 0,
    -- Their rating for the tournament's kind when it started (pairing, performance).
    rating        INTEGER NOT NULL DEFAULT 1000,
    PRIMARY KEY (tournament_id, player_id),
    UNIQUE (tournament_id, seat)
);
CREATE INDEX tournament_entrants_by_player ON tournament_entrants (player_id);

-- The pairings: a game, a bye (no black seat), or a forfeit (no game: `forfeit_seat`
-- did not come to a round robin's game after withdrawing).
CREATE TABLE tournament_pairings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    white_seat    INTEGER NOT NULL,
    black_seat    INTEGER,
    game_id       INTEGER REFERENCES games (id),
    forfeit_seat  INTEGER,
    created_at    INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE UNIQUE INDEX tournament_pairings_by_game ON tournament_pairings (game_id) WHERE game_id IS NOT NULL;

-- A tournament's announcement is a living message too (slot kind 'tournament'). SQLite
-- cannot change a CHECK in place: the outbox's column is replaced, the slots table (whose
-- key holds its kind) is rebuilt.
ALTER TABLE outbox ADD COLUMN slot_kind_v2 TEXT CHECK (slot_kind_v2 IN ('board', 'challenge', 'tournament'));
UPDATE outbox SET slot_kind_v2 = slot_kind;
ALTER TABLE outbox DROP COLUMN slot_kind;
ALTER TABLE outbox RENAME COLUMN slot_kind_v2 TO slot_kind;

CREATE TABLE slots_v2 (
    platform   TEXT    NOT NULL,
    chat_id    TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('board', 'challenge', 'message', 'tournament')),
    id         INTEGER NOT NULL,
    message_id TEXT    NOT NULL,
    place      TEXT,
    photo      BOOLEAN NOT NULL,
    buttons    BOOLEAN NOT NULL,
    state      TEXT,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (platform, chat_id, kind, id)
);
INSERT INTO slots_v2 SELECT platform, chat_id, kind, id, message_id, place, photo, buttons, state, updated_at FROM slots;
DROP TABLE slots;
ALTER TABLE slots_v2 RENAME TO slots;
