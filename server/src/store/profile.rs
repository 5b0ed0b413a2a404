//! An account's public profile: its games per game with the results, and
//! its recent games. Only what `account_games` recorded under the account
//! counts (the games it played signed in), never a browser's guest games.
//! Both read that table's indexes, never every `games` row of the account:
//! a profile costs the same at 40 000 games as at 40.

use sqlx::Row;

use super::history::record_of;
use super::{Account, Store, StoreResult};
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

/// The account's games per game and result (`account_games`, one row a
/// game, an index's range: no `games` row is read).
const TALLY: &str = "SELECT game, result, COUNT(*) AS n FROM account_games
    WHERE account_id = $1 GROUP BY game, result";
/// A page of the account's games, newest first, with its result in each:
/// the page's rows of `account_games` by its index, then their `games`.
const RECENT: &str = "SELECT g.*, a.result FROM
    (SELECT game_id, result, ended_at, seq FROM account_games WHERE account_id = $1
      ORDER BY ended_at DESC, seq DESC LIMIT $2 OFFSET $3) a
    JOIN games g ON g.game_id = a.game_id
    ORDER BY a.ended_at DESC, a.seq DESC";

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
        let mut tallies: Vec<GameTally> = Vec::new();
        for row in sqlx::query(TALLY)
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
        let recent = sqlx::query(RECENT)
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
