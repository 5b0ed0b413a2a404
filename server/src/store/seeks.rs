//! Quick pairing's open seeks (`seeks`), shared by every node.
//!
//! A seek is placed and paired in one transaction ([`Store::place_seek`]):
//! the new row goes in, and the oldest compatible open seek (same game,
//! time control and rated mark, each rating inside the other's range,
//! not the same browser or account, heartbeat fresh) is claimed by a
//! conditional `UPDATE … WHERE partner IS NULL`. Those transactions
//! take turns (SQLite: one writer at a time; PostgreSQL: an advisory
//! lock held to the commit), so every placed seek sees every earlier
//! one: two compatible seekers are always paired, and a seek is claimed
//! at most once. A seek's node renews its heartbeat; a row whose
//! heartbeat is older than the TTL is ignored and swept, so a node's
//! crash leaves no ghost.

use sqlx::Row as _;

use super::{Store, StoreResult};

/// The PostgreSQL advisory lock that makes seek placements take turns.
const SEEK_LOCK: i64 = 0x6267_7365_656b;

/// A seek about to be placed.
#[derive(Clone, Debug)]
pub struct NewSeek {
    pub id: String,
    pub node: String,
    pub game: String,
    pub preset: String,
    pub rated: bool,
    pub account: Option<i64>,
    pub token_hash: String,
    pub rating: i64,
    pub range_lo: i64,
    pub range_hi: i64,
}

/// The other seek of a pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partner {
    pub id: String,
    pub node: String,
    pub account: Option<i64>,
}

/// What placing a seek did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placed {
    /// Stored, waiting for an opponent.
    Waiting,
    /// Paired at once with this earlier seek (both rows now carry their
    /// partner).
    Paired(Partner),
    /// The account has this many open seeks already: nothing stored.
    TooMany,
}

impl Store {
    /// Places `seek` at `now` and pairs it with the oldest compatible
    /// open seek whose heartbeat is at least `fresh_since`, in one
    /// transaction. An account may hold `per_account` open seeks.
    pub async fn place_seek(
        &self,
        seek: &NewSeek,
        now: u64,
        fresh_since: u64,
        per_account: i64,
    ) -> StoreResult<Placed> {
        let mut tx = self.turn_taking(SEEK_LOCK).await?;
        if let Some(account) = seek.account {
            let open: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM seeks
                  WHERE account_id = $1 AND partner IS NULL AND heartbeat >= $2",
            )
            .bind(account)
            .bind(fresh_since as i64)
            .fetch_one(&mut *tx)
            .await?;
            if open >= per_account {
                tx.rollback().await?;
                return Ok(Placed::TooMany);
            }
        }
        sqlx::query(
            "INSERT INTO seeks (id, node, game, preset, rated, account_id, token_hash, rating,
                                range_lo, range_hi, created_at, heartbeat)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)",
        )
        .bind(&seek.id)
        .bind(&seek.node)
        .bind(&seek.game)
        .bind(&seek.preset)
        .bind(i64::from(seek.rated))
        .bind(seek.account)
        .bind(&seek.token_hash)
        .bind(seek.rating)
        .bind(seek.range_lo)
        .bind(seek.range_hi)
        .bind(now as i64)
        .execute(&mut *tx)
        .await?;
        let found = sqlx::query(
            "SELECT id, node, account_id FROM seeks
              WHERE game = $1 AND preset = $2 AND rated = $3 AND partner IS NULL
                AND heartbeat >= $4 AND id <> $5 AND token_hash <> $6
                AND (account_id IS NULL OR account_id <> $7)
                AND rating >= $8 AND rating <= $9 AND range_lo <= $10 AND range_hi >= $10
              ORDER BY created_at, id LIMIT 1",
        )
        .bind(&seek.game)
        .bind(&seek.preset)
        .bind(i64::from(seek.rated))
        .bind(fresh_since as i64)
        .bind(&seek.id)
        .bind(&seek.token_hash)
        .bind(seek.account.unwrap_or(-1))
        .bind(seek.range_lo)
        .bind(seek.range_hi)
        .bind(seek.rating)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = found else {
            tx.commit().await?;
            return Ok(Placed::Waiting);
        };
        let partner = Partner {
            id: row.get("id"),
            node: row.get("node"),
            account: row.get("account_id"),
        };
        let claimed =
            sqlx::query("UPDATE seeks SET partner = $1 WHERE id = $2 AND partner IS NULL")
                .bind(&seek.id)
                .bind(&partner.id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        if claimed != 1 {
            // Cannot happen while placements take turns; stay waiting.
            tx.commit().await?;
            return Ok(Placed::Waiting);
        }
        sqlx::query("UPDATE seeks SET partner = $1 WHERE id = $2")
            .bind(&partner.id)
            .bind(&seek.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Placed::Paired(partner))
    }

    /// Withdraws seek `id` if nobody paired it yet; true if it was open.
    pub async fn cancel_seek(&self, id: &str) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM seeks WHERE id = $1 AND partner IS NULL")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Deletes seek `id` whatever its state (a pairing carried out, or
    /// one that could not be).
    pub async fn delete_seek(&self, id: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM seeks WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Renews the heartbeat of `node`'s open seeks, and sweeps every
    /// seek whose heartbeat is older than `stale_before` (its node is
    /// gone).
    pub async fn renew_seeks(&self, node: &str, now: u64, stale_before: u64) -> StoreResult<()> {
        sqlx::query("UPDATE seeks SET heartbeat = $1 WHERE node = $2")
            .bind(now as i64)
            .bind(node)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM seeks WHERE heartbeat < $1")
            .bind(stale_before as i64)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Open (unpaired, fresh) seeks, for the tests and the logs.
    pub async fn open_seeks(&self, fresh_since: u64) -> StoreResult<i64> {
        Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM seeks WHERE partner IS NULL AND heartbeat >= $1",
        )
        .bind(fresh_since as i64)
        .fetch_one(&self.pool)
        .await?)
    }
}
