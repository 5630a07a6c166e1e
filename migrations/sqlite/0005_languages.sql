-- Languages: a player's own choice (`/lang ru`), and a chat's, set by its admins. Both are
-- language codes; no row or NULL means "not chosen" (then the platform's hint, then English).
ALTER TABLE players ADD COLUMN lang TEXT;
CREATE TABLE chat_settings (
    platform TEXT NOT NULL,
    chat_id  TEXT NOT NULL,
    lang     TEXT,
    PRIMARY KEY (platform, chat_id)
);
