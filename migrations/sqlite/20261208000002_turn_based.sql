-- Turn-based games (days per move). A live game's deadline for the move
-- due (Unix ms; NULL for a live-clock game or once over) and the player it
-- waits for (account and browser token hash), written with each change, so
-- the sweeper finds a passed deadline with nobody connected and the "your
-- turn" list is read without loading rooms.
ALTER TABLE live_games ADD COLUMN deadline INTEGER;
ALTER TABLE live_games ADD COLUMN due_account INTEGER;
ALTER TABLE live_games ADD COLUMN due_token TEXT;
ALTER TABLE live_games ADD COLUMN due_since INTEGER;  -- when the turn began
CREATE INDEX live_games_deadline ON live_games (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX live_games_due_account ON live_games (due_account) WHERE due_account IS NOT NULL;
CREATE INDEX live_games_due_token ON live_games (due_token) WHERE due_token IS NOT NULL;

-- The "your turn" email: on or off (0 or 1), and when the last one went.
ALTER TABLE accounts ADD COLUMN turn_mail INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN turn_mailed_at INTEGER;

-- Unsubscribe links, one per mail sent: only the SHA-256 of the token.
CREATE TABLE unsubscribe_tokens (
    token_hash  TEXT PRIMARY KEY NOT NULL,
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL
);
