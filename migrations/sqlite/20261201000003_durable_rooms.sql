-- Durable rooms: members, seats, host, options, auto-start, scoreboard,
-- the chat tail and the games in progress outlive the process (a crash, a
-- restart or an idle unload), and game numbers keep counting.

-- The host is known by the SHA-256 of their browser token, never the token
-- itself (the server moves existing plain tokens here when it opens the
-- database, and blanks `host_token`).
ALTER TABLE rooms ADD COLUMN host_hash TEXT;
ALTER TABLE rooms ADD COLUMN autostart INTEGER NOT NULL DEFAULT 1;
ALTER TABLE rooms ADD COLUMN games_played INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rooms ADD COLUMN next_member INTEGER NOT NULL DEFAULT 1;
ALTER TABLE rooms ADD COLUMN table_id TEXT;

-- Game numbers restarted at 1 after a restart before this migration:
-- renumber each room's games in the order they were stored, then make a
-- repeat impossible.
DROP INDEX games_by_room;
UPDATE games SET number = (
    SELECT COUNT(*) FROM games AS g2
    WHERE g2.room_code = games.room_code AND g2.id <= games.id);
CREATE UNIQUE INDEX games_by_room ON games (room_code, number);
UPDATE rooms SET games_played = (
    SELECT COUNT(*) FROM games WHERE games.room_code = rooms.code);
ALTER TABLE games ADD COLUMN game_id TEXT;   -- UUID v7

CREATE TABLE room_members (
    room_code     TEXT NOT NULL REFERENCES rooms(code),
    id            INTEGER NOT NULL,       -- m<id> on the wire
    token_hash    TEXT,                   -- hex SHA-256 of the browser token; NULL for the computer
    name          TEXT,
    seat          INTEGER,
    host          INTEGER NOT NULL,
    computer      TEXT,                   -- the computer's level
    account_id    INTEGER,
    account_name  TEXT,
    display_name  TEXT,
    PRIMARY KEY (room_code, id)
);
CREATE INDEX room_members_by_token ON room_members (room_code, token_hash);

CREATE TABLE room_scores (
    room_code  TEXT NOT NULL REFERENCES rooms(code),
    person     TEXT NOT NULL,             -- a:<account id> or m:<member id>
    name       TEXT NOT NULL,             -- as of the person's last game
    account    TEXT,
    points     INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    losses     INTEGER NOT NULL,
    PRIMARY KEY (room_code, person)
);

-- The last 50 lines per room.
CREATE TABLE room_chat (
    room_code  TEXT NOT NULL REFERENCES rooms(code),
    seq        INTEGER NOT NULL,
    member     INTEGER NOT NULL,
    name       TEXT NOT NULL,
    text       TEXT NOT NULL,
    at         INTEGER NOT NULL,
    PRIMARY KEY (room_code, seq)
);

-- The current or last game of each table: how it started, and its log
-- (moves, timeouts, forfeits, turn passes) with the clocks as of each
-- entry. A finished game is also recorded in `games`; its log stays here
-- until the table's next game starts, so a reloaded room shows it.
CREATE TABLE live_games (
    id          TEXT PRIMARY KEY NOT NULL, -- UUID v7
    room_code   TEXT NOT NULL REFERENCES rooms(code),
    table_id    TEXT NOT NULL,
    number      INTEGER NOT NULL,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,             -- JSON
    sides       TEXT NOT NULL,             -- JSON: players per side
    play_order  TEXT NOT NULL,             -- "random" or "seats"
    started_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX live_games_by_room ON live_games (room_code, number);

CREATE TABLE live_entries (
    game_id  TEXT NOT NULL REFERENCES live_games(id),
    seq      INTEGER NOT NULL,
    entry    TEXT NOT NULL,                -- JSON
    clock    TEXT NOT NULL,                -- JSON: ms left per side
    turn     TEXT NOT NULL,                -- JSON: team rotation
    PRIMARY KEY (game_id, seq)
);
