-- A match's number at its table (models/storage/matches.py insert_match): a hosted server shows it,
-- in its addresses, titles and file names, instead of the id, which counts across every table and so
-- told a table that others exist. A new match takes its table's largest number plus one, under the
-- write lock; the UNIQUE index refuses a second one even if some other writer forgot to look.
-- Stored, not counted: it names the match in links, prints and files, so nothing may move it.
-- A match made before keeps its id as its number: every address, bookmark, print and file name
-- already given out keeps naming the same match, and a home table's numbers stay as they were.
ALTER TABLE match ADD COLUMN number BIGINT;
UPDATE match SET number = id;
ALTER TABLE match ALTER COLUMN number SET NOT NULL;
CREATE UNIQUE INDEX match_number ON match(table_id, number);
