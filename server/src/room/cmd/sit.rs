//! `sit`: a named member takes a free seat between games.

use serde::Deserialize;

use super::super::event::Effect;
use super::super::state::{Applied, RoomState};
use crate::model::ids::MemberId;
use crate::protocol::{Code, Refusal};
use crate::store::Write;

/// `sit`: the seat to take.
#[derive(Debug, Deserialize)]
pub struct Sit {
    pub seat: usize,
}

impl RoomState {
    pub(super) fn sit(&mut self, member: MemberId, seat: usize) -> Applied {
        self.refuse_if_running()?;
        self.refuse_if_tournament()?;
        self.check_free_seat(member, seat)?;
        if self.solo && !self.member(member).is_some_and(|m| m.host) {
            return Err(Refusal::new(
                Code::NotHost,
                "This is the host's game against the computer: you can watch it.",
            ));
        }
        let m = self.member_mut(member)?;
        if m.name.is_none() {
            return Err(Refusal::new(
                Code::BadName,
                "Type a name before taking a seat.",
            ));
        }
        m.seat = Some(seat);
        let mut effects = vec![Effect::Persist(Write::Member(m.row()))];
        self.emit_members(&mut effects);
        Ok(effects)
    }

    /// `seat` exists and nobody but `member` sits there.
    pub(super) fn check_free_seat(&self, member: MemberId, seat: usize) -> Result<(), Refusal> {
        if seat >= self.seats() {
            return Err(Refusal::new(
                Code::NoSeat,
                format!("This game has seats 1 to {}.", self.seats()),
            ));
        }
        if let Some(other) = self
            .members
            .iter()
            .find(|m| m.seat == Some(seat) && m.id != member)
        {
            return Err(Refusal::new(
                Code::NoSeat,
                format!(
                    "{} already sits there.",
                    other.name.as_deref().unwrap_or("Someone")
                ),
            ));
        }
        Ok(())
    }
}
