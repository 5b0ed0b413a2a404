//! Load generator: many rooms, two players each, playing CrossyRay moves as
//! fast as the server acknowledges them. Prints throughput and move
//! latency percentiles (send → ack).
//!
//! ```text
//! cargo run --release -p server --example load -- --rooms 200 --games 3
//! cargo run --release -p server --example load -- --url http://127.0.0.1:8080 --rooms 50
//! cargo run --release -p server --example load -- --url http://127.0.0.1:8081 \
//!     --peer http://127.0.0.1:8082 --rooms 50
//! ```
//!
//! With `--peer` (another node of the same cluster), each room is created
//! on `--url` with its first player there, and its second player joins
//! through the peer, so every move crosses nodes.
//!
//! Without `--url` it starts a server in-process on an ephemeral port with
//! a temporary database (the clients then share the process's cores).
//! Traffic only ever goes to the given URL, which should be on this
//! machine; every loop is bounded by `--rooms` × `--games`.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rules::cli::Flags;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags = Flags::parse(&args).map_err(anyhow::Error::msg)?;
    flags
        .only(&["url", "peer", "rooms", "games"])
        .map_err(anyhow::Error::msg)?;
    let rooms: usize = flags.get_or("rooms", 100).map_err(anyhow::Error::msg)?;
    let games: usize = flags.get_or("games", 2).map_err(anyhow::Error::msg)?;

    let _dir;
    let _running;
    let base = match flags.get("url") {
        Some(url) => url.trim_end_matches('/').to_string(),
        None => {
            let dir = tempfile::tempdir()?;
            let mut config = server::Config::for_tests(dir.path().to_path_buf());
            config.abandon_secs = 3600;
            let running = server::start(config).await?;
            let base = format!("http://{}", running.addr);
            _dir = dir;
            _running = running;
            base
        }
    };

    let peer = flags
        .get("peer")
        .map(|url| url.trim_end_matches('/').to_string())
        .unwrap_or_else(|| base.clone());
    eprintln!("load: {rooms} rooms × {games} games against {base} (second players on {peer})");
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..rooms {
        let bases = [base.clone(), peer.clone()];
        tasks.push(tokio::spawn(async move { play_room(&bases, games).await }));
    }
    let mut latencies = Vec::new();
    let mut failures = 0;
    for task in tasks {
        match task.await? {
            Ok(mut l) => latencies.append(&mut l),
            Err(e) => {
                failures += 1;
                eprintln!("room failed: {e:#}");
            }
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map(|d: &Duration| d.as_secs_f64() * 1000.0)
            .unwrap_or(0.0)
    };
    println!("rooms: {rooms}, games per room: {games}, failed rooms: {failures}");
    println!(
        "moves: {} in {elapsed:.2} s = {:.0} moves/s",
        latencies.len(),
        latencies.len() as f64 / elapsed
    );
    println!(
        "move latency (send → ack) ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
        pct(0.50),
        pct(0.90),
        pct(0.99),
        pct(1.0)
    );
    Ok(())
}

/// One room: create (on `bases[0]`), two players sit (the first through
/// `bases[0]`, the second through `bases[1]`), the host starts `games`
/// games in a row and both play the first legal move until each game ends.
async fn play_room(bases: &[String; 2], games: usize) -> anyhow::Result<Vec<Duration>> {
    let base = &bases[0];
    let room: Value = reqwest::Client::new()
        .post(format!("{base}/api/rooms"))
        .json(&json!({"game": "crossyray"}))
        .send()
        .await?
        .json()
        .await?;
    let code = room["code"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("no code: {room}"))?;
    let token = room["token"].as_str().unwrap_or_default();
    let mut players = Vec::new();
    for (i, name) in ["A", "B"].iter().enumerate() {
        let ws = bases[i].replace("http://", "ws://");
        let (socket, _) =
            tokio_tungstenite::connect_async_with_config(format!("{ws}/ws/{code}"), None, true)
                .await?;
        let mut p = Player {
            ws: socket,
            next_id: 1,
            member: String::new(),
            pending: Default::default(),
        };
        let hello = if i == 0 {
            json!({"type": "hello", "token": token, "name": name})
        } else {
            json!({"type": "hello", "name": name})
        };
        let ack = p.command(hello).await?;
        p.member = ack["member"].as_str().unwrap_or_default().to_string();
        p.command(json!({"type": "sit", "seat": i})).await?;
        players.push(p);
    }
    let mut latencies = Vec::new();
    for _ in 0..games {
        players[0].command(json!({"type": "start"})).await?;
        let mut state = players[0].next_match().await?;
        loop {
            let m = &state["match"];
            if !m["outcome"].is_null() {
                break;
            }
            let side = m["state"]["to_move"].as_u64().unwrap_or(0) as usize;
            let member = m["players"][side]["member"].as_str().unwrap_or_default();
            let mv = m["legal"][0].as_str().unwrap_or_default().to_string();
            let who = players.iter().position(|p| p.member == member).unwrap_or(0);
            let sent = Instant::now();
            let answer = players[who]
                .command(json!({"type": "move", "move": mv}))
                .await?;
            latencies.push(sent.elapsed());
            if answer["type"] != "ack" {
                anyhow::bail!("move refused: {answer}");
            }
            state = players[0].next_match().await?;
        }
    }
    Ok(latencies)
}

struct Player {
    ws: Ws,
    next_id: i64,
    member: String,
    /// Events read while waiting for an answer, oldest first.
    pending: std::collections::VecDeque<Value>,
}

impl Player {
    async fn recv(&mut self) -> anyhow::Result<Value> {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(30), self.ws.next())
                .await?
                .ok_or_else(|| anyhow::anyhow!("socket closed"))??;
            if let Message::Text(text) = msg {
                return Ok(serde_json::from_str(text.as_str())?);
            }
        }
    }

    /// Sends `command` and returns its answer. A player may send 20
    /// commands a second (bursts of 40); this one plays instantly, so when
    /// the server says `rate_limited` it waits and sends again.
    async fn command(&mut self, command: Value) -> anyhow::Result<Value> {
        loop {
            let answer = self.command_once(command.clone()).await?;
            if answer["code"] != "rate_limited" {
                return Ok(answer);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn command_once(&mut self, mut command: Value) -> anyhow::Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        command["id"] = json!(id);
        self.ws
            .send(Message::Text(command.to_string().into()))
            .await?;
        loop {
            let msg = self.recv().await?;
            if matches!(msg["type"].as_str(), Some("ack" | "error")) && msg["id"] == json!(id) {
                return Ok(msg);
            }
            self.pending.push_back(msg);
        }
    }

    /// The next `match` event for this player (start or move).
    async fn next_match(&mut self) -> anyhow::Result<Value> {
        while let Some(msg) = self.pending.pop_front() {
            if msg["type"] == "match" {
                return Ok(msg);
            }
        }
        loop {
            let msg = self.recv().await?;
            if msg["type"] == "match" {
                return Ok(msg);
            }
        }
    }
}
