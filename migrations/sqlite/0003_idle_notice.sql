-- Activity monitor: the ply at which the chat was told that the player to move is idle
-- past the limit (so it is said once a turn).
ALTER TABLE games ADD COLUMN idle_noticed_ply INTEGER;
