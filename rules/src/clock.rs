//! Game clocks as pure arithmetic on milliseconds.
//!
//! The server owns real time; this type only does the bookkeeping, so every
//! rule about time (increment after a move, a fresh allowance per turn,
//! who flags first) is tested without sleeping. `now` is any monotonic
//! millisecond count chosen by the caller (the server uses the time since
//! the room started).
//!
//! ```
//! use rules::clock::Clock;
//! use rules::game::{Side, TimeControl};
//!
//! let mut clock = Clock::new(TimeControl::Clock { minutes: 3, increment: 2 }, 2);
//! clock.start_turn(Side(0), 0);
//! assert!(clock.finish_turn(10_000)); // 10 s used, 2 s back
//! assert_eq!(clock.remaining(Side(0), 10_000), 180_000 - 10_000 + 2_000);
//! clock.start_turn(Side(1), 10_000);
//! assert_eq!(clock.deadline(), Some(10_000 + 180_000));
//! ```

use serde::{Deserialize, Deserializer, Serialize};

use crate::game::{Side, TimeControl};
use crate::written::Written;

/// A chess clock a host picks for CrossyRay or Jungle: `minutes` to start
/// with and `increment` seconds added after each move (only the
/// [`CLOCK_PRESETS`](crate::game::CLOCK_PRESETS) are offered).
///
/// One form on the wire for every game: written `{"minutes":3,"increment":2}`;
/// read from that or from the short `[3, 2]`.
///
/// ```
/// use rules::clock::ClockSetting;
/// let long: ClockSetting = serde_json::from_str(r#"{"minutes":5,"increment":3}"#).unwrap();
/// let short: ClockSetting = serde_json::from_str("[5, 3]").unwrap();
/// assert_eq!(long, short);
/// assert_eq!(serde_json::to_string(&short).unwrap(), r#"{"minutes":5,"increment":3}"#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ClockSetting {
    pub minutes: u32,
    pub increment: u32,
}

impl ClockSetting {
    pub fn pair(self) -> (u32, u32) {
        (self.minutes, self.increment)
    }

    /// `Ok` for one of the [`CLOCK_PRESETS`](crate::game::CLOCK_PRESETS);
    /// the error names them.
    pub fn offered(self) -> Result<(), crate::game::SetupError> {
        use crate::game::CLOCK_PRESETS;
        if CLOCK_PRESETS.contains(&self.pair()) {
            return Ok(());
        }
        Err(crate::game::SetupError(not_a_preset(
            self.minutes,
            self.increment,
        )))
    }
}

/// Why a clock of `minutes`+`increment` is refused: it is none of the
/// [`CLOCK_PRESETS`](crate::game::CLOCK_PRESETS), which are named.
fn not_a_preset(minutes: impl std::fmt::Display, increment: impl std::fmt::Display) -> String {
    let presets: Vec<String> = crate::game::CLOCK_PRESETS
        .iter()
        .map(|(m, i)| format!("{m}+{i}"))
        .collect();
    format!(
        "{minutes}+{increment} is not a clock preset: choose one of {}",
        presets.join(", ")
    )
}

impl<'de> Deserialize<'de> for ClockSetting {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ClockSetting, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Object {
            minutes: Written,
            increment: Written,
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wire {
            Pair(Written, Written),
            Object(Object),
        }
        const SHAPE: &str = "a clock is {\"minutes\":M,\"increment\":S} (or [M, S]) or null";
        let wire = Wire::deserialize(d).map_err(|_| serde::de::Error::custom(SHAPE))?;
        let (minutes, increment) = match wire {
            Wire::Pair(m, i) => (m, i),
            Wire::Object(o) => (o.minutes, o.increment),
        };
        if !minutes.is_number() || !increment.is_number() {
            return Err(serde::de::Error::custom(SHAPE));
        }
        // A number no `u32` holds (or not whole) is no preset either.
        match (minutes.whole(), increment.whole()) {
            (Some(minutes), Some(increment)) => Ok(ClockSetting { minutes, increment }),
            _ => Err(serde::de::Error::custom(not_a_preset(minutes, increment))),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    control: TimeControl,
    /// Time left per side, as of the start of the running turn.
    remaining_ms: Vec<u64>,
    /// The side whose time is running and when its turn started.
    running: Option<(Side, u64)>,
}

impl Clock {
    pub fn new(control: TimeControl, sides: usize) -> Clock {
        let start = match control {
            TimeControl::Unlimited => 0,
            TimeControl::Clock { minutes, .. } => u64::from(minutes) * 60_000,
            TimeControl::PerMove { seconds } => u64::from(seconds) * 1_000,
        };
        Clock {
            control,
            remaining_ms: vec![start; sides],
            running: None,
        }
    }

