//! The SQLite backend: one file in the data folder, WAL mode, migrations
//! in `migrations/sqlite/`.

use std::path::Path;
use std::str::FromStr;

use serde_json::Value;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};
use sqlx::{Row, SqliteConnection, SqlitePool};

use super::batch::Writer;
use super::records::{EntryRow, FinishedGame, GameRecord, RoomRow, SavedRoom};
use super::rows::{json, live_of, member_of, room_of, score_of};
use super::{now_millis, StoreError, StoreResult};
use crate::room::{ChatLine, MemberId, TokenHash, Write};

/// A room's own row (and its tournament, read by `load_room`).
const ROOM_ROW: &str = "SELECT code, game, options, host_hash, autostart, games_played,
                               next_member, table_id, tournament
                        FROM rooms WHERE code = ?";

#[derive(Clone)]
pub struct SqliteStore {
    pub(super) pool: SqlitePool,
    writer: Writer,
}

impl SqliteStore {
    pub async fn open(url: Option<&str>, data_dir: &Path) -> StoreResult<SqliteStore> {
        let options = match url {
            Some(url) => SqliteConnectOptions::from_str(url)?,
            None => {
                std::fs::create_dir_all(data_dir).map_err(|e| StoreError::Open(e.to_string()))?;
                SqliteConnectOptions::new().filename(data_dir.join("site.db"))
            }
        }
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .busy_timeout(std::time::Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        sqlx::migrate!("../migrations/sqlite")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Open(e.to_string()))?;
        let writer = Writer::spawn(pool.clone());
        let store = SqliteStore { pool, writer };
        store.hash_plain_host_tokens().await?;
        Ok(store)
    }

    /// Waits for the writes already handed to the writer, then closes.
    pub async fn close(&self) {
        let _ = self.writer.write("", Vec::new()).await;
        self.pool.close().await;
    }

    /// Databases from before hashed host tokens kept the host's token in
    /// the clear: hash it and blank the plain column.
    async fn hash_plain_host_tokens(&self) -> StoreResult<()> {
        let rows = sqlx::query("SELECT code, host_token FROM rooms WHERE host_token != ''")
            .fetch_all(&self.pool)
            .await?;
        for row in rows {
            let code: String = row.get("code");
            let token: String = row.get("host_token");
            sqlx::query("UPDATE rooms SET host_hash = ?, host_token = '' WHERE code = ?")
                .bind(TokenHash::of(&token).as_str())
                .bind(code)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    pub async fn insert_room(&self, room: &RoomRow) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO rooms (code, game, options, host_token, host_hash, autostart,
                                games_played, next_member, table_id, created_at)
             VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?)",
        )
        .bind(&room.code)
        .bind(room.game().name())
        .bind(room.options.to_json().to_string())
        .bind(room.host.as_ref().map(TokenHash::as_str))
        .bind(room.autostart)
        .bind(room.games_played)
        .bind(room.next_member)
        .bind(room.table.to_string())
        .bind(now_millis() as i64)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn room(&self, code: &str) -> StoreResult<Option<RoomRow>> {
        let row = sqlx::query(ROOM_ROW)
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| room_of(&row)))
    }

    pub async fn load_room(&self, code: &str) -> StoreResult<Option<SavedRoom>> {
        let mut tx = self.pool.begin().await?;
        let Some(row) = sqlx::query(ROOM_ROW)
            .bind(code)
            .fetch_optional(&mut *tx)
            .await?
        else {
            return Ok(None);
        };
        let room = room_of(&row);
        let tournament = json(&row, "tournament");
        let rows = |sql| sqlx::query(sql).bind(code);
        let members = rows("SELECT * FROM room_members WHERE room_code = ? ORDER BY id")
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(member_of)
            .collect();
        let scores = rows("SELECT * FROM room_scores WHERE room_code = ?")
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .filter_map(score_of)
            .collect();
        let chat = rows("SELECT * FROM room_chat WHERE room_code = ? ORDER BY seq")
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|row| ChatLine {
                from: row.get("name"),
                member: MemberId(row.get::<i64, _>("member") as u32),
                text: row.get("text"),
                at: row.get::<i64, _>("at") as u64,
            })
            .collect();
        let games = rows("SELECT * FROM live_games WHERE room_code = ? ORDER BY number")
            .fetch_all(&mut *tx)
            .await?;
        let mut live = Vec::new();
        for row in games {
            let Some(game) = live_of(&row) else {
                tracing::warn!(
                    room = code,
                    "a stored game in progress could not be read; skipped"
                );
                continue;
            };
            let entries = sqlx::query("SELECT * FROM live_entries WHERE game_id = ? ORDER BY seq")
                .bind(game.id.to_string())
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|row| {
                    Some(EntryRow {
                        game: game.id,
                        seq: row.get::<i64, _>("seq") as u32,
                        entry: json(row, "entry")?,
                        clock: json(row, "clock")?,
                        turn: json(row, "turn")?,
                    })
                })
                .collect::<Option<Vec<_>>>()
                .unwrap_or_default();
            live.push((game, entries));
        }
        tx.commit().await?;
        Ok(Some(SavedRoom {
            tournament,
            room,
            members,
            scores,
            chat,
            live,
        }))
    }

    /// Stores a room's writes in one transaction, shared with other rooms'
    /// writes waiting at the same moment (`batch.rs`).
    pub async fn write(&self, code: &str, writes: Vec<Write>) -> StoreResult<()> {
        if writes.is_empty() {
            return Ok(());
        }
        self.writer.write(code, writes).await
    }

    pub async fn games(&self, code: &str) -> StoreResult<Vec<GameRecord>> {
        let rows = sqlx::query("SELECT * FROM games WHERE room_code = ? ORDER BY number")
            .bind(code)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(super::history::record_of).collect())
    }
}

