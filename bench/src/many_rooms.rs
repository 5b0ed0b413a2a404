//! `many-rooms`: N rooms × 2 players, CrossyRay, moves as fast as the
//! server acknowledges them (a closed loop: latency from a `move` to its
//! `ack`, which the room sends once the move is stored and broadcast) or
//! at a set rate (an open loop: latency from the moment the move was
//! due, see `schedule`).

use std::time::{Duration, Instant};

use crate::echo;
use crate::play::{gather, play_game, sits, two_players, RoomRun, Table};
use crate::report::print_rooms;
use crate::schedule::Schedule;
use crate::stats::{steady_window, within, Timeline};
use crate::target::Target;

#[derive(clap::Args)]
pub struct Args {
    /// Rooms playing at once.
    #[arg(long, default_value_t = 100)]
    rooms: usize,
    /// Games each room plays in a row.
    #[arg(long, default_value_t = 3)]
    games: usize,
    /// Moves a second per room (0: as fast as the acks come back). The
    /// moves are sent on a schedule (open loop): move k of a room is due
    /// k gaps after the room's start, the rooms' starts spread over
    /// `--stagger` gaps, and a room that falls behind sends each move it
    /// owes as soon as the one before is acknowledged (none forgiven), so
    /// the rate offered is `rooms × rate` whatever the latency, and each
    /// move's latency counts from its due time.
    #[arg(long, default_value_t = 0.0)]
    rate: f64,
    /// With `--rate`: the gaps the rooms' starts spread over. 1 starts
    /// every room within one gap, so, as every game here is the same
    /// moves, every room ends its game and starts the next within the
    /// same gap: a burst of a thousand game ends at once. The moves of a
    /// CrossyRay game here (31) spread those ends evenly, as the games of
    /// a site end at their own times.
    #[arg(long, default_value_t = 1.0)]
    stagger: f64,
    /// Put each room's second player on another node of the cluster.
    #[arg(long)]
    peer: Option<String>,
    /// Skip the echo-server ceiling.
    #[arg(long)]
    no_echo: bool,
}

pub async fn run(target: Target, args: Args) -> anyhow::Result<()> {
    let peer = args
        .peer
        .as_deref()
        .map(|p| p.trim_end_matches('/').to_string());
    println!(
        "many-rooms: {} rooms × {} games against {}{}",
        args.rooms,
        args.games,
        target.describe(),
        peer.as_deref()
            .map(|p| format!(", second players on {p}"))
            .unwrap_or_default()
    );
    let http = reqwest::Client::new();
    let mut tables = Vec::new();
    for _ in 0..args.rooms {
        tables.push(
            two_players(
                &http,
                &target.base,
                &target.ws(),
                peer.as_deref(),
                serde_json::Value::Null,
            )
            .await?,
        );
    }
    let sat = sits(&tables);
    let gap = (args.rate > 0.0).then(|| Duration::from_secs_f64(1.0 / args.rate));
    let stagger = args.stagger.max(0.0);
    let cpu = target.cpu_mark();
    let started = Instant::now();
    let tasks: Vec<_> = tables
        .into_iter()
        .enumerate()
        .map(|(i, table)| {
            // A room starts at its phase, and its first move is due a gap
            // later, the next ones a gap apart.
            let schedule = gap.map(|gap| {
                let begin = started + gap.mul_f64(stagger * i as f64 / args.rooms as f64);
                (begin, Schedule::every(gap, begin + gap))
            });
            tokio::spawn(play(table, args.games, schedule))
        })
        .collect();
    let mut runs = gather(tasks).await?;
    let end = Instant::now();
    let elapsed = (end - started).as_secs_f64();
    // A room that failed owed at most the moves a room that finished made.
    let most = runs
        .iter()
        .filter(|r| r.failed.is_none())
        .map(|r| r.timeline.moves.len() as u64)
        .max();
    let summary = print_rooms(&mut runs, &sat, gap.is_some(), end, most);
    let rate = summary.moves as f64 / elapsed;
    println!(
        "moves: {} in {elapsed:.2} s = {rate:.0} moves/s",
        summary.moves
    );
    if gap.is_some() {
        // With a schedule, the rate asked for holds only while every room
        // plays; the ramps at both ends carry less. The window is that of
        // the rooms that finished; the failed rooms' moves in it count.
        let finished: Vec<&Timeline> = runs
            .iter()
            .filter(|r| r.failed.is_none())
            .map(|r| &r.timeline)
            .collect();
        match steady_window(&finished) {
            Some(window) => {
                let steady = within(&runs, window);
                let seconds = (window.1 - window.0).as_secs_f64();
                println!(
                    "while every room played ({seconds:.2} s from {:.2} s): {} moves = {:.0} moves/s; latency (due → ack) {}",
                    (window.0 - started).as_secs_f64(),
                    steady.count(),
                    steady.count() as f64 / seconds,
                    steady.line()
                );
            }
            None => println!("the rooms never all played at once"),
        }
    }
    if let Some(line) = target.cpu_line(&cpu) {
        println!("{line}");
    }
    if let Some(line) = target.cpu_per_move_line(&cpu, summary.moves) {
        println!("{line}");
    }
    if !args.no_echo && args.rate == 0.0 {
        let each = (summary.moves as usize / args.rooms.max(1)).max(1);
        // About the size of a move command and of its event.
        let message = format!(
            r#"{{"id":7,"type":"move","move":"e5","pad":"{}"}}"#,
            "x".repeat(200)
        );
        let ceiling = echo::ceiling(args.rooms, each, &message).await?;
        println!(
            "echo ceiling: {ceiling:.0} round trips/s with {} clients; the server ran at {:.1} % of it",
            args.rooms,
            rate / ceiling * 100.0
        );
    }
    if summary.failed > 0 {
        anyhow::bail!("{} rooms failed", summary.failed);
    }
    Ok(())
}

/// One room's games, in a row: moves as fast as the acks come, or on
/// `schedule`, whose first move is due a gap after the first game's
/// `start`. A failure stops the room and is kept with its moves.
async fn play(table: Table, games: usize, schedule: Option<(Instant, Schedule)>) -> RoomRun {
    let Table {
        code, mut players, ..
    } = table;
    let mut timeline = Timeline::default();
    let (begin, mut schedule) = schedule.unzip();
    if let Some(begin) = begin {
        tokio::time::sleep_until(begin.into()).await;
    }
    let result = games_in_a_row(&mut players, &mut timeline, games, schedule.as_mut()).await;
    RoomRun::new(code, timeline, result, schedule)
}

async fn games_in_a_row(
    players: &mut [crate::client::Player; 2],
    timeline: &mut Timeline,
    games: usize,
    mut schedule: Option<&mut Schedule>,
) -> anyhow::Result<()> {
    for _ in 0..games {
        let next_due = || {
            Some(match &mut schedule {
                Some(s) => s.next_due(),
                None => Instant::now(),
            })
        };
        play_game(players, timeline, next_due).await?;
    }
    Ok(())
}
