-- Players, chats, challenges, games and their moves. A game is rebuilt by replaying its
-- moves: `moves` is append-only and is the record; `games` holds what replay cannot know
-- (players, options, clocks, offers).

CREATE TABLE players (
    id               INTEGER PRIMARY KEY,
    platform         TEXT    NOT NULL,
    platform_user_id TEXT    NOT NULL,
    display_name     TEXT    NOT NULL,
    handle           TEXT,
    chips            INTEGER NOT NULL DEFAULT 1000,
    created_at       INTEGER NOT NULL,
    UNIQUE (platform, platform_user_id)
);
CREATE INDEX players_by_handle ON players (platform, handle);

-- Who has played in which chat (for per-chat leaderboards).
CREATE TABLE chat_players (
    platform  TEXT    NOT NULL,
    chat_id   TEXT    NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (id),
    PRIMARY KEY (platform, chat_id, player_id)
);

CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY,
    platform      TEXT    NOT NULL,
    chat_id       TEXT    NOT NULL,
    challenger_id INTEGER NOT NULL REFERENCES players (id),
    target_id     INTEGER REFERENCES players (id),
    target_handle TEXT,
    rules         TEXT    NOT NULL,
    time_control  TEXT    NOT NULL,
    rated         INTEGER NOT NULL,
    color         TEXT    NOT NULL,
    movetime_ms   INTEGER,
    monitor       INTEGER NOT NULL DEFAULT 0,
    stake         INTEGER,
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    -- open, accepted, declined, cancelled, expired
    status        TEXT    NOT NULL DEFAULT 'open'
);
CREATE INDEX challenges_open ON challenges (status, platform, chat_id);

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    platform        TEXT    NOT NULL,
    chat_id         TEXT    NOT NULL,
    rules           TEXT    NOT NULL,
    start_position  TEXT,
    white_id        INTEGER NOT NULL REFERENCES players (id),
    black_id        INTEGER NOT NULL REFERENCES players (id),
    rated           INTEGER NOT NULL,
    stake           INTEGER,
    time_control    TEXT    NOT NULL,
    white_ms        INTEGER NOT NULL,
    black_ms        INTEGER NOT NULL,
    turn_started_at INTEGER NOT NULL,
    movetime_ms     INTEGER,
    monitor         INTEGER NOT NULL DEFAULT 0,
    ply             INTEGER NOT NULL DEFAULT 0,
    -- active, finished, aborted
    status          TEXT    NOT NULL DEFAULT 'active',
    -- white, black, draw, void
    result          TEXT,
    end_reason      TEXT,
    end_rule        TEXT,
    draw_offer_by   TEXT,
    pending_move    TEXT,
    pending_ply     INTEGER,
    reminded_ply    INTEGER,
    created_at      INTEGER NOT NULL,
    finished_at     INTEGER,
    CHECK (white_id <> black_id)
);
CREATE INDEX games_active ON games (status, platform, chat_id);

CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL,
    text      TEXT    NOT NULL,
    played_at INTEGER NOT NULL,
    auto      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, ply)
);

-- Platform message ids already handled: a repeat is ignored.
CREATE TABLE seen_messages (
    platform   TEXT    NOT NULL,
    chat_id    TEXT    NOT NULL,
    message_id TEXT    NOT NULL,
    seen_at    INTEGER NOT NULL,
    PRIMARY KEY (platform, chat_id, message_id)
);

-- Small facts: the heartbeat (last moment the bot was alive).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
