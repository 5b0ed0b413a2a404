-- Coins: the balance, the daily check-in (the UTC day number of the last
-- one and the streak of consecutive days), and the ledger: every change of
-- a balance is a row, written in the same transaction as the balance, so
-- the rows of an account always sum to its balance.
ALTER TABLE accounts ADD COLUMN coins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN checkin_day INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN checkin_streak INTEGER NOT NULL DEFAULT 0;

CREATE TABLE coin_ledger (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    delta       INTEGER NOT NULL,      -- coins added (> 0) or spent (< 0)
    reason      TEXT NOT NULL,    -- 'checkin DAY' or 'buy ITEM': each once per account
    balance     INTEGER NOT NULL,      -- the balance after this row
    at          INTEGER NOT NULL       -- unix milliseconds
);

CREATE UNIQUE INDEX coin_ledger_once ON coin_ledger (account_id, reason);
