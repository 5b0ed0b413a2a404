//! The clients the scenarios drive: a player that sends commands and
//! waits for their answers, and a spectator that said hello.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::target::Target;

use futures_util::{SinkExt, StreamExt};
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};
use server::room::MatchKind;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Creates a room of `game` with `options` (`null`: the defaults); its
/// code and the host's token.
pub async fn create_room(
    http: &reqwest::Client,
    base: &str,
    game: &str,
    options: Value,
) -> anyhow::Result<(String, String)> {
    let room: Value = http
        .post(format!("{base}/api/rooms"))
        .json(&json!({"game": game, "options": options}))
        .send()
        .await?
        .json()
        .await?;
    let code = room["code"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("no room: {room}"))?;
    let token = room["token"].as_str().unwrap_or_default();
    Ok((code.to_string(), token.to_string()))
}

pub async fn connect(ws_base: &str, code: &str) -> anyhow::Result<Ws> {
    // Buffers sized to the site's messages (the library's default is
    // 128 KiB each way a socket), so ten thousand watchers fit in cache
    // and memory and the tool measures the server, not its own page
    // faults.
    let config = WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0);
    let (ws, _) = tokio_tungstenite::connect_async_with_config(
        format!("{ws_base}/ws/{code}"),
        Some(config),
        true,
    )
    .await?;
    Ok(ws)
}

/// A spectator: `hello` with no name, then its ack and snapshot read.
/// Returns the socket and the snapshot's size in bytes.
pub async fn spectator(ws_base: &str, code: &str) -> anyhow::Result<(Ws, usize)> {
    let mut ws = connect(ws_base, code).await?;
    ws.send(Message::Text(
        json!({"id": 1, "type": "hello"}).to_string().into(),
    ))
    .await?;
    loop {
        match tokio::time::timeout(Duration::from_secs(60), ws.next()).await? {
            Some(Ok(Message::Text(text))) => {
                if kind_of(text.as_str()).as_deref() == Some("snapshot") {
                    return Ok((ws, text.len()));
                }
                let msg: Value = serde_json::from_str(text.as_str())?;
                if msg["type"] == "error" {
                    anyhow::bail!("hello refused: {msg}");
                }
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.into()),
            None => anyhow::bail!("closed before the snapshot"),
        }
    }
}

pub struct Player {
    pub ws: Ws,
    next_id: i64,
    pub member: String,
    /// `match` events read while waiting for an answer, oldest first,
    /// as they came: only the ones the game is followed by are parsed.
    pending: VecDeque<Utf8Bytes>,
}

/// A frame's `type`, read by serde with the rest of the frame skipped
/// unbuilt.
fn kind_of(text: &str) -> Option<Cow<'_, str>> {
    #[derive(Deserialize)]
    struct Head<'a> {
        #[serde(rename = "type", borrow)]
        kind: Cow<'a, str>,
    }
    serde_json::from_str::<Head>(text).ok().map(|h| h.kind)
}

/// Whether `text` is a `match` event for a move (the only frame with a
/// `match` and a [`MatchKind`] at its top). Read in one scan, the match
/// skipped unbuilt: ten thousand watchers read every move, and building
/// each event (`server::room::WireEvent`) would measure the tool.
pub fn is_move(text: &str) -> bool {
    #[derive(Deserialize)]
    struct MatchHead {
        #[serde(rename = "match")]
        _body: IgnoredAny,
        kind: MatchKind,
    }
    serde_json::from_str::<MatchHead>(text).is_ok_and(|m| m.kind == MatchKind::Move)
}

/// What the players read of a `match` event: who is due and the first
/// legal move, or that the game is over. The rest of the event (the
/// state, the clocks) is skipped without being built.
#[derive(Debug)]
pub struct MatchView {
    pub to_play: Option<String>,
    pub first_legal: Option<String>,
    pub over: bool,
}

impl MatchView {
    fn parse(text: &str) -> anyhow::Result<MatchView> {
        #[derive(Deserialize)]
        struct Event<'a> {
            #[serde(rename = "match", borrow)]
            m: Lean<'a>,
        }
        #[derive(Deserialize)]
        struct Lean<'a> {
            #[serde(borrow)]
            to_play: Option<Cow<'a, str>>,
            #[serde(default, borrow)]
            legal: Vec<Cow<'a, str>>,
            outcome: Option<IgnoredAny>,
        }
        let e: Event = serde_json::from_str(text)?;
        Ok(MatchView {
            to_play: e.m.to_play.map(Cow::into_owned),
            first_legal: e.m.legal.into_iter().next().map(Cow::into_owned),
            over: e.m.outcome.is_some(),
        })
    }
}

impl Player {
    /// Connects and says hello (with the host's token for the host).
    pub async fn join(
        ws_base: &str,
        code: &str,
        token: Option<&str>,
        name: &str,
    ) -> anyhow::Result<Player> {
        let mut p = Player {
            ws: connect(ws_base, code).await?,
            next_id: 1,
            member: String::new(),
            pending: VecDeque::new(),
        };
        let ack = p
            .command(json!({"type": "hello", "token": token, "name": name}))
            .await?;
        p.member = ack["member"].as_str().unwrap_or_default().to_string();
        Ok(p)
    }

