-- Every row written to the outbox is written twice (sent, then marked), and each version
-- updated every index. The index by age served only the pruning, every ten minutes, and
-- the oldest unsent row (which the index of unsent rows finds): a scan of an hour's rows
-- every ten minutes costs less than two index entries a move.
DROP INDEX IF EXISTS outbox_by_age;
