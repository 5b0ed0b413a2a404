-- Who left a finished game before it ended, and when: JSON, the forfeits
-- in order, [{"ply":7,"sides":[2],"reason":"abandon"}, …] (ply = moves
-- played before the leave). NULL for games stored before this column, and
-- read as no leaves. A replay removes the leaving pawns there, so a
-- Quoridor game of 3+ pawns in which someone left replays to its end.
ALTER TABLE games ADD COLUMN leaves TEXT;
