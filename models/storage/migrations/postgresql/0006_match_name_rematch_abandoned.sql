-- A match's name, when it was abandoned, and which match it is the rematch of (one rematch per match).
ALTER TABLE match ADD COLUMN name TEXT COLLATE "C";
ALTER TABLE match ADD COLUMN abandoned TEXT COLLATE "C";
ALTER TABLE match ADD COLUMN rematch_of BIGINT REFERENCES match(id);
CREATE UNIQUE INDEX match_rematch_of ON match(rematch_of);
