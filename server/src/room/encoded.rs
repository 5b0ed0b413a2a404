//! An event serialised once for every socket ([`Encoded`]), and the one
//! place the room's task turns a message into JSON text ([`json`]).

use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use tracing::error;

use super::event::{Event, Stamped};
use super::views::MatchBody;
use crate::model::ids::MemberId;

/// An event serialised for sending: the bytes everyone gets, shared by
/// every socket (cloning `Utf8Bytes` copies no text), and for a move
/// whose legal list only the member due to play receives, that member's
/// own copy. `benches/fanout.rs` measures this against serialising per
/// socket.
#[derive(Clone)]
pub struct Encoded {
    pub text: Utf8Bytes,
    pub private: Option<(MemberId, Utf8Bytes)>,
}

impl Encoded {
    /// Serialises `stamped` once (twice for a private legal list).
    pub fn of(stamped: &Stamped) -> Encoded {
        Encoded {
            text: Utf8Bytes::from(json(stamped)),
            private: private_copy(stamped),
        }
    }

    /// The bytes `member` receives.
    pub fn for_member(&self, member: MemberId) -> Utf8Bytes {
        match &self.private {
            Some((due, own)) if *due == member => own.clone(),
            _ => self.text.clone(),
        }
    }
}

/// For a move whose legal list is only for the member due to play: that
/// member, and their copy of the event, with the list.
fn private_copy(stamped: &Stamped) -> Option<(MemberId, Utf8Bytes)> {
    let Event::Match { view, .. } = &stamped.event else {
        return None;
    };
    let MatchBody::Move(m) = view.as_ref() else {
        return None;
    };
    let (member, legal) = m.private_legal.as_ref()?;
    let mut own = stamped.clone();
    if let Event::Match { view, .. } = &mut own.event {
        if let MatchBody::Move(m) = view.as_mut() {
            m.legal = Some(legal.clone());
        }
    }
    Some((*member, Utf8Bytes::from(json(&own))))
}

/// A message as JSON text (`{}`, logged, if it cannot be serialised).
pub(super) fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        error!(error = %e, "could not serialise a message");
        String::from("{}")
    })
}
