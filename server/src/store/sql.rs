//! The store's queries, one set for both databases through sqlx's `Any`
//! driver. The SQL is the common part of SQLite and PostgreSQL: `$N`
//! parameters, `INSERT … ON CONFLICT`, `RETURNING`, integers as 64-bit
//! and JSON as text. Where the two differ, [`Backend`] says how.

use std::time::Duration;

use serde_json::Value;
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Executor, Row};

use super::batch::Writer;
use super::db::{query, Db};
use super::lease::Fence;
use super::lite::WriteLine;
use super::rows::{json, live_of, member_of, room_of, score_of};
use super::write::Write;
use super::{StoreError, StoreResult};
use crate::model::now_millis;
use crate::model::records::ChatLine;
use crate::model::records::{EntryRow, FinishedGame, GameRecord, RoomRow, SavedRoom};
use crate::model::{MemberId, TokenHash};

/// Which database a store is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// One file, one process: the embedded default.
    Sqlite,
    /// The shared store of several nodes.
    Postgres,
}

impl Backend {
    /// How a write transaction starts. SQLite's IMMEDIATE takes the write
    /// lock at once: a deferred transaction that reads first (the chat
    /// line's next number) would fail outright, not wait, if another
    /// connection wrote in between. PostgreSQL locks rows as it goes.
    pub(super) fn begin_write(self) -> &'static str {
        match self {
            Backend::Sqlite => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN",
        }
    }
}

/// The PostgreSQL advisory lock held while migrating (any number, the
/// same on every node).
const MIGRATION_LOCK: i64 = 0x6267_6d69_6772;

/// A room's own row (and its tournament, read by `load_room`).
const ROOM_ROW: &str =
    "SELECT code, game, options, host_hash, autostart, solo, rated, games_played,
                               next_member, table_id, tournament
                        FROM rooms WHERE code = $1";

#[derive(Clone)]
pub struct Store {
    pub(super) pool: AnyPool,
    pub(super) backend: Backend,
    writer: Writer,
    line: Option<WriteLine>,
}

impl Store {
    pub(super) async fn connect(backend: Backend, url: &str) -> StoreResult<Store> {
        sqlx::any::install_default_drivers();
        let options = AnyPoolOptions::new().acquire_timeout(Duration::from_secs(10));
        let pool = match backend {
            Backend::Sqlite => {
                let url = if url.contains('?') {
                    url.to_string()
                } else {
                    format!("{url}?mode=rwc")
                };
                options
                    .max_connections(4)
                    .after_connect(|conn, _| {
                        Box::pin(async move {
                            Executor::execute(
                                conn,
                                "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;",
                            )
                            .await?;
                            Ok(())
                        })
                    })
                    .connect(&url)
                    .await?
            }
            Backend::Postgres => options.max_connections(16).connect(url).await?,
        };
        let migrated = match backend {
            Backend::Sqlite => sqlx::migrate!("../migrations/sqlite").run(&pool).await,
            Backend::Postgres => {
                // Nodes starting at once on an empty database would race to
                // create the migrations table: one migrates, the others
                // wait for it, then find nothing left to do.
                let mut conn = pool.acquire().await?;
                sqlx::query("SELECT pg_advisory_lock($1)")
                    .bind(MIGRATION_LOCK)
                    .execute(&mut *conn)
                    .await?;
                let done = sqlx::migrate!("../migrations/postgres")
                    .run(&mut *conn)
                    .await;
                sqlx::query("SELECT pg_advisory_unlock($1)")
                    .bind(MIGRATION_LOCK)
                    .execute(&mut *conn)
                    .await?;
                done
            }
        };
        migrated.map_err(|e| StoreError::Open(e.to_string()))?;
        // On an SQLite file the writer has its own connection (`lite.rs`);
        // an in-memory database has no file to share, so it keeps sqlx's.
        let line = match backend {
            Backend::Sqlite => {
                let file: String =
                    sqlx::query_scalar("SELECT file FROM pragma_database_list WHERE name = 'main'")
                        .fetch_one(&pool)
                        .await?;
                if file.is_empty() {
                    None
                } else {
                    Some(WriteLine::open(std::path::Path::new(&file))?)
                }
            }
            Backend::Postgres => None,
        };
        let writer = Writer::spawn(pool.clone(), backend, line.clone())?;
        let store = Store {
            pool,
            backend,
            writer,
            line,
        };
        store.hash_plain_host_tokens().await?;
        Ok(store)
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Waits for the writes already handed to the writer, then closes.
    pub async fn close(&self) {
        let _ = self.writer.write("", None, Vec::new()).await;
        if let Some(line) = &self.line {
            line.close();
        }
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
            sqlx::query("UPDATE rooms SET host_hash = $1, host_token = '' WHERE code = $2")
                .bind(TokenHash::of(&token).as_str())
                .bind(code)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Stores a new room; `Conflict` if the code is taken.
    pub async fn insert_room(&self, room: &RoomRow) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO rooms (code, game, options, host_token, host_hash, autostart,
                                games_played, next_member, table_id, created_at, solo, rated)
             VALUES ($1, $2, $3, '', $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&room.code)
        .bind(room.game().name())
        .bind(room.options.to_json().to_string())
        .bind(room.host.as_ref().map(TokenHash::as_str))
        .bind(i64::from(room.autostart))
        .bind(i64::from(room.games_played))
        .bind(i64::from(room.next_member))
        .bind(room.table.to_string())
        .bind(now_millis() as i64)
        .bind(i64::from(room.solo))
        .bind(i64::from(room.rated))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The room's own row, if it exists.
    pub async fn room(&self, code: &str) -> StoreResult<Option<RoomRow>> {
        let row = sqlx::query(ROOM_ROW)
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| room_of(&row)))
    }