    /// A stopped clock with `remaining` milliseconds per side, as a
    /// stored game left it (time left as of its last move). The caller
    /// starts the side to move's turn when play resumes, so time spent
    /// while the game was not running is charged to nobody. Missing sides
    /// get a full allowance; extra values are ignored.
    pub fn resume(control: TimeControl, sides: usize, remaining: &[u64]) -> Clock {
        let mut clock = Clock::new(control, sides);
        for (slot, &ms) in clock.remaining_ms.iter_mut().zip(remaining) {
            *slot = ms;
        }
        clock
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Starts `side`'s time at `now`. With a per-move timer the side gets a
    /// fresh allowance.
    pub fn start_turn(&mut self, side: Side, now: u64) {
        if self.control == TimeControl::Unlimited {
            return;
        }
        if let TimeControl::PerMove { seconds } = self.control {
            if let Some(slot) = self.remaining_ms.get_mut(side.index()) {
                *slot = u64::from(seconds) * 1_000;
            }
        }
        self.running = Some((side, now));
    }

    /// Stops the running side's time at `now` after it moved, adding the
    /// increment. Returns `false` if its time had already run out (the
    /// move came too late and must be refused).
    pub fn finish_turn(&mut self, now: u64) -> bool {
        let Some((side, started)) = self.running.take() else {
            return true;
        };
        let used = now.saturating_sub(started);
        let slot = &mut self.remaining_ms[side.index()];
        if used >= *slot {
            *slot = 0;
            return false;
        }
        *slot -= used;
        if let TimeControl::Clock { increment, .. } = self.control {
            *slot += u64::from(increment) * 1_000;
        }
        true
    }

    /// Stops the clock without an increment (the game ended, or the side
    /// ran out of time).
    pub fn stop(&mut self, now: u64) {
        if let Some((side, started)) = self.running.take() {
            let slot = &mut self.remaining_ms[side.index()];
            *slot = slot.saturating_sub(now.saturating_sub(started));
        }
    }

    /// Time `side` has left at `now`.
    pub fn remaining(&self, side: Side, now: u64) -> u64 {
        let left = self.remaining_ms.get(side.index()).copied().unwrap_or(0);
        match self.running {
            Some((running, started)) if running == side => {
                left.saturating_sub(now.saturating_sub(started))
            }
            _ => left,
        }
    }

    /// Every side's time left at `now`, in side order.
    pub fn all_remaining(&self, now: u64) -> Vec<u64> {
        (0..self.remaining_ms.len())
            .map(|i| self.remaining(Side(i as u8), now))
            .collect()
    }

    /// The side whose time is running.
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(side, _)| side)
    }

    /// The moment the running side's time runs out, if a clock is running.
    pub fn deadline(&self) -> Option<u64> {
        let (side, started) = self.running?;
        Some(started + self.remaining_ms[side.index()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The time control of a chess clock, `minutes` + `increment` seconds.
    fn chess(minutes: u32, increment: u32) -> TimeControl {
        TimeControl::Clock { minutes, increment }
    }

    #[test]
    fn a_resumed_clock_keeps_the_time_left_and_charges_no_downtime() {
        let control = chess(3, 2);
        let mut clock = Clock::resume(control, 2, &[90_000, 120_000]);
        assert_eq!(clock.running(), None);
        clock.start_turn(Side(1), 5_000_000);
        assert_eq!(clock.remaining(Side(1), 5_001_000), 119_000);
        assert_eq!(clock.remaining(Side(0), 5_001_000), 90_000);
        assert_eq!(clock.deadline(), Some(5_000_000 + 120_000));
    }

    #[test]
    fn increment_is_added_after_each_move() {
        let mut c = Clock::new(chess(5, 3), 2);
        c.start_turn(Side(0), 1_000);
        assert!(c.finish_turn(2_000));
        assert_eq!(c.remaining(Side(0), 2_000), 300_000 - 1_000 + 3_000);
        assert_eq!(c.remaining(Side(1), 2_000), 300_000);
    }

    #[test]
    fn move_after_the_flag_is_refused() {
        let mut c = Clock::new(chess(3, 2), 2);
        c.start_turn(Side(1), 0);
        assert_eq!(c.deadline(), Some(180_000));
        assert!(!c.finish_turn(180_000));
        assert_eq!(c.remaining(Side(1), 200_000), 0);
    }

    #[test]
    fn per_move_timer_gives_a_fresh_allowance_each_turn() {
        let mut c = Clock::new(TimeControl::PerMove { seconds: 30 }, 3);
        c.start_turn(Side(2), 0);
        assert!(c.finish_turn(29_000));
        c.start_turn(Side(2), 50_000);
        assert_eq!(c.remaining(Side(2), 50_000), 30_000);
        assert_eq!(c.deadline(), Some(80_000));
    }

    #[test]
    fn unlimited_never_runs() {
        let mut c = Clock::new(TimeControl::Unlimited, 2);
        c.start_turn(Side(0), 0);
        assert_eq!(c.deadline(), None);
        assert!(c.finish_turn(u64::MAX / 2));
    }

    #[test]
    fn stop_keeps_the_time_used_without_increment() {
        let mut c = Clock::new(chess(3, 2), 2);
        c.start_turn(Side(0), 0);
        c.stop(5_000);
        assert_eq!(c.remaining(Side(0), 9_999), 175_000);
        assert_eq!(c.running(), None);
    }
}
