//! `analysis`: the analysis of whole games, each of `--plies` moves of
//! the game played by the computer (Amateur against Amateur, a few
//! milliseconds a move, seeded), imported by `POST /api/analysis` and
//! followed until done. Reports the wall time per game (the done-when
//! of issue 28: a game of 60 plies in under a minute at the default
//! `--analysis-ms` 400) and the server's CPU over the run.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rules::{Game, Level, Think};
use serde_json::Value;
use server::games::{AnyGame, GameKind, GameOptions};

use crate::target::{Target, TargetArgs};

#[derive(clap::Args)]
pub struct Args {
    /// The game: crossyray, quoridor or jungle.
    #[arg(long, default_value = "jungle")]
    game: String,
    /// Moves per game.
    #[arg(long, default_value_t = 60)]
    plies: usize,
    /// Games analysed one after the other.
    #[arg(long, default_value_t = 1)]
    games: usize,
    /// The in-process server's `--analysis-ms` (a server at `--url` has
    /// its own).
    #[arg(long, default_value_t = 400)]
    analysis_ms: u64,
}

/// A game of `plies` moves (or fewer, if it ends first) as its text.
fn game_text(kind: GameKind, plies: usize, seed: u64) -> anyhow::Result<(String, usize)> {
    let options = GameOptions::parse(kind, &Value::Null).map_err(anyhow::Error::msg)?;
    let mut game = AnyGame::new(&options)?;
    let never = AtomicBool::new(false);
    let mut lines = Vec::new();
    for ply in 0..plies {
        let think = Think {
            level: Level::Amateur,
            budget: Duration::from_millis(20),
            cancel: &never,
            seed: seed.wrapping_mul(31).wrapping_add(ply as u64),
        };
        let Some(mv) = server::bots::choose(&game, &think) else {
            break;
        };
        game.play(&mv)?;
        lines.push(format!("{}. {mv}", ply + 1));
        if game.is_over() {
            break;
        }
    }
    let result = if game.is_over() {
        ""
    } else {
        "[Result \"side 0 wins (resign)\"]\n"
    };
    let text = format!(
        "[Game \"{}\"]\n{result}\n{}\n",
        kind.name(),
        lines.join("\n")
    );
    Ok((text, lines.len()))
}

pub async fn run(args_target: &TargetArgs, args: Args) -> anyhow::Result<()> {
    let ms = args.analysis_ms;
    let target = Target::with_config(args_target, move |c| {
        c.analysis_ms = ms;
        c.analyses_per_addr = 1_000;
    })
    .await?;
    let kind = GameKind::parse(&args.game).map_err(anyhow::Error::msg)?;
    println!(
        "analysis: {} {} game(s) of up to {} plies against {}",
        args.games,
        kind.name(),
        args.plies,
        target.describe()
    );
    let http = reqwest::Client::new();
    let mark = target.cpu_mark();
    let started = Instant::now();
    let mut positions = 0usize;
    for g in 0..args.games {
        let (text, plies) = game_text(kind, args.plies, 7 + g as u64)?;
        let t0 = Instant::now();
        let resp = http
            .post(format!("{}/api/analysis", target.base))
            .body(text)
            .send()
            .await?;
        anyhow::ensure!(resp.status() == 200, "refused: {}", resp.text().await?);
        let asked: Value = resp.json().await?;
        let id = asked["id"].as_str().unwrap_or_default().to_string();
        let done = loop {
            let a: Value = http
                .get(format!("{}/api/analysis/{id}", target.base))
                .send()
                .await?
                .json()
                .await?;
            if a["status"] == "done" {
                break a;
            }
            anyhow::ensure!(
                t0.elapsed() < Duration::from_secs(600),
                "not done in 10 minutes"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let judged = done["positions"].as_array().map_or(0, Vec::len);
        anyhow::ensure!(
            judged == plies + 1,
            "{judged} positions judged of {}",
            plies + 1
        );
        positions += judged;
        let graded = done["moves"].as_array().map_or(0, Vec::len);
        println!(
            "  game {}: {plies} plies, {judged} positions, {graded} moves graded in {:.1} s",
            g + 1,
            t0.elapsed().as_secs_f64()
        );
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "  {:.1} s a game, {:.0} ms a position",
        elapsed / args.games.max(1) as f64,
        elapsed * 1000.0 / positions.max(1) as f64
    );
    if let Some(line) = target.cpu_line(&mark) {
        println!("  {line}");
    }
    if let Some(cpu) = target.cpu_since(&mark) {
        println!(
            "  server CPU {:.0} ms a position",
            cpu / 100.0 * elapsed * 1000.0 / positions.max(1) as f64
        );
    }
    Ok(())
}
