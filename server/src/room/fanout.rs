//! The task's side of the connections: sending events and answers, and
//! letting go of a connection that cannot keep up. A message is either
//! queued or the connection is closed with a code; never dropped silently.

use std::collections::HashSet;

use axum::extract::ws::Utf8Bytes;
use flume::TrySendError;
use tokio::time::Instant;
use tracing::warn;

use super::conn::close;
use super::encoded::{json, Encoded};
use super::event::Effect;
use super::task::{Recent, RoomTask, RECENT_EVENTS};
use super::think;
use crate::model::ids::{ConnId, MemberId};

/// A message effect, made ready to send to the connections it is for.
enum Outgoing {
    /// An event to every connection (serialised once).
    Event(Encoded),
    /// A message to one member's connections.
    Direct(MemberId, Utf8Bytes),
    /// A refusal to one member's connections, which are then closed.
    Close(MemberId, Utf8Bytes, String),
}

/// The connections a delivery let go of: closed by an effect, or whose
/// queue was full (closed with a code afterwards).
#[derive(Default)]
struct Gone {
    skip: HashSet<ConnId>,
    closed: Vec<ConnId>,
    dropped: Vec<(ConnId, TrySendError<Utf8Bytes>)>,
}

/// How a pass hands its messages to the connections: `ByRoom` written by
/// the room's task into the sockets their writers lent it (the players':
/// flushed after the pass), `ByWriter` queued for their writers (everyone else's,
/// so that thousands of spectators are written by their own tasks, on
/// every core, after the players).
#[derive(Clone, Copy)]
enum Delivery {
    ByRoom,
    ByWriter,
}

impl Gone {
    fn full(&mut self, conn: ConnId, error: TrySendError<Utf8Bytes>) {
        self.skip.insert(conn);
        self.dropped.push((conn, error));
    }
}

impl RoomTask {
    /// Sends events and starts searches. A connection whose queue is full
    /// is closed with a code (it resyncs when it reconnects), and the
    /// members event that follows goes out the same way.
    pub(super) fn deliver(&mut self, effects: Vec<Effect>) {
        self.deliver_answering(effects, None);
    }

    /// [`RoomTask::deliver`], then `answer` (a command's `ack`) to the
    /// connection that sent the command, after every message of
    /// `effects` for it (PROTOCOL.md: a command's events come before its
    /// `ack`).
    ///
    /// The messages go out in two passes: first to the players' (seated
    /// members') connections and the answering one, then the `ack`, then
    /// to everyone else. Each connection gets its messages in the
    /// effects' order either way; in a room with thousands of spectators
    /// the players' copies (their opponent's move, on which their clock
    /// runs) and the mover's `ack` no longer wait behind the spectators':
    /// every queue push wakes that socket's writer, and the writers run
    /// in the order they were woken.
    pub(super) fn deliver_answering(
        &mut self,
        mut effects: Vec<Effect>,
        mut answer: Option<(ConnId, Utf8Bytes)>,
    ) {
        while !effects.is_empty() {
            let outgoing = self.start_effects(effects.drain(..));
            let seated: Vec<MemberId> = self.state.seated_members().collect();
            let answering = answer.as_ref().map(|(conn, _)| *conn);
            let first = |conn: ConnId, member: MemberId| {
                Some(conn) == answering || seated.contains(&member)
            };
            let mut gone = Gone::default();
            self.send_pass(&outgoing, first, Delivery::ByRoom, &mut gone);
            if let Some((conn, text)) = answer.take() {
                if let (false, Some(c)) = (gone.skip.contains(&conn), self.conns.get(&conn)) {
                    if let Err(e) = c.outbox.feed(text) {
                        gone.full(conn, e);
                    }
                }
            }
            // What the first pass wrote into lent sockets goes out, one
            // write a connection.
            for (&conn, c) in &self.conns {
                if first(conn, c.member) && !gone.skip.contains(&conn) {
                    c.outbox.flush();
                }
            }
            self.send_pass(
                &outgoing,
                |conn, member| !first(conn, member),
                Delivery::ByWriter,
                &mut gone,
            );
            let now = self.now();
            for conn in gone.closed {
                effects.extend(self.drop_conn(conn, now));
            }
            for (conn, e) in gone.dropped {
                self.close_conn(conn, &e);
                effects.extend(self.drop_conn(conn, now));
            }
        }
        // A command whose effects were empty: the answer alone.
        if let Some((conn, text)) = answer {
            self.send_to(conn, text);
        }
    }

