//! The lobby: public rooms and quick pairing, on every node.
//!
//! - Public rooms: each public room's task keeps its line in the store
//!   (`room/lobby.rs`, `store/lobby.rs`); [`Lobby`] reads the open ones
//!   once a second while a lobby socket listens and hands the list to
//!   those sockets when it changed (a `watch` channel), and `GET
//!   /api/lobby` reads it straight from the store.
//! - Quick pairing (`pairing.rs`): a seek is a row of the shared
//!   `seeks` table placed and paired in one transaction
//!   (`store/seeks.rs`), so on any number of nodes a seek pairs once.
//!   The node that pairs asks the other seek's node (in-process, or over
//!   NATS with one node's request to the other: `remote`) to make the
//!   room, since only that node knows its seeker's browser token; both
//!   sockets then get `paired`. This node's open seeks are kept here,
//!   heartbeat renewed every [`HEARTBEAT`]; rows older than [`SEEK_TTL`]
//!   are ignored and swept.
//! - The socket itself is `ws/lobby.rs`.

pub(crate) mod pairing;
pub mod presets;

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use bytes::Bytes;
use dashmap::DashMap;
use tokio::sync::{oneshot, watch};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::{debug, warn};

use crate::limits::open::OpenPerClient;
use crate::model::now_millis;
use crate::room::Registry;
use crate::store::lobby::LobbyRoom;

pub use pairing::{SeekHandle, SeekRequest, Seeker, WireAccount};

/// A signed-in seeker's account, as pairing carries it.
pub fn pairing_account(a: &crate::store::Account) -> WireAccount {
    WireAccount {
        id: a.id,
        username: a.username.clone(),
        display_name: a.display_name.clone(),
    }
}

/// How often a node renews its seeks' heartbeat.
pub const HEARTBEAT: Duration = Duration::from_secs(2);
/// A seek whose heartbeat is older than this is gone (its node died).
pub const SEEK_TTL: Duration = Duration::from_secs(10);
/// How often the public rooms are read while someone listens.
const ROOMS_EVERY: Duration = Duration::from_secs(1);
/// Open seeks an account may hold (over every node).
pub const SEEKS_PER_ACCOUNT: i64 = 3;

/// Asks another node to carry out a pairing: (node, request) → answer.
pub type Remote =
    Arc<dyn Fn(String, Bytes) -> Pin<Box<dyn Future<Output = Option<Bytes>> + Send>> + Send + Sync>;

/// This node's lobby: cheap to clone.
#[derive(Clone)]
pub struct Lobby {
    inner: Arc<Inner>,
}

struct Inner {
    registry: Registry,
    node: String,
    /// This node's open seeks, by id: how to tell their sockets.
    seeks: DashMap<String, Waiting>,
    /// Open seeks per client address (IPv6: /64); an account's are
    /// counted over every node in the store (`SEEKS_PER_ACCOUNT`).
    per_addr: Arc<OpenPerClient>,
    /// `--seeks-per-addr` (0: no limit).
    seeks_per_addr: usize,
    rooms: watch::Sender<Arc<Vec<LobbyRoom>>>,
    remote: OnceLock<Remote>,
    /// The node stops ([`Lobby::stop`]): no more heartbeats or reads, the
    /// store is about to close.
    stopped: CancellationToken,
    /// The seeks of this node's sockets (each [`SeekHandle`], and each
    /// `seek` being placed, holds a token of it) and their withdrawals
    /// (spawned on it), so the stop waits for both before the store
    /// closes ([`Lobby::withdrawn`]).
    seeking: TaskTracker,
}

/// An open seek of this node: who seeks, and where the room's code goes.
struct Waiting {
    seeker: Seeker,
    paired: oneshot::Sender<String>,
}

impl Lobby {
    /// The lobby of the node `registry` serves; starts the heartbeat and
    /// the public rooms' reader. On one node, what an earlier run left
    /// in the lobby's tables is cleared (no room or seek is live yet).
    pub async fn start(registry: Registry, seeks_per_addr: usize) -> Lobby {
        let node = registry.node().unwrap_or("local").to_string();
        if registry.node().is_none() {
            if let Err(e) = registry.store().clear_lobby().await {
                warn!(error = %e, "could not clear the lobby's old rows");
            }
        }
        let (rooms, _) = watch::channel(Arc::new(Vec::new()));
        let lobby = Lobby {
            inner: Arc::new(Inner {
                registry,
                node,
                seeks: DashMap::new(),
                per_addr: Arc::default(),
                seeks_per_addr,
                rooms,
                remote: OnceLock::new(),
                stopped: CancellationToken::new(),
                seeking: TaskTracker::new(),
            }),
        };
        tokio::spawn(heartbeat(Arc::downgrade(&lobby.inner)));
        tokio::spawn(read_rooms(Arc::downgrade(&lobby.inner)));
        lobby
    }

