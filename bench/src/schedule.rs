//! Open-loop schedules: when a room's moves are due, whatever the server
//! does. A room has one move in flight, so a room that falls behind sends
//! its overdue moves one after the other as soon as each is answered: no
//! slot is forgiven, and each move's latency runs from the moment it was
//! due (its lateness included), so a slow server cannot hide behind the
//! moves it delayed (coordinated omission).

use std::future::Future;
use std::time::{Duration, Instant};

use rand::RngExt;

use crate::stats::Move;

/// When a room's next move is due: a gap after the one before, the gap
/// fixed or drawn uniformly between two bounds.
pub struct Schedule {
    next: Instant,
    gap: Gap,
}

enum Gap {
    Every(Duration),
    Between(Duration, Duration),
}

impl Schedule {
    /// The first move due at `first`, the next ones `gap` apart.
    pub fn every(gap: Duration, first: Instant) -> Schedule {
        Schedule {
            next: first,
            gap: Gap::Every(gap),
        }
    }

    /// The first move due at `first`, each next one between `min` and
    /// `max` after the one before (uniformly).
    pub fn between(min: Duration, max: Duration, first: Instant) -> Schedule {
        Schedule {
            next: first,
            gap: Gap::Between(min, max.max(min)),
        }
    }

    fn gap(&self) -> Duration {
        match self.gap {
            Gap::Every(gap) => gap,
            Gap::Between(min, max) => Duration::from_secs_f64(
                rand::rng().random_range(min.as_secs_f64()..=max.as_secs_f64()),
            ),
        }
    }

    /// When the next move is due (without taking it).
    pub fn peek(&self) -> Instant {
        self.next
    }

    /// Takes the next slot: when its move is due. The one after is due a
    /// gap later, however late this one is sent.
    pub fn next_due(&mut self) -> Instant {
        let due = self.next;
        self.next = due + self.gap();
        due
    }

    /// Takes every slot due before `end` and counts them: the moves a room
    /// that stopped (it failed) owed the run and never sent.
    pub fn skipped_before(&mut self, end: Instant) -> u64 {
        let mut n = 0;
        while self.next < end {
            self.next_due();
            n += 1;
        }
        n
    }
}

/// Sends a move at `due`: waits for it if it is early, sends at once if
/// it is late, and returns when it was due, sent and answered.
pub async fn at_due<F>(due: Instant, send: F) -> anyhow::Result<Move>
where
    F: Future<Output = anyhow::Result<()>>,
{
    if due > Instant::now() {
        tokio::time::sleep_until(due.into()).await;
    }
    let sent = Instant::now();
    send.await?;
    Ok(Move {
        due,
        sent,
        acked: Instant::now(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Timeline;

    const MS: Duration = Duration::from_millis(1);

    /// Moves are due a gap apart from the first, whatever the latency: a
    /// room 100 ms behind at a 10 ms gap owes every one of the 11 moves
    /// due meanwhile and sends them at once, each late by what it missed.
    #[test]
    fn the_schedule_keeps_its_rate_and_forgives_nothing() {
        let t0 = Instant::now();
        let mut s = Schedule::every(10 * MS, t0 + 3 * MS);
        assert_eq!(
            s.next_due(),
            t0 + 3 * MS,
            "the first move is due at its phase"
        );
        assert_eq!(s.next_due(), t0 + 13 * MS, "the second a gap later");
        assert_eq!(s.next_due(), t0 + 23 * MS);
        // At 133 ms (100 ms behind the move due at 33 ms): the 11 moves
        // due at 33, 43, …, 133 ms are all owed, none forgiven.
        let now = t0 + 133 * MS;
        let owed: Vec<Duration> =
            std::iter::from_fn(|| (s.peek() <= now).then(|| now - s.next_due())).collect();
        assert_eq!(owed.len(), 11, "every due move is owed: {owed:?}");
        assert_eq!(owed[0], 100 * MS, "the first of them is 100 ms late");
        assert_eq!(owed[10], Duration::ZERO, "the last is due now");
        assert_eq!(s.next_due(), t0 + 143 * MS, "then the gap again");
        // A room that stopped owes what was due before the run ended.
        assert_eq!(
            s.skipped_before(t0 + 180 * MS),
            3,
            "due at 153, 163 and 173 ms"
        );
        let mut r = Schedule::between(10 * MS, 20 * MS, t0);
        let (a, b) = (r.next_due(), r.next_due());
        assert_eq!(a, t0);
        assert!((10 * MS..=20 * MS).contains(&(b - a)), "{:?}", b - a);
    }

    /// A fake slow room at a 10 ms gap: its first answer takes 100 ms, the
    /// others 1 ms. The moves due while it was stuck are sent late, one
    /// after the other, and their latency counts from when they were due:
    /// the lateness is recorded, not only the 100 ms of the one slow move.
    #[tokio::test]
    async fn a_slow_room_records_the_lateness_of_every_move_it_delayed() {
        let t0 = Instant::now() + 5 * MS;
        let mut s = Schedule::every(10 * MS, t0);
        let mut timeline = Timeline::default();
        for k in 0..11 {
            let answer = if k == 0 { 100 * MS } else { MS };
            let m = at_due(s.next_due(), async move {
                tokio::time::sleep(answer).await;
                Ok(())
            })
            .await
            .expect("the fake room answers");
            timeline.record(m);
        }
        assert_eq!(timeline.moves.len(), 11, "every due move was sent");
        let late = timeline.moves.iter().filter(|m| m.late()).count();
        assert!(
            late >= 9,
            "the moves due at 10-90 ms were sent late: {late}"
        );
        let from_due: Vec<Duration> = timeline.moves.iter().map(Move::latency).collect();
        // Move k (due at 10·k ms) waited for the slow answer at 100 ms.
        for (k, d) in from_due.iter().enumerate().take(10).skip(1) {
            let missed = (100 - 10 * k as u32) * MS;
            assert!(
                *d >= missed,
                "move {k}: {d:?} from its due time, not ≥ {missed:?}"
            );
        }
        let lateness: Duration = from_due.iter().skip(1).sum();
        assert!(lateness >= 450 * MS, "the lateness recorded: {lateness:?}");
        // Sent → answered, the figure that hid it, leaves out the 50 ms
        // the move due at 50 ms waited to be sent.
        let m = timeline.moves[5];
        assert!(m.lateness() >= 50 * MS && m.latency() >= m.service() + 50 * MS);
    }
}
