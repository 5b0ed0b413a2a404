//! `abuse`: two honest players play while one hostile address does what
//! an attacker does to a site: it opens silent sockets (an upgrade, never
//! a `hello`) until it is refused, holds slowloris HTTP connections (a
//! request whose headers never end, a byte every few seconds), and floods
//! the players' room from named sockets with voice joins, mutes and chat.
//! Honest watchers follow the game meanwhile.
//!
//! What it reports: the players' move latency, measured from the moment
//! each move was due on the schedule (a late send counts its lateness),
//! whether any honest client was disconnected, what the server did with
//! each kind of attack, and the bytes each honest watcher had to read.
//! It fails when an honest client was disconnected or a move refused.
//!
//! The attacker's sockets leave from another loopback address
//! (`--attacker`, 127.0.0.66 by default: every 127.0.0.0/8 address
//! reaches a server on 127.0.0.1), so the server's per-address limits
//! tell it from the players, as they would tell two hosts apart.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::MaybeTlsStream;

use crate::client::{spectator, Ws};
use crate::play::{due, two_players};
use crate::stats::Latency;
use crate::target::Target;

#[derive(clap::Args)]
pub struct Args {
    /// The loopback address the attacker's connections leave from.
    #[arg(long, default_value = "127.0.0.66")]
    attacker: IpAddr,
    /// Silent sockets the attacker tries to open (it stops at the first
    /// refusal).
    #[arg(long, default_value_t = 500)]
    silent: usize,
    /// Slowloris HTTP connections the attacker holds.
    #[arg(long, default_value_t = 50)]
    slowloris: usize,
    /// Named sockets of the attacker in the players' room, each joining
    /// voice and flooding mutes and chat.
    #[arg(long, default_value_t = 20)]
    flooders: usize,
    /// Honest watchers following the game (from the players' address).
    #[arg(long, default_value_t = 20)]
    watchers: usize,
    /// How long the players play under attack.
    #[arg(long, default_value_t = 20.0)]
    seconds: f64,
    /// Milliseconds between two moves of the game.
    #[arg(long, default_value_t = 50)]
    every_ms: u64,
}

pub async fn run(target: Target, args: Args) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let ws = target.ws();
    let server = server_addr(&target.base).await?;
    println!(
        "abuse: 2 players and {} watchers; the attacker ({}) tries {} silent sockets, {} slowloris connections and {} flooders, for {} s, against {}",
        args.watchers,
        args.attacker,
        args.silent,
        args.slowloris,
        args.flooders,
        args.seconds,
        target.describe()
    );
    let table = two_players(&http, &target.base, &ws, None, Value::Null).await?;
    let (code, mut players) = (table.code, table.players);
    let mut watchers = Vec::with_capacity(args.watchers);
    for _ in 0..args.watchers {
        let (socket, _) = spectator(&ws, &code).await?;
        watchers.push(watch(socket));
    }
    let run_for = Duration::from_secs_f64(args.seconds);
    let mark = target.cpu_mark();
    let until = Instant::now() + run_for;

    let silent = tokio::spawn(silent_sockets(
        args.attacker,
        server,
        ws.clone(),
        code.clone(),
        args.silent,
        until,
    ));
    let slow: Vec<_> = (0..args.slowloris)
        .map(|_| tokio::spawn(slowloris(args.attacker, server, until)))
        .collect();
    let floods: Vec<_> = (0..args.flooders)
        .map(|i| {
            let (ws, code) = (ws.clone(), code.clone());
            tokio::spawn(flood(args.attacker, server, ws, code, i, until))
        })
        .collect();

    // The game, on an open-loop schedule: move k is due at start + k·gap,
    // and its latency runs from then, so a late send counts its lateness.
    let gap = Duration::from_millis(args.every_ms.max(1));
    let mut latency = Latency::new();
    let mut late = 0u64;
    let mut games = 0u64;
    let mut due_at = Instant::now();
    let played: anyhow::Result<()> = async {
        while Instant::now() < until {
            players[0].start().await?;
            games += 1;
            let mut event = players[0].next_match().await?;
            while let Some((who, mv)) = due(&players, &event)? {
                due_at += gap;
                let now = Instant::now();
                if due_at > now {
                    tokio::time::sleep_until(due_at.into()).await;
                } else if now - due_at > gap {
                    late += 1;
                }
                players[who].play(&mv).await?;
                latency.record(due_at.elapsed());
                event = players[0].next_match().await?;
                players[1].forget();
                if Instant::now() >= until {
                    break;
                }
            }
        }
        Ok(())
    }
    .await;
    let cpu = target.cpu_line(&mark);
    let cpu_per_move = target
        .cpu_per_move_line(&mark, latency.count())
        .map(|l| format!("{l}; the attack's cost included"));

    let silent = silent.await?;
    let mut slow_closed = Latency::new();
    let (mut slow_opened, mut slow_held) = (0, 0);
    for task in slow {
        match task.await? {
            Slow::Refused => {}
            Slow::Closed(after) => {
                slow_opened += 1;
                slow_closed.record(after);
            }
            Slow::Held => {
                slow_opened += 1;
                slow_held += 1;
            }
        }
    }
    let mut flood_total = Flood::default();
    for task in floods {
        let f = task.await?;
        flood_total.joined += f.joined;
        flood_total.sent += f.sent;
        flood_total.refused += f.refused;
        flood_total.closed += f.closed;
    }
    // The watchers: every one still connected, and what it had to read.
    let mut bytes = Vec::with_capacity(watchers.len());
    let mut watchers_lost = 0;
    for w in watchers {
        let (open, read) = w.finish().await;
        if !open {
            watchers_lost += 1;
        }
        bytes.push(read);
    }
    let players_lost = usize::from(played.is_err());

    println!(
        "silent sockets: {} opened, {} closed by the server before the end ({}), then {}",
        silent.opened,
        silent.closed,
        silent.closed_after.line(),
        silent.refusal.as_deref().unwrap_or("never refused")
    );
    println!(
        "slowloris: {slow_opened} connections, {} closed by the server ({}), {slow_held} still open at the end",
        slow_closed.count(),
        slow_closed.line()
    );
    println!(
        "flood: {} of {} flooders in the room, {} messages sent, {} refused, {} flooders closed by the server",
        flood_total.joined, args.flooders, flood_total.sent, flood_total.refused, flood_total.closed
    );
    println!(
        "players: {games} games, move latency from the schedule: {}; {late} moves sent over a gap late",
        latency.line()
    );
    let total: u64 = bytes.iter().sum();
    println!(
        "watchers: {} bytes read each on average ({:.1} KiB/s)",
        total / bytes.len().max(1) as u64,
        total as f64 / bytes.len().max(1) as f64 / 1024.0 / run_for.as_secs_f64()
    );
    for line in [cpu, cpu_per_move].into_iter().flatten() {
        println!("{line}");
    }
    println!(
        "honest clients disconnected: {} of {}",
        players_lost + watchers_lost,
        2 + args.watchers
    );
    if let Err(e) = played {
        anyhow::bail!("the players were stopped: {e:#}");
    }
    if watchers_lost > 0 {
        anyhow::bail!("{watchers_lost} honest watchers were disconnected");
    }
    Ok(())
}

