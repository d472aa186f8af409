-- What the players decide about a match as a whole (none of it is a score):
-- an optional name ("Friday at Eva's"); when they abandoned it (NULL while it counts);
-- and which match it is the rematch of. One rematch per match: a second tap, or the
-- other phone's, finds the first one (models/storage.py create_rematch), and the
-- UNIQUE index refuses a second row even if some other writer forgot to look.
ALTER TABLE match ADD COLUMN name TEXT;
ALTER TABLE match ADD COLUMN abandoned TEXT;
ALTER TABLE match ADD COLUMN rematch_of INTEGER REFERENCES match(id);
CREATE UNIQUE INDEX match_rematch_of ON match(rematch_of);
