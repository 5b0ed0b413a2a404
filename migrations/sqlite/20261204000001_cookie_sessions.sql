-- Sessions move from the browser token (which page scripts can read, in
-- localStorage) to a secret of their own that travels only in an HttpOnly
-- cookie. The old sessions were bound to readable tokens, so they end
-- here: everyone signs in once more.
DROP TABLE sessions;

CREATE TABLE sessions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- shown on the account page
    token_hash  TEXT NOT NULL UNIQUE,               -- hex SHA-256 of the cookie's secret
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    agent       TEXT NOT NULL,                      -- the browser's User-Agent, shortened
    created_at  INTEGER NOT NULL,                   -- unix milliseconds
    last_seen   INTEGER NOT NULL                    -- a session unused for 30 days is over
);

CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE INDEX sessions_by_last_seen ON sessions (last_seen);

-- A solo room (a game against the computer, which a guest may create):
-- only its host sits. 0 or 1.
ALTER TABLE rooms ADD COLUMN solo INTEGER NOT NULL DEFAULT 0;
