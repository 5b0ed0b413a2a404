//! `turn-based`: N turn-based rooms (CrossyRay, a day per move), each
//! with two players who sit, start and make one move, then leave; the
//! rooms go idle and unload (the game waits in the store). Reports the
//! server's resident memory before, at the peak (every room loaded) and
//! after the unload, and the difference per game: what a turn-based game
//! costs while nobody looks.

use std::time::{Duration, Instant};

use futures_util::stream::{self, StreamExt};
use serde_json::json;

use crate::play::two_players;
use crate::target::{Target, TargetArgs};

#[derive(clap::Args)]
pub struct Args {
    /// Turn-based games to create.
    #[arg(long, default_value_t = 1_000)]
    games: usize,
    /// Games being set up at once.
    #[arg(long, default_value_t = 50)]
    at_once: usize,
    /// Seconds an idle room stays loaded (the in-process server's
    /// `--room-idle-secs`; with `--url`, the server's own, given here so
    /// the scenario waits long enough).
    #[arg(long, default_value_t = 5)]
    idle_secs: u64,
}

/// One game: a room with `{"days": 1}`, two players, one move.
async fn one_game(http: &reqwest::Client, target: &Target) -> anyhow::Result<()> {
    let ws = target.ws();
    let table = two_players(http, &target.base, &ws, None, json!({"days": 1})).await?;
    let [mut host, _guest] = table.players;
    let a = host
        .command(json!({"type": "start", "order": "seats"}))
        .await?;
    anyhow::ensure!(a["type"] == "ack", "start refused: {a}");
    host.play("f4").await?;
    Ok(())
}

pub async fn run(args_target: &TargetArgs, args: Args) -> anyhow::Result<()> {
    let target = Target::with_idle(args_target, args.idle_secs).await?;
    let http = reqwest::Client::new();
    println!(
        "turn-based: {} games (a day per move, one move each) against {}",
        args.games,
        target.describe()
    );
    let before = target.rss_kib();
    let started = Instant::now();
    let mut peak = before;
    let mut done = 0usize;
    let mut failed = 0usize;
    let mut runs = stream::iter(0..args.games)
        .map(|_| one_game(&http, &target))
        .buffer_unordered(args.at_once.max(1));
    while let Some(result) = runs.next().await {
        match result {
            Ok(()) => done += 1,
            Err(e) => {
                failed += 1;
                if failed <= 3 {
                    eprintln!("a game failed: {e}");
                }
            }
        }
        if done.is_multiple_of(500) {
            peak = peak.max(target.rss_kib());
        }
    }
    drop(runs);
    peak = peak.max(target.rss_kib());
    println!(
        "set up {done} games ({failed} failed) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // Every player left: the rooms unload after the idle time.
    tokio::time::sleep(Duration::from_secs(args.idle_secs + 3)).await;
    let after = target.rss_kib();
    let kib = |v: Option<u64>| v.map_or("?".to_string(), |k| format!("{k} KiB"));
    println!(
        "server RSS: before {}, peak {} (rooms loaded), after idle unload {}",
        kib(before),
        kib(peak),
        kib(after)
    );
    if let (Some(b), Some(a), Some(p)) = (before, after, peak) {
        let n = done.max(1) as f64;
        println!(
            "per game: {:.2} KiB while loaded, {:.2} KiB once unloaded (the game lives in the store)",
            p.saturating_sub(b) as f64 / n,
            a.saturating_sub(b) as f64 / n
        );
    }
    anyhow::ensure!(failed == 0, "{failed} games failed");
    Ok(())
}
