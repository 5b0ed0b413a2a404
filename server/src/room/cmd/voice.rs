//! `voice`, `mute` and `voice_mute`: joining and leaving voice chat,
//! muting oneself, and the host muting a member for everyone. The first
//! eight in voice speak; the others listen until a speaker leaves, or the
//! host mutes one (a host-muted member listens and gives the place up).
//! Only named members (a name, or an account) join: an anonymous watcher
//! costs nothing to open, so it must not take a speaker's place.

use serde::Deserialize;

use super::super::event::{Effect, Event};
use super::super::state::{Applied, RoomState};
use super::super::views::VoiceView;
use super::super::voice::{Voice, MAX_SPEAKERS};
use crate::model::ids::MemberId;
use crate::protocol::{Code, Refusal};

/// `voice`: joins (`true`) or leaves voice chat.
#[derive(Debug, Deserialize)]
pub struct JoinVoice {
    pub join: bool,
}

/// `mute`: mutes or unmutes one's own voice.
#[derive(Debug, Deserialize)]
pub struct Mute {
    pub muted: bool,
}

/// `voice_mute`: the host mutes (or unmutes) `member`'s voice for
/// everyone.
#[derive(Debug, Deserialize)]
pub struct VoiceMute {
    pub member: MemberId,
    pub muted: bool,
}

impl RoomState {
    pub(super) fn voice(&mut self, member: MemberId, join: bool) -> Applied {
        let mut effects = Vec::new();
        if !join {
            self.in_voice(member).ok_or_else(not_in_voice)?;
            self.leave_voice(member, &mut effects);
            return Ok(effects);
        }
        // Voice is a page's: a member with none open cannot be in it.
        let Some(m) = self.member(member).filter(|m| m.conns > 0) else {
            return Err(Refusal::new(Code::HelloFirst, "Open the room first."));
        };
        if m.name.is_none() && m.account.is_none() {
            return Err(Refusal::new(
                Code::NameFirst,
                "Choose a name before joining voice chat.",
            ));
        }
        if self.in_voice(member).is_some() {
            return Ok(effects);
        }
        let speakers = self.voice.iter().filter(|v| v.speaker).count();
        let host_muted = self.voice_host_muted.contains(&member);
        let mut voice = Voice::new(member, speakers < MAX_SPEAKERS && !host_muted);
        voice.host_muted = host_muted;
        self.voice.push(voice);
        self.emit_voice(member, &mut effects);
        Ok(effects)
    }

    pub(super) fn mute(&mut self, member: MemberId, muted: bool) -> Applied {
        let voice = self.voice_mut(member)?;
        let mut effects = Vec::new();
        if voice.muted != muted {
            voice.muted = muted;
            self.emit_voice(member, &mut effects);
        }
        Ok(effects)
    }

    /// The host mutes `member` for everyone: a muted speaker listens, and
    /// the earliest listener takes the place; unmuted, they speak again
    /// when a place is free.
    pub(super) fn voice_mute(&mut self, host: MemberId, member: MemberId, muted: bool) -> Applied {
        self.require_host(host)?;
        let voice = self.voice_mut(member)?;
        let mut effects = Vec::new();
        if voice.host_muted == muted {
            return Ok(effects);
        }
        voice.host_muted = muted;
        if muted {
            voice.speaker = false;
            // Members let go since are forgotten here too.
            let members = &self.members;
            self.voice_host_muted
                .retain(|&m| members.iter().any(|x| x.id == m));
            self.voice_host_muted.push(member);
        } else {
            self.voice_host_muted.retain(|&m| m != member);
        }
        self.emit_voice(member, &mut effects);
        self.promote_listeners(&mut effects);
        Ok(effects)
    }
}

impl RoomState {
    fn voice_mut(&mut self, member: MemberId) -> Result<&mut Voice, Refusal> {
        self.voice
            .iter_mut()
            .find(|v| v.member == member)
            .ok_or_else(not_in_voice)
    }
}

pub(super) fn not_in_voice() -> Refusal {
    Refusal::new(Code::NotInVoice, "That member is not in voice chat.")
}

impl RoomState {
    pub fn voice_view(&self) -> Vec<VoiceView> {
        self.voice.iter().map(Voice::view).collect()
    }

    pub fn in_voice(&self, member: MemberId) -> Option<&Voice> {
        self.voice.iter().find(|v| v.member == member)
    }

    /// Announces `member`'s voice state as it now is (`null`: not in voice).
    pub fn emit_voice(&mut self, member: MemberId, effects: &mut Vec<Effect>) {
        let voice = self.in_voice(member).map(Voice::view);
        self.emit(effects, Event::Voice { member, voice });
    }

    /// Fills free speaker places with listeners, earliest first (not those
    /// the host muted), announcing each.
    pub fn promote_listeners(&mut self, effects: &mut Vec<Effect>) {
        loop {
            let speakers = self.voice.iter().filter(|v| v.speaker).count();
            if speakers >= MAX_SPEAKERS {
                return;
            }
            let Some(next) = self.voice.iter_mut().find(|v| !v.speaker && !v.host_muted) else {
                return;
            };
            next.speaker = true;
            let member = next.member;
            self.emit_voice(member, effects);
        }
    }

    /// `member` leaves voice, if in it (a listener takes a free speaker's
    /// place, earliest first).
    pub fn leave_voice(&mut self, member: MemberId, effects: &mut Vec<Effect>) {
        let Some(i) = self.voice.iter().position(|v| v.member == member) else {
            return;
        };
        self.voice.remove(i);
        self.emit_voice(member, effects);
        self.promote_listeners(effects);
    }
}
