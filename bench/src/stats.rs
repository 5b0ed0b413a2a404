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

/// One move: when it was due (its intended send time; the send itself
/// for a closed loop), sent and acknowledged.
#[derive(Clone, Copy, Debug)]
pub struct Move {
    pub due: Instant,
    pub sent: Instant,
    pub acked: Instant,
}

/// A move sent this much after its due time or more is late: more than
/// the timer's resolution (1 ms) and a busy machine's wake-up delay. Its
/// latency counts from its due time whether it is counted late or not.
pub const LATE: Duration = Duration::from_millis(5);

impl Move {
    /// From when it was due to its ack: the latency a player would see.
    pub fn latency(&self) -> Duration {
        self.acked - self.due
    }

    /// From its send to its ack.
    pub fn service(&self) -> Duration {
        self.acked - self.sent
    }

    /// How long after its due time it was sent.
    pub fn lateness(&self) -> Duration {
        self.sent.saturating_duration_since(self.due)
    }

    pub fn late(&self) -> bool {
        self.lateness() >= LATE
    }
}

/// Every move a room made, in the order they were made, and how long
/// each of its games' `start` took to be acknowledged.
#[derive(Default)]
pub struct Timeline {
    pub moves: Vec<Move>,
    pub starts: Vec<Duration>,
}

impl Timeline {
    pub fn record(&mut self, m: Move) {
        self.moves.push(m);
    }

    /// When the first move was due.
    pub fn first_due(&self) -> Option<Instant> {
        self.moves.first().map(|m| m.due)
    }

    /// When the last move was acknowledged.
    pub fn last_acked(&self) -> Option<Instant> {
        self.moves.last().map(|m| m.acked)
    }
}

impl AsRef<Timeline> for Timeline {
    fn as_ref(&self) -> &Timeline {
        self
    }
}

/// The part of a run when every room was playing: from the moment the
/// last room's first move was due to the moment the first room had its
/// last move acknowledged. Before it rooms are still starting, after it
/// they are finishing, and either way the server carries less than the
/// rate the run asks for. `None` when the rooms never all played at once.
pub fn steady_window<T: AsRef<Timeline>>(rooms: &[T]) -> Option<(Instant, Instant)> {
    let start = rooms.iter().map(|r| r.as_ref().first_due()).max()??;
    let end = rooms.iter().map(|r| r.as_ref().last_acked()).min()??;
    (end > start).then_some((start, end))
}

/// Every move of `rooms`, as a histogram of `figure` (a move's latency
/// from its due time, or its service time).
pub fn all<T: AsRef<Timeline>>(rooms: &[T], figure: fn(&Move) -> Duration) -> Latency {
    latency_of(rooms, |_| true, figure)
}

/// The moves of `rooms` due within `window`, as a latency histogram
/// (from their due times).
pub fn within<T: AsRef<Timeline>>(rooms: &[T], (start, end): (Instant, Instant)) -> Latency {
    latency_of(rooms, |due| due >= start && due < end, Move::latency)
}

/// The `figure` of the moves of `rooms` whose due time `due` picks.
fn latency_of<T: AsRef<Timeline>>(
    rooms: &[T],
    due: impl Fn(Instant) -> bool,
    figure: fn(&Move) -> Duration,
) -> Latency {
    let mut latency = Latency::new();
    let moves = rooms.iter().flat_map(|r| r.as_ref().moves.iter());
    for m in moves.filter(|m| due(m.due)) {
        latency.record(figure(m));
    }
    latency
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    /// The window runs from the last room's first move to the first
    /// room's last ack, and holds only the moves due inside it.
    #[test]
    fn the_steady_window_is_when_every_room_plays() {
        let t0 = Instant::now();
        let room = |moves: &[(u32, u32)]| Timeline {
            moves: moves
                .iter()
                .map(|&(at, took)| Move {
                    due: t0 + at * MS,
                    sent: t0 + at * MS,
                    acked: t0 + (at + took) * MS,
                })
                .collect(),
            starts: Vec::new(),
        };
        // Room a plays from 0 to 100 ms, room b from 20 to 150 ms.
        let a = room(&[(0, 5), (40, 5), (80, 20)]);
        let b = room(&[(20, 7), (60, 9), (100, 3), (140, 10)]);
        let rooms = [a, b];
        let window = steady_window(&rooms).expect("they overlap");
        assert_eq!(window, (t0 + 20 * MS, t0 + 100 * MS));
        let l = within(&rooms, window);
        assert_eq!(l.count(), 4, "the moves due at 20, 40, 60 and 80 ms");
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
