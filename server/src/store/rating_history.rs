//! The `rating_history` table: each rated player's rating before and after
//! each rated game, written with the rating change itself
//! (`ratings.rs`, `rate_game`). An account's rows per game are its rating
//! graph; a game's rows are the changes the history lists show.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Store, StoreResult};

/// An account's rating graph has at most this many points: its latest
/// rated games.
pub const RATING_POINTS: u32 = 500;

/// One rated player's rating change in one rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub game_id: String,
    pub account_id: i64,
    /// The game's name.
    pub game: String,
    /// The side the account played.
    pub side: u32,
    /// When the game ended (Unix ms).
    pub ended_at: u64,
    pub rating_before: f64,
    /// As the game rated it: grown by the idle days since the last one.
    pub deviation_before: f64,
    pub rating_after: f64,
    pub deviation_after: f64,
}

fn change_of(row: &AnyRow) -> RatingChange {
    RatingChange {
        game_id: row.get("game_id"),
        account_id: row.get("account_id"),
        game: row.get("game"),
        side: row.get::<i64, _>("side") as u32,
        ended_at: row.get::<i64, _>("ended_at") as u64,
        rating_before: row.get("rating_before"),
        deviation_before: row.get("deviation_before"),
        rating_after: row.get("rating_after"),
        deviation_after: row.get("deviation_after"),
    }
}

/// The games one call of [`Store::rating_changes`] looks up at most (a
/// history page has 20).
const MAX_IDS: usize = 100;

impl Store {
    /// The account's latest `limit` rating changes at `game`, oldest
    /// first, and how many it has in all.
    pub async fn rating_history(
        &self,
        account: i64,
        game: &str,
        limit: u32,
    ) -> StoreResult<(Vec<RatingChange>, u64)> {
        let total: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM rating_history WHERE account_id = $1 AND game = $2",
        )
        .bind(account)
        .bind(game)
        .fetch_one(&self.pool)
        .await?;
        let rows = sqlx::query(
            "SELECT * FROM rating_history WHERE account_id = $1 AND game = $2
              ORDER BY ended_at DESC, game_id DESC LIMIT $3",
        )
        .bind(account)
        .bind(game)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut points: Vec<RatingChange> = rows.iter().map(change_of).collect();
        points.reverse();
        Ok((points, total as u64))
    }

    /// The rating changes of the games `ids` (the first [`MAX_IDS`]), by
    /// game and side; an unrated game has none.
    pub async fn rating_changes(&self, ids: &[String]) -> StoreResult<Vec<RatingChange>> {
        let ids = &ids[..ids.len().min(MAX_IDS)];
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT * FROM rating_history WHERE game_id IN ({}) ORDER BY game_id, side",
            marks.join(", ")
        );
        // Only the numbered marks are spliced in; the ids are bound.
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for id in ids {
            q = q.bind(id.as_str());
        }
        Ok(q.fetch_all(&self.pool)
            .await?
            .iter()
            .map(change_of)
            .collect())
    }
}
