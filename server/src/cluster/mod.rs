//! Several server nodes behind one address: each live room runs on the one
//! node that holds its lease (`store/lease.rs`), and any node accepts any
//! WebSocket. A node that does not own a client's room forwards the
//! client's frames to the owner over NATS and relays the owner's frames
//! back (`relay.rs`); the owner runs that client exactly like one of its
//! own sockets (`hosted.rs`, through `ws::reader::serve`). All protocol
//! checks, limits and answers therefore happen in one place, the owner,
//! and the relaying node is a pipe.
//!
//! Subjects, per node `N` (its id, a UUID chosen at start):
//! - `bg.node.N.room`: to the owner: `open` (a request, answered `ok ID`
//!   with the id the owner gives the client, or `gone`) and `info` (a
//!   request: the room's summary as JSON, or `gone`), both with headers;
//!   and, without headers, batches of relayed clients' frames (`text`,
//!   `binary`, `close`; `wire.rs`).
//! - `bg.node.N.conn`: to the relay: batches of frames for its clients
//!   (`text`, or `close` with a code and a reason).
//! - `bg.node.N.ping`: answered `pong` while the node lives.
//! - `bg.node.N.pair`: quick pairing's request to make the room for one
//!   of N's open seeks (JSON both ways, `lobby/pairing.rs`).
//!
//! And one subject for every node: `bg.sessions.ended`, a login session
//! (or all of an account's but one) that ended, as text (`session ID`,
//! `account ID except ID`; `accounts/sockets.rs`): each node closes the
//! sockets those sessions signed in there.
//!
//! A relayed client's frames travel in batches: every frame waiting for
//! the same peer goes out in one NATS message, with a small binary header
//! each (`wire.rs`), so a busy pair of nodes exchanges few, large messages
//! and nothing is parsed or re-encoded on the way. One task per peer and
//! one NATS connection per node keep each direction in order.
//!
//! Liveness: every second each node pings the nodes it relays to and
//! hosts for. A relay whose owner stopped answering closes its clients
//! with 1012 (they reconnect, and the room is taken over once its lease
//! runs out); an owner whose relay died drops the clients it hosted for
//! it, as if their sockets had closed.

mod hosted;
mod relay;
mod start;
mod wire;

use std::sync::Arc;
use std::time::Duration;

use async_nats::{HeaderMap, HeaderValue};
use bytes::Bytes;
use dashmap::DashMap;
use tracing::{info, warn};

use crate::room::{close, Closer, Owner};
use axum::extract::ws::{Message, Utf8Bytes};
use tokio::sync::mpsc;

/// How often peers are pinged, and how long a ping may take.
const PING_EVERY: Duration = Duration::from_secs(1);
const PING_TIMEOUT: Duration = Duration::from_millis(800);
/// How long an `open` or `info` request waits for the owner.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(3);
/// How long a stopping node waits for NATS to take what is still queued:
/// with NATS gone, a flush would wait until it comes back.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(2);

/// Header names, of the control requests (`open`, `info`).
const OP: &str = "Bg-Op";
const ROOM: &str = "Bg-Room";
const RELAY: &str = "Bg-Relay";
const CONN: &str = "Bg-Conn";
const BASE: &str = "Bg-Base";
/// The account a relayed client's session cookie signed in (its id).
const ACCOUNT: &str = "Bg-Account";
/// A relayed client's address (`limits::client_ip` on the relaying
/// node), for the room's members-per-address cap.
const ADDR: &str = "Bg-Addr";

fn room_subject(node: &str) -> String {
    format!("bg.node.{node}.room")
}

fn conn_subject(node: &str) -> String {
    format!("bg.node.{node}.conn")
}

/// Quick pairing: another node asks this one to make the room for one
/// of its open seeks (`lobby/pairing.rs`), a request answered with JSON.
fn pair_subject(node: &str) -> String {
    format!("bg.node.{node}.pair")
}

fn ping_subject(node: &str) -> String {
    format!("bg.node.{node}.ping")
}

/// Login sessions that ended, for every node.
const SESSIONS_ENDED: &str = "bg.sessions.ended";

