-- Rooms outlive the server process: an invite link keeps working after a
-- restart, the room is reloaded (empty) when someone opens it.
CREATE TABLE rooms (
    code        TEXT PRIMARY KEY NOT NULL,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,            -- JSON, as the game understood them
    host_token  TEXT NOT NULL,            -- the creator's browser token
    created_at  INTEGER NOT NULL          -- unix milliseconds
);

-- Every finished game with every move, for history, replay and export.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    room_code   TEXT NOT NULL REFERENCES rooms(code),
    number      INTEGER NOT NULL,         -- 1, 2, ... within the room
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,            -- JSON
    players     TEXT NOT NULL,            -- JSON array: name per side
    moves       TEXT NOT NULL,            -- JSON array of notation strings
    outcome     TEXT NOT NULL,            -- JSON (rules::Outcome)
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER NOT NULL
);

CREATE INDEX games_by_room ON games (room_code, number);
