//! A room whose every socket is relayed from one other node moves there.
//!
//! Behind a proxy that sends a room code's sockets to one node (the
//! shipped nginx hashes the code), a room runs where its sockets land:
//! the first node asked for it takes it (`registry.rs`). It can end up
//! elsewhere: taken over while that node was down, or when the node list
//! changed; its sockets then come back to the proxy's node and are
//! relayed. When, on several nodes, every connection of a room has come
//! from the same other node for [`HANDOVER_AFTER`], and no game of it is
//! under way (it could be unloaded: `RoomState::may_unload`), nor an
//! auto-start countdown, nor a hint's search, the room
//! lets its lease go and closes its connections with 1012; they reconnect
//! through the proxy to that node, which takes the room. A proxy that
//! does not keep a room's sockets together rarely moves a room (all its
//! sockets must be relayed from one node), and never during a game.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::RoomTask;

/// How long a room's sockets must all have come from one other node
/// before the room moves there.
pub(in crate::room) const HANDOVER_AFTER: Duration = Duration::from_secs(10);

impl RoomTask {
    /// The other node every connection of this room comes from, if there
    /// is one and the room may move (several nodes, nothing under way).
    fn relayed_from_one_node(&self) -> Option<Arc<str>> {
        // One node (no lease): nowhere to move.
        self.fence?;
        if !self.state.may_unload() || self.state.countdown.is_some() || !self.hints.is_empty() {
            return None;
        }
        let mut from: Option<&Arc<str>> = None;
        for c in self.conns.values() {
            let node = c.via.as_ref()?;
            match from {
                Some(seen) if seen != node => return None,
                _ => from = Some(node),
            }
        }
        from.cloned()
    }

    /// Notes where the room's connections come from; when the room should
    /// move, the moment it should.
    pub(super) fn handover_at(&mut self) -> Option<Instant> {
        match (self.relayed_from_one_node(), &self.relayed_since) {
            (None, _) => self.relayed_since = None,
            (Some(node), Some((seen, _))) if *seen == node => {}
            (Some(node), _) => self.relayed_since = Some((node, Instant::now())),
        }
        self.relayed_since
            .as_ref()
            .map(|(_, since)| *since + HANDOVER_AFTER)
    }

    /// The room should move now.
    pub(super) fn handover_due(&mut self) -> bool {
        self.handover_at().is_some_and(|at| at <= Instant::now())
    }
}
