//! Challenges: one signed-in player asks another to a game. A challenge
//! is `open` until the challenged player accepts or declines it, or the
//! challenger cancels it; an open one past its `expires_at` counts as
//! `expired` (nothing needs to change it). Every answer is one guarded
//! `UPDATE … WHERE status = 'open' AND expires_at > now`, so of any number
//! of concurrent answers exactly one wins (one room for an accepted one).

use serde_json::Value;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Store, StoreResult};

/// A challenge lasts this long unanswered (24 h).
pub const CHALLENGE_TTL_MS: u64 = 24 * 3600 * 1000;

/// Answered and expired challenges stay in the lists this long (10 min),
/// so the challenger's page learns the answer.
pub const ANSWERED_SHOWN_MS: u64 = 10 * 60 * 1000;

/// At most this many challenges in one account's list.
pub const LIST_MAX: i64 = 50;

/// A challenge about to be stored.
pub struct NewChallenge<'a> {
    pub from: i64,
    pub to: i64,
    pub game: &'a str,
    pub options: &'a Value,
    pub rated: bool,
    /// The challenger's browser token (seats them in the room).
    pub from_token: &'a str,
    pub now: u64,
}

/// One side of a challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Party {
    pub id: i64,
    pub username: String,
    pub display_name: String,
}

/// A stored challenge.
#[derive(Clone, Debug)]
pub struct Challenge {
    pub id: i64,
    pub from: Party,
    pub to: Party,
    pub game: String,
    pub options: Value,
    pub rated: bool,
    /// `open`, `accepted`, `declined`, `cancelled` or `expired`.
    pub status: String,
    pub room_code: Option<String>,
    pub created_at: u64,
    pub expires_at: u64,
    /// While open: the challenger's browser token; blank once answered.
    pub from_token: String,
}

macro_rules! select {
    ($($tail:expr),*) => {
        concat!(
            "SELECT c.id, c.from_account, c.to_account, c.game, c.options, c.rated,
        c.from_token, c.status, c.room_code, c.created_at, c.expires_at,
        f.username AS f_user, f.display_name AS f_name,
        t.username AS t_user, t.display_name AS t_name
    FROM challenges c
    JOIN accounts f ON f.id = c.from_account
    JOIN accounts t ON t.id = c.to_account ",
            $($tail),*
        )
    };
}

/// Open now, or answered or expired since `$3`.
macro_rules! recent {
    () => {
        "((c.status = 'open' AND c.expires_at > $2)
                OR (c.status != 'open' AND c.answered_at > $3)
                OR (c.status = 'open' AND c.expires_at > $3))"
    };
}