/// The server's socket address, from `http://host:port`.
async fn server_addr(base: &str) -> anyhow::Result<SocketAddr> {
    let host = base
        .strip_prefix("http://")
        .ok_or_else(|| anyhow::anyhow!("the target is not an http:// URL: {base}"))?;
    tokio::net::lookup_host(host)
        .await?
        .next()
        .ok_or_else(|| anyhow::anyhow!("{host} has no address"))
}

/// A TCP connection to `server` from `from`.
async fn tcp_from(from: IpAddr, server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = match from {
        IpAddr::V4(_) => TcpSocket::new_v4()?,
        IpAddr::V6(_) => TcpSocket::new_v6()?,
    };
    socket.bind(SocketAddr::new(from, 0))?;
    socket.connect(server).await
}

/// A WebSocket to room `code` from address `from`.
async fn ws_from(
    from: IpAddr,
    server: SocketAddr,
    ws_base: &str,
    code: &str,
) -> anyhow::Result<Ws> {
    let tcp = tcp_from(from, server).await?;
    let (ws, _) =
        tokio_tungstenite::client_async(format!("{ws_base}/ws/{code}"), MaybeTlsStream::Plain(tcp))
            .await?;
    Ok(ws)
}

struct Silent {
    opened: usize,
    /// The first refusal, as the tool saw it.
    refusal: Option<String>,
    /// Sockets the server closed before the end of the run, and when.
    closed: usize,
    closed_after: Latency,
}

/// Opens sockets that never say hello, up to `n` or the first refusal,
/// and holds them to the end (or until the server closes them).
async fn silent_sockets(
    from: IpAddr,
    server: SocketAddr,
    ws_base: String,
    code: String,
    n: usize,
    until: Instant,
) -> Silent {
    let mut held = Vec::new();
    let mut refusal = None;
    for i in 0..n {
        if Instant::now() >= until {
            break;
        }
        match ws_from(from, server, &ws_base, &code).await {
            Ok(ws) => {
                let opened = Instant::now();
                held.push(tokio::spawn(async move {
                    let mut ws = ws;
                    // Reads what comes (nothing, or the close) until the end.
                    let end = tokio::time::sleep_until(until.into());
                    tokio::pin!(end);
                    loop {
                        tokio::select! {
                            _ = &mut end => return None,
                            frame = ws.next() => match frame {
                                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => {
                                    return Some(opened.elapsed())
                                }
                                Some(Ok(_)) => {}
                            },
                        }
                    }
                }));
            }
            Err(e) => {
                refusal = Some(format!("refused at socket {}: {e}", i + 1));
                break;
            }
        }
    }
    let opened = held.len();
    let mut closed_after = Latency::new();
    for task in held {
        if let Ok(Some(after)) = task.await {
            closed_after.record(after);
        }
    }
    Silent {
        opened,
        refusal,
        closed: closed_after.count() as usize,
        closed_after,
    }
}

