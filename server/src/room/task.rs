//! The room's task: a thin loop around [`RoomState`] (Alice Ryhl's actor
//! pattern). It receives messages and timer wake-ups, calls the state,
//! and carries out the effects in order: store every write of the call in
//! one transaction and wait for it, then send the events and the answer,
//! then start or stop the computer's searches. A move is therefore on disk
//! before its `ack` leaves, and one room's writes are stored in the order
//! they happened.

use std::collections::HashMap;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tracing::{debug, error, info};

use super::conn::{close, Conn};
use super::encoded::Encoded;
use super::event::Effect;
pub(super) use super::msg::{drain, Attach, Exit, Msg, StoreFailed};
use super::state::RoomState;
use super::supervisor::HelloInHand;
use super::think::Thinking;
use super::{RoomInfo, RoomSettings};
use crate::model::ids::{ConnId, MemberId, TableId};
use crate::model::records::LobbyEntry;
use crate::protocol::{self, Code, Refusal};
use crate::store::Write;
use crate::store::{Fence, Store, StoreError};

mod attach;
mod handover;

pub(super) struct RoomTask {
    pub(super) state: RoomState,
    pub(super) conns: HashMap<ConnId, Conn>,
    store: Store,
    /// The lease this node runs the room under (several nodes only);
    /// every write carries it.
    fence: Option<Fence>,
    settings: RoomSettings,
    pub(super) own_inbox: mpsc::WeakSender<Msg>,
    pub(super) thinking: HashMap<TableId, Thinking>,
    /// Hint searches, at most one per member.
    pub(super) hints: HashMap<MemberId, Thinking>,
    /// The room's time is wall-clock milliseconds at `epoch` plus the
    /// monotonic time since: it never jumps backwards.
    epoch: Instant,
    wall_at_epoch: u64,
    /// The test clock's skew at `epoch` (`model::time`): a later move of
    /// that clock moves the room's time too.
    skew_at_epoch: u64,
    pub(super) empty_since: Instant,
    /// Whether any socket has attached in this run (a room nobody joined,
    /// made and never opened or loaded by a lookup, leaves memory sooner:
    /// [`NEVER_JOINED_SHARE`]), and whether the room is in use now, for
    /// the registry.
    pub(super) occupancy: std::sync::Arc<super::Occupancy>,
    /// This run of the room's task: events are numbered within it.
    run: String,
    /// The latest events sent, oldest first, for clients that reconnect
    /// after missing a few (`hello` with `since`).
    pub(super) recent: std::collections::VecDeque<Recent>,
    /// The room's lobby line as last stored (`None`: not known yet, so
    /// the next write stores it; see `lobby.rs`).
    lobby: Option<Option<LobbyEntry>>,
    /// Since when every connection has come from this other node
    /// (`task/handover.rs`).
    relayed_since: Option<(std::sync::Arc<str>, Instant)>,
}

/// A room that no socket joined in this run leaves memory after this
/// share of `--room-idle-secs` (600 s: 30 s): rooms made in bulk and never
/// opened cannot hold `--max-rooms` for long. It stays stored, and loads
/// again for its first socket.
pub(super) const NEVER_JOINED_SHARE: u32 = 20;

/// Tests only: a hello with this name makes the room's task panic while
/// it handles the hello.
#[cfg(test)]
pub(crate) const PANIC_ON_HELLO: &str = "a hello that panics (tests)";

/// Events kept for reconnecting clients.
pub(super) const RECENT_EVENTS: usize = 256;

/// One event as it was sent: the copy everyone got, and the copy of the
/// member due to play when theirs differed (a long legal list).
pub(super) struct Recent {
    pub(super) v: u64,
    pub(super) encoded: Encoded,
}

impl RoomTask {
    pub(super) fn new(
        state: RoomState,
        store: Store,
        fence: Option<Fence>,
        settings: RoomSettings,
        own_inbox: mpsc::WeakSender<Msg>,
        wall_at_epoch: u64,
        occupancy: std::sync::Arc<super::Occupancy>,
    ) -> RoomTask {
        let state_public = state.public;
        RoomTask {
            state,
            conns: HashMap::new(),
            store,
            fence,
            settings,
            own_inbox,
            thinking: HashMap::new(),
            hints: HashMap::new(),
            epoch: Instant::now(),
            wall_at_epoch,
            skew_at_epoch: crate::model::time::skew(),
            empty_since: Instant::now(),
            occupancy,
            run: uuid::Uuid::now_v7().simple().to_string(),
            recent: std::collections::VecDeque::new(),
            // A room that is not public has no line (any left over is
            // deleted when the host lists it and takes it off again);
            // a public one's is stored afresh at its first write.
            lobby: (!state_public).then_some(None),
            relayed_since: None,
        }
    }

