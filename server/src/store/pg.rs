//! The PostgreSQL writer's own connection: the group-commit writer's
//! (`batch.rs`) tokio-postgres client, beside sqlx's pool.
//!
//! On sqlx a batch waited for one round trip per statement (BEGIN, the
//! fence check, each INSERT, COMMIT), plus a prepare for each new shape
//! of the multi-row INSERT, and sqlx cannot send a statement before the
//! previous one has answered. tokio-postgres can (pipelining): a batch
//! of moves sends BEGIN, the fence check, one INSERT of all its entries
//! (arrays, `UNNEST`) and COMMIT at once, on statements prepared when
//! the connection opens, and waits once. That is why this one connection
//! has a driver of its own; everything else (reads, accounts, leases)
//! stays on sqlx.
//!
//! Safety is unchanged. Nothing is answered before its COMMIT has
//! answered. The fence check is the database function `check_fences`
//! (migrations `check_fences` and `fence_locks`): it holds a shared
//! advisory lock on each room's bucket, under which no token can change
//! (a token changes only under the bucket's exclusive lock, which a
//! trigger on `room_leases` takes), and a stale token fails the
//! statement, so the transaction is aborted and the COMMIT sent behind
//! it rolls it back; the error comes back as [`StoreError::Fenced`]. A batch's other
//! writes (a game's end and the next one's start, chat, members) run
//! through [`Db`], the statements of `write.rs` as on the other drivers;
//! those that only write join the same pipeline, and one that reads
//! first waits for what was sent before it.

use std::borrow::Cow;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

use bytes::BytesMut;
use futures_util::future::{maybe_done, MaybeDone};
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{IsNull, ToSql, Type};
use tokio_postgres::{Client, Config, NoTls, Statement};
use tokio_util::sync::CancellationToken;

use super::db::{Arg, Db, EntryValues, Query, Row};
use super::lease::Fence;
use super::write::{apply, Step};
use super::{StoreError, StoreResult};
use crate::model::records::EntryRow;

/// The fence check (see the module doc).
const CHECK_FENCES: &str = "SELECT check_fences($1::text[], $2::int8[])";

/// A batch's move entries in one statement: the game's key is looked up
/// by its id (a game never started has none, and the NOT NULL key
/// refuses the row), as `db.rs`'s `entry_row` does.
const INSERT_ENTRIES: &str = "INSERT INTO live_entries (game_key, seq, entry, clock, turn)
     SELECT (SELECT game_key FROM live_games WHERE id = e.id), e.seq, e.entry, e.clock, e.turn
     FROM UNNEST($1::text[], $2::int8[], $3::text[], $4::text[], $5::text[])
          AS e (id, seq, entry, clock, turn)";

/// The writer's connection; it connects again after it was lost, until
/// the store is closed.
pub(super) struct PgLine {
    config: Config,
    conn: Option<Conn>,
    closed: CancellationToken,
}

struct Conn {
    client: Client,
    check_fences: Statement,
    insert_entries: Statement,
    /// The other writes' statements, prepared on first use.
    prepared: Prepared,
}

