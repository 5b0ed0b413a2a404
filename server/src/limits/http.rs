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
//! it takes the place of another, which is closed at once. When some
//! client holds two or more, the one holding the most gives it up: its
//! connection that has waited longest without a request in progress, or,
//! if it has none and holds more than the newcomer's client would, the
//! one whose request began first (a slow body is no reason to keep a
//! crowd's place); if it has none to give, the newcomer is closed instead
//! (it is one of the crowd). When every client holds one, the connection
//! that has waited longest without a request in progress goes, and if
//! every one has a request in progress the newcomer is closed.
//!
//! So a flood of connections, silent, slow or reconnecting at once, from
//! fewer addresses than the bound pushes out its own connections, not an
//! honest client's one (an attack round saw a fresh request closed
//! unanswered, its head not yet read, when the rule was only "the oldest
//! idle goes"). A client is an address, an IPv6 /64 (as every limit
//! counts), the peer itself for a `--trusted-proxy` (which carries
//! everyone's).
//!
//! A connection leaves the count when it ends or is upgraded (an open
//! WebSocket is counted by `--max-connections`). The bound's place in the
//! descriptor budget: `serve::fit_connections`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;

use super::address::bucket_key;

/// The node's HTTP connections (see the module doc).
pub struct HttpConnections {
    max: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Connections counted (evicted ones leave the count at once).
    open: usize,
    /// Each connection's turn: when it last became idle, or busy.
    next_turn: u64,
    clients: HashMap<IpAddr, Client>,
    /// Clients by the connections they hold, the most last.
    by_count: BTreeSet<(usize, IpAddr)>,
    /// Every idle connection's client, the longest-waiting first.
    idle: BTreeMap<u64, IpAddr>,
}

/// One client's connections.
#[derive(Default)]
struct Client {
    open: usize,
    /// Without a request in progress, by the turn they became idle.
    idle: BTreeMap<u64, CancellationToken>,
    /// With one, by the turn it began.
    busy: BTreeMap<u64, CancellationToken>,
}

/// Where a counted connection is in its client's maps.
#[derive(Clone, Copy)]
enum Spot {
    Idle(u64),
    Busy(u64),
}

/// One counted connection; leaves the count when dropped.
pub struct Held {
    conns: Arc<HttpConnections>,
    client: IpAddr,
    /// Cancelled when the connection is closed to make room.
    evicted: CancellationToken,
    spot: Mutex<Spot>,
}

impl State {
    fn turn(&mut self) -> u64 {
        self.next_turn += 1;
        self.next_turn
    }

    /// `client`'s count changes by `delta` (+1 or -1).
    fn count(&mut self, client: IpAddr, up: bool) {
        let c = self.clients.entry(client).or_default();
        let before = c.open;
        c.open = if up { before + 1 } else { before - 1 };
        let after = c.open;
        self.by_count.remove(&(before, client));
        if after > 0 {
            self.by_count.insert((after, client));
        } else {
            self.clients.remove(&client);
        }
        if up {
            self.open += 1;
        } else {
            self.open -= 1;
        }
    }

    fn insert(&mut self, client: IpAddr, spot: Spot, token: CancellationToken) {
        let c = self.clients.entry(client).or_default();
        match spot {
            Spot::Idle(turn) => {
                c.idle.insert(turn, token);
                self.idle.insert(turn, client);
            }
            Spot::Busy(turn) => {
                c.busy.insert(turn, token);
            }
        }
    }

    fn remove(&mut self, client: IpAddr, spot: Spot) -> Option<CancellationToken> {
        let c = self.clients.get_mut(&client)?;
        match spot {
            Spot::Idle(turn) => {
                self.idle.remove(&turn);
                c.idle.remove(&turn)
            }
            Spot::Busy(turn) => c.busy.remove(&turn),
        }
    }

    /// Closes one connection to make room for one of `newcomer`'s, by the
    /// module doc's order; false when none may go.
    fn evict(&mut self, newcomer: IpAddr) -> bool {
        let mine = self.clients.get(&newcomer).map_or(0, |c| c.open);
        let victim = match self.by_count.last() {
            Some(&(most, top)) if most >= 2 => {
                let c = &self.clients[&top];
                c.idle
                    .keys()
                    .next()
                    .map(|&t| (top, Spot::Idle(t)))
                    .or_else(|| {
                        // Its requests, only for a smaller client.
                        (most > mine + 1)
                            .then(|| c.busy.keys().next().map(|&t| (top, Spot::Busy(t))))
                            .flatten()
                    })
            }
            _ => self
                .idle
                .iter()
                .next()
                .map(|(&t, &client)| (client, Spot::Idle(t))),
        };
        let Some((client, spot)) = victim else {
            return false;
        };
        if let Some(token) = self.remove(client, spot) {
            token.cancel();
        }
        self.count(client, false);
        true
    }
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

