-- A Resign button asks before it resigns: its first press is kept here (who, at which ply,
-- when), so that the second press resigns whichever process it reaches. A move makes it
-- stale (the ply), and so does time (the table's window).
ALTER TABLE games ADD COLUMN resign_asked_by colour;
ALTER TABLE games ADD COLUMN resign_asked_ply BIGINT;
ALTER TABLE games ADD COLUMN resign_asked_at BIGINT;