    /// Everything stored about a room, to bring it back.
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
        let members = rows("SELECT * FROM room_members WHERE room_code = $1 ORDER BY id")
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(member_of)
            .collect();
        let scores = rows("SELECT * FROM room_scores WHERE room_code = $1")
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .filter_map(score_of)
            .collect();
        let chat = rows("SELECT * FROM room_chat WHERE room_code = $1 ORDER BY seq")
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
        let games = rows("SELECT * FROM live_games WHERE room_code = $1 ORDER BY number")
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
            let entries =
                sqlx::query("SELECT * FROM live_entries WHERE game_key = $1 ORDER BY seq")
                    .bind(row.get::<i64, _>("game_key"))
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

    /// Applies `writes` for room `code`, all or none, in one transaction
    /// shared with other rooms' writes waiting at the same moment
    /// (`batch.rs`). For a single node: no fencing token.
    pub async fn write(&self, code: &str, writes: Vec<Write>) -> StoreResult<()> {
        self.write_as(code, None, writes).await
    }

    /// [`Store::write`] by the holder of `fence`: refused with
    /// [`StoreError::Fenced`], storing nothing, unless the fence is still
    /// the room's lease.
    pub async fn write_as(
        &self,
        code: &str,
        fence: Option<Fence>,
        writes: Vec<Write>,
    ) -> StoreResult<()> {
        if writes.is_empty() {
            return Ok(());
        }
        self.writer.write(code, fence, writes).await
    }

    /// The finished games of a room, oldest first.
    pub async fn games(&self, code: &str) -> StoreResult<Vec<GameRecord>> {
        let rows = sqlx::query("SELECT * FROM games WHERE room_code = $1 ORDER BY number")
            .bind(code)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(super::history::record_of).collect())
    }
}

