//! What every request shares: the server's configuration, the rooms, the
//! limits and the links to other nodes ([`App`], cheap to clone). Handlers
//! take it as `State<App>`; it names the parts it holds and nothing that
//! handles a request, so any handler may import it.

use std::sync::Arc;

use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::Config;
use crate::limits::open::OpenPerClient;
use crate::room::Registry;

/// Shared by every request: cheap to clone.
#[derive(Clone)]
pub struct App {
    pub config: Arc<Config>,
    pub registry: Registry,
    /// One permit per open WebSocket (`--max-connections`).
    pub connections: Arc<Semaphore>,
    /// Open WebSockets per client address and per account
    /// (`--max-sockets-per-addr`).
    pub sockets: Arc<OpenPerClient>,
    /// Analysis event streams per client address
    /// (`analysis::api::STREAMS_PER_ADDR`).
    pub streams: Arc<OpenPerClient>,
    /// Histories read at once, and per client (`history::queue::Histories`).
    pub histories: Arc<crate::history::queue::Histories>,
    /// Password hashing slots.
    pub accounts: Arc<crate::accounts::hashing::Accounts>,
    /// Per-address limits on room creation, registration and failed
    /// logins, and who the client is behind `--trusted-proxy`.
    pub limits: Arc<crate::limits::Limits>,
    /// This node's link to the others, when it is one of several.
    pub cluster: Option<crate::cluster::Cluster>,
    /// Where the confirmation and recovery links go.
    pub mailer: Arc<crate::mail::Mailer>,
    /// The sockets each login session signed in, to sign them out when
    /// it ends.
    pub sessions: Arc<crate::accounts::sockets::SessionSockets>,
    /// Public rooms and quick pairing (`lobby/`).
    pub lobby: crate::lobby::Lobby,
    /// The server is stopping (SIGTERM), and the sockets it waits for.
    pub stopping: Stopping,
}

/// How a stop reaches the sockets no room closes: a room's socket before
/// its `hello` and every lobby socket close with 1012 when `token` is
/// cancelled (attached sockets are closed by their rooms, after their
/// writes are stored). `open` tracks every WebSocket of this node, so the
/// stop waits until their close frames went out.
#[derive(Clone, Default)]
pub struct Stopping {
    pub token: CancellationToken,
    pub open: TaskTracker,
}
