//! The messages a room's task receives, and how it ends.

use tokio::sync::{mpsc, oneshot};

use super::cmd::Command;
use super::conn::{close, Closer, Outbox};
use super::RoomInfo;
use crate::model::ids::{ConnId, TableId};
use crate::store::Account;

/// What the room's handle sends its task.
pub(super) enum Msg {
    Attach(Box<Attach>),
    Detach {
        conn: ConnId,
    },
    Command {
        conn: ConnId,
        id: i64,
        command: Command,
    },
    Info {
        reply: oneshot::Sender<RoomInfo>,
    },
    /// A computer's search finished (sent by the task to itself).
    BotMove {
        table: TableId,
        think: u64,
        result: Option<crate::games::AnyMove>,
    },
    /// A hint search for `member` finished (sent by the task to itself).
    Hint {
        member: crate::model::ids::MemberId,
        hint: u64,
        result: Option<crate::games::AnyMove>,
    },
    /// Close every connection and stop (the server is shutting down).
    Shutdown {
        done: oneshot::Sender<()>,
    },
    /// Leave memory if no socket is attached and nothing runs (the
    /// registry makes room among the rooms not in use:
    /// `Registry::make_room_for_unused`); otherwise ignored.
    Unload,
    /// Tests only: make the task panic, to test its supervisor.
    #[cfg(test)]
    Panic,
}

/// A connection said `hello`.
pub struct Attach {
    pub conn: ConnId,
    pub id: i64,
    pub token: Option<String>,
    pub name: Option<String>,
    pub outbox: Outbox,
    pub closer: Closer,
    pub base_url: String,
    /// The account the socket's session cookie signs in, `None` for
    /// guests.
    pub account: Option<Account>,
    /// That account's ratings per game, as of now.
    pub ratings: Vec<(crate::games::GameKind, crate::ratings::Rating)>,
    /// Where the client stood before it reconnected, if it says.
    pub since: Option<crate::protocol::Since>,
    /// The client's address (`limits::client_ip`), for the per-address
    /// cap on new members (a relayed socket's comes over NATS).
    pub addr: Option<std::net::IpAddr>,
    /// For a client relayed from another node, that node's id.
    pub via: Option<std::sync::Arc<str>>,
}

/// Why the task ended.
pub(super) enum Exit {
    /// Nobody was here for the idle time: unloaded, reloaded on demand.
    Idle,
    /// Asked to stop (the server is shutting down, or another node owns
    /// the room now): connections are closed; `done` is answered once
    /// the room has let go of its lease.
    Shutdown(oneshot::Sender<()>),
    /// A store write failed: the state in memory may be ahead of the
    /// store, so the room restarts from the store.
    StoreFailed,
    /// A write was refused because another node took the room over: this
    /// node stops running it, and never writes for it again.
    Fenced,
}

/// A store write failed; the room must restart from the store, or stop
/// running here if `fenced` (another node owns it now).
pub(super) struct StoreFailed {
    pub(super) fenced: bool,
}

impl StoreFailed {
    pub(super) fn exit(self) -> Exit {
        if self.fenced {
            Exit::Fenced
        } else {
            Exit::StoreFailed
        }
    }
}

/// Messages that arrived while the room was closing: connections that
/// attached too late are told to come back (the room reloads).
pub(super) fn drain(inbox: &mut mpsc::Receiver<Msg>) {
    inbox.close();
    while let Ok(msg) = inbox.try_recv() {
        if let Msg::Attach(a) = msg {
            a.closer
                .close(close::TRY_AGAIN, "The room was reloading; reconnect.");
        }
    }
}
