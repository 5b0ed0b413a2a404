-- Email recovery. An account's `email` is used for recovery only once
-- confirmed through a link sent to it (0 or 1).
ALTER TABLE accounts ADD COLUMN email_confirmed INTEGER NOT NULL DEFAULT 0;

-- One-time links sent by email: 'confirm' (an address to confirm, in
-- `email`) and 'recover' (a password reset, sent to `email`). Only the
-- SHA-256 of the link's token is kept; a token is deleted when used.
CREATE TABLE email_tokens (
    token_hash  TEXT PRIMARY KEY NOT NULL,
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    purpose     TEXT NOT NULL,
    email       TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
);

CREATE INDEX email_tokens_by_account ON email_tokens (account_id, purpose, created_at);
