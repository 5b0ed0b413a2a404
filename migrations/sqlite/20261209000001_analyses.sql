-- Analyses of finished games (and of imported ones): the engine's
-- judgement of every position, appended as a worker goes. A job is the
-- game itself (game, options, moves, leaves copied in), so an imported
-- game needs nothing else. status: 'queued', 'running' (claim names the
-- node whose worker holds it until lease_until), 'done'. positions is a
-- JSON array, positions[n] the position after n moves; analysed counts
-- them. requested_by is the client address (its bucket) that asked.
CREATE TABLE analyses (
    id            TEXT PRIMARY KEY,      -- the game's id, or i + a hash
    game          TEXT NOT NULL,
    options       TEXT NOT NULL,         -- JSON
    moves         TEXT NOT NULL,         -- JSON array of moves
    leaves        TEXT NOT NULL,         -- JSON array of leaves
    total         INTEGER NOT NULL,      -- positions to judge
    positions     TEXT NOT NULL DEFAULT '[]',
    analysed      INTEGER NOT NULL DEFAULT 0,
    status        TEXT NOT NULL DEFAULT 'queued',
    claim         TEXT,
    lease_until   INTEGER NOT NULL DEFAULT 0,
    requested_by  TEXT NOT NULL,
    requested_at  INTEGER NOT NULL,      -- unix milliseconds
    updated_at    INTEGER NOT NULL
);

CREATE INDEX analyses_waiting ON analyses (status, requested_at);
CREATE INDEX analyses_by ON analyses (requested_by, status);
