//! Turn-based games as the store sees them (`live_games.deadline`,
//! `due_account`, `due_token`, written by `Write::Turn`): the rooms whose
//! deadline passed (for the sweeper, which loads them so that their timer
//! fires), the "your turn" list of a player, and the "your turn" email
//! (`accounts.turn_mail`, `turn_mailed_at`, `unsubscribe_tokens`).

use sqlx::Row;

use super::{Store, StoreResult};
use crate::model::records::{side_names, Player};
use crate::model::TokenHash;

/// One game waiting for a player's move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnItem {
    pub room: String,
    pub game: String,
    pub number: u32,
    /// Every player's name, side by side (a team's joined by " + ").
    pub sides: Vec<String>,
    pub deadline: u64,
}

/// One live game (no deadline) a player is playing now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayingItem {
    pub room: String,
    pub game: String,
    pub number: u32,
    /// Every player's name, side by side (a team's joined by " + ").
    pub sides: Vec<String>,
    pub started_at: u64,
}

/// An account to send the "your turn" email to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnMail {
    pub account_id: i64,
    pub email: String,
    pub display_name: String,
    /// Games waiting for the account's move (longer than the wait).
    pub games: i64,
}

/// Rooms listed a player's "your turn" list at most.
pub const TURNS_LISTED: i64 = 200;

