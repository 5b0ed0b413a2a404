-- Glicko-2 ratings per account and game (server/src/ratings.rs), changed
-- in the transaction that stores the rated game. A room's host marks it
-- rated (rooms.rated); a finished game says whether it was (games.rated).
CREATE TABLE ratings (
    account_id  BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game        TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL,   -- rated games played
    last_at     BIGINT NOT NULL,   -- when the last one ended (unix milliseconds)
    PRIMARY KEY (account_id, game)
);
CREATE INDEX ratings_by_game ON ratings (game, rating);

ALTER TABLE rooms ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
