//! Unit tests of the pure room state: no socket, no database, no sleep.
//! Time is a millisecond count the tests pass in.
//!
//! - `members.rs`: hello, disconnect, the member cap, name, sit, stand,
//!   chat, ping.
//! - `game_cmds.rs`: start, move, resign.
//! - `host_cmds.rs`: options, computer, countdown, autostart.
//! - `hint.rs`: hints against the computer.
//! - `timers.rs`: clocks, per-move timers, abandon, team turns, the
//!   auto-start countdown.
//! - `game.rs`: whole games, the scoreboard, the computer.
//! - `restore.rs`: a room brought back from what it stored.
//! - `props.rs` (with `sim.rs`): random command sequences against the
//!   room's invariants.
//! - `wire.rs`: events and snapshots read back as they were written.
//! - `fanout.rs`: whose queue a real room task fills first.

mod away;
mod fanout;
mod game;
mod game_cmds;
mod hint;
mod host_cmds;
mod members;
mod props;
mod public;
mod restore;
mod seated;
mod sim;
mod supervisor;
mod takeback;
mod timers;
mod transition;
mod turn_based;
mod wire;

use rules::Game;
use serde_json::{json, Value};

use super::cmd::{self, Command};
use super::*;
use crate::games::{GameKind, GameOptions};
use crate::model::records::*;
use crate::model::*;
use crate::protocol::{Code, DrawAction, Order, Refusal};
use crate::store::Write;

/// The room creator's browser token.
pub const HOST: &str = "host-token-0123456789";

/// Another browser's token (valid: 16-64 characters).
pub fn token(i: usize) -> String {
    format!("guest-token-{i:08}")
}

pub fn config() -> RoomConfig {
    RoomConfig::default()
}

/// Sends `hello` (id 1) for connection `conn` of a real room task, with
/// `token` and `name`; the connection's queue and close signal.
pub async fn hello_real(
    room: &RoomHandle,
    conn: u64,
    token: &str,
    name: Option<&str>,
) -> (Queue, Closer) {
    let (outbox, rx) = outbox(64);
    let closer = Closer::new();
    room.attach(Attach {
        conn: ConnId(conn),
        id: 1,
        token: Some(token.to_string()),
        name: name.map(str::to_string),
        outbox,
        closer: closer.clone(),
        base_url: "http://example.test".to_string(),
        account: None,
        ratings: Vec::new(),
        since: None,
        addr: None,
        via: None,
    })
    .await
    .expect("the room takes the hello");
    (rx, closer)
}

/// A registry of one node on a fresh SQLite store in `dir` (room tasks
/// that are real, for the tests that need one), and a new CrossyRay
/// room's running handle, hosted by `host` (a browser token).
pub async fn real_room(dir: &std::path::Path, host: &str) -> (Registry, RoomHandle) {
    let store = crate::store::Store::open(None, dir).await.unwrap();
    let settings = RoomSettings {
        config: RoomConfig::default(),
        idle_after: std::time::Duration::from_secs(600),
        public_url: None,
    };
    let registry = Registry::new(store, settings, 10);
    let code = registry.create(crossyray(), host, false).await.unwrap();
    let room = registry
        .running(&code)
        .expect("a new room runs on one node");
    (registry, room)
}

/// A Quoridor team game of three started at 0 ms, in seat order: the
/// host (Minh) and a teammate (Lan) in seats 0 and 1, one other (Hoa) in
/// seat 4 on the other team. Returns `[host, mate, other]`.
pub fn teams_started(state: &mut RoomState) -> [MemberId; 3] {
    let host = join(state, HOST, Some("Minh"), 0);
    let mate = join(state, &token(1), Some("Lan"), 0);
    let other = join(state, &token(2), Some("Hoa"), 0);
    ok(state, host, sit(0), 0);
    ok(state, mate, sit(1), 0);
    ok(state, other, sit(4), 0);
    ok(state, host, start(Order::Seats), 0);
    [host, mate, other]
}

/// CrossyRay's default options, for a room made through the registry.
pub fn crossyray() -> GameOptions {
    GameOptions::parse(GameKind::CrossyRay, &Value::Null).expect("the defaults")
}

pub fn room(kind: GameKind, options: Value) -> RoomState {
    room_with(kind, options, config())
}

pub fn room_with(kind: GameKind, options: Value, config: RoomConfig) -> RoomState {
    let options = GameOptions::parse(kind, &options).unwrap();
    RoomState::new("ABCDE", options, Some(TokenHash::of(HOST)), config)
}

pub fn greeting(token: &str, name: Option<&str>, account: Option<AccountRef>) -> Hello {
    Hello {
        token: TokenHash::of(token),
        name: name.map(str::to_string),
        account,
        ratings: Vec::new(),
        addr: None,
    }
}

/// A browser says hello; its versions must follow on.
pub fn join(state: &mut RoomState, token: &str, name: Option<&str>, now: u64) -> MemberId {
    join_as(state, greeting(token, name, None), now).0
}

