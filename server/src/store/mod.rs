//! Persistence behind one interface. [`Store`] is an enum of backends, so
//! another database is one more variant and one more file, with the same
//! methods and the same tests; today SQLite (`sqlite.rs`, the embedded
//! default: one file, nothing to install).
//!
//! Rooms write through [`Store::write`]: all the changes of one command in
//! one transaction, awaited by the room's task before it answers anyone,
//! so an acknowledged move is on disk (see `room/task.rs`).

mod accounts;
mod batch;
pub mod history;
pub mod records;
mod rows;
mod sqlite;

use std::path::Path;

pub use history::{HistoryPage, HistoryQuery, PAGE_SIZE};
pub use records::{GameRecord, RoomRow, SavedRoom};
pub use sqlite::SqliteStore;

use crate::room::{TokenHash, Write};

/// A store failure. Callers log it and answer `internal`; a room whose
/// write failed restarts from what is stored.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A unique key is taken (a room code, a username).
    #[error("already exists")]
    Conflict,
    #[error("database error: {0}")]
    Database(sqlx::Error),
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
}

/// What login needs: the account and its password hash (PHC string).
/// Kept out of `Debug` so the hash never reaches a log line.
#[derive(Clone)]
pub struct Credentials {
    pub account: Account,
    pub password_hash: String,
}

#[derive(Clone)]
pub enum Store {
    Sqlite(SqliteStore),
}

impl Store {
    /// Opens the database `url` (`sqlite:` URLs), or `site.db` in
    /// `data_dir`, applying its migrations.
    pub async fn open(url: Option<&str>, data_dir: &Path) -> StoreResult<Store> {
        match url {
            None => Ok(Store::Sqlite(SqliteStore::open(None, data_dir).await?)),
            Some(url) if url.starts_with("sqlite:") => {
                Ok(Store::Sqlite(SqliteStore::open(Some(url), data_dir).await?))
            }
            Some(other) => Err(StoreError::Open(format!(
                "unsupported DATABASE_URL {:?}: use a sqlite: URL",
                other.split(':').next().unwrap_or("")
            ))),
        }
    }

    /// Waits for pending writes and closes the connections.
    pub async fn close(&self) {
        match self {
            Store::Sqlite(s) => s.close().await,
        }
    }

    /// Stores a new room; `Conflict` if the code is taken.
    pub async fn insert_room(&self, room: &RoomRow) -> StoreResult<()> {
        match self {
            Store::Sqlite(s) => s.insert_room(room).await,
        }
    }

    /// The room's own row, if it exists.
    pub async fn room(&self, code: &str) -> StoreResult<Option<RoomRow>> {
        match self {
            Store::Sqlite(s) => s.room(code).await,
        }
    }

    /// Everything stored about a room, to bring it back.
    pub async fn load_room(&self, code: &str) -> StoreResult<Option<SavedRoom>> {
        match self {
            Store::Sqlite(s) => s.load_room(code).await,
        }
    }

    /// Applies `writes` for room `code`, all or none.
    pub async fn write(&self, code: &str, writes: Vec<Write>) -> StoreResult<()> {
        match self {
            Store::Sqlite(s) => s.write(code, writes).await,
        }
    }

    /// The finished games of a room, oldest first.
    pub async fn games(&self, code: &str) -> StoreResult<Vec<GameRecord>> {
        match self {
            Store::Sqlite(s) => s.games(code).await,
        }
    }

    /// A page of the games a person played, newest first.
    pub async fn history(&self, query: &HistoryQuery) -> StoreResult<HistoryPage> {
        match self {
            Store::Sqlite(s) => s.history(query).await,
        }
    }

    /// One finished game by its id (UUID).
    pub async fn game(&self, id: &str) -> StoreResult<Option<GameRecord>> {
        match self {
            Store::Sqlite(s) => s.game(id).await,
        }
    }

    /// Creates an account; `Ok(None)` when the username is taken (in any
    /// case). When `token` is given, it becomes the account's first
    /// session in the same transaction.
    pub async fn create_account(
        &self,
        username: &str,
        password_hash: &str,
        email: Option<&str>,
        token: Option<&str>,
    ) -> StoreResult<Option<Account>> {
        match self {
            Store::Sqlite(s) => {
                s.create_account(username, password_hash, email, token)
                    .await
            }
        }
    }

    /// The account named `username` (any case) with its password hash.
    pub async fn credentials(&self, username: &str) -> StoreResult<Option<Credentials>> {
        match self {
            Store::Sqlite(s) => s.credentials(username).await,
        }
    }

    /// Binds `token` to the account (a login).
    pub async fn start_session(&self, token: &str, account_id: i64) -> StoreResult<()> {
        match self {
            Store::Sqlite(s) => s.start_session(&TokenHash::of(token), account_id).await,
        }
    }

    /// The account whose session `token` is, if any.
    pub async fn session_account(&self, token: &str) -> StoreResult<Option<Account>> {
        match self {
            Store::Sqlite(s) => s.session_account(&TokenHash::of(token)).await,
        }
    }

    /// Logs the token out; true when it was a session.
    pub async fn end_session(&self, token: &str) -> StoreResult<bool> {
        match self {
            Store::Sqlite(s) => s.end_session(&TokenHash::of(token)).await,
        }
    }
}

pub fn now_millis() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