/// This node's link to the others. Cheap to clone.
#[derive(Clone)]
pub struct Cluster {
    inner: Arc<Inner>,
}

struct Inner {
    node: String,
    nats: async_nats::Client,
    /// Clients of rooms running here whose sockets are on other nodes,
    /// by the id this node gave each at `open`.
    hosted: DashMap<u64, Hosted>,
    /// Sockets here whose rooms run on other nodes, by connection id.
    relayed: DashMap<u64, Relayed>,
    /// The batching outbox of each subject this node sends frames to
    /// (`wire.rs`). A client holds a clone of its outbox for its life;
    /// an entry whose peer has no more clients is dropped by the watch.
    outboxes: DashMap<String, wire::Outbox>,
}

/// A relayed client as the owner holds it: where its frames go.
struct Hosted {
    /// The relaying node, and the client's connection id there.
    relay: String,
    conn: u64,
    /// The frames to the relay (the client's own messages go through
    /// its sink, which holds the same outbox).
    outbox: wire::Outbox,
    frames: mpsc::Sender<Message>,
}

/// A relayed socket as this node holds it.
struct Relayed {
    /// The node that runs the socket's room.
    owner: String,
    texts: mpsc::Sender<Utf8Bytes>,
    closer: Closer,
}

impl Cluster {
    /// Connects to NATS as node `node` (a fresh UUID if `None`).
    pub async fn connect(url: &str, node: Option<String>) -> anyhow::Result<Cluster> {
        let node = node.unwrap_or_else(|| uuid::Uuid::now_v7().simple().to_string());
        let nats = async_nats::ConnectOptions::new()
            .name(format!("boardgames-{node}"))
            .connect(url)
            .await?;
        let cluster = Cluster {
            inner: Arc::new(Inner {
                node,
                nats,
                hosted: DashMap::new(),
                relayed: DashMap::new(),
                outboxes: DashMap::new(),
            }),
        };
        // A room's lease names its node: two nodes of one id would each
        // renew and take the other's rooms, and neither could serve them.
        // A node whose id already answers pings refuses to start.
        let node = cluster.node();
        if cluster.ping(node).await {
            anyhow::bail!(
                "another node already runs as --node-id {node} on this NATS server; \
                 every node needs an id of its own"
            );
        }
        info!(%node, "joined the cluster");
        Ok(cluster)
    }

    pub fn node(&self) -> &str {
        &self.inner.node
    }

    /// Whether this node's NATS connection is up (`/healthz`).
    pub fn connected(&self) -> bool {
        self.inner.nats.connection_state() == async_nats::connection::State::Connected
    }

    /// What the registry needs to hold leases: this node's id, and a way
    /// to ask whether another node is alive.
    pub fn owner(&self) -> Owner {
        let cluster = self.clone();
        Owner {
            node: self.inner.node.clone(),
            alive: Arc::new(move |node| {
                let cluster = cluster.clone();
                Box::pin(async move { cluster.ping(&node).await })
            }),
        }
    }

    /// Tells every node that sessions ended (see
    /// `accounts/sockets.rs`); a failure is logged, and each node's sweep
    /// catches up.
    pub async fn sessions_ended(&self, ended: crate::accounts::sockets::Ended) {
        let payload = Bytes::from(ended.to_text());
        if let Err(e) = self.inner.nats.publish(SESSIONS_ENDED, payload).await {
            warn!(error = %e, "could not tell the other nodes a session ended");
        }
    }

    /// Whether `node` answers a ping.
    pub async fn ping(&self, node: &str) -> bool {
        let request = async_nats::Request::new()
            .payload(Bytes::new())
            .timeout(Some(PING_TIMEOUT));
        self.inner
            .nats
            .send_request(ping_subject(node), request)
            .await
            .is_ok()
    }

    /// Asks `node` to carry out a pairing (`lobby/pairing.rs`); `None`
    /// if it did not answer.
    pub async fn pair(&self, node: &str, payload: Bytes) -> Option<Bytes> {
        let request = async_nats::Request::new()
            .payload(payload)
            .timeout(Some(REQUEST_TIMEOUT));
        match self
            .inner
            .nats
            .send_request(pair_subject(node), request)
            .await
        {
            Ok(msg) => Some(msg.payload),
            Err(e) => {
                warn!(%node, error = %e, "a node did not answer a pairing");
                None
            }
        }
    }

