-- Cosmetics: what an account bought (each item once; the coins and the
-- ledger row 'buy ITEM' are written in the same transaction) and what it
-- chose for each slot (a game's board theme, Jungle's piece style). The
-- free default items are neither stored as bought nor needed as chosen.
CREATE TABLE cosmetics_owned (
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    item        TEXT NOT NULL,
    bought_at   INTEGER NOT NULL,      -- unix milliseconds
    PRIMARY KEY (account_id, item)
);

CREATE TABLE cosmetics_chosen (
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    slot        TEXT NOT NULL,         -- 'crossyray_board', 'jungle_pieces', ...
    item        TEXT NOT NULL,
    PRIMARY KEY (account_id, slot)
);
