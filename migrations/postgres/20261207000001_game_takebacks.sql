-- Moves taken back during a finished game, and after how many of its
-- standing moves: JSON, in order, [{"ply":2,"moves":["8 a3-a4","8 g7-g6"]}, …]
-- (`moves` holds only the moves that stood). NULL for games stored before
-- this column, and read as none. The replay and the move list show them.
ALTER TABLE games ADD COLUMN takebacks TEXT;
