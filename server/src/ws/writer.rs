//! The writer of one client: the queue's messages in order, gathered into
//! few socket writes, pings, and a close that lets what is queued go out.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, SinkExt};

use crate::model::now_millis;
use crate::room::{Closer, Queue, Shelf, SocketSink};

use super::lag::Lag;
use super::silence::*;
use super::*;

/// Sends the queue's messages in order. When the connection is closed
/// with a reason, what is already queued (an answer such as `room_full`
/// that explains the close) still goes out, for at most `CLOSE_GRACE`,
/// then the close frame.
/// With `ping`, a ping goes out at that interval.
///
/// With a `shelf`, the writer lends the socket to the room while its
/// queue is empty (`room::Outbox`), and takes it back before anything
/// else: a queued message (an empty one only asks it to flush what the
/// room left), a ping or the close.
pub(crate) async fn write_loop<Si>(
    sink: Si,
    queue: Queue,
    shelf: Option<Arc<Mutex<Shelf>>>,
    closer: Closer,
    ping: Option<Duration>,
    lag: Arc<Lag>,
) where
    Si: Sink<Message, Error = axum::Error> + Send + 'static,
{
    let mut sink: Option<SocketSink> = Some(Box::pin(sink));
    let closed = closer.closed();
    tokio::pin!(closed);
    let mut pings = ping_timer(ping);
    loop {
        if let Some(shelf) = &shelf {
            Shelf::lend(shelf, &mut sink, &queue);
        }
        let text = tokio::select! {
            biased;
            _ = &mut closed => break,
            text = queue.recv_async() => text.ok(),
            _ = next_ping(&mut pings) => {
                let Some(sink) = taken(&shelf, &mut sink) else { return };
                let stamp = lag.ping(now_millis());
                let sent = sink.send(Message::Ping(bytes::Bytes::copy_from_slice(&stamp)));
                match tokio::time::timeout(WRITE_TIMEOUT, sent).await {
                    Ok(Ok(())) => continue,
                    Ok(Err(_)) | Err(_) => return,
                }
            }
        };
        let Some(text) = text else {
            break;
        };
        let Some(sink) = taken(&shelf, &mut sink) else {
            return;
        };
        // What else is queued already goes out in the same write.
        let sent = async {
            feed_queued(sink, text).await?;
            for _ in 0..GATHER_MESSAGES {
                let Ok(text) = queue.try_recv() else {
                    break;
                };
                feed_queued(sink, text).await?;
            }
            sink.flush().await
        };
        match tokio::time::timeout(WRITE_TIMEOUT, sent).await {
            Ok(Ok(())) => {}
            // The client stopped reading altogether, or the socket broke.
            Ok(Err(_)) | Err(_) => return,
        }
    }
    let Some(sink) = taken(&shelf, &mut sink) else {
        return;
    };
    let flush = async {
        while let Ok(text) = queue.try_recv() {
            if feed_queued(sink, text).await.is_err() {
                return;
            }
        }
        let _ = sink.flush().await;
    };
    let _ = tokio::time::timeout(CLOSE_GRACE, flush).await;
    let frame = closer.frame().map(|(code, reason)| CloseFrame {
        code,
        reason: Utf8Bytes::from(reason),
    });
    let _ = tokio::time::timeout(WRITE_TIMEOUT, sink.send(Message::Close(frame))).await;
    let _ = tokio::time::timeout(WRITE_TIMEOUT, sink.close()).await;
}

/// Feeds a queued text into the socket; an empty one is no message, only
/// the room's request to flush what it left there (`room::Outbox`).
async fn feed_queued(sink: &mut SocketSink, text: Utf8Bytes) -> Result<(), axum::Error> {
    if text.is_empty() {
        return Ok(());
    }
    sink.feed(Message::Text(text)).await
}

/// The writer's socket, taken back from the shelf if it was lent.
fn taken<'s>(
    shelf: &Option<Arc<Mutex<Shelf>>>,
    sink: &'s mut Option<SocketSink>,
) -> Option<&'s mut SocketSink> {
    if let Some(shelf) = shelf {
        Shelf::reclaim(shelf, sink);
    }
    sink.as_mut()
}