pub(super) async fn apply(tx: &mut impl Db, code: &str, write: &Write) -> StoreResult<()> {
    match write {
        Write::Room(room) => {
            query(
                "UPDATE rooms SET game = $1, options = $2, host_hash = $3, autostart = $4,
                        games_played = $5, next_member = $6, table_id = $7, rated = $9
                 WHERE code = $8",
            )
            .bind(room.game().name())
            .bind(room.options.to_json().to_string())
            .bind(room.host.as_ref().map(TokenHash::as_str))
            .bind(i64::from(room.autostart))
            .bind(i64::from(room.games_played))
            .bind(i64::from(room.next_member))
            .bind(room.table.to_string())
            .bind(code)
            .bind(i64::from(room.rated))
            .execute(tx)
            .await?;
        }
        Write::Member(m) => {
            query(
                "INSERT INTO room_members
                 (room_code, id, token_hash, name, seat, host, computer, account_id,
                  account_name, display_name, removed)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                 ON CONFLICT (room_code, id) DO UPDATE SET
                    token_hash = excluded.token_hash, name = excluded.name,
                    seat = excluded.seat, host = excluded.host, computer = excluded.computer,
                    account_id = excluded.account_id, account_name = excluded.account_name,
                    display_name = excluded.display_name, removed = excluded.removed",
            )
            .bind(code)
            .bind(i64::from(m.id.0))
            .bind(m.token.as_ref().map(TokenHash::as_str))
            .bind(&m.name)
            .bind(m.seat.map(|s| s as i64))
            .bind(i64::from(m.host))
            .bind(m.computer.map(|l| l.name()))
            .bind(m.account.as_ref().map(|a| a.id))
            .bind(m.account.as_ref().map(|a| a.username.as_str()))
            .bind(m.account.as_ref().map(|a| a.display_name.as_str()))
            .bind(i64::from(m.removed))
            .execute(tx)
            .await?;
        }
        Write::RemoveMember(id) => {
            query("DELETE FROM room_members WHERE room_code = $1 AND id = $2")
                .bind(code)
                .bind(i64::from(id.0))
                .execute(tx)
                .await?;
        }
        Write::Score(row) => {
            query(
                "INSERT INTO room_scores
                 (room_code, person, name, account, points, wins, draws, losses)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                 ON CONFLICT (room_code, person) DO UPDATE SET
                    name = excluded.name, account = excluded.account,
                    points = excluded.points, wins = excluded.wins,
                    draws = excluded.draws, losses = excluded.losses",
            )
            .bind(code)
            .bind(row.person.key())
            .bind(&row.name)
            .bind(&row.account)
            .bind(i64::from(row.points))
            .bind(i64::from(row.wins))
            .bind(i64::from(row.draws))
            .bind(i64::from(row.losses))
            .execute(tx)
            .await?;
        }
        Write::Chat(line) => {
            let seq = query(
                "SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM room_chat WHERE room_code = $1",
            )
            .bind(code)
            .fetch_one(tx)
            .await?
            .int("seq")?;
            query(
                "INSERT INTO room_chat (room_code, seq, member, name, text, at)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(code)
            .bind(seq)
            .bind(i64::from(line.member.0))
            .bind(&line.from)
            .bind(&line.text)
            .bind(line.at as i64)
            .execute(tx)
            .await?;
            query("DELETE FROM room_chat WHERE room_code = $1 AND seq <= $2")
                .bind(code)
                .bind(seq - crate::model::records::CHAT_HISTORY as i64)
                .execute(tx)
                .await?;
        }
        Write::GameStarted(g) => {
            // The table's previous game (finished, kept for display) goes.
            forget_tables(tx, code, |table| table == g.table.to_string()).await?;
            query(
                "INSERT INTO live_games
                 (id, room_code, table_id, number, game, options, sides, play_order, started_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(g.id.to_string())
            .bind(code)
            .bind(g.table.to_string())
            .bind(i64::from(g.number))
            .bind(g.options.kind().name())
            .bind(g.options.to_json().to_string())
            .bind(to_json(&g.sides))
            .bind(to_json(&g.order))
            .bind(g.started_at as i64)
            .execute(tx)
            .await?;
        }
        Write::Entry(e) => tx.insert_entries(&[e]).await?,
        Write::GameEnded(f) => finish_game(tx, code, f).await?,
        Write::Tournament(bracket) => {
            query("UPDATE rooms SET tournament = $1 WHERE code = $2")
                .bind(bracket.as_ref().map(to_json))
                .bind(code)
                .execute(tx)
                .await?;
            // The logs of earlier rounds' tables are history now (their
            // games are in `games`); the room's own table and the current
            // round's stay.
            let mut keep: Vec<String> = bracket
                .as_ref()
                .and_then(|b| b.current())
                .map(|r| r.pairings.iter().map(|p| p.table.to_string()).collect())
                .unwrap_or_default();
            let own = query("SELECT table_id FROM rooms WHERE code = $1")
                .bind(code)
                .fetch_optional(tx)
                .await?;
            if let Some(own) = own {
                keep.extend(own.text("table_id")?);
            }
            forget_tables(tx, code, |table| !keep.iter().any(|k| k == table)).await?;
        }
    }
    Ok(())
}

/// Deletes the live games (and their logs) of the room's tables that
/// `gone` picks.
async fn forget_tables(
    tx: &mut impl Db,
    code: &str,
    gone: impl Fn(&str) -> bool,
) -> StoreResult<()> {
    let games = query("SELECT game_key, table_id FROM live_games WHERE room_code = $1")
        .bind(code)
        .fetch_all(tx)
        .await?;
    for row in games {
        let table = row.text("table_id")?.unwrap_or_default();
        if !gone(&table) {
            continue;
        }
        let key = row.int("game_key")?;
        query("DELETE FROM live_entries WHERE game_key = $1")
            .bind(key)
            .execute(tx)
            .await?;
        query("DELETE FROM live_games WHERE game_key = $1")
            .bind(key)
            .execute(tx)
            .await?;
    }
    Ok(())
}

/// A finished game is recorded in `games`, for history.
async fn finish_game(tx: &mut impl Db, code: &str, f: &FinishedGame) -> StoreResult<()> {
    query(
        "INSERT INTO games (room_code, number, game, options, players, moves, outcome,
                            started_at, ended_at, game_id, sides, leaves, rated)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(code)
    .bind(i64::from(f.number))
    .bind(f.game.name())
    .bind(f.options.to_json().to_string())
    .bind(Value::from(f.players.clone()).to_string())
    .bind(Value::from(f.moves.clone()).to_string())
    .bind(serde_json::to_string(&f.outcome).unwrap_or_default())
    .bind(f.started_at as i64)
    .bind(f.ended_at as i64)
    .bind(f.id.to_string())
    .bind(to_json(&f.sides))
    .bind(to_json(&f.leaves))
    .bind(i64::from(f.rated))
    .execute(tx)
    .await?;
    super::history::record_players(tx, code, f).await?;
    if f.rated {
        super::ratings::rate_game(tx, f).await?;
    }
    // The game's log stays in `live_games` until the table's next game
    // starts, so a reloaded room still shows its last game.
    Ok(())
}

/// A JSON column's text.
pub(super) fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
