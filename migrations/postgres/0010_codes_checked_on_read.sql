-- A CHECK constraint costs PostgreSQL more than it looks: each statement that writes a
-- table rebuilds every CHECK of it from its stored text (ExecRelCheck: stringToNode, then
-- the expression's set-up) before its first row, so an IN list of codes is parsed again on
-- every move. A move is one statement writing its game and its outbox row: the checks of
-- those two tables cost about a tenth of the moves a second on PostgreSQL (`table_move`,
-- 2026-12-07; the one on the outbox's marks is parsed once a run of marks, not a move).
--
-- The codes are written only from typed values (`ChatKind`, `Audience`, `SlotUse`, `Slot`,
-- `Outcome`) and checked where they are read: an outbox row this version cannot read is
-- logged and dropped, never sent half-read (`Outgoing::from_row`); a game's chat kind is
-- read through `ChatKind::parse` (one it does not know reads as a group's). The enum types
-- of 0001 (a game's status, colours, results) cost nothing like this and stay, as do the
-- game's own rule (`white_id <> black_id`) and the checks of the tables a move does not
-- write (slots: once a run of marks; challenges).
ALTER TABLE outbox DROP CONSTRAINT outbox_chat_kind_check;
ALTER TABLE outbox DROP CONSTRAINT outbox_audience_check;
ALTER TABLE outbox DROP CONSTRAINT outbox_slot_use_check;
ALTER TABLE outbox DROP CONSTRAINT outbox_slot_kind_check;
ALTER TABLE outbox DROP CONSTRAINT outbox_outcome_check;
ALTER TABLE games DROP CONSTRAINT games_chat_kind_check;
