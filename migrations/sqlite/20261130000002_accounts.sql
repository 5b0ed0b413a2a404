-- Free accounts (username + password) and their login sessions.
-- Usernames are ASCII `[A-Za-z0-9_-]`, so NOCASE makes them unique
-- case-insensitively ("Minh" and "minh" are one account).
CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    username      TEXT NOT NULL UNIQUE COLLATE NOCASE,
    display_name  TEXT NOT NULL,
    password_hash TEXT NOT NULL,          -- argon2id PHC string, never sent anywhere
    email         TEXT,                   -- optional, for recovery only
    created_at    INTEGER NOT NULL        -- unix milliseconds
);

-- A session is a browser token bound to an account. Only the SHA-256 of
-- the token is stored, so a copy of the database cannot log anyone in.
CREATE TABLE sessions (
    token_hash  TEXT PRIMARY KEY NOT NULL,  -- hex SHA-256 of the token
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL,
    last_seen   INTEGER NOT NULL
);

CREATE INDEX sessions_by_account ON sessions (account_id);
