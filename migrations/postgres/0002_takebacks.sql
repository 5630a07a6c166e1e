-- Training room takebacks (/undo): a game's ply can go down. `takebacks` counts them, so a
-- position cached or decided at a ply is known stale when the ply is reached again by
-- other moves (the ply alone would say "same game").
ALTER TABLE games ADD COLUMN takebacks BIGINT NOT NULL DEFAULT 0;
