//! `computer`: the host seats the computer at a level in a free seat (or
//! changes its level), or with no level takes it out again.

use serde::Deserialize;

use rules::Level;

use super::super::event::Effect;
use super::super::state::{Applied, Member, RoomState};
use crate::model::ids::MemberId;
use crate::protocol::{Code, Refusal};
use crate::store::Write;

/// `computer`: puts the computer in a free seat at `level`, or takes it
/// out of the seat when `level` is missing or null.
#[derive(Debug, Deserialize)]
pub struct Computer {
    pub seat: usize,
    #[serde(default)]
    pub level: Option<Level>,
}

impl RoomState {
    pub(super) fn seat_computer(
        &mut self,
        member: MemberId,
        seat: usize,
        level: Option<Level>,
    ) -> Applied {
        self.require_host(member)?;
        self.refuse_if_running()?;
        self.refuse_if_tournament()?;
        if seat >= self.seats() {
            return Err(Refusal::new(
                Code::NoSeat,
                format!("This game has seats 1 to {}.", self.seats()),
            ));
        }
        let occupant = self.members.iter().position(|m| m.seat == Some(seat));
        let mut effects = Vec::new();
        match (level, occupant) {
            (None, Some(i)) if self.members[i].computer.is_some() => {
                let gone = self.members.remove(i);
                effects.push(Effect::Persist(Write::RemoveMember(gone.id)));
            }
            (None, _) => {
                return Err(Refusal::new(
                    Code::NoSeat,
                    "The computer does not sit there.",
                ))
            }
            (Some(_), Some(i)) if self.members[i].computer.is_none() => {
                // A person's seat is theirs, whatever else would refuse.
                let name = self.members[i].name.as_deref().unwrap_or("Someone");
                return Err(Refusal::new(
                    Code::NoSeat,
                    format!("{name} already sits there."),
                ));
            }
            (Some(level), occupant) => {
                // A game needs a person: the computer never fills the last
                // seat (an unattended game would only burn a core).
                let computers_elsewhere = self
                    .members
                    .iter()
                    .filter(|m| m.computer.is_some() && m.seat.is_some_and(|s| s != seat))
                    .count();
                if computers_elsewhere + 1 >= self.seats() {
                    return Err(Refusal::new(
                        Code::NoSeat,
                        "Keep a seat for a person: the computer plays against people.",
                    ));
                }
                let row = match occupant {
                    // The computer there already (a person's seat was
                    // refused above): its level changes.
                    Some(i) => {
                        let name = self.computer_name(level, Some(self.members[i].id));
                        let m = &mut self.members[i];
                        m.computer = Some(level);
                        m.name = Some(name);
                        m.row()
                    }
                    None => {
                        let name = self.computer_name(level, None);
                        let id = self.take_member_id();
                        let m = Member {
                            ratings: Vec::new(),
                            id,
                            token: None,
                            name: Some(name),
                            seat: Some(seat),
                            conns: 0,
                            host: false,
                            offline_since: None,
                            computer: Some(level),
                            account: None,
                            stored: true,
                            removed: false,
                            addr: None,
                            seen_from: None,
                        };
                        let row = m.row();
                        self.members.push(m);
                        effects.push(Effect::Persist(Write::Room(self.row())));
                        row
                    }
                };
                effects.push(Effect::Persist(Write::Member(row)));
            }
        }
        self.emit_members(&mut effects);
        Ok(effects)
    }

    /// The name of a computer at `level`: `Computer (Master)`, or, when
    /// another computer of the room (not `except`) has that name already,
    /// `Computer (Master) 2`, `… 3`, so the seats, the scoreboard and a
    /// tournament's bracket tell them apart.
    fn computer_name(&self, level: Level, except: Option<MemberId>) -> String {
        let base = level.display_name();
        let taken = |name: &str| {
            self.members.iter().any(|m| {
                m.computer.is_some() && Some(m.id) != except && m.name.as_deref() == Some(name)
            })
        };
        if !taken(&base) {
            return base;
        }
        (2..)
            .map(|n| format!("{base} {n}"))
            .find(|name| !taken(name))
            .unwrap_or(base)
    }
}