    async fn recv(&mut self) -> anyhow::Result<Utf8Bytes> {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(60), self.ws.next())
                .await?
                .ok_or_else(|| anyhow::anyhow!("socket closed"))??;
            if let Message::Text(text) = msg {
                return Ok(text);
            }
        }
    }

    /// Sends `command` and returns its answer. A player may send 20
    /// commands a second (bursts of 40) unless the server lifts the
    /// limit; one that plays instantly waits and sends again when the
    /// server says `rate_limited`.
    pub async fn command(&mut self, command: Value) -> anyhow::Result<Value> {
        loop {
            let answer = self.command_once(command.clone()).await?;
            if answer["code"] != "rate_limited" {
                return Ok(answer);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Starts a game (the host); how long its ack took. A refusal is an
    /// error.
    pub async fn start(&mut self) -> anyhow::Result<Duration> {
        let sent = Instant::now();
        let answer = self.command(json!({"type": "start"})).await?;
        anyhow::ensure!(answer["type"] == "ack", "start refused: {answer}");
        Ok(sent.elapsed())
    }

    /// Plays `mv`; `Ok(())` once it is acknowledged.
    pub async fn play(&mut self, mv: &str) -> anyhow::Result<()> {
        let answer = self.command(json!({"type": "move", "move": mv})).await?;
        if answer["type"] != "ack" {
            anyhow::bail!("move refused: {answer}");
        }
        Ok(())
    }

    async fn command_once(&mut self, mut command: Value) -> anyhow::Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        command["id"] = json!(id);
        self.ws
            .send(Message::Text(command.to_string().into()))
            .await?;
        loop {
            let text = self.recv().await?;
            match kind_of(text.as_str()).as_deref() {
                // Answers are small: read whole.
                Some("ack" | "error") => {
                    let msg: Value = serde_json::from_str(text.as_str())?;
                    if msg["id"] == json!(id) {
                        return Ok(msg);
                    }
                }
                Some("match") => self.pending.push_back(text),
                _ => {}
            }
        }
    }

    /// The next `match` event for this player (start or move).
    pub async fn next_match(&mut self) -> anyhow::Result<MatchView> {
        if let Some(text) = self.pending.pop_front() {
            return MatchView::parse(text.as_str());
        }
        loop {
            let text = self.recv().await?;
            if kind_of(text.as_str()).as_deref() == Some("match") {
                return MatchView::parse(text.as_str());
            }
        }
    }

    /// Forgets the match events read so far (the other player follows
    /// the game).
    pub fn forget(&mut self) {
        self.pending.clear();
    }
}

/// Opens `n` spectators over `codes` (round robin), `at_once` at a time,
/// and prints the join rate and the server's memory per socket. Returns
/// the sockets.
pub async fn open_spectators(
    target: &Target,
    codes: &[String],
    n: usize,
    at_once: usize,
) -> anyhow::Result<Vec<Ws>> {
    let before = target.rss_kib();
    let started = Instant::now();
    let ws = target.ws();
    let mut open = Vec::with_capacity(n);
    let mut largest_snapshot = 0;
    while open.len() < n {
        let batch: Vec<_> = (open.len()..(open.len() + at_once.max(1)).min(n))
            .map(|i| {
                let (ws, code) = (ws.clone(), codes[i % codes.len()].clone());
                tokio::spawn(async move { spectator(&ws, &code).await })
            })
            .collect();
        for task in batch {
            let (socket, snapshot) = task.await??;
            largest_snapshot = largest_snapshot.max(snapshot);
            open.push(socket);
        }
    }
    let joined = started.elapsed().as_secs_f64();
    // Let the last presence events go out and settle.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = target.rss_kib();
    println!(
        "joined: {} sockets in {joined:.2} s = {:.0} joins/s (largest snapshot {largest_snapshot} bytes)",
        open.len(),
        open.len() as f64 / joined
    );
    if let (Some(before), Some(after)) = (before, after) {
        println!(
            "server RSS: {before} KiB before, {after} KiB after: {:.1} KiB per socket",
            after.saturating_sub(before) as f64 / open.len().max(1) as f64
        );
    }
    Ok(open)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_told_from_other_frames() {
        let moved =
            r#"{"type":"match","v":9,"table":"t","kind":"move","move":"e5","match":{"ply":1}}"#;
        assert!(is_move(moved));
        let started = r#"{"type":"match","v":8,"table":"t","kind":"start","match":{}}"#;
        assert!(!is_move(started));
        let draw = r#"{"type":"draw","v":10,"table":"t","kind":"offer","side":0,"member":"m1"}"#;
        assert!(!is_move(draw));
        assert_eq!(kind_of(draw).as_deref(), Some("draw"));
        assert_eq!(kind_of("[1]"), None);
    }
}