pub fn join_as(state: &mut RoomState, hello: Hello, now: u64) -> (MemberId, Vec<Effect>) {
    let before = state.version;
    let (id, effects) = state.hello(hello, now).expect("hello accepted");
    check_versions(before, &effects, state);
    (id, effects)
}

/// Everything a refusal must leave alone: the version, the member's
/// snapshot as sent, and the whole state.
pub fn fingerprint(state: &RoomState, member: MemberId, now: u64) -> (u64, Value, String) {
    (
        state.version,
        serde_json::to_value(state.snapshot(member, "http://x", now)).unwrap(),
        format!("{state:?}"),
    )
}

/// Applies a command that must be accepted; checks the versions it
/// emitted.
pub fn ok(state: &mut RoomState, member: MemberId, command: Command, now: u64) -> Vec<Effect> {
    let before = state.version;
    let shown = format!("{command:?}");
    let effects = state
        .apply(member, command, now)
        .unwrap_or_else(|r| panic!("{shown} refused: {r:?}"));
    check_versions(before, &effects, state);
    effects
}

/// Applies a command that must be refused, and checks that it changed
/// nothing.
pub fn refused(state: &mut RoomState, member: MemberId, command: Command, now: u64) -> Refusal {
    let before = fingerprint(state, member, now);
    let shown = format!("{command:?}");
    let refusal = match state.apply(member, command, now) {
        Err(refusal) => refusal,
        Ok(effects) => panic!("{shown} accepted: {:?}", tags(&effects)),
    };
    assert_eq!(
        fingerprint(state, member, now),
        before,
        "refusing {shown} ({refusal:?}) changed the room"
    );
    refusal
}

/// The code of a refusal that changed nothing.
pub fn code(state: &mut RoomState, member: MemberId, command: Command, now: u64) -> Code {
    refused(state, member, command, now).code
}

/// Each broadcast is one version more than the one before, starting
/// after `before`, and the state's version is the last one sent.
pub fn check_versions(before: u64, effects: &[Effect], state: &RoomState) {
    let mut v = before;
    for e in effects {
        if let Effect::Broadcast(stamped) = e {
            assert_eq!(stamped.v, v + 1, "versions go up one at a time");
            v = stamped.v;
        }
    }
    assert_eq!(state.version, v, "the state's version is the last one sent");
}

/// A short label per effect: `store:<write>`, `send:<event>` (with the
/// match kind), `think`, `stop`, `hint:<member>`, `stop_hint:<member>`,
/// `direct:<member>`, `close:<member>`.
pub fn tag(effect: &Effect) -> String {
    match effect {
        Effect::Persist(w) => format!(
            "store:{}",
            match w {
                Write::Room(_) => "room",
                Write::Member(_) => "member",
                Write::RemoveMember(_) => "remove_member",
                Write::Score(_) => "score",
                Write::Chat(_) => "chat",
                Write::GameStarted(_) => "game_started",
                Write::Entry(_) => "entry",
                Write::Turn(_) => "turn",
                Write::GameEnded(_) => "game_ended",
                Write::Tournament(_) => "tournament",
                Write::Lobby(..) => "lobby",
            }
        ),
        Effect::Broadcast(stamped) => {
            let value = serde_json::to_value(stamped).unwrap();
            match value["kind"].as_str() {
                Some(kind) => format!("send:{}/{kind}", value["type"].as_str().unwrap()),
                None => format!("send:{}", value["type"].as_str().unwrap()),
            }
        }
        Effect::Think { .. } => "think".to_string(),
        Effect::StopThinking { .. } => "stop".to_string(),
        Effect::Hint { member, .. } => format!("hint:{member}"),
        Effect::StopHint { member } => format!("stop_hint:{member}"),
        Effect::Direct { member, .. } => format!("direct:{member}"),
        Effect::Close { member, .. } => format!("close:{member}"),
    }
}

pub fn tags(effects: &[Effect]) -> Vec<String> {
    effects.iter().map(tag).collect()
}

pub fn writes(effects: &[Effect]) -> Vec<&Write> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Persist(w) => Some(w),
            _ => None,
        })
        .collect()
}

/// The events sent, as the wire has them.
pub fn sent(effects: &[Effect]) -> Vec<Value> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Broadcast(stamped) => Some(serde_json::to_value(stamped).unwrap()),
            _ => None,
        })
        .collect()
}

pub fn entries(effects: &[Effect]) -> Vec<EntryRow> {
    writes(effects)
        .into_iter()
        .filter_map(|w| match w {
            Write::Entry(row) => Some(row.clone()),
            _ => None,
        })
        .collect()
}

pub fn mv(text: &str) -> Command {
    lagged(text, 0)
}

/// A move that came over a connection with `lag_ms` of one-way lag.
pub fn lagged(text: &str, lag_ms: u64) -> Command {
    Command::Move(cmd::Move {
        mv: text.to_string(),
        table: None,
        lag_ms,
    })
}

pub fn sit(seat: usize) -> Command {
    Command::Sit(cmd::Sit { seat })
}

pub fn start(order: Order) -> Command {
    Command::Start(cmd::Start { order })
}

pub fn options(game: Option<&str>, options: Value) -> Command {
    Command::Options(cmd::Options {
        game: game.map(GameKind::parse),
        options: options.into(),
    })
}

