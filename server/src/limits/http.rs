//! `--max-http-connections`: the TCP connections the node holds before
//! they become WebSockets (plain HTTP, keep-alive connections between
//! requests, connections still sending their first head), over every
//! address together.
//!
//! The per-address cap (`--max-connections-per-addr`) bounds one address;
//! a crowd of addresses that each open their share and never finish a
//! head could still use up the process's file descriptors for the header
//! timeout (seen: 44 addresses × 480 connections reached 20 000, and
//! `accept` paused for everyone). With this bound, a new connection past
//! it takes the place of the one that has waited longest without a
//! request in progress (a head not yet sent, or a keep-alive connection
//! between requests), which is closed. An honest client's head arrives in
//! milliseconds, so it is the slow and silent ones that go, and a crowd
//! must open the whole bound's worth of connections within a client's
//! head time to push an honest one out. When every connection has a
//! request in progress, the new one is closed at once instead.
//!
//! A connection leaves the count when it ends or is upgraded (an open
//! WebSocket is counted by `--max-connections`). The bound's place in the
//! descriptor budget: `serve::fit_connections`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;

/// The node's HTTP connections (see the module doc).
pub struct HttpConnections {
    max: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Connections counted (evicted ones leave the count at once).
    open: usize,
    /// The next waiting turn: a connection's place in `waiting` is the
    /// turn it took when it last became idle.
    next_turn: u64,
    /// Idle connections, the longest-waiting first.
    waiting: BTreeMap<u64, CancellationToken>,
}

/// One counted connection; leaves the count when dropped.
pub struct Held {
    conns: Arc<HttpConnections>,
    /// Cancelled when the connection is evicted.
    evicted: CancellationToken,
    /// Its turn in `waiting` while idle; `None` while a request is in
    /// progress.
    turn: Mutex<Option<u64>>,
}

impl HttpConnections {
    /// At most `max` connections (at least 1).
    pub fn new(max: usize) -> Arc<Self> {
        Arc::new(Self {
            max: max.max(1),
            state: Mutex::default(),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts a new connection (idle, waiting for its head), evicting the
    /// longest-waiting idle one when the node holds its most; `None` when
    /// all have a request in progress.
    pub fn admit(self: &Arc<Self>) -> Option<Held> {
        let mut state = self.state();
        if state.open >= self.max {
            let (_, oldest) = state.waiting.pop_first()?;
            oldest.cancel();
            state.open -= 1;
        }
        state.open += 1;
        let turn = state.next_turn;
        state.next_turn += 1;
        let evicted = CancellationToken::new();
        state.waiting.insert(turn, evicted.clone());
        Some(Held {
            conns: self.clone(),
            evicted,
            turn: Mutex::new(Some(turn)),
        })
    }

    /// Connections counted now.
    pub fn open(&self) -> usize {
        self.state().open
    }
}

impl Held {
    /// Cancelled when this connection is closed to make room.
    pub fn evicted(&self) -> &CancellationToken {
        &self.evicted
    }

    fn turn(&self) -> std::sync::MutexGuard<'_, Option<u64>> {
        self.turn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A request is in progress until the guard is dropped: the
    /// connection cannot be evicted meanwhile.
    pub fn busy(self: &Arc<Self>) -> Busy {
        let mut state = self.conns.state();
        if let Some(turn) = self.turn().take() {
            state.waiting.remove(&turn);
        }
        Busy { held: self.clone() }
    }

    /// Whether a request is in progress.
    pub fn is_busy(&self) -> bool {
        self.turn().is_none()
    }
}

/// See [`Held::busy`].
pub struct Busy {
    held: Arc<Held>,
}

impl Drop for Busy {
    fn drop(&mut self) {
        let held = &self.held;
        if held.evicted.is_cancelled() {
            return;
        }
        let mut state = held.conns.state();
        let turn = state.next_turn;
        state.next_turn += 1;
        state.waiting.insert(turn, held.evicted.clone());
        *held.turn() = Some(turn);
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut state = self.conns.state();
        // An evicted connection left the count when it was chosen.
        if self.evicted.is_cancelled() {
            return;
        }
        if let Some(turn) = self.turn().take() {
            state.waiting.remove(&turn);
        }
        state.open -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_waiting_idle_connection_makes_room() {
        let conns = HttpConnections::new(3);
        let a = Arc::new(conns.admit().unwrap());
        let b = Arc::new(conns.admit().unwrap());
        let c = Arc::new(conns.admit().unwrap());
        assert_eq!(conns.open(), 3);
        // a has a request in progress: b has waited longest.
        let busy_a = a.busy();
        let d = conns.admit().expect("room made");
        assert!(b.evicted().is_cancelled(), "the oldest idle one goes");
        assert!(!a.evicted().is_cancelled() && !c.evicted().is_cancelled());
        assert_eq!(conns.open(), 3);
        drop(b);
        assert_eq!(conns.open(), 3, "an evicted one is not counted twice");
        // a's request ends: it waits again, behind c and d.
        drop(busy_a);
        let _e = conns.admit().unwrap();
        assert!(c.evicted().is_cancelled(), "c had waited longest");
        assert!(!a.evicted().is_cancelled());
        drop(d);
        assert_eq!(conns.open(), 2);
    }

    #[test]
    fn when_every_connection_has_a_request_the_new_one_is_refused() {
        let conns = HttpConnections::new(2);
        let a = Arc::new(conns.admit().unwrap());
        let b = Arc::new(conns.admit().unwrap());
        let (busy_a, busy_b) = (a.busy(), b.busy());
        assert!(a.is_busy());
        assert!(conns.admit().is_none(), "nothing to evict: refused");
        assert_eq!(conns.open(), 2);
        drop(busy_b);
        assert!(!b.is_busy());
        let _c = conns.admit().expect("b waits again: evicted");
        assert!(b.evicted().is_cancelled());
        drop(busy_a);
        drop(a);
        assert_eq!(conns.open(), 1);
    }
}
