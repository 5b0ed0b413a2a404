-- Challenges: one signed-in player asks another to a game with options.
-- status: 'open' until answered ('accepted', 'declined', 'cancelled'); an
-- open one past expires_at counts as expired. from_token is the
-- challenger's browser token, needed to seat them in the room made on
-- acceptance; it is blanked as soon as the challenge is answered.
CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    from_account  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    to_account    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game          TEXT NOT NULL,
    options       TEXT NOT NULL,     -- JSON, as GameOptions read them
    rated         INTEGER NOT NULL,
    from_token    TEXT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'open',
    room_code     TEXT,              -- once accepted
    created_at    INTEGER NOT NULL,     -- unix milliseconds
    expires_at    INTEGER NOT NULL,
    answered_at   INTEGER               -- when it stopped being open
);

CREATE INDEX challenges_to ON challenges (to_account, status);
CREATE INDEX challenges_from ON challenges (from_account, status);
