//! What a client holds open at once, counted per client: WebSockets
//! (`--max-sockets-per-addr`), the lobby's seeks (`--seeks-per-addr`),
//! TCP connections before their upgrade, histories being read.
//! A signed-in client counts against its address and its account alike
//! (see [`Who`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use super::Who;

/// Open things per client (an IPv4 address, an IPv6 /64, an account). A
/// client is in the map only while it holds something open, so the map
/// is bounded by what is open.
#[derive(Default)]
pub struct OpenPerClient {
    open: Mutex<HashMap<Who, usize>>,
}

impl OpenPerClient {
    /// A place for one more of `ip`'s, and of `account`'s when signed in,
    /// if each holds fewer than `max` (`max` 0: no limit). The place is
    /// given back when dropped; refused, nothing is counted.
    pub fn try_open(
        self: &Arc<Self>,
        ip: IpAddr,
        account: Option<i64>,
        max: usize,
    ) -> Option<Place> {
        self.try_open_as([Some(Who::from(ip)), account.map(Who::Account), None], max)
    }

    /// A place for one more of each client in `keys` (an address, an
    /// account, a browser), if each holds fewer than `max` (0: no limit).
    pub fn try_open_as(self: &Arc<Self>, keys: [Option<Who>; 3], max: usize) -> Option<Place> {
        if max == 0 {
            return Some(Place {
                owner: None,
                keys: [None; 3],
            });
        }
        let mut open = self.lock();
        if keys
            .iter()
            .flatten()
            .any(|key| open.get(key).is_some_and(|&n| n >= max))
        {
            return None;
        }
        for key in keys.iter().flatten() {
            *open.entry(*key).or_insert(0) += 1;
        }
        Some(Place {
            owner: Some(self.clone()),
            keys,
        })
    }

    /// What `who` holds open now.
    pub fn open(&self, who: impl Into<Who>) -> usize {
        self.lock().get(&who.into()).copied().unwrap_or(0)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Who, usize>> {
        // Every update is whole under the lock: a poisoned map is valid.
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One open thing's place in [`OpenPerClient`].
pub struct Place {
    owner: Option<Arc<OpenPerClient>>,
    /// The address, the account, the browser.
    keys: [Option<Who>; 3],
}

impl Place {
    /// Counts this place against `account` too, once the account is
    /// known (a WebSocket's session is looked up after its address's
    /// place is taken, so a client at its cap costs no lookup): false,
    /// counting nothing more, when the account holds `max` already.
    pub fn add_account(&mut self, account: i64, max: usize) -> bool {
        let Some(owner) = &self.owner else {
            return true;
        };
        if self.keys[1].is_some() {
            return true;
        }
        let key = Who::Account(account);
        let mut open = owner.lock();
        let count = open.entry(key).or_insert(0);
        if *count >= max {
            if *count == 0 {
                open.remove(&key);
            }
            return false;
        }
        *count += 1;
        self.keys[1] = Some(key);
        true
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let Some(owner) = self.owner.take() else {
            return;
        };
        let mut open = owner.lock();
        for key in self.keys.iter().flatten() {
            if let Some(count) = open.get_mut(key) {
                *count -= 1;
                if *count == 0 {
                    open.remove(key);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_counted_per_address_and_ipv6_per_64() {
        let sockets = Arc::new(OpenPerClient::default());
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let same_64: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let other_64: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        let first = sockets.try_open(a, None, 2).expect("one");
        let second = sockets.try_open(same_64, None, 2).expect("two in the /64");
        assert!(sockets.try_open(a, None, 2).is_none(), "the /64 is full");
        let other = sockets.try_open(other_64, None, 2).expect("another /64");
        let v4: IpAddr = "192.0.2.1".parse().unwrap();
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        let four = sockets.try_open(v4, None, 1).expect("an IPv4 address");
        assert!(
            sockets.try_open(mapped, None, 1).is_none(),
            "the same, mapped"
        );
        drop(first);
        assert_eq!(sockets.open(a), 1);
        let again = sockets.try_open(a, None, 2).expect("a place came back");
        drop(second);
        drop(other);
        assert_eq!(sockets.open(other_64), 0);
        assert!(sockets.try_open(a, None, 0).is_some(), "0: no limit");
        drop((four, again));
        assert!(sockets.lock().is_empty(), "nothing kept");
    }

    #[test]
    fn a_signed_in_client_counts_against_its_address_and_its_account() {
        let open = Arc::new(OpenPerClient::default());
        let ips: Vec<IpAddr> = (1..=4)
            .map(|n| format!("2001:db8:{n}::1").parse().unwrap())
            .collect();
        // One account from three /64s: its third place is refused...
        let one = open.try_open(ips[0], Some(7), 2).expect("first");
        let two = open.try_open(ips[1], Some(7), 2).expect("second");
        assert!(open.try_open(ips[2], Some(7), 2).is_none());
        // ...and the refusal counted nothing against the address.
        assert_eq!(open.open(ips[2]), 0);
        assert_eq!(open.open(Who::Account(7)), 2);
        // Another account, or a guest, from that address still gets in.
        let other = open.try_open(ips[2], Some(8), 2).expect("account 8");
        let guest = open.try_open(ips[2], None, 2).expect("a guest");
        // Two accounts' places fill the address for a third account.
        assert!(open.try_open(ips[2], Some(9), 2).is_none());
        assert_eq!(open.open(Who::Account(9)), 0);
        drop(one);
        let three = open
            .try_open(ips[3], Some(7), 2)
            .expect("a place came back");
        // The account added after the address's place was taken.
        let mut late = open.try_open(ips[0], None, 2).expect("the address");
        assert!(!late.add_account(7, 2), "account 7 holds two");
        assert_eq!(open.open(Who::Account(7)), 2);
        assert!(late.add_account(8, 2), "account 8 holds one");
        assert_eq!(open.open(Who::Account(8)), 2);
        drop((two, three, other, guest, late));
        assert!(open.lock().is_empty(), "nothing kept");
    }
}
