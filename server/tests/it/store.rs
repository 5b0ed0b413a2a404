//! The store's contract, written against the `Store` API only, so the same
//! suite can run against every backend.
//!
//! Each check is an `async fn` taking a `&Store` (or a way to reopen one);
//! the `#[tokio::test]`s at the bottom run them on a SQLite store in a
//! temporary folder. A PostgreSQL backend adds its own `#[tokio::test]`s
//! calling the same functions. Room codes and usernames are random, so the
//! checks can share one database.
//!
//! The last section holds the SQLite-only checks (the file on disk, the
//! migration of plaintext host tokens).

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::postgres;

use rules::{EndReason, Level, Outcome, Side};
use serde_json::json;
use server::games::{GameKind, GameOptions};
use server::protocol::Order;
use server::room::{
    new_token, AccountRef, ChatLine, Entry, GameId, MemberId, Person, Player, ScoreRow, TableId,
    TokenHash, Write, CHAT_HISTORY,
};
use server::store::records::{
    EntryRow, FinishedGame, Leave, LiveGame, MemberRow, RoomRow, SavedRoom, SidePlayer,
};
use server::store::{
    now_millis, HistoryQuery, LinkPurpose, NewLink, NewSession, SignedIn, SpendRefused, Store,
    StoreError, SESSION_IDLE_MS,
};
use sqlx::{ConnectOptions, Connection, Row};
use tokio::task::JoinSet;

// ---------------------------------------------------------------------
// Records to store.

/// A code no other check (or earlier run on a shared database) uses.
fn fresh(prefix: &str) -> String {
    format!("{prefix}{}", &new_token()[..12])
}

fn crossyray_options() -> GameOptions {
    GameOptions::parse(
        GameKind::CrossyRay,
        &json!({"width": 11, "height": 7, "clock": {"minutes": 3, "increment": 2}}),
    )
    .expect("valid options")
}

fn quoridor_teams_options() -> GameOptions {
    GameOptions::parse(
        GameKind::Quoridor,
        &json!({"mode": "teams", "size": 11, "turn_seconds": 45}),
    )
    .expect("valid options")
}

fn room_row(code: &str) -> RoomRow {
    RoomRow {
        code: code.to_string(),
        options: crossyray_options(),
        host: Some(TokenHash::of(&format!("host-of-{code}"))),
        autostart: false,
        solo: false,
        rated: false,
        games_played: 0,
        next_member: 1,
        table: TableId::new(),
    }
}

/// Stores a fresh room and returns its row.
async fn new_room(store: &Store, prefix: &str) -> RoomRow {
    let row = room_row(&fresh(prefix));
    store.insert_room(&row).await.expect("insert_room");
    row
}

fn member(id: u32, name: &str) -> MemberRow {
    MemberRow {
        id: MemberId(id),
        token: Some(TokenHash::of(&format!("member-token-{id}-{name}"))),
        name: Some(name.to_string()),
        seat: None,
        host: false,
        computer: None,
        account: None,
        removed: false,
    }
}

fn score(person: Person, name: &str, points: u32, wins: u32) -> ScoreRow {
    ScoreRow {
        person,
        name: name.to_string(),
        account: None,
        points,
        wins,
        draws: 0,
        losses: 1,
    }
}

fn chat(member: u32, text: &str, at: u64) -> ChatLine {
    ChatLine {
        from: format!("Member {member}"),
        member: MemberId(member),
        text: text.to_string(),
        at,
    }
}

fn live_game(table: TableId, number: u32, options: GameOptions) -> LiveGame {
    LiveGame {
        id: GameId::new(),
        table,
        number,
        options,
        sides: vec![
            vec![Player {
                member: MemberId(1),
                name: "Minh".to_string(),
                computer: None,
            }],
            vec![Player {
                member: MemberId(2),
                name: "Computer".to_string(),
                computer: Some(Level::Amateur),
            }],
        ],
        order: Order::Seats,
        started_at: 1_700_000_000_000 + u64::from(number),
    }
}

fn entry(game: &LiveGame, seq: u32) -> EntryRow {
    let entry = match seq % 4 {
        0 | 1 => Entry::Move {
            side: Side((seq % 2) as u8),
            notation: format!("m{seq}"),
        },
        2 => Entry::Turn,
        _ => Entry::Timeout { side: Side(1) },
    };
    EntryRow {
        game: game.id,
        seq,
        entry,
        clock: vec![180_000 - u64::from(seq) * 1000, 175_000],
        turn: vec![0, seq as usize % 2],
    }
}

