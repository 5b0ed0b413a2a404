//! `remove` and `readmit`: the host removes a member from the room, and
//! lets a removed member back in. A removed member keeps their row (their
//! games stay in their history) with the mark `removed`, which refuses
//! their browser's `hello` (and any browser signed in to their account)
//! until the host lets them back in; the mark is stored, so a restart
//! keeps it. Removed members do not count against the member cap; the
//! room remembers at most `--max-members` of them, and past that forgets
//! the earliest (among those with nothing to keep: no score), whose
//! browser may then come back.

use serde::Deserialize;

use super::super::event::{Effect, Event, NoticeKind};
use super::super::state::{Applied, RoomState};
use crate::model::ids::MemberId;
use crate::protocol::{Code, Refusal};
use crate::store::Write;

/// `remove`: the host removes `member` from the room; their browser stays
/// out until let back in.
#[derive(Debug, Deserialize)]
pub struct Remove {
    pub member: MemberId,
}

/// `readmit`: the host lets a removed member back in.
#[derive(Debug, Deserialize)]
pub struct Readmit {
    pub member: MemberId,
}

impl RoomState {
    pub(super) fn remove(&mut self, host: MemberId, member: MemberId) -> Applied {
        self.require_host(host)?;
        if member == host {
            return Err(Refusal::new(
                Code::NoMember,
                "You cannot remove yourself from your own room.",
            ));
        }
        self.person(member)?;
        let playing = self.tables.iter().any(|t| {
            t.running()
                .is_some_and(|m| m.side_of(member).is_some_and(|s| !m.gone[s.index()]))
        });
        let entrant = self
            .tournament
            .as_ref()
            .is_some_and(|b| b.is_active() && b.entrants.iter().any(|e| e.member == member));
        if playing || entrant {
            return Err(Refusal::new(
                Code::GameRunning,
                "That member is playing: wait until the game is over.",
            ));
        }
        let m = self.member_mut(member)?;
        m.removed = true;
        m.seat = None;
        // A watcher lives in memory only; the mark must be stored.
        let newly = !m.stored;
        m.stored = true;
        let (row, name) = (m.row(), m.name.clone());
        let mut effects = Vec::new();
        if newly {
            effects.push(Effect::Persist(Write::Room(self.row())));
        }
        effects.push(Effect::Persist(Write::Member(row)));
        self.forget_removed(member, &mut effects);
        let asked = self.rematch.len();
        self.rematch.retain(|&r| r != member);
        let rematch_changed = self.rematch.len() != asked;
        self.leave_voice(member, &mut effects);
        effects.push(Effect::Close {
            member,
            refusal: removed_refusal(),
        });
        self.emit_members(&mut effects);
        self.emit(
            &mut effects,
            Event::Notice {
                kind: NoticeKind::Removed,
                member,
                name,
            },
        );
        self.emit_removed(&mut effects);
        // Their rematch request goes with them: everyone hears the list
        // as it now is.
        if rematch_changed {
            let rematch = self.rematch.clone();
            self.emit(&mut effects, Event::Rematch { rematch });
        }
        Ok(effects)
    }

    pub(super) fn readmit(&mut self, host: MemberId, member: MemberId) -> Applied {
        self.require_host(host)?;
        let m = self
            .members
            .iter_mut()
            .find(|m| m.id == member && m.removed)
            .ok_or_else(|| {
                Refusal::new(Code::NoMember, format!("{member} is not a removed member."))
            })?;
        m.removed = false;
        let (row, name) = (m.row(), m.name.clone());
        let mut effects = vec![Effect::Persist(Write::Member(row))];
        self.emit(
            &mut effects,
            Event::Notice {
                kind: NoticeKind::LetIn,
                member,
                name,
            },
        );
        self.emit_removed(&mut effects);
        Ok(effects)
    }

    /// Past `--max-members` removed members, forgets the earliest one with
    /// no score (not `just`, the one removed now).
    fn forget_removed(&mut self, just: MemberId, effects: &mut Vec<Effect>) {
        let removed = self.members.iter().filter(|m| m.removed).count();
        if removed <= self.config.max_members {
            return;
        }
        let oldest = self
            .members
            .iter()
            .position(|m| m.removed && m.id != just && !self.has_score(m.id));
        if let Some(i) = oldest {
            let gone = self.members.remove(i);
            effects.push(Effect::Persist(Write::RemoveMember(gone.id)));
        }
    }

    fn emit_removed(&mut self, effects: &mut Vec<Effect>) {
        let removed = self.removed_view();
        self.emit(effects, Event::Removed { removed });
    }
}

/// What a removed member's browser is told, now and at every `hello`
/// until the host lets them back in.
pub fn removed_refusal() -> Refusal {
    Refusal::new(
        Code::Removed,
        "The host removed you from this room. You can come back if the host lets you in again.",
    )
}
