//! The figures every scenario with rooms of players prints the same way:
//! the failed rooms by name, the move latency (from the due time on a
//! schedule), the late and skipped slots, and the `start` and `sit`
//! latencies. A failed room's moves count like the others'.

use std::time::{Duration, Instant};

use crate::play::RoomRun;
use crate::stats::{all, Latency, Move, LATE};

/// Failed rooms named one a line, at most this many.
const NAMED: usize = 20;

pub struct Summary {
    /// Moves acknowledged, the failed rooms' included.
    pub moves: u64,
    pub failed: usize,
}

/// The slots of an open-loop run: sent late (and the latest), and owed
/// by failed rooms and never sent.
struct Slots {
    late: usize,
    latest: Duration,
    skipped: u64,
}

/// The slots of `runs`; a failed room owes the slots its schedule held
/// before `end`, at most `owed_at_most` less the moves it made.
fn slots(runs: &mut [RoomRun], end: Instant, owed_at_most: Option<u64>) -> Slots {
    let moves = || runs.iter().flat_map(|r| r.timeline.moves.iter());
    let late = moves().filter(|m| m.late()).count();
    let latest = moves().map(Move::lateness).max().unwrap_or_default();
    let mut skipped = 0;
    for r in runs.iter_mut() {
        if let Some((_, Some(schedule))) = &mut r.failed {
            let owed = schedule.skipped_before(end);
            let sent = r.timeline.moves.len() as u64;
            skipped += owed_at_most.map_or(owed, |most| owed.min(most.saturating_sub(sent)));
        }
    }
    Slots {
        late,
        latest,
        skipped,
    }
}

/// Prints the figures of `runs`. `scheduled`: the moves were on an open-
/// loop schedule (latency from their due time, late and skipped slots
/// counted), else a closed loop. A failed room owes the slots its
/// schedule held before `end`, at most `owed_at_most` less the moves it
/// made (the moves a room that finished made, when known).
pub fn print_rooms(
    runs: &mut [RoomRun],
    sits: &Latency,
    scheduled: bool,
    end: Instant,
    owed_at_most: Option<u64>,
) -> Summary {
    let failed: Vec<&RoomRun> = runs.iter().filter(|r| r.failed.is_some()).collect();
    println!("failed rooms: {} of {}", failed.len(), runs.len());
    for r in failed.iter().take(NAMED) {
        let (why, _) = r.failed.as_ref().expect("failed");
        println!(
            "  room {}: {why} (after {} moves)",
            r.code,
            r.timeline.moves.len()
        );
    }
    if failed.len() > NAMED {
        println!("  … and {} more", failed.len() - NAMED);
    }
    let failed = failed.len();
    let made = runs.iter().map(|r| r.timeline.moves.len()).sum::<usize>();
    if scheduled {
        println!(
            "move latency (due → ack, lateness included): {}",
            all(runs, Move::latency).line()
        );
        println!("  of which send → ack: {}", all(runs, Move::service).line());
        let s = slots(runs, end, owed_at_most);
        println!(
            "slots: {made} sent, {} late (sent {} ms or more after due; the latest {:.2} ms), {} skipped (due before the end, never sent: failed rooms)",
            s.late,
            LATE.as_millis(),
            s.latest.as_secs_f64() * 1000.0,
            s.skipped
        );
    } else {
        println!(
            "move latency (send → ack; closed loop, one move in flight a room): {}",
            all(runs, Move::latency).line()
        );
    }
    let mut starts = Latency::new();
    for d in runs.iter().flat_map(|r| r.timeline.starts.iter()) {
        starts.record(*d);
    }
    println!("start latency (send → ack): {}", starts.line());
    println!("sit latency (send → ack): {}", sits.line());
    Summary {
        moves: made as u64,
        failed,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::schedule::Schedule;
    use crate::stats::Timeline;

    const MS: Duration = Duration::from_millis(1);

    /// A room that failed after two moves keeps them in the figures and
    /// owes the slots its schedule held before the end, at most what a
    /// room that finished made less its own.
    #[test]
    fn a_failed_room_keeps_its_moves_and_owes_its_slots() {
        let t0 = Instant::now();
        let mv = |due: u32, sent: u32, acked: u32| Move {
            due: t0 + due * MS,
            sent: t0 + sent * MS,
            acked: t0 + acked * MS,
        };
        let room = |moves: Vec<Move>| Timeline {
            moves,
            starts: vec![2 * MS],
        };
        let finished = room((0..6).map(|k| mv(10 * k, 10 * k, 10 * k + 1)).collect());
        // Failed after the move due at 10 ms (sent 30 ms late); its next
        // slot was due at 20 ms.
        let mut owed = Schedule::every(10 * MS, t0);
        owed.next_due();
        owed.next_due();
        let failed = room(vec![mv(0, 0, 1), mv(10, 40, 45)]);
        let mut runs = [
            RoomRun::new("AAAA".into(), finished, Ok(()), None),
            RoomRun::new(
                "BBBB".into(),
                failed,
                Err(anyhow::anyhow!("move refused")),
                Some(owed),
            ),
        ];
        let end = t0 + 100 * MS;
        let s = print_rooms(&mut runs, &Latency::new(), true, end, Some(6));
        assert_eq!((s.moves, s.failed), (8, 1));
        runs[1].failed.as_mut().expect("failed").1 = Some(Schedule::every(10 * MS, t0 + 20 * MS));
        let s = slots(&mut runs, end, Some(6));
        assert_eq!((s.late, s.latest), (1, 30 * MS));
        assert_eq!(s.skipped, 4, "8 slots due from 20 to 90 ms, at most 6 - 2");
        let mut runs = [runs.into_iter().nth(1).expect("the failed room")];
        runs[0].failed.as_mut().expect("failed").1 = Some(Schedule::every(10 * MS, t0 + 20 * MS));
        let s = slots(&mut runs, end, None);
        assert_eq!(
            s.skipped, 8,
            "without a bound, every slot due before the end"
        );
    }
}