#[cfg(test)]
mod tests {
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};

    use super::*;
    use crate::room::{close, socket_outbox, Outbox};

    /// A socket that records what it was sent: `written` holds one entry
    /// per write (the frames flushed together), and while `stuck` its
    /// flush waits, as a socket whose buffer is full.
    #[derive(Clone, Default)]
    struct Socket(Arc<Mutex<Wire>>);

    #[derive(Default)]
    struct Wire {
        buffered: Vec<String>,
        written: Vec<Vec<String>>,
        stuck: bool,
        waiting: Option<Waker>,
    }

    impl Socket {
        fn written(&self) -> Vec<Vec<String>> {
            self.0.lock().unwrap().written.clone()
        }

        fn stick(&self, stuck: bool) {
            let mut wire = self.0.lock().unwrap();
            wire.stuck = stuck;
            if let Some(waker) = wire.waiting.take() {
                waker.wake();
            }
        }
    }

    impl Sink<Message> for Socket {
        type Error = axum::Error;

        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }

        fn start_send(self: Pin<&mut Self>, message: Message) -> Result<(), Self::Error> {
            let text = match message {
                Message::Text(text) => text.to_string(),
                Message::Ping(_) => "ping".to_string(),
                Message::Close(frame) => format!("close {}", frame.map_or(0, |f| f.code)),
                _ => "other".to_string(),
            };
            self.0.lock().unwrap().buffered.push(text);
            Ok(())
        }

        fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            let mut wire = self.0.lock().unwrap();
            if wire.stuck {
                wire.waiting = Some(cx.waker().clone());
                return Poll::Pending;
            }
            if !wire.buffered.is_empty() {
                let frames = std::mem::take(&mut wire.buffered);
                wire.written.push(frames);
            }
            Poll::Ready(Ok(()))
        }

        fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            self.poll_flush(cx)
        }
    }

    fn text(s: &str) -> Utf8Bytes {
        Utf8Bytes::from(s.to_string())
    }

    fn writes(w: &[&[&str]]) -> Vec<Vec<String>> {
        w.iter()
            .map(|frames| frames.iter().map(|f| f.to_string()).collect())
            .collect()
    }

    /// Lets the writer task run until it waits again.
    async fn settle() {
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    }

    /// The room writes a player's messages into the socket its idle
    /// writer lent it, in one write, before anything else runs; a queued
    /// message takes the loan back, and what the room sends after it
    /// waits behind it; a socket that cannot take a write goes back to
    /// the writer, which finishes it and lends the socket again; the
    /// close goes out after everything. (On a single-threaded runtime:
    /// the writer runs only at an `.await`, so what is written before
    /// one was written by the room.)
    #[tokio::test]
    async fn the_room_writes_into_a_lent_socket_and_the_order_holds() {
        let socket = Socket::default();
        let (outbox, queue, shelf) = socket_outbox(16);
        let closer = Closer::new();
        let writer = tokio::spawn(write_loop(
            socket.clone(),
            queue,
            Some(shelf),
            closer.clone(),
            None,
            Lag::shared(),
        ));
        settle().await;
        let feed = |o: &Outbox, s: &str| o.feed(text(s)).expect("fed");

        // Lent: written by the room at once, both in one write.
        feed(&outbox, "move");
        feed(&outbox, "ack");
        outbox.flush();
        assert_eq!(socket.written(), writes(&[&["move", "ack"]]));

        // A queued message takes the loan back: it and what the room
        // feeds after it wait for the writer, in order.
        outbox.try_send(text("spectators")).expect("queued");
        feed(&outbox, "next");
        outbox.flush();
        assert_eq!(socket.written().len(), 1, "nothing written by the room");
        settle().await;
        assert_eq!(
            socket.written(),
            writes(&[&["move", "ack"], &["spectators", "next"]])
        );

        // Lent again; the socket is full: the room's write waits for the
        // writer, which sends it once the socket drains.
        socket.stick(true);
        feed(&outbox, "stuck");
        outbox.flush();
        feed(&outbox, "after");
        outbox.flush();
        settle().await;
        assert_eq!(socket.written().len(), 2);
        socket.stick(false);
        settle().await;
        assert_eq!(
            socket.written().concat(),
            ["move", "ack", "spectators", "next", "stuck", "after"]
        );

        // And lent once more: the room writes directly again.
        let before = socket.written().len();
        feed(&outbox, "again");
        outbox.flush();
        assert_eq!(socket.written().len(), before + 1);
        assert_eq!(socket.written().last(), Some(&vec!["again".to_string()]));

        // The close comes after every message, the lent socket taken
        // back for it.
        outbox.try_send(text("last")).expect("queued");
        closer.close(close::POLICY, "bye");
        writer.await.expect("the writer ends");
        let all = socket.written().concat();
        assert_eq!(all[all.len() - 2..], ["last", "close 1008"]);
    }

    /// Without a shelf (a relayed client, the lobby) every message goes
    /// through the queue: nothing is written before the writer runs.
    #[tokio::test]
    async fn without_a_shelf_the_writer_writes_everything() {
        let socket = Socket::default();
        let (outbox, queue) = crate::room::outbox(16);
        let closer = Closer::new();
        let writer = tokio::spawn(write_loop(
            socket.clone(),
            queue,
            None,
            closer.clone(),
            None,
            Lag::shared(),
        ));
        settle().await;
        outbox.feed(text("a")).expect("queued");
        outbox.flush();
        assert!(socket.written().is_empty());
        settle().await;
        assert_eq!(socket.written(), writes(&[&["a"]]));
        closer.close(close::POLICY, "bye");
        writer.await.expect("the writer ends");
    }
}
