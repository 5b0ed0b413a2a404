//! The owner's side: clients of rooms running here whose sockets are on
//! other nodes. Each runs through `ws::reader::serve`, like a local socket: its
//! frames arrive on `bg.node.N.room`, its messages leave for the relaying
//! node's `bg.node.R.conn`.

use std::sync::Arc;

use async_nats::{HeaderMap, Subscriber};
use axum::extract::ws::{Message, Utf8Bytes};
use bytes::Bytes;
use futures_util::{Sink, StreamExt};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tracing::debug;

use super::wire::{self, Frame, Outbox};
use super::{conn_subject, header, Cluster, Hosted, ACCOUNT, ADDR, BASE, CONN, OP, RELAY, ROOM};
use crate::app::state::App;
use crate::room::{close, Closer};
use crate::ws::next_conn;
use crate::ws::reader::{serve, Link};

/// Frames from a relayed client waiting for the owner to read them. The
/// client's own rate limit (20 a second) is applied by `serve`; a relay
/// that sends more than this without the owner keeping up is cut off.
const INBOX: usize = 128;

/// Reads `bg.node.N.room`: control requests (with headers) and batches of
/// relayed clients' frames (without), and hands each frame to its client.
pub(super) async fn dispatch(cluster: Cluster, app: App, mut inbox: Subscriber) {
    while let Some(msg) = inbox.next().await {
        let Some(headers) = msg.headers.as_ref() else {
            for frame in wire::decode(msg.payload) {
                deliver(&cluster, frame);
            }
            continue;
        };
        let op = header(headers, OP).unwrap_or("");
        match op {
            "info" => {
                // Answered off the dispatcher: a busy room must not hold up
                // the frames of every other room's relayed clients.
                let code = header(headers, ROOM).unwrap_or("").to_string();
                let room = app.registry.running(&code);
                let nats = cluster.inner.nats.clone();
                tokio::spawn(async move {
                    let reply = match room {
                        Some(room) => match room.info().await {
                            Ok(info) => serde_json::to_string(&info).unwrap_or_default(),
                            Err(_) => "gone".to_string(),
                        },
                        None => "gone".to_string(),
                    };
                    if let Some(to) = msg.reply {
                        let _ = nats.publish(to, reply.into()).await;
                    }
                });
            }
            "open" => {
                let answer = open(&cluster, &app, headers);
                if let Some(to) = msg.reply {
                    let _ = cluster.inner.nats.publish(to, answer).await;
                }
            }
            _ => debug!(op, "an unknown message from another node"),
        }
    }
}

/// One frame from a relayed client, to its reader.
fn deliver(cluster: &Cluster, frame: Frame) {
    let id = frame.id;
    let message = match frame.op {
        // Dropping the sender ends the client's stream: `serve` detaches
        // it from the room.
        wire::CLOSE => {
            cluster.inner.hosted.remove(&id);
            return;
        }
        wire::TEXT => match Utf8Bytes::try_from(frame.body) {
            Ok(text) => Message::Text(text),
            Err(_) => Message::Binary(Bytes::new()),
        },
        wire::BINARY => Message::Binary(frame.body),
        _ => {
            debug!("an unknown frame from another node");
            return;
        }
    };
    let full = match cluster.inner.hosted.get(&id) {
        Some(client) => client
            .frames
            .try_send(message)
            .is_err()
            .then(|| (client.outbox.clone(), client.conn)),
        None => None,
    };
    if let Some((outbox, conn)) = full {
        cluster.inner.hosted.remove(&id);
        // Rare: off the dispatcher, which must not wait on one peer.
        tokio::spawn(async move {
            let close = Frame::close(conn, close::POLICY, close::NOT_READING);
            let _ = outbox.send(close).await;
        });
    }
}

/// A relay asks to run a client here: `ok ID` if the room runs here (the
/// client is then served, and the relay names it ID in the frames it
/// sends), `gone` if not (the relay's client reconnects and finds the
/// room's owner again).
fn open(cluster: &Cluster, app: &App, headers: &HeaderMap) -> Bytes {
    let gone = Bytes::from_static(b"gone");
    let (Some(code), Some(relay), Some(conn)) = (
        header(headers, ROOM),
        header(headers, RELAY),
        header(headers, CONN).and_then(|c| c.parse::<u64>().ok()),
    ) else {
        return gone;
    };
    let Some(room) = app.registry.running(code) else {
        return gone;
    };
    let base_url = header(headers, BASE).unwrap_or("").to_string();
    let account: Option<i64> = header(headers, ACCOUNT).and_then(|a| a.parse().ok());
    // Written by the relaying node (NATS carries only the nodes' traffic).
    let client: Option<std::net::IpAddr> = header(headers, ADDR).and_then(|a| a.parse().ok());
    let id = next_conn().0;
    let outbox = cluster.outbox(conn_subject(relay));
    let (frames, rx) = mpsc::channel(INBOX);
    cluster.inner.hosted.insert(
        id,
        Hosted {
            relay: relay.to_string(),
            conn,
            outbox: outbox.clone(),
            frames,
        },
    );
    let stream = ReceiverStream::new(rx).map(Ok::<_, axum::Error>);
    let sink = to_relay(outbox, conn);
    let cluster = cluster.clone();
    let app = app.clone();
    let via: Arc<str> = Arc::from(relay);
    tokio::spawn(async move {
        // The relay checked the session cookie; the account is read here.
        // Frames wait in the inbox meanwhile.
        let account = match account {
            Some(id) => app.registry.store().account(id).await.unwrap_or_else(|e| {
                tracing::warn!(error = %e, "account lookup failed; attaching as a guest");
                None
            }),
            None => None,
        };
        // No pings from here: the relaying node holds the WebSocket and
        // pings it (`relay.rs`).
        let link = Link {
            closer: Closer::new(),
            ping: None,
            client,
            via: Some(via),
        };
        serve(stream, sink, app, room, base_url, account, link).await;
        cluster.inner.hosted.remove(&id);
    });
    Bytes::from(format!("ok {id}"))
}

/// The sink of a hosted client: each message goes, batched with the
/// others for the same node, to its relay's connection `conn`.
fn to_relay(
    outbox: Outbox,
    conn: u64,
) -> impl Sink<Message, Error = axum::Error> + Unpin + Send + 'static {
    Box::pin(futures_util::sink::unfold(
        outbox,
        move |outbox, message: Message| async move {
            let frame = match message {
                Message::Text(text) => Frame {
                    op: wire::TEXT,
                    id: conn,
                    body: Bytes::from(text),
                },
                Message::Close(frame) => {
                    let (code, reason) = frame
                        .map(|f| (f.code, f.reason))
                        .unwrap_or((close::TRY_AGAIN, Utf8Bytes::default()));
                    Frame::close(conn, code, reason.as_str())
                }
                _ => return Ok(outbox),
            };
            outbox.send(frame).await.map_err(axum::Error::new)?;
            Ok(outbox)
        },
    ))
}
