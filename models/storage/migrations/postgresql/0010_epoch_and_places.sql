-- The database's epoch (models/connection.py): every kept thing is keyed by it beside a match's version.
CREATE TABLE epoch (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    value TEXT COLLATE "C" NOT NULL
);
INSERT INTO epoch (id, value) VALUES (1, left(replace(gen_random_uuid()::text, '-', ''), 16));

-- Every hand, deleted or not, keeps a place in one order of its match (models/hand_rows.py); a
-- deleted hand's old position (minus its id) goes back just before the live hand that has its
-- number now, or after the last, as in the SQLite migration.
CREATE TEMP TABLE hand_place ON COMMIT DROP AS
WITH live AS (
    SELECT id, match_id, ROW_NUMBER() OVER (PARTITION BY match_id ORDER BY position) AS rank
    FROM hand WHERE deleted IS NULL
), counts AS (
    SELECT match_id, COUNT(*) AS live_count FROM live GROUP BY match_id
), gone AS (
    SELECT h.id, h.match_id,
           LEAST(GREATEST(COALESCE((SELECT e.number FROM hand_event e
                                    WHERE e.hand_id = h.id AND e.action IN ('deleted', 'undone')
                                    ORDER BY e.id DESC LIMIT 1), 1), 1),
                 COALESCE(c.live_count, 0) + 1) AS slot
    FROM hand h LEFT JOIN counts c ON c.match_id = h.match_id
    WHERE h.deleted IS NOT NULL
)
SELECT id, rank * 1024 AS place FROM live
UNION ALL
SELECT id, slot * 1024 - 512 + ROW_NUMBER() OVER (PARTITION BY match_id, slot ORDER BY id) AS place FROM gone;

UPDATE hand SET position = (SELECT place FROM hand_place WHERE hand_place.id = hand.id);
