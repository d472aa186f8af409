-- Rule presets a table saved for itself, beside Classic and Modern.
CREATE TABLE preset (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    rules TEXT NOT NULL,
    created TEXT NOT NULL
);
