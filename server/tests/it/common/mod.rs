//! Test harness: starts the real server on an ephemeral port and talks to
//! it over real WebSockets and HTTP, as a browser would.

#![allow(dead_code)]

pub mod browser;
pub mod postgres;
pub mod process;
pub mod smtp;
pub mod typed;

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use rules::Game;
use serde_json::{json, Value};
use server::games::{AnyGame, GameKind, GameOptions};
use server::{Config, Running};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub struct TestServer {
    pub running: Option<Running>,
    pub base: String,
    pub dir: tempfile::TempDir,
}

impl TestServer {
    pub async fn start() -> TestServer {
        Self::start_with(|_| {}).await
    }

    pub async fn start_with(tweak: impl FnOnce(&mut Config)) -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        Self::start_in(dir, tweak).await
    }

    pub async fn start_in(dir: tempfile::TempDir, tweak: impl FnOnce(&mut Config)) -> TestServer {
        let mut config = Config::for_tests(dir.path().to_path_buf());
        tweak(&mut config);
        let running = server::start(config).await.expect("server starts");
        let base = format!("http://{}", running.addr);
        TestServer {
            running: Some(running),
            base,
            dir,
        }
    }

    pub async fn stop(mut self) -> tempfile::TempDir {
        if let Some(running) = self.running.take() {
            running.stop().await.expect("clean stop");
        }
        self.dir
    }

    /// `POST /api/rooms`, returning the JSON answer.
    pub async fn create_room(&self, body: Value) -> (u16, Value) {
        self.post("/api/rooms", body).await
    }

    /// `POST /api/rooms` with `body`; the new room's code and its host's
    /// token. Panics unless the server says 201.
    pub async fn new_room(&self, body: Value) -> (String, String) {
        let (status, room) = self.create_room(body).await;
        assert_eq!(status, 201, "{room}");
        let field = |key: &str| room[key].as_str().expect(key).to_string();
        (field("code"), field("token"))
    }

    /// A new room (`body`) whose host, `name`, sits in seat 0 against the
    /// computer (a beginner) in seat 1; the code and the host's client.
    pub async fn against_the_computer(&self, body: Value, name: &str) -> (String, Client) {
        let (code, token) = self.new_room(body).await;
        let (mut host, _, _) = self.join(&code, Some(&token), Some(name)).await;
        host.ok(json!({"type": "sit", "seat": 0})).await;
        host.ok(json!({"type": "computer", "seat": 1, "level": "beginner"}))
            .await;
        (code, host)
    }

    pub async fn get(&self, path: &str) -> (u16, String) {
        let resp = reqwest::get(format!("{}{path}", self.base))
            .await
            .expect("request");
        let status = resp.status().as_u16();
        (status, resp.text().await.expect("text"))
    }

    /// Opens a socket to room `code` (no hello yet).
    pub async fn socket(&self, code: &str) -> Client {
        let url = format!("{}/ws/{code}", self.base.replace("http://", "ws://"));
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("ws connects");
        Client::new(ws)
    }

    /// Opens a socket and says hello; returns the client, its token and the
    /// snapshot.
    pub async fn join(&self, code: &str, token: Option<&str>, name: Option<&str>) -> Joined {
        self.socket(code).await.hello(token, name).await
    }
}

/// What saying hello answers: the socket, the browser's token and the
/// snapshot.
pub type Joined = (Client, String, Value);

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: i64,
    /// How long to wait for a message before failing the test.
    pub wait: Duration,
    /// Events received while waiting for an answer, oldest first.
    pub events: Vec<Value>,
}

impl Client {
    /// Says hello; returns the client, its token and the snapshot.
    pub async fn hello(mut self, token: Option<&str>, name: Option<&str>) -> Joined {
        let ack = self
            .command(json!({"type": "hello", "token": token, "name": name}))
            .await;
        assert_eq!(ack["type"], "ack", "hello answered: {ack}");
        let token = ack["token"].as_str().expect("token").to_string();
        let snapshot = self.next_of("snapshot").await;
        (self, token, snapshot)
    }

    pub fn new(ws: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Client {
        Client {
            ws,
            next_id: 1,
            wait: Duration::from_secs(10),
            events: Vec::new(),
        }
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    /// Reads the next JSON message from the socket.
    pub async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(self.wait, self.ws.next())
                .await
                .expect("a message within the wait")
                .expect("socket open")
                .expect("no socket error");
            if let Message::Text(text) = msg {
                return serde_json::from_str(text.as_str()).expect("server sends JSON");
            }
        }
    }

