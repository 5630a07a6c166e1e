-- Fair clocks in chat: the ply whose board delivery has been credited to the side to move
-- (each ply at most once). End reasons become codes (`flag:white`); the rows written in
-- English before are rewritten by the store at start (see store/meta.rs), since their
-- numbers (`move limit, 5 to 3 in target`) need parsing.
ALTER TABLE games ADD COLUMN delivered_ply INTEGER;
-- Fair play (F2, F3): challenges per challenger, games per pair of players.
CREATE INDEX challenges_by_challenger ON challenges (challenger_id, created_at);
CREATE INDEX games_by_white ON games (white_id, black_id, created_at);
