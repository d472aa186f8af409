-- Tables: the group that plays together (a couple, a club). A hosted server keeps many, each
-- reached only at its own unguessable key; a home server keeps the one "home" table, made here
-- for every existing file, and every match, player and preset belongs to it.
-- A player's name and a preset's name are unique per table, not across the server, so player
-- and preset are rebuilt (SQLite cannot drop a column's UNIQUE). Foreign keys are checked at
-- the migration's commit, when every match has its player again.
PRAGMA defer_foreign_keys = ON;
CREATE TABLE play_table (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    passphrase_hash TEXT,
    home INTEGER NOT NULL DEFAULT 0 CHECK (home IN (0, 1)),
    created TEXT NOT NULL
);
CREATE UNIQUE INDEX play_table_one_home ON play_table(home) WHERE home = 1;
-- The home table's key is random too: on a server later run hosted it is not /t/home/.
INSERT INTO play_table (id, key, name, home, created)
VALUES (1, lower(hex(randomblob(24))), 'home', 1, strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now'));

-- Kept aside first, then put back into the new player: inserting the parents again is what
-- clears SQLite's count of orphaned matches, which a rename would not.
CREATE TEMP TABLE player_old AS SELECT id, name, created FROM player;
DROP TABLE player;
CREATE TABLE player (
    id INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES play_table(id),
    name TEXT NOT NULL,
    created TEXT NOT NULL,
    UNIQUE (table_id, name)
);
INSERT INTO player (id, table_id, name, created) SELECT id, 1, name, created FROM player_old;
DROP TABLE player_old;

CREATE TEMP TABLE preset_old AS SELECT id, name, rules, created FROM preset;
DROP TABLE preset;
CREATE TABLE preset (
    id INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES play_table(id),
    name TEXT NOT NULL,
    rules TEXT NOT NULL,
    created TEXT NOT NULL,
    UNIQUE (table_id, name)
);
INSERT INTO preset (id, table_id, name, rules, created) SELECT id, 1, name, rules, created FROM preset_old;
DROP TABLE preset_old;

-- SQLite adds a REFERENCES column only with a NULL default, so a trigger refuses a match without a table.
ALTER TABLE match ADD COLUMN table_id INTEGER REFERENCES play_table(id);
UPDATE match SET table_id = 1;
CREATE TRIGGER match_needs_table BEFORE INSERT ON match WHEN NEW.table_id IS NULL
BEGIN SELECT RAISE(ABORT, 'a match belongs to a table'); END;
CREATE TRIGGER match_keeps_table BEFORE UPDATE OF table_id ON match WHEN NEW.table_id IS NULL
BEGIN SELECT RAISE(ABORT, 'a match belongs to a table'); END;
CREATE INDEX match_table ON match(table_id, finished);
