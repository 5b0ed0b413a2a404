//! Voice chat's state: who is in it, who speaks, who is muted. The audio
//! itself goes browser to browser (WebRTC); the room only keeps this list
//! and relays the signalling (`cmd/signal.rs`); joining, leaving and
//! muting are `cmd/voice.rs`. Voice is live only: it is
//! not stored, and a member whose last page closes leaves it.
//!
//! Every change goes out as one `voice` event per member it changed (that
//! member's state, or `null` when they left), never the whole list: a
//! room of N in voice would otherwise send N entries to N pages for each
//! mute. The snapshot carries the whole list (`room.voice`).
//!
//! Signalling is budgeted here ([`SignalBudgets`]), per sender and per
//! sender's address: token buckets in the room's own clock (`now`,
//! milliseconds), which keeps the room's state a pure function of its
//! commands (the room's simulation tests replay them); the per-connection
//! limit in `ws/reader.rs` does not bound a member with many pages. The
//! budgets outlive a member's stay in voice: leaving and joining again
//! does not refill them.

use std::collections::HashMap;
use std::net::IpAddr;

use super::views::VoiceView;
use crate::model::ids::MemberId;

/// Members who may send their voice at once; more only listen (a mesh of
/// n speakers costs each of them n-1 uploads).
pub const MAX_SPEAKERS: usize = 8;

/// Signalling messages a member may send at once (all their pages
/// together: enough to connect to every speaker and listener of a full
/// voice chat with a few candidates each), and how many more a second.
pub const SIGNAL_BURST: f64 = 60.0;
pub const SIGNAL_RATE: f64 = 10.0;

/// The same for all the members of one client address together (IPv6:
/// its /64) in a room: three members' worth, so a household can join at
/// once, and the 20 members one address may add cannot send 20 budgets.
pub const ADDR_SIGNAL_BURST: f64 = 3.0 * SIGNAL_BURST;
pub const ADDR_SIGNAL_RATE: f64 = 3.0 * SIGNAL_RATE;

/// Who a signalling budget is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sender {
    Member(MemberId),
    Addr(IpAddr),
}

/// Chat lines a member may send at once (all their pages together), and
/// how many more a second; and the same for all the members of one client
/// address in a room (three members' worth). The per-connection message
/// rate does not bound a member with many pages (an attack round sent
/// about 1 000 lines a second from one member with 50 sockets, each line
/// stored and sent to everyone).
pub const CHAT_BURST: f64 = 10.0;
pub const CHAT_RATE: f64 = 2.0;
pub const ADDR_CHAT_BURST: f64 = 3.0 * CHAT_BURST;
pub const ADDR_CHAT_RATE: f64 = 3.0 * CHAT_RATE;

/// Commands that change the room for everyone (a name, a seat, voice and
/// its mutes, the host's settings and seats: each sends an event to every
/// member) a member may send at once, all their pages together, and how
/// many more a second; and the same for all the members of one client
/// address in a room. An attack round sent about 400 renames a second
/// from one address, within the per-connection message rate, and got a
/// slow member closed for not reading. Moves, offers and claims are
/// bounded by the game; chat and signalling have their own budgets.
pub const CHANGE_BURST: f64 = 20.0;
pub const CHANGE_RATE: f64 = 2.0;
pub const ADDR_CHANGE_BURST: f64 = 3.0 * CHANGE_BURST;
pub const ADDR_CHANGE_RATE: f64 = 3.0 * CHANGE_RATE;

/// A room's budgets of one kind of message (signalling, chat), per member
/// and per address (live only, like voice). A budget that has refilled is
/// forgotten (it holds nothing a fresh one does not), so the map holds
/// only the members and addresses that sent lately.
#[derive(Clone, Debug)]
pub struct SignalBudgets {
    buckets: HashMap<Sender, Bucket>,
    /// Burst and rate (a second) of a member's budget, and an address's.
    member: (f64, f64),
    addr: (f64, f64),
}

