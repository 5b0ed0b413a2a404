//! Voice chat's state: who is in it, who speaks, who is muted. The audio
//! itself goes browser to browser (WebRTC); the room only keeps this list
//! and relays the signalling (`cmd/signal.rs`); joining, leaving and
//! muting are `cmd/voice.rs`. Voice is live only: it is
//! not stored, and a member whose last page closes leaves it.
//!
//! Every change goes out as one `voice` event per member it changed (that
//! member's state, or `null` when they left), never the whole list: a
//! room of N in voice would otherwise send N entries to N pages for each
//! mute. The snapshot carries the whole list (`room.voice`).
//!
//! A member's signalling is budgeted here, per sender: a token bucket in
//! the room's own clock (`now`, milliseconds), which keeps the room's state
//! a pure function of its commands (the room's simulation tests replay
//! them); the per-connection limit in `ws/reader.rs` does not bound a member
//! with many pages.

use super::views::VoiceView;
use crate::model::ids::MemberId;

/// Members who may send their voice at once; more only listen (a mesh of
/// n speakers costs each of them n-1 uploads).
pub const MAX_SPEAKERS: usize = 8;

/// Signalling messages a member may send at once (all their pages
/// together: enough to connect to every speaker and listener of a full
/// voice chat with a few candidates each), and how many more a second.
pub const SIGNAL_BURST: f64 = 60.0;
pub const SIGNAL_RATE: f64 = 10.0;

#[derive(Clone, Debug, PartialEq)]
pub struct Voice {
    pub member: MemberId,
    pub speaker: bool,
    pub muted: bool,
    pub host_muted: bool,
    /// Signalling this member may still send, as of `signals_at` (ms).
    pub signals: f64,
    pub signals_at: u64,
}

impl Voice {
    pub fn new(member: MemberId, speaker: bool, now: u64) -> Voice {
        Voice {
            member,
            speaker,
            muted: false,
            host_muted: false,
            signals: SIGNAL_BURST,
            signals_at: now,
        }
    }

    /// Spends one signalling message of the budget at `now`, if any is left.
    pub fn take_signal(&mut self, now: u64) -> bool {
        let elapsed = now.saturating_sub(self.signals_at) as f64 / 1000.0;
        self.signals_at = self.signals_at.max(now);
        self.signals = (self.signals + elapsed * SIGNAL_RATE).min(SIGNAL_BURST);
        if self.signals >= 1.0 {
            self.signals -= 1.0;
            true
        } else {
            false
        }
    }

    pub(super) fn view(&self) -> VoiceView {
        VoiceView {
            member: self.member,
            speaker: self.speaker,
            muted: self.muted,
            host_muted: self.host_muted,
        }
    }
}
