//! The lobby's public rooms (`lobby_rooms`): each public room's task
//! keeps its summary here (`Write::Lobby`, in the room's own
//! transaction, fenced like its other writes), and any node lists the
//! open ones.

use serde::Serialize;
use sqlx::Row as _;

use super::db::{query, to_json, Db};
use super::{Store, StoreResult};
use crate::model::records::{LobbyEntry, LobbyPlayer};

/// Public rooms listed at most (the newest changes first).
pub const LOBBY_ROOMS: i64 = 100;

/// One open public room as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LobbyRoom {
    pub code: String,
    pub game: String,
    pub options: serde_json::Value,
    pub seats: i64,
    pub free: i64,
    pub running: bool,
    pub players: Vec<LobbyPlayer>,
    pub updated_at: i64,
}

/// Stores (or, for `None`, deletes) room `code`'s lobby line.
pub(super) async fn write_entry(
    tx: &mut impl Db,
    code: &str,
    entry: Option<&LobbyEntry>,
    at: u64,
) -> StoreResult<()> {
    let Some(e) = entry else {
        query("DELETE FROM lobby_rooms WHERE code = $1")
            .bind(code)
            .execute(tx)
            .await?;
        return Ok(());
    };
    query(
        "INSERT INTO lobby_rooms (code, game, options, seats, free, running, players, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (code) DO UPDATE SET
            game = excluded.game, options = excluded.options, seats = excluded.seats,
            free = excluded.free, running = excluded.running, players = excluded.players,
            updated_at = excluded.updated_at",
    )
    .bind(code)
    .bind(e.game.name())
    .bind(e.options.to_string())
    .bind(e.seats as i64)
    .bind(e.free as i64)
    .bind(i64::from(e.running))
    .bind(to_json(&e.players))
    .bind(at as i64)
    .execute(tx)
    .await?;
    Ok(())
}

impl Store {
    /// The open public rooms (a seat free), newest change first, at most
    /// [`LOBBY_ROOMS`].
    pub async fn lobby_rooms(&self) -> StoreResult<Vec<LobbyRoom>> {
        let rows = sqlx::query(
            "SELECT code, game, options, seats, free, running, players, updated_at
               FROM lobby_rooms WHERE free > 0
              ORDER BY updated_at DESC, code LIMIT $1",
        )
        .bind(LOBBY_ROOMS)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|row| LobbyRoom {
                code: row.get("code"),
                game: row.get("game"),
                options: serde_json::from_str(&row.get::<String, _>("options")).unwrap_or_default(),
                seats: row.get("seats"),
                free: row.get("free"),
                running: row.get::<i64, _>("running") != 0,
                players: serde_json::from_str(&row.get::<String, _>("players")).unwrap_or_default(),
                updated_at: row.get("updated_at"),
            })
            .collect())
    }
}

impl Store {
    /// Clears the lobby's tables (one node starting: nothing is live).
    pub async fn clear_lobby(&self) -> StoreResult<()> {
        sqlx::query("DELETE FROM lobby_rooms")
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM seeks").execute(&self.pool).await?;
        Ok(())
    }
}
