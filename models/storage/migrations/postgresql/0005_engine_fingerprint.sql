-- The engine that last computed every match's `finished` index (models/finished.py).
CREATE TABLE engine (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    fingerprint TEXT COLLATE "C" NOT NULL
);
