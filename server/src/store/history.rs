//! History queries: who played a finished game
//! (`game_players`), a person's games, a room's games, one game.

use serde_json::Value;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::db::{query, Db};
use super::rows::json;
use super::StoreResult;
use super::{Backend, Store};
use crate::model::records::{FinishedGame, GameRecord};
use crate::model::TokenHash;

/// Games per page of a history.
pub const PAGE_SIZE: u32 = 20;

/// Whose games, and which.
#[derive(Clone, Debug)]
pub struct HistoryQuery {
    /// The caller's account, when their token is a session.
    pub account: Option<i64>,
    /// The caller's browser token.
    pub token: TokenHash,
    /// Only this game (its name).
    pub game: Option<String>,
    /// Only this result for the caller: win, loss, draw or aborted.
    pub result: Option<String>,
    /// From 1.
    pub page: u32,
}

/// One page of a person's history: each game with the caller's result.
#[derive(Clone, Debug)]
pub struct HistoryPage {
    pub games: Vec<(GameRecord, String)>,
    pub total: u64,
}

/// Rows `h` (`game_id`, `game`, `result`, `ended_at`, `seq`): the
/// caller's games with their result, filtered by game and result, then
/// the query `$tail…` over them. The account's games come from
/// `account_games`, which holds each one's result (the side it played
/// first); only the games of the browser's memberships that the account
/// did not record (a guest's, or games before signing in) are read from
/// `games`, their result worked out from the outcome's JSON, which
/// `$dialect` (`sqlite` or `postgres`) reads its own way. A long history
/// is thus an index's narrow rows, and the page's 20 `games` rows are
/// read last. (A macro so the queries stay literals.)
macro_rules! mine {
    (sqlite, $tail:literal) => {
        mine!(@ "json_extract(g.outcome, '$.kind')",
            "json_extract(g.outcome, '$.winner')", $tail)
    };
    (postgres, $tail:literal) => {
        mine!(@ "(g.outcome::jsonb ->> 'kind')",
            "(g.outcome::jsonb ->> 'winner')::bigint", $tail)
    };
    (@ $kind:literal, $winner:literal, $tail:literal) => {
        concat!(
            "
WITH guest AS (
    SELECT p.game_id, MIN(p.side) AS side FROM room_members rm
      JOIN game_players p ON p.room_code = rm.room_code AND p.member = rm.id
     WHERE (rm.token_hash = $2 OR rm.account_id = $1)
       AND NOT EXISTS (SELECT 1 FROM account_games a
                        WHERE a.account_id = $1 AND a.game_id = p.game_id)
     GROUP BY p.game_id
), played AS (
    SELECT game_id, game, result, ended_at, seq FROM account_games WHERE account_id = $1
    UNION ALL
    SELECT g.game_id, g.game, CASE ",
            $kind,
            "
        WHEN 'win' THEN CASE WHEN ",
            $winner,
            " = guest.side THEN 'win' ELSE 'loss' END
        WHEN 'draw' THEN 'draw'
        ELSE 'aborted' END AS result, g.ended_at, g.id AS seq
      FROM games g JOIN guest ON guest.game_id = g.game_id
), h AS (
    SELECT * FROM played WHERE ($3 IS NULL OR game = $3) AND ($4 IS NULL OR result = $4)
) ",
            $tail
        )
    };
}

/// The history's two queries (how many, which) in each dialect.
const COUNT: [&str; 2] = [
    mine!(sqlite, "SELECT COUNT(*) FROM h"),
    mine!(postgres, "SELECT COUNT(*) FROM h"),
];
/// The page's rows of `h`, then their `games` rows.
macro_rules! page {
    ($dialect:ident) => {
        mine!(
            $dialect,
            "SELECT g.*, p.result FROM
    (SELECT * FROM h ORDER BY ended_at DESC, seq DESC LIMIT $5 OFFSET $6) p
    JOIN games g ON g.game_id = p.game_id
    ORDER BY p.ended_at DESC, p.seq DESC"
        )
    };
}
const LIST: [&str; 2] = [page!(sqlite), page!(postgres)];

