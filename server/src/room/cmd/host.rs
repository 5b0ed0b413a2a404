//! The host role and how it passes on: the host gives it to another
//! person (`host`), or, when the host has been offline for the hand-over
//! time (`--host-handover-secs`), the room gives it to the member who has
//! been here longest (the [`Timer::HostHandover`] timer). Either way
//! everyone receives `members` and a `notice` of kind `host`. A host who
//! comes back is a member like any other: the role comes back only if the
//! new host gives it. A solo room's role never moves: `host` is refused
//! with `solo_room` there, and there is no hand-over.
//!
//! [`Timer::HostHandover`]: super::super::Timer::HostHandover

use serde::Deserialize;

use super::super::event::{Effect, Event, NoticeKind};
use super::super::state::{Applied, Member, RoomState};
use crate::model::ids::MemberId;
use crate::protocol::{Code, Refusal};
use crate::store::Write;

/// `host`: the host gives the role to `member`.
#[derive(Debug, Deserialize)]
pub struct GiveHost {
    pub member: MemberId,
}

impl RoomState {
    pub(super) fn give_host(&mut self, host: MemberId, member: MemberId) -> Applied {
        self.require_host(host)?;
        // A solo room is its host's game: whoever else held the role
        // could seat people (PROTOCOL.md, "Hosts").
        if self.solo {
            return Err(Refusal::new(
                Code::SoloRoom,
                "This game against the computer stays its host's.",
            ));
        }
        let to = self.person(member)?;
        if to.id == host {
            return Err(Refusal::new(Code::NoMember, "You are the host already."));
        }
        Ok(self.hand_host_to(member))
    }

    /// When the host role passes on by itself: the hand-over time after
    /// the host went offline, if someone can take it. Never in a solo
    /// room, whose role stays with its host.
    pub(crate) fn handover_due(&self) -> Option<u64> {
        let wait = self.config.host_handover_ms;
        if wait == 0 || self.solo {
            return None;
        }
        let host = self.members.iter().find(|m| m.host)?;
        let since = host.offline_since?;
        self.successor()?;
        Some(since.saturating_add(wait))
    }

    /// Who takes the host role from an offline host: the online person
    /// who has been in the room longest (the lowest member id), a
    /// signed-in member first, else a seated guest.
    pub(crate) fn successor(&self) -> Option<MemberId> {
        let able = |m: &&Member| m.online() && m.computer.is_none() && !m.removed && !m.host;
        let first = |pick: &dyn Fn(&Member) -> bool| {
            self.members
                .iter()
                .filter(able)
                .filter(|m| pick(m))
                .min_by_key(|m| m.id.0)
                .map(|m| m.id)
        };
        first(&|m| m.account.is_some()).or_else(|| first(&|m| m.seat.is_some()))
    }

    /// Makes `to` the host (and whoever held it a member): stored, then
    /// told to everyone.
    pub(crate) fn hand_host_to(&mut self, to: MemberId) -> Vec<Effect> {
        let mut effects = Vec::new();
        for m in &mut self.members {
            let host = m.id == to;
            if m.host != host {
                m.host = host;
                // The new host is kept (a watcher given the role becomes
                // a kept member).
                m.stored |= host;
                if m.stored {
                    effects.push(Effect::Persist(Write::Member(m.row())));
                }
            }
        }
        let (token, name) = match self.member(to) {
            Some(m) => (m.token.clone(), m.name.clone()),
            None => (None, None),
        };
        self.host = token;
        effects.insert(0, Effect::Persist(Write::Room(self.row())));
        self.emit_members(&mut effects);
        self.emit(
            &mut effects,
            Event::Notice {
                kind: NoticeKind::Host,
                member: to,
                name,
            },
        );
        effects
    }
}
