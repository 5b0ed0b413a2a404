//! `rematch`: a player of the room's last game asks for another. When
//! every person who played it has asked, the next game starts at once
//! (as the host's `start` would, with the last game's order); until then
//! the auto-start countdown, if any, runs as before.

use super::super::event::Event;
use super::super::state::{Applied, RoomState};
use crate::model::ids::MemberId;
use crate::protocol::{Code, Refusal};

impl RoomState {
    pub(super) fn ask_rematch(&mut self, member: MemberId, now: u64) -> Applied {
        self.refuse_if_running()?;
        // A knockout room plays its bracket, not rematches: `no_game`,
        // between rounds too (PROTOCOL.md).
        if self.options.is_knockout() {
            return Err(Refusal::new(
                Code::NoGame,
                "A knockout room plays its bracket; there are no rematches.",
            ));
        }
        self.refuse_if_tournament()?;
        let last = self
            .tables
            .first()
            .and_then(|t| t.current.as_ref())
            .ok_or_else(|| Refusal::new(Code::NoGame, "There is no game to play again."))?;
        if last.side_of(member).is_none() {
            return Err(Refusal::new(
                Code::NoGame,
                "Only the players of the last game can ask for a rematch.",
            ));
        }
        let people: Vec<MemberId> = last
            .sides
            .iter()
            .flatten()
            .filter(|p| p.computer.is_none())
            .map(|p| p.member)
            .collect();
        let order = last.order;
        if !self.rematch.contains(&member) {
            self.rematch.push(member);
        }
        let mut effects = Vec::new();
        let rematch = self.rematch.clone();
        self.emit(&mut effects, Event::Rematch { rematch });
        // The people seated now must be the ones who played: a rematch is
        // never a game with someone who did not ask.
        let seated: Vec<MemberId> = self
            .members
            .iter()
            .filter(|m| m.seat.is_some() && m.computer.is_none())
            .map(|m| m.id)
            .collect();
        let same_people = seated.len() == people.len() && people.iter().all(|p| seated.contains(p));
        if same_people && people.iter().all(|p| self.rematch.contains(p)) {
            // Everyone asked: start now, if the seats allow (otherwise the
            // request stays, and the host or the countdown starts later).
            if let Ok(more) = self.begin(order, now) {
                effects.extend(more);
            }
        }
        Ok(effects)
    }
}
