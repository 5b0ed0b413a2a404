//! `signal`: WebRTC signalling (an offer, an answer, an ICE candidate)
//! relayed to one member of the same room, as a message for them alone.
//! Both ends must be in voice and at least one of them a speaker (two
//! listeners have nothing to send each other); the message is checked
//! for size and form (`validate::signal`) and never read further. Each
//! sender has a budget of messages (`voice.rs`), whatever the number of
//! their pages.

use serde::{Deserialize, Deserializer};

use super::super::event::{Direct, Effect};
use super::super::state::{Applied, RoomState};
use super::voice::not_in_voice;
use crate::model::ids::MemberId;
use crate::protocol::{self, Code, Refusal, Signal};
use crate::validate;

/// `signal`: WebRTC signalling for voice chat, relayed to `to` only.
#[derive(Debug, Deserialize)]
pub struct SendSignal {
    pub to: MemberId,
    /// Its `kind` is a tag: a string, never a variant's index.
    #[serde(flatten, deserialize_with = "kind_is_a_string")]
    pub signal: Signal,
}

fn kind_is_a_string<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Signal, D::Error> {
    protocol::string_tags(deserializer, &["kind"])
}

impl RoomState {
    pub(super) fn signal(
        &mut self,
        member: MemberId,
        to: MemberId,
        signal: Signal,
        now: u64,
    ) -> Applied {
        validate::signal(&signal).map_err(|e| Refusal::new(Code::BadSignal, e))?;
        if to == member {
            return Err(Refusal::new(
                Code::BadSignal,
                "Signalling goes to another member.",
            ));
        }
        let from = self
            .in_voice(member)
            .ok_or_else(|| Refusal::new(Code::NotInVoice, "Join voice chat first."))?;
        let target = self.in_voice(to).ok_or_else(not_in_voice)?;
        if !from.speaker && !target.speaker {
            return Err(Refusal::new(
                Code::BadSignal,
                "Two listeners have no voice to exchange.",
            ));
        }
        // The budgets are spent last: a refused message costs nothing.
        let addr = self.member(member).and_then(|m| m.seen_from);
        if !self.signal_budgets.take(member, addr, now) {
            return Err(Refusal::new(
                Code::RateLimited,
                "Too much signalling; slow down.",
            ));
        }
        Ok(vec![Effect::Direct {
            member: to,
            message: Direct::Signal {
                from: member,
                signal,
            },
        }])
    }
}
