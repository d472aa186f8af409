-- Money per point, kept as exact decimal text (never a float), and its symbol.
ALTER TABLE match ADD COLUMN stake TEXT;
ALTER TABLE match ADD COLUMN currency TEXT;
