-- A player's public games (those of groups), newest first, for their page: partial
-- indexes, so that no other query of a player's games is planned through them.
CREATE INDEX games_public_by_white ON games (white_id, id) WHERE chat_kind IN ('group', 'topic');
CREATE INDEX games_public_by_black ON games (black_id, id) WHERE chat_kind IN ('group', 'topic');