pub(super) async fn apply(tx: &mut SqliteConnection, code: &str, write: &Write) -> StoreResult<()> {
    match write {
        Write::Room(room) => {
            sqlx::query(
                "UPDATE rooms SET game = ?, options = ?, host_hash = ?, autostart = ?,
                        games_played = ?, next_member = ?, table_id = ?
                 WHERE code = ?",
            )
            .bind(room.game().name())
            .bind(room.options.to_json().to_string())
            .bind(room.host.as_ref().map(TokenHash::as_str))
            .bind(room.autostart)
            .bind(room.games_played)
            .bind(room.next_member)
            .bind(room.table.to_string())
            .bind(code)
            .execute(&mut *tx)
            .await?;
        }
        Write::Member(m) => {
            sqlx::query(
                "INSERT OR REPLACE INTO room_members
                 (room_code, id, token_hash, name, seat, host, computer, account_id,
                  account_name, display_name)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(code)
            .bind(m.id.0)
            .bind(m.token.as_ref().map(TokenHash::as_str))
            .bind(&m.name)
            .bind(m.seat.map(|s| s as i64))
            .bind(m.host)
            .bind(m.computer.map(|l| l.name()))
            .bind(m.account.as_ref().map(|a| a.id))
            .bind(m.account.as_ref().map(|a| a.username.as_str()))
            .bind(m.account.as_ref().map(|a| a.display_name.as_str()))
            .execute(&mut *tx)
            .await?;
        }
        Write::RemoveMember(id) => {
            sqlx::query("DELETE FROM room_members WHERE room_code = ? AND id = ?")
                .bind(code)
                .bind(id.0)
                .execute(&mut *tx)
                .await?;
        }
        Write::Score(row) => {
            sqlx::query(
                "INSERT OR REPLACE INTO room_scores
                 (room_code, person, name, account, points, wins, draws, losses)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(code)
            .bind(row.person.key())
            .bind(&row.name)
            .bind(&row.account)
            .bind(row.points)
            .bind(row.wins)
            .bind(row.draws)
            .bind(row.losses)
            .execute(&mut *tx)
            .await?;
        }
        Write::Chat(line) => {
            let seq: i64 = sqlx::query_scalar(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM room_chat WHERE room_code = ?",
            )
            .bind(code)
            .fetch_one(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO room_chat (room_code, seq, member, name, text, at)
                 VALUES (?, ?, ?, ?, ?, ?)",
            )
            .bind(code)
            .bind(seq)
            .bind(line.member.0)
            .bind(&line.from)
            .bind(&line.text)
            .bind(line.at as i64)
            .execute(&mut *tx)
            .await?;
            sqlx::query("DELETE FROM room_chat WHERE room_code = ? AND seq <= ?")
                .bind(code)
                .bind(seq - crate::room::CHAT_HISTORY as i64)
                .execute(&mut *tx)
                .await?;
        }
        Write::GameStarted(g) => {
            // The table's previous game (finished, kept for display) goes.
            sqlx::query(
                "DELETE FROM live_entries WHERE game_id IN
                 (SELECT id FROM live_games WHERE room_code = ? AND table_id = ?)",
            )
            .bind(code)
            .bind(g.table.to_string())
            .execute(&mut *tx)
            .await?;
            sqlx::query("DELETE FROM live_games WHERE room_code = ? AND table_id = ?")
                .bind(code)
                .bind(g.table.to_string())
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO live_games
                 (id, room_code, table_id, number, game, options, sides, play_order, started_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(g.id.to_string())
            .bind(code)
            .bind(g.table.to_string())
            .bind(g.number)
            .bind(g.options.kind().name())
            .bind(g.options.to_json().to_string())
            .bind(to_json(&g.sides))
            .bind(to_json(&g.order))
            .bind(g.started_at as i64)
            .execute(&mut *tx)
            .await?;
        }
        Write::Entry(e) => {
            sqlx::query(
                "INSERT INTO live_entries (game_id, seq, entry, clock, turn) VALUES (?, ?, ?, ?, ?)",
            )
            .bind(e.game.to_string())
            .bind(e.seq)
            .bind(to_json(&e.entry))
            .bind(to_json(&e.clock))
            .bind(to_json(&e.turn))
            .execute(&mut *tx)
            .await?;
        }
        Write::GameEnded(f) => finish_game(tx, code, f).await?,
        Write::Tournament(bracket) => {
            sqlx::query("UPDATE rooms SET tournament = ? WHERE code = ?")
                .bind(bracket.as_ref().map(to_json))
                .bind(code)
                .execute(&mut *tx)
                .await?;
            // The logs of earlier rounds' tables are history now (their
            // games are in `games`).
            let keep: Vec<String> = bracket
                .as_ref()
                .and_then(|b| b.current())
                .map(|r| r.pairings.iter().map(|p| p.table.to_string()).collect())
                .unwrap_or_default();
            let keep = to_json(&keep);
            for sql in [
                "DELETE FROM live_entries WHERE game_id IN (SELECT id FROM live_games
                   WHERE room_code = ?1 AND table_id NOT IN (SELECT value FROM json_each(?2))
                   AND table_id != COALESCE((SELECT table_id FROM rooms WHERE code = ?1), ''))",
                "DELETE FROM live_games WHERE room_code = ?1
                   AND table_id NOT IN (SELECT value FROM json_each(?2))
                   AND table_id != COALESCE((SELECT table_id FROM rooms WHERE code = ?1), '')",
            ] {
                sqlx::query(sql)
                    .bind(code)
                    .bind(&keep)
                    .execute(&mut *tx)
                    .await?;
            }
        }
    }
    Ok(())
}

/// A finished game is recorded in `games`, for history.
async fn finish_game(tx: &mut SqliteConnection, code: &str, f: &FinishedGame) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO games (room_code, number, game, options, players, moves, outcome,
                            started_at, ended_at, game_id, sides)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(code)
    .bind(f.number)
    .bind(f.game.name())
    .bind(f.options.to_json().to_string())
    .bind(Value::from(f.players.clone()).to_string())
    .bind(Value::from(f.moves.clone()).to_string())
    .bind(serde_json::to_string(&f.outcome).unwrap_or_default())
    .bind(f.started_at as i64)
    .bind(f.ended_at as i64)
    .bind(f.id.to_string())
    .bind(to_json(&f.sides))
    .execute(&mut *tx)
    .await?;
    super::history::record_players(tx, code, f).await?;
    // The game's log stays in `live_games` until the table's next game
    // starts, so a reloaded room still shows its last game.
    Ok(())
}

/// A JSON column's text.
fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
