//! Coins: the daily check-in and spending, each a balance change and its
//! ledger row in one transaction. The balance only moves through a guarded
//! `UPDATE` (a spend needs `coins >= price`), and a ledger reason is unique
//! per account (`checkin DAY`, `buy ITEM`), so under any number of
//! concurrent requests a day is checked in once, an item is bought once,
//! and no coin is spent twice or lost.

use super::Store;
use super::{StoreError, StoreResult};

/// Coins for the first day of a streak; each further day adds
/// [`CHECKIN_STEP`], up to [`CHECKIN_MAX`].
pub const CHECKIN_BASE: i64 = 10;
pub const CHECKIN_STEP: i64 = 2;
pub const CHECKIN_MAX: i64 = 20;

/// The coins a check-in on day `streak` of a streak (from 1) gives.
pub fn checkin_coins(streak: i64) -> i64 {
    (CHECKIN_BASE + CHECKIN_STEP * (streak - 1).max(0)).min(CHECKIN_MAX)
}

/// A check-in's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckIn {
    /// Coins added (0: already checked in that day).
    pub added: i64,
    pub streak: i64,
    pub balance: i64,
}

/// Why a spend did not happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpendRefused {
    /// Fewer coins than the price.
    TooFew,
    /// That reason was already paid for (bought once).
    AlreadyDone,
}

impl Store {
    /// The account's balance and check-in state: `(coins, last check-in
    /// day, streak)`.
    pub async fn coins(&self, account_id: i64) -> StoreResult<(i64, i64, i64)> {
        let row: Option<(i64, i64, i64)> =
            sqlx::query_as("SELECT coins, checkin_day, checkin_streak FROM accounts WHERE id = $1")
                .bind(account_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.unwrap_or((0, 0, 0)))
    }

    /// Checks the account in on `day` (days since 1970-01-01, UTC): once a
    /// day; the streak goes on when the last check-in was the day before.
    pub async fn check_in(&self, account_id: i64, day: i64, now: u64) -> StoreResult<CheckIn> {
        let mut tx = self.pool.begin().await?;
        let streak: Option<i64> = sqlx::query_scalar(
            "UPDATE accounts SET
                checkin_streak = CASE WHEN checkin_day = $1 - 1 THEN checkin_streak + 1 ELSE 1 END,
                checkin_day = $1
             WHERE id = $2 AND checkin_day < $1
             RETURNING checkin_streak",
        )
        .bind(day)
        .bind(account_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(streak) = streak else {
            tx.commit().await?;
            let (balance, _, streak) = self.coins(account_id).await?;
            return Ok(CheckIn {
                added: 0,
                streak,
                balance,
            });
        };
        let added = checkin_coins(streak);
        let balance = change(&mut tx, account_id, added, &format!("checkin {day}"), now).await?;
        tx.commit().await?;
        Ok(CheckIn {
            added,
            streak,
            balance,
        })
    }

    /// Spends `price` coins for `reason` (once per account): the new
    /// balance, or why not (nothing changed then).
    pub async fn spend(
        &self,
        account_id: i64,
        price: i64,
        reason: &str,
        now: u64,
    ) -> StoreResult<Result<i64, SpendRefused>> {
        let mut tx = self.pool.begin().await?;
        let balance = match spend_in(&mut tx, account_id, price, reason, now).await? {
            Ok(balance) => balance,
            refused => return Ok(refused),
        };
        tx.commit().await?;
        Ok(Ok(balance))
    }

    /// The account's ledger, oldest first: `(delta, reason, balance)`.
    pub async fn ledger(&self, account_id: i64) -> StoreResult<Vec<(i64, String, i64)>> {
        Ok(sqlx::query_as(
            "SELECT delta, reason, balance FROM coin_ledger WHERE account_id = $1 ORDER BY id",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?)
    }
}

/// Takes `price` coins for `reason` inside the caller's transaction: a
/// guarded `UPDATE` (never below zero) and the ledger row, whose reason
/// is unique per account. On a refusal the caller drops (rolls back) the
/// transaction.
pub(super) async fn spend_in(
    tx: &mut sqlx::AnyConnection,
    account_id: i64,
    price: i64,
    reason: &str,
    now: u64,
) -> StoreResult<Result<i64, SpendRefused>> {
    let enough: Option<i64> = sqlx::query_scalar(
        "UPDATE accounts SET coins = coins - $1 WHERE id = $2 AND coins >= $1 RETURNING coins",
    )
    .bind(price)
    .bind(account_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(balance) = enough else {
        return Ok(Err(SpendRefused::TooFew));
    };
    match ledger(tx, account_id, -price, reason, balance, now).await {
        Ok(()) => Ok(Ok(balance)),
        Err(StoreError::Conflict) => Ok(Err(SpendRefused::AlreadyDone)),
        Err(e) => Err(e),
    }
}

/// Adds `delta` to the balance and writes its ledger row; the new balance.
async fn change(
    tx: &mut sqlx::AnyConnection,
    account_id: i64,
    delta: i64,
    reason: &str,
    now: u64,
) -> StoreResult<i64> {
    let balance: i64 =
        sqlx::query_scalar("UPDATE accounts SET coins = coins + $1 WHERE id = $2 RETURNING coins")
            .bind(delta)
            .bind(account_id)
            .fetch_one(&mut *tx)
            .await?;
    ledger(tx, account_id, delta, reason, balance, now).await?;
    Ok(balance)
}

async fn ledger(
    tx: &mut sqlx::AnyConnection,
    account_id: i64,
    delta: i64,
    reason: &str,
    balance: i64,
    now: u64,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO coin_ledger (account_id, delta, reason, balance, at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(account_id)
    .bind(delta)
    .bind(reason)
    .bind(balance)
    .bind(now as i64)
    .execute(tx)
    .await?;
    Ok(())
}
