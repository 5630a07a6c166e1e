-- A Resign button asks before it resigns: its first press is kept here (who, at which ply,
-- when), so that the second press resigns whichever process it reaches. A move makes it
-- stale (the ply), and so does time (the table's window).
ALTER TABLE games ADD COLUMN resign_asked_by TEXT CHECK (resign_asked_by IN ('white', 'black'));
ALTER TABLE games ADD COLUMN resign_asked_ply INTEGER;
ALTER TABLE games ADD COLUMN resign_asked_at INTEGER;