/// Statements by their SQL and parameter types.
type Prepared = HashMap<(&'static str, Vec<Type>), Statement>;

/// A statement sent and not yet answered.
type Sent<'a> = Pin<Box<dyn Future<Output = Result<(), tokio_postgres::Error>> + Send + 'a>>;

impl PgLine {
    /// Connects to `url` (a postgres:// URL, as sqlx takes it).
    pub(super) async fn open(url: &str) -> StoreResult<PgLine> {
        let config: Config = url
            .parse()
            .map_err(|e| StoreError::Open(format!("the database URL: {e}")))?;
        let closed = CancellationToken::new();
        let conn = Conn::open(&config, &closed).await?;
        Ok(PgLine {
            config,
            conn: Some(conn),
            closed,
        })
    }

    /// What closes the connection (`Store::close`): the writes after it
    /// fail.
    pub(super) fn closer(&self) -> CancellationToken {
        self.closed.clone()
    }

    /// Stores a batch (its fences, sorted by room code, and its writes
    /// in order) in one transaction.
    pub(super) async fn commit(
        &mut self,
        fences: &[(&str, Fence)],
        steps: Vec<Step<'_>>,
    ) -> StoreResult<()> {
        if self.closed.is_cancelled() {
            self.conn = None;
            return Err(StoreError::Open("the store is closed".to_string()));
        }
        let conn = match &mut self.conn {
            Some(conn) if !conn.client.is_closed() => conn,
            lost => lost.insert(Conn::open(&self.config, &self.closed).await?),
        };
        let done = conn.run(fences, steps).await;
        // After a failure the transaction is aborted, or already rolled
        // back by the COMMIT sent behind the failed statement; either way
        // the next batch must start outside it.
        if done.is_err() && conn.client.batch_execute("ROLLBACK").await.is_err() {
            self.conn = None;
        }
        done
    }
}

impl Conn {
    async fn open(config: &Config, closed: &CancellationToken) -> StoreResult<Conn> {
        let (client, connection) = config.connect(NoTls).await?;
        let closed = closed.clone();
        tokio::spawn(async move {
            tokio::select! {
                ended = connection => if let Err(e) = ended {
                    tracing::warn!(error = %e, "the store writer's PostgreSQL connection ended");
                },
                // Dropping the connection closes it.
                () = closed.cancelled() => {}
            }
        });
        Ok(Conn {
            check_fences: client.prepare(CHECK_FENCES).await?,
            insert_entries: client.prepare(INSERT_ENTRIES).await?,
            client,
            prepared: HashMap::new(),
        })
    }

    async fn run(&mut self, fences: &[(&str, Fence)], steps: Vec<Step<'_>>) -> StoreResult<()> {
        let Conn {
            client,
            check_fences,
            insert_entries,
            prepared,
        } = self;
        let (client, check_fences, insert_entries) = (&*client, &*check_fences, &*insert_entries);
        // Read committed whatever the database's default: the fence check
        // reads the lease tokens after it has taken its locks
        // (migration `fence_locks`), which needs a snapshot per statement.
        let begin = client.batch_execute("BEGIN ISOLATION LEVEL READ COMMITTED");
        let mut sent: Vec<Sent<'_>> = vec![Box::pin(begin)];
        if !fences.is_empty() {
            let codes: Vec<&str> = fences.iter().map(|(code, _)| *code).collect();
            let tokens: Vec<i64> = fences.iter().map(|(_, fence)| fence.0).collect();
            sent.push(Box::pin(async move {
                client.execute(check_fences, &[&codes, &tokens]).await?;
                Ok(())
            }));
        }
        for step in steps {
            match step {
                Step::Entries(entries) => {
                    sent.push(Box::pin(insert(
                        client,
                        insert_entries,
                        Columns::of(&entries),
                    )));
                }
                Step::Other(code, write) => {
                    let mut tx = Tx {
                        client,
                        insert_entries,
                        prepared: &mut *prepared,
                        sent: &mut sent,
                    };
                    apply(&mut tx, code, write).await?;
                }
            }
        }
        sent.push(Box::pin(client.batch_execute("COMMIT")));
        settle(&mut sent).await
    }
}

/// Waits for every statement in `sent`, sending each in its turn: the
/// first poll of a tokio-postgres call sends it, so they are polled in
/// the order they were pushed. The first failure is the one that counts
/// (the ones after it fail because the transaction is aborted). A call
/// that fails as it is polled the first time was not sent (it could not
/// be encoded, or the connection is gone): the ones behind it are then
/// not sent at all, as a COMMIT among them would store the batch
/// without it.
async fn settle(sent: &mut Vec<Sent<'_>>) -> StoreResult<()> {
    let mut waiting: Vec<MaybeDone<Sent<'_>>> = sent.drain(..).map(maybe_done).collect();
    let mut first = true;
    std::future::poll_fn(|cx| {
        let mut done = true;
        for call in waiting.iter_mut() {
            let mut call = Pin::new(call);
            if call.as_mut().poll(cx).is_pending() {
                done = false;
            } else if first && matches!(call.as_mut().output_mut(), Some(Err(_))) {
                return Poll::Ready(());
            }
        }
        first = false;
        if done {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
    for mut call in waiting {
        if let Some(Err(e)) = Pin::new(&mut call).take_output() {
            return Err(e.into());
        }
    }
    Ok(())
}

/// A batch's entries as columns, bound as arrays.
struct Columns {
    games: Vec<String>,
    seqs: Vec<i64>,
    entries: Vec<String>,
    clocks: Vec<String>,
    turns: Vec<String>,
}

impl Columns {
    fn of(rows: &[&EntryRow]) -> Columns {
        let mut c = Columns {
            games: Vec::with_capacity(rows.len()),
            seqs: Vec::with_capacity(rows.len()),
            entries: Vec::with_capacity(rows.len()),
            clocks: Vec::with_capacity(rows.len()),
            turns: Vec::with_capacity(rows.len()),
        };
        for row in rows {
            let v = EntryValues::of(row);
            c.games.push(v.game);
            c.seqs.push(v.seq);
            c.entries.push(v.entry);
            c.clocks.push(v.clock);
            c.turns.push(v.turn);
        }
        c
    }

    fn params(&self) -> [&(dyn ToSql + Sync); 5] {
        [
            &self.games,
            &self.seqs,
            &self.entries,
            &self.clocks,
            &self.turns,
        ]
    }
}

/// Stores a batch's entries with the prepared `INSERT_ENTRIES`: sent at
/// the first poll, like every tokio-postgres call.
async fn insert(
    client: &Client,
    statement: &Statement,
    columns: Columns,
) -> Result<(), tokio_postgres::Error> {
    client.execute(statement, &columns.params()).await?;
    Ok(())
}

/// The connection inside a batch's transaction, for `write.rs`. A
/// statement that only writes joins the batch's pipeline (`sent`) and
/// goes out with it: a game's end, the next one's start and the batch's
/// moves cost the writer one wait, not one a statement. A read first
/// waits for what is in the pipeline, as it may read what that wrote.
struct Tx<'a, 's> {
    client: &'a Client,
    insert_entries: &'a Statement,
    prepared: &'s mut Prepared,
    sent: &'s mut Vec<Sent<'a>>,
}

/// A query's values as tokio-postgres binds them, with their types.
fn typed(args: &[Arg]) -> Vec<(&(dyn ToSql + Sync), Type)> {
    args.iter()
        .map(|a| (a as &(dyn ToSql + Sync), a.pg_type()))
        .collect()
}

impl Tx<'_, '_> {
    /// The statement of a query written out in the source, prepared on
    /// its first use; `None` for one built at run time, which is parsed
    /// with its values each time (its SQL varies).
    async fn prepared(&mut self, query: &Query) -> StoreResult<Option<Statement>> {
        let Cow::Borrowed(sql) = query.sql else {
            return Ok(None);
        };
        let key = (sql, query.args.iter().map(Arg::pg_type).collect());
        if let Some(statement) = self.prepared.get(&key) {
            return Ok(Some(statement.clone()));
        }
        let statement = self.client.prepare_typed(sql, &key.1).await?;
        self.prepared.insert(key, statement.clone());
        Ok(Some(statement))
    }
}

impl Db for Tx<'_, '_> {
    async fn execute(&mut self, query: Query) -> StoreResult<()> {
        let statement = self.prepared(&query).await?;
        let client = self.client;
        self.sent.push(Box::pin(async move {
            let values = typed(&query.args);
            match statement {
                Some(statement) => {
                    let params: Vec<_> = values.into_iter().map(|(v, _)| v).collect();
                    client.execute(&statement, &params).await?;
                }
                None => {
                    client.execute_typed(&query.sql, &values).await?;
                }
            }
            Ok(())
        }));
        Ok(())
    }

    async fn fetch_all(&mut self, query: Query) -> StoreResult<Vec<Row>> {
        settle(self.sent).await?;
        let values = typed(&query.args);
        let rows = match self.prepared(&query).await? {
            Some(statement) => {
                let params: Vec<_> = values.into_iter().map(|(v, _)| v).collect();
                self.client.query(&statement, &params).await?
            }
            None => self.client.query_typed(&query.sql, &values).await?,
        };
        Ok(rows.into_iter().map(Row::Pg).collect())
    }

    async fn insert_entries(&mut self, entries: &[&EntryRow]) -> StoreResult<()> {
        if !entries.is_empty() {
            let columns = Columns::of(entries);
            self.sent
                .push(Box::pin(insert(self.client, self.insert_entries, columns)));
        }
        Ok(())
    }
}

impl Arg {
    /// The type a statement declares for it (as sqlx does): nulls keep
    /// theirs.
    fn pg_type(&self) -> Type {
        match self {
            Arg::Int(_) => Type::INT8,
            Arg::Real(_) => Type::FLOAT8,
            Arg::Text(_) => Type::TEXT,
        }
    }
}

impl ToSql for Arg {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Arg::Int(v) => v.to_sql(ty, out),
            Arg::Real(v) => v.to_sql(ty, out),
            Arg::Text(v) => v.to_sql(ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        <i64 as ToSql>::accepts(ty) || <f64 as ToSql>::accepts(ty) || <String as ToSql>::accepts(ty)
    }

    /// Each kind of value checks the type against its own.
    fn to_sql_checked(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Arg::Int(v) => v.to_sql_checked(ty, out),
            Arg::Real(v) => v.to_sql_checked(ty, out),
            Arg::Text(v) => v.to_sql_checked(ty, out),
        }
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        let Some(db) = e.as_db_error() else {
            return StoreError::Postgres(e);
        };
        if db.code().code() == "FENCE" {
            StoreError::Fenced(db.detail().unwrap_or_default().to_string())
        } else if *db.code() == SqlState::UNIQUE_VIOLATION {
            StoreError::Conflict
        } else {
            StoreError::Postgres(e)
        }
    }
}
