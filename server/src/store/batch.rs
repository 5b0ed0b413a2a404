//! Group commit: one writer per store (a thread of its own on an SQLite
//! file, a task on PostgreSQL). Rooms hand it their
//! writes and wait; it takes every request waiting at that moment and
//! stores them in one transaction, so a hundred busy rooms pay for one
//! disk sync, not a hundred, and each room's writes still land in the
//! order it made them (a room waits for one request before it makes the
//! next). If a batch fails, its requests are retried one by one, so one
//! bad request fails alone. On an SQLite file the batch runs on the
//! writer's own connection (`lite.rs`), on PostgreSQL on its own
//! tokio-postgres connection, pipelined (`pg.rs`), on an in-memory
//! SQLite on one of sqlx's; the writes themselves are the same code on
//! all three (`db.rs`).

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::db::{Backend, Db};
use super::lease::{check_fences, Fence};
use super::lite::{Lite, WriteLine};
use super::pg::PgLine;
use super::write::{apply, Step, Write};
use super::{StoreError, StoreResult};
use crate::model::records::EntryRow;

/// Requests stored in one transaction at most.
const MAX_BATCH: usize = 512;
/// Requests waiting for the writer; rooms wait when it is full.
const QUEUE: usize = 4096;

pub(super) struct Job {
    code: String,
    fence: Option<Fence>,
    writes: Vec<Write>,
    done: oneshot::Sender<StoreResult<()>>,
}

#[derive(Clone)]
pub(super) struct Writer {
    tx: mpsc::Sender<Job>,
}

/// The connection a writer stores its batches on.
pub(super) enum Line {
    /// An SQLite file: the writer's own rusqlite connection (`lite.rs`).
    Lite(WriteLine),
    /// PostgreSQL: the writer's own tokio-postgres connection (`pg.rs`).
    Pg(Box<PgLine>),
    /// An in-memory SQLite database: sqlx's pool (there is no file to
    /// open a second connection to).
    Pool(AnyPool),
}

impl Writer {
    /// On an SQLite file, the writer is a thread of its own that
    /// owns the write connection: between two batches it hands nothing to
    /// the runtime and waits for no worker, so a batch's commit is not
    /// delayed behind the sockets' work when the cores are busy. Measured
    /// with `bench many-rooms --rooms 1000 --rate 20` (BENCHMARKS.md,
    /// "fifth part"). On PostgreSQL it is a task, as its driver is async.
    pub(super) fn spawn(line: Line) -> StoreResult<Writer> {
        let (tx, rx) = mpsc::channel(QUEUE);
        match line {
            Line::Lite(line) => {
                let handle = tokio::runtime::Handle::current();
                std::thread::Builder::new()
                    .name("store-writer".to_string())
                    .spawn(move || write_here(line, rx, handle))
                    .map_err(|e| StoreError::Open(format!("starting the writer: {e}")))?;
            }
            Line::Pg(line) => {
                tokio::spawn(run(*line, rx));
            }
            Line::Pool(pool) => {
                tokio::spawn(run(pool, rx));
            }
        }
        Ok(Writer { tx })
    }

    /// Stores `writes` for room `code` (by the holder of `fence`);
    /// returns once they are committed.
    pub(super) async fn write(
        &self,
        code: &str,
        fence: Option<Fence>,
        writes: Vec<Write>,
    ) -> StoreResult<()> {
        let (done, answer) = oneshot::channel();
        let job = Job {
            code: code.to_string(),
            fence,
            writes,
            done,
        };
        let closed = || StoreError::Open("the store is closed".to_string());
        self.tx.send(job).await.map_err(|_| closed())?;
        answer.await.map_err(|_| closed())?
    }
}

