//! Analyses of finished games: one row per game analysed, the job and its
//! results together (`analysis/` runs them). A worker claims the
//! unfinished row with the fewest positions left whose lease ran out
//! (the oldest of those), with one guarded `UPDATE`, so of
//! several workers (on several nodes) exactly one gets it; every position
//! it judges is saved with its lease renewed, and only under its own claim,
//! so a worker that lost its lease (it stalled past it and another took
//! the job) changes nothing. A node's claim is its name: at start it lets
//! its own unfinished claims go, so a restarted node resumes its jobs at
//! once, where it left them.

use serde_json::Value;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Store, StoreResult};

/// The PostgreSQL advisory lock that makes asks for analyses take turns,
/// so the bounds per address and in all hold across nodes ("anly").
const ASK_LOCK: i64 = 0x616e_6c79;

/// A job about to be stored.
pub struct NewAnalysis<'a> {
    pub id: &'a str,
    pub game: &'a str,
    pub options: &'a Value,
    pub moves: &'a [String],
    pub leaves: &'a Value,
    /// Positions to judge (the moves that replay, plus the start).
    pub total: usize,
    /// The asking client's address bucket.
    pub requested_by: &'a str,
    pub now: u64,
}

/// What asking for an analysis did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// Stored now, waiting for a worker.
    New,
    /// It was already there (waiting, running or done).
    Existing,
    /// The address has its allowance of unfinished analyses.
    AddressFull,
    /// The queue is full.
    QueueFull,
}

/// A stored analysis.
#[derive(Clone, Debug)]
pub struct StoredAnalysis {
    pub id: String,
    pub game: String,
    pub options: Value,
    pub moves: Vec<String>,
    pub leaves: Value,
    pub total: usize,
    /// `positions[n]`: the judgement of the position after `n` moves.
    pub positions: Vec<Value>,
    /// `queued`, `running` or `done`.
    pub status: String,
}

fn analysis_of(row: &AnyRow) -> StoredAnalysis {
    let json = |col: &str| {
        serde_json::from_str::<Value>(&row.get::<String, _>(col)).unwrap_or(Value::Null)
    };
    let list = |v: Value| match v {
        Value::Array(a) => a,
        _ => Vec::new(),
    };
    StoredAnalysis {
        id: row.get("id"),
        game: row.get("game"),
        options: json("options"),
        moves: list(json("moves"))
            .into_iter()
            .filter_map(|m| m.as_str().map(str::to_string))
            .collect(),
        leaves: json("leaves"),
        total: row.get::<i64, _>("total").max(0) as usize,
        positions: list(json("positions")),
        status: row.get("status"),
    }
}

const BY_ID: &str =
    "SELECT id, game, options, moves, leaves, total, positions, status FROM analyses WHERE id = $1";