    /// The outbox of frames for `subject` (a peer's `room` or `conn`
    /// subject), made on first use.
    fn outbox(&self, subject: String) -> wire::Outbox {
        if let Some(outbox) = self.inner.outboxes.get(&subject) {
            return outbox.clone();
        }
        self.inner
            .outboxes
            .entry(subject.clone())
            .or_insert_with(|| wire::outbox(self.inner.nats.clone(), subject.into()))
            .clone()
    }

    /// The summary of room `code` from its owner `node`, as JSON text.
    pub async fn info(&self, node: &str, code: &str) -> Option<String> {
        let mut headers = HeaderMap::new();
        headers.insert(OP, "info");
        headers.insert(ROOM, code);
        let reply = self.request(node, headers).await?;
        let text = String::from_utf8(reply.to_vec()).ok()?;
        (text != "gone").then_some(text)
    }

    async fn request(&self, node: &str, headers: HeaderMap) -> Option<Bytes> {
        let request = async_nats::Request::new()
            .headers(headers)
            .payload(Bytes::new())
            .timeout(Some(REQUEST_TIMEOUT));
        match self
            .inner
            .nats
            .send_request(room_subject(node), request)
            .await
        {
            Ok(msg) => Some(msg.payload),
            Err(e) => {
                warn!(%node, error = %e, "a node did not answer");
                None
            }
        }
    }

    /// Closes the clients this node relays (the node is going away: they
    /// reconnect elsewhere), and sends what is still queued to NATS, for
    /// at most `FLUSH_TIMEOUT`.
    pub async fn shutdown(&self) {
        for r in self.inner.relayed.iter() {
            r.closer
                .close(close::RESTART, crate::room::close::RESTART_REASON);
        }
        // The relays' close frames, and the hosted clients' (closed by the
        // rooms), go out before the connection does.
        tokio::time::sleep(Duration::from_millis(200)).await;
        if tokio::time::timeout(FLUSH_TIMEOUT, self.inner.nats.flush())
            .await
            .is_err()
        {
            warn!("NATS did not take the last messages in time; stopping without them");
        }
    }
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).map(HeaderValue::as_str)
}

/// Every `PING_EVERY`, pings the nodes this one relays to or hosts for,
/// and lets go of the clients of those that stopped answering.
async fn watch_peers(inner: std::sync::Weak<Inner>) {
    let mut every = tokio::time::interval(PING_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let Some(inner) = inner.upgrade() else {
            return;
        };
        let cluster = Cluster { inner };
        let mut peers: Vec<String> = cluster
            .inner
            .hosted
            .iter()
            .map(|e| e.relay.clone())
            .chain(cluster.inner.relayed.iter().map(|e| e.owner.clone()))
            .collect();
        peers.sort();
        peers.dedup();
        // The outboxes of peers without clients go (a client still
        // sending holds its own clone; a new one makes a new outbox).
        let subjects: std::collections::HashSet<String> = peers
            .iter()
            .flat_map(|p| [room_subject(p), conn_subject(p)])
            .collect();
        cluster
            .inner
            .outboxes
            .retain(|subject, _| subjects.contains(subject));
        for peer in peers {
            if cluster.ping(&peer).await {
                continue;
            }
            warn!(%peer, "a node stopped answering; letting go of its clients");
            cluster.inner.hosted.retain(|_, h| h.relay != peer);
            for r in cluster.inner.relayed.iter().filter(|r| r.owner == peer) {
                r.closer
                    .close(close::RESTART, "The room's server went away; reconnecting.");
            }
        }
    }
}

/// Closes a client with the code and reason of a `close` frame that came
/// over NATS.
fn close_with(closer: &Closer, frame: &wire::Frame) {
    let (code, reason) = frame.close_parts().unwrap_or((close::TRY_AGAIN, ""));
    closer.close(code, reason);
}
