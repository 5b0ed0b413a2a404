//! A room: members, seats, tables with their matches, clocks, chat and
//! the scoreboard.
//!
//! - [`RoomState`] (`state.rs`) is the room as a plain value. Each command
//!   is a file in `cmd/` with its checks and its change; `play.rs` is the
//!   one path for a position change; `timers.rs` lists and fires the
//!   room's deadlines; `scores.rs` keeps the scoreboard; `restore.rs`
//!   brings a stored room back. No I/O, no tokio, no JSON: each call
//!   returns [`Effect`]s.
//! - `task.rs` is the thin actor around it: it receives, calls the state,
//!   and carries out the effects (store, then send, then think).
//! - `registry.rs` finds a room's task by its code, loading the room from
//!   the store; `supervisor.rs` restarts a task that died; `owner.rs` is
//!   the node's part in a cluster (leases).
//! - `encoded.rs` serialises an event once for every socket; `fanout.rs`
//!   sends it.
//! - `event.rs` and `views/` are what clients receive, typed both ways
//!   (`WireEvent`, `WireSnapshot`: as a client reads them).
//! - `voice.rs` keeps who is in voice chat; the room only relays the
//!   browsers' WebRTC signalling (`cmd/signal.rs`).

pub mod cmd;
mod conn;
mod encoded;
mod event;
mod fanout;
mod hints;
mod knockout;
mod lobby;
mod msg;
mod owner;
mod play;
mod registry;
mod restore;
mod scores;
pub(crate) mod seated;
mod state;
mod supervisor;
mod table;
mod task;
mod think;
mod timers;
mod turn_based;
mod views;
mod voice;

#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

pub use cmd::{Command, Hello, SayHello};
pub use conn::{close, outbox, socket_outbox, Closer, Outbox, Queue, Shelf, SocketSink};
pub use encoded::Encoded;
pub use event::{Direct, DrawKind, Effect, Event, MatchKind, NoticeKind, Stamped, WireEvent};
pub use msg::Attach;
pub use owner::{Owner, LEASE_TTL};
pub use play::Change;
pub use registry::{Registry, RegistryError, Route};
pub use seated::Invitee;
pub use state::{Countdown, Member, RoomConfig, RoomState};
pub use table::{Match, Table};
pub use timers::Timer;
pub use views::{
    AutostartView, AwayView, ClockView, MatchBody, MatchView, MemberView, MoveView, RemovedView,
    RoomView, ScoreView, Snapshot, TableView, VoiceView, WireSnapshot, YouView,
};

use crate::games::{GameKind, GameOptions};
use crate::model::ConnId;
use task::Msg;

/// Messages waiting for a busy room; a full inbox slows the senders down
/// (their reads pause) instead of growing memory.
const INBOX: usize = 256;

/// Room summary for `GET /api/rooms/CODE`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RoomInfo {
    pub code: String,
    pub game: GameKind,
    pub options: GameOptions,
    pub players: usize,
    pub spectators: usize,
}

/// Timing rules shared by every room of a server.
#[derive(Clone, Debug)]
pub struct RoomSettings {
    /// The room rules (grace time, auto-start, computer budget, members).
    pub config: RoomConfig,
    /// How long a room with nobody online keeps its task.
    pub idle_after: Duration,
    /// Public base URL for invite links, if the operator set one.
    pub public_url: Option<String>,
}

/// The room settings from the server configuration.
pub fn settings(config: &crate::config::Config) -> RoomSettings {
    RoomSettings {
        config: RoomConfig {
            abandon_after_ms: config.abandon_after().as_millis() as u64,
            claim_after_ms: config.claim_secs.saturating_mul(1_000),
            host_handover_ms: config.host_handover_secs.saturating_mul(1_000),
            lag_comp_ms: config.lag_comp_ms,
            autostart_after_ms: config.autostart_after().as_millis() as u64,
            bot_budget_ms: config.bot_budget().as_millis() as u64,
            max_members: config.max_members,
            max_watchers: config.max_watchers,
            members_per_addr: config.members_per_addr,
        },
        idle_after: config.idle_after(),
        public_url: config.public_url.clone(),
    }
}

