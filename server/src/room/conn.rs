//! What the room holds of a connection: its send queue and a way to close
//! it with a reason. A message is either queued for the client or the
//! connection is closed with a close code saying why (the client then
//! reconnects and resyncs from a snapshot): nothing is dropped silently.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use axum::extract::ws::{Message, Utf8Bytes};
use flume::TrySendError;
use futures_util::Sink;
use tokio_util::sync::CancellationToken;

use crate::model::ids::MemberId;

/// A socket's sending half, as its writer and the room share it.
pub type SocketSink = Pin<Box<dyn Sink<Message, Error = axum::Error> + Send>>;

/// What the room sends to one connection: serialised JSON text, cheap to
/// clone for every subscriber of a broadcast, through a flume queue
/// drained by the connection's writer (`ws::writer`). A flume channel: an
/// idle socket's queue holds a few hundred bytes where tokio's mpsc
/// allocates a block of 32 slots and a cache-padded header, 1.5 KiB, up
/// front (BENCHMARKS.md, "Memory per socket, and a cheaper move").
///
/// A socket of this node also has a [`Shelf`]: while its writer has
/// nothing to do it lends the socket there, and the room's task writes a
/// player's messages into it itself ([`Outbox::feed`], [`Outbox::flush`])
/// instead of queueing them and waking the writer, a task switch and
/// often a thread's wake-up for every message (BENCHMARKS.md, "Players'
/// messages written by the room"). Whatever would wait (a full socket
/// buffer, the reader holding the socket) goes back to the writer, so the
/// room never waits on a client.
#[derive(Clone)]
pub struct Outbox {
    queue: flume::Sender<Utf8Bytes>,
    shelf: Option<Arc<Mutex<Shelf>>>,
}

/// The writer's end of an [`Outbox`]. An empty text in it is no message:
/// it asks the writer to flush what the room left in the socket.
pub type Queue = flume::Receiver<Utf8Bytes>;

/// Where an idle writer lends its socket to the room's task.
///
/// The writer lends it only with its queue empty, and anyone who queues
/// a message takes the loan back first (both under this lock), so while
/// the socket is lent nothing waits in the queue, and messages written
/// into it directly come after everything queued before them.
#[derive(Default)]
pub struct Shelf {
    /// The socket, while the writer waits on its queue (or between the
    /// loan's end and the writer taking it back).
    sink: Option<SocketSink>,
    /// Whether the room may write into `sink`.
    lent: bool,
    /// Whether the room wrote into it since its last flush.
    fed: bool,
}

impl Shelf {
    /// The writer lends `sink` if nothing waits in `queue`, and keeps it
    /// otherwise.
    pub fn lend(shelf: &Mutex<Shelf>, sink: &mut Option<SocketSink>, queue: &Queue) {
        let mut s = lock(shelf);
        if queue.is_empty() && s.sink.is_none() {
            s.sink = sink.take();
            s.lent = s.sink.is_some();
            s.fed = false;
        }
    }

    /// The writer takes its socket back, if it was lent.
    pub fn reclaim(shelf: &Mutex<Shelf>, sink: &mut Option<SocketSink>) {
        if sink.is_some() {
            return;
        }
        let mut s = lock(shelf);
        s.lent = false;
        *sink = s.sink.take();
    }
}

fn lock(shelf: &Mutex<Shelf>) -> std::sync::MutexGuard<'_, Shelf> {
    shelf.lock().unwrap_or_else(|e| e.into_inner())
}

impl Outbox {
    /// Queues `text` for the writer (taking back a loan of the socket
    /// first): for messages that may wait behind others, such as a
    /// spectator's copy of a move. Full when the client has not read
    /// `depth` messages.
    pub fn try_send(&self, text: Utf8Bytes) -> Result<(), TrySendError<Utf8Bytes>> {
        match &self.shelf {
            None => self.queue.try_send(text),
            Some(shelf) => {
                let mut s = lock(shelf);
                s.lent = false;
                self.queue.try_send(text)
            }
        }
    }

    /// Queues `text`, waiting while the queue is full (the reader's own
    /// replies: a client that does not read stops being read). The loan
    /// ends under the shelf's lock with the push, as in
    /// [`Outbox::try_send`]; a full queue is waited on without the lock
    /// (the writer lends nothing while its queue holds a message).
    pub async fn send_async(&self, text: Utf8Bytes) -> Result<(), flume::SendError<Utf8Bytes>> {
        let text = match self.try_send(text) {
            Ok(()) => return Ok(()),
            Err(TrySendError::Disconnected(text)) => return Err(flume::SendError(text)),
            Err(TrySendError::Full(text)) => text,
        };
        self.queue.send_async(text).await
    }

