-- Logins with a passphrase, kept on the server (models/logins.py).
CREATE TABLE login (
    id TEXT COLLATE "C" PRIMARY KEY,
    scope TEXT COLLATE "C" NOT NULL,
    digest TEXT COLLATE "C" NOT NULL,
    made_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX login_made_at ON login(made_at);
