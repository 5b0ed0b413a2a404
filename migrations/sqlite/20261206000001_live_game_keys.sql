-- A live game's moves are keyed by a short integer (`game_key`, the
-- game's rowid) instead of its 36-character id. The `(game_id, seq)`
-- index put only two or three games' moves on a 4 KiB page, so a batch
-- of moves from many rooms dirtied (and wrote to the WAL) about a page a
-- move, and the rows themselves, in the order they came, mixed every
-- game's moves on every page, so deleting a finished game's log dirtied
-- a page a move again. Now the rows are stored in key order (WITHOUT
-- ROWID): a game's moves sit together, its next move goes on its own
-- page and its log goes with a page or two. About a third fewer WAL
-- writes a move in `bench many-rooms` (BENCHMARKS.md, "fifth part").
CREATE TABLE live_games_keyed (
    game_key    INTEGER PRIMARY KEY,       -- the rowid
    id          TEXT NOT NULL UNIQUE,      -- UUID v7
    room_code   TEXT NOT NULL REFERENCES rooms(code),
    table_id    TEXT NOT NULL,
    number      INTEGER NOT NULL,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,             -- JSON
    sides       TEXT NOT NULL,             -- JSON: players per side
    play_order  TEXT NOT NULL,             -- "random" or "seats"
    started_at  INTEGER NOT NULL
);
INSERT INTO live_games_keyed
    (id, room_code, table_id, number, game, options, sides, play_order, started_at)
SELECT id, room_code, table_id, number, game, options, sides, play_order, started_at
FROM live_games ORDER BY started_at, id;

CREATE TABLE live_entries_keyed (
    game_key INTEGER NOT NULL REFERENCES live_games_keyed(game_key),
    seq      INTEGER NOT NULL,
    entry    TEXT NOT NULL,                -- JSON
    clock    TEXT NOT NULL,                -- JSON: ms left per side
    turn     TEXT NOT NULL,                -- JSON: team rotation
    PRIMARY KEY (game_key, seq)
) WITHOUT ROWID;
INSERT INTO live_entries_keyed (game_key, seq, entry, clock, turn)
SELECT g.game_key, e.seq, e.entry, e.clock, e.turn
FROM live_entries e JOIN live_games_keyed g ON g.id = e.game_id;

DROP TABLE live_entries;
DROP TABLE live_games;
ALTER TABLE live_games_keyed RENAME TO live_games;
ALTER TABLE live_entries_keyed RENAME TO live_entries;
CREATE UNIQUE INDEX live_games_by_room ON live_games (room_code, number);
