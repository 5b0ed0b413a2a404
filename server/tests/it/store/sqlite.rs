//! The SQLite-only checks: the file on disk, and the migrations of
//! databases written by older servers.

use std::path::Path;

use super::accounts::accounts_and_sessions;
use super::fixtures::*;
use super::sqlite;
use server::model::records::LiveGame;
use server::model::{TableId, TokenHash};
use server::store::Write;
use sqlx::{ConnectOptions, Connection, Row};

/// Every file of the database (the main file, and the WAL and shared
/// memory files if any are left).
fn database_bytes(dir: &Path) -> Vec<(String, Vec<u8>)> {
    std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("site.db"))
        })
        .map(|p| (p.display().to_string(), std::fs::read(&p).expect("read")))
        .collect()
}

fn assert_nowhere_in(dir: &Path, secret: &str) {
    let files = database_bytes(dir);
    assert!(!files.is_empty(), "the database files are there");
    for (name, bytes) in files {
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "{secret:?} is stored in the clear in {name}"
        );
    }
}

async fn raw_connection(dir: &Path) -> sqlx::SqliteConnection {
    sqlx::sqlite::SqliteConnectOptions::new()
        .filename(dir.join("site.db"))
        .connect()
        .await
        .expect("a raw connection")
}

/// Runs `sql` with `params` on the database file behind the store, as an
/// older server would have written it, and checks it changed one row.
async fn raw_update_one(dir: &Path, sql: &'static str, params: &[&str]) {
    let mut conn = raw_connection(dir).await;
    let mut query = sqlx::query(sql);
    for p in params {
        query = query.bind(p.to_string());
    }
    let done = query.execute(&mut conn).await.expect("update");
    assert_eq!(done.rows_affected(), 1, "{sql}");
    conn.close().await.expect("close");
}

#[tokio::test]
async fn sqlite_accounts_and_sessions_keep_no_plain_token() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = sqlite(dir.path()).await;
    let tokens = accounts_and_sessions(&store).await;
    store.close().await;

    let mut conn = raw_connection(dir.path()).await;
    let stored: Vec<String> = sqlx::query("SELECT token_hash FROM sessions")
        .fetch_all(&mut conn)
        .await
        .expect("sessions")
        .iter()
        .map(|r| r.get("token_hash"))
        .collect();
    conn.close().await.expect("close");
    let kept = tokens.last().expect("a kept session");
    assert_eq!(stored, vec![TokenHash::of(kept).as_str().to_string()]);
    for token in &tokens {
        assert_nowhere_in(dir.path(), token);
    }
}

/// Databases from before hashed host tokens kept the token in the clear:
/// opening the store hashes it and blanks the plain column.
#[tokio::test]
async fn sqlite_plain_host_tokens_are_hashed_on_open() {
    const PLAIN: &str = "plain-token-0123456789";
    let dir = tempfile::tempdir().expect("temp dir");
    let store = sqlite(dir.path()).await;
    let room = new_room(&store, "old").await;
    let untouched = new_room(&store, "new").await;
    store.close().await;

    // The room as an old server stored it.
    raw_update_one(
        dir.path(),
        "UPDATE rooms SET host_token = ?, host_hash = NULL WHERE code = ?",
        &[PLAIN, &room.code],
    )
    .await;

    let store = sqlite(dir.path()).await;
    let got = stored_room(&store, &room.code).await;
    assert_eq!(got.host, Some(TokenHash::of(PLAIN)));
    assert_eq!(
        saved(&store, &room.code).await.room.host,
        Some(TokenHash::of(PLAIN))
    );
    let other = stored_room(&store, &untouched.code).await;
    assert_room_eq(&other, &untouched);
    store.close().await;

    let mut conn = raw_connection(dir.path()).await;
    let row = sqlx::query("SELECT host_token, host_hash FROM rooms WHERE code = ?")
        .bind(&room.code)
        .fetch_one(&mut conn)
        .await
        .expect("row");
    assert_eq!(row.get::<String, _>("host_token"), "");
    assert_eq!(
        row.get::<Option<String>, _>("host_hash").as_deref(),
        Some(TokenHash::of(PLAIN).as_str())
    );
    conn.close().await.expect("close");
    assert_nowhere_in(dir.path(), PLAIN);

    // Opening again changes nothing.
    let store = sqlite(dir.path()).await;
    let got = stored_room(&store, &room.code).await;
    assert_eq!(got.host, Some(TokenHash::of(PLAIN)));
    store.close().await;
}

