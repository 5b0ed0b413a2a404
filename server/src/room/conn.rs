//! What the room holds of a connection: its send queue and a way to close
//! it with a reason. A message is either queued for the client or the
//! connection is closed with a close code saying why (the client then
//! reconnects and resyncs from a snapshot): nothing is dropped silently.

use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use tokio_util::sync::CancellationToken;

use crate::model::ids::MemberId;

/// What the room sends to one connection: serialised JSON text, cheap to
/// clone for every subscriber of a broadcast. A flume channel: an idle
/// socket's queue holds a few hundred bytes where tokio's mpsc allocates
/// a block of 32 slots and a cache-padded header, 1.5 KiB, up front
/// (BENCHMARKS.md, "Memory per socket, and a cheaper move").
pub type Outbox = flume::Sender<Utf8Bytes>;

/// The writer's end of an [`Outbox`].
pub type Queue = flume::Receiver<Utf8Bytes>;

/// A connection's send queue, `depth` messages deep (`ws::SEND_QUEUE`
/// for a socket).
pub fn outbox(depth: usize) -> (Outbox, Queue) {
    flume::bounded(depth)
}

/// WebSocket close codes the server uses (RFC 6455 §7.4.1).
pub mod close {
    /// The client broke a rule: its send queue overflowed (it stopped
    /// reading), or the room refused it.
    pub const POLICY: u16 = 1008;
    /// A frame over the hard size limit.
    pub const TOO_BIG: u16 = 1009;
    /// A text frame that is not UTF-8.
    pub const BAD_DATA: u16 = 1007;
    /// The room hit an internal error and restarts from the store.
    pub const INTERNAL: u16 = 1011;
    /// The server is restarting (SIGTERM).
    pub const RESTART: u16 = 1012;
    /// The room is reloading; reconnect.
    pub const TRY_AGAIN: u16 = 1013;
}

/// Closes one connection with a code and a reason; the first reason
/// wins. Cloned between the room, the connection's reader and its writer.
#[derive(Clone, Default)]
pub struct Closer {
    token: CancellationToken,
    frame: Arc<Mutex<Option<(u16, String)>>>,
}

impl Closer {
    pub fn new() -> Closer {
        Closer::default()
    }

    pub fn close(&self, code: u16, reason: &str) {
        {
            let mut frame = self.frame.lock().unwrap_or_else(|e| e.into_inner());
            if frame.is_none() {
                // Close reasons are limited to 123 bytes.
                let mut reason = reason.to_string();
                while reason.len() > 120 {
                    reason.pop();
                }
                *frame = Some((code, reason));
            }
        }
        self.token.cancel();
    }

    pub async fn closed(&self) {
        self.token.cancelled().await
    }

    pub fn is_closed(&self) -> bool {
        self.token.is_cancelled()
    }

    /// The code and reason given, if any.
    pub fn frame(&self) -> Option<(u16, String)> {
        self.frame.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// An attached connection, as the room's task sees it.
pub struct Conn {
    pub member: MemberId,
    pub outbox: Outbox,
    pub closer: Closer,
    /// For a client relayed from another node, that node's id.
    pub via: Option<std::sync::Arc<str>>,
}

/// A room task that ends (idle, or dying) closes its connections; those
/// still open reconnect, to the room reloaded from the store.
impl Drop for Conn {
    fn drop(&mut self) {
        self.closer
            .close(close::INTERNAL, "The room restarted; reconnecting.");
    }
}
