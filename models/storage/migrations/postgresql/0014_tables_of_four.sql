-- Tables of three and four, step for step with sqlite/0014_tables_of_four.sql: seats 3 and 4, the
-- first dealer's seat, hand seats 0..3 and kind 'boards', and the boards of a deal of partners.
ALTER TABLE match ADD COLUMN player3_id BIGINT REFERENCES player(id);
ALTER TABLE match ADD COLUMN player4_id BIGINT REFERENCES player(id);
ALTER TABLE match ADD COLUMN first_seat BIGINT CHECK (first_seat BETWEEN 0 AND 3);
ALTER TABLE hand DROP CONSTRAINT hand_kind_check;
ALTER TABLE hand DROP CONSTRAINT hand_knocker_check;
ALTER TABLE hand DROP CONSTRAINT hand_winner_check;
ALTER TABLE hand ADD CONSTRAINT hand_kind_check CHECK (kind IN ('knock', 'draw', 'points', 'boards'));
ALTER TABLE hand ADD CONSTRAINT hand_knocker_check CHECK (knocker BETWEEN 0 AND 3);
ALTER TABLE hand ADD CONSTRAINT hand_winner_check CHECK (winner BETWEEN 0 AND 3);
CREATE TABLE board (
    hand_id BIGINT NOT NULL REFERENCES hand(id) ON DELETE CASCADE,
    board BIGINT NOT NULL CHECK (board IN (1, 2)),
    kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('knock', 'draw', 'points')),
    knocker BIGINT CHECK (knocker BETWEEN 0 AND 3),
    knocker_deadwood BIGINT,
    opponent_deadwood BIGINT,
    big_gin BIGINT,
    upcard TEXT COLLATE "C",
    winner BIGINT CHECK (winner BETWEEN 0 AND 3),
    points BIGINT,
    cards TEXT COLLATE "C",
    PRIMARY KEY (hand_id, board)
);
