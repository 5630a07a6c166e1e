-- A Resign button asks before it resigns: its first press is kept here (when each side
-- asked, and the ply both questions stand at), so that the second press resigns whichever
-- process it reaches. A move makes them stale (the ply; a takeback clears them), and so
-- does time (the table's window).
ALTER TABLE games ADD COLUMN resign_asked_ply INTEGER;
ALTER TABLE games ADD COLUMN resign_asked_white_at INTEGER;
ALTER TABLE games ADD COLUMN resign_asked_black_at INTEGER;
