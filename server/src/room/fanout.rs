//! The task's side of the connections: sending events and answers, and
//! letting go of a connection that cannot keep up. A message is either
//! queued or the connection is closed with a code; never dropped silently.

use axum::extract::ws::Utf8Bytes;
use flume::TrySendError;
use tokio::time::Instant;
use tracing::warn;

use super::conn::close;
use super::encoded::{json, Encoded};
use super::event::Effect;
use super::task::{Recent, RoomTask, RECENT_EVENTS};
use super::think;
use crate::model::ids::ConnId;

impl RoomTask {
    /// Sends events and starts searches. A connection whose queue is full
    /// is closed with a code (it resyncs when it reconnects), and the
    /// members event that follows goes out the same way.
    pub(super) fn deliver(&mut self, mut effects: Vec<Effect>) {
        while !effects.is_empty() {
            let mut dropped = Vec::new();
            let mut effects_after = Vec::new();
            for effect in effects.drain(..) {
                match effect {
                    Effect::Broadcast(stamped) => {
                        // Serialised once, shared by every socket; a long
                        // legal list goes only to whoever is due to play,
                        // in a second copy.
                        let v = stamped.v;
                        let encoded = Encoded::of(stamped);
                        for (&conn, c) in &self.conns {
                            if let Err(e) = c.outbox.try_send(encoded.for_member(c.member)) {
                                dropped.push((conn, e));
                            }
                        }
                        self.recent.push_back(Recent { v, encoded });
                        if self.recent.len() > RECENT_EVENTS {
                            self.recent.pop_front();
                        }
                    }
                    Effect::Think {
                        table,
                        think,
                        game,
                        level,
                        budget_ms,
                    } => {
                        let search = think::start(
                            &self.state.code,
                            self.own_inbox.clone(),
                            table,
                            think,
                            *game,
                            level,
                            budget_ms,
                        );
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
                    } => {
                        let search = think::hint(
                            &self.state.code,
                            self.own_inbox.clone(),
                            member,
                            hint,
                            *game,
                            budget_ms,
                        );
                        self.hints.insert(member, search);
                    }
                    Effect::StopHint { member } => {
                        self.hints.remove(&member);
                    }
                    Effect::Direct { member, message } => {
                        // For one member's pages only: no version, not kept
                        // for reconnecting clients.
                        let text = Utf8Bytes::from(json(&message));
                        for (&conn, c) in &self.conns {
                            if c.member == member {
                                if let Err(e) = c.outbox.try_send(text.clone()) {
                                    dropped.push((conn, e));
                                }
                            }
                        }
                    }
                    Effect::Close { member, refusal } => {
                        // Say why, then close: the page stops reconnecting
                        // on this code.
                        let text = Utf8Bytes::from(refusal.to_message(None));
                        let gone: Vec<ConnId> = self
                            .conns
                            .iter()
                            .filter(|(_, c)| c.member == member)
                            .map(|(&conn, _)| conn)
                            .collect();
                        for conn in gone {
                            if let Some(c) = self.conns.get(&conn) {
                                let _ = c.outbox.try_send(text.clone());
                                c.closer.close(close::POLICY, &refusal.message);
                            }
                            let now = self.now();
                            effects_after.extend(self.drop_conn(conn, now));
                        }
                    }
                    Effect::Persist(_) => {
                        warn!(room = %self.state.code, "a write after the transaction was ignored");
                    }
                }
            }
            let now = self.now();
            effects.extend(effects_after);
            for (conn, e) in dropped {
                self.close_conn(conn, &e);
                effects.extend(self.drop_conn(conn, now));
            }
        }
    }

    /// Sends one message to one connection, or closes it with a code.
    pub(super) fn send_to(&mut self, conn: ConnId, text: String) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        if let Err(e) = c.outbox.try_send(Utf8Bytes::from(text)) {
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
            c.closer.close(
                close::POLICY,
                "Too many messages waiting: the connection is not reading. Reconnect to resync.",
            );
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