    pub(super) fn now(&self) -> u64 {
        self.wall_at_epoch + self.epoch.elapsed().as_millis() as u64 + self.moved()
    }

    /// How far the test clock moved since `epoch` (0 in production).
    fn moved(&self) -> u64 {
        crate::model::time::skew().saturating_sub(self.skew_at_epoch)
    }

    fn instant_of(&self, at_ms: u64) -> Instant {
        let at = self.epoch
            + Duration::from_millis(at_ms.saturating_sub(self.wall_at_epoch + self.moved()));
        // A movable test clock may jump past the deadline at any moment:
        // the room looks again at least every 200 ms.
        if crate::model::time::test_clock() {
            return at.min(Instant::now() + Duration::from_millis(200));
        }
        at
    }

    /// The room's life, starting with `effects` (a restored room's
    /// searches).
    pub(super) async fn run(
        mut self,
        inbox: &mut mpsc::Receiver<Msg>,
        effects: Vec<Effect>,
    ) -> Exit {
        let code = self.state.code.clone();
        info!(room = %code, "room opened");
        if let Err(failed) = self.carry_out(effects, None).await {
            return failed.exit();
        }
        self.publish_use();
        loop {
            let timer = self.state.next_deadline();
            let idle_at = self
                .conns
                .is_empty()
                .then(|| self.empty_since + self.idle_after());
            let handover_at = self.handover_at();
            let wake = [
                timer.map(|(at, _)| self.instant_of(at)),
                idle_at,
                handover_at,
            ]
            .into_iter()
            .flatten()
            .min();
            tokio::select! {
                msg = inbox.recv() => {
                    let Some(msg) = msg else { return Exit::Idle };
                    if let Msg::Shutdown { done } = msg {
                        self.close_all(close::RESTART, close::RESTART_REASON);
                        return Exit::Shutdown(done);
                    }
                    if matches!(msg, Msg::Unload) {
                        if self.conns.is_empty() && self.state.may_unload() {
                            info!(room = %code, "room closed (not in use, making room for others)");
                            drain(inbox);
                            return Exit::Idle;
                        }
                        continue;
                    }
                    // A hello the registry admitted counts as in use until
                    // the room has published its use with it taken, or
                    // until the task dies with it (`HelloInHand`).
                    let hello = matches!(msg, Msg::Attach(_))
                        .then(|| HelloInHand::new(self.occupancy.clone()));
                    let handled = self.handle(msg).await;
                    if handled.is_ok() {
                        self.publish_use();
                    }
                    drop(hello);
                    if let Err(failed) = handled {
                        return failed.exit();
                    }
                }
                _ = sleep_until(wake), if wake.is_some() => {
                    while let Some((at, timer)) = self.state.next_deadline() {
                        let now = self.now();
                        if at > now {
                            break;
                        }
                        let effects = self.state.fire(timer, now);
                        if effects.is_empty() {
                            break;
                        }
                        if let Err(failed) = self.carry_out(effects, None).await {
                            return failed.exit();
                        }
                    }
                    self.publish_use();
                    if self.handover_due() {
                        info!(room = %code, "every socket comes from another node; the room moves there");
                        self.close_all(close::RESTART, "The room is moving to the server you are on; reconnecting.");
                        drain(inbox);
                        return Exit::Idle;
                    }
                    if self.conns.is_empty()
                        && self.state.may_unload()
                        && self.empty_since.elapsed() >= self.idle_after()
                    {
                        info!(room = %code, "room closed (idle)");
                        drain(inbox);
                        return Exit::Idle;
                    }
                }
            }
        }
    }

    /// Whether a socket has attached since the room was loaded.
    pub(super) fn has_been_joined(&self) -> bool {
        self.occupancy.joined()
    }

    /// Tells the registry whether the room is in use: a socket attached,
    /// or a game that cannot leave memory (a clock, a search).
    fn publish_use(&self) {
        self.occupancy
            .set_in_use(!self.conns.is_empty() || !self.state.may_unload());
    }

    /// How long the room stays in memory with nobody online.
    fn idle_after(&self) -> Duration {
        if self.has_been_joined() {
            self.settings.idle_after
        } else {
            self.settings.idle_after / NEVER_JOINED_SHARE
        }
    }

