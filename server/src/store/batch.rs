//! Group commit: one writer task per store. Rooms hand it their
//! writes and wait; it takes every request waiting at that moment and
//! stores them in one transaction, so a hundred busy rooms pay for one
//! disk sync, not a hundred, and each room's writes still land in the
//! order it made them (a room waits for one request before it makes the
//! next). If a batch fails, its requests are retried one by one, so one
//! bad request fails alone. On SQLite the jobs that are only move
//! entries (nearly all of them while games are played) take the faster
//! path of `entries.rs`, in a transaction of their own beside the rest.

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::entries::{EntryLine, EntryValues};
use super::lease::{check_fences, Fence};
use super::records::EntryRow;
use super::sql::{apply, insert_entries, Backend};
use super::{StoreError, StoreResult};
use crate::room::Write;

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
    pub(super) fn spawn(pool: AnyPool, backend: Backend, line: Option<EntryLine>) -> Writer {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(pool, backend, line, rx));
        Writer { tx }
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

async fn run(
    pool: AnyPool,
    backend: Backend,
    line: Option<EntryLine>,
    mut rx: mpsc::Receiver<Job>,
) {
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        // Each room has one job in flight at most, so jobs of different
        // rooms may commit in either order.
        let rest = match &line {
            Some(line) => {
                let (moves, rest) = batch.into_iter().partition(Job::only_entries);
                store_moves(line, &pool, backend, moves).await;
                rest
            }
            None => batch,
        };
        store(&pool, backend, rest).await;
    }
}

/// Stores jobs of nothing but move entries on SQLite's entry connection,
/// or, if that fails, through sqlx one by one.
async fn store_moves(line: &EntryLine, pool: &AnyPool, backend: Backend, moves: Vec<Job>) {
    if moves.is_empty() {
        return;
    }
    let rows = moves
        .iter()
        .flat_map(|j| &j.writes)
        .filter_map(|w| match w {
            Write::Entry(e) => Some(EntryValues::of(e)),
            _ => None,
        })
        .collect();
    match line.insert(rows).await {
        Ok(()) => answer(moves),
        Err(e) => {
            tracing::warn!(error = %e, jobs = moves.len(), "a batch of moves failed; storing them one by one");
            store(pool, backend, moves).await;
        }
    }
}

impl Job {
    fn only_entries(&self) -> bool {
        self.fence.is_none()
            && !self.writes.is_empty()
            && self.writes.iter().all(|w| matches!(w, Write::Entry(_)))
    }
}

fn answer(jobs: Vec<Job>) {
    for job in jobs {
        let _ = job.done.send(Ok(()));
    }
}

/// Stores `batch` through sqlx in one transaction, or, if that fails,
/// each job in its own.
async fn store(pool: &AnyPool, backend: Backend, mut batch: Vec<Job>) {
    if batch.is_empty() {
        return;
    }
    match commit(pool, backend, &batch).await {
        Ok(()) => answer(batch),
        Err(e) if batch.len() == 1 => {
            let _ = batch.remove(0).done.send(Err(e));
        }
        Err(e) => {
            tracing::warn!(error = %e, jobs = batch.len(), "a batch failed; storing its requests one by one");
            for job in batch {
                let result = commit(pool, backend, std::slice::from_ref(&job)).await;
                let _ = job.done.send(result);
            }
        }
    }
}

async fn commit(pool: &AnyPool, backend: Backend, jobs: &[Job]) -> StoreResult<()> {
    if jobs.iter().all(|j| j.writes.is_empty()) {
        return Ok(());
    }
    let mut tx = pool.begin_with(backend.begin_write()).await?;
    // The lease rows first, in room-code order: the order the lease
    // renewal locks them in, so the two never deadlock.
    let mut fences: Vec<(&str, Fence)> = jobs
        .iter()
        .filter_map(|j| j.fence.map(|f| (j.code.as_str(), f)))
        .collect();
    fences.sort_by(|a, b| a.0.cmp(b.0));
    check_fences(&mut tx, backend, &fences).await?;
    // Moves are most of the writes: the batch's move entries go in one
    // multi-row INSERT. Entries wait in `entries` until another kind of
    // write comes, so a room's writes still land in the order it made
    // them (rooms' entries are independent of each other's writes).
    let mut entries: Vec<&EntryRow> = Vec::new();
    for job in jobs {
        for write in &job.writes {
            if let Write::Entry(entry) = write {
                entries.push(entry);
                continue;
            }
            insert_entries(&mut tx, &entries).await?;
            entries.clear();
            apply(&mut tx, &job.code, write).await?;
        }
    }
    insert_entries(&mut tx, &entries).await?;
    tx.commit().await?;
    Ok(())
}