fn finished(code: &str, game: &LiveGame, moves: &[&str]) -> FinishedGame {
    FinishedGame {
        id: game.id,
        room: code.to_string(),
        number: game.number,
        game: game.options.kind(),
        options: game.options.clone(),
        players: vec!["Minh".to_string(), "Computer".to_string()],
        sides: game
            .sides
            .iter()
            .map(|team| {
                team.iter()
                    .map(|p| SidePlayer {
                        member: p.member,
                        account: None,
                    })
                    .collect()
            })
            .collect(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        // Side 0 resigned after the last move.
        leaves: vec![Leave {
            ply: moves.len(),
            sides: vec![Side(0)],
            reason: EndReason::Resign,
        }],
        outcome: Outcome::Win {
            winner: Side(1),
            reason: EndReason::Resign,
        },
        started_at: game.started_at,
        ended_at: game.started_at + 60_000,
        rated: false,
    }
}

// ---------------------------------------------------------------------
// Comparing what comes back (the records are not all `PartialEq`).

fn assert_room_eq(got: &RoomRow, want: &RoomRow) {
    assert_eq!(got.code, want.code, "code");
    assert_eq!(got.options, want.options, "options of {}", want.code);
    assert_eq!(got.game(), want.game(), "game of {}", want.code);
    assert_eq!(got.host, want.host, "host hash of {}", want.code);
    assert_eq!(got.autostart, want.autostart, "autostart of {}", want.code);
    assert_eq!(got.solo, want.solo, "solo of {}", want.code);
    assert_eq!(got.games_played, want.games_played, "games_played");
    assert_eq!(got.next_member, want.next_member, "next_member");
    assert_eq!(got.table, want.table, "table id of {}", want.code);
}

fn assert_live_eq(got: &[(LiveGame, Vec<EntryRow>)], want: &[(&LiveGame, Vec<EntryRow>)]) {
    let got_ids: Vec<GameId> = got.iter().map(|(g, _)| g.id).collect();
    let want_ids: Vec<GameId> = want.iter().map(|(g, _)| g.id).collect();
    assert_eq!(got_ids, want_ids, "live games (by number)");
    for ((g, entries), (w, want_entries)) in got.iter().zip(want) {
        assert_eq!(g.table, w.table, "live game's table");
        assert_eq!(g.number, w.number, "live game's number");
        assert_eq!(g.options, w.options, "live game's options");
        assert_eq!(g.sides, w.sides, "live game's sides");
        assert_eq!(g.order, w.order, "live game's order");
        assert_eq!(g.started_at, w.started_at, "live game's start");
        assert_eq!(entries, want_entries, "live game's log, in order");
    }
}

/// Scores come back in no promised order: compare them by person.
fn sorted_scores(scores: &[ScoreRow]) -> Vec<ScoreRow> {
    let mut scores = scores.to_vec();
    scores.sort_by_key(|s| s.person.key());
    scores
}

async fn saved(store: &Store, code: &str) -> SavedRoom {
    store
        .load_room(code)
        .await
        .expect("load_room")
        .unwrap_or_else(|| panic!("room {code} is stored"))
}

fn is_refusal(e: &StoreError) -> bool {
    matches!(e, StoreError::Conflict | StoreError::Database(_))
}

// ---------------------------------------------------------------------
// The suite.

/// insert_room, then room and load_room give the same row back; a code is
/// taken once; an unknown code is None.
async fn rooms_round_trip(store: &Store) {
    let mut row = room_row(&fresh("rt"));
    row.options = quoridor_teams_options();
    row.autostart = true;
    row.solo = true;
    row.games_played = 7;
    row.next_member = 12;
    store.insert_room(&row).await.expect("insert_room");

    let got = store.room(&row.code).await.expect("room").expect("stored");
    assert_room_eq(&got, &row);
    let all = saved(store, &row.code).await;
    assert_room_eq(&all.room, &row);
    assert!(all.members.is_empty(), "{:?}", all.members);
    assert!(all.scores.is_empty(), "{:?}", all.scores);
    assert!(all.chat.is_empty(), "{:?}", all.chat);
    assert!(all.live.is_empty(), "{:?}", all.live);
    assert!(store.games(&row.code).await.expect("games").is_empty());

    // A room without a host (a host hash is optional).
    let mut hostless = room_row(&fresh("rt"));
    hostless.host = None;
    hostless.autostart = true;
    store.insert_room(&hostless).await.expect("insert_room");
    let got = store
        .room(&hostless.code)
        .await
        .expect("room")
        .expect("stored");
    assert_room_eq(&got, &hostless);

    // The same code twice: Conflict, and the first row is untouched.
    let mut again = room_row(&row.code);
    again.autostart = false;
    match store.insert_room(&again).await {
        Err(StoreError::Conflict) => {}
        other => panic!("a taken code must be a Conflict, got {other:?}"),
    }
    let got = store.room(&row.code).await.expect("room").expect("stored");
    assert_room_eq(&got, &row);

    // Unknown codes.
    let unknown = fresh("none");
    assert!(store.room(&unknown).await.expect("room").is_none());
    assert!(store.load_room(&unknown).await.expect("load").is_none());
    assert!(store.games(&unknown).await.expect("games").is_empty());

    // Write::Room updates the row.
    let mut updated = row.clone();
    updated.options = crossyray_options();
    updated.host = Some(TokenHash::of("a new host"));
    updated.autostart = false;
    updated.games_played = 8;
    updated.next_member = 13;
    updated.table = TableId::new();
    store
        .write(&row.code, vec![Write::Room(updated.clone())])
        .await
        .expect("write");
    let got = store.room(&row.code).await.expect("room").expect("stored");
    assert_room_eq(&got, &updated);
    assert_room_eq(&saved(store, &row.code).await.room, &updated);
}

/// Members are upserted by id and removed by RemoveMember.
async fn members_round_trip(store: &Store) {
    let room = new_room(store, "mb").await;
    let code = &room.code;
    let host = MemberRow {
        seat: Some(0),
        host: true,
        account: Some(AccountRef {
            id: 41,
            username: "minh".to_string(),
            display_name: "Minh N.".to_string(),
        }),
        ..member(1, "Minh")
    };
    let guest = member(2, "Lan");
    let computer = MemberRow {
        id: MemberId(3),
        token: None,
        name: None,
        seat: Some(1),
        host: false,
        computer: Some(Level::Master),
        account: None,
        removed: false,
    };
    store
        .write(
            code,
            vec![
                Write::Member(guest.clone()),
                Write::Member(host.clone()),
                Write::Member(computer.clone()),
            ],
        )
        .await
        .expect("write members");
    assert_eq!(
        saved(store, code).await.members,
        vec![host.clone(), guest.clone(), computer.clone()],
        "members come back whole, by id"
    );

    // Upsert: the guest renames and sits; the computer leaves. (A member
    // the host removed keeps the mark: it is what keeps them out.)
    let guest2 = MemberRow {
        name: Some("Lan B.".to_string()),
        seat: Some(1),
        removed: true,
        ..guest.clone()
    };
    store
        .write(
            code,
            vec![
                Write::RemoveMember(computer.id),
                Write::Member(guest2.clone()),
            ],
        )
        .await
        .expect("write");
    assert_eq!(saved(store, code).await.members, vec![host.clone(), guest2]);

    // Removing an unknown member is no error; a removed id may come back.
    store
        .write(
            code,
            vec![
                Write::RemoveMember(MemberId(99)),
                Write::RemoveMember(MemberId(2)),
            ],
        )
        .await
        .expect("write");
    assert_eq!(saved(store, code).await.members, vec![host.clone()]);

    // Another room's members are its own.
    let other = new_room(store, "mb").await;
    store
        .write(&other.code, vec![Write::Member(member(1, "Other"))])
        .await
        .expect("write");
    assert_eq!(saved(store, code).await.members, vec![host]);
    assert_eq!(
        saved(store, &other.code).await.members,
        vec![member(1, "Other")]
    );
}

/// A score row is upserted by person (account or member).
async fn scores_upsert_by_person(store: &Store) {
    let room = new_room(store, "sc").await;
    let code = &room.code;
    let guest = score(Person::Member(MemberId(1)), "Minh", 1, 1);
    let same_name = score(Person::Member(MemberId(2)), "Minh", 0, 0);
    let account = ScoreRow {
        account: Some("lan".to_string()),
        ..score(Person::Account(77), "Lan", 2, 2)
    };
    store
        .write(
            code,
            vec![
                Write::Score(guest.clone()),
                Write::Score(same_name.clone()),
                Write::Score(account.clone()),
            ],
        )
        .await
        .expect("write");
    assert_eq!(
        sorted_scores(&saved(store, code).await.scores),
        sorted_scores(&[guest.clone(), same_name.clone(), account.clone()])
    );

    // The same people again: their rows change, no row is added.
    let guest2 = ScoreRow {
        name: "Minh (renamed)".to_string(),
        points: 3,
        wins: 2,
        draws: 1,
        losses: 4,
        ..guest
    };
    let account2 = ScoreRow {
        points: 5,
        wins: 3,
        ..account
    };
    store
        .write(code, vec![Write::Score(guest2.clone())])
        .await
        .expect("write");
    store
        .write(code, vec![Write::Score(account2.clone())])
        .await
        .expect("write");
    assert_eq!(
        sorted_scores(&saved(store, code).await.scores),
        sorted_scores(&[guest2, same_name, account2])
    );
}

/// Only the last CHAT_HISTORY (50) lines are kept, oldest first.
async fn chat_keeps_the_last_50_lines_in_order(store: &Store) {
    assert_eq!(CHAT_HISTORY, 50);
    let room = new_room(store, "ch").await;
    let code = &room.code;
    let lines: Vec<ChatLine> = (0..60)
        .map(|i| {
            chat(
                i % 3 + 1,
                &format!("line {i}: héllo ✓"),
                1_000 + u64::from(i),
            )
        })
        .collect();
    // 40 lines one request each (as a room writes them), then 20 in one.
    for line in &lines[..40] {
        store
            .write(code, vec![Write::Chat(line.clone())])
            .await
            .expect("write chat");
    }
    let back = saved(store, code).await.chat;
    assert_eq!(back, lines[..40].to_vec(), "under the limit, all lines");
    store
        .write(code, lines[40..].iter().cloned().map(Write::Chat).collect())
        .await
        .expect("write chat");
    let back = saved(store, code).await.chat;
    assert_eq!(back.len(), CHAT_HISTORY);
    assert_eq!(back, lines[10..].to_vec(), "the last 50, oldest first");

    // Another room's chat is untouched by this one's trimming.
    let other = new_room(store, "ch").await;
    store
        .write(&other.code, vec![Write::Chat(chat(1, "hi", 5))])
        .await
        .expect("write");
    store
        .write(code, vec![Write::Chat(chat(1, "one more", 2_000))])
        .await
        .expect("write");
    assert_eq!(saved(store, &other.code).await.chat, vec![chat(1, "hi", 5)]);
    let back = saved(store, code).await.chat;
    assert_eq!(back.len(), CHAT_HISTORY);
    assert_eq!(back[..49], lines[11..]);
    assert_eq!(back[49], chat(1, "one more", 2_000));
}

/// A game in progress is its start and its log, in order; once over it is
/// in `games()`, and its log stays until the table's next game starts.
async fn live_game_lifecycle(store: &Store) {
    let room = new_room(store, "lg").await;
    let code = &room.code;
    let table = room.table;

    let g1 = live_game(table, 1, crossyray_options());
    store
        .write(code, vec![Write::GameStarted(g1.clone())])
        .await
        .expect("start");
    assert_live_eq(&saved(store, code).await.live, &[(&g1, vec![])]);

    // Entries one request at a time, then several in one.
    let log: Vec<EntryRow> = (0..7).map(|seq| entry(&g1, seq)).collect();
    for e in &log[..3] {
        store
            .write(code, vec![Write::Entry(e.clone())])
            .await
            .expect("entry");
    }
    store
        .write(code, log[3..].iter().cloned().map(Write::Entry).collect())
        .await
        .expect("entries");
    assert_live_eq(&saved(store, code).await.live, &[(&g1, log.clone())]);

    // The game ends (with the room's row, as a room writes it).
    let f1 = finished(code, &g1, &["m0", "m1", "m4", "m5"]);
    let mut played = room.clone();
    played.games_played = 1;
    store
        .write(
            code,
            vec![Write::Room(played.clone()), Write::GameEnded(f1.clone())],
        )
        .await
        .expect("end");
    let games = store.games(code).await.expect("games");
    assert_eq!(games.len(), 1, "{games:?}");
    let g = &games[0];
    assert_eq!(g.id.as_deref(), Some(g1.id.to_string().as_str()));
    assert_eq!(g.room_code, *code);
    assert_eq!(g.number, 1);
    assert_eq!(g.game, "crossyray");
    assert_eq!(g.options, g1.options.to_json());
    assert_eq!(g.players, f1.players);
    assert_eq!(g.moves, f1.moves);
    assert_eq!(g.leaves, f1.leaves, "who left, and when");
    assert_eq!(
        g.outcome,
        json!({"kind": "win", "winner": 1, "reason": "resign"})
    );
    assert_eq!(g.started_at, f1.started_at as i64);
    assert_eq!(g.ended_at, f1.ended_at as i64);
    // The finished game still shows, with its whole log.
    let back = saved(store, code).await;
    assert_eq!(back.room.games_played, 1);
    assert_live_eq(&back.live, &[(&g1, log.clone())]);

    // A second table's game does not replace the first table's.
    let table2 = TableId::new();
    let other = live_game(table2, 2, quoridor_teams_options());
    let other_log = vec![entry(&other, 0)];
    store
        .write(
            code,
            vec![
                Write::GameStarted(other.clone()),
                Write::Entry(other_log[0].clone()),
            ],
        )
        .await
        .expect("start at table 2");
    assert_live_eq(
        &saved(store, code).await.live,
        &[(&g1, log.clone()), (&other, other_log.clone())],
    );

    // The table's next game replaces the finished one (and its log).
    let g3 = live_game(table, 3, crossyray_options());
    let log3 = vec![entry(&g3, 0), entry(&g3, 1)];
    store
        .write(
            code,
            vec![
                Write::GameStarted(g3.clone()),
                Write::Entry(log3[0].clone()),
                Write::Entry(log3[1].clone()),
            ],
        )
        .await
        .expect("next game");
    assert_live_eq(
        &saved(store, code).await.live,
        &[(&other, other_log), (&g3, log3)],
    );
    // History keeps game 1.
    let numbers: Vec<u32> = store
        .games(code)
        .await
        .expect("games")
        .iter()
        .map(|g| g.number)
        .collect();
    assert_eq!(numbers, vec![1]);

    // Game 3 ends, then game 4 starts at once in the same request (an
    // auto-start): history 1, 3; live: table 2's game and game 4.
    let f3 = finished(code, &g3, &["m0", "m1"]);
    let g4 = live_game(table, 4, crossyray_options());
    store
        .write(
            code,
            vec![Write::GameEnded(f3), Write::GameStarted(g4.clone())],
        )
        .await
        .expect("end and start");
    let games = store.games(code).await.expect("games");
    let numbers: Vec<u32> = games.iter().map(|g| g.number).collect();
    assert_eq!(numbers, vec![1, 3], "oldest first");
    let live = saved(store, code).await.live;
    let ids: Vec<GameId> = live.iter().map(|(g, _)| g.id).collect();
    assert_eq!(ids, vec![other.id, g4.id]);
    assert!(live[1].1.is_empty());
}

/// A room's game numbers are unique: a second GameEnded with a number the
/// room has already recorded fails, and nothing of its request is stored.
async fn a_repeated_game_number_fails_the_whole_request(store: &Store) {
    let room = new_room(store, "dup").await;
    let code = &room.code;
    let g1 = live_game(room.table, 1, crossyray_options());
    let f1 = finished(code, &g1, &["m0"]);
    store
        .write(
            code,
            vec![Write::GameStarted(g1.clone()), Write::GameEnded(f1.clone())],
        )
        .await
        .expect("game 1");

    // Another room may have its own game 1.
    let other = new_room(store, "dup").await;
    let og = live_game(other.table, 1, crossyray_options());
    store
        .write(
            &other.code,
            vec![Write::GameEnded(finished(&other.code, &og, &[]))],
        )
        .await
        .expect("another room's game 1");

    // A request that changes everything, then repeats game 1.
    let mut changed = room.clone();
    changed.games_played = 9;
    changed.autostart = true;
    let again = live_game(room.table, 1, crossyray_options());
    let g2 = live_game(room.table, 2, crossyray_options());
    let bad = vec![
        Write::Room(changed),
        Write::Member(member(1, "Minh")),
        Write::Score(score(Person::Member(MemberId(1)), "Minh", 1, 1)),
        Write::Chat(chat(1, "gg", 10)),
        Write::GameStarted(g2.clone()),
        Write::Entry(entry(&g2, 0)),
        Write::GameEnded(finished(code, &again, &["x"])),
    ];
    let err = store
        .write(code, bad)
        .await
        .expect_err("a repeated game number must fail");
    assert!(is_refusal(&err), "Conflict or Database, got {err:?}");

    let back = saved(store, code).await;
    assert_room_eq(&back.room, &room);
    assert!(back.members.is_empty(), "rolled back: {:?}", back.members);
    assert!(back.scores.is_empty(), "rolled back: {:?}", back.scores);
    assert!(back.chat.is_empty(), "rolled back: {:?}", back.chat);
    assert_live_eq(&back.live, &[(&g1, vec![])]);
    let games = store.games(code).await.expect("games");
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(
        games[0].id,
        Some(g1.id.to_string()),
        "game 1 is the first one"
    );
    assert_eq!(games[0].moves, vec!["m0".to_string()]);

    // The room still writes afterwards.
    store
        .write(code, vec![Write::Chat(chat(1, "still here", 11))])
        .await
        .expect("write after a failed one");
    assert_eq!(
        saved(store, code).await.chat,
        vec![chat(1, "still here", 11)]
    );
}

/// What a good request of the group-commit check writes for its room.
fn good_request(code: &str, room: &RoomRow, i: u32) -> Vec<Write> {
    let g = live_game(room.table, 1, crossyray_options());
    let mut row = room.clone();
    row.games_played = 1;
    row.next_member = 2;
    vec![
        Write::Room(row),
        Write::Member(member(1, &format!("Player {i}"))),
        Write::Chat(chat(1, &format!("hello from {i}"), u64::from(i))),
        Write::Score(score(Person::Member(MemberId(1)), "P", i, 1)),
        Write::GameStarted(g.clone()),
        Write::Entry(entry(&g, 0)),
        Write::GameEnded(finished(code, &g, &["m0"])),
    ]
}

async fn assert_good_request_stored(store: &Store, room: &RoomRow, i: u32) {
    let code = &room.code;
    let back = saved(store, code).await;
    assert_eq!(back.room.games_played, 1, "room {i}");
    assert_eq!(back.room.next_member, 2, "room {i}");
    assert_eq!(back.members, vec![member(1, &format!("Player {i}"))]);
    assert_eq!(
        back.chat,
        vec![chat(1, &format!("hello from {i}"), u64::from(i))],
        "room {i}: stored exactly once"
    );
    assert_eq!(
        back.scores,
        vec![score(Person::Member(MemberId(1)), "P", i, 1)]
    );
    assert_eq!(back.live.len(), 1, "room {i}");
    assert_eq!(back.live[0].1.len(), 1, "room {i}");
    let games = store.games(code).await.expect("games");
    assert_eq!(games.len(), 1, "room {i}: {games:?}");
    assert_eq!(games[0].number, 1);
}

/// 300 rooms play at once: each stores its game, then three requests of
/// moves (two entries, then one, then two). Batches carry many rooms'
/// entries in one statement; every room gets its own five, in order.
async fn many_rooms_moves_in_batches(store: &Store) {
    let mut rooms = Vec::new();
    for _ in 0..300 {
        let room = new_room(store, "mv").await;
        let game = live_game(room.table, 1, crossyray_options());
        store
            .write(&room.code, vec![Write::GameStarted(game.clone())])
            .await
            .expect("game stored");
        rooms.push((room, game));
    }
    let mut set = JoinSet::new();
    for (room, game) in &rooms {
        let (store, code, game) = (store.clone(), room.code.clone(), game.clone());
        set.spawn(async move {
            for seqs in [&[0, 1][..], &[2], &[3, 4]] {
                let writes = seqs
                    .iter()
                    .map(|&s| Write::Entry(entry(&game, s)))
                    .collect();
                store.write(&code, writes).await.expect("moves stored");
            }
        });
    }
    while let Some(done) = set.join_next().await {
        done.expect("task");
    }
    for (room, game) in &rooms {
        let back = saved(store, &room.code).await;
        let want: Vec<EntryRow> = (0..5).map(|s| entry(game, s)).collect();
        assert_live_eq(&back.live, &[(game, want)]);
    }
}

/// 50 rooms store a move each at once, one of them a move already
/// stored (a repeated entry number). On SQLite the batch runs on the
/// writer's own connection (`store/lite.rs`); the bad one still fails
/// alone and the others are stored, each exactly once.
async fn a_bad_move_among_moves_fails_alone(store: &Store) {
    const ROOMS: usize = 50;
    let mut rooms = Vec::new();
    for _ in 0..ROOMS {
        let room = new_room(store, "bm").await;
        let game = live_game(room.table, 1, crossyray_options());
        let writes = vec![
            Write::GameStarted(game.clone()),
            Write::Entry(entry(&game, 0)),
        ];
        store.write(&room.code, writes).await.expect("game stored");
        rooms.push((room, game));
    }
    let bad_at = ROOMS / 2;
    let mut set = JoinSet::new();
    for (i, (room, game)) in rooms.iter().enumerate() {
        let (store, code, game) = (store.clone(), room.code.clone(), game.clone());
        set.spawn(async move {
            let seq = if i == bad_at { 0 } else { 1 };
            (
                i,
                store
                    .write(&code, vec![Write::Entry(entry(&game, seq))])
                    .await,
            )
        });
    }
    while let Some(joined) = set.join_next().await {
        let (i, result) = joined.expect("task");
        if i == bad_at {
            let err = result.expect_err("the repeated move fails");
            assert!(is_refusal(&err), "Conflict or Database, got {err:?}");
        } else {
            result.unwrap_or_else(|e| panic!("room {i}: {e:?}"));
        }
    }
    for (i, (room, game)) in rooms.iter().enumerate() {
        let back = saved(store, &room.code).await;
        let want: Vec<EntryRow> = if i == bad_at {
            vec![entry(game, 0)]
        } else {
            vec![entry(game, 0), entry(game, 1)]
        };
        assert_live_eq(&back.live, &[(game, want)]);
    }
}

/// The schema's references hold on every path: a move of a game that
/// was never started (no `live_games` row) is refused and stores
/// nothing, on SQLite's write connection as on PostgreSQL.
async fn a_move_of_no_live_game_is_refused(store: &Store) {
    let room = new_room(store, "nl").await;
    let never_started = live_game(room.table, 1, crossyray_options());
    let err = store
        .write(&room.code, vec![Write::Entry(entry(&never_started, 0))])
        .await
        .expect_err("a move of no live game fails");
    assert!(is_refusal(&err), "Conflict or Database, got {err:?}");
    assert!(saved(store, &room.code).await.live.is_empty());
    // The room still takes good writes after it.
    let game = live_game(room.table, 1, crossyray_options());
    store
        .write(
            &room.code,
            vec![
                Write::GameStarted(game.clone()),
                Write::Entry(entry(&game, 0)),
            ],
        )
        .await
        .expect("a started game's move is stored");
    assert_live_eq(
        &saved(store, &room.code).await.live,
        &[(&game, vec![entry(&game, 0)])],
    );
}

/// ~50 rooms write at once (one batch, if the backend groups them); one
/// request is bad. The good ones are all stored, the bad one errs and
/// leaves nothing.
async fn group_commit_isolates_a_bad_request(store: &Store) {
    const ROOMS: u32 = 50;
    for bad_at in [0, ROOMS / 2, ROOMS - 1] {
        let mut rooms = Vec::new();
        for _ in 0..ROOMS {
            rooms.push(new_room(store, "gc").await);
        }
        // The bad room has its game 1 already.
        let bad_room = rooms[bad_at as usize].clone();
        let done = live_game(bad_room.table, 1, crossyray_options());
        store
            .write(
                &bad_room.code,
                vec![Write::GameEnded(finished(&bad_room.code, &done, &[]))],
            )
            .await
            .expect("bad room's game 1");

        let mut set = JoinSet::new();
        for (i, room) in rooms.iter().enumerate() {
            let store = store.clone();
            let room = room.clone();
            let i = i as u32;
            set.spawn(async move {
                let writes = good_request(&room.code, &room, i);
                let result = store.write(&room.code, writes).await;
                (i, result)
            });
        }
        let mut results = Vec::new();
        while let Some(joined) = set.join_next().await {
            results.push(joined.expect("task"));
        }
        results.sort_by_key(|(i, _)| *i);
        assert_eq!(results.len(), ROOMS as usize);
        for (i, result) in &results {
            if *i == bad_at {
                let err = result.as_ref().expect_err("the bad request fails");
                assert!(is_refusal(err), "Conflict or Database, got {err:?}");
            } else {
                assert!(result.is_ok(), "room {i}: {result:?}");
            }
        }
        for (i, room) in rooms.iter().enumerate() {
            let i = i as u32;
            if i == bad_at {
                let back = saved(store, &room.code).await;
                assert_room_eq(&back.room, room);
                assert!(back.members.is_empty(), "{:?}", back.members);
                assert!(back.chat.is_empty(), "{:?}", back.chat);
                assert!(back.scores.is_empty(), "{:?}", back.scores);
                assert!(back.live.is_empty(), "{:?}", back.live);
                let games = store.games(&room.code).await.expect("games");
                assert_eq!(games.len(), 1);
                assert_eq!(games[0].id, Some(done.id.to_string()));
            } else {
                assert_good_request_stored(store, room, i).await;
            }
        }
    }
}

/// Two requests of one room end game 1 at the same moment (the same
/// batch, if the backend groups them): exactly one is stored, whole.
async fn two_requests_racing_for_one_game_number(store: &Store) {
    for _ in 0..3 {
        let room = new_room(store, "two").await;
        let a = live_game(room.table, 1, crossyray_options());
        let b = live_game(room.table, 1, crossyray_options());
        let request = |g: &LiveGame, who: u32| {
            vec![
                Write::Chat(chat(who, &format!("request {who}"), u64::from(who))),
                Write::GameEnded(finished(&room.code, g, &[])),
            ]
        };
        let (ra, rb) = tokio::join!(
            store.write(&room.code, request(&a, 1)),
            store.write(&room.code, request(&b, 2)),
        );
        let (winner, who) = match (&ra, &rb) {
            (Ok(()), Err(e)) => {
                assert!(is_refusal(e), "{e:?}");
                (&a, 1)
            }
            (Err(e), Ok(())) => {
                assert!(is_refusal(e), "{e:?}");
                (&b, 2)
            }
            other => panic!("exactly one request may end game 1: {other:?}"),
        };
        let games = store.games(&room.code).await.expect("games");
        assert_eq!(games.len(), 1, "{games:?}");
        assert_eq!(games[0].id, Some(winner.id.to_string()));
        assert_eq!(
            saved(store, &room.code).await.chat,
            vec![chat(who, &format!("request {who}"), u64::from(who))],
            "only the stored request's chat line"
        );
    }
}

/// Rooms write while other calls (new rooms, logins, session checks)
/// commit at the same moment: no call fails because of another.
async fn concurrent_calls_do_not_fail_each_other(store: &Store) {
    const ROUNDS: u32 = 40;
    let mut rooms = Vec::new();
    for _ in 0..20 {
        rooms.push(new_room(store, "cc").await);
    }
    let (account, _) = store
        .create_account(
            &format!("cc_{}", &new_token()[..8]),
            "h",
            None,
            None,
            now_millis(),
        )
        .await
        .expect("create_account")
        .expect("free");
    let mut set: JoinSet<Result<(), String>> = JoinSet::new();
    for round in 0..ROUNDS {
        for room in &rooms {
            let store = store.clone();
            let code = room.code.clone();
            set.spawn(async move {
                let line = chat(1, &format!("round {round}"), u64::from(round));
                store
                    .write(&code, vec![Write::Chat(line)])
                    .await
                    .map_err(|e| format!("write (chat) to {code}: {e:?}"))
            });
        }
        let store2 = store.clone();
        set.spawn(async move {
            store2
                .insert_room(&room_row(&fresh("cc")))
                .await
                .map_err(|e| format!("insert_room: {e:?}"))
        });
        let store3 = store.clone();
        let id = account.id;
        set.spawn(async move {
            let token = new_token();
            store3
                .start_session(open(&token, now_millis()), id)
                .await
                .map_err(|e| format!("start_session: {e:?}"))?;
            match store3.session_account(&token, now_millis()).await {
                Ok(Some(_)) => Ok(()),
                other => Err(format!("session_account: {other:?}")),
            }
        });
        tokio::task::yield_now().await;
    }
    let mut errors = Vec::new();
    while let Some(done) = set.join_next().await {
        if let Err(e) = done.expect("task") {
            errors.push(e);
        }
    }
    assert!(
        errors.is_empty(),
        "{} calls failed, first: {}",
        errors.len(),
        errors[0]
    );
    for room in &rooms {
        let mut texts: Vec<String> = saved(store, &room.code)
            .await
            .chat
            .into_iter()
            .map(|l| l.text)
            .collect();
        texts.sort();
        let mut want: Vec<String> = (0..ROUNDS).map(|r| format!("round {r}")).collect();
        want.sort();
        assert_eq!(texts, want, "room {}", room.code);
    }
}

/// A session opened at `now` with a fresh secret; returns the secret.
fn session_at(now: u64) -> (String, u64) {
    (new_token(), now)
}

fn open(secret: &str, now: u64) -> NewSession<'_> {
    NewSession {
        secret,
        agent: "Test browser",
        now,
    }
}

