//! `mixed`: a realistic mix. Many live games, each player moving a few
//! seconds after the other (uniformly between `--min-gap` and
//! `--max-gap`), spectators spread over the rooms reading everything, for
//! `--seconds`. The moves are on an open-loop schedule (each due a random
//! gap after the one before, latency from the due time). Reports move
//! latency and the server's CPU and memory, and checks that every
//! spectator saw every move of its room.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use rand::RngExt;
use tokio_tungstenite::tungstenite::Message;

use crate::client::{is_move, open_spectators, Player, Ws};
use crate::play::{gather, play_game, sits, two_players, RoomRun, Table};
use crate::report::print_rooms;
use crate::schedule::Schedule;
use crate::stats::Timeline;
use crate::target::Target;

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
    let sat = sits(&tables);
    let codes: Vec<String> = tables.iter().map(|t| t.code.clone()).collect();
    // Spectator i watches room i % games (`open_spectators`' round robin).
    let readers: Vec<_> = open_spectators(&target, &codes, watchers, args.at_once)
        .await?
        .into_iter()
        .map(count_moves)
        .collect();
    println!(
        "set up in {:.1} s; server RSS {} KiB",
        setup.elapsed().as_secs_f64(),
        target.rss_kib().unwrap_or(0)
    );

    let cpu = target.cpu_mark();
    let began = Instant::now();
    let until = began + Duration::from_secs(args.seconds);
    let gaps = (
        Duration::from_secs_f64(args.min_gap.max(0.0)),
        Duration::from_secs_f64(args.max_gap.max(args.min_gap).max(0.0)),
    );
    let tasks: Vec<_> = tables
        .into_iter()
        .map(|table| tokio::spawn(play(table, until, gaps)))
        .collect();
    let mut runs = gather(tasks).await?;
    // The rate over the time the games took, not the time asked for (the
    // last moves may be answered after it).
    let elapsed = began.elapsed().as_secs_f64();
    let summary = print_rooms(&mut runs, &sat, true, until, None);
    println!(
        "moves: {} in {elapsed:.1} s ({} s asked) = {:.0} moves/s",
        summary.moves,
        args.seconds,
        summary.moves as f64 / elapsed.max(0.001)
    );
    if let Some(line) = target.cpu_line(&cpu) {
        println!("{line}");
    }
    if let Some(line) = target.cpu_per_move_line(&cpu, summary.moves) {
        println!("{line}");
    }
    println!("server RSS: {} KiB", target.rss_kib().unwrap_or(0));
    let made: Vec<u64> = runs.iter().map(|r| r.timeline.moves.len() as u64).collect();
    let missed = spectators_missed(&readers, &made).await;
    if summary.failed > 0 {
        anyhow::bail!("{} games failed", summary.failed);
    }
    anyhow::ensure!(missed == 0, "{missed} spectators missed moves");
    Ok(())
}

/// A spectator reading everything its room sends and counting the move
/// events; the count, and the task (aborted at the end).
fn count_moves(mut ws: Ws) -> (Arc<AtomicU64>, tokio::task::JoinHandle<()>) {
    let seen = Arc::new(AtomicU64::new(0));
    let count = seen.clone();
    let task = tokio::spawn(async move {
        while let Some(Ok(frame)) = ws.next().await {
            if let Message::Text(text) = frame {
                if is_move(text.as_str()) {
                    count.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    });
    (seen, task)
}

/// Waits (up to 10 s) until every spectator has seen every move its room
/// had acknowledged (`made`, by room), then prints how many missed any.
/// Returns that number.
async fn spectators_missed(
    readers: &[(Arc<AtomicU64>, tokio::task::JoinHandle<()>)],
    made: &[u64],
) -> usize {
    let owed = |i: usize| made[i % made.len().max(1)];
    let short = || {
        readers
            .iter()
            .enumerate()
            .filter(|(i, (seen, _))| seen.load(Ordering::Relaxed) < owed(*i))
            .count()
    };
    let waited = Instant::now();
    while short() > 0 && waited.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let missed: Vec<u64> = readers
        .iter()
        .enumerate()
        .map(|(i, (seen, _))| owed(i).saturating_sub(seen.load(Ordering::Relaxed)))
        .collect();
    let short = missed.iter().filter(|&&m| m > 0).count();
    let seen: u64 = readers.iter().map(|(s, _)| s.load(Ordering::Relaxed)).sum();
    println!(
        "spectators: {} saw {seen} move events; {short} missed any (the most missed by one: {})",
        readers.len(),
        missed.iter().max().copied().unwrap_or(0)
    );
    for (_, task) in readers {
        task.abort();
    }
    short
}

/// One room's games until `until`, each move due a random gap after the
/// one before (an open loop: a late answer does not push the next move
/// back). A failure stops the room and is kept with its moves.
async fn play(table: Table, until: Instant, gaps: (Duration, Duration)) -> RoomRun {
    let Table {
        code, mut players, ..
    } = table;
    // Rooms start at different moments, as people do.
    let first = Instant::now() + gaps.1.mul_f64(rand::rng().random_range(0.0..=1.0));
    let mut schedule = Schedule::between(gaps.0, gaps.1, first);
    let mut timeline = Timeline::default();
    let result = games_until(&mut players, &mut timeline, &mut schedule, until).await;
    RoomRun::new(code, timeline, result, Some(schedule))
}

async fn games_until(
    players: &mut [Player; 2],
    timeline: &mut Timeline,
    schedule: &mut Schedule,
    until: Instant,
) -> anyhow::Result<()> {
    tokio::time::sleep_until(schedule.peek().into()).await;
    while Instant::now() < until {
        let next_due = || (schedule.peek() < until).then(|| schedule.next_due());
        if !play_game(players, timeline, next_due).await? {
            break;
        }
    }
    Ok(())
}
