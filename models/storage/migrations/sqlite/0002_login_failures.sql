-- Failed passphrase attempts, kept in the database so every worker sees them.
CREATE TABLE login_failure (
    id INTEGER PRIMARY KEY,
    address TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX login_failure_address ON login_failure(address, at);
