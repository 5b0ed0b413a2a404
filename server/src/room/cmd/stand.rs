//! `stand`: a seated member leaves their seat between games.

use super::super::event::Effect;
use super::super::state::{Applied, RoomState};
use crate::model::ids::MemberId;
use crate::protocol::{Code, Refusal};
use crate::store::Write;

impl RoomState {
    pub(super) fn stand(&mut self, member: MemberId) -> Applied {
        self.refuse_if_running()?;
        self.refuse_if_tournament()?;
        let m = self.member_mut(member)?;
        if m.seat.take().is_none() {
            return Err(Refusal::new(Code::NoSeat, "You are not sitting."));
        }
        let mut effects = vec![Effect::Persist(Write::Member(m.row()))];
        self.emit_members(&mut effects);
        Ok(effects)
    }
}
