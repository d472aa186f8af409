-- match.finished is an index over the fold (the home page lists and orders by it), not a
-- score. This one row names the engine that last computed it; a start with a different
-- engine recomputes every match's finished (models/storage.py refresh_finished).
CREATE TABLE engine (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    fingerprint TEXT NOT NULL
);