    /// Writes `text` into the socket now if its writer has lent it and
    /// the socket takes it without waiting (kept in the socket's buffer
    /// until [`Outbox::flush`], so that what a command sends one client
    /// goes in one write); queues it otherwise, as [`Outbox::try_send`].
    pub fn feed(&self, text: Utf8Bytes) -> Result<(), TrySendError<Utf8Bytes>> {
        let Some(shelf) = &self.shelf else {
            return self.queue.try_send(text);
        };
        let mut s = lock(shelf);
        if s.lent {
            if let Some(sink) = s.sink.as_mut() {
                let mut cx = Context::from_waker(Waker::noop());
                if let Poll::Ready(Ok(())) = sink.as_mut().poll_ready(&mut cx) {
                    let fed = sink.as_mut().start_send(Message::Text(text));
                    s.fed = true;
                    if fed.is_err() {
                        // A broken socket: the writer finds out and ends.
                        return self.hand_back(&mut s);
                    }
                    return Ok(());
                }
            }
        }
        s.lent = false;
        self.queue.try_send(text)
    }

    /// Sends what [`Outbox::feed`] left in the socket. What the socket
    /// cannot take now goes back to the writer, whose own wake-up then
    /// finishes it.
    pub fn flush(&self) {
        let Some(shelf) = &self.shelf else {
            return;
        };
        let mut s = lock(shelf);
        if !(s.lent && s.fed) {
            return;
        }
        let Some(sink) = s.sink.as_mut() else {
            return;
        };
        let mut cx = Context::from_waker(Waker::noop());
        if let Poll::Ready(Ok(())) = sink.as_mut().poll_flush(&mut cx) {
            s.fed = false;
            return;
        }
        let _ = self.hand_back(&mut s);
    }

    /// Ends the loan of a socket the room wrote into and wakes the writer
    /// to finish it: an empty text in its queue, which is empty while the
    /// socket is lent, so it fits.
    fn hand_back(&self, s: &mut Shelf) -> Result<(), TrySendError<Utf8Bytes>> {
        s.lent = false;
        self.queue.try_send(Utf8Bytes::default())
    }
}

/// A connection's send queue, `depth` messages deep (`ws::SEND_QUEUE`
/// for a socket), the writer's socket not shared.
pub fn outbox(depth: usize) -> (Outbox, Queue) {
    let (queue, rx) = flume::bounded(depth);
    (Outbox { queue, shelf: None }, rx)
}

/// A socket's send queue and the shelf on which its writer lends the
/// socket to the room ([`Outbox`]).
pub fn socket_outbox(depth: usize) -> (Outbox, Queue, Arc<Mutex<Shelf>>) {
    let (queue, rx) = flume::bounded(depth);
    let shelf = Arc::new(Mutex::new(Shelf::default()));
    let outbox = Outbox {
        queue,
        shelf: Some(shelf.clone()),
    };
    (outbox, rx, shelf)
}

/// WebSocket close codes the server uses (RFC 6455 §7.4.1).
pub mod close {
    /// A frame that breaks RFC 6455 (a control frame over 125 bytes, …).
    pub const PROTOCOL: u16 = 1002;
    /// The client broke a rule: its send queue overflowed (it stopped
    /// reading), or the room refused it.
    pub const POLICY: u16 = 1008;
    /// [`POLICY`]'s reason when a connection's send queue overflowed, or
    /// a relayed client's inbox on the room's node did.
    pub const NOT_READING: &str =
        "Too many messages waiting: the connection is not reading. Reconnect to resync.";
    /// A frame over the hard size limit.
    pub const TOO_BIG: u16 = 1009;
    /// A text frame that is not UTF-8.
    pub const BAD_DATA: u16 = 1007;
    /// The room hit an internal error and restarts from the store.
    pub const INTERNAL: u16 = 1011;
    /// The server is restarting (SIGTERM).
    pub const RESTART: u16 = 1012;
    /// [`RESTART`]'s reason, the same for every socket.
    pub const RESTART_REASON: &str = "The server is restarting; reconnect in a moment.";
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
