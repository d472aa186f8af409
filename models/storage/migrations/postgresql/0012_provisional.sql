-- A table's ladder lists players with fewer finished matches than this apart, as provisional
-- (models/ratings.py: PROVISIONAL, its bounds; models/club.py reads and sets it).
ALTER TABLE play_table ADD COLUMN provisional BIGINT NOT NULL DEFAULT 5 CHECK (provisional BETWEEN 0 AND 50);
