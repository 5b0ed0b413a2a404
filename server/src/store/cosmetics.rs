//! Cosmetics an account bought and chose. A purchase is one transaction:
//! the coins leave through the guarded spend of `coins.rs` (its ledger
//! row `buy ITEM` is unique per account) and the item is recorded as
//! owned, so an item is paid for once and never owned unpaid.

use super::coins::{spend_in, SpendRefused};
use super::{Store, StoreResult};

impl Store {
    /// Buys `item` for `price` coins: the new balance, or why not
    /// (nothing changed then).
    pub async fn buy(
        &self,
        account_id: i64,
        item: &str,
        price: i64,
        now: u64,
    ) -> StoreResult<Result<i64, SpendRefused>> {
        let mut tx = self.pool.begin().await?;
        let balance =
            match spend_in(&mut tx, account_id, price, &format!("buy {item}"), now).await? {
                Ok(balance) => balance,
                refused => return Ok(refused),
            };
        sqlx::query(
            "INSERT INTO cosmetics_owned (account_id, item, bought_at) VALUES ($1, $2, $3)",
        )
        .bind(account_id)
        .bind(item)
        .bind(now as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Ok(balance))
    }

    /// The items the account bought, in the order bought.
    pub async fn owned(&self, account_id: i64) -> StoreResult<Vec<String>> {
        Ok(sqlx::query_scalar(
            "SELECT item FROM cosmetics_owned WHERE account_id = $1 ORDER BY bought_at, item",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Puts `item` in `slot` for the account (the caller checks that the
    /// item is the slot's and owned).
    pub async fn choose(&self, account_id: i64, slot: &str, item: &str) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO cosmetics_chosen (account_id, slot, item) VALUES ($1, $2, $3)
             ON CONFLICT (account_id, slot) DO UPDATE SET item = excluded.item",
        )
        .bind(account_id)
        .bind(slot)
        .bind(item)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The account's choices: `(slot, item)` for each slot it ever chose.
    pub async fn chosen(&self, account_id: i64) -> StoreResult<Vec<(String, String)>> {
        Ok(sqlx::query_as(
            "SELECT slot, item FROM cosmetics_chosen WHERE account_id = $1 ORDER BY slot",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?)
    }
}