/// Accounts: usernames are unique in any case; credentials; sessions by
/// their cookie secret, which expire after 30 days unused, end one by one
/// or all but one, and end on a password change. Returns the plain
/// secrets it used, which a backend check can look for in the database
/// (they must not be there), the kept one last.
async fn accounts_and_sessions(store: &Store) -> Vec<String> {
    const DAY: u64 = 24 * 60 * 60 * 1000;
    let t0 = now_millis();
    let name = format!("Minh_{}", &new_token()[..8]);
    let (first, _) = session_at(t0);
    let (account, first_id) = store
        .create_account(
            &name,
            "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
            Some("minh@example.com"),
            Some(open(&first, t0)),
            t0,
        )
        .await
        .expect("create_account")
        .expect("a free name");
    let first_id = first_id.expect("a first session");
    assert_eq!(account.username, name);
    assert_eq!(account.display_name, name);
    assert_eq!(account.email.as_deref(), Some("minh@example.com"));
    assert_eq!(
        store.account(account.id).await.expect("account"),
        Some(account.clone())
    );

    // The name is taken in any case.
    for taken in [name.clone(), name.to_lowercase(), name.to_uppercase()] {
        let again = store
            .create_account(&taken, "other-hash", None, Some(open(&new_token(), t0)), t0)
            .await
            .expect("create_account");
        assert!(again.is_none(), "{taken} is taken");
    }

    // Credentials by name, in any case, and by id.
    for asked in [name.clone(), name.to_uppercase()] {
        let c = store
            .credentials(&asked)
            .await
            .expect("credentials")
            .expect("found in any case");
        assert_eq!(c.account, account);
        assert_eq!(
            c.password_hash,
            "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA"
        );
    }
    let by_id = store
        .credentials_by_id(account.id)
        .await
        .expect("credentials")
        .expect("by id");
    assert_eq!(by_id.account, account);
    assert!(store
        .credentials(&format!("nobody_{}", &new_token()[..8]))
        .await
        .expect("credentials")
        .is_none());

    // The session given at creation works by its plain secret, not by its
    // hash.
    let me = |session| {
        Some(SignedIn {
            account: account.clone(),
            session,
        })
    };
    assert_eq!(
        store
            .session_account(&first, t0 + 1)
            .await
            .expect("session"),
        me(first_id)
    );
    assert!(store
        .session_account(TokenHash::of(&first).as_str(), t0 + 1)
        .await
        .expect("session")
        .is_none());

    // A login starts another session; both are listed, most recent first.
    let second = new_token();
    assert!(store
        .session_account(&second, t0)
        .await
        .expect("session")
        .is_none());
    let second_id = store
        .start_session(open(&second, t0 + 10), account.id)
        .await
        .expect("start_session");
    assert_ne!(second_id, first_id);
    assert_eq!(
        store
            .session_account(&second, t0 + 20)
            .await
            .expect("session"),
        me(second_id)
    );
    let listed = store.sessions(account.id, t0 + 30).await.expect("sessions");
    assert_eq!(
        listed.iter().map(|s| s.id).collect::<Vec<_>>(),
        vec![second_id, first_id]
    );
    assert_eq!(listed[0].agent, "Test browser");
    assert_eq!(listed[0].last_seen, t0 + 20);
    assert_eq!(listed[0].created_at, t0 + 10);

    // Another account cannot end them; the owner ends one by id.
    let (other, _) = store
        .create_account(&format!("Lan_{}", &new_token()[..8]), "h", None, None, t0)
        .await
        .expect("create_account")
        .expect("free");
    assert_ne!(other.id, account.id);
    assert!(other.email.is_none());
    assert!(!store.end_session(other.id, second_id).await.expect("end"));
    assert!(store.end_session(account.id, second_id).await.expect("end"));
    assert!(!store
        .end_session(account.id, second_id)
        .await
        .expect("end again"));
    assert!(store
        .session_account(&second, t0 + 40)
        .await
        .expect("session")
        .is_none());
    assert_eq!(
        store
            .session_account(&first, t0 + 40)
            .await
            .expect("session"),
        me(first_id)
    );

    // A session unused for 30 days is over; one used within them lives on.
    let idle = SESSION_IDLE_MS;
    assert_eq!(idle, 30 * DAY);
    let (fading, _) = session_at(t0);
    let fading_id = store
        .start_session(open(&fading, t0 + 40), account.id)
        .await
        .expect("start_session");
    assert_eq!(
        store
            .session_account(&first, t0 + 40 + idle - 1)
            .await
            .expect("used"),
        me(first_id),
        "used just within 30 days"
    );
    assert!(
        store
            .session_account(&fading, t0 + 40 + idle)
            .await
            .expect("expired")
            .is_none(),
        "30 days unused: over"
    );
    assert!(
        !store
            .sessions(account.id, t0 + 40 + idle)
            .await
            .expect("sessions")
            .iter()
            .any(|s| s.id == fading_id),
        "an expired session is not listed"
    );

    // Logging out everywhere else keeps only this session.
    let later = t0 + 40 + idle;
    let (third, _) = session_at(later);
    store
        .start_session(open(&third, later), account.id)
        .await
        .expect("start_session");
    let (fourth, _) = session_at(later);
    let fourth_id = store
        .start_session(open(&fourth, later), account.id)
        .await
        .expect("start_session");
    let ended = store
        .end_other_sessions(account.id, fourth_id)
        .await
        .expect("end others");
    assert!(ended >= 2, "ended {ended}");
    assert!(store
        .session_account(&first, later)
        .await
        .expect("s")
        .is_none());
    assert!(store
        .session_account(&third, later)
        .await
        .expect("s")
        .is_none());
    assert_eq!(
        store.session_account(&fourth, later).await.expect("s"),
        me(fourth_id)
    );

    // A password change ends every other session, in one go.
    let (fifth, _) = session_at(later);
    store
        .start_session(open(&fifth, later), account.id)
        .await
        .expect("start_session");
    store
        .change_password(account.id, "new-hash", fourth_id)
        .await
        .expect("change_password");
    assert_eq!(
        store
            .credentials(&name)
            .await
            .expect("c")
            .expect("c")
            .password_hash,
        "new-hash"
    );
    assert!(store
        .session_account(&fifth, later)
        .await
        .expect("s")
        .is_none());

    // A logout by secret ends that session.
    assert!(!store.end_session_by_secret(&fifth).await.expect("end"));
    assert!(store.end_session_by_secret(&fourth).await.expect("end"));
    assert!(store
        .session_account(&fourth, later)
        .await
        .expect("s")
        .is_none());

    // A session to keep (the backend check looks for it).
    let kept = new_token();
    store
        .start_session(open(&kept, now_millis()), account.id)
        .await
        .expect("start_session");
    vec![first, second, fading, third, fourth, fifth, kept]
}

