//! Accounts and their sessions. A session is a browser token bound to an
//! account, kept only as the token's SHA-256 ([`TokenHash`]), so a copy of
//! the database cannot sign anyone in.

use sqlx::Row;

use super::Store;
use super::{now_millis, Account, Credentials, StoreResult};
use crate::room::TokenHash;

impl Store {
    /// Creates an account; `Ok(None)` when the username is taken (in any
    /// case). When `token` is given, it becomes the account's first
    /// session in the same transaction.
    pub async fn create_account(
        &self,
        username: &str,
        password_hash: &str,
        email: Option<&str>,
        token: Option<&str>,
    ) -> StoreResult<Option<Account>> {
        let mut tx = self.pool.begin().await?;
        let now = now_millis() as i64;
        let inserted = sqlx::query_scalar::<_, i64>(
            "INSERT INTO accounts (username, display_name, password_hash, email, created_at)
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(username)
        .bind(username)
        .bind(password_hash)
        .bind(email)
        .bind(now)
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
        if let Some(token) = token {
            bind_session(&mut tx, &TokenHash::of(token), id, now as u64).await?;
        }
        tx.commit().await?;
        Ok(Some(Account {
            id,
            username: username.to_string(),
            display_name: username.to_string(),
            email: email.map(str::to_string),
        }))
    }

    /// The account named `username` (any case) with its password hash.
    pub async fn credentials(&self, username: &str) -> StoreResult<Option<Credentials>> {
        let row = sqlx::query(
            "SELECT id, username, display_name, email, password_hash FROM accounts
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

    /// Binds the token to the account (a login). A token bound to another
    /// account before moves to this one.
    pub async fn start_session(&self, token: &str, account_id: i64) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        bind_session(&mut tx, &TokenHash::of(token), account_id, now_millis()).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The account whose session `token` is, if any; notes the time as
    /// the session's `last_seen`.
    pub async fn session_account(&self, token: &str) -> StoreResult<Option<Account>> {
        let hash = TokenHash::of(token);
        let row = sqlx::query(
            "UPDATE sessions SET last_seen = $1 WHERE token_hash = $2 RETURNING account_id",
        )
        .bind(now_millis() as i64)
        .bind(hash.as_str())
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let id: i64 = row.get("account_id");
        let row =
            sqlx::query("SELECT id, username, display_name, email FROM accounts WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.as_ref().map(account_of))
    }

    /// Logs the token out; true when it was a session.
    pub async fn end_session(&self, token: &str) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(TokenHash::of(token).as_str())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}

async fn bind_session(
    tx: &mut sqlx::AnyConnection,
    token: &TokenHash,
    account_id: i64,
    now: u64,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO sessions (token_hash, account_id, created_at, last_seen)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (token_hash) DO UPDATE SET
            account_id = excluded.account_id, created_at = excluded.created_at,
            last_seen = excluded.last_seen",
    )
    .bind(token.as_str())
    .bind(account_id)
    .bind(now as i64)
    .bind(now as i64)
    .execute(tx)
    .await?;
    Ok(())
}

fn account_of(row: &sqlx::any::AnyRow) -> Account {
    Account {
        id: row.get("id"),
        username: row.get("username"),
        display_name: row.get("display_name"),
        email: row.get("email"),
    }
}
