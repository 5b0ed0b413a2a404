//! History queries on the SQLite backend: who played a finished game
//! (`game_players`), a person's games, a room's games, one game.

use serde_json::Value;
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqliteConnection};

use super::records::{FinishedGame, GameRecord};
use super::rows::json;
use super::sqlite::SqliteStore;
use super::StoreResult;
use crate::room::TokenHash;

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

/// The caller's games with the side they played (the first, if several),
/// and the caller's result, as rows `h`, filtered by game and result.
/// (A macro so the queries stay literals.)
macro_rules! mine {
    ($tail:literal) => {
        concat!(
            "
WITH played AS (
    SELECT game_id, side FROM game_players WHERE account_id = ?1
    UNION
    SELECT p.game_id, p.side FROM room_members rm
      JOIN game_players p ON p.room_code = rm.room_code AND p.member = rm.id
     WHERE rm.token_hash = ?2 OR rm.account_id = ?1
), mine AS (
    SELECT game_id, MIN(side) AS side FROM played GROUP BY game_id
), h AS (
    SELECT g.*, CASE json_extract(g.outcome, '$.kind')
        WHEN 'win' THEN CASE WHEN json_extract(g.outcome, '$.winner') = mine.side
                             THEN 'win' ELSE 'loss' END
        WHEN 'draw' THEN 'draw'
        ELSE 'aborted' END AS result
      FROM games g JOIN mine ON mine.game_id = g.game_id
)",
            " SELECT * FROM h WHERE (?3 IS NULL OR game = ?3) AND (?4 IS NULL OR result = ?4)",
            $tail
        )
    };
}

impl SqliteStore {
    /// A page of the games the caller played, newest first.
    pub async fn history(&self, q: &HistoryQuery) -> StoreResult<HistoryPage> {
        let count = concat!("SELECT COUNT(*) FROM (", mine!(""), ")");
        let total: i64 = sqlx::query_scalar(count)
            .bind(q.account)
            .bind(q.token.as_str())
            .bind(&q.game)
            .bind(&q.result)
            .fetch_one(&self.pool)
            .await?;
        let list = mine!(" ORDER BY ended_at DESC, id DESC LIMIT ?5 OFFSET ?6");
        let rows = sqlx::query(list)
            .bind(q.account)
            .bind(q.token.as_str())
            .bind(&q.game)
            .bind(&q.result)
            .bind(PAGE_SIZE)
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
        let row = sqlx::query("SELECT * FROM games WHERE game_id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(record_of))
    }
}

/// A `games` row read back.
pub(super) fn record_of(row: &SqliteRow) -> GameRecord {
    GameRecord {
        id: row.get("game_id"),
        room_code: row.get("room_code"),
        number: row.get::<i64, _>("number") as u32,
        game: row.get("game"),
        options: json(row, "options").unwrap_or(Value::Null),
        players: json(row, "players").unwrap_or_default(),
        moves: json(row, "moves").unwrap_or_default(),
        outcome: json(row, "outcome").unwrap_or(Value::Null),
        started_at: row.get("started_at"),
        ended_at: row.get("ended_at"),
    }
}

/// Records who played each side of a finished game.
pub(super) async fn record_players(
    tx: &mut SqliteConnection,
    code: &str,
    f: &FinishedGame,
) -> StoreResult<()> {
    for (side, team) in f.sides.iter().enumerate() {
        for p in team {
            sqlx::query(
                "INSERT OR IGNORE INTO game_players (game_id, room_code, side, member, account_id)
                 VALUES (?, ?, ?, ?, ?)",
            )
            .bind(f.id.to_string())
            .bind(code)
            .bind(side as i64)
            .bind(p.member.0)
            .bind(p.account)
            .execute(&mut *tx)
            .await?;
        }
    }
    Ok(())
}
