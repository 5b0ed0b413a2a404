//! Accounts and their login sessions. A session is a random secret that
//! travels only in the browser's `HttpOnly` cookie; the store keeps only
//! its SHA-256 ([`TokenHash`]), so a copy of the database cannot sign
//! anyone in. A session unused for [`SESSION_IDLE_MS`] is over.

use sqlx::Row;

use super::Store;
use super::{Account, Credentials, StoreResult};
use crate::model::TokenHash;

/// A session unused this long (30 days) no longer signs anyone in.
pub const SESSION_IDLE_MS: u64 = 30 * 24 * 60 * 60 * 1000;

/// Longest User-Agent kept with a session (it only labels the session on
/// the account page).
pub const AGENT_MAX: usize = 200;

/// Open sessions an account keeps: a login past it ends the account's
/// least recently used session, so an account's logins cannot fill the
/// store however many there are.
pub const SESSIONS_PER_ACCOUNT: i64 = 50;

/// A session to open: its secret (the cookie's value) and the browser's
/// User-Agent.
#[derive(Clone, Copy)]
pub struct NewSession<'a> {
    pub secret: &'a str,
    pub agent: &'a str,
    pub now: u64,
}

/// An open session as the account page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionInfo {
    pub id: i64,
    pub agent: String,
    pub created_at: u64,
    pub last_seen: u64,
}

/// The account a session cookie signs in, and which session it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedIn {
    pub account: Account,
    pub session: i64,
}

