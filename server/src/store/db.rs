//! The connection a room's writes run on, written once for three drivers.
//!
//! The group-commit writer (`batch.rs`) stores a batch in one
//! transaction. On an in-memory SQLite that is a sqlx connection; on the
//! embedded SQLite file it is the writer's own rusqlite connection on a
//! blocking thread (`lite.rs`), where a batch is one hand-over instead of
//! a round trip to sqlx's worker thread per statement; on PostgreSQL it
//! is the writer's own tokio-postgres connection (`pg.rs`), which sends
//! a batch's statements without waiting between them. The write
//! functions (`write.rs` `apply`, the history, the ratings, the lease
//! check) are written against [`Db`], so each statement exists once: a
//! [`Query`] is its SQL and bound values, a [`Row`] reads a result back
//! by column name on any driver.

use std::borrow::Cow;
use std::future::Future;
use std::sync::Arc;

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row as _};
use tokio_postgres::types::Type;

use super::{StoreError, StoreResult};
use crate::model::records::EntryRow;

/// A bound value. Nulls keep their type: PostgreSQL will not put a text
/// null into an integer column.
#[derive(Clone, Debug)]
pub(super) enum Arg {
    Int(Option<i64>),
    Real(f64),
    Text(Option<String>),
}

impl From<i64> for Arg {
    fn from(v: i64) -> Arg {
        Arg::Int(Some(v))
    }
}

impl From<Option<i64>> for Arg {
    fn from(v: Option<i64>) -> Arg {
        Arg::Int(v)
    }
}

impl From<f64> for Arg {
    fn from(v: f64) -> Arg {
        Arg::Real(v)
    }
}

impl From<String> for Arg {
    fn from(v: String) -> Arg {
        Arg::Text(Some(v))
    }
}

impl From<&str> for Arg {
    fn from(v: &str) -> Arg {
        Arg::Text(Some(v.to_string()))
    }
}

impl From<&String> for Arg {
    fn from(v: &String) -> Arg {
        Arg::Text(Some(v.clone()))
    }
}

impl From<Option<String>> for Arg {
    fn from(v: Option<String>) -> Arg {
        Arg::Text(v)
    }
}

impl From<&Option<String>> for Arg {
    fn from(v: &Option<String>) -> Arg {
        Arg::Text(v.clone())
    }
}

impl From<Option<&str>> for Arg {
    fn from(v: Option<&str>) -> Arg {
        Arg::Text(v.map(str::to_string))
    }
}

/// A statement and its values, run with [`Query::execute`] or read with
/// the `fetch_*` methods.
pub(super) struct Query {
    pub(super) sql: Cow<'static, str>,
    pub(super) args: Vec<Arg>,
}

/// A statement written out in the source.
pub(super) fn query(sql: &'static str) -> Query {
    Query {
        sql: Cow::Borrowed(sql),
        args: Vec::new(),
    }
}

/// A statement put together at run time. Only placeholders may be
/// formatted into `sql`; every value is bound.
pub(super) fn query_built(sql: String) -> Query {
    Query {
        sql: Cow::Owned(sql),
        args: Vec::new(),
    }
}

impl Query {
    pub(super) fn bind(mut self, value: impl Into<Arg>) -> Query {
        self.args.push(value.into());
        self
    }

    /// Runs it. On the PostgreSQL writer it is only sent with the rest of
    /// the batch (`pg.rs`): its failure fails the batch's commit.
    pub(super) async fn execute(self, db: &mut impl Db) -> StoreResult<()> {
        db.execute(self).await
    }

    pub(super) async fn fetch_all(self, db: &mut impl Db) -> StoreResult<Vec<Row>> {
        db.fetch_all(self).await
    }

    pub(super) async fn fetch_optional(self, db: &mut impl Db) -> StoreResult<Option<Row>> {
        Ok(db.fetch_all(self).await?.into_iter().next())
    }

    pub(super) async fn fetch_one(self, db: &mut impl Db) -> StoreResult<Row> {
        self.fetch_optional(db)
            .await?
            .ok_or(StoreError::Database(sqlx::Error::RowNotFound))
    }

