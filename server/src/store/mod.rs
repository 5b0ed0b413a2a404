//! Persistence behind one interface, on two databases: SQLite (the
//! embedded default: one file, nothing to install) and PostgreSQL (the
//! shared store of several server nodes). Both run the same SQL through
//! sqlx's `Any` driver (`sql.rs`); the few places where the two dialects
//! differ are named in [`Backend`]. Each has its own migrations
//! (`migrations/sqlite/`, `migrations/postgres/`).
//!
//! Rooms write through [`Store::write`]: all the changes of one command in
//! one transaction, awaited by the room's task before it answers anyone,
//! so an acknowledged move is stored (see `room/task.rs`). On several
//! nodes each write also carries the room's fencing token ([`Fence`],
//! `lease.rs`), so a node that lost a room can never write for it again.

pub mod accounts;
pub mod analyses;
mod batch;
pub mod challenges;
pub mod coins;
mod cosmetics;
mod db;
pub mod history;
pub mod lease;
mod lite;
pub mod lobby;
mod pg;
pub mod profile;
pub mod rating_history;
pub mod ratings;
pub mod recovery;
mod rows;
pub mod seeks;
mod sql;
pub mod turns;
mod write;

use std::path::Path;

pub use accounts::{NewSession, SessionInfo, SignedIn, SESSIONS_PER_ACCOUNT, SESSION_IDLE_MS};
pub use analyses::{Asked, NewAnalysis, StoredAnalysis};
pub use challenges::{Challenge, NewChallenge, Party};
pub use coins::{CheckIn, SpendRefused};
pub use db::Backend;
pub use history::{HistoryPage, HistoryQuery, PAGE_SIZE};
pub use lease::{Fence, Lease};
pub use profile::{GameTally, Profile, PROFILE_GAMES};
pub use rating_history::{RatingChange, RATING_POINTS};
pub use recovery::{LinkPurpose, NewLink};
pub use sql::Store;
pub use write::Write;

/// A store failure. Callers log it and answer `internal`; a room whose
/// write failed restarts from what is stored.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A unique key is taken (a room code, a username).
    #[error("already exists")]
    Conflict,
    /// The write's fencing token is no longer the room's: another node
    /// owns the room now, and this one must let it go.
    #[error("this node no longer owns room {0}")]
    Fenced(String),
    #[error("database error: {0}")]
    Database(sqlx::Error),
    /// From the embedded store's write connection (`lite.rs`).
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
    /// From the PostgreSQL writer's own connection (`pg.rs`).
    #[error("database error: {0}")]
    Postgres(tokio_postgres::Error),
    #[error("could not open the database: {0}")]
    Open(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        match &e {
            sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Conflict,
            _ => StoreError::Database(e),
        }
    }
}

pub type StoreResult<T> = Result<T, StoreError>;

/// An account as the rest of the server sees it: no password hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    pub email: Option<String>,
    /// The email was confirmed through a link sent to it (only then is
    /// it used for recovery).
    pub email_confirmed: bool,
}

/// What login needs: the account and its password hash (PHC string).
/// Kept out of `Debug` so the hash never reaches a log line.
#[derive(Clone)]
pub struct Credentials {
    pub account: Account,
    pub password_hash: String,
}

impl Store {
    /// Opens the database `url` (`sqlite:` or `postgres://` URLs), or
    /// `site.db` in `data_dir`, applying its migrations.
    pub async fn open(url: Option<&str>, data_dir: &Path) -> StoreResult<Store> {
        match url {
            None => {
                std::fs::create_dir_all(data_dir).map_err(|e| StoreError::Open(e.to_string()))?;
                let lock = lock_folder(data_dir)?;
                let file = data_dir.join("site.db");
                let mut store =
                    Store::connect(Backend::Sqlite, &format!("sqlite://{}", file.display()))
                        .await?;
                store.folder_lock = Some(std::sync::Arc::new(lock));
                Ok(store)
            }
            Some(url) if url.starts_with("sqlite:") => Store::connect(Backend::Sqlite, url).await,
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Store::connect(Backend::Postgres, url).await
            }
            Some(other) => Err(StoreError::Open(format!(
                "unsupported DATABASE_URL {:?}: use a sqlite: or postgres:// URL",
                other.split(':').next().unwrap_or("")
            ))),
        }
    }
}

/// Takes the data folder for this process: an exclusive lock on its
/// `site.db.lock`, held while the store is open (the kernel lets it go
/// when the process ends, however it ends). Two servers on one folder
/// would each run their own copy of a room, both writing it, so the
/// second refuses to start. SQLite's own locks only keep each write
/// whole; they do not stop that.
fn lock_folder(data_dir: &Path) -> StoreResult<std::fs::File> {
    let path = data_dir.join("site.db.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| StoreError::Open(format!("{}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Open(format!(
            "another server is using this data folder ({} is locked); \
             each server needs a folder of its own",
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(StoreError::Open(format!("{}: {e}", path.display())))
        }
    }
}