/// A cloneable handle to a room's task (its message enum stays private).
#[derive(Clone)]
pub struct RoomHandle {
    code: String,
    tx: mpsc::Sender<Msg>,
    /// The lease this node runs the room under (several nodes only), and
    /// when it was taken.
    fence: Option<crate::store::Fence>,
    since: tokio::time::Instant,
    /// What its task tells the registry (set by the task).
    occupancy: Arc<Occupancy>,
}

/// What a room's task publishes for the registry, which reads it without
/// asking the task: whether a socket joined this run of the room (a room
/// nobody joined leaves memory sooner), and whether it is in use (a
/// socket attached, or a game on its clock: only rooms in use count
/// against `--max-rooms`). A `hello` the registry let in
/// (`Registry::admit`) counts as in use until the task has taken it.
#[derive(Default)]
pub(crate) struct Occupancy {
    joined: AtomicBool,
    in_use: AtomicBool,
    /// Hellos admitted and not yet taken by the task.
    admitted: std::sync::atomic::AtomicUsize,
}

impl Occupancy {
    pub(crate) fn joined(&self) -> bool {
        self.joined.load(Ordering::Relaxed)
    }

    pub(crate) fn set_joined(&self) {
        self.joined.store(true, Ordering::Relaxed);
    }

    pub(crate) fn in_use(&self) -> bool {
        self.in_use.load(Ordering::SeqCst) || self.admitted.load(Ordering::SeqCst) > 0
    }

    /// A hello let in at the cap: in use until the task takes it.
    pub(crate) fn admit(&self) {
        self.admitted.fetch_add(1, Ordering::SeqCst);
    }

    /// The task took an admitted hello (after publishing its use).
    pub(crate) fn taken(&self) {
        let _ = self
            .admitted
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }

    pub(crate) fn set_in_use(&self, in_use: bool) {
        self.in_use.store(in_use, Ordering::SeqCst);
    }
}

/// The room's task has ended (it went idle); ask the registry again.
#[derive(Debug)]
pub struct RoomClosed;

impl RoomHandle {
    pub fn code(&self) -> &str {
        &self.code
    }

    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    pub fn fence(&self) -> Option<crate::store::Fence> {
        self.fence
    }

    /// Whether the room is in use (a socket attached, or a game on its
    /// clock): only those count against `--max-rooms`.
    pub fn in_use(&self) -> bool {
        self.occupancy.in_use()
    }

    async fn send(&self, msg: Msg) -> Result<(), RoomClosed> {
        self.tx.send(msg).await.map_err(|_| RoomClosed)
    }

    /// A connection said `hello`: the room answers `ack` and a snapshot
    /// through its outbox, then every event.
    pub async fn attach(&self, attach: Attach) -> Result<(), RoomClosed> {
        self.send(Msg::Attach(Box::new(attach))).await
    }

    /// Any other command from an attached connection; answered through its
    /// outbox.
    pub async fn command(&self, conn: ConnId, id: i64, command: Command) -> Result<(), RoomClosed> {
        self.send(Msg::Command { conn, id, command }).await
    }

    /// The connection closed.
    pub async fn detach(&self, conn: ConnId) -> Result<(), RoomClosed> {
        self.send(Msg::Detach { conn }).await
    }

    pub async fn info(&self) -> Result<RoomInfo, RoomClosed> {
        let (reply, rx) = oneshot::channel();
        self.send(Msg::Info { reply }).await?;
        rx.await.map_err(|_| RoomClosed)
    }

    /// Tests only: makes the room's task panic.
    #[cfg(test)]
    pub(crate) async fn inject_panic(&self) -> Result<(), RoomClosed> {
        self.send(Msg::Panic).await
    }

    /// Closes the room's connections and stops its task, after the
    /// commands already queued (and their writes) are done.
    pub async fn shutdown(&self) {
        let (done, rx) = oneshot::channel();
        if self.send(Msg::Shutdown { done }).await.is_ok() {
            let _ = rx.await;
        }
    }
}