    /// Carries out the effects that are not messages (searches started
    /// and stopped) and makes the messages ready, in order.
    fn start_effects(&mut self, effects: impl Iterator<Item = Effect>) -> Vec<Outgoing> {
        let mut outgoing = Vec::new();
        for effect in effects {
            match effect {
                Effect::Broadcast(stamped) => {
                    // Serialised once, shared by every socket; a long
                    // legal list goes only to whoever is due to play, in
                    // a second copy.
                    let v = stamped.v;
                    let encoded = Encoded::of(stamped);
                    self.recent.push_back(Recent {
                        v,
                        encoded: encoded.clone(),
                    });
                    if self.recent.len() > RECENT_EVENTS {
                        self.recent.pop_front();
                    }
                    outgoing.push(Outgoing::Event(encoded));
                }
                Effect::Think {
                    table,
                    think,
                    game,
                    level,
                    budget_ms,
                    among_computers,
                    client,
                } => {
                    let ask = think::Ask {
                        game: *game,
                        level,
                        budget_ms,
                        among_computers,
                        client,
                    };
                    let search =
                        think::start(&self.state.code, self.own_inbox.clone(), table, think, ask);
                    self.thinking.insert(table, search);
                }
                Effect::StopThinking { table } => {
                    self.thinking.remove(&table);
                }
                Effect::Hint {
                    member,
                    hint,
                    game,
                    budget_ms,
                    client,
                } => {
                    let search = think::hint(
                        &self.state.code,
                        self.own_inbox.clone(),
                        member,
                        hint,
                        *game,
                        budget_ms,
                        client,
                    );
                    self.hints.insert(member, search);
                }
                Effect::StopHint { member } => {
                    self.hints.remove(&member);
                }
                Effect::Direct { member, message } => {
                    // For one member's pages only: no version, not kept
                    // for reconnecting clients.
                    outgoing.push(Outgoing::Direct(member, Utf8Bytes::from(json(&message))));
                }
                Effect::Close { member, refusal } => {
                    // Say why, then close: the page stops reconnecting on
                    // this code.
                    let text = Utf8Bytes::from(refusal.to_message(None));
                    outgoing.push(Outgoing::Close(member, text, refusal.message));
                }
                Effect::Persist(_) => {
                    warn!(room = %self.state.code, "a write after the transaction was ignored");
                }
            }
        }
        outgoing
    }

    /// Queues `outgoing`, in order, on the connections `this_pass` picks
    /// (by connection and member). A connection whose queue is full, or
    /// whose member is closed, goes to `gone` and gets nothing more.
    fn send_pass(
        &self,
        outgoing: &[Outgoing],
        this_pass: impl Fn(ConnId, MemberId) -> bool,
        how: Delivery,
        gone: &mut Gone,
    ) {
        for message in outgoing {
            for (&conn, c) in &self.conns {
                if !this_pass(conn, c.member) || gone.skip.contains(&conn) {
                    continue;
                }
                let text = match message {
                    Outgoing::Event(encoded) => encoded.for_member(c.member),
                    Outgoing::Direct(member, text) if *member == c.member => text.clone(),
                    Outgoing::Close(member, text, reason) if *member == c.member => {
                        let _ = c.outbox.try_send(text.clone());
                        c.closer.close(close::POLICY, reason);
                        gone.skip.insert(conn);
                        gone.closed.push(conn);
                        continue;
                    }
                    _ => continue,
                };
                let sent = match how {
                    Delivery::ByRoom => c.outbox.feed(text),
                    Delivery::ByWriter => c.outbox.try_send(text),
                };
                if let Err(e) = sent {
                    gone.full(conn, e);
                }
            }
        }
    }

    /// Sends one message to one connection, or closes it with a code.
    pub(super) fn send_to(&mut self, conn: ConnId, text: impl Into<Utf8Bytes>) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        let sent = c.outbox.feed(text.into());
        c.outbox.flush();
        if let Err(e) = sent {
            self.close_conn(conn, &e);
            let effects = self.drop_conn(conn, self.now());
            self.deliver(effects);
        }
    }

    fn close_conn(&self, conn: ConnId, error: &TrySendError<Utf8Bytes>) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        if matches!(error, TrySendError::Full(_)) {
            warn!(room = %self.state.code, conn = conn.0, "closing a connection whose send queue is full");
            c.closer.close(close::POLICY, close::NOT_READING);
        }
    }

    /// Forgets a connection; the state hears that its member has one
    /// connection fewer.
    pub(super) fn drop_conn(&mut self, conn: ConnId, now: u64) -> Vec<Effect> {
        let Some(c) = self.conns.remove(&conn) else {
            return Vec::new();
        };
        if self.conns.is_empty() {
            self.empty_since = Instant::now();
        }
        self.state.disconnect(c.member, now)
    }

    pub(super) fn close_all(&mut self, code: u16, reason: &str) {
        for (_, c) in self.conns.drain() {
            c.closer.close(code, reason);
        }
    }
}