/// A link for `account` valid for an hour from `now`.
fn email_link<'a>(
    account_id: i64,
    email: &'a str,
    purpose: LinkPurpose,
    secret: &'a str,
    now: u64,
    per_hour: i64,
) -> NewLink<'a> {
    NewLink {
        purpose,
        account_id,
        email,
        secret,
        now,
        expires_at: now + 60 * 60 * 1000,
        per_hour,
    }
}

/// Email links: a confirmation link makes its address the account's,
/// once; a recovery link resets the password, ends every session and
/// opens a new one, once, and not after it expires; an account gets at
/// most `per_hour` links of a kind an hour; accounts are found by their
/// confirmed address only.
async fn email_links(store: &Store) {
    let now = now_millis();
    let name = format!("Mai_{}", &new_token()[..8]);
    let email = format!("{}@example.org", name.to_lowercase());
    let (account, _) = store
        .create_account(&name, "old-hash", Some(&email), None, now)
        .await
        .expect("create_account")
        .expect("free");
    assert!(!account.email_confirmed);
    assert!(store
        .accounts_by_email(&email)
        .await
        .expect("by email")
        .is_empty());
    let id = account.id;

    // Confirm, once; a recovery link is not a confirmation link.
    let confirm = new_token();
    assert!(store
        .add_link(email_link(
            id,
            &email,
            LinkPurpose::Confirm,
            &confirm,
            now,
            3
        ))
        .await
        .expect("add_link"));
    let recover_too_early = new_token();
    assert!(store
        .add_link(email_link(
            id,
            &email,
            LinkPurpose::Recover,
            &recover_too_early,
            now,
            3
        ))
        .await
        .expect("add_link"));
    assert!(store
        .confirm_email(&recover_too_early, now)
        .await
        .expect("confirm")
        .is_none());
    let confirmed = store
        .confirm_email(&confirm, now + 1)
        .await
        .expect("confirm")
        .expect("a good link");
    assert!(confirmed.email_confirmed);
    assert_eq!(confirmed.email.as_deref(), Some(email.as_str()));
    assert!(store
        .confirm_email(&confirm, now + 2)
        .await
        .expect("again")
        .is_none());
    let found = store
        .accounts_by_email(&email.to_uppercase())
        .await
        .expect("by email");
    assert_eq!(
        found.iter().map(|a| a.id).collect::<Vec<_>>(),
        vec![account.id]
    );

    // Three links an hour; the fourth is not stored.
    for _ in 0..2 {
        let secret = new_token();
        assert!(store
            .add_link(email_link(
                id,
                &email,
                LinkPurpose::Recover,
                &secret,
                now + 3,
                3
            ))
            .await
            .expect("add_link"));
    }
    let fourth = new_token();
    assert!(!store
        .add_link(email_link(
            id,
            &email,
            LinkPurpose::Recover,
            &fourth,
            now + 4,
            3
        ))
        .await
        .expect("add_link"));

    // An hour later: a new link; used after it expired, it changes nothing.
    let hour = 60 * 60 * 1000;
    let late = new_token();
    assert!(store
        .add_link(email_link(
            id,
            &email,
            LinkPurpose::Recover,
            &late,
            now + hour + 10,
            3
        ))
        .await
        .expect("add_link"));
    let session = new_token();
    let open_at = |t| NewSession {
        secret: &session,
        agent: "x",
        now: t,
    };
    assert!(store
        .reset_password(&late, "new-hash", open_at(now + 2 * hour + 10))
        .await
        .expect("reset")
        .is_none());
    assert_eq!(
        store
            .credentials(&name)
            .await
            .expect("c")
            .expect("c")
            .password_hash,
        "old-hash"
    );

    // A fresh one resets the password, ends the sessions, opens one; once.
    let other_session = new_token();
    store
        .start_session(
            NewSession {
                secret: &other_session,
                agent: "x",
                now: now + hour + 20,
            },
            account.id,
        )
        .await
        .expect("start_session");
    let fresh = new_token();
    assert!(store
        .add_link(email_link(
            id,
            &email,
            LinkPurpose::Recover,
            &fresh,
            now + hour + 30,
            3
        ))
        .await
        .expect("add_link"));
    let (who, session_id) = store
        .reset_password(&fresh, "new-hash", open_at(now + hour + 40))
        .await
        .expect("reset")
        .expect("a good link");
    assert_eq!(who.id, account.id);
    assert_eq!(
        store
            .credentials(&name)
            .await
            .expect("c")
            .expect("c")
            .password_hash,
        "new-hash"
    );
    assert!(store
        .session_account(&other_session, now + hour + 50)
        .await
        .expect("s")
        .is_none());
    assert_eq!(
        store
            .session_account(&session, now + hour + 50)
            .await
            .expect("s")
            .map(|s| s.session),
        Some(session_id)
    );
    assert!(store
        .reset_password(&fresh, "third-hash", open_at(now + hour + 60))
        .await
        .expect("reset")
        .is_none());

    // Removing the email: not found by it any more.
    store.set_email(account.id, None).await.expect("set_email");
    assert!(store
        .accounts_by_email(&email)
        .await
        .expect("by email")
        .is_empty());
}