impl Default for SignalBudgets {
    /// The signalling budgets.
    fn default() -> Self {
        SignalBudgets {
            buckets: HashMap::new(),
            member: (SIGNAL_BURST, SIGNAL_RATE),
            addr: (ADDR_SIGNAL_BURST, ADDR_SIGNAL_RATE),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: u64,
}

impl Bucket {
    /// The messages a bucket of `(burst, rate)` holds at `now`.
    fn tokens_at(self, (burst, rate): (f64, f64), now: u64) -> f64 {
        let elapsed = now.saturating_sub(self.at) as f64 / 1000.0;
        (self.tokens + elapsed * rate).min(burst)
    }
}

impl SignalBudgets {
    /// The chat budgets ([`CHAT_BURST`]).
    pub fn chat() -> Self {
        SignalBudgets {
            buckets: HashMap::new(),
            member: (CHAT_BURST, CHAT_RATE),
            addr: (ADDR_CHAT_BURST, ADDR_CHAT_RATE),
        }
    }

    /// The budgets of changes ([`CHANGE_BURST`]).
    pub fn changes() -> Self {
        SignalBudgets {
            buckets: HashMap::new(),
            member: (CHANGE_BURST, CHANGE_RATE),
            addr: (ADDR_CHANGE_BURST, ADDR_CHANGE_RATE),
        }
    }

    /// Whether `member` (and its address, when known) could spend one
    /// message at `now`, spending nothing.
    pub fn allows(&self, member: MemberId, addr: Option<IpAddr>, now: u64) -> bool {
        senders(member, addr).all(|sender| self.tokens(sender, now) >= 1.0)
    }

    /// Spends one message of `member`'s budget and of its address's (when
    /// known) at `now`; refused by either, it spends nothing.
    pub fn take(&mut self, member: MemberId, addr: Option<IpAddr>, now: u64) -> bool {
        if !self.allows(member, addr, now) {
            return false;
        }
        for sender in senders(member, addr) {
            let tokens = self.tokens(sender, now);
            let at = self.buckets.get(&sender).map_or(now, |b| b.at.max(now));
            self.buckets.insert(
                sender,
                Bucket {
                    tokens: tokens - 1.0,
                    at,
                },
            );
        }
        if self.buckets.len() > 64 {
            self.forget_full(now);
        }
        true
    }

    /// The burst and rate of `sender`'s budget.
    fn budget(&self, sender: Sender) -> (f64, f64) {
        budget_of(sender, self.member, self.addr)
    }

    /// The messages `sender` may send at `now` (a full budget when it has
    /// sent nothing lately).
    fn tokens(&self, sender: Sender, now: u64) -> f64 {
        let budget = self.budget(sender);
        self.buckets
            .get(&sender)
            .map_or(budget.0, |b| b.tokens_at(budget, now))
    }

    /// Forgets the budgets that have refilled by `now`.
    fn forget_full(&mut self, now: u64) {
        let (member, addr) = (self.member, self.addr);
        self.buckets.retain(|&sender, b| {
            let budget = budget_of(sender, member, addr);
            b.tokens_at(budget, now) < budget.0
        });
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.buckets.len()
    }
}

/// Who a message of `member` from `addr` spends from: the member, and
/// its address (IPv6: its /64) when known.
fn senders(member: MemberId, addr: Option<IpAddr>) -> impl Iterator<Item = Sender> {
    [
        Some(Sender::Member(member)),
        addr.map(|a| Sender::Addr(crate::limits::address::bucket_key(a))),
    ]
    .into_iter()
    .flatten()
}

/// The burst and rate of `sender`'s budget, given a member's and an
/// address's.
fn budget_of(sender: Sender, member: (f64, f64), addr: (f64, f64)) -> (f64, f64) {
    match sender {
        Sender::Member(_) => member,
        Sender::Addr(_) => addr,
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Voice {
    pub member: MemberId,
    pub speaker: bool,
    pub muted: bool,
    pub host_muted: bool,
}

impl Voice {
    pub fn new(member: MemberId, speaker: bool) -> Voice {
        Voice {
            member,
            speaker,
            muted: false,
            host_muted: false,
        }
    }

    pub(super) fn view(&self) -> VoiceView {
        VoiceView {
            member: self.member,
            speaker: self.speaker,
            muted: self.muted,
            host_muted: self.host_muted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_refilled_are_forgotten_and_an_address_budget_is_shared() {
        let mut budgets = SignalBudgets::default();
        let addr: IpAddr = "2001:db8::1".parse().unwrap();
        let same_64: IpAddr = "2001:db8::2".parse().unwrap();
        // Four members of one /64 spend the address's 180 between them.
        let mut passed = 0;
        for m in 1..=4 {
            for _ in 0..60 {
                passed += usize::from(budgets.take(
                    MemberId(m),
                    Some(if m % 2 == 0 { addr } else { same_64 }),
                    0,
                ));
            }
        }
        assert_eq!(passed, 180);
        // A member with no address known has its own budget only.
        assert!(budgets.take(MemberId(9), None, 0));
        // Many members later: once refilled, their budgets are forgotten.
        for m in 100..200 {
            budgets.take(MemberId(m), None, 60_000);
        }
        assert_eq!(budgets.len(), 100, "the earlier ones, refilled, forgotten");
        budgets.take(MemberId(7), None, 120_000);
        assert_eq!(budgets.len(), 1, "only the latest sender's is kept");
    }
}
