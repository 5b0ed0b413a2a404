//! `public`: the host lists the room in the lobby, or takes it off. A
//! public room's summary (`RoomState::lobby_entry`) is kept in the store
//! by the task whenever it changes, so every node's lobby lists it.

use serde::Deserialize;

use super::super::event::{Effect, Event};
use super::super::state::{Applied, RoomState};
use crate::model::ids::MemberId;
use crate::protocol::{Code, Refusal};
use crate::store::Write;

/// `public`: the host lists the room publicly (`on`), or not.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Public {
    pub on: bool,
}

impl RoomState {
    pub(super) fn set_public(&mut self, member: MemberId, on: bool) -> Applied {
        self.require_host(member)?;
        if self.solo && on {
            return Err(Refusal::new(
                Code::SoloRoom,
                "A game against the computer cannot be listed.",
            ));
        }
        if self.public == on {
            return Ok(Vec::new());
        }
        self.public = on;
        let mut effects = vec![Effect::Persist(Write::Room(self.row()))];
        self.emit(&mut effects, Event::Public { public: on });
        Ok(effects)
    }
}