/// Coins: a check-in counts once a day and grows with the streak up to
/// the cap; 50 concurrent purchases with coins for one: exactly one goes
/// through, the item is bought once, and the ledger sums to the balance.
async fn coins_are_never_lost_or_spent_twice(store: &Store) {
    use server::store::coins::{checkin_coins, CHECKIN_MAX};
    let now = now_millis();
    let (account, _) = store
        .create_account(&format!("Coin_{}", &new_token()[..8]), "h", None, None, now)
        .await
        .expect("create_account")
        .expect("free");
    let id = account.id;
    let day = 20_000;
    let first = store.check_in(id, day, now).await.expect("check in");
    assert_eq!((first.added, first.streak, first.balance), (10, 1, 10));
    let again = store.check_in(id, day, now).await.expect("check in");
    assert_eq!((again.added, again.balance), (0, 10), "once a day");
    let next = store.check_in(id, day + 1, now).await.expect("check in");
    assert_eq!((next.added, next.streak, next.balance), (12, 2, 22));
    let gap = store.check_in(id, day + 3, now).await.expect("check in");
    assert_eq!((gap.added, gap.streak), (10, 1), "a missed day starts over");
    assert_eq!(checkin_coins(100), CHECKIN_MAX, "capped");

    // 50 purchases at once of items costing the whole balance.
    let price = gap.balance;
    let mut set = JoinSet::new();
    for i in 0..50 {
        let store = store.clone();
        set.spawn(async move { store.spend(id, price, &format!("buy item-{i}"), now).await });
    }
    let mut bought = 0;
    while let Some(done) = set.join_next().await {
        match done.expect("task").expect("no store error") {
            Ok(balance) => {
                assert_eq!(balance, 0);
                bought += 1;
            }
            Err(why) => assert_eq!(why, SpendRefused::TooFew),
        }
    }
    assert_eq!(bought, 1, "exactly one purchase with coins for one");
    // An item is bought once.
    let more = store.check_in(id, day + 4, now).await.expect("check in");
    let bought_item = store
        .ledger(id)
        .await
        .expect("ledger")
        .into_iter()
        .find(|(d, _, _)| *d < 0)
        .expect("the purchase")
        .1;
    assert_eq!(
        store.spend(id, 1, &bought_item, now).await.expect("spend"),
        Err(SpendRefused::AlreadyDone)
    );
    let (balance, _, _) = store.coins(id).await.expect("coins");
    assert_eq!(balance, more.balance, "a refused spend changes nothing");
    let ledger = store.ledger(id).await.expect("ledger");
    assert_eq!(ledger.iter().map(|(d, _, _)| d).sum::<i64>(), balance);
    assert_eq!(ledger.last().expect("rows").2, balance);
}

