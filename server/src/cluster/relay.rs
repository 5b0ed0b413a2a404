//! The relaying side: a socket on this node whose room runs on another.
//! Its frames go to the owner as they are; the owner's messages come back
//! on `bg.node.N.conn` and go to the socket in order. The owner checks and
//! answers every command, but what needs no room is settled here, as a
//! local socket's reader does (`ws::reader`), so a hostile client puts
//! nothing on NATS past its own allowance: the per-connection rate
//! (`rate_limited`, answered here with the command's id), text over the
//! 16 KiB message limit (`too_large`), binary frames (`bad_message`), the
//! 64 KiB frame limit and read errors (the same close codes), pings past
//! the rate (closed); and keepalive: the WebSocket is here, so this node
//! pings it and closes it when it falls silent (the owner then detaches
//! the client, as for any close).

use async_nats::{HeaderMap, Subscriber};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tracing::debug;

use super::wire::{self, Frame};
use super::{
    close_with, room_subject, Cluster, Relayed, ACCOUNT, ADDR, BASE, CONN, OP, RELAY, ROOM,
};
use crate::protocol::{self, Code, Refusal, MAX_MESSAGE_BYTES};
use crate::room::{close, Command};
use crate::ws::reader::{
    closed_if_too_big, read_error, too_many_messages, Link, TokenBucket, TOO_MANY_PINGS,
};
use crate::ws::silence::{next_ping, ping_timer, Silence};
use crate::ws::{next_conn, CLOSE_GRACE, GATHER_MESSAGES, SEND_QUEUE, WRITE_TIMEOUT};

/// Reads `bg.node.N.conn`, batches of frames for this node's relayed
/// sockets (`wire.rs`), and hands each frame to its socket.
pub(super) async fn dispatch(cluster: Cluster, mut inbox: Subscriber) {
    while let Some(msg) = inbox.next().await {
        if msg.headers.is_some() {
            debug!("a message with headers on a relay's subject");
            continue;
        }
        for frame in wire::decode(msg.payload) {
            let Some(relayed) = cluster.inner.relayed.get(&frame.id) else {
                continue;
            };
            match frame.op {
                wire::TEXT => {
                    let Ok(text) = Utf8Bytes::try_from(frame.body) else {
                        continue;
                    };
                    if relayed.texts.try_send(text).is_err() {
                        relayed.closer.close(close::POLICY, close::NOT_READING);
                    }
                }
                wire::CLOSE => close_with(&relayed.closer, &frame),
                _ => debug!("an unknown frame for a relayed socket"),
            }
        }
    }
}

