//! Persistence: rooms and finished games, in SQLite through sqlx.
//!
//! The store is only touched at the edges of a room's life (created,
//! reloaded, a game finished), never on the move path, so a slow disk
//! cannot slow down play.

use std::path::Path;
use std::str::FromStr;

use serde_json::Value;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};
use sqlx::{Row, SqlitePool};

#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
}

/// A room as stored.
#[derive(Debug, Clone)]
pub struct RoomRecord {
    pub code: String,
    pub game: String,
    pub options: Value,
    pub host_token: String,
}

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

/// A finished game, ready to store.
#[derive(Debug, Clone)]
pub struct GameRecord {
    pub room_code: String,
    pub number: u32,
    pub game: String,
    pub options: Value,
    pub players: Vec<String>,
    pub moves: Vec<String>,
    pub outcome: Value,
    pub started_at: i64,
    pub ended_at: i64,
}

impl Store {
    /// Opens (creating if needed) the database at `url`, or `site.db` in
    /// `data_dir`, and applies the migrations in `migrations/sqlite/`.
    pub async fn open(url: Option<&str>, data_dir: &Path) -> anyhow::Result<Store> {
        let options = match url {
            Some(url) => SqliteConnectOptions::from_str(url)?,
            None => {
                std::fs::create_dir_all(data_dir)?;
                SqliteConnectOptions::new().filename(data_dir.join("site.db"))
            }
        }
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        sqlx::migrate!("../migrations/sqlite").run(&pool).await?;
        Ok(Store { pool })
    }

    pub async fn insert_room(&self, room: &RoomRecord) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO rooms (code, game, options, host_token, created_at) VALUES (?, ?, ?, ?, ?)",
        )
        .bind(&room.code)
        .bind(&room.game)
        .bind(room.options.to_string())
        .bind(&room.host_token)
        .bind(now_millis())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn room(&self, code: &str) -> sqlx::Result<Option<RoomRecord>> {
        let row = sqlx::query("SELECT code, game, options, host_token FROM rooms WHERE code = ?")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| RoomRecord {
            code: row.get("code"),
            game: row.get("game"),
            options: serde_json::from_str(row.get::<&str, _>("options")).unwrap_or(Value::Null),
            host_token: row.get("host_token"),
        }))
    }

    /// Remembers the room's latest options, so a reloaded room keeps them.
    pub async fn update_room_options(
        &self,
        code: &str,
        game: &str,
        options: &Value,
    ) -> sqlx::Result<()> {
        sqlx::query("UPDATE rooms SET game = ?, options = ? WHERE code = ?")
            .bind(game)
            .bind(options.to_string())
            .bind(code)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn insert_game(&self, game: &GameRecord) -> sqlx::Result<i64> {
        let result = sqlx::query(
            "INSERT INTO games (room_code, number, game, options, players, moves, outcome, started_at, ended_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(&game.room_code)
        .bind(game.number)
        .bind(&game.game)
        .bind(game.options.to_string())
        .bind(Value::from(game.players.clone()).to_string())
        .bind(Value::from(game.moves.clone()).to_string())
        .bind(game.outcome.to_string())
        .bind(game.started_at)
        .bind(game.ended_at)
        .execute(&self.pool)
        .await?;
        Ok(result.last_insert_rowid())
    }

    /// The finished games of a room, oldest first.
    pub async fn games(&self, room_code: &str) -> sqlx::Result<Vec<GameRecord>> {
        let rows = sqlx::query(
            "SELECT room_code, number, game, options, players, moves, outcome, started_at, ended_at
             FROM games WHERE room_code = ? ORDER BY number",
        )
        .bind(room_code)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|row| {
                let json = |col: &str| {
                    serde_json::from_str(row.get::<&str, _>(col)).unwrap_or(Value::Null)
                };
                let strings =
                    |col: &str| serde_json::from_str(row.get::<&str, _>(col)).unwrap_or_default();
                GameRecord {
                    room_code: row.get("room_code"),
                    number: row.get::<i64, _>("number") as u32,
                    game: row.get("game"),
                    options: json("options"),
                    players: strings("players"),
                    moves: strings("moves"),
                    outcome: json("outcome"),
                    started_at: row.get("started_at"),
                    ended_at: row.get("ended_at"),
                }
            })
            .collect())
    }
}