/// A move every position of `game` refuses: one of another game.
pub fn foreign_move(game: &crate::games::AnyGame) -> crate::games::AnyMove {
    let other = match game.kind() {
        GameKind::Quoridor => GameKind::Jungle,
        GameKind::CrossyRay | GameKind::Jungle => GameKind::Quoridor,
    };
    let options = GameOptions::parse(other, &Value::Null).unwrap();
    crate::games::AnyGame::new(&options).unwrap().legal_moves()[0]
}

/// The table's current (or last) game.
pub fn current(state: &RoomState) -> &Match {
    state.tables[0].current.as_ref().expect("a game")
}

pub fn member(state: &RoomState, id: MemberId) -> &Member {
    state.member(id).expect("a member")
}

/// A room of `kind` with the host "Minh" in seat 0 and the guest "Lan"
/// in seat 1, both online.
pub fn two_seated(kind: GameKind, opts: Value, now: u64) -> (RoomState, MemberId, MemberId) {
    let mut state = room(kind, opts);
    let host = join(&mut state, HOST, Some("Minh"), now);
    let guest = join(&mut state, &token(1), Some("Lan"), now);
    ok(&mut state, host, sit(0), now);
    ok(&mut state, guest, sit(1), now);
    (state, host, guest)
}

/// CrossyRay's shortest game (rules/src/crossyray/mod.rs): side 1 sends
/// the 4 into its own goal, side 0 wins.
pub const CROSSY_LINE: [&str; 4] = ["f4", "h4", "i4", "goal:right"];

/// What the store keeps, as the SQLite store would keep it after the
/// same writes: the room row, members by id, a score row per person, the
/// chat tail and the live games with their logs.
pub struct Store {
    pub room: RoomRow,
    pub members: Vec<MemberRow>,
    pub scores: Vec<ScoreRow>,
    pub chat: Vec<ChatLine>,
    pub live: Vec<(LiveGame, Vec<EntryRow>)>,
    pub finished: Vec<FinishedGame>,
    pub tournament: Option<crate::model::bracket::Bracket>,
}

impl Store {
    /// The room as created (the registry stores its first row).
    pub fn new(state: &RoomState) -> Store {
        Store {
            room: state.row(),
            members: Vec::new(),
            scores: Vec::new(),
            chat: Vec::new(),
            live: Vec::new(),
            finished: Vec::new(),
            tournament: None,
        }
    }

    pub fn apply(&mut self, effects: &[Effect]) {
        for write in writes(effects) {
            match write.clone() {
                Write::Room(row) => self.room = row,
                // The lobby line is the task's, never the state's.
                Write::Lobby(..) => {}
                Write::Member(row) => match self.members.iter_mut().find(|m| m.id == row.id) {
                    Some(m) => *m = row,
                    None => {
                        self.members.push(row);
                        self.members.sort_by_key(|m| m.id);
                    }
                },
                Write::RemoveMember(id) => self.members.retain(|m| m.id != id),
                Write::Score(row) => {
                    match self.scores.iter_mut().find(|r| r.person == row.person) {
                        Some(r) => *r = row,
                        None => self.scores.push(row),
                    }
                }
                Write::Chat(line) => {
                    self.chat.push(line);
                    if self.chat.len() > CHAT_HISTORY {
                        self.chat.remove(0);
                    }
                }
                Write::GameStarted(game) => {
                    // The table's previous (finished) game goes.
                    self.live.retain(|(g, _)| g.table != game.table);
                    self.live.push((game, Vec::new()));
                }
                Write::Entry(row) => {
                    let (_, log) = self
                        .live
                        .iter_mut()
                        .find(|(g, _)| g.id == row.game)
                        .expect("an entry of a game that started");
                    assert_eq!(row.seq as usize, log.len(), "entries are numbered 0, 1, 2…");
                    log.push(row);
                }
                Write::Turn(turn) => {
                    if let Some((g, _)) = self.live.iter_mut().find(|(g, _)| g.id == turn.game) {
                        g.deadline = turn.deadline;
                    }
                }
                // A finished game's log stays until its table's next game.
                Write::GameEnded(done) => self.finished.push(done),
                Write::Tournament(bracket) => {
                    let keep: Vec<_> = bracket
                        .as_ref()
                        .and_then(|b| b.current())
                        .map(|r| r.pairings.iter().map(|p| p.table).collect())
                        .unwrap_or_default();
                    let main = self.room.table;
                    self.live
                        .retain(|(g, _)| g.table == main || keep.contains(&g.table));
                    self.tournament = bracket;
                }
            }
        }
    }

    pub fn saved(&self) -> SavedRoom {
        SavedRoom {
            room: self.room.clone(),
            members: self.members.clone(),
            scores: self.scores.clone(),
            chat: self.chat.clone(),
            live: self.live.clone(),
            tournament: self.tournament.clone(),
        }
    }
}

/// The options JSON of a CrossyRay game with a 3+2 clock.
pub fn crossy_clock() -> Value {
    json!({"clock": {"minutes": 3, "increment": 2}})
}