    /// Counts a new connection from `peer` (idle, waiting for its head),
    /// closing another when the node holds its most (see the module
    /// doc); `None` when none may go.
    pub fn admit(self: &Arc<Self>, peer: IpAddr) -> Option<Held> {
        let client = bucket_key(peer);
        let mut state = self.state();
        if state.open >= self.max && !state.evict(client) {
            return None;
        }
        state.count(client, true);
        let spot = Spot::Idle(state.turn());
        let evicted = CancellationToken::new();
        state.insert(client, spot, evicted.clone());
        Some(Held {
            conns: self.clone(),
            client,
            evicted,
            spot: Mutex::new(spot),
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

    fn spot(&self) -> std::sync::MutexGuard<'_, Spot> {
        self.spot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Moves the connection to `busy` (a request began) or back to idle.
    fn moved(&self, busy: bool) {
        let mut state = self.conns.state();
        if self.evicted.is_cancelled() {
            return;
        }
        let mut spot = self.spot();
        state.remove(self.client, *spot);
        let turn = state.turn();
        *spot = if busy {
            Spot::Busy(turn)
        } else {
            Spot::Idle(turn)
        };
        state.insert(self.client, *spot, self.evicted.clone());
    }

    /// A request is in progress until the guard is dropped: the
    /// connection is closed for another only after the crowd's idle ones.
    pub fn busy(self: &Arc<Self>) -> Busy {
        self.moved(true);
        Busy { held: self.clone() }
    }
}

/// See [`Held::busy`].
pub struct Busy {
    held: Arc<Held>,
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.held.moved(false);
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut state = self.conns.state();
        // An evicted connection left the count when it was chosen.
        if self.evicted.is_cancelled() {
            return;
        }
        let spot = *self.spot();
        state.remove(self.client, spot);
        state.count(self.client, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([203, 0, 113, n])
    }

    #[test]
    fn among_equals_the_longest_waiting_idle_connection_makes_room() {
        let conns = HttpConnections::new(3);
        let a = Arc::new(conns.admit(ip(1)).unwrap());
        let b = Arc::new(conns.admit(ip(2)).unwrap());
        let c = Arc::new(conns.admit(ip(3)).unwrap());
        assert_eq!(conns.open(), 3);
        // a has a request in progress: b has waited longest.
        let busy_a = a.busy();
        let d = conns.admit(ip(4)).expect("room made");
        assert!(b.evicted().is_cancelled(), "the oldest idle one goes");
        assert!(!a.evicted().is_cancelled() && !c.evicted().is_cancelled());
        assert_eq!(conns.open(), 3);
        drop(b);
        assert_eq!(conns.open(), 3, "an evicted one is not counted twice");
        // a's request ends: it waits again, behind c and d.
        drop(busy_a);
        let _e = conns.admit(ip(5)).unwrap();
        assert!(c.evicted().is_cancelled(), "c had waited longest");
        assert!(!a.evicted().is_cancelled());
        drop(d);
        assert_eq!(conns.open(), 2);
    }

    #[test]
    fn when_every_connection_has_a_request_the_new_one_is_refused() {
        let conns = HttpConnections::new(2);
        let a = Arc::new(conns.admit(ip(1)).unwrap());
        let b = Arc::new(conns.admit(ip(2)).unwrap());
        let (busy_a, busy_b) = (a.busy(), b.busy());
        assert!(conns.admit(ip(3)).is_none(), "nothing to evict: refused");
        assert_eq!(conns.open(), 2);
        drop(busy_b);
        let _c = conns.admit(ip(3)).expect("b waits again: evicted");
        assert!(b.evicted().is_cancelled());
        drop(busy_a);
        drop(a);
        assert_eq!(conns.open(), 1);
    }

    /// A crowd's connections make room for a newcomer before anyone
    /// else's, even its busy ones (a slow body) and even when the other
    /// client's connection has waited longer.
    #[test]
    fn the_client_holding_the_most_makes_room_first() {
        let conns = HttpConnections::new(4);
        let honest = Arc::new(conns.admit(ip(1)).unwrap());
        let crowd: Vec<Arc<Held>> = (0..3)
            .map(|_| Arc::new(conns.admit(ip(9)).unwrap()))
            .collect();
        let busy: Vec<Busy> = crowd.iter().map(|h| h.busy()).collect();
        // The honest one waited longest and is idle; the crowd's are all
        // busy: still the crowd's oldest request goes.
        let _fresh = conns.admit(ip(2)).expect("room made");
        assert!(crowd[0].evicted().is_cancelled());
        assert!(!honest.evicted().is_cancelled());
        // The crowd's own newcomer pushes out nobody else's: its client
        // holds the most and has no idle one to give up.
        assert!(conns.admit(ip(9)).is_none());
        assert!(!honest.evicted().is_cancelled());
        // Once idle, the crowd's connections go before the honest one,
        // which has waited longest.
        drop(busy);
        let _own = conns.admit(ip(9)).expect("room made");
        assert!(crowd[1].evicted().is_cancelled());
        assert!(!honest.evicted().is_cancelled());
        drop(crowd);
        assert_eq!(conns.open(), 3);
        // An IPv6 /64 is one client.
        let v6 = |last: u16| IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, last]);
        let conns = HttpConnections::new(3);
        let _x = conns.admit(ip(1)).unwrap();
        let y = conns.admit(v6(1)).unwrap();
        let z = conns.admit(v6(2)).unwrap();
        let _w = conns.admit(ip(3)).unwrap();
        assert!(
            y.evicted().is_cancelled(),
            "the /64 holds two: its oldest goes"
        );
        assert!(!z.evicted().is_cancelled());
    }
}