    /// The same statement for sqlx.
    fn sqlx(self) -> sqlx::query::Query<'static, sqlx::Any, sqlx::any::AnyArguments> {
        let mut query = match self.sql {
            Cow::Borrowed(sql) => sqlx::query(sql),
            // Built by `query_built`: placeholders only.
            Cow::Owned(sql) => sqlx::query(sqlx::AssertSqlSafe(sql)),
        };
        for arg in self.args {
            query = match arg {
                Arg::Int(v) => query.bind(v),
                Arg::Real(v) => query.bind(v),
                Arg::Text(v) => query.bind(v),
            };
        }
        query
    }
}

/// A result row from any of the drivers.
pub(super) enum Row {
    Sqlx(AnyRow),
    Lite(LiteRow),
    /// From the PostgreSQL writer's own connection (`pg.rs`).
    Pg(tokio_postgres::Row),
}

/// A row as rusqlite read it: its values by column.
pub(super) struct LiteRow {
    pub(super) columns: Arc<[String]>,
    pub(super) values: Vec<rusqlite::types::Value>,
}

impl LiteRow {
    /// The value of `column`, with its index.
    fn get(&self, column: &str) -> StoreResult<(usize, &rusqlite::types::Value)> {
        self.columns
            .iter()
            .position(|c| c == column)
            .and_then(|i| Some((i, self.values.get(i)?)))
            .ok_or_else(|| rusqlite::Error::InvalidColumnName(column.to_string()).into())
    }
}

impl Row {
    fn mismatch(i: usize, column: &str, value: &rusqlite::types::Value) -> StoreError {
        rusqlite::Error::InvalidColumnType(i, column.to_string(), value.data_type()).into()
    }

    pub(super) fn int(&self, column: &str) -> StoreResult<i64> {
        use rusqlite::types::Value;
        match self {
            Row::Sqlx(row) => Ok(row.try_get(column)?),
            Row::Pg(row) => pg_int(row, column),
            Row::Lite(row) => match row.get(column)? {
                (_, Value::Integer(v)) => Ok(*v),
                (i, other) => Err(Row::mismatch(i, column, other)),
            },
        }
    }

    pub(super) fn real(&self, column: &str) -> StoreResult<f64> {
        use rusqlite::types::Value;
        match self {
            Row::Sqlx(row) => Ok(row.try_get(column)?),
            Row::Pg(row) => pg_real(row, column),
            Row::Lite(row) => match row.get(column)? {
                (_, Value::Real(v)) => Ok(*v),
                (_, Value::Integer(v)) => Ok(*v as f64),
                (i, other) => Err(Row::mismatch(i, column, other)),
            },
        }
    }

    pub(super) fn text(&self, column: &str) -> StoreResult<Option<String>> {
        use rusqlite::types::Value;
        match self {
            Row::Sqlx(row) => Ok(row.try_get(column)?),
            Row::Pg(row) => Ok(row.try_get(column)?),
            Row::Lite(row) => match row.get(column)? {
                (_, Value::Text(v)) => Ok(Some(v.clone())),
                (_, Value::Null) => Ok(None),
                (i, other) => Err(Row::mismatch(i, column, other)),
            },
        }
    }
}

/// The type of `column` in a PostgreSQL row.
fn column_type(row: &tokio_postgres::Row, column: &str) -> Option<Type> {
    let found = row.columns().iter().find(|c| c.name() == column);
    found.map(|c| c.type_().clone())
}

/// An integer column of a PostgreSQL row, whatever its width.
fn pg_int(row: &tokio_postgres::Row, column: &str) -> StoreResult<i64> {
    Ok(match column_type(row, column) {
        Some(Type::INT4) => i64::from(row.try_get::<_, i32>(column)?),
        Some(Type::INT2) => i64::from(row.try_get::<_, i16>(column)?),
        _ => row.try_get::<_, i64>(column)?,
    })
}

