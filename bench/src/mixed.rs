//! `mixed`: a realistic mix. Many live games, each player moving a few
//! seconds after the other (uniformly between `--min-gap` and
//! `--max-gap`), spectators spread over the rooms reading everything, for
//! `--seconds`. Reports move latency and the server's CPU and memory.

use std::time::{Duration, Instant};

use crate::client::{open_spectators, play_game, two_players, Player};
use crate::stats::{gather, Latency};
use crate::target::Target;
use rand::RngExt;

#[derive(clap::Args)]
pub struct Args {
    /// Live games (rooms of two players).
    #[arg(long, default_value_t = 5_000)]
    games: usize,
    /// Sockets in all: two per game, the rest spectators spread over the
    /// rooms.
    #[arg(long, default_value_t = 10_000)]
    sockets: usize,
    /// How long the games go on.
    #[arg(long, default_value_t = 300)]
    seconds: u64,
    /// Shortest and longest think before a move, in seconds.
    #[arg(long, default_value_t = 2.0)]
    min_gap: f64,
    #[arg(long, default_value_t = 10.0)]
    max_gap: f64,
    /// Rooms being set up at once.
    #[arg(long, default_value_t = 50)]
    at_once: usize,
}

pub async fn run(target: Target, args: Args) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let ws = target.ws();
    let watchers = args.sockets.saturating_sub(2 * args.games);
    println!(
        "mixed: {} games, {} spectators, a move every {}-{} s per game, {} s, against {}",
        args.games,
        watchers,
        args.min_gap,
        args.max_gap,
        args.seconds,
        target.describe()
    );
    let setup = Instant::now();
    let mut tables = Vec::with_capacity(args.games);
    while tables.len() < args.games {
        let n = args.at_once.max(1).min(args.games - tables.len());
        let batch: Vec<_> = (0..n)
            .map(|_| {
                let (http, base, ws) = (http.clone(), target.base.clone(), ws.clone());
                tokio::spawn(async move {
                    two_players(&http, &base, &ws, None, serde_json::Value::Null).await
                })
            })
            .collect();
        for task in batch {
            tables.push(task.await??);
        }
    }
    let codes: Vec<String> = tables.iter().map(|(code, _)| code.clone()).collect();
    let readers: Vec<_> = open_spectators(&target, &codes, watchers, args.at_once)
        .await?
        .into_iter()
        .map(crate::client::drain)
        .collect();
    println!(
        "set up in {:.1} s; server RSS {} KiB",
        setup.elapsed().as_secs_f64(),
        target.rss_kib().unwrap_or(0)
    );

    let cpu = target.cpu_mark();
    let began = Instant::now();
    let until = began + Duration::from_secs(args.seconds);
    let gaps = (args.min_gap, args.max_gap.max(args.min_gap));
    let tasks: Vec<_> = tables
        .into_iter()
        .map(|(_, players)| tokio::spawn(play(players, until, gaps)))
        .collect();
    let (rooms, failures) = gather(tasks).await?;
    // The rate over the time the games took, not the time asked for (the
    // last moves may be answered after it).
    let elapsed = began.elapsed().as_secs_f64();
    let mut latency = Latency::new();
    for room in &rooms {
        latency.add(room);
    }
    let moves = latency.count();
    println!(
        "moves: {moves} in {elapsed:.1} s ({} s asked) = {:.0} moves/s; failed games: {failures}",
        args.seconds,
        moves as f64 / elapsed.max(0.001)
    );
    println!("move latency (send → ack): {}", latency.line());
    if let Some(line) = target.cpu_line(&cpu) {
        println!("{line}");
    }
    println!("server RSS: {} KiB", target.rss_kib().unwrap_or(0));
    for reader in readers {
        reader.abort();
    }
    if failures > 0 {
        anyhow::bail!("{failures} games failed");
    }
    Ok(())
}

/// One room's games until `until`, each move after a random think.
async fn play(
    mut players: [Player; 2],
    until: Instant,
    gaps: (f64, f64),
) -> anyhow::Result<Latency> {
    let mut latency = Latency::new();
    // Rooms start at different moments, as people do.
    let first = rand::rng().random_range(0.0..=gaps.1);
    tokio::time::sleep(Duration::from_secs_f64(first)).await;
    let think = || {
        let wait = Duration::from_secs_f64(rand::rng().random_range(gaps.0..=gaps.1));
        (Instant::now() + wait < until).then_some(wait)
    };
    let mut made = |_, took| latency.record(took);
    while Instant::now() < until && play_game(&mut players, &mut made, think).await? {}
    Ok(latency)
}