impl Store {
    /// Creates an account; `Ok(None)` when the username is taken (in any
    /// case). When `token` is given, it becomes the account's first
    /// session in the same transaction.
    pub async fn create_account(
        &self,
        username: &str,
        password_hash: &str,
        email: Option<&str>,
        token: Option<&str>,
    ) -> sqlx::Result<Option<Account>> {
        let mut tx = self.pool.begin().await?;
        let now = now_millis();
        let inserted = sqlx::query(
            "INSERT INTO accounts (username, display_name, password_hash, email, created_at)
             VALUES (?, ?, ?, ?, ?)",
        )
        .bind(username)
        .bind(username)
        .bind(password_hash)
        .bind(email)
        .bind(now)
        .execute(&mut *tx)
        .await;
        let id = match inserted {
            Ok(done) => done.last_insert_rowid(),
            Err(e)
                if e.as_database_error()
                    .is_some_and(|d| d.is_unique_violation()) =>
            {
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        if let Some(token) = token {
            bind_session(&mut tx, token, id, now).await?;
        }
        tx.commit().await?;
        Ok(Some(Account {
            id,
            username: username.to_string(),
            display_name: username.to_string(),
            email: email.map(str::to_string),
        }))
    }

    /// The account named `username` (any case) with its password hash.
    pub async fn credentials(&self, username: &str) -> sqlx::Result<Option<Credentials>> {
        let row = sqlx::query(
            "SELECT id, username, display_name, email, password_hash FROM accounts WHERE username = ?",
        )
        .bind(username)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|row| Credentials {
            account: account_of(&row),
            password_hash: row.get("password_hash"),
        }))
    }

    /// Binds `token` to the account (a login). A token bound to another
    /// account before moves to this one.
    pub async fn start_session(&self, token: &str, account_id: i64) -> sqlx::Result<()> {
        let mut tx = self.pool.begin().await?;
        bind_session(&mut tx, token, account_id, now_millis()).await?;
        tx.commit().await
    }

    /// The account whose session `token` is, if any; notes the time as
    /// the session's `last_seen`.
    pub async fn session_account(&self, token: &str) -> sqlx::Result<Option<Account>> {
        let hash = token_hash(token);
        let row = sqlx::query(
            "UPDATE sessions SET last_seen = ? WHERE token_hash = ? RETURNING account_id",
        )
        .bind(now_millis())
        .bind(&hash)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let id: i64 = row.get("account_id");
        let row =
            sqlx::query("SELECT id, username, display_name, email FROM accounts WHERE id = ?")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.as_ref().map(account_of))
    }

    /// Logs the token out; true when it was a session.
    pub async fn end_session(&self, token: &str) -> sqlx::Result<bool> {
        let done = sqlx::query("DELETE FROM sessions WHERE token_hash = ?")
            .bind(token_hash(token))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}

async fn bind_session(
    tx: &mut sqlx::SqliteConnection,
    token: &str,
    account_id: i64,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT OR REPLACE INTO sessions (token_hash, account_id, created_at, last_seen)
         VALUES (?, ?, ?, ?)",
    )
    .bind(token_hash(token))
    .bind(account_id)
    .bind(now)
    .bind(now)
    .execute(tx)
    .await?;
    Ok(())
}

fn account_of(row: &sqlx::sqlite::SqliteRow) -> Account {
    Account {
        id: row.get("id"),
        username: row.get("username"),
        display_name: row.get("display_name"),
        email: row.get("email"),
    }
}

/// Sessions are stored by the hex SHA-256 of their token.
fn token_hash(token: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
