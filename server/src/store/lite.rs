//! The embedded store's write connection: the group-commit writer's own
//! rusqlite connection to the SQLite file.
//!
//! Through sqlx every statement of a batch is a round trip to sqlx's
//! SQLite worker thread, and the `Any` driver converts every bound value
//! on the way. Here a whole batch (its move entries, a game's end and the
//! next one's start, chat, members) is one call on a blocking thread:
//! one hand-over, prepared statements reused, one transaction and one
//! disk sync, with the same durability (WAL, `synchronous = FULL`,
//! committed before any room answers). The writer (`batch.rs`) is the
//! only caller, so this connection never competes with itself; the
//! pool's occasional writes (accounts, new rooms) wait on SQLite's busy
//! timeout as they already did for one another.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::types::{Null, ToSql, ToSqlOutput, Value};
use rusqlite::{Connection, OpenFlags};

use super::db::{entry_values, Arg, Db, LiteRow, Query, Row, INSERT_ENTRIES};
use super::records::EntryRow;
use super::{StoreError, StoreResult};

/// Distinct statements a batch may run (every kind of write, the lease
/// check aside), with room to spare.
const STATEMENTS: usize = 64;

/// The writer's connection.
#[derive(Clone)]
pub(super) struct WriteLine {
    /// `None` once the store is closed.
    conn: Arc<Mutex<Option<Connection>>>,
}

impl WriteLine {
    /// Opens `file` (already created and migrated by the pool).
    pub(super) fn open(file: &Path) -> StoreResult<WriteLine> {
        let open = || -> rusqlite::Result<Connection> {
            let conn = Connection::open_with_flags(
                file,
                OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )?;
            conn.busy_timeout(Duration::from_secs(5))?;
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "synchronous", "FULL")?;
            // As sqlx's connections have them (the bundled SQLite turns
            // them on by default too; a system one may not).
            conn.pragma_update(None, "foreign_keys", "ON")?;
            conn.set_prepared_statement_cache_capacity(STATEMENTS);
            Ok(conn)
        };
        let conn = open().map_err(|e| StoreError::Open(e.to_string()))?;
        Ok(WriteLine {
            conn: Arc::new(Mutex::new(Some(conn))),
        })
    }

    /// Runs `work` on the connection, on a blocking thread.
    pub(super) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Lite<'_>) -> T + Send + 'static,
    ) -> StoreResult<T> {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            match conn.as_mut() {
                Some(conn) => {
                    let mut lite = Lite(conn);
                    // A batch that panicked halfway left its transaction
                    // open; it is rolled back before the next one begins.
                    lite.rollback();
                    Ok(work(&mut lite))
                }
                None => Err(StoreError::Open("the store is closed".to_string())),
            }
        })
        .await
        .map_err(|e| StoreError::Open(format!("the store's writer stopped: {e}")))?
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
            tracing::warn!(error = %e, "closing the write connection");
        }
    }
}

/// The write connection, lent to one batch.
pub(super) struct Lite<'c>(&'c mut Connection);

impl Lite<'_> {
    /// Runs `sql` (BEGIN, COMMIT, ROLLBACK) as it is.
    pub(super) fn batch(&mut self, sql: &str) -> StoreResult<()> {
        Ok(self.0.execute_batch(sql)?)
    }

    /// Ends a failed transaction, if one is still open.
    pub(super) fn rollback(&mut self) {
        if self.0.is_autocommit() {
            return;
        }
        if let Err(e) = self.0.execute_batch("ROLLBACK") {
            tracing::warn!(error = %e, "rolling back a failed batch");
        }
    }
}

impl ToSql for Arg {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Arg::Int(Some(v)) => ToSqlOutput::from(*v),
            Arg::Real(v) => ToSqlOutput::from(*v),
            Arg::Text(Some(v)) => ToSqlOutput::from(v.as_str()),
            Arg::Int(None) | Arg::Text(None) => ToSqlOutput::from(Null),
        })
    }
}

