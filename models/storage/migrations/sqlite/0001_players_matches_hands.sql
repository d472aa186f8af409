-- Players, matches and hands exactly as entered; no totals anywhere.
-- match.finished is an index, not a score: see models/storage.py refresh_finished.
CREATE TABLE player (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL
);
CREATE TABLE match (
    id INTEGER PRIMARY KEY,
    player1_id INTEGER NOT NULL REFERENCES player(id),
    player2_id INTEGER NOT NULL REFERENCES player(id),
    format TEXT NOT NULL CHECK (format IN ('hollywood', 'single')),
    rules TEXT NOT NULL,
    first_dealer INTEGER NOT NULL CHECK (first_dealer IN (0, 1)),
    created TEXT NOT NULL,
    finished TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    view_token TEXT NOT NULL UNIQUE,
    CHECK (player1_id <> player2_id)
);
CREATE INDEX match_player1 ON match(player1_id);
CREATE INDEX match_player2 ON match(player2_id);
CREATE INDEX match_finished ON match(finished);
CREATE TABLE hand (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('knock', 'draw', 'points')),
    knocker INTEGER CHECK (knocker IN (0, 1)),
    knocker_deadwood INTEGER,
    opponent_deadwood INTEGER,
    big_gin INTEGER,
    upcard TEXT,
    winner INTEGER CHECK (winner IN (0, 1)),
    points INTEGER,
    cards TEXT,
    submission TEXT UNIQUE,
    created TEXT NOT NULL,
    UNIQUE (match_id, position)
);
