//! The embedded store's write connection: the group-commit writer's own
//! rusqlite connection to the SQLite file.
//!
//! Through sqlx every statement of a batch is a round trip to sqlx's
//! SQLite worker thread, and the `Any` driver converts every bound value
//! on the way. Here a whole batch (its move entries, a game's end and the
//! next one's start, chat, members) is one call on the writer's own
//! thread: prepared statements reused, one transaction and one disk
//! sync, with the same durability (WAL, `synchronous = FULL`, committed
//! before any room answers). The writer (`batch.rs`) is the only
//! caller, so this connection never competes with itself; the pool's
//! occasional writes (accounts, new rooms) wait on SQLite's busy
//! timeout as they already did for one another. A checkpointer thread
//! with a connection of its own copies the WAL into the database file
//! beside it (`WriteLine::open`).

use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rusqlite::types::{Null, ToSql, ToSqlOutput, Value};
use rusqlite::{Connection, OpenFlags};

use super::db::{entry_row, entry_values, Arg, Db, LiteRow, Query, Row, INSERT_ENTRIES};
use super::{StoreError, StoreResult};
use crate::model::records::EntryRow;

/// Distinct statements a batch may run (every kind of write, the lease
/// check aside), with room to spare.
const STATEMENTS: usize = 64;

/// WAL pages after which the write connection checkpoints by itself: a
/// backstop, for when the checkpointer (below) cannot catch up while
/// commits keep coming (a passive checkpoint never finishes under a
/// steady stream of commits, and the WAL only starts over once one has).
/// SQLite's default is 1 000 pages.
const WRITER_CHECKPOINT_PAGES: i64 = 10_000;
/// The checkpointer runs at most this often.
const CHECKPOINT_GAP: Duration = Duration::from_millis(200);

/// The writer's connection.
#[derive(Clone)]
pub(super) struct WriteLine {
    /// `None` once the store is closed.
    line: Arc<Mutex<Option<Line>>>,
}

struct Line {
    conn: Connection,
    /// Wakes the checkpointer after a batch.
    wake: SyncSender<()>,
    checkpointer: JoinHandle<()>,
}

impl WriteLine {
    /// Opens `file` (already created and migrated by the pool), and its
    /// checkpointer.
    ///
    /// SQLite copies the WAL back into the database file (a checkpoint)
    /// on the connection whose commit made the WAL pass 1 000 pages, in
    /// that commit: on this one, nearly always, so every few hundred
    /// moves one batch also wrote and synced a thousand pages of the
    /// database file while every room in it waited. A thread of its own
    /// does that instead, with a connection of its own, a passive
    /// checkpoint at most every `CHECKPOINT_GAP` after commits, beside
    /// the writer. Measured with `bench many-rooms --rooms 1000 --rate
    /// 20` (BENCHMARKS.md, "fifth part").
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
            Ok(conn)
        };
        let opened = || -> rusqlite::Result<(Connection, Connection)> {
            let conn = open()?;
            conn.pragma_update(None, "wal_autocheckpoint", WRITER_CHECKPOINT_PAGES)?;
            conn.set_prepared_statement_cache_capacity(STATEMENTS);
            Ok((conn, open()?))
        };
        let (conn, checkpoints) = opened().map_err(|e| StoreError::Open(e.to_string()))?;
        let (wake, woken) = sync_channel(1);
        let checkpointer = std::thread::Builder::new()
            .name("store-checkpoint".to_string())
            .spawn(move || checkpointer(checkpoints, woken))
            .map_err(|e| StoreError::Open(format!("starting the checkpointer: {e}")))?;
        Ok(WriteLine {
            line: Arc::new(Mutex::new(Some(Line {
                conn,
                wake,
                checkpointer,
            }))),
        })
    }

    /// Runs `work` on the connection, on this thread (the writer's own,
    /// `batch.rs`). A panic in `work` is this call's error, and the
    /// connection stays usable.
    pub(super) fn run<T>(&self, work: impl FnOnce(&mut Lite<'_>) -> T) -> StoreResult<T> {
        let mut line = self
            .line
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(line) = line.as_mut() else {
            return Err(StoreError::Open("the store is closed".to_string()));
        };
        let mut lite = Lite(&mut line.conn);
        // A batch that panicked halfway left its transaction open; it is
        // rolled back before the next one begins.
        lite.rollback();
        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&mut lite)))
            .map_err(|_| StoreError::Open("a batch of writes panicked".to_string()));
        // Full: the checkpointer is already due to run.
        let _ = line.wake.try_send(());
        done
    }

    /// Closes the connection, after the checkpointer has stopped (the
    /// last connection to close checkpoints the WAL into the database
    /// file).
    pub(super) fn close(&self) {
        let line = self
            .line
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        let Some(Line {
            conn,
            wake,
            checkpointer,
        }) = line
        else {
            return;
        };
        drop(wake);
        if checkpointer.join().is_err() {
            tracing::warn!("the checkpointer panicked");
        }
        if let Err((_, e)) = conn.close() {
            tracing::warn!(error = %e, "closing the write connection");
        }
    }
}