    /// On several nodes: how to ask another node (set once, at start).
    pub fn set_remote(&self, remote: Remote) {
        let _ = self.inner.remote.set(remote);
    }

    /// The public rooms as last read, and their changes.
    pub fn rooms(&self) -> watch::Receiver<Arc<Vec<LobbyRoom>>> {
        let mut rx = self.inner.rooms.subscribe();
        rx.mark_changed();
        rx
    }

    /// Reads the public rooms now, so a socket's first `rooms` after
    /// `hello` is the list as `GET /api/lobby` would give it at that
    /// moment (the reader's list may be a second old, or, when nobody
    /// listened, much older). One small query a `hello`: a socket costs
    /// more to open.
    pub async fn refresh(&self) {
        read_rooms_once(&self.inner).await;
    }

    /// The open seeks this node holds.
    pub fn local_seeks(&self) -> usize {
        self.inner.seeks.len()
    }

    /// The node stops, before its store closes: the heartbeat and the
    /// public rooms' reader end (a heartbeat or read already under way
    /// finishes, and its failure is not a warning).
    pub fn stop(&self) {
        self.inner.stopped.cancel();
    }

    /// Once the node's sockets were told to close (`Stopping::token`),
    /// and before the store closes: waits until every seek of theirs is
    /// gone, its row withdrawn (a lobby socket drops its seek as it
    /// closes, and a `seek` being placed finishes first), so no
    /// withdrawal runs against a closed store and none is lost. At most
    /// 5 s: what is left then is swept at the next start (one node) or
    /// ignored once its heartbeat is [`SEEK_TTL`] old (several).
    pub async fn withdrawn(&self) {
        let seeking = &self.inner.seeking;
        seeking.close();
        if tokio::time::timeout(Duration::from_secs(5), seeking.wait())
            .await
            .is_err()
        {
            warn!(
                seeks = seeking.len(),
                "seeks still open 5 s into the stop; the next start clears them"
            );
        }
    }
}

/// Renews this node's seeks and sweeps those of dead nodes.
async fn heartbeat(inner: std::sync::Weak<Inner>) {
    let mut every = tokio::time::interval(HEARTBEAT);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let Some(stopped) = inner.upgrade().map(|i| i.stopped.clone()) else {
            return;
        };
        tokio::select! {
            _ = every.tick() => {}
            _ = stopped.cancelled() => return,
        }
        let Some(inner) = inner.upgrade() else { return };
        let now = now_millis();
        let stale = now.saturating_sub(SEEK_TTL.as_millis() as u64);
        if let Err(e) = inner
            .registry
            .store()
            .renew_seeks(&inner.node, now, stale)
            .await
        {
            if inner.stopped.is_cancelled() {
                debug!(error = %e, "the seeks' last renewal failed while stopping");
            } else {
                warn!(error = %e, "could not renew the seeks");
            }
        }
    }
}

/// Reads the public rooms while anyone listens, and tells the listeners
/// when they changed.
async fn read_rooms(inner: std::sync::Weak<Inner>) {
    let mut every = tokio::time::interval(ROOMS_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let Some(stopped) = inner.upgrade().map(|i| i.stopped.clone()) else {
            return;
        };
        tokio::select! {
            _ = every.tick() => {}
            _ = stopped.cancelled() => return,
        }
        let Some(inner) = inner.upgrade() else { return };
        if inner.rooms.receiver_count() == 0 {
            continue;
        }
        read_rooms_once(&inner).await;
    }
}

/// Reads the public rooms and tells the listeners if they changed.
async fn read_rooms_once(inner: &Inner) {
    match inner.registry.store().lobby_rooms().await {
        Ok(rooms) => {
            inner.rooms.send_if_modified(|old| {
                if **old == rooms {
                    return false;
                }
                *old = Arc::new(rooms);
                true
            });
        }
        Err(e) if inner.stopped.is_cancelled() => {
            debug!(error = %e, "could not read the lobby while stopping")
        }
        Err(e) => warn!(error = %e, "could not read the lobby"),
    }
}
