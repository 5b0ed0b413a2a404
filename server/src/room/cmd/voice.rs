//! `voice`, `mute` and `voice_mute`: joining and leaving voice chat,
//! muting oneself, and the host muting a member for everyone. The first
//! eight in voice speak; the others listen until a speaker leaves.

use super::super::ids::MemberId;
use super::super::state::{Applied, RoomState};
use super::super::voice::{Voice, MAX_SPEAKERS};
use crate::protocol::{Code, Refusal};

impl RoomState {
    pub(super) fn voice(&mut self, member: MemberId, join: bool) -> Applied {
        let mut effects = Vec::new();
        if !join {
            self.in_voice(member).ok_or_else(not_in_voice)?;
            self.leave_voice(member, &mut effects);
            return Ok(effects);
        }
        // Voice is a page's: a member with none open cannot be in it.
        if self.member(member).is_none_or(|m| m.conns == 0) {
            return Err(Refusal::new(Code::HelloFirst, "Open the room first."));
        }
        if self.in_voice(member).is_none() {
            let speakers = self.voice.iter().filter(|v| v.speaker).count();
            self.voice.push(Voice {
                member,
                speaker: speakers < MAX_SPEAKERS,
                muted: false,
                host_muted: false,
            });
        }
        self.emit_voice(&mut effects);
        Ok(effects)
    }

    pub(super) fn mute(&mut self, member: MemberId, muted: bool) -> Applied {
        self.voice_mut(member)?.muted = muted;
        let mut effects = Vec::new();
        self.emit_voice(&mut effects);
        Ok(effects)
    }

    pub(super) fn voice_mute(&mut self, host: MemberId, member: MemberId, muted: bool) -> Applied {
        self.require_host(host)?;
        self.voice_mut(member)?.host_muted = muted;
        let mut effects = Vec::new();
        self.emit_voice(&mut effects);
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
