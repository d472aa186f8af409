-- Tables of three and four (models/game/tables/): a match seats up to four players, in seat order
-- player1..player4 (seats 0..3); a hand's knocker and winner are seats 0..3, and a deal of partners
-- is one hand row of kind 'boards' whose two boards, as entered, are rows of `board` (board 1, 2).
-- A match of two reads exactly as before: its seats 3 and 4 are NULL and it has no board rows.
-- match.first_dealer stays the seat 0 or 1 of a table of two; `first_seat` names the first dealer
-- at a table of three or four (any seat), NULL at a table of two.
-- SQLite cannot change a CHECK, so hand is rebuilt with its ids, and hand_event (which refers to
-- it and would lose its rows to the drop's cascade) is kept aside and put back with its ids too.
PRAGMA defer_foreign_keys = ON;
ALTER TABLE match ADD COLUMN player3_id INTEGER REFERENCES player(id);
ALTER TABLE match ADD COLUMN player4_id INTEGER REFERENCES player(id);
ALTER TABLE match ADD COLUMN first_seat INTEGER CHECK (first_seat BETWEEN 0 AND 3);

CREATE TEMP TABLE hand_event_old AS SELECT * FROM hand_event;
CREATE TEMP TABLE hand_old AS SELECT * FROM hand;
DROP TABLE hand_event;
DROP TABLE hand;
CREATE TABLE hand (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('knock', 'draw', 'points', 'boards')),
    knocker INTEGER CHECK (knocker BETWEEN 0 AND 3),
    knocker_deadwood INTEGER,
    opponent_deadwood INTEGER,
    big_gin INTEGER,
    upcard TEXT,
    winner INTEGER CHECK (winner BETWEEN 0 AND 3),
    points INTEGER,
    cards TEXT,
    submission TEXT UNIQUE,
    created TEXT NOT NULL,
    deleted TEXT,
    UNIQUE (match_id, position)
);
INSERT INTO hand (id, match_id, position, kind, knocker, knocker_deadwood, opponent_deadwood, big_gin, upcard,
                  winner, points, cards, submission, created, deleted)
SELECT id, match_id, position, kind, knocker, knocker_deadwood, opponent_deadwood, big_gin, upcard,
       winner, points, cards, submission, created, deleted FROM hand_old;
CREATE TABLE hand_event (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    hand_id INTEGER NOT NULL REFERENCES hand(id) ON DELETE CASCADE,
    action TEXT NOT NULL CHECK (action IN ('entered', 'inserted', 'changed', 'deleted', 'undone', 'restored')),
    number INTEGER NOT NULL,
    device TEXT NOT NULL DEFAULT '',
    at TEXT NOT NULL,
    old TEXT,
    new TEXT
);
INSERT INTO hand_event (id, match_id, hand_id, action, number, device, at, old, new)
SELECT id, match_id, hand_id, action, number, device, at, old, new FROM hand_event_old;
CREATE INDEX hand_event_match ON hand_event(match_id, id);
DROP TABLE hand_event_old;
DROP TABLE hand_old;

-- A board of a deal of partners, as entered: a hand of two's columns, its knocker and winner seats.
CREATE TABLE board (
    hand_id INTEGER NOT NULL REFERENCES hand(id) ON DELETE CASCADE,
    board INTEGER NOT NULL CHECK (board IN (1, 2)),
    kind TEXT NOT NULL CHECK (kind IN ('knock', 'draw', 'points')),
    knocker INTEGER CHECK (knocker BETWEEN 0 AND 3),
    knocker_deadwood INTEGER,
    opponent_deadwood INTEGER,
    big_gin INTEGER,
    upcard TEXT,
    winner INTEGER CHECK (winner BETWEEN 0 AND 3),
    points INTEGER,
    cards TEXT,
    PRIMARY KEY (hand_id, board)
);