/// A floating-point column of a PostgreSQL row (or an integer one).
fn pg_real(row: &tokio_postgres::Row, column: &str) -> StoreResult<f64> {
    Ok(match column_type(row, column) {
        Some(Type::FLOAT4) => f64::from(row.try_get::<_, f32>(column)?),
        Some(Type::INT8 | Type::INT4 | Type::INT2) => pg_int(row, column)? as f64,
        _ => row.try_get::<_, f64>(column)?,
    })
}

/// A connection inside a write transaction.
pub(super) trait Db {
    fn execute(&mut self, query: Query) -> impl Future<Output = StoreResult<()>>;
    fn fetch_all(&mut self, query: Query) -> impl Future<Output = StoreResult<Vec<Row>>>;
    /// Stores move entries (nearly all of a busy site's writes) in the
    /// way that is quickest on this driver.
    fn insert_entries(&mut self, entries: &[&EntryRow]) -> impl Future<Output = StoreResult<()>>;
}

/// The INSERT of `live_entries` rows, up to their values.
pub(super) const INSERT_ENTRIES: &str =
    "INSERT INTO live_entries (game_key, seq, entry, clock, turn) VALUES ";

/// One row of `INSERT_ENTRIES`, its `entry_values` bound from `$n + 1`:
/// the game's id is looked up for its key (a game never started has
/// none, and the NOT NULL key refuses the row).
pub(super) fn entry_row(n: usize) -> String {
    format!(
        "((SELECT game_key FROM live_games WHERE id = ${}), ${}, ${}, ${}, ${})",
        n + 1,
        n + 2,
        n + 3,
        n + 4,
        n + 5
    )
}

/// Rows of `live_entries` a single sqlx INSERT carries at most (5
/// parameters each, well under SQLite's and PostgreSQL's limits).
const ENTRIES_PER_INSERT: usize = 200;

/// An entry's values as every driver stores them: the game's id (for
/// its key), the entry's number, and JSON as text.
pub(super) struct EntryValues {
    pub(super) game: String,
    pub(super) seq: i64,
    pub(super) entry: String,
    pub(super) clock: String,
    pub(super) turn: String,
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

/// An entry's values as `entry_row` binds them.
pub(super) fn entry_values(e: &EntryRow) -> [Arg; 5] {
    let v = EntryValues::of(e);
    [
        Arg::from(v.game),
        Arg::from(v.seq),
        Arg::from(v.entry),
        Arg::from(v.clock),
        Arg::from(v.turn),
    ]
}

impl Db for AnyConnection {
    async fn execute(&mut self, query: Query) -> StoreResult<()> {
        query.sqlx().execute(&mut *self).await?;
        Ok(())
    }

    async fn fetch_all(&mut self, query: Query) -> StoreResult<Vec<Row>> {
        let rows = query.sqlx().fetch_all(&mut *self).await?;
        Ok(rows.into_iter().map(Row::Sqlx).collect())
    }

    /// Many rows to a statement: each statement is a round trip.
    async fn insert_entries(&mut self, entries: &[&EntryRow]) -> StoreResult<()> {
        for chunk in entries.chunks(ENTRIES_PER_INSERT) {
            let rows: Vec<String> = (0..chunk.len()).map(|i| entry_row(i * 5)).collect();
            let mut insert = query_built(format!("{INSERT_ENTRIES}{}", rows.join(", ")));
            insert.args = chunk.iter().flat_map(|e| entry_values(e)).collect();
            insert.execute(self).await?;
        }
        Ok(())
    }
}

/// Which database a store is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// One file, one process: the embedded default.
    Sqlite,
    /// The shared store of several nodes.
    Postgres,
}

impl Backend {
    /// How a write transaction starts. SQLite's IMMEDIATE takes the write
    /// lock at once: a deferred transaction that reads first (the chat
    /// line's next number) would fail outright, not wait, if another
    /// connection wrote in between. PostgreSQL locks rows as it goes.
    pub(super) fn begin_write(self) -> &'static str {
        match self {
            Backend::Sqlite => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN",
        }
    }
}

/// A JSON column's text.
pub(super) fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
