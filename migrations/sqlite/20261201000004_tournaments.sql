-- Knockout tournaments: the bracket of a room's tournament (under way or
-- the last one), as JSON. Its matches are ordinary games at their own
-- tables (`live_games`, `games`).
ALTER TABLE rooms ADD COLUMN tournament TEXT;
