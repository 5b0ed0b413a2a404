//! Room leases with fencing tokens: which node owns a live room.
//!
//! The lease lives in the store (`room_leases`), not in NATS: the check
//! that makes a stale owner harmless must happen inside the same
//! transaction as its write, and only the database can do that. Taking a
//! room raises its token; every write of a room's task carries the token
//! it was given ([`Fence`]) and is refused, storing nothing, once the
//! token has moved on (`check_fence`, run by the group-commit writer at
//! the start of the room's part of the transaction). A node that was
//! paused past its lease can therefore never write for that room again.
//!
//! Time is the nodes' wall clock in milliseconds. Clock skew between nodes
//! only moves when a lease counts as expired (liveness), never who may
//! write (safety): that is the token alone.

use sqlx::Row;

use super::db::{query_built, Db};
use super::{Backend, Store, StoreError, StoreResult};

/// The token a room's owner writes with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fence(pub i64);

/// A room's lease as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    pub node: String,
    pub token: i64,
    /// Unix milliseconds.
    pub expires_at: u64,
}

impl Store {
    /// Whether the database answers a query (`/healthz`).
    pub async fn ping(&self) -> StoreResult<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Takes room `code` for `node` until `now + ttl_ms`, if no other node
    /// holds a lease on it that is still running at `now`. The token goes
    /// up by one on every take, so the previous holder (even this node's
    /// own earlier task) is fenced off. `None` when another node holds it.
    pub async fn acquire(
        &self,
        code: &str,
        node: &str,
        now: u64,
        ttl_ms: u64,
    ) -> StoreResult<Option<Fence>> {
        let token: Option<i64> = sqlx::query_scalar(
            "INSERT INTO room_leases (room_code, node, token, expires_at)
             VALUES ($1, $2, 1, $3)
             ON CONFLICT (room_code) DO UPDATE SET
                node = excluded.node, token = room_leases.token + 1,
                expires_at = excluded.expires_at
             WHERE room_leases.expires_at <= $4 OR room_leases.node = $2
             RETURNING token",
        )
        .bind(code)
        .bind(node)
        .bind((now + ttl_ms) as i64)
        .bind(now as i64)
        .fetch_optional(&self.pool)
        .await?;
        Ok(token.map(Fence))
    }

    /// Extends, in one statement, every lease `node` holds that is still
    /// running at `now`, to `now + ttl_ms`; returns them (room code and
    /// token). A room this node runs that is missing from the answer, or
    /// comes back with another token, is no longer this node's.
    pub async fn renew_all(
        &self,
        node: &str,
        now: u64,
        ttl_ms: u64,
    ) -> StoreResult<Vec<(String, Fence)>> {
        // On PostgreSQL the rows are locked in room-code order, so two
        // renewals (or a renewal and a takeover) never deadlock; the
        // group-commit writer's fence check locks no rows
        // (`check_fences`, migration `fence_locks`).
        let sql = match self.backend {
            Backend::Sqlite => {
                "UPDATE room_leases SET expires_at = $1 WHERE node = $2 AND expires_at > $3
                 RETURNING room_code, token"
            }
            Backend::Postgres => {
                "UPDATE room_leases SET expires_at = $1 WHERE room_code IN (
                    SELECT room_code FROM room_leases WHERE node = $2 AND expires_at > $3
                    ORDER BY room_code FOR UPDATE)
                 RETURNING room_code, token"
            }
        };
        let rows = sqlx::query(sql)
            .bind((now + ttl_ms) as i64)
            .bind(node)
            .bind(now as i64)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|row| (row.get("room_code"), Fence(row.get("token"))))
            .collect())
    }

    /// Lets every room leased under `node` go at once: a node starting
    /// holds no room yet, so leases under its id are a previous run's (one
    /// killed and started again with the same `--node-id`, which would
    /// otherwise renew them for rooms it never loads). Called once at
    /// start, after the check that no live node has this id, before any
    /// room is taken.
    pub async fn release_node(&self, node: &str) -> StoreResult<u64> {
        let done = sqlx::query("UPDATE room_leases SET expires_at = 0 WHERE node = $1")
            .bind(node)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Lets the room go at once (a node shutting down hands it over): the
    /// next node to ask takes it without waiting for the lease to run out.
    pub async fn release(&self, code: &str, fence: Fence) -> StoreResult<()> {
        sqlx::query("UPDATE room_leases SET expires_at = 0 WHERE room_code = $1 AND token = $2")
            .bind(code)
            .bind(fence.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The room's lease, if it was ever taken.
    pub async fn lease(&self, code: &str) -> StoreResult<Option<Lease>> {
        let row =
            sqlx::query("SELECT node, token, expires_at FROM room_leases WHERE room_code = $1")
                .bind(code)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|row| Lease {
            node: row.get("node"),
            token: row.get("token"),
            expires_at: row.get::<i64, _>("expires_at").max(0) as u64,
        }))
    }
}

/// Refuses the transaction's writes unless each room's fence is still its
/// token: one statement for the whole batch, on SQLite, where the
/// writer's transaction holds the database's write lock (BEGIN
/// IMMEDIATE) until it ends, so no node takes a room over in between.
/// On PostgreSQL the database function `check_fences` does the same
/// under advisory locks (`pg.rs`). `fences` is sorted by code.
pub(super) async fn check_fences(tx: &mut impl Db, fences: &[(&str, Fence)]) -> StoreResult<()> {
    if fences.is_empty() {
        return Ok(());
    }
    let list: Vec<String> = (1..=fences.len()).map(|i| format!("${i}")).collect();
    // Only placeholders are spliced in; the codes are bound.
    let sql = format!(
        "SELECT room_code, token FROM room_leases WHERE room_code IN ({})",
        list.join(", ")
    );
    let mut query = query_built(sql);
    for (code, _) in fences {
        query = query.bind(*code);
    }
    let mut held = std::collections::HashMap::new();
    for row in query.fetch_all(tx).await? {
        held.insert(
            row.text("room_code")?.unwrap_or_default(),
            row.int("token")?,
        );
    }
    for (code, fence) in fences {
        if held.get(*code) != Some(&fence.0) {
            return Err(StoreError::Fenced(code.to_string()));
        }
    }
    Ok(())
}