/// Checkpoints the WAL after commits (a wake each), at most every
/// `CHECKPOINT_GAP`, until the write line is closed. A passive
/// checkpoint takes no lock the writer needs: it copies what it can and
/// leaves the rest to the next one.
fn checkpointer(conn: Connection, woken: Receiver<()>) {
    let mut due = woken.recv().is_ok();
    while due {
        let done = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
        if let Err(e) = done {
            tracing::warn!(error = %e, "checkpointing the WAL");
        }
        let until = Instant::now() + CHECKPOINT_GAP;
        due = false;
        loop {
            match woken.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(()) => due = true,
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        if !due {
            due = woken.recv().is_ok();
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
    async fn execute(&mut self, query: Query) -> StoreResult<()> {
        let mut statement = self.0.prepare_cached(&query.sql)?;
        bind(&mut statement, &query.args)?;
        statement.raw_execute()?;
        Ok(())
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
            .prepare_cached(&format!("{INSERT_ENTRIES}{}", entry_row(0)))?;
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

    /// A write line on a new database file with one table `t (x)`; the
    /// directory lives as long as the line is used.
    fn line_on_new_file() -> (tempfile::TempDir, std::path::PathBuf, WriteLine) {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("t.db");
        Connection::open(&file)
            .and_then(|c| c.execute_batch("CREATE TABLE t (x)"))
            .expect("table");
        let line = WriteLine::open(&file).expect("open");
        (dir, file, line)
    }

    /// A batch that panics halfway through its transaction leaves the
    /// connection as if it had never begun: the next batch finds no
    /// transaction open and none of the half-done writes.
    #[test]
    fn a_batch_that_panicked_leaves_no_transaction_open() {
        let (_dir, _file, line) = line_on_new_file();
        let failed = line.run(|lite| {
            lite.batch("BEGIN IMMEDIATE").expect("begin");
            lite.batch("INSERT INTO t VALUES (1)").expect("insert");
            panic!("a batch stops halfway");
        });
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
            .expect("the connection still works");
        assert!(!open, "no transaction is left open");
        assert_eq!(rows, 0, "the half-done batch wrote nothing");
        line.run(|lite| lite.batch("BEGIN IMMEDIATE; INSERT INTO t VALUES (2); COMMIT"))
            .expect("run")
            .expect("the next batch commits");
        line.close();
    }

    /// What the write line commits reaches the database file through the
    /// checkpointer, well before the writer's own backstop would copy it.
    #[test]
    fn the_checkpointer_copies_commits_into_the_database_file() {
        let (_dir, file, line) = line_on_new_file();
        let before = std::fs::metadata(&file).expect("file").len();
        // About 100 pages: far under the writer's backstop.
        line.run(|lite| {
            lite.batch(
                "BEGIN IMMEDIATE;
                 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
                 INSERT INTO t SELECT hex(randomblob(1000)) FROM n;
                 COMMIT",
            )
        })
        .expect("run")
        .expect("commit");
        let grown = (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(50));
            std::fs::metadata(&file).expect("file").len() > before + 300_000
        });
        assert!(grown, "the commit was checkpointed into the database file");
        line.close();
    }
}
