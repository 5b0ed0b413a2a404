-- Room leases: which server node owns a live room, with a fencing token
-- that goes up on every take (see server/src/store/lease.rs). One SQLite
-- node never needs them, but the table is the same on both databases so
-- the store's tests run the same on both.
CREATE TABLE room_leases (
    room_code   TEXT PRIMARY KEY NOT NULL,
    node        TEXT NOT NULL,             -- the owning node's id
    token       INTEGER NOT NULL,          -- the fencing token
    expires_at  INTEGER NOT NULL           -- unix milliseconds
);
