//! The relaying side: a socket on this node whose room runs on another.
//! Its frames go to the owner as they are; the owner's messages come back
//! on `bg.node.N.conn` and go to the socket in order. Nothing is parsed
//! here: the owner checks and answers everything, except keepalive: the
//! WebSocket is here, so this node pings it and closes it when it falls
//! silent (the owner then detaches the client, as for any close).

use async_nats::{HeaderMap, Subscriber};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tracing::debug;

use super::{
    close_with, header, room_subject, Cluster, Relayed, ACCOUNT, ADDR, BASE, CONN, OP, RELAY, ROOM,
};
use crate::room::close;
use crate::ws::reader::Link;
use crate::ws::silence::{next_ping, ping_timer, Silence};
use crate::ws::{next_conn, CLOSE_GRACE, SEND_QUEUE, WRITE_TIMEOUT};

/// Reads `bg.node.N.conn` and hands each message to its socket.
pub(super) async fn dispatch(cluster: Cluster, mut inbox: Subscriber) {
    while let Some(msg) = inbox.next().await {
        let headers = msg.headers.as_ref();
        let Some(conn) = header(headers, CONN).and_then(|c| c.parse::<u64>().ok()) else {
            continue;
        };
        let Some(relayed) = cluster.inner.relayed.get(&conn) else {
            continue;
        };
        match header(headers, OP) {
            Some("text") => {
                let Ok(text) = Utf8Bytes::try_from(msg.payload) else {
                    continue;
                };
                if relayed.texts.try_send(text).is_err() {
                    relayed.closer.close(
                        close::POLICY,
                        "Too many messages waiting: the connection is not reading. Reconnect to resync.",
                    );
                }
            }
            Some("close") => close_with(&relayed.closer, headers, &msg.payload),
            _ => debug!("an unknown message for a relayed socket"),
        }
    }
}

impl Cluster {
    /// Serves `socket`, whose room `code` runs on node `owner`, by
    /// forwarding: until either side closes.
    /// `account` is the one the client's session cookie signed in here;
    /// `link`: its closer (a session that ended closes the socket from
    /// outside), the interval of keepalive pings, and the client's
    /// address, which goes to the owner with the socket.
    pub async fn forward(
        &self,
        socket: WebSocket,
        owner: String,
        code: String,
        base_url: String,
        account: Option<i64>,
        link: Link,
    ) {
        let Link {
            closer,
            ping,
            client,
        } = link;
        let conn = next_conn().0;
        let (texts, mut queue) = mpsc::channel::<Utf8Bytes>(SEND_QUEUE);
        self.inner.relayed.insert(
            conn,
            Relayed {
                owner: owner.clone(),
                texts,
                closer: closer.clone(),
            },
        );
        let headers = |op: &str| {
            let mut h = HeaderMap::new();
            h.insert(OP, op);
            h.insert(RELAY, self.inner.node.as_str());
            h.insert(CONN, conn.to_string().as_str());
            h
        };
        let mut open = headers("open");
        open.insert(ROOM, code.as_str());
        open.insert(BASE, base_url.as_str());
        if let Some(account) = account {
            open.insert(ACCOUNT, account.to_string().as_str());
        }
        if let Some(client) = client {
            open.insert(ADDR, client.to_string().as_str());
        }
        let (mut sink, mut stream) = socket.split();
        match self.request(&owner, open).await.as_deref() {
            Some(b"ok") => {}
            _ => closer.close(close::TRY_AGAIN, "The room is moving; reconnect."),
        }
        let subject = room_subject(&owner);
        let nats = &self.inner.nats;
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
                    match tokio::time::timeout(WRITE_TIMEOUT, sink.send(Message::Text(text))).await {
                        Ok(Ok(())) => {}
                        Ok(Err(_)) | Err(_) => {
                            client_left = true;
                            break;
                        }
                    }
                }
                frame = stream.next() => {
                    silence.heard();
                    let (op, payload) = match frame {
                        Some(Ok(Message::Text(text))) => ("text", Bytes::from(text)),
                        Some(Ok(Message::Binary(bytes))) => ("binary", bytes),
                        Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                        Some(Ok(Message::Close(_))) | Some(Err(_)) | None => {
                            client_left = true;
                            break;
                        }
                    };
                    if nats.publish_with_headers(subject.clone(), headers(op), payload).await.is_err() {
                        closer.close(close::TRY_AGAIN, "Lost the room's server; reconnect.");
                    }
                }
            }
        }
        self.inner.relayed.remove(&conn);
        // Tell the owner, which detaches the client (it may already have).
        let _ = nats
            .publish_with_headers(subject, headers("close"), Bytes::new())
            .await;
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