/// A purchase: 20 concurrent buys of one item with coins for several:
/// one pays and the item is owned once; without the coins nothing is
/// owned; a choice is one row per slot, the latest wins.
async fn an_item_is_bought_once_with_its_coins(store: &Store) {
    let now = now_millis();
    let (account, _) = store
        .create_account(&format!("Shop_{}", &new_token()[..8]), "h", None, None, now)
        .await
        .expect("create_account")
        .expect("free");
    let id = account.id;
    assert_eq!(
        store.buy(id, "jungle-drawn", 10, now).await.expect("buy"),
        Err(SpendRefused::TooFew)
    );
    assert!(store.owned(id).await.expect("owned").is_empty());
    for day in [30_000, 30_001, 30_002] {
        store.check_in(id, day, now).await.expect("check in");
    }
    let (before, _, _) = store.coins(id).await.expect("coins");
    assert!(before >= 30, "{before}");
    let mut set = JoinSet::new();
    for _ in 0..20 {
        let store = store.clone();
        set.spawn(async move { store.buy(id, "quoridor-sea", 10, now).await });
    }
    let mut paid = 0;
    while let Some(done) = set.join_next().await {
        match done.expect("task").expect("no store error") {
            Ok(balance) => {
                assert_eq!(balance, before - 10);
                paid += 1;
            }
            Err(why) => assert_eq!(why, SpendRefused::AlreadyDone),
        }
    }
    assert_eq!(paid, 1, "one purchase of one item");
    assert_eq!(store.owned(id).await.expect("owned"), vec!["quoridor-sea"]);
    let (balance, _, _) = store.coins(id).await.expect("coins");
    assert_eq!(balance, before - 10);
    let ledger = store.ledger(id).await.expect("ledger");
    assert_eq!(ledger.iter().map(|(d, _, _)| d).sum::<i64>(), balance);
    assert_eq!(
        ledger
            .iter()
            .filter(|(_, r, _)| r == "buy quoridor-sea")
            .count(),
        1
    );

    store
        .choose(id, "quoridor_board", "quoridor-sea")
        .await
        .expect("choose");
    store
        .choose(id, "jungle_pieces", "jungle-emoji")
        .await
        .expect("choose");
    store
        .choose(id, "quoridor_board", "quoridor-classic")
        .await
        .expect("choose again");
    assert_eq!(
        store.chosen(id).await.expect("chosen"),
        vec![
            ("jungle_pieces".to_string(), "jungle-emoji".to_string()),
            ("quoridor_board".to_string(), "quoridor-classic".to_string()),
        ]
    );
}

/// Everything written before `close()` is there in a store reopened on the
/// same database; a write after `close()` errs (it does not hang).
async fn a_reopened_store_has_everything(store: Store, reopen: impl AsyncFnOnce() -> Store) {
    let room = new_room(&store, "ro").await;
    let code = room.code.clone();
    let host = MemberRow {
        host: true,
        seat: Some(0),
        ..member(1, "Minh")
    };
    let g1 = live_game(room.table, 1, crossyray_options());
    let g2 = live_game(room.table, 2, crossyray_options());
    let log2: Vec<EntryRow> = (0..5).map(|seq| entry(&g2, seq)).collect();
    let mut row = room.clone();
    row.games_played = 2;
    row.next_member = 3;
    row.autostart = true;
    let scores = vec![
        score(Person::Member(MemberId(1)), "Minh", 1, 1),
        score(Person::Account(5), "Lan", 0, 0),
    ];
    let lines: Vec<ChatLine> = (0..3).map(|i| chat(1, &format!("c{i}"), i)).collect();
    let mut writes = vec![
        Write::Member(host.clone()),
        Write::Member(member(2, "Lan")),
        Write::GameStarted(g1.clone()),
        Write::GameEnded(finished(&code, &g1, &["m0"])),
        Write::Room(row.clone()),
        Write::GameStarted(g2.clone()),
        Write::RemoveMember(MemberId(2)),
    ];
    writes.extend(scores.iter().cloned().map(Write::Score));
    writes.extend(lines.iter().cloned().map(Write::Chat));
    store.write(&code, writes).await.expect("write");
    // The log as separate requests, and other rooms writing at once.
    for e in log2.iter().cloned() {
        store
            .write(&code, vec![Write::Entry(e)])
            .await
            .expect("entry");
    }
    let mut late = Vec::new();
    for _ in 0..5 {
        late.push(new_room(&store, "ro").await);
    }
    let mut pending = JoinSet::new();
    for other in late.iter().cloned() {
        let store = store.clone();
        pending.spawn(async move {
            store
                .write(&other.code, vec![Write::Chat(chat(1, "late", 1))])
                .await
        });
    }
    while let Some(done) = pending.join_next().await {
        done.expect("task").expect("concurrent write");
    }
    let tokens = accounts_and_sessions_for_reopen(&store).await;

    store.close().await;
    let after = tokio::time::timeout(
        Duration::from_secs(10),
        store.write(&code, vec![Write::Chat(chat(1, "after close", 9))]),
    )
    .await
    .expect("a write after close() returns");
    assert!(after.is_err(), "a write after close() must fail");

    let store = reopen().await;
    let back = saved(&store, &code).await;
    assert_room_eq(&back.room, &row);
    assert_eq!(back.members, vec![host]);
    assert_eq!(sorted_scores(&back.scores), sorted_scores(&scores));
    assert_eq!(back.chat, lines);
    assert_live_eq(&back.live, &[(&g2, log2)]);
    let games = store.games(&code).await.expect("games");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].id, Some(g1.id.to_string()));
    for other in &late {
        assert_eq!(
            saved(&store, &other.code).await.chat,
            vec![chat(1, "late", 1)]
        );
    }
    let (name, token, id) = tokens;
    let c = store
        .credentials(&name)
        .await
        .expect("credentials")
        .expect("the account survives");
    assert_eq!(c.account.id, id);
    assert_eq!(
        store
            .session_account(&token, now_millis())
            .await
            .expect("session")
            .map(|s| s.account.id),
        Some(id),
        "the session survives"
    );
    store.close().await;
}

