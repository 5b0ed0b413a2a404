//! Group commit: one writer per store (a thread of its own on an SQLite
//! file, a task on PostgreSQL). Rooms hand it their
//! writes and wait; it takes every request waiting at that moment and
//! stores them in one transaction, so a hundred busy rooms pay for one
//! disk sync, not a hundred, and each room's writes still land in the
//! order it made them (a room waits for one request before it makes the
//! next). If a batch fails, its requests are retried one by one, so one
//! bad request fails alone. On an SQLite file the batch runs on the
//! writer's own connection (`lite.rs`), elsewhere on one of sqlx's;
//! the writes themselves are the same code on both (`db.rs`).

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::db::{Backend, Db};
use super::lease::{check_fences, Fence};
use super::lite::{Lite, WriteLine};
use super::write::{apply, Write};
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

impl Writer {
    /// On an SQLite file (`line`), the writer is a thread of its own that
    /// owns the write connection: between two batches it hands nothing to
    /// the runtime and waits for no worker, so a batch's commit is not
    /// delayed behind the sockets' work when the cores are busy. Measured
    /// with `bench many-rooms --rooms 1000 --rate 20` (BENCHMARKS.md,
    /// "fifth part"). On PostgreSQL it is a task, as its driver is async.
    pub(super) fn spawn(
        pool: AnyPool,
        backend: Backend,
        line: Option<WriteLine>,
    ) -> StoreResult<Writer> {
        let (tx, rx) = mpsc::channel(QUEUE);
        match line {
            Some(line) => {
                let handle = tokio::runtime::Handle::current();
                std::thread::Builder::new()
                    .name("store-writer".to_string())
                    .spawn(move || write_here(line, backend, rx, handle))
                    .map_err(|e| StoreError::Open(format!("starting the writer: {e}")))?;
            }
            None => {
                tokio::spawn(run(pool, backend, rx));
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

/// The writer on PostgreSQL: a task, batches on the pool.
async fn run(pool: AnyPool, backend: Backend, mut rx: mpsc::Receiver<Job>) {
    while let Some(first) = rx.recv().await {
        let batch = gather(first, &mut rx);
        store(&pool, backend, batch).await;
    }
}

/// The writer on an SQLite file, on its own thread; it ends when the
/// store is dropped. The connection's calls never wait, so a batch's
/// future runs to its end at once. A batch that panics is dropped
/// unanswered (every room waiting on it hears the store is closed), and
/// so is one that comes after the connection was closed.
fn write_here(
    line: WriteLine,
    backend: Backend,
    mut rx: mpsc::Receiver<Job>,
    handle: tokio::runtime::Handle,
) {
    while let Some(first) = rx.blocking_recv() {
        let batch = gather(first, &mut rx);
        if let Err(e) = line.run(|lite| handle.block_on(store(lite, backend, batch))) {
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
    async fn commit(&mut self, backend: Backend, jobs: &[Job]) -> StoreResult<()>;
}

impl Commit for &AnyPool {
    async fn commit(&mut self, backend: Backend, jobs: &[Job]) -> StoreResult<()> {
        let mut tx = self.begin_with(backend.begin_write()).await?;
        write_jobs(&mut *tx, backend, jobs).await?;
        tx.commit().await?;
        Ok(())
    }
}

impl Commit for &mut Lite<'_> {
    async fn commit(&mut self, backend: Backend, jobs: &[Job]) -> StoreResult<()> {
        // IMMEDIATE takes the write lock at once (see `begin_write`).
        self.batch("BEGIN IMMEDIATE")?;
        let done = match write_jobs(&mut **self, backend, jobs).await {
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
async fn store(mut conn: impl Commit, backend: Backend, mut batch: Vec<Job>) {
    match commit(&mut conn, backend, &batch).await {
        Ok(()) => answer(batch),
        Err(e) if batch.len() == 1 => {
            let _ = batch.remove(0).done.send(Err(e));
        }
        Err(e) => {
            tracing::warn!(error = %e, jobs = batch.len(), "a batch failed; storing its requests one by one");
            for job in batch {
                let result = commit(&mut conn, backend, std::slice::from_ref(&job)).await;
                let _ = job.done.send(result);
            }
        }
    }
}

/// Commits `jobs` on `conn`; jobs with nothing to write need no
/// transaction.
async fn commit(conn: &mut impl Commit, backend: Backend, jobs: &[Job]) -> StoreResult<()> {
    if jobs.iter().all(|j| j.writes.is_empty()) {
        return Ok(());
    }
    conn.commit(backend, jobs).await
}

/// The writes of `jobs`, inside a transaction.
async fn write_jobs(db: &mut impl Db, backend: Backend, jobs: &[Job]) -> StoreResult<()> {
    // The lease rows first, in room-code order: the order the lease
    // renewal locks them in, so the two never deadlock.
    let mut fences: Vec<(&str, Fence)> = jobs
        .iter()
        .filter_map(|j| j.fence.map(|f| (j.code.as_str(), f)))
        .collect();
    fences.sort_by(|a, b| a.0.cmp(b.0));
    check_fences(db, backend, &fences).await?;
    // Moves are most of the writes: a batch's move entries are stored
    // together. Entries wait in `entries` until another kind of write
    // comes, so a room's writes still land in the order it made them
    // (rooms' entries are independent of each other's writes).
    let mut entries: Vec<&EntryRow> = Vec::new();
    for job in jobs {
        for write in &job.writes {
            if let Write::Entry(entry) = write {
                entries.push(entry);
                continue;
            }
            db.insert_entries(&entries).await?;
            entries.clear();
            apply(db, &job.code, write).await?;
        }
    }
    db.insert_entries(&entries).await
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
        async fn commit(&mut self, _: Backend, jobs: &[Job]) -> StoreResult<()> {
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
        store(&mut conn, Backend::Sqlite, jobs).await;
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
}
