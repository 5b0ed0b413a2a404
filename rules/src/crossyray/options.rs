//! The settings a host picks: board size and clock.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::game::{SetupError, TimeControl};
use crate::written::{not_a, present, Written};

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
#[serde(try_from = "Raw")]
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

/// The options as written, before each is read as the number it is kept
/// in: a side no `u32` holds (or not a whole number) is refused in the
/// words of [`Options::validate`], not of the type.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default, deserialize_with = "present")]
    width: Option<Written>,
    #[serde(default, deserialize_with = "present")]
    height: Option<Written>,
    #[serde(default)]
    clock: Option<ClockSetting>,
}

impl TryFrom<Raw> for Options {
    type Error = String;

    fn try_from(raw: Raw) -> Result<Options, String> {
        let default = Options::default();
        let takes = "an odd number from 5 to 25";
        for (field, value) in [("width", &raw.width), ("height", &raw.height)] {
            match value {
                Some(v) if !v.is_number() => return Err(not_a(field, takes, v)),
                _ => {}
            }
        }
        let side = |value: &Option<Written>, default: u32| match value {
            None => Some(default),
            Some(v) => v.whole::<u32>(),
        };
        match (
            side(&raw.width, default.width),
            side(&raw.height, default.height),
        ) {
            (Some(width), Some(height)) => Ok(Options {
                width,
                height,
                clock: raw.clock,
            }),
            _ => {
                let shown = |value: &Option<Written>, default: u32| match value {
                    None => default.to_string(),
                    Some(v) => v.to_string(),
                };
                Err(not_a_board_size(
                    shown(&raw.width, default.width),
                    shown(&raw.height, default.height),
                ))
            }
        }
    }
}

/// Why a board of `w` × `h` is refused when a side is outside
/// [`SIZE_LIMITS`].
fn not_a_board_size(w: impl fmt::Display, h: impl fmt::Display) -> String {
    format!("the board must be 5 to 25 cells wide and 5 to 25 tall, not {w} × {h}")
}

/// Smallest and largest board side (RULES.md §1 Decision).
pub const SIZE_LIMITS: std::ops::RangeInclusive<u32> = 5..=25;

impl Options {
    /// The fields a host may set, as written (any other is refused).
    pub const FIELDS: [&'static str; 3] = ["width", "height", "clock"];

    /// Checks the options, giving the board size on success.
    ///
    /// Refused: a side outside 5..=25, an even side (no centre cell), a
    /// square board (no short sides for the goals) and a clock that is not
    /// one of the presets.
    pub fn validate(&self) -> Result<(u8, u8), SetupError> {
        let (w, h) = (self.width, self.height);
        if !SIZE_LIMITS.contains(&w) || !SIZE_LIMITS.contains(&h) {
            return Err(SetupError(not_a_board_size(w, h)));
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refusal(json: serde_json::Value) -> String {
        serde_json::from_value::<Options>(json.clone())
            .map(|o| panic!("{json} read as {o:?}"))
            .unwrap_err()
            .to_string()
    }

    /// A side no `u32` holds is refused in the words of a side out of
    /// 5..=25 that fits.
    #[test]
    fn a_side_out_of_any_range_gets_the_rules_words() {
        let o: Options = serde_json::from_value(json!({"width": 27})).unwrap();
        assert_eq!(
            o.validate().unwrap_err().0,
            "the board must be 5 to 25 cells wide and 5 to 25 tall, not 27 × 7"
        );
        for (json, shown) in [
            (json!({"width": 4_294_967_305_u64}), "4294967305 × 7"),
            (json!({"width": 11, "height": -7}), "11 × -7"),
            (json!({"height": 9.5}), "9 × 9.5"),
        ] {
            assert_eq!(
                refusal(json),
                format!("the board must be 5 to 25 cells wide and 5 to 25 tall, not {shown}")
            );
        }
        assert_eq!(
            refusal(json!({"width": null})),
            "width must be an odd number from 5 to 25, not null (leave it out for its default)"
        );
        assert_eq!(
            refusal(json!({"height": "7"})),
            "height must be an odd number from 5 to 25, not \"7\""
        );
    }

    #[test]
    fn a_clock_out_of_any_range_is_no_preset() {
        assert_eq!(
            refusal(json!({"clock": [5_000_000_000_u64, 0]})),
            "5000000000+0 is not a clock preset: choose one of 3+2, 5+3, 10+5, 15+10"
        );
        assert_eq!(
            refusal(json!({"clock": {"minutes": 3, "increment": 2.5}})),
            "3+2.5 is not a clock preset: choose one of 3+2, 5+3, 10+5, 15+10"
        );
        for shape in [
            json!([3]),
            json!([3, 2, 1]),
            json!({"3": 2}),
            json!([null, 2]),
            json!("3+2"),
        ] {
            assert_eq!(
                refusal(json!({ "clock": shape })),
                "a clock is {\"minutes\":M,\"increment\":S} (or [M, S]) or null"
            );
        }
        let o: Options = serde_json::from_value(json!({"clock": null})).unwrap();
        assert_eq!(o.clock, None);
    }

    #[test]
    fn an_unknown_field_names_every_field() {
        assert_eq!(
            refusal(json!({"foo": 1})),
            format!(
                "unknown field `foo`, expected one of {}",
                Options::FIELDS.map(|f| format!("`{f}`")).join(", ")
            )
        );
    }
}
