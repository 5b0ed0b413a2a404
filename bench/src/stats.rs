//! Latency figures from an HDR histogram (microseconds, 3 significant
//! digits), printed in milliseconds.

use std::time::{Duration, Instant};

use hdrhistogram::Histogram;

pub struct Latency(Histogram<u64>);

impl Latency {
    pub fn new() -> Latency {
        Latency(Histogram::new_with_bounds(1, 600_000_000, 3).expect("valid bounds"))
    }

    pub fn record(&mut self, d: Duration) {
        self.0.saturating_record(d.as_micros().max(1) as u64);
    }

    pub fn add(&mut self, other: &Latency) {
        let _ = self.0.add(&other.0);
    }

    pub fn count(&self) -> u64 {
        self.0.len()
    }

    fn ms(&self, q: f64) -> f64 {
        self.0.value_at_quantile(q) as f64 / 1000.0
    }

    /// `p50 … p90 … p99 … max …` in milliseconds.
    pub fn line(&self) -> String {
        format!(
            "p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2} ms (n = {})",
            self.ms(0.50),
            self.ms(0.90),
            self.ms(0.99),
            self.0.max() as f64 / 1000.0,
            self.count()
        )
    }
}

/// Waits for the rooms' tasks: what each room that finished returned; a
/// room that failed is told on stderr and counted.
pub async fn gather<T>(
    tasks: Vec<tokio::task::JoinHandle<anyhow::Result<T>>>,
) -> anyhow::Result<(Vec<T>, usize)> {
    let mut done = Vec::with_capacity(tasks.len());
    let mut failures = 0;
    for task in tasks {
        match task.await? {
            Ok(room) => done.push(room),
            Err(e) => {
                failures += 1;
                eprintln!("a room failed: {e:#}");
            }
        }
    }
    Ok((done, failures))
}

/// Every move a room made: when it was sent and how long its ack took,
/// in the order they were made.
#[derive(Default)]
pub struct Timeline(pub Vec<(Instant, Duration)>);

impl Timeline {
    pub fn record(&mut self, sent: Instant, took: Duration) {
        self.0.push((sent, took));
    }

    /// When the first move was sent.
    pub fn first_sent(&self) -> Option<Instant> {
        self.0.first().map(|&(sent, _)| sent)
    }

    /// When the last move was acknowledged.
    pub fn last_acked(&self) -> Option<Instant> {
        self.0.last().map(|&(sent, took)| sent + took)
    }
}

/// The part of a run when every room was playing: from the moment the
/// last room sent its first move to the moment the first room had its
/// last move acknowledged. Before it rooms are still starting, after it
/// they are finishing, and either way the server carries less than the
/// rate the run asks for. `None` when the rooms never all played at once.
pub fn steady_window(rooms: &[Timeline]) -> Option<(Instant, Instant)> {
    let start = rooms.iter().map(Timeline::first_sent).max()??;
    let end = rooms.iter().map(Timeline::last_acked).min()??;
    (end > start).then_some((start, end))
}

/// Every move of `rooms`, as a latency histogram.
pub fn all(rooms: &[Timeline]) -> Latency {
    latency_of(rooms, |_| true)
}

/// The moves of `rooms` sent within `window`, as a latency histogram.
pub fn within(rooms: &[Timeline], (start, end): (Instant, Instant)) -> Latency {
    latency_of(rooms, |sent| sent >= start && sent < end)
}

/// The moves of `rooms` whose send time `sent` picks.
fn latency_of(rooms: &[Timeline], sent: impl Fn(Instant) -> bool) -> Latency {
    let mut latency = Latency::new();
    for &(_, took) in rooms.iter().flat_map(|r| r.0.iter()).filter(|m| sent(m.0)) {
        latency.record(took);
    }
    latency
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    /// The window runs from the last room's first move to the first
    /// room's last ack, and holds only the moves sent inside it.
    #[test]
    fn the_steady_window_is_when_every_room_plays() {
        let t0 = Instant::now();
        let room = |moves: &[(u32, u32)]| {
            Timeline(
                moves
                    .iter()
                    .map(|&(at, took)| (t0 + at * MS, took * MS))
                    .collect(),
            )
        };
        // Room a plays from 0 to 100 ms, room b from 20 to 150 ms.
        let a = room(&[(0, 5), (40, 5), (80, 20)]);
        let b = room(&[(20, 7), (60, 9), (100, 3), (140, 10)]);
        let rooms = [a, b];
        let window = steady_window(&rooms).expect("they overlap");
        assert_eq!(window, (t0 + 20 * MS, t0 + 100 * MS));
        let l = within(&rooms, window);
        assert_eq!(l.count(), 4, "the moves sent at 20, 40, 60 and 80 ms");
        let slowest = l.0.max();
        assert!(
            (20_000..20_100).contains(&slowest),
            "the slowest of them took 20 ms, not {slowest} µs"
        );
        // Rooms that never play at once have no window.
        let late = room(&[(200, 1)]);
        assert!(steady_window(&[room(&[(0, 5)]), late]).is_none());
        assert!(steady_window(&[room(&[])]).is_none());
    }
}
