//! `big-room`: one room, S spectators and 2 players. How fast the
//! spectators join, the server's memory per socket, and how long each
//! move takes to reach every spectator (from the moment the move was due
//! on the players' open-loop schedule, a move every `--every-ms`, to the
//! moment each spectator has read its event), and how long the player
//! who is to move next waits for it.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio_tungstenite::tungstenite::Message;

use crate::client::{open_spectators, Ws};
use crate::play::{due, sits, two_players, RoomRun};
use crate::report::print_rooms;
use crate::schedule::{at_due, Schedule};
use crate::stats::{Latency, Timeline};
use crate::target::Target;

#[derive(clap::Args)]
pub struct Args {
    /// Spectators in the room.
    #[arg(long, default_value_t = 2_000)]
    spectators: usize,
    /// Spectators joining at once.
    #[arg(long, default_value_t = 100)]
    at_once: usize,
    /// Moves the players make while everyone watches.
    #[arg(long, default_value_t = 20)]
    moves: usize,
    /// Milliseconds between moves (move k is due k of them after the
    /// first game started).
    #[arg(long, default_value_t = 200)]
    every_ms: u64,
}

pub async fn run(target: Target, args: Args) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let ws = target.ws();
    let table = two_players(&http, &target.base, &ws, None, serde_json::Value::Null).await?;
    let sat = sits(std::slice::from_ref(&table));
    let (code, mut players) = (table.code, table.players);
    println!(
        "big-room: {} spectators and 2 players in room {code} against {}",
        args.spectators,
        target.describe()
    );
    let watching = open_spectators(
        &target,
        std::slice::from_ref(&code),
        args.spectators,
        args.at_once,
    )
    .await?;

    // Each spectator reads everything and times the k-th move event
    // against the moment the k-th move was due.
    let sent: Arc<Mutex<Vec<Instant>>> = Arc::default();
    let readers: Vec<_> = watching
        .into_iter()
        .map(|socket| tokio::spawn(watch(socket, sent.clone(), args.moves)))
        .collect();

    // The moves on an open-loop schedule: move k is due k gaps after the
    // first game started, whatever the latency.
    let cpu = target.cpu_mark();
    let mut timeline = Timeline::default();
    let mut opponent = Latency::new();
    timeline.starts.push(players[0].start().await?);
    let mut event = players[0].next_match().await?;
    let mut schedule = Schedule::every(
        Duration::from_millis(args.every_ms),
        Instant::now() + Duration::from_millis(args.every_ms),
    );
    while timeline.moves.len() < args.moves {
        let Some((who, mv)) = due(&players, &event)? else {
            // The game ended: the next one.
            timeline.starts.push(players[0].start().await?);
            event = players[0].next_match().await?;
            continue;
        };
        let at = schedule.next_due();
        sent.lock().unwrap().push(at);
        if who == 1 {
            // The first player reads the second's move while it is
            // played: the opponent's copy, due → read.
            let (first, second) = players.split_at_mut(1);
            let read = async {
                let seen = first[0].next_match().await;
                (seen, at.elapsed())
            };
            let (played, (seen, took)) = tokio::join!(at_due(at, second[0].play(&mv)), read);
            timeline.record(played?);
            opponent.record(took);
            event = seen?;
        } else {
            timeline.record(at_due(at, players[who].play(&mv)).await?);
            event = players[0].next_match().await?;
        }
        players[1].forget();
    }
    let mut runs = [RoomRun::new(code, timeline, Ok(()), None)];

    let mut latency = Latency::new();
    let mut per_move: Vec<Latency> = (0..args.moves).map(|_| Latency::new()).collect();
    let mut short = 0;
    // Every watcher stays connected until all have seen every move: one
    // that left as soon as it was done would make the others' last move
    // wait behind its close.
    let mut open = Vec::new();
    for reader in readers {
        match tokio::time::timeout(Duration::from_secs(60), reader).await {
            Ok(Ok(Ok((seen, socket)))) => {
                open.push(socket);
                for (i, d) in seen.into_iter().enumerate() {
                    latency.record(d);
                    per_move[i].record(d);
                }
            }
            _ => short += 1,
        }
    }
    for (i, l) in per_move.iter().enumerate() {
        println!("  move {:>2}: {}", i + 1, l.line());
    }
    println!(
        "move fan-out (due → read by each spectator): {}",
        latency.line()
    );
    println!(
        "the opponent's copy (due → read by the first player, the second player's moves): {}",
        opponent.line()
    );
    let summary = print_rooms(&mut runs, &sat, true, Instant::now(), None);
    if let Some(line) = target.cpu_per_move_line(&cpu, summary.moves) {
        println!("{line} (the fan-out to every spectator included)");
    }
    if short > 0 {
        anyhow::bail!("{short} spectators did not see every move");
    }
    Ok(())
}

/// Reads `moves` move events; returns how long each took to arrive (a
/// plain list, merged into one histogram at the end: a histogram per
/// watcher would be ten thousand of them, out of cache), and the socket.
async fn watch(
    mut socket: Ws,
    sent: Arc<Mutex<Vec<Instant>>>,
    moves: usize,
) -> anyhow::Result<(Vec<Duration>, Ws)> {
    let mut latency = Vec::with_capacity(moves);
    let mut seen = 0;
    while seen < moves {
        let Some(frame) = socket.next().await else {
            anyhow::bail!("closed after {seen} moves");
        };
        let Message::Text(text) = frame? else {
            continue;
        };
        let text = text.as_str();
        if crate::client::is_move(text) {
            let at = sent.lock().unwrap().get(seen).copied();
            if let Some(at) = at {
                latency.push(at.elapsed());
            }
            seen += 1;
        }
    }
    Ok((latency, socket))
}
