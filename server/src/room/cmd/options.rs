//! `options`: the host changes the game's options (or the game) between
//! games.

use serde_json::Value;

use super::super::event::{Effect, Event, Write};
use super::super::ids::MemberId;
use super::super::state::{Applied, RoomState};
use crate::bots;
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
        let has_bot = bots::bot_for(kind).is_some();
        let mut effects = vec![Effect::Persist(Write::Room(self.row()))];
        let mut i = 0;
        while i < self.members.len() {
            let m = &mut self.members[i];
            let before = m.seat;
            if m.seat.is_some_and(|s| s >= seats) || (m.computer.is_some() && !has_bot) {
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
