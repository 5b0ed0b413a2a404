//! Values that commands carry and other modules read too (the knockout's
//! start order, a signal relayed as it came).

use serde::{Deserialize, Serialize};

/// Where a client's view of a room stands: the `epoch` of its last
/// snapshot and the version `v` of the last event it applied.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Since {
    pub epoch: String,
    pub v: u64,
}

/// What a `draw` command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

/// What a `claim` command asks for, from opponents who left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimAction {
    Win,
    Draw,
}

/// One WebRTC signalling message (docs/PROTOCOL.md, "Voice chat"): a
/// session description, or one ICE candidate (`candidate` empty: the end
/// of the candidates). The server checks its size and form, never its
/// meaning. Read through [`super::string_tags`] (its `kind` is a tag).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Signal {
    Offer {
        sdp: String,
    },
    Answer {
        sdp: String,
    },
    Candidate {
        candidate: String,
        /// Left out of the relayed message when not given (PROTOCOL.md).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mid: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<u16>,
    },
}

/// Who plays which side when a game starts (RULES.md: random unless the
/// host fixes it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    #[default]
    Random,
    Seats,
}
