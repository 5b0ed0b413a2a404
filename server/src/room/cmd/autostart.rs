//! `autostart`: the host turns the room's auto-start on or off. Off
//! cancels a countdown under way; on starts none until a game ends.

use serde::Deserialize;

use super::super::event::{Effect, Event};
use super::super::state::{Applied, RoomState};
use crate::model::ids::MemberId;
use crate::store::Write;

/// `autostart`: the host turns the room's auto-start on or off.
#[derive(Debug, Deserialize)]
pub struct Autostart {
    pub enabled: bool,
}

impl RoomState {
    pub(super) fn set_autostart(&mut self, member: MemberId, enabled: bool, now: u64) -> Applied {
        self.require_host(member)?;
        self.autostart = enabled;
        if !enabled {
            self.countdown = None;
        }
        let mut effects = vec![Effect::Persist(Write::Room(self.row()))];
        let autostart = self.autostart_view(now);
        self.emit(&mut effects, Event::Autostart { autostart });
        Ok(effects)
    }
}
