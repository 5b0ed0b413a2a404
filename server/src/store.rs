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

pub fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
