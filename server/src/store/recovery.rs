//! One-time links sent by email: confirming an address, and resetting a
//! forgotten password. The link carries a random token; only its SHA-256
//! is stored, and using a link voids it in the same statement that reads
//! it, so a link works once even when clicked twice at the same moment. A
//! used or voided link stays (unusable) for the hour it counts against the
//! account's links per hour. A password change voids the recovery links
//! (`Store::change_password`, here for that reason).

use sqlx::Row;

use super::accounts::{account_in, account_of, insert_session};
use super::Store;
use super::{Account, NewSession, StoreResult};
use crate::model::TokenHash;

/// What a link is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkPurpose {
    /// Confirms an address (the link's `email`) as the account's.
    Confirm,
    /// Resets the password (sent to the account's confirmed address).
    Recover,
}

impl LinkPurpose {
    fn as_str(self) -> &'static str {
        match self {
            LinkPurpose::Confirm => "confirm",
            LinkPurpose::Recover => "recover",
        }
    }
}

/// A link to store.
#[derive(Clone, Copy)]
pub struct NewLink<'a> {
    pub purpose: LinkPurpose,
    pub account_id: i64,
    pub email: &'a str,
    pub secret: &'a str,
    pub now: u64,
    pub expires_at: u64,
    /// Links of this purpose the account may have been sent in the hour
    /// before `now`; past it, the link is not stored (the rate limit per
    /// account).
    pub per_hour: i64,
}

const HOUR_MS: u64 = 60 * 60 * 1000;

impl Store {
    /// Sets the account's password hash, ends its other sessions than
    /// `keep` and voids its recovery links, in one transaction.
    pub async fn change_password(
        &self,
        account_id: i64,
        password_hash: &str,
        keep: i64,
    ) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND id <> $2")
            .bind(account_id)
            .bind(keep)
            .execute(&mut *tx)
            .await?;
        void_links(&mut tx, account_id, LinkPurpose::Recover).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The accounts whose confirmed email is `email` (any case).
    pub async fn accounts_by_email(&self, email: &str) -> StoreResult<Vec<Account>> {
        let rows = sqlx::query(
            "SELECT id, username, display_name, email, email_confirmed FROM accounts
             WHERE lower(email) = lower($1) AND email_confirmed = 1 ORDER BY id",
        )
        .bind(email)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(account_of).collect())
    }

    /// Stores a link, unless the account was already sent `per_hour`
    /// links of that purpose in the last hour: then `false`.
    pub async fn add_link(&self, link: NewLink<'_>) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        if !room_for_link(&mut tx, &link).await? {
            return Ok(false);
        }
        insert_link(&mut tx, &link).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Makes `link.email` the account's unconfirmed address and stores
    /// `link` to confirm it, in one transaction: links to confirm an
    /// earlier address stop working. When the account was already sent
    /// `per_hour` confirmation links in the last hour, `false`, and
    /// nothing changes (the address stays as it was).
    pub async fn change_email(&self, link: NewLink<'_>) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        if !room_for_link(&mut tx, &link).await? {
            return Ok(false);
        }
        sqlx::query("UPDATE accounts SET email = $1, email_confirmed = 0 WHERE id = $2")
            .bind(link.email)
            .bind(link.account_id)
            .execute(&mut *tx)
            .await?;
        void_links(&mut tx, link.account_id, link.purpose).await?;
        // A recovery link sent to the old address stops working too.
        void_links(&mut tx, link.account_id, LinkPurpose::Recover).await?;
        insert_link(&mut tx, &link).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Whether `secret` is a recovery link still valid at `now` (a cheap
    /// look before a reset spends a password hash on it).
    pub async fn recovery_link_valid(&self, secret: &str, now: u64) -> StoreResult<bool> {
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT account_id FROM email_tokens
             WHERE token_hash = $1 AND purpose = $2 AND expires_at > $3",
        )
        .bind(TokenHash::of(secret).as_str())
        .bind(LinkPurpose::Recover.as_str())
        .bind(now as i64)
        .fetch_optional(&self.pool)
        .await?;
        Ok(found.is_some())
    }

    /// Confirms the address of a `Confirm` link: it becomes the account's
    /// email. `None` when the link is unknown, used or expired.
    pub async fn confirm_email(&self, secret: &str, now: u64) -> StoreResult<Option<Account>> {
        let mut tx = self.pool.begin().await?;
        let Some((account_id, email)) =
            take_link(&mut tx, secret, LinkPurpose::Confirm, now).await?
        else {
            tx.commit().await?;
            return Ok(None);
        };
        sqlx::query("UPDATE accounts SET email = $1, email_confirmed = 1 WHERE id = $2")
            .bind(&email)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        void_links(&mut tx, account_id, LinkPurpose::Confirm).await?;
        let account = account_in(&mut tx, account_id).await?;
        tx.commit().await?;
        Ok(account)
    }

    /// Sets an unconfirmed email (`None` removes it); links to confirm an
    /// earlier address, and recovery links sent to it, stop working.
    pub async fn set_email(&self, account_id: i64, email: Option<&str>) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET email = $1, email_confirmed = 0 WHERE id = $2")
            .bind(email)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        void_links(&mut tx, account_id, LinkPurpose::Confirm).await?;
        void_links(&mut tx, account_id, LinkPurpose::Recover).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Uses a `Recover` link: sets the new password hash, ends every
    /// session of the account and its other recovery links, and opens
    /// `session`, all in one transaction. `None` (and nothing changed)
    /// when the link is unknown, used or expired.
    pub async fn reset_password(
        &self,
        secret: &str,
        password_hash: &str,
        session: NewSession<'_>,
    ) -> StoreResult<Option<(Account, i64)>> {
        let mut tx = self.pool.begin().await?;
        let Some((account_id, _)) =
            take_link(&mut tx, secret, LinkPurpose::Recover, session.now).await?
        else {
            tx.commit().await?;
            return Ok(None);
        };
        sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE account_id = $1")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        void_links(&mut tx, account_id, LinkPurpose::Recover).await?;
        let id = insert_session(&mut tx, session, account_id).await?;
        let account = account_in(&mut tx, account_id).await?;
        tx.commit().await?;
        Ok(account.map(|a| (a, id)))
    }
}