/// Binds `args` to `statement` as sqlx does: a placeholder `$N` takes the
/// N-th value wherever it stands (SQLite itself numbers named
/// placeholders in the order they first appear, so `… $9 … $8` would
/// swap them).
fn bind(statement: &mut rusqlite::Statement<'_>, args: &[Arg]) -> StoreResult<()> {
    for i in 1..=statement.parameter_count() {
        let n = match statement.parameter_name(i) {
            Some(name) => name
                .strip_prefix(['$', '?'])
                .and_then(|n| n.parse::<usize>().ok())
                .ok_or_else(|| rusqlite::Error::InvalidParameterName(name.to_string()))?,
            None => i,
        };
        let arg = n
            .checked_sub(1)
            .and_then(|n| args.get(n))
            .ok_or(rusqlite::Error::InvalidParameterCount(n, args.len()))?;
        statement.raw_bind_parameter(i, arg)?;
    }
    Ok(())
}

impl Db for Lite<'_> {
    async fn execute(&mut self, query: Query) -> StoreResult<u64> {
        let mut statement = self.0.prepare_cached(&query.sql)?;
        bind(&mut statement, &query.args)?;
        Ok(statement.raw_execute()? as u64)
    }

    async fn fetch_all(&mut self, query: Query) -> StoreResult<Vec<Row>> {
        let mut statement = self.0.prepare_cached(&query.sql)?;
        let columns: Arc<[String]> = statement
            .column_names()
            .into_iter()
            .map(str::to_string)
            .collect();
        bind(&mut statement, &query.args)?;
        let mut rows = statement.raw_query();
        let mut read = Vec::new();
        while let Some(row) = rows.next()? {
            let values = (0..columns.len())
                .map(|i| row.get::<_, Value>(i))
                .collect::<rusqlite::Result<_>>()?;
            read.push(Row::Lite(LiteRow {
                columns: columns.clone(),
                values,
            }));
        }
        Ok(read)
    }

    /// One prepared single-row INSERT, run row after row: no statement
    /// to build, nothing to parse again.
    async fn insert_entries(&mut self, entries: &[&EntryRow]) -> StoreResult<()> {
        if entries.is_empty() {
            return Ok(());
        }
        let mut insert = self
            .0
            .prepare_cached(&format!("{INSERT_ENTRIES}($1, $2, $3, $4, $5)"))?;
        for e in entries {
            bind(&mut insert, &entry_values(e))?;
            insert.raw_execute()?;
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch that panics halfway through its transaction leaves the
    /// connection as if it had never begun: the next batch finds no
    /// transaction open and none of the half-done writes.
    #[tokio::test]
    async fn a_batch_that_panicked_leaves_no_transaction_open() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("t.db");
        Connection::open(&file)
            .and_then(|c| c.execute_batch("CREATE TABLE t (x INTEGER)"))
            .expect("table");
        let line = WriteLine::open(&file).expect("open");
        let failed = line
            .run(|lite| {
                lite.batch("BEGIN IMMEDIATE").expect("begin");
                lite.batch("INSERT INTO t VALUES (1)").expect("insert");
                panic!("a batch stops halfway");
            })
            .await;
        assert!(failed.is_err(), "the panic is the caller's error");
        let (open, rows) = line
            .run(|lite| {
                let open = !lite.0.is_autocommit();
                let rows: i64 = lite
                    .0
                    .query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))
                    .expect("count");
                (open, rows)
            })
            .await
            .expect("the connection still works");
        assert!(!open, "no transaction is left open");
        assert_eq!(rows, 0, "the half-done batch wrote nothing");
        line.run(|lite| lite.batch("BEGIN IMMEDIATE; INSERT INTO t VALUES (2); COMMIT"))
            .await
            .expect("run")
            .expect("the next batch commits");
        line.close();
    }
}
