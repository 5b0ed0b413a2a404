//! `rated`: the host marks the room's games rated, or not, between games.
//! A rated room's games between two signed-in people change their
//! Glicko-2 ratings (`crate::ratings`; which games count: `play.rs`).

use serde::Deserialize;

use super::super::event::{Effect, Event};
use super::super::state::{Applied, RoomState};
use crate::model::ids::MemberId;
use crate::store::Write;

/// `rated`: the host marks the room's games rated, or not (between
/// games).
#[derive(Debug, Deserialize)]
pub struct Rated {
    pub rated: bool,
}

impl RoomState {
    pub(super) fn set_rated(&mut self, member: MemberId, rated: bool) -> Applied {
        self.require_host(member)?;
        self.refuse_if_running()?;
        self.refuse_if_solo(&self.options, rated)?;
        self.rated = rated;
        let mut effects = vec![Effect::Persist(Write::Room(self.row()))];
        self.emit(&mut effects, Event::Rated { rated });
        Ok(effects)
    }
}
