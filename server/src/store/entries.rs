//! The embedded store's hot path: move entries on SQLite.
//!
//! Moves are nearly all of a busy site's writes. Through sqlx every
//! statement of a batch (BEGIN, the INSERT, COMMIT) is a round trip to
//! sqlx's SQLite worker thread, and the `Any` driver converts every bound
//! value on the way. Here a batch of move entries is one call on a
//! blocking thread holding its own rusqlite connection to the same file:
//! one hand-over per batch, a prepared statement reused row after row,
//! and the same durability (WAL, `synchronous = FULL`, committed before
//! any room answers). The group-commit writer (`batch.rs`) is the only
//! caller, so this connection never competes with itself; the pool's
//! occasional writes (accounts, rooms) wait on SQLite's busy timeout as
//! they already did for one another.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{params, Connection, OpenFlags, TransactionBehavior};

use super::records::EntryRow;
use super::sql::to_json;
use super::{StoreError, StoreResult};

/// The INSERT of `live_entries` rows, up to their values: sqlx's path
/// (`sql.rs`) adds many rows' placeholders, this one a single row's.
pub(super) const INSERT_ENTRIES: &str =
    "INSERT INTO live_entries (game_id, seq, entry, clock, turn) VALUES ";

/// A row's values as both drivers bind them: JSON as text.
pub(super) struct EntryValues {
    pub game: String,
    pub seq: i64,
    pub entry: String,
    pub clock: String,
    pub turn: String,
}

impl EntryValues {
    pub(super) fn of(e: &EntryRow) -> EntryValues {
        EntryValues {
            game: e.game.to_string(),
            seq: i64::from(e.seq),
            entry: to_json(&e.entry),
            clock: to_json(&e.clock),
            turn: to_json(&e.turn),
        }
    }
}

/// The dedicated connection for move entries.
#[derive(Clone)]
pub(super) struct EntryLine {
    /// `None` once the store is closed.
    conn: Arc<Mutex<Option<Connection>>>,
}

impl EntryLine {
    /// Opens `file` (already created and migrated by the pool).
    pub(super) fn open(file: &Path) -> StoreResult<EntryLine> {
        let open = || -> rusqlite::Result<Connection> {
            let conn = Connection::open_with_flags(
                file,
                OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )?;
            conn.busy_timeout(Duration::from_secs(5))?;
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "synchronous", "FULL")?;
            Ok(conn)
        };
        let conn = open().map_err(|e| StoreError::Open(e.to_string()))?;
        Ok(EntryLine {
            conn: Arc::new(Mutex::new(Some(conn))),
        })
    }

    /// Stores `rows` in one transaction; returns once it is committed.
    pub(super) async fn insert(&self, rows: Vec<EntryValues>) -> StoreResult<()> {
        let conn = self.conn.clone();
        let stored = tokio::task::spawn_blocking(move || {
            let mut conn = conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let Some(conn) = conn.as_mut() else {
                return Err(StoreError::Open("the store is closed".to_string()));
            };
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            {
                let mut insert =
                    tx.prepare_cached(&format!("{INSERT_ENTRIES}($1, $2, $3, $4, $5)"))?;
                for r in &rows {
                    insert.execute(params![r.game, r.seq, r.entry, r.clock, r.turn])?;
                }
            }
            tx.commit()?;
            Ok(())
        })
        .await
        .map_err(|e| StoreError::Open(format!("the entry writer stopped: {e}")))?;
        stored
    }

    /// Closes the connection (the last one to close checkpoints the WAL
    /// into the database file).
    pub(super) fn close(&self) {
        let conn = self
            .conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        if let Some(Err((_, e))) = conn.map(Connection::close) {
            tracing::warn!(error = %e, "closing the entry connection");
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::ConstraintViolation) => StoreError::Conflict,
            _ => StoreError::Sqlite(e),
        }
    }
}
