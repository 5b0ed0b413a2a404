//! An event serialised once for every socket ([`Encoded`]), and the one
//! place the room's task turns a message into JSON text ([`json`]).

use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use tracing::error;

use super::event::{Event, Stamped};
use super::views::{MatchBody, MoveView};
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
    /// Serialises `stamped` once (twice for a private legal list). Taken
    /// by value: the private copy is the same event with the list put in,
    /// not a clone of it (a clone copied the whole game a move).
    pub fn of(mut stamped: Stamped) -> Encoded {
        let text = Utf8Bytes::from(json(&stamped));
        let private = move_view(&mut stamped).and_then(|m| {
            let (member, legal) = m.private_legal.take()?;
            m.legal = Some(legal);
            Some(member)
        });
        let private = private.map(|member| (member, Utf8Bytes::from(json(&stamped))));
        Encoded { text, private }
    }

    /// The bytes `member` receives.
    pub fn for_member(&self, member: MemberId) -> Utf8Bytes {
        match &self.private {
            Some((due, own)) if *due == member => own.clone(),
            _ => self.text.clone(),
        }
    }
}

/// The view of a move event, whose legal list may be for the member due
/// to play only.
fn move_view(stamped: &mut Stamped) -> Option<&mut MoveView> {
    let Event::Match { view, .. } = &mut stamped.event else {
        return None;
    };
    match view.as_mut() {
        MatchBody::Move(m) => Some(m),
        _ => None,
    }
}

/// A message as JSON text (`{}`, logged, if it cannot be serialised).
pub(super) fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        error!(error = %e, "could not serialise a message");
        String::from("{}")
    })
}
