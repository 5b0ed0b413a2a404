//! The owner's side: clients of rooms running here whose sockets are on
//! other nodes. Each runs through `ws::reader::serve`, like a local socket: its
//! frames arrive on `bg.node.N.room`, its messages leave for the relaying
//! node's `bg.node.R.conn`.

use async_nats::{HeaderMap, Subscriber};
use axum::extract::ws::{Message, Utf8Bytes};
use bytes::Bytes;
use futures_util::{Sink, StreamExt};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tracing::debug;

use super::{
    conn_subject, header, Cluster, Hosted, ACCOUNT, ADDR, BASE, CODE, CONN, OP, RELAY, ROOM,
};
use crate::app::state::App;
use crate::room::{close, Closer};
use crate::ws::reader::{serve, Link};

/// Frames from a relayed client waiting for the owner to read them. The
/// client's own rate limit (20 a second) is applied by `serve`; a relay
/// that sends more than this without the owner keeping up is cut off.
const INBOX: usize = 128;

/// Reads `bg.node.N.room` and hands each message to its client.
pub(super) async fn dispatch(cluster: Cluster, app: App, mut inbox: Subscriber) {
    while let Some(msg) = inbox.next().await {
        let headers = msg.headers.as_ref();
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
                    let _ = cluster
                        .inner
                        .nats
                        .publish(to, Bytes::from_static(answer.as_bytes()))
                        .await;
                }
            }
            "text" | "binary" | "close" => {
                let Some(key) = client_key(headers) else {
                    continue;
                };
                if op == "close" {
                    // Dropping the sender ends the client's stream: `serve`
                    // detaches it from the room.
                    cluster.inner.hosted.remove(&key);
                    continue;
                }
                let frame = if op == "text" {
                    match Utf8Bytes::try_from(msg.payload) {
                        Ok(text) => Message::Text(text),
                        Err(_) => Message::Binary(Bytes::new()),
                    }
                } else {
                    Message::Binary(msg.payload)
                };
                let full = match cluster.inner.hosted.get(&key) {
                    Some(client) => client.frames.try_send(frame).is_err(),
                    None => false,
                };
                if full {
                    cluster.inner.hosted.remove(&key);
                    tell_relay_to_close(&cluster, &key, close::POLICY, "Too many messages.").await;
                }
            }
            _ => debug!(op, "an unknown message from another node"),
        }
    }
}

/// `(relay node, its connection id)` from the headers.
fn client_key(headers: Option<&HeaderMap>) -> Option<(String, u64)> {
    let relay = header(headers, RELAY)?.to_string();
    let conn = header(headers, CONN)?.parse().ok()?;
    Some((relay, conn))
}

/// A relay asks to run a client here: `ok` if the room runs here (the
/// client is then served), `gone` if not (the relay's client reconnects
/// and finds the room's owner again).
fn open(cluster: &Cluster, app: &App, headers: Option<&HeaderMap>) -> &'static str {
    let (Some(code), Some(key)) = (header(headers, ROOM), client_key(headers)) else {
        return "gone";
    };
    let Some(room) = app.registry.running(code) else {
        return "gone";
    };
    let base_url = header(headers, BASE).unwrap_or("").to_string();
    let account: Option<i64> = header(headers, ACCOUNT).and_then(|a| a.parse().ok());
    // Written by the relaying node (NATS carries only the nodes' traffic).
    let client: Option<std::net::IpAddr> = header(headers, ADDR).and_then(|a| a.parse().ok());
    let (frames, rx) = mpsc::channel(INBOX);
    cluster.inner.hosted.insert(key.clone(), Hosted { frames });
    let stream = ReceiverStream::new(rx).map(Ok::<_, axum::Error>);
    let sink = to_relay(cluster.clone(), key.clone());
    let cluster = cluster.clone();
    let app = app.clone();
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
        };
        serve(stream, sink, app, room, base_url, account, link).await;
        cluster.inner.hosted.remove(&key);
    });
    "ok"
}

/// The sink of a hosted client: each message is published to its relay.
fn to_relay(
    cluster: Cluster,
    key: (String, u64),
) -> impl Sink<Message, Error = axum::Error> + Unpin + Send + 'static {
    Box::pin(futures_util::sink::unfold(
        (cluster, key),
        |(cluster, key), message: Message| async move {
            let mut headers = HeaderMap::new();
            headers.insert(CONN, key.1.to_string().as_str());
            let payload = match message {
                Message::Text(text) => {
                    headers.insert(OP, "text");
                    Bytes::from(text)
                }
                Message::Close(frame) => {
                    headers.insert(OP, "close");
                    let (code, reason) = frame
                        .map(|f| (f.code, f.reason.to_string()))
                        .unwrap_or((close::TRY_AGAIN, String::new()));
                    headers.insert(CODE, code.to_string().as_str());
                    Bytes::from(reason)
                }
                _ => return Ok((cluster, key)),
            };
            cluster
                .inner
                .nats
                .publish_with_headers(conn_subject(&key.0), headers, payload)
                .await
                .map_err(axum::Error::new)?;
            Ok((cluster, key))
        },
    ))
}

async fn tell_relay_to_close(cluster: &Cluster, key: &(String, u64), code: u16, reason: &str) {
    let mut headers = HeaderMap::new();
    headers.insert(OP, "close");
    headers.insert(CONN, key.1.to_string().as_str());
    headers.insert(CODE, code.to_string().as_str());
    let _ = cluster
        .inner
        .nats
        .publish_with_headers(conn_subject(&key.0), headers, reason.to_string().into())
        .await;
}
