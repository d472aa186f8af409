-- Logins with a passphrase, kept on the server: the browser's signed cookie names one row by a
-- random id (only its SHA-256 is stored here), so deleting the row ends the login for every copy of
-- the cookie. `scope` says which passphrase let it in ('server' for FLASK_PASSPHRASE) and `digest`
-- is a keyed digest of that passphrase: when the passphrase changes, the row no longer matches.
CREATE TABLE login (
    id TEXT PRIMARY KEY,
    scope TEXT NOT NULL,
    digest TEXT NOT NULL,
    made_at REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX login_made_at ON login(made_at);