/// The newest of the account's own and of those it received, each
/// bounded apart: challenges it receives never push its own out; of
/// those received, the open ones come first, so answered or cancelled
/// ones never push an open one out.
const LIST: &str = select!(
    "WHERE c.id IN (
        SELECT id FROM (SELECT c.id FROM challenges c WHERE c.from_account = $1 AND ",
    recent!(),
    " ORDER BY c.id DESC LIMIT $4) AS made
        UNION
        SELECT id FROM (SELECT c.id FROM challenges c WHERE c.to_account = $1 AND ",
    recent!(),
    " ORDER BY CASE WHEN c.status = 'open' THEN 0 ELSE 1 END, c.id DESC LIMIT $4) AS received
    ) ORDER BY c.id DESC"
);

const ANSWER: [&str; 2] = [
    "UPDATE challenges SET status = $1, answered_at = $2, from_token = ''
     WHERE id = $3 AND to_account = $4 AND status = 'open' AND expires_at > $2",
    "UPDATE challenges SET status = $1, answered_at = $2, from_token = ''
     WHERE id = $3 AND from_account = $4 AND status = 'open' AND expires_at > $2",
];

fn challenge_of(row: &AnyRow, now: u64) -> Challenge {
    let expires_at = row.get::<i64, _>("expires_at") as u64;
    let mut status: String = row.get("status");
    if status == "open" && expires_at <= now {
        status = "expired".to_string();
    }
    let options: String = row.get("options");
    Challenge {
        id: row.get("id"),
        from: Party {
            id: row.get("from_account"),
            username: row.get("f_user"),
            display_name: row.get("f_name"),
        },
        to: Party {
            id: row.get("to_account"),
            username: row.get("t_user"),
            display_name: row.get("t_name"),
        },
        game: row.get("game"),
        options: serde_json::from_str(&options).unwrap_or(Value::Null),
        rated: row.get::<i64, _>("rated") != 0,
        status,
        room_code: row.get("room_code"),
        created_at: row.get::<i64, _>("created_at") as u64,
        expires_at,
        from_token: row.get("from_token"),
    }
}

/// What [`Store::insert_challenge`] did.
#[derive(Debug, PartialEq)]
pub enum Inserted {
    Id(i64),
    /// The challenger has its most open challenges.
    TooMany,
    /// The challenger has one open to the same player.
    AlreadyOpen,
}

/// The advisory lock under which challenges are counted and stored.
const CHALLENGE_LOCK: i64 = 0x6267_6368_616c;

impl Store {
    /// Stores a challenge unless its challenger already has `max_open`
    /// open ones, or one open to the same player.
    pub async fn insert_challenge(
        &self,
        new: &NewChallenge<'_>,
        max_open: i64,
    ) -> StoreResult<Inserted> {
        // A count and the insert it allows, as one step: on SQLite a
        // write transaction from the start (a deferred one that read first
        // fails, "database is locked", when another connection wrote
        // meanwhile), on PostgreSQL under an advisory lock.
        let mut tx = self.turn_taking(CHALLENGE_LOCK).await?;
        let open: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM challenges
             WHERE from_account = $1 AND status = 'open' AND expires_at > $2",
        )
        .bind(new.from)
        .bind(new.now as i64)
        .fetch_one(&mut *tx)
        .await?;
        if open >= max_open {
            return Ok(Inserted::TooMany);
        }
        let to_them: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM challenges
             WHERE from_account = $1 AND to_account = $2 AND status = 'open' AND expires_at > $3",
        )
        .bind(new.from)
        .bind(new.to)
        .bind(new.now as i64)
        .fetch_one(&mut *tx)
        .await?;
        if to_them > 0 {
            return Ok(Inserted::AlreadyOpen);
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO challenges (from_account, to_account, game, options, rated,
                                     from_token, status, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8) RETURNING id",
        )
        .bind(new.from)
        .bind(new.to)
        .bind(new.game)
        .bind(new.options.to_string())
        .bind(i64::from(new.rated))
        .bind(new.from_token)
        .bind(new.now as i64)
        .bind((new.now + CHALLENGE_TTL_MS) as i64)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Inserted::Id(id))
    }

    /// The challenge `id`, as it is at `now`.
    pub async fn challenge(&self, id: i64, now: u64) -> StoreResult<Option<Challenge>> {
        let row = sqlx::query(select!("WHERE c.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| challenge_of(&r, now)))
    }

    /// The account's challenges, made or received, that are open, or were
    /// answered or expired in the last [`ANSWERED_SHOWN_MS`]; newest first,
    /// at most [`LIST_MAX`].
    pub async fn challenges_of(&self, account: i64, now: u64) -> StoreResult<Vec<Challenge>> {
        let since = now.saturating_sub(ANSWERED_SHOWN_MS) as i64;
        let rows = sqlx::query(LIST)
            .bind(account)
            .bind(now as i64)
            .bind(since)
            .bind(LIST_MAX)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(|r| challenge_of(r, now)).collect())
    }

    /// Answers the open challenge `id` with `status` (`accepted`,
    /// `declined` by the challenged account, `cancelled` by the
    /// challenger), if `account` may: the challenge as it was, or `None`
    /// (no such open challenge of theirs). One of concurrent answers wins.
    pub async fn answer_challenge(
        &self,
        id: i64,
        account: i64,
        status: &str,
        now: u64,
    ) -> StoreResult<Option<Challenge>> {
        let Some(before) = self.challenge(id, now).await? else {
            return Ok(None);
        };
        let sql = ANSWER[usize::from(status == "cancelled")];
        let changed = sqlx::query(sql)
            .bind(status)
            .bind(now as i64)
            .bind(id)
            .bind(account)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok((changed == 1).then_some(before))
    }

    /// The room made for the accepted challenge `id`.
    pub async fn set_challenge_room(&self, id: i64, code: &str) -> StoreResult<()> {
        sqlx::query("UPDATE challenges SET room_code = $1 WHERE id = $2")
            .bind(code)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Opens an accepted challenge again, with the challenger's token,
    /// when its room could not be made (the server was full).
    pub async fn reopen_challenge(&self, id: i64, from_token: &str) -> StoreResult<()> {
        sqlx::query(
            "UPDATE challenges SET status = 'open', answered_at = NULL, from_token = $1
             WHERE id = $2 AND status = 'accepted' AND room_code IS NULL",
        )
        .bind(from_token)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The account named `username` (any case): its id, username and
    /// display name.
    pub async fn party(&self, username: &str) -> StoreResult<Option<Party>> {
        let row = sqlx::query(
            "SELECT id, username, display_name FROM accounts WHERE lower(username) = lower($1)",
        )
        .bind(username)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| Party {
            id: r.get("id"),
            username: r.get("username"),
            display_name: r.get("display_name"),
        }))
    }
}
