//! Voice chat's state: who is in it, who speaks, who is muted. The audio
//! itself goes browser to browser (WebRTC); the room only keeps this list
//! and relays the signalling (`cmd/signal.rs`). Voice is live only: it is
//! not stored, and a member whose last page closes leaves it.

use super::event::{Effect, Event};
use super::ids::MemberId;
use super::state::RoomState;
use super::views::VoiceView;

/// Members who may send their voice at once; more only listen (a mesh of
/// n speakers costs each of them n-1 uploads).
pub const MAX_SPEAKERS: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Voice {
    pub member: MemberId,
    pub speaker: bool,
    pub muted: bool,
    pub host_muted: bool,
}

impl RoomState {
    pub fn voice_view(&self) -> Vec<VoiceView> {
        self.voice
            .iter()
            .map(|v| VoiceView {
                member: v.member,
                speaker: v.speaker,
                muted: v.muted,
                host_muted: v.host_muted,
            })
            .collect()
    }

    pub fn in_voice(&self, member: MemberId) -> Option<&Voice> {
        self.voice.iter().find(|v| v.member == member)
    }

    pub fn emit_voice(&mut self, effects: &mut Vec<Effect>) {
        let voice = self.voice_view();
        self.emit(effects, Event::Voice { voice });
    }

    /// `member` leaves voice, if in it (a listener takes a free speaker's
    /// place, earliest first).
    pub fn leave_voice(&mut self, member: MemberId, effects: &mut Vec<Effect>) {
        let Some(i) = self.voice.iter().position(|v| v.member == member) else {
            return;
        };
        let gone = self.voice.remove(i);
        if gone.speaker {
            if let Some(next) = self.voice.iter_mut().find(|v| !v.speaker) {
                next.speaker = true;
            }
        }
        self.emit_voice(effects);
    }
}
