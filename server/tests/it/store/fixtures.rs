//! Records to store, and comparing what comes back (the records are not
//! all `PartialEq`).

use rules::{EndReason, Level, Outcome, Side};
use serde_json::json;
use server::games::{GameKind, GameOptions};
use server::model::records::{ChatLine, Entry, Person, Player, ScoreRow};
use server::model::records::{
    EntryRow, FinishedGame, Leave, LiveGame, MemberRow, RoomRow, SavedRoom, SidePlayer,
};
use server::model::{new_token, GameId, MemberId, TableId, TokenHash};
use server::protocol::Order;
use server::store::{Account, NewSession, Store, StoreError};

/// A code no other check (or earlier run on a shared database) uses.
pub(super) fn fresh(prefix: &str) -> String {
    format!("{prefix}{}", &new_token()[..12])
}

/// A new account named `prefix` and a fresh suffix, with password hash
/// `h`, no email and no session.
pub(super) async fn new_account(store: &Store, prefix: &str, now: u64) -> Account {
    let name = format!("{prefix}{}", &new_token()[..8]);
    let (account, _) = store
        .create_account(&name, "h", None, None, now)
        .await
        .expect("create_account")
        .expect("free");
    account
}

/// The stored row of room `code`; panics unless there is one.
pub(super) async fn stored_room(store: &Store, code: &str) -> RoomRow {
    store.room(code).await.expect("room").expect("stored")
}

pub(super) fn crossyray_options() -> GameOptions {
    GameOptions::parse(
        GameKind::CrossyRay,
        &json!({"width": 11, "height": 7, "clock": {"minutes": 3, "increment": 2}}),
    )
    .expect("valid options")
}

pub(super) fn quoridor_teams_options() -> GameOptions {
    GameOptions::parse(
        GameKind::Quoridor,
        &json!({"mode": "teams", "size": 11, "turn_seconds": 45}),
    )
    .expect("valid options")
}

pub(super) fn room_row(code: &str) -> RoomRow {
    RoomRow {
        code: code.to_string(),
        options: crossyray_options(),
        host: Some(TokenHash::of(&format!("host-of-{code}"))),
        autostart: false,
        solo: false,
        rated: false,
        start_when_seated: false,
        public: false,
        games_played: 0,
        next_member: 1,
        table: TableId::new(),
    }
}

/// Stores a fresh room and returns its row.
pub(super) async fn new_room(store: &Store, prefix: &str) -> RoomRow {
    let row = room_row(&fresh(prefix));
    store.insert_room(&row).await.expect("insert_room");
    row
}

pub(super) fn member(id: u32, name: &str) -> MemberRow {
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

pub(super) fn score(person: Person, name: &str, points: u32, wins: u32) -> ScoreRow {
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

pub(super) fn chat(member: u32, text: &str, at: u64) -> ChatLine {
    ChatLine {
        from: format!("Member {member}"),
        member: MemberId(member),
        text: text.to_string(),
        at,
    }
}

pub(super) fn live_game(table: TableId, number: u32, options: GameOptions) -> LiveGame {
    LiveGame {
        deadline: None,
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

pub(super) fn entry(game: &LiveGame, seq: u32) -> EntryRow {
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

pub(super) fn finished(code: &str, game: &LiveGame, moves: &[&str]) -> FinishedGame {
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
        takebacks: Vec::new(),
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

pub(super) fn assert_room_eq(got: &RoomRow, want: &RoomRow) {
    assert_eq!(got.code, want.code, "code");
    assert_eq!(got.options, want.options, "options of {}", want.code);
    assert_eq!(got.game(), want.game(), "game of {}", want.code);
    assert_eq!(got.host, want.host, "host hash of {}", want.code);
    assert_eq!(got.autostart, want.autostart, "autostart of {}", want.code);
    assert_eq!(got.solo, want.solo, "solo of {}", want.code);
    assert_eq!(got.rated, want.rated, "rated of {}", want.code);
    assert_eq!(got.public, want.public, "public of {}", want.code);
    assert_eq!(
        got.start_when_seated, want.start_when_seated,
        "start_when_seated of {}",
        want.code
    );
    assert_eq!(got.games_played, want.games_played, "games_played");
    assert_eq!(got.next_member, want.next_member, "next_member");
    assert_eq!(got.table, want.table, "table id of {}", want.code);
}

pub(super) fn assert_live_eq(
    got: &[(LiveGame, Vec<EntryRow>)],
    want: &[(&LiveGame, Vec<EntryRow>)],
) {
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
pub(super) fn sorted_scores(scores: &[ScoreRow]) -> Vec<ScoreRow> {
    let mut scores = scores.to_vec();
    scores.sort_by_key(|s| s.person.key());
    scores
}

pub(super) async fn saved(store: &Store, code: &str) -> SavedRoom {
    store
        .load_room(code)
        .await
        .expect("load_room")
        .unwrap_or_else(|| panic!("room {code} is stored"))
}

pub(super) fn is_refusal(e: &StoreError) -> bool {
    matches!(
        e,
        StoreError::Conflict | StoreError::Database(_) | StoreError::Postgres(_)
    )
}

/// A session opened at `now` with a fresh secret; returns the secret.
pub(super) fn session_at(now: u64) -> (String, u64) {
    (new_token(), now)
}

pub(super) fn open(secret: &str, now: u64) -> NewSession<'_> {
    NewSession {
        secret,
        agent: "Test browser",
        now,
    }
}