/// A rated game changes both players' ratings in the transaction that
/// stores it: a request that fails stores neither the game nor the
/// change; an unrated game changes nothing; the profile counts both.
async fn ratings_change_with_the_stored_game(store: &Store) {
    let now = now_millis();
    let mut ids = Vec::new();
    for name in ["Rate_a", "Rate_b"] {
        let (account, _) = store
            .create_account(
                &format!("{name}{}", &new_token()[..6]),
                "h",
                None,
                None,
                now,
            )
            .await
            .expect("create_account")
            .expect("free");
        ids.push(account.id);
    }
    let room = new_room(store, "ra").await;
    let code = &room.code;
    let rated = |number: u32, rated: bool| {
        let g = live_game(room.table, number, crossyray_options());
        let mut f = finished(code, &g, &["m0"]);
        for (side, id) in f.sides.iter_mut().zip(&ids) {
            side[0].account = Some(*id);
        }
        f.rated = rated;
        f
    };
    // Side 0 resigned: the second account won.
    store
        .write(code, vec![Write::GameEnded(rated(1, true))])
        .await
        .expect("game 1");
    let a = store.ratings(ids[0]).await.expect("ratings");
    let b = store.ratings(ids[1]).await.expect("ratings");
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].0, "crossyray");
    assert_eq!(format!("{:.2}", a[0].1.rating), "1337.69");
    assert_eq!(format!("{:.2}", b[0].1.rating), "1662.31");
    assert_eq!(format!("{:.2}", b[0].1.deviation), "290.32");
    assert_eq!((a[0].1.games, b[0].1.games), (1, 1));

    // A failing request (game 1 again) rates nobody.
    let err = store
        .write(
            code,
            vec![
                Write::GameEnded(rated(2, true)),
                Write::GameEnded(rated(1, true)),
            ],
        )
        .await
        .expect_err("a repeated game number must fail");
    assert!(is_refusal(&err), "{err:?}");
    assert_eq!(store.ratings(ids[1]).await.expect("ratings")[0].1.games, 1);
    // An unrated game changes nothing.
    store
        .write(code, vec![Write::GameEnded(rated(2, false))])
        .await
        .expect("game 2");
    assert_eq!(store.ratings(ids[0]).await.expect("ratings"), a);
    // A second rated game moves both again.
    store
        .write(code, vec![Write::GameEnded(rated(3, true))])
        .await
        .expect("game 3");
    let b3 = store.ratings(ids[1]).await.expect("ratings");
    assert_eq!(b3[0].1.games, 2);
    assert!(b3[0].1.rating > b[0].1.rating && b3[0].1.deviation < b[0].1.deviation);

    let username = store
        .account(ids[1])
        .await
        .expect("account")
        .expect("exists")
        .username;
    let p = store
        .profile(&username.to_uppercase(), 1)
        .await
        .expect("profile")
        .expect("found by any case");
    assert_eq!(p.total, 3);
    assert_eq!((p.tallies[0].wins, p.tallies[0].losses), (3, 0));
    assert_eq!(p.recent.len(), 3);
    assert_eq!(p.recent[0].1, "win");
    let board = store
        .leaderboard("crossyray", 2, now)
        .await
        .expect("leaderboard");
    assert!(board.iter().all(|r| r.rating.games >= 2));
}

/// A person's history: the games their member played, newest first, with
/// their result, filtered by game and result, a page at a time.
async fn history_of_a_member(store: &Store) {
    let room = new_room(store, "hi").await;
    let code = room.code.clone();
    let minh = member(1, "Minh");
    let token = minh.token.clone().expect("a guest's token");
    let mut writes = vec![Write::Member(minh)];
    let mut games = Vec::new();
    // Member 1 (side 0) loses games 1-3 (side 1 wins); game 4 is a draw.
    for number in 1..=4 {
        let g = live_game(room.table, number, crossyray_options());
        let mut done = finished(&code, &g, &["m0"]);
        if number == 4 {
            done.outcome = Outcome::Draw {
                reason: EndReason::Agreement,
            };
        }
        writes.push(Write::GameStarted(g.clone()));
        writes.push(Write::GameEnded(done));
        games.push(g);
    }
    store.write(&code, writes).await.expect("write");
    let query = |result: Option<&str>, page: u32| HistoryQuery {
        account: None,
        token: token.clone(),
        game: Some("crossyray".to_string()),
        result: result.map(str::to_string),
        page,
    };
    let all = store.history(&query(None, 1)).await.expect("history");
    assert_eq!(all.total, 4);
    let ids: Vec<Option<String>> = all.games.iter().map(|(g, _)| g.id.clone()).collect();
    let newest_first: Vec<Option<String>> =
        games.iter().rev().map(|g| Some(g.id.to_string())).collect();
    assert_eq!(ids, newest_first);
    let results: Vec<&str> = all.games.iter().map(|(_, r)| r.as_str()).collect();
    assert_eq!(results, ["draw", "loss", "loss", "loss"]);
    let losses = store
        .history(&query(Some("loss"), 1))
        .await
        .expect("history");
    assert_eq!(losses.total, 3);
    assert!(losses.games.iter().all(|(_, r)| r == "loss"));
    assert_eq!(
        store
            .history(&query(Some("win"), 1))
            .await
            .expect("history")
            .total,
        0
    );
    let past_the_end = store.history(&query(None, 2)).await.expect("history");
    assert_eq!((past_the_end.total, past_the_end.games.len()), (4, 0));
    let other_game = HistoryQuery {
        game: Some("jungle".to_string()),
        ..query(None, 1)
    };
    assert_eq!(store.history(&other_game).await.expect("history").total, 0);
}

/// Leases and fencing: one node holds a room at a time; a take raises the
/// token; a write with a stale token stores nothing; renew and release
/// work only for the holder.
async fn leases_fence_stale_owners(store: &Store) {
    let room = new_room(store, "ls").await;
    let code = room.code.clone();
    let t0 = 1_000_000u64;
    let a = store
        .acquire(&code, "node-a", t0, 3_000)
        .await
        .expect("acquire")
        .expect("a free room is taken");
    assert_eq!(
        store
            .acquire(&code, "node-b", t0 + 1_000, 3_000)
            .await
            .expect("acquire"),
        None,
        "a live lease keeps another node out"
    );
    let lease = store.lease(&code).await.expect("lease").expect("stored");
    assert_eq!(
        (lease.node.as_str(), lease.token, lease.expires_at),
        ("node-a", a.0, t0 + 3_000)
    );
    store
        .write_as(&code, Some(a), vec![Write::Chat(chat(1, "by a", 1))])
        .await
        .expect("the holder writes");
    let renewed = store
        .renew_all("node-a", t0 + 2_000, 3_000)
        .await
        .expect("renew_all");
    assert_eq!(
        renewed,
        vec![(code.clone(), a)],
        "the holder renews its lease"
    );
    assert_eq!(
        store
            .acquire(&code, "node-b", t0 + 4_000, 3_000)
            .await
            .expect("acquire"),
        None,
        "a renewed lease runs to its new end"
    );

    // node-a stops renewing (paused); node-b takes the room after expiry.
    let b = store
        .acquire(&code, "node-b", t0 + 5_000, 3_000)
        .await
        .expect("acquire")
        .expect("an expired lease is taken");
    assert!(b.0 > a.0, "the token goes up: {a:?} then {b:?}");
    // node-a wakes up: its writes, renewals and releases do nothing.
    let stale = store
        .write_as(&code, Some(a), vec![Write::Chat(chat(1, "stale", 2))])
        .await
        .expect_err("a stale token cannot write");
    assert!(
        matches!(stale, StoreError::Fenced(ref c) if *c == code),
        "{stale:?}"
    );
    let renewed = store
        .renew_all("node-a", t0 + 5_500, 3_000)
        .await
        .expect("renew_all");
    assert!(
        renewed.is_empty(),
        "a lost lease is not renewed: {renewed:?}"
    );
    store.release(&code, a).await.expect("release");
    assert_eq!(
        store.lease(&code).await.expect("lease").map(|l| l.token),
        Some(b.0)
    );
    // A stale write in a batch with good ones fails alone.
    let mut pending = JoinSet::new();
    for (fence, text) in [
        (Some(a), "stale again"),
        (Some(b), "by b"),
        (None, "unfenced"),
    ] {
        let store = store.clone();
        let code = code.clone();
        pending.spawn(async move {
            let done = store
                .write_as(&code, fence, vec![Write::Chat(chat(2, text, 3))])
                .await;
            (text, done.is_ok())
        });
    }
    let mut results = Vec::new();
    while let Some(done) = pending.join_next().await {
        results.push(done.expect("task"));
    }
    results.sort();
    assert_eq!(
        results,
        vec![("by b", true), ("stale again", false), ("unfenced", true)]
    );
    let texts: Vec<String> = saved(store, &code)
        .await
        .chat
        .into_iter()
        .map(|c| c.text)
        .collect();
    assert!(texts.contains(&"by a".to_string()) && texts.contains(&"by b".to_string()));
    assert!(!texts.iter().any(|t| t.starts_with("stale")), "{texts:?}");

    // A release hands the room over at once.
    store.release(&code, b).await.expect("release");
    let c = store
        .acquire(&code, "node-c", t0 + 5_600, 3_000)
        .await
        .expect("acquire")
        .expect("a released room is free");
    assert!(c.0 > b.0);
    // A room nobody ever took has no lease to write with.
    let other = new_room(store, "ls").await;
    let unleased = store
        .write_as(&other.code, Some(c), vec![Write::Chat(chat(1, "x", 1))])
        .await
        .expect_err("no lease, no fenced write");
    assert!(matches!(unleased, StoreError::Fenced(_)));
}

