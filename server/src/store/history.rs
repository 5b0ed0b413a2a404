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

/// Rows `h`: the games of the CTE `mine` (`game_id`, `side`), which the
/// `WITH` list `$with` defines, each with the result for that side (win,
/// loss, draw or aborted), then the query `$tail…` over them. `$dialect`
/// (`sqlite` or `postgres`) picks how the outcome's JSON is read, which
/// each database spells its own way. (A macro so the queries stay
/// literals.) The history and the profile both count results this way.
macro_rules! results {
    ($with:literal, sqlite, $($tail:literal),*) => {
        results!(@ $with, "json_extract(g.outcome, '$.kind')",
            "json_extract(g.outcome, '$.winner')", $($tail),*)
    };
    ($with:literal, postgres, $($tail:literal),*) => {
        results!(@ $with, "(g.outcome::jsonb ->> 'kind')",
            "(g.outcome::jsonb ->> 'winner')::bigint", $($tail),*)
    };
    (@ $with:literal, $kind:literal, $winner:literal, $($tail:literal),*) => {
        concat!(
            "
WITH ",
            $with,
            ", h AS (
    SELECT g.*, CASE ",
            $kind,
            "
        WHEN 'win' THEN CASE WHEN ",
            $winner,
            " = mine.side THEN 'win' ELSE 'loss' END
        WHEN 'draw' THEN 'draw'
        ELSE 'aborted' END AS result
      FROM games g JOIN mine ON mine.game_id = g.game_id
)",
            $($tail),*
        )
    };
}
pub(super) use results;

/// The caller's games with the side they played (the first, if several):
/// those of their account and of their browser's memberships, filtered
/// by game and result.
macro_rules! mine {
    ($dialect:ident, $tail:literal) => {
        results!(
            "played AS (
    SELECT game_id, side FROM game_players WHERE account_id = $1
    UNION
    SELECT p.game_id, p.side FROM room_members rm
      JOIN game_players p ON p.room_code = rm.room_code AND p.member = rm.id
     WHERE rm.token_hash = $2 OR rm.account_id = $1
), mine AS (
    SELECT game_id, MIN(side) AS side FROM played GROUP BY game_id
)",
            $dialect,
            " SELECT * FROM h WHERE ($3 IS NULL OR game = $3) AND ($4 IS NULL OR result = $4)",
            $tail
        )
    };
}

/// The history's two queries (how many, which) in each dialect.
const COUNT: [&str; 2] = [
    concat!("SELECT COUNT(*) FROM (", mine!(sqlite, ""), ") AS n"),
    concat!("SELECT COUNT(*) FROM (", mine!(postgres, ""), ") AS n"),
];
const LIST: [&str; 2] = [
    mine!(
        sqlite,
        " ORDER BY ended_at DESC, id DESC LIMIT $5 OFFSET $6"
    ),
    mine!(
        postgres,
        " ORDER BY ended_at DESC, id DESC LIMIT $5 OFFSET $6"
    ),
];

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
    Ok(())
}
