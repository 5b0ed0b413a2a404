//! `countdown`: the host pauses or resumes the auto-start countdown.

use serde::Deserialize;

use super::super::event::Event;
use super::super::state::{Applied, Countdown, RoomState};
use crate::model::ids::MemberId;
use crate::protocol::{Code, Refusal};

/// `countdown`: the host pauses (`true`) or resumes the auto-start
/// countdown.
#[derive(Debug, Deserialize)]
pub struct PauseCountdown {
    pub paused: bool,
}

impl RoomState {
    pub(super) fn pause_countdown(&mut self, member: MemberId, paused: bool, now: u64) -> Applied {
        self.require_host(member)?;
        self.refuse_if_running()?;
        self.countdown = match (self.countdown, paused) {
            (Some(Countdown::Running { at_ms }), true) => Some(Countdown::Paused {
                left_ms: at_ms.saturating_sub(now),
            }),
            (Some(Countdown::Paused { left_ms }), false) => Some(Countdown::Running {
                at_ms: now + left_ms,
            }),
            (Some(same), _) => Some(same),
            (None, _) => {
                return Err(Refusal::new(
                    Code::NoCountdown,
                    "No countdown to the next game is running.",
                ))
            }
        };
        let mut effects = Vec::new();
        let autostart = self.autostart_view(now);
        self.emit(&mut effects, Event::Autostart { autostart });
        Ok(effects)
    }
}
