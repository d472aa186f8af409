-- The file's epoch (models/connection.py): every kept thing is keyed by it beside a match's version.
CREATE TABLE epoch (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    value TEXT NOT NULL
);
INSERT INTO epoch (id, value) VALUES (1, lower(hex(randomblob(8))));

-- Every hand, deleted or not, keeps a place in one order of its match (models/hand_rows.py): a
-- deleted hand keeps its place between the deals around it, so a restore puts it back where it
-- was played, and an insert never moves it past another hand. Before this migration a deleted
-- hand's position was minus its id; it goes back just before the live hand that has its number
-- now (the number its last delete or undo recorded), or after the last.
CREATE TEMP TABLE hand_place AS
WITH live AS (
    SELECT id, match_id, ROW_NUMBER() OVER (PARTITION BY match_id ORDER BY position) AS rank
    FROM hand WHERE deleted IS NULL
), counts AS (
    SELECT match_id, COUNT(*) AS live_count FROM live GROUP BY match_id
), gone AS (
    SELECT h.id, h.match_id,
           MIN(MAX(COALESCE((SELECT e.number FROM hand_event e
                             WHERE e.hand_id = h.id AND e.action IN ('deleted', 'undone')
                             ORDER BY e.id DESC LIMIT 1), 1), 1),
               COALESCE(c.live_count, 0) + 1) AS slot
    FROM hand h LEFT JOIN counts c ON c.match_id = h.match_id
    WHERE h.deleted IS NOT NULL
)
SELECT id, rank * 1024 AS place FROM live
UNION ALL
SELECT id, slot * 1024 - 512 + ROW_NUMBER() OVER (PARTITION BY match_id, slot ORDER BY id) AS place FROM gone;

UPDATE hand SET position = -1000000000 - id;
UPDATE hand SET position = (SELECT place FROM hand_place WHERE hand_place.id = hand.id);
DROP TABLE hand_place;
