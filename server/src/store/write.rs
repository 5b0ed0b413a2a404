//! What a room asks the store to change, and how the store applies it.
//! The room's state produces these (`Effect::Persist`) and the store
//! applies them ([`apply`], batched by `batch.rs`): the enum lives with the
//! code that gives it meaning.

use serde_json::Value;

use super::db::{query, query_built, to_json, Arg, Db};
use super::StoreResult;
use crate::model::bracket::Bracket;
use crate::model::records::{
    ChatLine, EntryRow, FinishedGame, LiveGame, LobbyEntry, MemberRow, RoomRow, ScoreRow, TurnRow,
};
use crate::model::{MemberId, TokenHash};

/// A change to the stored room. All the writes of one command are stored
/// in one transaction before anything else happens.
#[derive(Clone, Debug)]
pub enum Write {
    Room(RoomRow),
    Member(MemberRow),
    RemoveMember(MemberId),
    Score(ScoreRow),
    Chat(ChatLine),
    GameStarted(LiveGame),
    Entry(EntryRow),
    /// A turn-based game's deadline and the player it waits for.
    Turn(TurnRow),
    GameEnded(FinishedGame),
    /// The room's tournament (`None`: none any more).
    Tournament(Option<Bracket>),
    /// The room's line in the lobby (`None`: not listed any more), at
    /// a time (Unix ms).
    Lobby(Option<LobbyEntry>, u64),
}

/// One step of a batch's transaction (`batch.rs`).
pub(super) enum Step<'a> {
    /// Move entries, of any rooms, stored together.
    Entries(Vec<&'a EntryRow>),
    /// Any other write, of room `.0`.
    Other(&'a str, &'a Write),
}

/// The values of a room's row that change, as `$1` to `$8` of both
/// statements that write them (the insert and the update): game,
/// options, host hash, auto-start, games played, next member, table id,
/// rated.
pub(super) fn room_values(room: &RoomRow) -> [Arg; 10] {
    [
        Arg::from(room.game().name()),
        Arg::from(room.options.to_json().to_string()),
        Arg::from(room.host.as_ref().map(TokenHash::as_str)),
        Arg::from(i64::from(room.autostart)),
        Arg::from(i64::from(room.games_played)),
        Arg::from(i64::from(room.next_member)),
        Arg::from(room.table.to_string()),
        Arg::from(i64::from(room.rated)),
        Arg::from(i64::from(room.start_when_seated)),
        Arg::from(i64::from(room.public)),
    ]
}

/// Applies one of room `code`'s writes inside the batch's transaction.
pub(super) async fn apply(tx: &mut impl Db, code: &str, write: &Write) -> StoreResult<()> {
    match write {
        Write::Room(room) => {
            let mut update = query(
                "UPDATE rooms SET game = $1, options = $2, host_hash = $3, autostart = $4,
                        games_played = $5, next_member = $6, table_id = $7, rated = $8,
                        start_when_seated = $9, public = $10
                 WHERE code = $11",
            );
            update.args = room_values(room).into();
            update.bind(code).execute(tx).await?;
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
            // A member who became an account's (a guest who registered or
            // logged in, then said hello): the turn-based games waiting for
            // its browser wait for the account too, so the account's "your
            // turn" list and mail have them before the next move.
            if let (Some(account), Some(token), false) = (&m.account, &m.token, m.removed) {
                query(
                    "UPDATE live_games SET due_account = $1
                     WHERE room_code = $2 AND due_token = $3 AND deadline IS NOT NULL
                       AND (due_account IS NULL OR due_account <> $1)",
                )
                .bind(account.id)
                .bind(code)
                .bind(token.as_str())
                .execute(tx)
                .await?;
            }
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
            forget_table(tx, code, &g.table.to_string()).await?;
            query(
                "INSERT INTO live_games
                 (id, room_code, table_id, number, game, options, sides, play_order, started_at,
                  deadline)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
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
            .bind(g.deadline.map(|d| d as i64))
            .execute(tx)
            .await?;
        }
        Write::Entry(e) => tx.insert_entries(&[e]).await?,
        Write::Turn(turn) => {
            query(
                "UPDATE live_games SET deadline = $1, due_account = $2, due_token = $3,
                        due_since = $4
                 WHERE id = $5",
            )
            .bind(turn.deadline.map(|d| d as i64))
            .bind(turn.account)
            .bind(turn.token.as_ref().map(TokenHash::as_str))
            .bind(turn.since as i64)
            .bind(turn.game.to_string())
            .execute(tx)
            .await?;
        }
        Write::GameEnded(f) => finish_game(tx, code, f).await?,
        Write::Lobby(entry, at) => super::lobby::write_entry(tx, code, entry.as_ref(), *at).await?,
        Write::Tournament(bracket) => {
            query("UPDATE rooms SET tournament = $1 WHERE code = $2")
                .bind(bracket.as_ref().map(to_json))
                .bind(code)
                .execute(tx)
                .await?;
            // The logs of earlier rounds' tables are history now (their
            // games are in `games`); the room's own table and the current
            // round's stay.
            let keep: Vec<String> = bracket
                .as_ref()
                .and_then(|b| b.current())
                .map(|r| r.pairings.iter().map(|p| p.table.to_string()).collect())
                .unwrap_or_default();
            forget_tables_but(tx, code, &keep).await?;
        }
    }
    Ok(())
}

/// Deletes the live game (and its log) of one of the room's tables, in
/// two statements that read nothing back (on PostgreSQL they go out with
/// the rest of the batch, `pg.rs`).
async fn forget_table(tx: &mut impl Db, code: &str, table: &str) -> StoreResult<()> {
    query(
        "DELETE FROM live_entries WHERE game_key IN
             (SELECT game_key FROM live_games WHERE room_code = $1 AND table_id = $2)",
    )
    .bind(code)
    .bind(table)
    .execute(tx)
    .await?;
    query("DELETE FROM live_games WHERE room_code = $1 AND table_id = $2")
        .bind(code)
        .bind(table)
        .execute(tx)
        .await
}

/// Deletes the live games (and their logs) of the room's tables but its
/// own and those in `keep`, in two statements that read nothing back.
async fn forget_tables_but(tx: &mut impl Db, code: &str, keep: &[String]) -> StoreResult<()> {
    // Only placeholders are spliced in; the tables are bound.
    let kept: String = (0..keep.len())
        .map(|i| format!(" AND table_id <> ${}", i + 2))
        .collect();
    let tables = format!(
        "room_code = $1 AND table_id NOT IN
             (SELECT table_id FROM rooms WHERE code = $1 AND table_id IS NOT NULL){kept}"
    );
    let statements = [
        format!(
            "DELETE FROM live_entries WHERE game_key IN
                 (SELECT game_key FROM live_games WHERE {tables})"
        ),
        format!("DELETE FROM live_games WHERE {tables}"),
    ];
    for sql in statements {
        let mut delete = query_built(sql).bind(code);
        for table in keep {
            delete = delete.bind(table);
        }
        delete.execute(tx).await?;
    }
    Ok(())
}

/// A finished game is recorded in `games`, for history.
async fn finish_game(tx: &mut impl Db, code: &str, f: &FinishedGame) -> StoreResult<()> {
    query(
        "INSERT INTO games (room_code, number, game, options, players, moves, outcome,
                            started_at, ended_at, game_id, sides, leaves, rated, takebacks)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
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
    .bind(to_json(&f.takebacks))
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
