//! The settings a host picks: board size and clock.

use serde::{Deserialize, Serialize};

use crate::game::{SetupError, TimeControl};

/// Host settings for a CrossyRay game.
///
/// Serialised as `{"width": 9, "height": 7, "clock": null}`; missing fields
/// take their defaults (9 wide × 7 tall, no clock).
///
/// ```
/// use rules::crossyray::{ClockSetting, CrossyRay, Options};
/// use rules::game::Game;
///
/// let tall = Options { width: 7, height: 11, clock: Some(ClockSetting { minutes: 3, increment: 2 }) };
/// assert!(CrossyRay::new(&tall).is_ok());
/// let square = Options { width: 9, height: 9, clock: None };
/// assert!(CrossyRay::new(&square).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Cells from left to right: odd, 5 to 25.
    pub width: u32,
    /// Cells from bottom to top: odd, 5 to 25, not equal to `width`.
    pub height: u32,
    /// Clock mode, or `None` (the default) for no clock.
    pub clock: Option<ClockSetting>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            width: 9,
            height: 7,
            clock: None,
        }
    }
}

pub use crate::clock::ClockSetting;

/// Smallest and largest board side (RULES.md §1 Decision).
pub const SIZE_LIMITS: std::ops::RangeInclusive<u32> = 5..=25;

impl Options {
    /// Checks the options, giving the board size on success.
    ///
    /// Refused: a side outside 5..=25, an even side (no centre cell), a
    /// square board (no short sides for the goals) and a clock that is not
    /// one of the presets.
    pub fn validate(&self) -> Result<(u8, u8), SetupError> {
        let (w, h) = (self.width, self.height);
        if !SIZE_LIMITS.contains(&w) || !SIZE_LIMITS.contains(&h) {
            return Err(SetupError(format!(
                "the board must be 5 to 25 cells wide and 5 to 25 tall, not {w} × {h}"
            )));
        }
        if w % 2 == 0 || h % 2 == 0 {
            return Err(SetupError(format!(
                "the width and height must be odd so the board has a centre cell, not {w} × {h}"
            )));
        }
        if w == h {
            return Err(SetupError(format!(
                "a square board has no short sides for the goals: {w} × {h} needs a different width and height"
            )));
        }
        if let Some(clock) = self.clock {
            clock.offered()?;
        }
        // Both fit in a u8: checked against SIZE_LIMITS above.
        Ok((w as u8, h as u8))
    }

    /// The time control the server runs for these options.
    pub fn time_control(&self) -> TimeControl {
        match self.clock {
            Some(ClockSetting { minutes, increment }) => TimeControl::Clock { minutes, increment },
            None => TimeControl::Unlimited,
        }
    }
}