/// `first` and every request waiting behind it, up to `MAX_BATCH`.
fn gather(first: Job, rx: &mut mpsc::Receiver<Job>) -> Vec<Job> {
    let mut batch = vec![first];
    while batch.len() < MAX_BATCH {
        match rx.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
    batch
}

/// The writer on PostgreSQL (or an in-memory SQLite database): a task.
async fn run<C>(mut conn: C, mut rx: mpsc::Receiver<Job>)
where
    for<'a> &'a mut C: Commit,
{
    while let Some(first) = rx.recv().await {
        let batch = gather(first, &mut rx);
        store(&mut conn, batch).await;
    }
}

/// The writer on an SQLite file, on its own thread; it ends when the
/// store is dropped. The connection's calls never wait, so a batch's
/// future runs to its end at once. A batch that panics is dropped
/// unanswered (every room waiting on it hears the store is closed), and
/// so is one that comes after the connection was closed.
fn write_here(line: WriteLine, mut rx: mpsc::Receiver<Job>, handle: tokio::runtime::Handle) {
    while let Some(first) = rx.blocking_recv() {
        let batch = gather(first, &mut rx);
        if let Err(e) = line.run(|lite| handle.block_on(store(lite, batch))) {
            tracing::error!(error = %e, "a batch of writes was not stored");
        }
    }
}

fn answer(jobs: Vec<Job>) {
    for job in jobs {
        let _ = job.done.send(Ok(()));
    }
}

/// A connection that can store jobs in one transaction.
trait Commit {
    async fn commit(&mut self, jobs: &[Job]) -> StoreResult<()>;
}

impl Commit for &mut AnyPool {
    async fn commit(&mut self, jobs: &[Job]) -> StoreResult<()> {
        let mut tx = self.begin_with(Backend::Sqlite.begin_write()).await?;
        write_jobs(&mut *tx, jobs).await?;
        tx.commit().await?;
        Ok(())
    }
}

impl Commit for &mut PgLine {
    async fn commit(&mut self, jobs: &[Job]) -> StoreResult<()> {
        PgLine::commit(self, &fences(jobs), steps(jobs)).await
    }
}

impl Commit for &mut Lite<'_> {
    async fn commit(&mut self, jobs: &[Job]) -> StoreResult<()> {
        // IMMEDIATE takes the write lock at once (see `begin_write`).
        self.batch("BEGIN IMMEDIATE")?;
        let done = match write_jobs(&mut **self, jobs).await {
            Ok(()) => self.batch("COMMIT"),
            Err(e) => Err(e),
        };
        if done.is_err() {
            self.rollback();
        }
        done
    }
}

/// Stores `batch` in one transaction, or, if that fails, each job in its
/// own.
async fn store(mut conn: impl Commit, mut batch: Vec<Job>) {
    match commit(&mut conn, &batch).await {
        Ok(()) => answer(batch),
        Err(e) if batch.len() == 1 => {
            let _ = batch.remove(0).done.send(Err(e));
        }
        Err(e) => {
            tracing::warn!(error = %e, jobs = batch.len(), "a batch failed; storing its requests one by one");
            for job in batch {
                let result = commit(&mut conn, std::slice::from_ref(&job)).await;
                let _ = job.done.send(result);
            }
        }
    }
}

/// Commits `jobs` on `conn`; jobs with nothing to write need no
/// transaction.
async fn commit(conn: &mut impl Commit, jobs: &[Job]) -> StoreResult<()> {
    if jobs.iter().all(|j| j.writes.is_empty()) {
        return Ok(());
    }
    conn.commit(jobs).await
}

/// The fences of `jobs`, in room-code order (a batch with several stale
/// rooms is refused for the first of them).
fn fences(jobs: &[Job]) -> Vec<(&str, Fence)> {
    let mut fences: Vec<(&str, Fence)> = jobs
        .iter()
        .filter_map(|j| j.fence.map(|f| (j.code.as_str(), f)))
        .collect();
    fences.sort_by(|a, b| a.0.cmp(b.0));
    fences
}

/// The writes of `jobs` in the order they are stored. Moves are most of
/// the writes: a batch's move entries are stored together. Entries wait
/// until another kind of write comes, so a room's writes still land in
/// the order it made them (rooms' entries are independent of each
/// other's writes).
pub(super) fn steps(jobs: &[Job]) -> Vec<Step<'_>> {
    let mut steps = Vec::new();
    let mut entries: Vec<&EntryRow> = Vec::new();
    for job in jobs {
        for write in &job.writes {
            if let Write::Entry(entry) = write {
                entries.push(entry);
                continue;
            }
            if !entries.is_empty() {
                steps.push(Step::Entries(std::mem::take(&mut entries)));
            }
            steps.push(Step::Other(&job.code, write));
        }
    }
    if !entries.is_empty() {
        steps.push(Step::Entries(entries));
    }
    steps
}

