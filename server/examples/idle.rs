//! Memory per socket: opens many idle WebSockets (spectators that said
//! `hello` and read their snapshot) over a number of rooms, and prints the
//! server's resident memory (VmRSS of `--pid`) before and after, per
//! socket.
//!
//! ```text
//! target/release/server --addr 127.0.0.1:8098 --data-dir /tmp/idle --room-burst 0 --guest-hosts &
//! target/release/examples/idle --url http://127.0.0.1:8098 --pid $! --rooms 100 --sockets 10000
//! ```
//!
//! Traffic only goes to `--url`, which should be on this machine (the
//! server's memory is read from `/proc`).

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rules::cli::Flags;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Sockets opening at once.
const AT_ONCE: usize = 100;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags = Flags::parse(&args).map_err(anyhow::Error::msg)?;
    flags
        .only(&["url", "pid", "rooms", "sockets", "hold"])
        .map_err(anyhow::Error::msg)?;
    let base = flags
        .get("url")
        .ok_or_else(|| anyhow::anyhow!("--url is needed"))?
        .trim_end_matches('/')
        .to_string();
    let pid: u32 = flags
        .get("pid")
        .ok_or_else(|| anyhow::anyhow!("--pid (the server's) is needed"))?
        .parse()?;
    let rooms: usize = flags.get_or("rooms", 100).map_err(anyhow::Error::msg)?;
    let sockets: usize = flags
        .get_or("sockets", 10_000)
        .map_err(anyhow::Error::msg)?;
    let hold: u64 = flags.get_or("hold", 0).map_err(anyhow::Error::msg)?;

    let http = reqwest::Client::new();
    let mut codes = Vec::new();
    for _ in 0..rooms {
        let room: Value = http
            .post(format!("{base}/api/rooms"))
            .json(&json!({"game": "crossyray"}))
            .send()
            .await?
            .json()
            .await?;
        let code = room["code"]
            .as_str()
            .ok_or_else(|| anyhow::anyhow!("no room: {room}"))?;
        codes.push(code.to_string());
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = rss_kib(pid)?;
    eprintln!("idle: {rooms} rooms, server RSS {before} KiB; opening {sockets} sockets");

    let started = Instant::now();
    let ws_base = base.replace("http://", "ws://");
    let mut open: Vec<Ws> = Vec::with_capacity(sockets);
    let mut next = 0;
    while next < sockets {
        let batch: Vec<_> = (next..(next + AT_ONCE).min(sockets))
            .map(|i| {
                let url = format!("{ws_base}/ws/{}", codes[i % codes.len()]);
                tokio::spawn(async move { join(&url).await })
            })
            .collect();
        next += batch.len();
        for task in batch {
            open.push(task.await??);
        }
    }
    let joined = started.elapsed();
    // Let the members events of the last joins go out and settle.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss_kib(pid)?;
    println!(
        "sockets: {} in {:.1} s ({:.0} joins/s)",
        open.len(),
        joined.as_secs_f64(),
        open.len() as f64 / joined.as_secs_f64()
    );
    println!(
        "server RSS: {before} KiB before, {after} KiB after: {:.1} KiB per socket",
        after.saturating_sub(before) as f64 / open.len().max(1) as f64
    );
    if hold > 0 {
        tokio::time::sleep(Duration::from_secs(hold)).await;
    }
    for mut ws in open {
        let _ = ws.close(None).await;
    }
    Ok(())
}

/// One spectator: `hello`, then its ack and snapshot read.
async fn join(url: &str) -> anyhow::Result<Ws> {
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await?;
    ws.send(Message::Text(
        json!({"id": 1, "type": "hello"}).to_string().into(),
    ))
    .await?;
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(text))) => {
                let msg: Value = serde_json::from_str(text.as_str())?;
                if msg["type"] == "snapshot" {
                    return Ok(ws);
                }
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.into()),
            None => anyhow::bail!("closed before the snapshot"),
        }
    }
}

/// The resident memory of process `pid`, in KiB.
fn rss_kib(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| anyhow::anyhow!("no VmRSS for {pid}"))
}