async fn accounts_and_sessions_for_reopen(store: &Store) -> (String, String, i64) {
    let name = format!("Khoa_{}", &new_token()[..8]);
    let token = new_token();
    let now = now_millis();
    let (account, _) = store
        .create_account(&name, "hash", None, Some(open(&token, now)), now)
        .await
        .expect("create_account")
        .expect("free");
    (name, token, account.id)
}

// ---------------------------------------------------------------------
// SQLite.

async fn sqlite(dir: &Path) -> Store {
    Store::open(None, dir).await.expect("open a SQLite store")
}

/// Runs `check` on a fresh SQLite store, then closes it.
macro_rules! on_sqlite {
    ($check:ident) => {{
        let dir = tempfile::tempdir().expect("temp dir");
        let store = sqlite(dir.path()).await;
        $check(&store).await;
        store.close().await;
    }};
}

#[tokio::test]
async fn sqlite_rooms_round_trip() {
    on_sqlite!(rooms_round_trip);
}

#[tokio::test]
async fn sqlite_members_round_trip() {
    on_sqlite!(members_round_trip);
}

#[tokio::test]
async fn sqlite_scores_upsert_by_person() {
    on_sqlite!(scores_upsert_by_person);
}

#[tokio::test]
async fn sqlite_chat_keeps_the_last_50_lines_in_order() {
    on_sqlite!(chat_keeps_the_last_50_lines_in_order);
}

#[tokio::test]
async fn sqlite_live_game_lifecycle() {
    on_sqlite!(live_game_lifecycle);
}

#[tokio::test]
async fn sqlite_a_repeated_game_number_fails_the_whole_request() {
    on_sqlite!(a_repeated_game_number_fails_the_whole_request);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_many_rooms_moves_in_batches() {
    on_sqlite!(many_rooms_moves_in_batches);
}

#[tokio::test]
async fn sqlite_a_move_of_no_live_game_is_refused() {
    on_sqlite!(a_move_of_no_live_game_is_refused);
}

#[tokio::test]
async fn sqlite_a_bad_move_among_moves_fails_alone() {
    on_sqlite!(a_bad_move_among_moves_fails_alone);
}

/// The default (current-thread) runtime. The SQLite writer is a thread
/// of its own, so how the requests form batches depends on timing; the
/// retry of a failed batch request by request is checked on its own in
/// `store/batch.rs`'s unit test.
#[tokio::test]
async fn sqlite_group_commit_isolates_a_bad_request() {
    on_sqlite!(group_commit_isolates_a_bad_request);
}

/// The same on several threads, where batches form by timing.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_group_commit_isolates_a_bad_request_on_threads() {
    on_sqlite!(group_commit_isolates_a_bad_request);
}

#[tokio::test]
async fn sqlite_two_requests_racing_for_one_game_number() {
    on_sqlite!(two_requests_racing_for_one_game_number);
}

/// Fails on most runs: 1-5 of the 800 chat writes come back
/// `Database(SqliteError { code: 5 | 517, "database is locked" })`.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_concurrent_calls_do_not_fail_each_other() {
    on_sqlite!(concurrent_calls_do_not_fail_each_other);
}

#[tokio::test]
async fn sqlite_history_of_a_member() {
    on_sqlite!(history_of_a_member);
}

#[tokio::test]
async fn sqlite_ratings_change_with_the_stored_game() {
    on_sqlite!(ratings_change_with_the_stored_game);
}

#[tokio::test]
async fn sqlite_leases_fence_stale_owners() {
    on_sqlite!(leases_fence_stale_owners);
}

#[tokio::test]
async fn sqlite_a_reopened_store_has_everything() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = sqlite(dir.path()).await;
    a_reopened_store_has_everything(store, async || sqlite(dir.path()).await).await;
}

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
    let got = store.room(&room.code).await.expect("room").expect("stored");
    assert_eq!(got.host, Some(TokenHash::of(PLAIN)));
    assert_eq!(
        saved(&store, &room.code).await.room.host,
        Some(TokenHash::of(PLAIN))
    );
    let other = store
        .room(&untouched.code)
        .await
        .expect("room")
        .expect("stored");
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
    let got = store.room(&room.code).await.expect("room").expect("stored");
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

// ---------------------------------------------------------------------
// PostgreSQL: the same checks on this machine's server (`TEST_DATABASE_URL`,
// by default postgres://postgres@127.0.0.1:5432/test), each in a schema of
// its own that is dropped afterwards. Without a server they are skipped,
// saying so, except under CI (`CI` set), where they fail.

/// Runs `check` on a PostgreSQL store in a fresh schema.
macro_rules! on_postgres {
    ($check:ident) => {{
        if let Some(schema) = postgres::schema().await {
            let store = schema.open().await;
            $check(&store).await;
            store.close().await;
            schema.drop().await;
        }
    }};
}

#[tokio::test]
async fn postgres_rooms_round_trip() {
    on_postgres!(rooms_round_trip);
}

#[tokio::test]
async fn postgres_members_round_trip() {
    on_postgres!(members_round_trip);
}

#[tokio::test]
async fn postgres_scores_upsert_by_person() {
    on_postgres!(scores_upsert_by_person);
}

#[tokio::test]
async fn postgres_chat_keeps_the_last_50_lines_in_order() {
    on_postgres!(chat_keeps_the_last_50_lines_in_order);
}

#[tokio::test]
async fn postgres_live_game_lifecycle() {
    on_postgres!(live_game_lifecycle);
}

#[tokio::test]
async fn postgres_a_repeated_game_number_fails_the_whole_request() {
    on_postgres!(a_repeated_game_number_fails_the_whole_request);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_many_rooms_moves_in_batches() {
    on_postgres!(many_rooms_moves_in_batches);
}

#[tokio::test]
async fn postgres_a_move_of_no_live_game_is_refused() {
    on_postgres!(a_move_of_no_live_game_is_refused);
}

#[tokio::test]
async fn postgres_a_bad_move_among_moves_fails_alone() {
    on_postgres!(a_bad_move_among_moves_fails_alone);
}

#[tokio::test]
async fn postgres_group_commit_isolates_a_bad_request() {
    on_postgres!(group_commit_isolates_a_bad_request);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_group_commit_isolates_a_bad_request_on_threads() {
    on_postgres!(group_commit_isolates_a_bad_request);
}

#[tokio::test]
async fn postgres_two_requests_racing_for_one_game_number() {
    on_postgres!(two_requests_racing_for_one_game_number);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_concurrent_calls_do_not_fail_each_other() {
    on_postgres!(concurrent_calls_do_not_fail_each_other);
}

#[tokio::test]
async fn postgres_accounts_and_sessions() {
    on_postgres!(accounts_and_sessions);
}

#[tokio::test]
async fn postgres_email_links() {
    on_postgres!(email_links);
}

#[tokio::test]
async fn sqlite_email_links() {
    on_sqlite!(email_links);
}

#[tokio::test]
async fn sqlite_coins_are_never_lost_or_spent_twice() {
    on_sqlite!(coins_are_never_lost_or_spent_twice);
}

#[tokio::test]
async fn postgres_coins_are_never_lost_or_spent_twice() {
    on_postgres!(coins_are_never_lost_or_spent_twice);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_an_item_is_bought_once_with_its_coins() {
    on_sqlite!(an_item_is_bought_once_with_its_coins);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_an_item_is_bought_once_with_its_coins() {
    on_postgres!(an_item_is_bought_once_with_its_coins);
}

#[tokio::test]
async fn postgres_history_of_a_member() {
    on_postgres!(history_of_a_member);
}

#[tokio::test]
async fn postgres_ratings_change_with_the_stored_game() {
    on_postgres!(ratings_change_with_the_stored_game);
}

#[tokio::test]
async fn postgres_leases_fence_stale_owners() {
    on_postgres!(leases_fence_stale_owners);
}

#[tokio::test]
async fn postgres_a_reopened_store_has_everything() {
    if let Some(schema) = postgres::schema().await {
        let store = schema.open().await;
        a_reopened_store_has_everything(store, async || schema.open().await).await;
        schema.drop().await;
    }
}
