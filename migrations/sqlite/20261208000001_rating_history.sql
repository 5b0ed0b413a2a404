-- Rating history: each rated player's rating before and after each rated
-- game (server/src/store/ratings.rs writes both rows in the transaction
-- that stores the game and changes `ratings`). The profile's rating graph
-- reads an account's rows per game; the history lists read a game's rows.
CREATE TABLE rating_history (
    game_id           TEXT NOT NULL,      -- games.game_id
    account_id        INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game              TEXT NOT NULL,      -- the game's name (ratings.game)
    side              INTEGER NOT NULL,   -- the side the account played
    ended_at          INTEGER NOT NULL,   -- when the game ended (unix milliseconds)
    rating_before     REAL NOT NULL,
    deviation_before  REAL NOT NULL,      -- as the game rated it (grown by the idle days)
    rating_after      REAL NOT NULL,
    deviation_after   REAL NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
CREATE INDEX rating_history_by_account ON rating_history (account_id, game, ended_at);
