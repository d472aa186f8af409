-- The version of a table's club book (models/storage/club.py results_version): every write that can change
-- what the ratings read (a touched match finished before or after it) bumps it in the same transaction
-- (models/storage/work.py Work.close). It only grows, so a key made of it never repeats for another set of
-- finished matches, as sums of ids and versions could.
ALTER TABLE play_table ADD COLUMN book BIGINT NOT NULL DEFAULT 0;