enum Slow {
    Refused,
    /// The server closed the connection after this long.
    Closed(Duration),
    /// Still open at the end of the run.
    Held,
}

/// A request whose headers never end: the request line, then one header
/// line every 2 s, until the server closes the connection or the run
/// ends.
async fn slowloris(from: IpAddr, server: SocketAddr, until: Instant) -> Slow {
    let Ok(mut tcp) = tcp_from(from, server).await else {
        return Slow::Refused;
    };
    let opened = Instant::now();
    if tcp
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .is_err()
    {
        return Slow::Closed(opened.elapsed());
    }
    let mut buf = [0u8; 512];
    let mut n = 0u64;
    loop {
        let next = Instant::now() + Duration::from_secs(2);
        if next >= until {
            // Wait for the end, still watching for a close.
            let left = until.saturating_duration_since(Instant::now());
            return match tokio::time::timeout(left, tcp.read(&mut buf)).await {
                Ok(Ok(_)) | Ok(Err(_)) => Slow::Closed(opened.elapsed()),
                Err(_) => Slow::Held,
            };
        }
        // The server closes, or answers (a timeout's 408) and closes.
        if let Ok(read) = tokio::time::timeout_at(next.into(), tcp.read(&mut buf)).await {
            let _ = read;
            return Slow::Closed(opened.elapsed());
        }
        n += 1;
        if tcp
            .write_all(format!("X-Slow-{n}: a\r\n").as_bytes())
            .await
            .is_err()
        {
            return Slow::Closed(opened.elapsed());
        }
    }
}

#[derive(Default)]
struct Flood {
    joined: usize,
    sent: u64,
    refused: u64,
    closed: usize,
}

/// A named socket of the attacker's in the room: joins voice, then sends
/// mute, unmute and chat as fast as the socket takes them, reading (and
/// counting the refusals of) what comes back, until the run ends.
async fn flood(
    from: IpAddr,
    server: SocketAddr,
    ws_base: String,
    code: String,
    i: usize,
    until: Instant,
) -> Flood {
    let mut flood = Flood::default();
    let Ok(ws) = ws_from(from, server, &ws_base, &code).await else {
        return flood;
    };
    let (mut sink, mut stream) = ws.split();
    let refused = Arc::new(AtomicU64::new(0));
    let joined = Arc::new(AtomicUsize::new(0));
    let reader = {
        let (refused, joined) = (refused.clone(), joined.clone());
        tokio::spawn(async move {
            while let Some(Ok(frame)) = stream.next().await {
                let Message::Text(text) = frame else {
                    continue;
                };
                let Ok(msg) = serde_json::from_str::<Value>(text.as_str()) else {
                    continue;
                };
                match msg["type"].as_str() {
                    Some("ack") if msg["id"] == 1 => joined.store(1, Ordering::Relaxed),
                    Some("error") => {
                        refused.fetch_add(1, Ordering::Relaxed);
                    }
                    _ => {}
                }
            }
            // The stream ended: closed by the server, unless the run did.
            Instant::now() < until
        })
    };
    let mut id = 1;
    let mut send = |command: Value| {
        let mut command = command;
        command["id"] = json!(id);
        id += 1;
        Message::Text(command.to_string().into())
    };
    let first = [
        send(json!({"type": "hello", "name": format!("flood{i}")})),
        send(json!({"type": "voice", "join": true})),
    ];
    for frame in first {
        if sink.send(frame).await.is_err() {
            return flood;
        }
    }
    flood.sent = 2;
    let mut k = 0u64;
    while Instant::now() < until {
        k += 1;
        let command = match k % 3 {
            0 => json!({"type": "chat", "text": format!("spam {k}")}),
            1 => json!({"type": "mute", "muted": true}),
            _ => json!({"type": "mute", "muted": false}),
        };
        let left = until.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, sink.send(send(command))).await {
            Ok(Ok(())) => flood.sent += 1,
            Ok(Err(_)) => break,
            Err(_) => break,
        }
        // One frame a millisecond at most: the flood is bounded.
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let _ = sink.close().await;
    let closed_early = tokio::time::timeout(Duration::from_secs(5), reader)
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or(false);
    flood.joined = joined.load(Ordering::Relaxed);
    flood.refused = refused.load(Ordering::Relaxed);
    flood.closed = usize::from(closed_early);
    flood
}

/// An honest watcher's reader: counts the bytes it reads and whether the
/// server closed it.
struct Watch {
    read: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<bool>,
}

impl Watch {
    /// Whether the watcher is still connected, and what it read.
    async fn finish(self) -> (bool, u64) {
        let open = !self.task.is_finished();
        self.task.abort();
        (open, self.read.load(Ordering::Relaxed))
    }
}

fn watch(mut socket: Ws) -> Watch {
    let read = Arc::new(AtomicU64::new(0));
    let counter = read.clone();
    let task = tokio::spawn(async move {
        while let Some(Ok(frame)) = socket.next().await {
            counter.fetch_add(frame.len() as u64, Ordering::Relaxed);
        }
        false
    });
    Watch { read, task }
}