/// The writes of `jobs`, inside a transaction, one statement after
/// another (on SQLite; on PostgreSQL `pg.rs` sends them together).
async fn write_jobs(db: &mut impl Db, jobs: &[Job]) -> StoreResult<()> {
    check_fences(db, &fences(jobs)).await?;
    for step in steps(jobs) {
        match step {
            Step::Entries(entries) => db.insert_entries(&entries).await?,
            Step::Other(code, write) => apply(db, code, write).await?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A connection that fails any transaction holding room "bad", and
    /// remembers the rooms of each transaction it was asked for.
    #[derive(Default)]
    struct Picky {
        asked: Vec<Vec<String>>,
    }

    impl Commit for &mut Picky {
        async fn commit(&mut self, jobs: &[Job]) -> StoreResult<()> {
            let codes: Vec<String> = jobs.iter().map(|j| j.code.clone()).collect();
            let bad = codes.iter().any(|c| c == "bad");
            self.asked.push(codes);
            if bad {
                Err(StoreError::Conflict)
            } else {
                Ok(())
            }
        }
    }

    fn job(code: &str) -> (Job, oneshot::Receiver<StoreResult<()>>) {
        let (done, answer) = oneshot::channel();
        let writes = vec![Write::Chat(crate::model::records::ChatLine {
            from: "A".to_string(),
            member: crate::model::MemberId(1),
            text: "hi".to_string(),
            at: 0,
        })];
        let job = Job {
            code: code.to_string(),
            fence: None,
            writes,
            done,
        };
        (job, answer)
    }

    /// One bad request in a batch fails alone: the batch is retried
    /// request by request, and every request hears its own result.
    #[tokio::test]
    async fn a_bad_request_fails_alone_and_the_rest_of_its_batch_is_stored() {
        let (jobs, answers): (Vec<_>, Vec<_>) = ["a", "bad", "c"].into_iter().map(job).unzip();
        let mut conn = Picky::default();
        store(&mut conn, jobs).await;
        assert_eq!(
            conn.asked,
            vec![vec!["a", "bad", "c"], vec!["a"], vec!["bad"], vec!["c"]],
            "the batch, then each request in its own transaction"
        );
        let mut results = Vec::new();
        for answer in answers {
            results.push(answer.await.expect("answered"));
        }
        assert!(results[0].is_ok() && results[2].is_ok(), "{results:?}");
        assert!(
            matches!(results[1], Err(StoreError::Conflict)),
            "{results:?}"
        );
    }

    fn job_of(code: &str, writes: Vec<Write>) -> Job {
        Job {
            code: code.to_string(),
            fence: None,
            writes,
            done: oneshot::channel().0,
        }
    }

    fn entry(seq: u32) -> Write {
        Write::Entry(EntryRow {
            game: crate::model::GameId(uuid::Uuid::nil()),
            seq,
            entry: crate::model::records::Entry::Turn,
            clock: Vec::new(),
            turn: Vec::new(),
        })
    }

    /// What `steps` made of a batch, as (room or "entries", entry numbers).
    fn shape(steps: &[Step]) -> Vec<(String, Vec<u32>)> {
        steps
            .iter()
            .map(|step| match step {
                Step::Entries(rows) => {
                    ("entries".to_string(), rows.iter().map(|e| e.seq).collect())
                }
                Step::Other(code, _) => (code.to_string(), Vec::new()),
            })
            .collect()
    }

    /// Entries of several rooms go together, but never past another
    /// write: a room's writes keep their order.
    #[test]
    fn entries_are_gathered_up_to_the_next_other_write() {
        let chat = || job("x").0.writes.remove(0);
        let jobs = vec![
            job_of("a", vec![entry(1), entry(2)]),
            job_of("b", vec![entry(3), chat(), entry(4)]),
            job_of("c", vec![entry(5)]),
            job_of("d", vec![chat()]),
        ];
        assert_eq!(
            shape(&steps(&jobs)),
            vec![
                ("entries".to_string(), vec![1, 2, 3]),
                ("b".to_string(), vec![]),
                ("entries".to_string(), vec![4, 5]),
                ("d".to_string(), vec![]),
            ]
        );
    }

    /// The fences are checked in room-code order (the lease renewal's).
    #[test]
    fn fences_come_in_room_code_order() {
        let mut jobs: Vec<Job> = ["m", "c", "x", "a"].into_iter().map(|c| job(c).0).collect();
        for (i, job) in jobs.iter_mut().enumerate() {
            job.fence = (i != 2).then_some(Fence(i as i64));
        }
        assert_eq!(
            fences(&jobs),
            vec![("a", Fence(3)), ("c", Fence(1)), ("m", Fence(0))]
        );
    }
}