    /// Sends `command` with a fresh id and returns the answer to it (ack or
    /// error), keeping the events that arrive meanwhile.
    pub async fn command(&mut self, mut command: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        command["id"] = json!(id);
        self.send_text(command.to_string()).await;
        self.answer(Some(id)).await
    }

    /// Waits for the ack/error with `id`.
    pub async fn answer(&mut self, id: Option<i64>) -> Value {
        loop {
            let msg = self.recv().await;
            let is_answer = matches!(msg["type"].as_str(), Some("ack" | "error"));
            if is_answer && msg["id"].as_i64() == id {
                return msg;
            }
            self.events.push(msg);
        }
    }

    /// The next message of `kind`, from the kept events first.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        if let Some(i) = self.events.iter().position(|e| e["type"] == kind) {
            return self.events.remove(i);
        }
        loop {
            let msg = self.recv().await;
            if msg["type"] == kind {
                return msg;
            }
            self.events.push(msg);
        }
    }

    /// Reads until the server's close frame (within 10 s) and returns its
    /// code; `None` when the socket ended without one.
    pub async fn close_code(&mut self) -> Option<u16> {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .expect("closed within 10 s");
            match msg {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code.into()),
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return None,
            }
        }
    }

    /// The next `match` event, skipping other events.
    pub async fn next_match(&mut self) -> Value {
        self.next_of("match").await
    }

    /// Asserts the command is refused with `code`, and returns the message.
    pub async fn refused(&mut self, command: Value, code: &str) -> String {
        let answer = self.command(command.clone()).await;
        assert_eq!(
            answer["type"], "error",
            "{command} should be refused: {answer}"
        );
        assert_eq!(answer["code"], code, "{command}: {answer}");
        answer["message"].as_str().expect("message").to_string()
    }

    pub async fn ok(&mut self, command: Value) {
        let answer = self.command(command.clone()).await;
        assert_eq!(
            answer["type"], "ack",
            "{command} should be accepted: {answer}"
        );
    }

    /// Asserts that no message of `kind` arrives within `wait` (other
    /// messages are kept as events).
    pub async fn silent_for(&mut self, kind: &str, wait: Duration) {
        if let Some(e) = self.events.iter().find(|e| e["type"] == kind) {
            panic!("unexpected {kind}: {e}");
        }
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                return;
            }
            match tokio::time::timeout(left, self.ws.next()).await {
                Err(_) => return,
                Ok(Some(Ok(Message::Text(text)))) => {
                    let msg: Value = serde_json::from_str(text.as_str()).expect("JSON");
                    assert_ne!(msg["type"], kind, "unexpected {kind}: {msg}");
                    self.events.push(msg);
                }
                Ok(Some(Ok(_))) => {}
                Ok(other) => panic!("socket closed: {other:?}"),
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// A room with two seated players and a spectator, game not started.
pub struct Table {
    pub code: String,
    pub host: Client,
    pub host_token: String,
    pub guest: Client,
    pub guest_token: String,
    pub host_member: Value,
    pub guest_member: Value,
    pub spectator: Client,
}

pub async fn table(server: &TestServer, options: Value) -> Table {
    table_of(server, "crossyray", options).await
}

/// Like [`table`], for any game.
pub async fn table_of(server: &TestServer, game: &str, options: Value) -> Table {
    let (status, room) = server
        .create_room(json!({"game": game, "options": options}))
        .await;
    assert_eq!(status, 201, "{room}");
    let code = room["code"].as_str().unwrap().to_string();
    let host_token = room["token"].as_str().unwrap().to_string();
    let mut host = server.join(&code, Some(&host_token), Some("Minh")).await;
    assert_eq!(host.2["you"]["host"], true);
    let mut guest = server.join(&code, None, None).await;
    assert_eq!(guest.2["you"]["host"], false);
    guest.0.ok(json!({"type": "name", "name": "Lan"})).await;
    host.0.ok(json!({"type": "sit", "seat": 0})).await;
    guest.0.ok(json!({"type": "sit", "seat": 1})).await;
    let (spectator, _, _) = server.join(&code, None, Some("Khoa")).await;
    Table::of(&code, host, guest, spectator)
}

impl Table {
    /// Room `code`'s table again, after a restart: the host and the guest
    /// come back with their tokens and a new spectator (Vy) watches.
    pub async fn rejoin(
        server: &TestServer,
        code: &str,
        host_token: &str,
        guest_token: &str,
    ) -> Table {
        let host = server.join(code, Some(host_token), None).await;
        let guest = server.join(code, Some(guest_token), None).await;
        let (spectator, _, _) = server.join(code, None, Some("Vy")).await;
        Table::of(code, host, guest, spectator)
    }

    /// The table of room `code` from what [`TestServer::join`] answered
    /// the host and the guest (socket, token, snapshot).
    fn of(code: &str, host: Joined, guest: Joined, spectator: Client) -> Table {
        let member = |snap: &Value| snap["you"]["member"].clone();
        Table {
            code: code.to_string(),
            host_member: member(&host.2),
            guest_member: member(&guest.2),
            host: host.0,
            host_token: host.1,
            guest: guest.0,
            guest_token: guest.1,
            spectator,
        }
    }

    /// Starts the game; returns the `start` match and which client plays
    /// side 0 (`true` = host).
    pub async fn start(&mut self) -> (Value, bool) {
        self.host.ok(json!({"type": "start"})).await;
        let start = self.host.next_match().await;
        assert_eq!(start["kind"], "start");
        for other in [&mut self.guest, &mut self.spectator] {
            assert_eq!(other.next_match().await["kind"], "start");
        }
        let host_first = start["match"]["players"][0]["member"] == self.host_member;
        (start["match"].clone(), host_first)
    }

    /// Plays `mv` as ply `ply` of a game the host opens: the host sends
    /// the even plies, the guest the odd ones; the move is acknowledged.
    pub async fn play_ply(&mut self, ply: usize, mv: &str) {
        let mover = if ply.is_multiple_of(2) {
            &mut self.host
        } else {
            &mut self.guest
        };
        mover.ok(json!({"type": "move", "move": mv})).await;
    }
}

// ---------------------------------------------------------------------
// Helpers for durable_rooms.rs and wire_defects.rs (appended; the helpers
// above keep their behaviour).

/// How a socket ended, as the client saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// A close frame with this code and reason.
    Closed(u16, String),
    /// A close frame without a code.
    ClosedNoCode,
    /// The connection ended without a close frame (end of stream or a
    /// transport error): a silent drop.
    Dropped(String),
    /// Still open when the wait ran out.
    Open,
}