impl Cluster {
    /// Serves `socket`, whose room `code` runs on node `owner`, by
    /// forwarding: until either side closes.
    /// `account` is the one the client's session cookie signed in here;
    /// `link`: its closer (a session that ended closes the socket from
    /// outside), the interval of keepalive pings, and the client's
    /// address, which goes to the owner with the socket; `bucket`: the
    /// connection's rate limit (none without one).
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn forward(
        &self,
        socket: WebSocket,
        owner: String,
        code: String,
        base_url: String,
        account: Option<i64>,
        link: Link,
        mut bucket: Option<TokenBucket>,
    ) {
        let Link {
            closer,
            ping,
            client,
            via: _,
        } = link;
        let conn = next_conn().0;
        let (texts, mut queue) = mpsc::channel::<Utf8Bytes>(SEND_QUEUE);
        // This node's own answers (the refusals settled here) join the
        // owner's messages in the socket's queue.
        let answers = texts.clone();
        let answer = |text: String| {
            if answers.try_send(Utf8Bytes::from(text)).is_err() {
                closer.close(close::POLICY, close::NOT_READING);
            }
        };
        // The client's own pings, at the same rate, a bucket of their own.
        let mut ping_bucket = bucket.clone();
        self.inner.relayed.insert(
            conn,
            Relayed {
                owner: owner.clone(),
                texts,
                closer: closer.clone(),
            },
        );
        let mut open = HeaderMap::new();
        open.insert(OP, "open");
        open.insert(RELAY, self.inner.node.as_str());
        open.insert(CONN, conn.to_string().as_str());
        open.insert(ROOM, code.as_str());
        open.insert(BASE, base_url.as_str());
        if let Some(account) = account {
            open.insert(ACCOUNT, account.to_string().as_str());
        }
        if let Some(client) = client {
            open.insert(ADDR, client.to_string().as_str());
        }
        let (mut sink, mut stream) = socket.split();
        // The owner answers `ok ID`: ID names the client in the frames
        // sent to it.
        let id = match self.request(&owner, open).await.as_deref() {
            Some(answer) => answer
                .strip_prefix(b"ok ")
                .and_then(|id| std::str::from_utf8(id).ok()?.parse::<u64>().ok()),
            None => None,
        };
        if id.is_none() {
            closer.close(close::TRY_AGAIN, "The room is moving; reconnect.");
        }
        let id = id.unwrap_or_default();
        let outbox = self.outbox(room_subject(&owner));
        let mut client_left = false;
        let mut pings = ping_timer(ping);
        let mut silence = Silence::new(ping);
        while !closer.is_closed() {
            tokio::select! {
                biased;
                _ = closer.closed() => break,
                _ = silence.expired() => {
                    closer.close(close::POLICY, &silence.reason());
                    break;
                }
                _ = next_ping(&mut pings) => {
                    let sent = sink.send(Message::Ping(Bytes::new()));
                    if !matches!(tokio::time::timeout(WRITE_TIMEOUT, sent).await, Ok(Ok(()))) {
                        client_left = true;
                        break;
                    }
                }
                text = queue.recv() => {
                    let Some(text) = text else { break };
                    // What else is queued goes out in the same write, as
                    // in `ws::writer`.
                    let sent = async {
                        sink.feed(Message::Text(text)).await?;
                        for _ in 0..GATHER_MESSAGES {
                            let Ok(text) = queue.try_recv() else { break };
                            sink.feed(Message::Text(text)).await?;
                        }
                        sink.flush().await
                    };
                    match tokio::time::timeout(WRITE_TIMEOUT, sent).await {
                        Ok(Ok(())) => {}
                        Ok(Err(_)) | Err(_) => {
                            client_left = true;
                            break;
                        }
                    }
                }
                frame = stream.next() => {
                    silence.heard();
                    let text = match frame {
                        Some(Ok(Message::Text(text))) => text,
                        Some(Ok(Message::Binary(_))) => {
                            let refusal =
                                Refusal::new(Code::BadMessage, "Send JSON text frames, not binary.");
                            answer(refusal.to_message(None));
                            continue;
                        }
                        // Pongs, ours answered or unasked, count with the pings.
                        Some(Ok(Message::Ping(_) | Message::Pong(_))) => {
                            if ping_bucket.as_mut().is_some_and(|b| !b.take()) {
                                closer.close(close::POLICY, TOO_MANY_PINGS);
                                break;
                            }
                            continue;
                        }
                        Some(Err(e)) => {
                            let (code, reason) = read_error(&e);
                            closer.close(code, reason);
                            break;
                        }
                        Some(Ok(Message::Close(_))) | None => {
                            client_left = true;
                            break;
                        }
                    };
                    if closed_if_too_big(&closer, text.len()) {
                        break;
                    }
                    let limited = bucket.as_mut().is_some_and(|b| !b.take());
                    if limited || text.len() > MAX_MESSAGE_BYTES {
                        // Read only to answer here (with the command's id,
                        // as the reader does); the common case is not parsed.
                        let parsed = protocol::parse::<Command>(text.as_str());
                        let refusal = match parsed {
                            Ok(envelope) if limited => Some(too_many_messages(Some(envelope.id))),
                            Err((id, _)) if limited => Some(too_many_messages(id)),
                            Err((id, refusal)) => Some(refusal.to_message(id)),
                            Ok(_) => None,
                        };
                        if let Some(refusal) = refusal {
                            answer(refusal);
                            continue;
                        }
                    }
                    let (op, body) = (wire::TEXT, Bytes::from(text));
                    if outbox.send(Frame { op, id, body }).await.is_err() {
                        closer.close(close::TRY_AGAIN, "Lost the room's server; reconnect.");
                    }
                }
            }
        }
        self.inner.relayed.remove(&conn);
        // Tell the owner, which detaches the client (it may already have).
        if id != 0 {
            let close = Frame {
                op: wire::CLOSE,
                id,
                body: Bytes::new(),
            };
            let _ = outbox.send(close).await;
        }
        if client_left {
            return;
        }
        // The owner (or this node) closed: send what is queued, then the
        // close frame, and wait a little for the client's answer.
        let _ = tokio::time::timeout(CLOSE_GRACE, async {
            while let Ok(text) = queue.try_recv() {
                if sink.send(Message::Text(text)).await.is_err() {
                    return;
                }
            }
        })
        .await;
        let frame = closer.frame().map(|(code, reason)| CloseFrame {
            code,
            reason: Utf8Bytes::from(reason),
        });
        let _ = tokio::time::timeout(WRITE_TIMEOUT, sink.send(Message::Close(frame))).await;
        let _ = tokio::time::timeout(CLOSE_GRACE, async {
            while let Some(Ok(frame)) = stream.next().await {
                if matches!(frame, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
}
