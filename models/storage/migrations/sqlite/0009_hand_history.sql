-- Nothing entered is ever lost. A deleted or undone hand keeps its row, marked `deleted`, with its
-- position freed (set to minus its id, which no live hand uses) so the hands after it can move up;
-- restoring it puts it back at the number it had. A deleted match keeps every row too.
-- hand_event is each hand's history: when it was entered and every change, from which device,
-- with the old and new values as match-file keys (JSON). The match file carries none of it;
-- the full backup copies it all.
ALTER TABLE hand ADD COLUMN deleted TEXT;
ALTER TABLE match ADD COLUMN deleted TEXT;
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
CREATE INDEX hand_event_match ON hand_event(match_id, id);