/// Whether the account may be sent `link` now: fewer than `per_hour`
/// links of its purpose in the hour before it. A write to the account's
/// row first: concurrent requests for one account take turns
/// (PostgreSQL's row lock, SQLite's write lock), so none counts before
/// another's link is in.
async fn room_for_link(tx: &mut sqlx::AnyConnection, link: &NewLink<'_>) -> StoreResult<bool> {
    sqlx::query("UPDATE accounts SET email_confirmed = email_confirmed WHERE id = $1")
        .bind(link.account_id)
        .execute(&mut *tx)
        .await?;
    let recent: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM email_tokens
         WHERE account_id = $1 AND purpose = $2 AND created_at > $3",
    )
    .bind(link.account_id)
    .bind(link.purpose.as_str())
    .bind(link.now.saturating_sub(HOUR_MS) as i64)
    .fetch_one(&mut *tx)
    .await?;
    Ok(recent < link.per_hour)
}

/// Stores `link`; links that expired an hour ago (voided ones when they
/// stop counting) go on the way.
async fn insert_link(tx: &mut sqlx::AnyConnection, link: &NewLink<'_>) -> StoreResult<()> {
    sqlx::query("DELETE FROM email_tokens WHERE expires_at <= $1")
        .bind(link.now.saturating_sub(HOUR_MS) as i64)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO email_tokens (token_hash, account_id, purpose, email, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(TokenHash::of(link.secret).as_str())
    .bind(link.account_id)
    .bind(link.purpose.as_str())
    .bind(link.email)
    .bind(link.now as i64)
    .bind(link.expires_at as i64)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Voids the account's links of `purpose`: they stop working at once
/// (expired when made) but stay an hour, so they still count against the
/// account's links per hour (a new address, or a used link, does not
/// start the count again); `add_link` deletes them after that.
pub(super) async fn void_links(
    tx: &mut sqlx::AnyConnection,
    account_id: i64,
    purpose: LinkPurpose,
) -> StoreResult<()> {
    sqlx::query(
        "UPDATE email_tokens SET expires_at = created_at WHERE account_id = $1 AND purpose = $2",
    )
    .bind(account_id)
    .bind(purpose.as_str())
    .execute(tx)
    .await?;
    Ok(())
}

/// Uses the link: voids it (see [`void_links`]) and returns its account
/// and address, if it was one of `purpose` still valid at `now`. One
/// statement reads and voids it, so it works once.
async fn take_link(
    tx: &mut sqlx::AnyConnection,
    secret: &str,
    purpose: LinkPurpose,
    now: u64,
) -> StoreResult<Option<(i64, String)>> {
    let row = sqlx::query(
        "UPDATE email_tokens SET expires_at = created_at
         WHERE token_hash = $1 AND purpose = $2 AND expires_at > $3
         RETURNING account_id, email",
    )
    .bind(TokenHash::of(secret).as_str())
    .bind(purpose.as_str())
    .bind(now as i64)
    .fetch_optional(&mut *tx)
    .await?;
    Ok(row.map(|r| (r.get("account_id"), r.get("email"))))
}
