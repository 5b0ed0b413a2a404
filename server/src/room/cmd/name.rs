//! `name`: a member sets their display name.

use super::super::event::{Effect, Write};
use super::super::ids::MemberId;
use super::super::state::{Applied, RoomState};
use crate::protocol::{Code, Refusal};
use crate::validate;

impl RoomState {
    pub(super) fn set_name(&mut self, member: MemberId, name: &str) -> Applied {
        let name = validate::name(name).map_err(|m| Refusal::new(Code::BadName, m))?;
        let m = self.member_mut(member)?;
        m.name = Some(name);
        let mut effects = vec![Effect::Persist(Write::Member(m.row()))];
        self.emit_members(&mut effects);
        Ok(effects)
    }
}