impl Store {
    /// Rooms with a turn-based game whose deadline passed at `now`, the
    /// earliest first, at most `limit`.
    pub async fn rooms_past_deadline(&self, now: u64, limit: i64) -> StoreResult<Vec<String>> {
        let rows = sqlx::query(
            "SELECT room_code, MIN(deadline) AS due FROM live_games
             WHERE deadline IS NOT NULL AND deadline <= $1
             GROUP BY room_code ORDER BY due LIMIT $2",
        )
        .bind(now as i64)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.get::<String, _>("room_code"))
            .collect())
    }

    /// Rooms with a real-time game in progress (no turn-based deadline;
    /// a finished game's row stays until the table's next game, but its
    /// record in `games` tells it apart) that no node holds at `now` (no lease, or one that ran out), in
    /// code order after `after`, at most `limit`: the rooms a restarted
    /// server, or the node that outlived another, loads at once so that
    /// their clocks and the abandon rule run with nobody connected.
    pub async fn unheld_live_rooms(
        &self,
        now: u64,
        after: &str,
        limit: i64,
    ) -> StoreResult<Vec<String>> {
        let rows = sqlx::query(
            "SELECT DISTINCT g.room_code AS room_code FROM live_games g
             LEFT JOIN room_leases l ON l.room_code = g.room_code
             WHERE g.deadline IS NULL AND g.room_code > $2
               AND (l.room_code IS NULL OR l.expires_at <= $1)
               AND NOT EXISTS (SELECT 1 FROM games f WHERE f.game_id = g.id)
             ORDER BY g.room_code LIMIT $3",
        )
        .bind(now as i64)
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.get::<String, _>("room_code"))
            .collect())
    }

    /// The turn-based games waiting for a move of `account` or of the
    /// browser `token`, the nearest deadline first.
    pub async fn turns_for(
        &self,
        account: Option<i64>,
        token: Option<&TokenHash>,
    ) -> StoreResult<Vec<TurnItem>> {
        if account.is_none() && token.is_none() {
            return Ok(Vec::new());
        }
        let rows = sqlx::query(
            "SELECT room_code, game, number, sides, deadline FROM live_games
             WHERE deadline IS NOT NULL AND (due_account = $1 OR due_token = $2)
             ORDER BY deadline LIMIT $3",
        )
        .bind(account.unwrap_or(-1))
        .bind(token.map(TokenHash::as_str).unwrap_or(""))
        .bind(TURNS_LISTED)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                let sides: Vec<Vec<Player>> =
                    serde_json::from_str(&r.get::<String, _>("sides")).unwrap_or_default();
                TurnItem {
                    room: r.get("room_code"),
                    game: r.get("game"),
                    number: r.get::<i64, _>("number") as u32,
                    sides: side_names(&sides),
                    deadline: r.get::<i64, _>("deadline") as u64,
                }
            })
            .collect())
    }

    /// The live games (not turn-based) under way in which `account`, or
    /// the browser `token`, plays: a seated member of the room, among the
    /// game's players, the game not yet over (not in `games`). The latest
    /// started first.
    pub async fn playing_for(
        &self,
        account: Option<i64>,
        token: Option<&TokenHash>,
    ) -> StoreResult<Vec<PlayingItem>> {
        if account.is_none() && token.is_none() {
            return Ok(Vec::new());
        }
        let rows = sqlx::query(
            "SELECT g.room_code, g.game, g.number, g.sides, g.started_at, m.id AS member
             FROM room_members m JOIN live_games g ON g.room_code = m.room_code
             WHERE (m.account_id = $1 OR m.token_hash = $2)
               AND m.seat IS NOT NULL AND m.removed = 0 AND m.computer IS NULL
               AND g.deadline IS NULL
               AND NOT EXISTS (SELECT 1 FROM games f WHERE f.game_id = g.id)
             ORDER BY g.started_at DESC LIMIT $3",
        )
        .bind(account.unwrap_or(-1))
        .bind(token.map(TokenHash::as_str).unwrap_or(""))
        .bind(TURNS_LISTED)
        .fetch_all(&self.pool)
        .await?;
        let mut items: Vec<PlayingItem> = Vec::new();
        for r in &rows {
            let sides: Vec<Vec<Player>> =
                serde_json::from_str(&r.get::<String, _>("sides")).unwrap_or_default();
            let member = crate::model::ids::MemberId(r.get::<i64, _>("member") as u32);
            let room: String = r.get("room_code");
            let number = r.get::<i64, _>("number") as u32;
            let plays = sides.iter().flatten().any(|p| p.member == member);
            // A browser signed in to the account is one member: listed once.
            let listed = items.iter().any(|i| i.room == room && i.number == number);
            if plays && !listed {
                items.push(PlayingItem {
                    room,
                    game: r.get("game"),
                    number,
                    sides: side_names(&sides),
                    started_at: r.get::<i64, _>("started_at") as u64,
                });
            }
        }
        Ok(items)
    }

    /// Accounts with the email on and a confirmed address that have a
    /// game waiting for their move since before `waiting_since`, and were
    /// not mailed since `mailed_since`.
    pub async fn turn_mail_due(
        &self,
        waiting_since: u64,
        mailed_since: u64,
    ) -> StoreResult<Vec<TurnMail>> {
        let rows = sqlx::query(
            "SELECT a.id, a.email, a.display_name, COUNT(*) AS games
             FROM live_games g JOIN accounts a ON a.id = g.due_account
             WHERE g.deadline IS NOT NULL AND g.due_since <= $1
               AND a.turn_mail = 1 AND a.email_confirmed = 1 AND a.email IS NOT NULL
               AND (a.turn_mailed_at IS NULL OR a.turn_mailed_at <= $2)
             GROUP BY a.id, a.email, a.display_name ORDER BY a.id LIMIT 500",
        )
        .bind(waiting_since as i64)
        .bind(mailed_since as i64)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| TurnMail {
                account_id: r.get("id"),
                email: r.get("email"),
                display_name: r.get("display_name"),
                games: r.get("games"),
            })
            .collect())
    }

    /// Records that `account` is mailed at `now` with an unsubscribe link
    /// whose token hashes to `unsubscribe`, unless it was mailed since
    /// `mailed_since` (then `false`: another node or sweep sent it).
    pub async fn mark_turn_mailed(
        &self,
        account: i64,
        now: u64,
        mailed_since: u64,
        unsubscribe: &TokenHash,
    ) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE accounts SET turn_mailed_at = $1
             WHERE id = $2 AND (turn_mailed_at IS NULL OR turn_mailed_at <= $3)",
        )
        .bind(now as i64)
        .bind(account)
        .bind(mailed_since as i64)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if done == 0 {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO unsubscribe_tokens (token_hash, account_id, created_at)
             VALUES ($1, $2, $3)",
        )
        .bind(unsubscribe.as_str())
        .bind(account)
        .bind(now as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Turns the "your turn" email off for the account whose unsubscribe
    /// token hashes to `hash`; `false` if no account has it.
    pub async fn unsubscribe(&self, hash: &TokenHash) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE accounts SET turn_mail = 0
             WHERE id = (SELECT account_id FROM unsubscribe_tokens WHERE token_hash = $1)",
        )
        .bind(hash.as_str())
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(done > 0)
    }

    /// Whether the account gets the "your turn" email.
    pub async fn turn_mail(&self, account: i64) -> StoreResult<bool> {
        let on: Option<i64> = sqlx::query_scalar("SELECT turn_mail FROM accounts WHERE id = $1")
            .bind(account)
            .fetch_optional(&self.pool)
            .await?;
        Ok(on == Some(1))
    }

    pub async fn set_turn_mail(&self, account: i64, on: bool) -> StoreResult<()> {
        sqlx::query("UPDATE accounts SET turn_mail = $1 WHERE id = $2")
            .bind(i64::from(on))
            .bind(account)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