impl Store {
    /// A page of the games the caller played, newest first.
    pub async fn history(&self, q: &HistoryQuery) -> StoreResult<HistoryPage> {
        let dialect = match self.backend {
            Backend::Sqlite => 0,
            Backend::Postgres => 1,
        };
        let total: i64 = sqlx::query_scalar(COUNT[dialect])
            .bind(q.account)
            .bind(q.token.as_str())
            .bind(&q.game)
            .bind(&q.result)
            .fetch_one(&self.pool)
            .await?;
        let rows = sqlx::query(LIST[dialect])
            .bind(q.account)
            .bind(q.token.as_str())
            .bind(&q.game)
            .bind(&q.result)
            .bind(i64::from(PAGE_SIZE))
            .bind(i64::from(q.page.max(1) - 1) * i64::from(PAGE_SIZE))
            .fetch_all(&self.pool)
            .await?;
        Ok(HistoryPage {
            games: rows
                .iter()
                .map(|row| (record_of(row), row.get("result")))
                .collect(),
            total: total as u64,
        })
    }

    /// Whether a finished game of room `code` may show the room's code to
    /// a reader: the room is listed publicly, or the reader's browser
    /// (`token`) or account was a member of it (knows the code already).
    /// A room code is an invitation: a private room's would let anyone
    /// who reads a profile join it and read its chat.
    pub async fn room_shown_to(
        &self,
        code: &str,
        token: Option<&TokenHash>,
        account: Option<i64>,
    ) -> StoreResult<bool> {
        let public: Option<i64> = sqlx::query_scalar("SELECT public FROM rooms WHERE code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        if public.unwrap_or(0) != 0 {
            return Ok(true);
        }
        if token.is_none() && account.is_none() {
            return Ok(false);
        }
        let member: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM room_members
             WHERE room_code = $1 AND (token_hash = $2 OR account_id = $3) LIMIT 1",
        )
        .bind(code)
        .bind(token.map(|t| t.as_str().to_string()))
        .bind(account)
        .fetch_optional(&self.pool)
        .await?;
        Ok(member.is_some())
    }

    /// One finished game by its id.
    pub async fn game(&self, id: &str) -> StoreResult<Option<GameRecord>> {
        let row = sqlx::query("SELECT * FROM games WHERE game_id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(record_of))
    }
}

/// A `games` row read back.
pub(super) fn record_of(row: &AnyRow) -> GameRecord {
    GameRecord {
        id: row.get("game_id"),
        room_code: row.get("room_code"),
        number: row.get::<i64, _>("number") as u32,
        game: row.get("game"),
        options: json(row, "options").unwrap_or(Value::Null),
        players: json(row, "players").unwrap_or_default(),
        moves: json(row, "moves").unwrap_or_default(),
        leaves: json(row, "leaves").unwrap_or_default(),
        takebacks: json(row, "takebacks").unwrap_or_default(),
        outcome: json(row, "outcome").unwrap_or(Value::Null),
        started_at: row.get("started_at"),
        ended_at: row.get("ended_at"),
    }
}

/// Records who played each side of a finished game.
pub(super) async fn record_players(
    tx: &mut impl Db,
    code: &str,
    f: &FinishedGame,
) -> StoreResult<()> {
    for (side, team) in f.sides.iter().enumerate() {
        for p in team {
            query(
                "INSERT INTO game_players (game_id, room_code, side, member, account_id)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
            )
            .bind(f.id.to_string())
            .bind(code)
            .bind(side as i64)
            .bind(i64::from(p.member.0))
            .bind(p.account)
            .execute(tx)
            .await?;
        }
    }
    // One `account_games` row per account, at the first side it played
    // (the sides go in order, so a later side's row is a conflict).
    for (side, team) in f.sides.iter().enumerate() {
        for account in team.iter().filter_map(|p| p.account) {
            query(
                "INSERT INTO account_games (account_id, game_id, game, side, result, ended_at, seq)
                 SELECT $1, $2, $3, $4, $5, $6, id FROM games WHERE game_id = $2
                 ON CONFLICT DO NOTHING",
            )
            .bind(account)
            .bind(f.id.to_string())
            .bind(f.game.name())
            .bind(side as i64)
            .bind(result_of(&f.outcome, side))
            .bind(f.ended_at as i64)
            .execute(tx)
            .await?;
        }
    }
    Ok(())
}

/// The result of a finished game for the player of `side`, as the
/// history and the profile name it (the `results!` queries' `CASE`).
fn result_of(outcome: &rules::Outcome, side: usize) -> &'static str {
    match outcome {
        rules::Outcome::Win { winner, .. } if winner.index() == side => "win",
        rules::Outcome::Win { .. } => "loss",
        rules::Outcome::Draw { .. } => "draw",
        rules::Outcome::Aborted { .. } => "aborted",
    }
}
