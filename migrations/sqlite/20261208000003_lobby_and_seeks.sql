-- Public rooms and quick pairing (server/src/lobby/).
-- The host lists a room publicly (the `public` command).
ALTER TABLE rooms ADD COLUMN public INTEGER NOT NULL DEFAULT 0;

-- A public room's summary for the lobby, written by the room's task when
-- it changes (Write::Lobby): a row while the room is public, not solo,
-- and someone is online in it; any node lists rooms from here.
CREATE TABLE lobby_rooms (
    code        TEXT PRIMARY KEY NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,      -- the room's options (JSON)
    seats       INTEGER NOT NULL,
    free        INTEGER NOT NULL,      -- seats nobody sits in
    running     INTEGER NOT NULL,      -- a game is under way
    players     TEXT NOT NULL,      -- JSON: [{name, rating, computer}] in seat order
    updated_at  INTEGER NOT NULL       -- unix milliseconds
);
CREATE INDEX lobby_rooms_open ON lobby_rooms (free, updated_at);

-- Open seeks (quick pairing). A row lives while its socket does: the
-- node that holds the socket renews `heartbeat`, and a row whose
-- heartbeat is older than the seek TTL is ignored and swept, so a node's
-- crash leaves no ghost. Paired rows carry `partner` (the other seek's
-- id) until their node has told its seeker.
CREATE TABLE seeks (
    id          TEXT PRIMARY KEY NOT NULL,  -- UUID v7
    node        TEXT NOT NULL,              -- the node holding the socket ('' on one node)
    game        TEXT NOT NULL,
    preset      TEXT NOT NULL,
    rated       INTEGER NOT NULL,
    account_id  INTEGER,                       -- signed in (NULL: a guest)
    token_hash  TEXT NOT NULL,              -- the browser (SHA-256 of its token)
    rating      INTEGER NOT NULL,              -- the seeker's rating at the game (1500 for a guest)
    range_lo    INTEGER NOT NULL,              -- opponents rated from range_lo…
    range_hi    INTEGER NOT NULL,              -- …to range_hi
    created_at  INTEGER NOT NULL,
    heartbeat   INTEGER NOT NULL,
    partner     TEXT,                       -- the seek it was paired with
    room        TEXT                        -- the room made for the pair, once made
);
CREATE INDEX seeks_open ON seeks (game, preset, rated, created_at);
CREATE INDEX seeks_by_node ON seeks (node);
