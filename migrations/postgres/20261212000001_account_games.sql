-- An account's finished games, one row per game, written with the game
-- (store/write.rs, finish_game): the side it played (the first, if it
-- played several), its result there, and when the game ended. A profile
-- reads its tallies and its page of recent games from here, without
-- reading every `games` row of the account. seq is games.id, the order of
-- games that ended in the same millisecond.
CREATE TABLE account_games (
    account_id  BIGINT NOT NULL,
    game_id     TEXT NOT NULL,
    game        TEXT NOT NULL,
    side        BIGINT NOT NULL,
    result      TEXT NOT NULL,               -- win, loss, draw or aborted
    ended_at    BIGINT NOT NULL,
    seq         BIGINT NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
-- Covering: a history's page and count read the index alone.
CREATE INDEX account_games_recent
    ON account_games (account_id, ended_at, seq, game, result, game_id);
CREATE INDEX account_games_tally ON account_games (account_id, game, result);

INSERT INTO account_games (account_id, game_id, game, side, result, ended_at, seq)
SELECT m.account_id, g.game_id, g.game, m.side,
       CASE (g.outcome::jsonb ->> 'kind')
           WHEN 'win' THEN CASE WHEN (g.outcome::jsonb ->> 'winner')::bigint = m.side
                                THEN 'win' ELSE 'loss' END
           WHEN 'draw' THEN 'draw'
           ELSE 'aborted' END,
       g.ended_at, g.id
  FROM (SELECT account_id, game_id, MIN(side) AS side FROM game_players
         WHERE account_id IS NOT NULL GROUP BY account_id, game_id) m
  JOIN games g ON g.game_id = m.game_id;