    async fn handle(&mut self, msg: Msg) -> Result<(), StoreFailed> {
        let now = self.now();
        match msg {
            #[cfg(test)]
            Msg::Attach(attach) if attach.name.as_deref() == Some(PANIC_ON_HELLO) => {
                panic!("a hello that panics, injected by a test")
            }
            Msg::Attach(attach) => self.attach(*attach, now).await,
            // Taken in `run`.
            Msg::Unload => Ok(()),
            Msg::Detach { conn } => {
                let effects = self.drop_conn(conn, now);
                self.deliver(effects);
                // The last person online leaving takes a public room off
                // the lobby.
                if self.lobby_changed().is_some() {
                    self.persist(Vec::new()).await?;
                }
                Ok(())
            }
            Msg::Command { conn, id, command } => {
                let Some(member) = self.conns.get(&conn).map(|c| c.member) else {
                    // A connection the room already let go of (its socket
                    // is closing with a code).
                    return Ok(());
                };
                let kind = command.kind();
                let span =
                    tracing::debug_span!("command", room = %self.state.code, %member, kind, id);
                let _enter = span.enter();
                match self.state.apply(member, command, now) {
                    Ok(effects) => {
                        let ack = protocol::ack(id, None);
                        self.carry_out(effects, Some((conn, id, ack))).await
                    }
                    Err(refusal) => {
                        debug!(code = %refusal.code, message = %refusal.message, "refused");
                        let text = refusal.to_message(Some(id));
                        self.send_to(conn, text);
                        Ok(())
                    }
                }
            }
            Msg::Info { reply } => {
                let _ = reply.send(self.info());
                Ok(())
            }
            Msg::BotMove {
                table,
                think,
                result,
            } => {
                if self.thinking.get(&table).is_some_and(|t| t.id == think) {
                    self.thinking.remove(&table);
                }
                let effects = self.state.bot_move(table, think, result, now);
                self.carry_out(effects, None).await
            }
            Msg::Hint {
                member,
                hint,
                result,
            } => {
                if self.hints.get(&member).is_some_and(|t| t.id == hint) {
                    self.hints.remove(&member);
                }
                let effects = self.state.hint_found(member, hint, result);
                self.carry_out(effects, None).await
            }
            Msg::Shutdown { .. } => Ok(()),
            #[cfg(test)]
            Msg::Panic => panic!("a panic injected by a test"),
        }
    }

    /// Stores one call's writes and waits for them; a failure is logged
    /// and means the room must restart from the store (or, if another
    /// node took the room over, stop here).
    async fn persist(&mut self, mut writes: Vec<Write>) -> Result<(), StoreFailed> {
        let lobby = self.lobby_changed();
        if let Some(entry) = &lobby {
            writes.push(Write::Lobby(entry.clone(), self.now()));
        }
        self.write(writes).await?;
        if let Some(entry) = lobby {
            self.lobby = Some(entry);
        }
        Ok(())
    }

    /// The room's lobby line, if it differs from the one last stored.
    fn lobby_changed(&self) -> Option<Option<LobbyEntry>> {
        let entry = self.state.lobby_entry(self.now());
        (self.lobby.as_ref() != Some(&entry)).then_some(entry)
    }

    async fn write(&self, writes: Vec<Write>) -> Result<(), StoreFailed> {
        match self
            .store
            .write_as(&self.state.code, self.fence, writes)
            .await
        {
            Ok(()) => Ok(()),
            Err(StoreError::Fenced(_)) => {
                info!(room = %self.state.code, "another node owns the room now; letting it go");
                Err(StoreFailed { fenced: true })
            }
            Err(e) => {
                error!(room = %self.state.code, error = %e, "could not store the room's changes; restarting the room");
                Err(StoreFailed { fenced: false })
            }
        }
    }

    /// Carries out a call's effects: the writes first (one transaction,
    /// awaited), then the events and searches, with `answer` to the
    /// command's sender after its own events (players first:
    /// [`RoomTask::deliver_answering`]). If the writes fail, nothing is sent but an
    /// `internal` error, and the room restarts from the store.
    async fn carry_out(
        &mut self,
        effects: Vec<Effect>,
        answer: Option<(ConnId, i64, String)>,
    ) -> Result<(), StoreFailed> {
        let (writes, rest) = split(effects);
        if let Err(failed) = self.persist(writes).await {
            if let Some((conn, id, _)) = answer {
                let refusal = Refusal::new(
                    Code::Internal,
                    "Something went wrong on our side; nothing changed.",
                );
                self.send_to(conn, refusal.to_message(Some(id)));
            }
            return Err(failed);
        }
        let answer = answer.map(|(conn, _, text)| (conn, Utf8Bytes::from(text)));
        self.deliver_answering(rest, answer);
        Ok(())
    }

    fn info(&self) -> RoomInfo {
        RoomInfo {
            code: self.state.code.clone(),
            game: self.state.game(),
            options: self.state.options.clone(),
            players: self
                .state
                .members
                .iter()
                .filter(|m| m.seat.is_some())
                .count(),
            spectators: self.state.spectator_count(),
        }
    }
}

pub(super) fn split(effects: Vec<Effect>) -> (Vec<Write>, Vec<Effect>) {
    let mut writes = Vec::new();
    let mut rest = Vec::new();
    for effect in effects {
        match effect {
            Effect::Persist(w) => writes.push(w),
            other => rest.push(other),
        }
    }
    (writes, rest)
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}
