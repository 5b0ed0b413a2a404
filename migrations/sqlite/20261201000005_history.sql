-- History: who played each side of a finished game, so a person's games
-- can be listed (by account, or by their member in the room).
ALTER TABLE games ADD COLUMN sides TEXT;     -- JSON: per side, [{"member":"m3","account":12|null}, …]

CREATE TABLE game_players (
    game_id     TEXT NOT NULL,               -- games.game_id (UUID v7)
    room_code   TEXT NOT NULL,
    side        INTEGER NOT NULL,
    member      INTEGER NOT NULL,            -- room_members.id in room_code
    account_id  INTEGER,                     -- the member's account when the game ended
    PRIMARY KEY (game_id, side, member)
);
CREATE INDEX game_players_by_account ON game_players (account_id);
CREATE INDEX game_players_by_member ON game_players (room_code, member);
CREATE INDEX games_by_game_id ON games (game_id);
CREATE INDEX games_by_ended ON games (ended_at);
-- A guest's games are found by their browser token's members, an
-- account's also by the members attached to it.
CREATE INDEX room_members_by_token_only ON room_members (token_hash);
CREATE INDEX room_members_by_account ON room_members (account_id);