/// Games in progress stored before their moves were keyed by an integer
/// (`live_entries.game_id`, the game's UUID) are moved to the keyed
/// tables on open, and play on: the next move is stored after them.
#[tokio::test]
async fn sqlite_games_in_progress_survive_the_live_key_migration() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = sqlite(dir.path()).await;
    let room = new_room(&store, "key").await;
    let other = new_room(&store, "kez").await;
    let game = live_game(room.table, 1, crossyray_options());
    let next = live_game(other.table, 1, crossyray_options());
    for (code, g) in [(&room.code, &game), (&other.code, &next)] {
        let mut writes = vec![Write::GameStarted(g.clone())];
        writes.extend((0..3).map(|seq| Write::Entry(entry(g, seq))));
        store.write(code, writes).await.expect("stored");
    }
    store.close().await;

    // The two tables as the server before the migration had them.
    let mut conn = raw_connection(dir.path()).await;
    sqlx::raw_sql(
        "CREATE TABLE old_games AS SELECT id, room_code, table_id, number, game, options,
                sides, play_order, started_at FROM live_games;
         CREATE TABLE old_entries AS SELECT g.id AS game_id, e.seq, e.entry, e.clock, e.turn
             FROM live_entries e JOIN live_games g ON g.game_key = e.game_key;
         DROP TABLE live_entries;
         DROP TABLE live_games;
         CREATE TABLE live_games (
             id TEXT PRIMARY KEY NOT NULL, room_code TEXT NOT NULL REFERENCES rooms(code),
             table_id TEXT NOT NULL, number INTEGER NOT NULL, game TEXT NOT NULL,
             options TEXT NOT NULL, sides TEXT NOT NULL, play_order TEXT NOT NULL,
             started_at INTEGER NOT NULL);
         CREATE UNIQUE INDEX live_games_by_room ON live_games (room_code, number);
         CREATE TABLE live_entries (
             game_id TEXT NOT NULL REFERENCES live_games(id), seq INTEGER NOT NULL,
             entry TEXT NOT NULL, clock TEXT NOT NULL, turn TEXT NOT NULL,
             PRIMARY KEY (game_id, seq));
         INSERT INTO live_games SELECT * FROM old_games;
         INSERT INTO live_entries SELECT * FROM old_entries;
         DROP TABLE old_games;
         DROP TABLE old_entries;
         DELETE FROM _sqlx_migrations WHERE version = 20261206000001;",
    )
    .execute(&mut conn)
    .await
    .expect("the old tables");
    conn.close().await.expect("close");

    let store = sqlite(dir.path()).await;
    let want = |g: &LiveGame, n: u32| (0..n).map(|seq| entry(g, seq)).collect::<Vec<_>>();
    assert_live_eq(
        &saved(&store, &room.code).await.live,
        &[(&game, want(&game, 3))],
    );
    assert_live_eq(
        &saved(&store, &other.code).await.live,
        &[(&next, want(&next, 3))],
    );
    store
        .write(&room.code, vec![Write::Entry(entry(&game, 3))])
        .await
        .expect("the next move");
    assert_live_eq(
        &saved(&store, &room.code).await.live,
        &[(&game, want(&game, 4))],
    );
    store.close().await;
}

/// Games stored before their leaves were kept have `leaves` NULL: they
/// read back with none.
#[tokio::test]
async fn sqlite_a_game_from_before_leaves_were_kept_has_none() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = sqlite(dir.path()).await;
    let room = new_room(&store, "leaves").await;
    let g = live_game(TableId::new(), 1, crossyray_options());
    let f = finished(&room.code, &g, &["e5"]);
    store
        .write(
            &room.code,
            vec![Write::GameStarted(g.clone()), Write::GameEnded(f.clone())],
        )
        .await
        .expect("game");
    assert_eq!(
        store.games(&room.code).await.expect("games")[0].leaves,
        f.leaves
    );
    store.close().await;

    // The game as a server from before the column stored it.
    raw_update_one(
        dir.path(),
        "UPDATE games SET leaves = NULL WHERE room_code = ?",
        &[&room.code],
    )
    .await;

    let store = sqlite(dir.path()).await;
    let games = store.games(&room.code).await.expect("games");
    assert_eq!(games[0].moves, ["e5"]);
    assert!(games[0].leaves.is_empty());
    store.close().await;
}

/// The `account_games` migration fills the table from the games stored
/// before it: a profile reads the same after it as with the rows written
/// with each game.
#[tokio::test]
async fn sqlite_the_account_games_migration_fills_the_table_from_stored_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = sqlite(dir.path()).await;
    let now = server::model::now_millis();
    let account = new_account(&store, "Mig_g", now).await;
    let room = new_room(&store, "accg").await;
    let mut writes = Vec::new();
    for number in 1..=3 {
        let g = live_game(TableId::new(), number, crossyray_options());
        let mut f = finished(&room.code, &g, &["e5"]);
        // Side 1 wins: the account wins games 1 and 3, loses game 2; in
        // game 3 it played both sides (counted once, at side 0: a loss).
        let side = usize::from(number != 2);
        f.sides[side][0].account = Some(account.id);
        if number == 3 {
            f.sides[0][0].account = Some(account.id);
        }
        writes.push(Write::GameStarted(g));
        writes.push(Write::GameEnded(f));
    }
    store.write(&room.code, writes).await.expect("games");
    let before = store
        .profile(&account.username, 1)
        .await
        .expect("profile")
        .expect("found");
    assert_eq!((before.total, before.tallies[0].wins), (3, 1));
    store.close().await;

    // The table as the migration finds it, then its statement.
    let migration = include_str!("../../../../migrations/sqlite/20261212000001_account_games.sql");
    let fill = &migration[migration.find("INSERT INTO").expect("the fill")..];
    let mut conn = raw_connection(dir.path()).await;
    sqlx::query("DELETE FROM account_games")
        .execute(&mut conn)
        .await
        .expect("empty");
    let filled = sqlx::query(fill).execute(&mut conn).await.expect("fill");
    assert_eq!(filled.rows_affected(), 3);
    conn.close().await.expect("close");

    let store = sqlite(dir.path()).await;
    let after = store
        .profile(&account.username, 1)
        .await
        .expect("profile")
        .expect("found");
    assert_eq!(after.tallies, before.tallies);
    let ids = |p: &server::store::Profile| -> Vec<(Option<String>, String)> {
        p.recent
            .iter()
            .map(|(g, r)| (g.id.clone(), r.clone()))
            .collect()
    };
    assert_eq!(ids(&after), ids(&before));
    store.close().await;
}

// ---------------------------------------------------------------------
// PostgreSQL: the same checks on this machine's server (`TEST_DATABASE_URL`,
// by default postgres://postgres@127.0.0.1:5432/test), each in a schema of
// its own that is dropped afterwards. Without a server they are skipped,
// saying so, except under CI (`CI` set), where they fail.
