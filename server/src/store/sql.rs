//! The store's queries, one set for both databases through sqlx's `Any`
//! driver. The SQL is the common part of SQLite and PostgreSQL: `$N`
//! parameters, `INSERT … ON CONFLICT`, `RETURNING`, integers as 64-bit
//! and JSON as text. Where the two differ, [`Backend`] (`db.rs`) says how.
//! What a room's writes do is `write.rs`.

use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Executor, Row};

use super::batch::{Line, Writer};
use super::db::query;
use super::db::Backend;
use super::lease::Fence;
use super::lite::WriteLine;
use super::pg::PgLine;
use super::rows::{json, live_of, member_of, room_of, score_of};
use super::write::{room_values, Write};
use super::{StoreError, StoreResult};
use crate::model::now_millis;
use crate::model::records::ChatLine;
use crate::model::records::{EntryRow, GameRecord, RoomRow, SavedRoom};
use crate::model::{MemberId, TokenHash};
use tokio_util::sync::CancellationToken;

/// The PostgreSQL advisory lock held while migrating (any number, the
/// same on every node).
const MIGRATION_LOCK: i64 = 0x6267_6d69_6772;

/// A room's own row (and its tournament, read by `load_room`).
const ROOM_ROW: &str =
    "SELECT code, game, options, host_hash, autostart, solo, rated, games_played,
                               next_member, table_id, tournament, start_when_seated,
                               public
                        FROM rooms WHERE code = $1";

#[derive(Clone)]
pub struct Store {
    pub(super) pool: AnyPool,
    pub(super) backend: Backend,
    writer: Writer,
    line: Option<WriteLine>,
    /// Closes the PostgreSQL writer's connection.
    pg: Option<CancellationToken>,
    /// The data folder's lock (`Store::open`), held while the store is.
    pub(super) folder_lock: Option<std::sync::Arc<std::fs::File>>,
}

impl Store {
    /// A write transaction in which statements of all nodes that begin it
    /// with the same `lock` take turns: SQLite has one writer anyway; on
    /// PostgreSQL the transaction holds the advisory lock `lock` until it
    /// ends, so a count and the insert it allows are one step.
    pub(super) async fn turn_taking(
        &self,
        lock: i64,
    ) -> StoreResult<sqlx::Transaction<'static, sqlx::Any>> {
        let mut tx = self.pool.begin_with(self.backend.begin_write()).await?;
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(lock)
                .execute(&mut *tx)
                .await?;
        }
        Ok(tx)
    }

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
        // On PostgreSQL it has its own too, on another driver (`pg.rs`).
        let (line, pg, writer_line) = match backend {
            Backend::Sqlite => {
                let file: String =
                    sqlx::query_scalar("SELECT file FROM pragma_database_list WHERE name = 'main'")
                        .fetch_one(&pool)
                        .await?;
                if file.is_empty() {
                    (None, None, Line::Pool(pool.clone()))
                } else {
                    let line = WriteLine::open(std::path::Path::new(&file))?;
                    (Some(line.clone()), None, Line::Lite(line))
                }
            }
            Backend::Postgres => {
                let line = PgLine::open(url).await?;
                (None, Some(line.closer()), Line::Pg(Box::new(line)))
            }
        };
        let writer = Writer::spawn(writer_line)?;
        let store = Store {
            pool,
            backend,
            writer,
            line,
            pg,
            folder_lock: None,
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
        // Closed: another server may take the folder.
        if let Some(lock) = &self.folder_lock {
            let _ = lock.unlock();
        }
        if let Some(pg) = &self.pg {
            pg.cancel();
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
        let mut insert = query(
            "INSERT INTO rooms (game, options, host_hash, autostart, games_played, next_member,
                                table_id, rated, start_when_seated, public, code,
                                host_token, created_at, solo)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, '', $12, $13)",
        );
        insert.args = room_values(room).into();
        let mut conn = self.pool.acquire().await?;
        insert
            .bind(&room.code)
            .bind(now_millis() as i64)
            .bind(i64::from(room.solo))
            .execute(&mut *conn)
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

    /// Page `page` (from 1) of a room's finished games, newest first,
    /// [`super::PAGE_SIZE`] a page, with how many it has in all: only the
    /// page is read, however many games the room has.
    pub async fn games_page(&self, code: &str, page: u32) -> StoreResult<(Vec<GameRecord>, u64)> {
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE room_code = $1")
            .bind(code)
            .fetch_one(&self.pool)
            .await?;
        let rows = sqlx::query(
            "SELECT * FROM games WHERE room_code = $1 ORDER BY number DESC LIMIT $2 OFFSET $3",
        )
        .bind(code)
        .bind(i64::from(super::PAGE_SIZE))
        .bind(i64::from(page.max(1) - 1) * i64::from(super::PAGE_SIZE))
        .fetch_all(&self.pool)
        .await?;
        let games = rows.iter().map(super::history::record_of).collect();
        Ok((games, u64::try_from(total).unwrap_or(0)))
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