impl Store {
    /// Stores a new analysis job unless it exists, `requested_by` has
    /// `per_addr` unfinished ones, or `queue` are unfinished in all.
    pub async fn ask_analysis(
        &self,
        new: &NewAnalysis<'_>,
        per_addr: i64,
        queue: i64,
    ) -> StoreResult<Asked> {
        // A write transaction from the start (`begin_write`): SQLite's
        // deferred one, reading first, fails at once on a concurrent ask.
        let mut tx = self.turn_taking(ASK_LOCK).await?;
        let exists: Option<String> = sqlx::query_scalar("SELECT id FROM analyses WHERE id = $1")
            .bind(new.id)
            .fetch_optional(&mut *tx)
            .await?;
        if exists.is_some() {
            return Ok(Asked::Existing);
        }
        let mine: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM analyses WHERE requested_by = $1 AND status IN ('queued', 'running')",
        )
        .bind(new.requested_by)
        .fetch_one(&mut *tx)
        .await?;
        if mine >= per_addr {
            return Ok(Asked::AddressFull);
        }
        let all: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM analyses WHERE status IN ('queued', 'running')",
        )
        .fetch_one(&mut *tx)
        .await?;
        if all >= queue {
            return Ok(Asked::QueueFull);
        }
        let stored = sqlx::query(
            "INSERT INTO analyses (id, game, options, moves, leaves, total, requested_by,
                                   requested_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (id) DO NOTHING",
        )
        .bind(new.id)
        .bind(new.game)
        .bind(new.options.to_string())
        .bind(serde_json::to_string(new.moves).unwrap_or_else(|_| "[]".into()))
        .bind(new.leaves.to_string())
        .bind(new.total as i64)
        .bind(new.requested_by)
        .bind(new.now as i64)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(if stored == 1 {
            Asked::New
        } else {
            Asked::Existing
        })
    }

    /// The analysis `id`, as far as it has gone.
    pub async fn analysis(&self, id: &str) -> StoreResult<Option<StoredAnalysis>> {
        let row = sqlx::query(BY_ID)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| analysis_of(&r)))
    }

    /// The status of analysis `id` (`queued`, `running`, `done`), or
    /// `None` when nobody asked for it.
    pub async fn analysis_status(&self, id: &str) -> StoreResult<Option<String>> {
        let row = sqlx::query("SELECT status FROM analyses WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.get("status")))
    }

    /// How far analysis `id` has gone (positions judged, done), cheaply.
    pub async fn analysis_progress(&self, id: &str) -> StoreResult<Option<(i64, bool)>> {
        let row = sqlx::query("SELECT analysed, status FROM analyses WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| (r.get("analysed"), r.get::<String, _>("status") == "done")))
    }

    /// Takes the unfinished analysis with the fewest positions left whose
    /// lease ran out (at `now`; the oldest of those) for `claim` until
    /// `lease_until`, or `None` when none waits. Shortest first: a short
    /// game never waits behind a long one (PROTOCOL.md "Analysis").
    pub async fn claim_analysis(
        &self,
        claim: &str,
        now: u64,
        lease_until: u64,
    ) -> StoreResult<Option<StoredAnalysis>> {
        let id: Option<String> = sqlx::query_scalar(
            "UPDATE analyses SET status = 'running', claim = $1, lease_until = $2, updated_at = $3
             WHERE id = (SELECT id FROM analyses
                         WHERE status IN ('queued', 'running') AND lease_until < $3
                         ORDER BY total - analysed, requested_at, id LIMIT 1)
               AND status != 'done' AND lease_until < $3
             RETURNING id",
        )
        .bind(claim)
        .bind(lease_until as i64)
        .bind(now as i64)
        .fetch_optional(&self.pool)
        .await?;
        match id {
            Some(id) => self.analysis(&id).await,
            None => Ok(None),
        }
    }

    /// Whether an unfinished analysis other than `id`, not held by a
    /// worker (at `now`), has fewer than `left` positions left: the worker
    /// holding `id` then gives it back ([`Store::give_back_analysis`]).
    pub async fn shorter_analysis_waits(
        &self,
        id: &str,
        left: usize,
        now: u64,
    ) -> StoreResult<bool> {
        let found: Option<String> = sqlx::query_scalar(
            "SELECT id FROM analyses
             WHERE status IN ('queued', 'running') AND lease_until < $1 AND id != $2
               AND total - analysed < $3
             LIMIT 1",
        )
        .bind(now as i64)
        .bind(id)
        .bind(left as i64)
        .fetch_optional(&self.pool)
        .await?;
        Ok(found.is_some())
    }

    /// `claim` lets go of analysis `id` (what it judged stays), to be
    /// claimed again at once, by whichever worker comes first.
    pub async fn give_back_analysis(&self, id: &str, claim: &str) -> StoreResult<()> {
        sqlx::query(
            "UPDATE analyses SET lease_until = 0, status = 'queued'
             WHERE id = $1 AND claim = $2 AND status != 'done'",
        )
        .bind(id)
        .bind(claim)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Saves the positions judged so far under `claim` (and the lease
    /// until `lease_until`; `done` ends the job). `false` when the job is
    /// no longer this claim's.
    pub async fn save_analysis(
        &self,
        id: &str,
        claim: &str,
        positions: &[Value],
        done: bool,
        lease_until: u64,
        now: u64,
    ) -> StoreResult<bool> {
        let changed = sqlx::query(
            "UPDATE analyses SET positions = $1, analysed = $2, status = $3, lease_until = $4,
                                 updated_at = $5
             WHERE id = $6 AND claim = $7 AND status != 'done'",
        )
        .bind(Value::Array(positions.to_vec()).to_string())
        .bind(positions.len() as i64)
        .bind(if done { "done" } else { "running" })
        .bind(lease_until as i64)
        .bind(now as i64)
        .bind(id)
        .bind(claim)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(changed == 1)
    }

    /// Lets go of `claim`'s unfinished analyses (at a node's start: its
    /// previous run's), so they are taken again at once.
    pub async fn release_analyses(&self, claim: &str) -> StoreResult<u64> {
        Ok(sqlx::query(
            "UPDATE analyses SET lease_until = 0, status = 'queued'
             WHERE claim = $1 AND status != 'done'",
        )
        .bind(claim)
        .execute(&self.pool)
        .await?
        .rows_affected())
    }
}
