//! `unseat`: the host takes a member out of their seat between games
//! (shown to everyone as a room notice).

use serde::Deserialize;

use super::super::event::{Effect, Event, NoticeKind};
use super::super::state::{Applied, RoomState};
use crate::model::ids::MemberId;
use crate::protocol::{Code, Refusal};
use crate::store::Write;

/// `unseat`: the host takes `member` out of their seat (between games).
#[derive(Debug, Deserialize)]
pub struct Unseat {
    pub member: MemberId,
}

impl RoomState {
    pub(super) fn unseat(&mut self, host: MemberId, member: MemberId) -> Applied {
        self.require_host(host)?;
        self.refuse_if_running()?;
        self.refuse_if_tournament()?;
        let m = self.person(member)?;
        if m.seat.is_none() {
            return Err(Refusal::new(Code::NoSeat, "That member is not seated."));
        }
        let m = self.member_mut(member)?;
        m.seat = None;
        let (row, name) = (m.row(), m.name.clone());
        let mut effects = vec![Effect::Persist(Write::Member(row))];
        self.emit_members(&mut effects);
        self.emit(
            &mut effects,
            Event::Notice {
                kind: NoticeKind::Unseated,
                member,
                name,
            },
        );
        Ok(effects)
    }

    /// `member`, a person (not the computer) still in the room.
    pub(super) fn person(&self, member: MemberId) -> Result<&super::super::state::Member, Refusal> {
        match self.member(member).filter(|m| !m.removed) {
            Some(m) if m.computer.is_some() => Err(Refusal::new(
                Code::NoMember,
                format!(
                    "{member} is the computer, not a person: free its seat with `computer` and no level."
                ),
            )),
            Some(m) => Ok(m),
            None => Err(Refusal::new(
                Code::NoMember,
                format!("There is no member {member} here."),
            )),
        }
    }
}