impl Store {
    /// Creates an account; `Ok(None)` when the username is taken (in any
    /// case). When `session` is given, it becomes the account's first
    /// session in the same transaction, and its id is returned too.
    pub async fn create_account(
        &self,
        username: &str,
        password_hash: &str,
        email: Option<&str>,
        session: Option<NewSession<'_>>,
        now: u64,
    ) -> StoreResult<Option<(Account, Option<i64>)>> {
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query_scalar::<_, i64>(
            "INSERT INTO accounts (username, display_name, password_hash, email, created_at)
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(username)
        .bind(username)
        .bind(password_hash)
        .bind(email)
        .bind(now as i64)
        .fetch_one(&mut *tx)
        .await;
        let id = match inserted {
            Ok(id) => id,
            Err(e)
                if e.as_database_error()
                    .is_some_and(|d| d.is_unique_violation()) =>
            {
                return Ok(None);
            }
            Err(e) => return Err(e.into()),
        };
        let session = match session {
            Some(s) => Some(insert_session(&mut tx, s, id).await?),
            None => None,
        };
        tx.commit().await?;
        let account = Account {
            id,
            username: username.to_string(),
            display_name: username.to_string(),
            email: email.map(str::to_string),
            email_confirmed: false,
        };
        Ok(Some((account, session)))
    }

    /// The account named `username` (any case) with its password hash.
    pub async fn credentials(&self, username: &str) -> StoreResult<Option<Credentials>> {
        let row = sqlx::query(
            "SELECT id, username, display_name, email, email_confirmed, password_hash FROM accounts
             WHERE lower(username) = lower($1)",
        )
        .bind(username)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|row| Credentials {
            account: account_of(&row),
            password_hash: row.get("password_hash"),
        }))
    }

    /// The account with this id and its password hash.
    pub async fn credentials_by_id(&self, id: i64) -> StoreResult<Option<Credentials>> {
        let row = sqlx::query(
            "SELECT id, username, display_name, email, email_confirmed, password_hash
             FROM accounts WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|row| Credentials {
            account: account_of(&row),
            password_hash: row.get("password_hash"),
        }))
    }

    /// The account with this id.
    pub async fn account(&self, id: i64) -> StoreResult<Option<Account>> {
        let mut conn = self.pool.acquire().await?;
        account_in(&mut conn, id).await
    }

    /// Opens a session for the account (a login) and returns its id,
    /// with the ids of the account's sessions it ended: past
    /// [`SESSIONS_PER_ACCOUNT`], the least recently used. Sessions of any
    /// account that have been unused for too long are swept on the way.
    pub async fn start_session(
        &self,
        session: NewSession<'_>,
        account_id: i64,
    ) -> StoreResult<(i64, Vec<i64>)> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM sessions WHERE last_seen <= $1")
            .bind(idle_cutoff(session.now))
            .execute(&mut *tx)
            .await?;
        let id = insert_session(&mut tx, session, account_id).await?;
        let ended = sqlx::query_scalar::<_, i64>(
            "DELETE FROM sessions WHERE account_id = $1 AND id NOT IN (
                 SELECT id FROM sessions WHERE account_id = $1
                 ORDER BY last_seen DESC, id DESC LIMIT $2)
             RETURNING id",
        )
        .bind(account_id)
        .bind(SESSIONS_PER_ACCOUNT)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok((id, ended))
    }

    /// Who the session `secret` signs in at `now`, if it is open and was
    /// used within [`SESSION_IDLE_MS`]; notes `now` as its `last_seen`.
    pub async fn session_account(&self, secret: &str, now: u64) -> StoreResult<Option<SignedIn>> {
        let row = sqlx::query(
            "UPDATE sessions SET last_seen = $1 WHERE token_hash = $2 AND last_seen > $3
             RETURNING id, account_id",
        )
        .bind(now as i64)
        .bind(TokenHash::of(secret).as_str())
        .bind(idle_cutoff(now))
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let session: i64 = row.get("id");
        let account = self.account(row.get("account_id")).await?;
        Ok(account.map(|account| SignedIn { account, session }))
    }

    /// The account's sessions still open at `now`, most recently used
    /// first.
    pub async fn sessions(&self, account_id: i64, now: u64) -> StoreResult<Vec<SessionInfo>> {
        let rows = sqlx::query(
            "SELECT id, agent, created_at, last_seen FROM sessions
             WHERE account_id = $1 AND last_seen > $2 ORDER BY last_seen DESC, id DESC",
        )
        .bind(account_id)
        .bind(idle_cutoff(now))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|row| SessionInfo {
                id: row.get("id"),
                agent: row.get("agent"),
                created_at: row.get::<i64, _>("created_at") as u64,
                last_seen: row.get::<i64, _>("last_seen") as u64,
            })
            .collect())
    }

    /// Which of the sessions `ids` are still live at `now` (not ended,
    /// used within [`SESSION_IDLE_MS`]), for the sockets they signed in.
    pub async fn live_sessions(&self, ids: &[i64], now: u64) -> StoreResult<Vec<i64>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let list = (0..ids.len())
            .map(|i| format!("${}", i + 2))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!("SELECT id FROM sessions WHERE last_seen > $1 AND id IN ({list})");
        // Only placeholders are put into the text; the ids are bound.
        let mut query =
            sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql)).bind(idle_cutoff(now));
        for id in ids {
            query = query.bind(*id);
        }
        Ok(query.fetch_all(&self.pool).await?)
    }

    /// Ends the account's session `id`; false when it has none by that id.
    pub async fn end_session(&self, account_id: i64, id: i64) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM sessions WHERE id = $1 AND account_id = $2")
            .bind(id)
            .bind(account_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Ends the session whose cookie secret is `secret` (a logout); false
    /// when there was none.
    pub async fn end_session_by_secret(&self, secret: &str) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(TokenHash::of(secret).as_str())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Ends every session of the account but `keep`; returns how many.
    pub async fn end_other_sessions(&self, account_id: i64, keep: i64) -> StoreResult<u64> {
        let done = sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND id <> $2")
            .bind(account_id)
            .bind(keep)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}

/// Sessions last used at or before this are over.
fn idle_cutoff(now: u64) -> i64 {
    now.saturating_sub(SESSION_IDLE_MS) as i64
}

pub(super) async fn insert_session(
    tx: &mut sqlx::AnyConnection,
    session: NewSession<'_>,
    account_id: i64,
) -> StoreResult<i64> {
    let agent: String = session.agent.chars().take(AGENT_MAX).collect();
    let id = sqlx::query_scalar::<_, i64>(
        "INSERT INTO sessions (token_hash, account_id, agent, created_at, last_seen)
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(TokenHash::of(session.secret).as_str())
    .bind(account_id)
    .bind(agent)
    .bind(session.now as i64)
    .bind(session.now as i64)
    .fetch_one(tx)
    .await?;
    Ok(id)
}

/// The account with this id, read on `conn` (a transaction's, say).
pub(super) async fn account_in(
    conn: &mut sqlx::AnyConnection,
    id: i64,
) -> StoreResult<Option<Account>> {
    let row = sqlx::query(
        "SELECT id, username, display_name, email, email_confirmed FROM accounts WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?;
    Ok(row.as_ref().map(account_of))
}

pub(super) fn account_of(row: &sqlx::any::AnyRow) -> Account {
    Account {
        id: row.get("id"),
        username: row.get("username"),
        display_name: row.get("display_name"),
        email: row.get("email"),
        email_confirmed: row.get::<i64, _>("email_confirmed") != 0,
    }
}
