//! `name`: a member sets their display name.

use serde::Deserialize;

use super::super::event::{Effect, Event};
use super::super::state::{Applied, RoomState};
use crate::model::ids::MemberId;
use crate::protocol::{Code, Refusal};
use crate::store::Write;
use crate::validate;

/// `name`: the member's display name.
#[derive(Debug, Deserialize)]
pub struct Name {
    pub name: String,
}

impl RoomState {
    pub(super) fn set_name(&mut self, member: MemberId, name: &str) -> Applied {
        let name = validate::name(name).map_err(|m| Refusal::new(Code::BadName, m))?;
        // The name it has already: acknowledged, nothing to tell anyone.
        let m = self.member_mut(member)?;
        if m.stored && m.name.as_deref() == Some(name.as_str()) {
            return Ok(Vec::new());
        }
        let mut effects = Vec::new();
        let scores_before = self.scores_view();
        // A watcher who takes a name becomes a stored member, within the
        // room's cap like any newcomer.
        let m = self.member_mut(member)?;
        if !m.stored {
            let addr = m.addr;
            self.make_room(addr, &mut effects)?;
            effects.push(Effect::Persist(Write::Room(self.row())));
        }
        let m = self.member_mut(member)?;
        m.name = Some(name);
        m.stored = true;
        effects.push(Effect::Persist(Write::Member(m.row())));
        self.emit_members(&mut effects);
        // The scoreboard shows each person under their current name.
        let scores = self.scores_view();
        if scores != scores_before {
            self.emit(&mut effects, Event::Scores { scores });
        }
        Ok(effects)
    }
}
