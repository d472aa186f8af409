-- Failed passphrase tries are counted per address and per scope (the server's passphrase, each
-- table's): a right passphrase clears only its own scope's count (models/throttle.py).
ALTER TABLE login_failure ADD COLUMN scope TEXT NOT NULL DEFAULT 'server';
CREATE INDEX login_failure_scope ON login_failure(address, scope, at);

-- A login is bound to its passphrase's generation: a changed passphrase starts a new one, and a
-- passphrase changed back is yet another, so it never lets in a login it shut out (models/logins.py).
ALTER TABLE login ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
CREATE TABLE passphrase_generation (
    scope TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    generation INTEGER NOT NULL
) WITHOUT ROWID;

-- New tables per address, for the limit on how many one client may start (models/throttle.py).
CREATE TABLE table_start (
    id INTEGER PRIMARY KEY,
    address TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX table_start_address ON table_start(address, at);