impl Ending {
    /// The close code, if the socket was closed with one.
    pub fn code(&self) -> Option<u16> {
        match self {
            Ending::Closed(code, _) => Some(*code),
            _ => None,
        }
    }
}

impl Client {
    /// A fresh command id, for commands sent by hand with `send_text`.
    pub fn take_id(&mut self) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Reads until the socket ends or `wait` runs out, keeping every JSON
    /// message in `events`; says how it ended.
    pub async fn ending(&mut self, wait: Duration) -> Ending {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match tokio::time::timeout(left, self.ws.next()).await {
                Err(_) => return Ending::Open,
                Ok(None) => return Ending::Dropped("end of stream".into()),
                Ok(Some(Err(e))) => return Ending::Dropped(e.to_string()),
                Ok(Some(Ok(Message::Text(text)))) => {
                    let msg: Value =
                        serde_json::from_str(text.as_str()).expect("server sends JSON");
                    self.events.push(msg);
                }
                Ok(Some(Ok(Message::Close(Some(frame))))) => {
                    return Ending::Closed(u16::from(frame.code), frame.reason.to_string())
                }
                Ok(Some(Ok(Message::Close(None)))) => return Ending::ClosedNoCode,
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Reads until a message of `kind` arrives (the kept events first),
    /// keeping the others: that message, or how the socket ended (or
    /// `Open` when `wait` ran out).
    pub async fn until(&mut self, kind: &str, wait: Duration) -> Result<Value, Ending> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(i) = self.events.iter().position(|e| e["type"] == kind) {
                return Ok(self.events.remove(i));
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match tokio::time::timeout(left, self.ws.next()).await {
                Err(_) => return Err(Ending::Open),
                Ok(None) => return Err(Ending::Dropped("end of stream".into())),
                Ok(Some(Err(e))) => return Err(Ending::Dropped(e.to_string())),
                Ok(Some(Ok(Message::Text(text)))) => {
                    let msg: Value =
                        serde_json::from_str(text.as_str()).expect("server sends JSON");
                    self.events.push(msg);
                }
                Ok(Some(Ok(Message::Close(Some(frame))))) => {
                    return Err(Ending::Closed(
                        u16::from(frame.code),
                        frame.reason.to_string(),
                    ))
                }
                Ok(Some(Ok(Message::Close(None)))) => return Err(Ending::ClosedNoCode),
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// The member whose `key` is `value` in the next `members` event in
    /// which `check` holds of it (events before it are dropped).
    pub async fn member_until(
        &mut self,
        key: &str,
        value: &Value,
        check: impl Fn(&Value) -> bool,
    ) -> Value {
        loop {
            let event = self.next_of("members").await;
            if let Some(m) = member_where(&event, key, value).filter(|m| check(m)) {
                return m.clone();
            }
        }
    }

    /// The latest kept event of `kind`, if any (left in place).
    pub fn latest(&self, kind: &str) -> Option<&Value> {
        self.events.iter().rev().find(|e| e["type"] == kind)
    }
}

impl TestServer {
    /// A handle on a server that runs elsewhere (another process) at
    /// `base`, so the helpers above (`create_room`, `join`, …) work with
    /// it; `stop` only gives the folder back.
    pub fn at(base: String, dir: tempfile::TempDir) -> TestServer {
        TestServer {
            running: None,
            base,
            dir,
        }
    }

    /// `POST path` with a JSON body; the status and the JSON answer
    /// (`null` for an empty body).
    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let resp = reqwest::Client::new()
            .post(format!("{}{path}", self.base))
            .json(&body)
            .send()
            .await
            .expect("request");
        let status = resp.status().as_u16();
        let text = resp.text().await.expect("body");
        let json = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).expect("JSON body")
        };
        (status, json)
    }

    /// `POST /api/login` as `username` with `password`, without a
    /// browser: the status and the JSON answer.
    pub async fn log_in(&self, username: &str, password: &str) -> (u16, Value) {
        self.post(
            "/api/login",
            json!({"username": username, "password": password}),
        )
        .await
    }

    /// Sets every session's `last_seen` in the server's SQLite file to
    /// `millis` ago, as if none was used since.
    pub async fn age_sessions(&self, millis: u64) {
        let db = self.dir.path().join("site.db");
        let pool = sqlx::SqlitePool::connect(&format!("sqlite:{}", db.display()))
            .await
            .expect("open the database");
        let then = server::model::now_millis() - millis;
        sqlx::query("UPDATE sessions SET last_seen = ?")
            .bind(then as i64)
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    }

    /// The `ws://` URL of room `code`.
    pub fn ws_url(&self, code: &str) -> String {
        format!("{}/ws/{code}", self.base.replace("http://", "ws://"))
    }

    /// Opens a socket to room `code` over a TCP connection whose receive
    /// buffer is `recv_buffer` bytes (the kernel may round it), so a
    /// client that stops reading backs up the server quickly.
    pub async fn socket_with_small_buffer(&self, code: &str, recv_buffer: u32) -> Client {
        self.socket_over(code, |socket| {
            socket.set_recv_buffer_size(recv_buffer).expect("SO_RCVBUF");
        })
        .await
    }

    /// Opens a socket to room `code` (no hello yet) over a TCP socket
    /// that `prepare` sets up before it connects (its buffer, its local
    /// address).
    pub async fn socket_over(
        &self,
        code: &str,
        prepare: impl FnOnce(&tokio::net::TcpSocket),
    ) -> Client {
        let addr: std::net::SocketAddr = self
            .base
            .trim_start_matches("http://")
            .parse()
            .expect("base is host:port");
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        prepare(&socket);
        let tcp = socket.connect(addr).await.expect("tcp connects");
        let (ws, _) =
            tokio_tungstenite::client_async(self.ws_url(code), MaybeTlsStream::Plain(tcp))
                .await
                .expect("ws upgrade");
        Client::new(ws)
    }
}

impl Client {
    /// Like `send_text`, but hands back the error instead of panicking
    /// (the server may have closed the socket).
    pub async fn send_text_checked(
        &mut self,
        text: String,
    ) -> Result<(), tokio_tungstenite::tungstenite::Error> {
        self.ws.send(Message::Text(text.into())).await
    }
}

// ---------------------------------------------------------------------
// Playing a game move by move (durable_rooms.rs, cluster.rs).

/// A local copy of the game, to choose moves that keep it going.
pub fn local_game(game: &str, options: &Value) -> AnyGame {
    let kind = GameKind::parse(game).expect("game");
    AnyGame::new(&GameOptions::parse(kind, options).expect("options")).expect("new game")
}

/// A legal move (from the server's `legal`) that does not end the game and
/// after which the opponent still has a move that does not end it either:
/// no `goal:*` in CrossyRay, no den entry in Jungle, no last step in
/// Quoridor. `ply` varies the choice.
pub fn keep_going(game: &AnyGame, legal: &Value, ply: usize) -> String {
    let safe: Vec<String> = legal
        .as_array()
        .expect("legal list")
        .iter()
        .map(|m| m.as_str().expect("notation").to_string())
        .filter(|m| !m.starts_with("goal:"))
        .filter(|m| {
            let mut after = game.clone();
            after.play_text(m).is_ok()
                && !after.is_over()
                && after.legal().iter().any(|reply| {
                    let mut next = after.clone();
                    next.play_text(reply).is_ok() && !next.is_over()
                })
        })
        .collect();
    assert!(!safe.is_empty(), "no move keeps the game going: {legal}");
    safe[(ply * 7 + 3) % safe.len()].clone()
}

/// The first event (kept or new) that `pred` accepts; other events are
/// kept, in order.
pub async fn wait_for(client: &mut Client, pred: impl Fn(&Value) -> bool) -> Value {
    if let Some(i) = client.events.iter().position(&pred) {
        return client.events.remove(i);
    }
    loop {
        let msg = client.recv().await;
        if pred(&msg) {
            return msg;
        }
        client.events.push(msg);
    }
}

/// The next `match` event of `kind`, skipping others.
pub async fn next_match_of(client: &mut Client, kind: &str) -> Value {
    loop {
        let event = client.next_match().await;
        if event["kind"] == kind {
            return event;
        }
    }
}

/// The whole match after `event`, given the match held before it (`held`,
/// `Null` if none): a `match` event of kind `move` carries only what the
/// move changed (docs/PROTOCOL.md), applied here as a client does; any
/// other `match` event carries the whole match. Panics if a move does not
/// follow the match held.
pub fn follow(held: &Value, event: &Value) -> Value {
    if event["kind"] != "move" {
        return event["match"].clone();
    }
    let delta = &event["match"];
    assert_eq!(held["id"], delta["id"], "a move of the game held: {event}");
    let mut m = held.clone();
    let moves = m["moves"].as_array_mut().expect("moves held");
    moves.push(event["move"].clone());
    assert_eq!(
        Some(moves.len() as u64),
        delta["ply"].as_u64(),
        "the next move: {event}"
    );
    m["move_sides"]
        .as_array_mut()
        .expect("move_sides held")
        .push(event["side"].clone());
    // A Quoridor state there has no `walls`: the move adds to them.
    let walls = m["state"]["walls"].as_array().cloned().map(|mut walls| {
        if let Some(wall) = event["move"].as_str().filter(|mv| mv.ends_with(['h', 'v'])) {
            walls.push(json!(wall));
        }
        walls
    });
    for key in ["players", "to_play", "state", "clock", "outcome"] {
        m[key] = delta[key].clone();
    }
    if let (Some(mut walls), None) = (walls, delta["state"].get("walls")) {
        // In the order a full state lists them: horizontal first, then by
        // row and column.
        walls.sort_by_key(|w| {
            let w = w.as_str().unwrap_or_default();
            let (cell, dir) = w.split_at(w.len().saturating_sub(1));
            let (col, row) = cell.split_at(1.min(cell.len()));
            (
                dir.to_string(),
                row.parse::<u32>().unwrap_or(0),
                col.to_string(),
            )
        });
        m["state"]["walls"] = json!(walls);
    }
    m["legal"] = delta.get("legal").cloned().unwrap_or_else(|| json!([]));
    m
}

// ---------------------------------------------------------------------
// Reading JSON answers and events.

/// The member whose `key` is `value` in `list["members"]` (a snapshot's
/// room, or a `members` event), if listed.
pub fn member_where<'a>(list: &'a Value, key: &str, value: &Value) -> Option<&'a Value> {
    list["members"]
        .as_array()
        .expect("a members list")
        .iter()
        .find(|m| m[key] == *value)
}

/// The member with id `id` in `list["members"]`, if listed.
pub fn member<'a>(list: &'a Value, id: &Value) -> Option<&'a Value> {
    member_where(list, "id", id)
}

/// The `name` of every entry of the array `list` (players, entrants,
/// packages), in order.
pub fn names(list: &Value) -> Vec<&str> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|e| e["name"].as_str().expect("a name"))
        .collect()
}

/// Panics unless `text` (`what`, for the message) holds every one of
/// `needles`.
pub fn assert_contains_all(what: &str, text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "{what} lacks {needle:?}: {text}");
    }
}
