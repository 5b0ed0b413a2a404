-- A member the host removed from the room: their browser token (and
-- account) is refused at `hello` until the host lets them back in. The
-- row stays, so their games stay in their history.
ALTER TABLE room_members ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
