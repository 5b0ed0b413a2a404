-- Rating history: each rated player's rating before and after each rated
-- game (server/src/store/ratings.rs writes both rows in the transaction
-- that stores the game and changes `ratings`). The profile's rating graph
-- reads an account's rows per game; the history lists read a game's rows.
CREATE TABLE rating_history (
    game_id           TEXT NOT NULL,      -- games.game_id
    account_id        BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game              TEXT NOT NULL,      -- the game's name (ratings.game)
    side              BIGINT  NOT NULL,   -- the side the account played
    ended_at          BIGINT  NOT NULL,   -- when the game ended (unix milliseconds)
    rating_before     DOUBLE PRECISION NOT NULL,
    deviation_before  DOUBLE PRECISION NOT NULL,      -- as the game rated it (grown by the idle days)
    rating_after      DOUBLE PRECISION NOT NULL,
    deviation_after   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
CREATE INDEX rating_history_by_account ON rating_history (account_id, game, ended_at);
