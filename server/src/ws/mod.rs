//! One WebSocket connection: the upgrade checks, a reader that enforces the
//! limits and forwards commands to the room, and a writer fed by a bounded
//! queue.
//!
//! Bounds on a socket that costs a file descriptor and memory while it
//! does nothing: at most `--max-sockets-per-addr` per client address and
//! per account ([`crate::limits::open::OpenPerClient`]), `hello` within
//! `--hello-timeout-secs`, and, where
//! the WebSocket is on this node, a ping every `--ping-secs`: a peer that
//! sends nothing for twice that is gone (`Silence`, `silence.rs`).
//!
//! `upgrade.rs` checks and upgrades the request, `reader.rs` reads the
//! client's frames and `writer.rs` sends the room's messages;
//! `silence.rs` notices a peer that went
//! quiet. A socket relayed from another node (`cluster/`) uses the reader,
//! the writer and the timers here without the upgrade.

pub mod lag;
pub mod lobby;
pub mod reader;
pub mod silence;
pub mod upgrade;
pub mod writer;

use std::sync::atomic::{AtomicU64, Ordering};

use crate::model::ConnId;

/// Messages queued for one client before it counts as too slow and is
/// dropped: a snapshot plus a burst of events fits easily.
pub(crate) const SEND_QUEUE: usize = 256;
/// Hard cap on a frame (and on a message of several frames); larger ones
/// close the connection with 1009. Between `protocol::MAX_MESSAGE_BYTES`
/// and this, the client gets `too_large`.
pub(crate) const MAX_FRAME_BYTES: usize = 64 * 1024;
/// What the WebSocket library reads at most, the same cap: a frame whose
/// header announces more is refused on its header, at once, without
/// waiting for (or buffering) its payload, and closes with 1009
/// (`reader::read_error`). The reader's own check on the text read is
/// then a second guard.
const LIBRARY_FRAME_BYTES: usize = MAX_FRAME_BYTES;
/// Bytes of queued messages gathered into one write to the socket.
const WRITE_GATHER: usize = 4 * 1024;
/// Queued messages gathered after the first, at most, before a flush.
pub(crate) const GATHER_MESSAGES: usize = 16;
/// A client that takes longer than this to take one message is gone.
pub(crate) const WRITE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
/// After a close: how long queued messages may take to go out, and how
/// long the client has to answer the close frame.
pub(crate) const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// A connection id unique in this process.
pub(crate) fn next_conn() -> ConnId {
    ConnId(NEXT_CONN.fetch_add(1, Ordering::Relaxed))
}
