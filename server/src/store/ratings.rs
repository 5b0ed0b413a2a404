//! The `ratings` table: each account's Glicko-2 rating per game
//! (`crate::ratings`). A rated game changes both players' rows inside the
//! transaction that stores the game (`write.rs`, `finish_game`), so a game is
//! never stored without its rating change, nor rated twice.

use sqlx::Row as _;

use super::db::{query, Db, Row};
use super::{Store, StoreResult};
use crate::model::records::FinishedGame;
use crate::ratings::{rate, Rating, Score, LEADERBOARD_ACTIVE_MS, LEADERBOARD_SIZE};
use rules::Outcome;

/// One line of a leaderboard.
#[derive(Clone, Debug)]
pub struct Ranked {
    pub username: String,
    pub display_name: String,
    pub rating: Rating,
}

fn rating_of(row: &Row) -> StoreResult<Rating> {
    Ok(Rating {
        rating: row.real("rating")?,
        deviation: row.real("deviation")?,
        volatility: row.real("volatility")?,
        games: row.int("games")? as u32,
        last_at: row.int("last_at")? as u64,
    })
}

/// The account's rating at `game`, its row locked until the transaction
/// ends (a new row first: the `UPDATE` takes the row's lock on
/// PostgreSQL, so two nodes rating the same account at once take turns;
/// SQLite's write transaction holds the whole database already).
async fn locked(tx: &mut impl Db, account: i64, game: &str) -> StoreResult<Rating> {
    let start = Rating::default();
    query(
        "INSERT INTO ratings (account_id, game, rating, deviation, volatility, games, last_at)
         VALUES ($1, $2, $3, $4, $5, 0, 0) ON CONFLICT (account_id, game) DO NOTHING",
    )
    .bind(account)
    .bind(game)
    .bind(start.rating)
    .bind(start.deviation)
    .bind(start.volatility)
    .execute(tx)
    .await?;
    query("UPDATE ratings SET games = games WHERE account_id = $1 AND game = $2")
        .bind(account)
        .bind(game)
        .execute(tx)
        .await?;
    let row = query("SELECT * FROM ratings WHERE account_id = $1 AND game = $2")
        .bind(account)
        .bind(game)
        .fetch_one(tx)
        .await?;
    rating_of(&row)
}

async fn save(tx: &mut impl Db, account: i64, game: &str, r: &Rating) -> StoreResult<()> {
    query(
        "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = $6, last_at = $7
         WHERE account_id = $1 AND game = $2",
    )
    .bind(account)
    .bind(game)
    .bind(r.rating)
    .bind(r.deviation)
    .bind(r.volatility)
    .bind(i64::from(r.games))
    .bind(r.last_at as i64)
    .execute(tx)
    .await?;
    Ok(())
}

/// The two accounts of a rated game, side 0's first, with side 0's
/// result; `None` if the game is not one that can be rated (the room
/// decides, this only refuses to rate anything else).
pub fn rated_pair(f: &FinishedGame) -> Option<(i64, i64, Score)> {
    let [a, b] = f.sides.as_slice() else {
        return None;
    };
    let ([a], [b]) = (a.as_slice(), b.as_slice()) else {
        return None;
    };
    let (a, b) = (a.account?, b.account?);
    if a == b {
        return None;
    }
    let score = match &f.outcome {
        Outcome::Win { winner, .. } if winner.0 == 0 => Score::Win,
        Outcome::Win { .. } => Score::Loss,
        Outcome::Draw { .. } => Score::Draw,
        Outcome::Aborted { .. } => return None,
    };
    Some((a, b, score))
}

/// Rates a finished rated game: both accounts' ratings at its game change,
/// and each one's rating before and after it joins its `rating_history`
/// (`rating_history.rs` reads them).
pub(super) async fn rate_game(tx: &mut impl Db, f: &FinishedGame) -> StoreResult<()> {
    let Some((a, b, score)) = rated_pair(f) else {
        return Ok(());
    };
    let game = f.game.name();
    // Rows locked in account order, so two games never wait on each other.
    let (first, second) = if a < b { (a, b) } else { (b, a) };
    let r_first = locked(tx, first, game).await?;
    let r_second = locked(tx, second, game).await?;
    let (ra, rb) = if a < b {
        (r_first, r_second)
    } else {
        (r_second, r_first)
    };
    let (na, nb) = rate(&ra, &rb, score, f.ended_at);
    save(tx, a, game, &na).await?;
    save(tx, b, game, &nb).await?;
    let id = f.id.to_string();
    for (account, side, before, after) in [(a, 0i64, &ra, &na), (b, 1, &rb, &nb)] {
        let before = before.at(f.ended_at);
        query(
            "INSERT INTO rating_history (game_id, account_id, game, side, ended_at,
                 rating_before, deviation_before, rating_after, deviation_after)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(id.as_str())
        .bind(account)
        .bind(game)
        .bind(side)
        .bind(f.ended_at as i64)
        .bind(before.rating)
        .bind(before.deviation)
        .bind(after.rating)
        .bind(after.deviation)
        .execute(tx)
        .await?;
    }
    Ok(())
}

impl Store {
    /// The account's ratings, one per game it has played rated.
    pub async fn ratings(&self, account: i64) -> StoreResult<Vec<(String, Rating)>> {
        let rows = sqlx::query("SELECT * FROM ratings WHERE account_id = $1 ORDER BY game")
            .bind(account)
            .fetch_all(&self.pool)
            .await?;
        rows.into_iter()
            .map(|row| Ok((row.get("game"), rating_of(&Row::Sqlx(row))?)))
            .collect()
    }

    /// The best-rated active players of `game` as of `now`: at least
    /// `min_games` rated games, the last within the active window.
    pub async fn leaderboard(
        &self,
        game: &str,
        min_games: u32,
        now: u64,
    ) -> StoreResult<Vec<Ranked>> {
        let rows = sqlx::query(
            "SELECT r.*, a.username, a.display_name FROM ratings r
               JOIN accounts a ON a.id = r.account_id
              WHERE r.game = $1 AND r.games >= $2 AND r.last_at >= $3
              ORDER BY r.rating DESC, r.games DESC, a.username LIMIT $4",
        )
        .bind(game)
        .bind(i64::from(min_games))
        .bind(now.saturating_sub(LEADERBOARD_ACTIVE_MS) as i64)
        .bind(i64::from(LEADERBOARD_SIZE))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|row| {
                Ok(Ranked {
                    username: row.get("username"),
                    display_name: row.get("display_name"),
                    rating: rating_of(&Row::Sqlx(row))?,
                })
            })
            .collect()
    }
}
