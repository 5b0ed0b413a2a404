//! `options`: the host changes the game's options (or the game) between
//! games.

use serde_json::Value;

use super::super::event::{Effect, Event, Write};
use super::super::ids::MemberId;
use super::super::state::{Applied, Member, RoomState};
use crate::games::{GameKind, GameOptions};
use crate::protocol::{Code, Refusal};

impl RoomState {
    pub(super) fn set_options(
        &mut self,
        member: MemberId,
        game: Option<&str>,
        options: &Value,
        _now: u64,
    ) -> Applied {
        self.require_host(member)?;
        self.refuse_if_running()?;
        self.refuse_if_tournament()?;
        let kind = match game {
            Some(name) => GameKind::parse(name).map_err(|m| Refusal::new(Code::BadOptions, m))?,
            None => self.game(),
        };
        let options =
            GameOptions::parse(kind, options).map_err(|m| Refusal::new(Code::BadOptions, m))?;
        self.seating = options.seating();
        self.options = options;
        let seats = self.seats();
        let mut effects = vec![Effect::Persist(Write::Room(self.row()))];
        let mut i = 0;
        while i < self.members.len() {
            let m = &mut self.members[i];
            let before = m.seat;
            if m.seat.is_some_and(|s| s >= seats) {
                m.seat = None;
            }
            // A computer without a seat is gone.
            if m.computer.is_some() && m.seat.is_none() {
                let gone = self.members.remove(i);
                effects.push(Effect::Persist(Write::RemoveMember(gone.id)));
                continue;
            }
            if m.seat != before {
                effects.push(Effect::Persist(Write::Member(m.row())));
            }
            i += 1;
        }
        // Fewer seats may leave only computers seated: the one in the last
        // seat leaves, so that a person can still sit (`computer`'s rule).
        let seated_computers = |members: &[Member]| {
            members
                .iter()
                .filter(|m| m.computer.is_some() && m.seat.is_some())
                .count()
        };
        while seated_computers(&self.members) >= seats {
            let last = (0..self.members.len())
                .filter(|&i| self.members[i].computer.is_some())
                .max_by_key(|&i| self.members[i].seat)
                .expect("a seated computer");
            let gone = self.members.remove(last);
            effects.push(Effect::Persist(Write::RemoveMember(gone.id)));
        }
        let event = Event::Options {
            game: self.game(),
            options: self.options.clone(),
            seats,
            team_seats: self.team_seats(),
        };
        self.emit(&mut effects, event);
        self.emit_members(&mut effects);
        Ok(effects)
    }
}
