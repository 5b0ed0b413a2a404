//! An account's public profile: its games per game with the results, and
//! its recent games. Only what `game_players` recorded under the account
//! counts (the games it played signed in), never a browser's guest games.

use sqlx::Row;

use super::history::{record_of, results};
use super::{Account, Backend, Store, StoreResult};
use crate::model::records::GameRecord;

/// Recent games on a profile page.
pub const PROFILE_GAMES: u32 = 20;

/// One game's line of a profile: games played and their results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameTally {
    pub game: String,
    pub played: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Games that ended without a result (the room closed them).
    pub aborted: u64,
}

/// What a profile shows.
#[derive(Clone, Debug)]
pub struct Profile {
    pub account: Account,
    pub created_at: i64,
    /// One line per game the account played, by game name.
    pub tallies: Vec<GameTally>,
    /// A page of its games, newest first, with its result in each.
    pub recent: Vec<(GameRecord, String)>,
    /// All its games (for the pages).
    pub total: u64,
}

/// The account's games (`mine`: the side it played, the first if it
/// played several) with its result in each, as rows `h`
/// (`results!` in `history.rs`).
macro_rules! played {
    ($dialect:ident, $tail:literal) => {
        results!(
            "mine AS (
    SELECT game_id, MIN(side) AS side FROM game_players WHERE account_id = $1 GROUP BY game_id
)",
            $dialect,
            " ",
            $tail
        )
    };
}

const TALLY: [&str; 2] = [
    played!(
        sqlite,
        "SELECT game, result, COUNT(*) AS n FROM h GROUP BY game, result"
    ),
    played!(
        postgres,
        "SELECT game, result, COUNT(*) AS n FROM h GROUP BY game, result"
    ),
];
const RECENT: [&str; 2] = [
    played!(
        sqlite,
        "SELECT * FROM h ORDER BY ended_at DESC, id DESC LIMIT $2 OFFSET $3"
    ),
    played!(
        postgres,
        "SELECT * FROM h ORDER BY ended_at DESC, id DESC LIMIT $2 OFFSET $3"
    ),
];

impl Store {
    /// The profile of the account named `username` (any case), with page
    /// `page` (from 1) of its games; `None` if there is no such account.
    pub async fn profile(&self, username: &str, page: u32) -> StoreResult<Option<Profile>> {
        let Some(row) = sqlx::query(
            "SELECT id, username, display_name, email, email_confirmed, created_at
             FROM accounts WHERE lower(username) = lower($1)",
        )
        .bind(username)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let account = super::accounts::account_of(&row);
        let created_at: i64 = row.get("created_at");
        let dialect = match self.backend {
            Backend::Sqlite => 0,
            Backend::Postgres => 1,
        };
        let mut tallies: Vec<GameTally> = Vec::new();
        for row in sqlx::query(TALLY[dialect])
            .bind(account.id)
            .fetch_all(&self.pool)
            .await?
        {
            let game: String = row.get("game");
            let result: String = row.get("result");
            let n = row.get::<i64, _>("n") as u64;
            let i = match tallies.iter().position(|t| t.game == game) {
                Some(i) => i,
                None => {
                    tallies.push(GameTally {
                        game,
                        ..GameTally::default()
                    });
                    tallies.len() - 1
                }
            };
            let t = &mut tallies[i];
            t.played += n;
            match result.as_str() {
                "win" => t.wins += n,
                "loss" => t.losses += n,
                "draw" => t.draws += n,
                _ => t.aborted += n,
            }
        }
        tallies.sort_by(|a, b| a.game.cmp(&b.game));
        let total = tallies.iter().map(|t| t.played).sum();
        let recent = sqlx::query(RECENT[dialect])
            .bind(account.id)
            .bind(i64::from(PROFILE_GAMES))
            .bind(i64::from(page.max(1) - 1) * i64::from(PROFILE_GAMES))
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| (record_of(row), row.get("result")))
            .collect();
        Ok(Some(Profile {
            account,
            created_at,
            tallies,
            recent,
            total,
        }))
    }
}
