//! `many-rooms`: N rooms × 2 players, CrossyRay, moves as fast as the
//! server acknowledges them or at a set rate. Latency is from a `move` to
//! its `ack`, which the room sends once the move is stored and broadcast.

use std::time::{Duration, Instant};

use crate::client::{play_game, two_players};
use crate::echo;
use crate::stats::{all, gather, steady_window, within, Timeline};
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
    /// `--stagger` gaps, and a room that falls behind sends at once but
    /// owes at most one gap, so the rate offered is `rooms × rate`
    /// whatever the latency.
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
    let gap = (args.rate > 0.0).then(|| Duration::from_secs_f64(1.0 / args.rate));
    let stagger = args.stagger.max(0.0);
    let cpu = target.cpu_mark();
    let started = Instant::now();
    let tasks: Vec<_> = tables
        .into_iter()
        .enumerate()
        .map(|(i, (_, players))| {
            let phase = |gap: Duration| gap.mul_f64(stagger * i as f64 / args.rooms as f64);
            let schedule = gap.map(|gap| Schedule::new(gap, phase(gap)));
            tokio::spawn(play(players, args.games, schedule))
        })
        .collect();
    let (timelines, failures) = gather(tasks).await?;
    let elapsed = started.elapsed().as_secs_f64();
    let latency = all(&timelines);
    let rate = latency.count() as f64 / elapsed;
    println!("failed rooms: {failures}");
    println!(
        "moves: {} in {elapsed:.2} s = {rate:.0} moves/s",
        latency.count()
    );
    println!("move latency (send → ack): {}", latency.line());
    if gap.is_some() {
        // With a schedule, the rate asked for holds only while every room
        // plays; the ramps at both ends carry less.
        match steady_window(&timelines) {
            Some(window) => {
                let steady = within(&timelines, window);
                let seconds = (window.1 - window.0).as_secs_f64();
                println!(
                    "while every room played ({seconds:.2} s from {:.2} s): {} moves = {:.0} moves/s; latency {}",
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
    if !args.no_echo && args.rate == 0.0 {
        let each = (latency.count() as usize / args.rooms.max(1)).max(1);
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
    if failures > 0 {
        anyhow::bail!("{failures} rooms failed");
    }
    Ok(())
}

/// One room's games, in a row: moves as fast as the acks come, or on
/// `schedule`, whose start is also the first game's.
async fn play(
    mut players: [crate::client::Player; 2],
    games: usize,
    mut schedule: Option<Schedule>,
) -> anyhow::Result<Timeline> {
    let mut timeline = Timeline::default();
    if let Some(schedule) = &schedule {
        tokio::time::sleep_until(schedule.start().into()).await;
    }
    let mut made = |sent, took| timeline.record(sent, took);
    for _ in 0..games {
        let think = || Some(schedule.as_mut().map(Schedule::wait).unwrap_or_default());
        play_game(&mut players, &mut made, think).await?;
    }
    Ok(timeline)
}

/// When a room's next move is due.
struct Schedule {
    gap: Duration,
    due: Instant,
}

impl Schedule {
    /// The room starts `phase` from now, and its first move is due one
    /// gap later, the next ones a gap apart.
    fn new(gap: Duration, phase: Duration) -> Schedule {
        Schedule {
            gap,
            due: Instant::now() + phase + gap,
        }
    }

    /// When the room starts (its first game's `start`).
    fn start(&self) -> Instant {
        self.due - self.gap
    }

    /// How long to wait before sending the move due now; the next one is
    /// due a gap later. A room later than one gap is forgiven the rest.
    fn wait(&mut self) -> Duration {
        self.wait_at(Instant::now())
    }

    fn wait_at(&mut self, now: Instant) -> Duration {
        let at = self.due.max(now.checked_sub(self.gap).unwrap_or(now));
        self.due = at + self.gap;
        at.saturating_duration_since(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    /// Moves are due a gap apart from the phase, whatever the latency; a
    /// room far behind sends at once and owes one gap, not all it missed.
    #[test]
    fn the_schedule_keeps_its_rate_and_forgives_all_but_one_gap() {
        let t0 = Instant::now();
        let mut s = Schedule {
            gap: 10 * MS,
            due: t0 + 3 * MS,
        };
        assert_eq!(s.wait_at(t0), 3 * MS, "the first move waits for its phase");
        assert_eq!(
            s.wait_at(t0 + 13 * MS),
            Duration::ZERO,
            "the second is due at 13 ms"
        );
        assert_eq!(
            s.wait_at(t0 + 20 * MS),
            3 * MS,
            "an early ack waits for the slot"
        );
        // 100 ms late: one move at once, one more owed, then the gap again.
        assert_eq!(s.wait_at(t0 + 133 * MS), Duration::ZERO);
        assert_eq!(s.wait_at(t0 + 133 * MS), Duration::ZERO);
        assert_eq!(s.wait_at(t0 + 133 * MS), 10 * MS);
    }
}
