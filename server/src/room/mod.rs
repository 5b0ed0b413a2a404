//! A room is one task that owns its state (members, seats, the current
//! game, clocks, chat, scores) and receives commands on a bounded channel.
//! No locks around game state: every change happens in [`actor`], in the
//! order the commands arrived, and every change is broadcast as one
//! versioned event (see STYLE.md, "Rooms as actors").

mod actor;
mod registry;
mod views;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

pub use registry::{Registry, RegistryError};

use crate::protocol::Command;

/// Commands waiting for a busy room; a full inbox slows the senders down
/// (their reads pause) instead of growing memory.
const INBOX: usize = 256;

/// What the room sends to one connection: serialised JSON text, cheap to
/// clone for every subscriber of a broadcast.
pub type Outbox = mpsc::Sender<Utf8Bytes>;

/// Room summary for `GET /api/rooms/CODE`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RoomInfo {
    pub code: String,
    pub game: String,
    pub options: serde_json::Value,
    pub players: usize,
    pub spectators: usize,
}

pub enum RoomCommand {
    /// A connection said `hello`: find or create its member, send it
    /// `ack` and a snapshot, and from then on every event.
    Attach {
        conn: u64,
        id: i64,
        token: Option<String>,
        name: Option<String>,
        outbox: Outbox,
        /// Cancelled by the room to drop a connection that stopped
        /// reading.
        kick: CancellationToken,
        /// `http://host` as the browser reached us, for the invite link.
        base_url: String,
        /// The account whose session the token is (looked up by the
        /// connection before attaching), `None` for guests.
        account: Option<crate::store::Account>,
    },
    /// The connection closed.
    Detach {
        conn: u64,
    },
    /// Any other command from an attached connection; answered through
    /// its outbox.
    Client {
        conn: u64,
        id: i64,
        command: Command,
    },
    Info {
        reply: oneshot::Sender<RoomInfo>,
    },
    /// A computer player finished thinking (sent by the room to itself
    /// from the bot's blocking task). `think` names the search; the room
    /// ignores a result whose search it no longer waits for (the game
    /// ended, someone resigned, the position changed).
    BotMove {
        think: u64,
        result: Option<String>,
    },
}

/// A cloneable handle to a room's task.
#[derive(Clone)]
pub struct RoomHandle {
    code: String,
    tx: mpsc::Sender<RoomCommand>,
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

    pub async fn send(&self, command: RoomCommand) -> Result<(), RoomClosed> {
        self.tx.send(command).await.map_err(|_| RoomClosed)
    }

    pub async fn info(&self) -> Result<RoomInfo, RoomClosed> {
        let (reply, rx) = oneshot::channel();
        self.send(RoomCommand::Info { reply }).await?;
        rx.await.map_err(|_| RoomClosed)
    }
}

pub use actor::{is_valid_token, new_token, RoomSettings};

/// The room timing settings from the server configuration.
pub fn actor_settings(config: &crate::config::Config) -> RoomSettings {
    RoomSettings {
        abandon_after: config.abandon_after(),
        idle_after: config.idle_after(),
        public_url: config.public_url.clone(),
        bot_budget: config.bot_budget(),
        autostart_after: config.autostart_after(),
    }
}
