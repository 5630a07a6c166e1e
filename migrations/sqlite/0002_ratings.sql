-- Ratings per player per rated kind, general and monthly, and the history that lets them
-- be recomputed: every rated game (and every abandonment penalty) writes one row per player
-- in the transaction that ends the game.

CREATE TABLE ratings (
    player_id     INTEGER NOT NULL REFERENCES players (id),
    kind          TEXT    NOT NULL,
    rating        INTEGER NOT NULL,
    games         INTEGER NOT NULL DEFAULT 0,
    wins          INTEGER NOT NULL DEFAULT 0,
    draws         INTEGER NOT NULL DEFAULT 0,
    losses        INTEGER NOT NULL DEFAULT 0,
    -- The month ('2026-11') the monthly figures belong to; another month means 1000 again.
    month         TEXT    NOT NULL,
    monthly       INTEGER NOT NULL,
    monthly_games INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, kind)
);
-- Leaderboards read these indexes, never the whole table.
CREATE INDEX ratings_general ON ratings (kind, rating DESC, player_id);
CREATE INDEX ratings_monthly ON ratings (kind, month, monthly DESC, player_id);

CREATE TABLE rating_history (
    id             INTEGER PRIMARY KEY,
    game_id        INTEGER NOT NULL REFERENCES games (id),
    player_id      INTEGER NOT NULL REFERENCES players (id),
    kind           TEXT    NOT NULL,
    at             INTEGER NOT NULL,
    month          TEXT    NOT NULL,
    -- game | abandon
    reason         TEXT    NOT NULL,
    before         INTEGER NOT NULL,
    after          INTEGER NOT NULL,
    monthly_before INTEGER NOT NULL,
    monthly_after  INTEGER NOT NULL
);
CREATE INDEX rating_history_by_player ON rating_history (player_id, kind, id);
