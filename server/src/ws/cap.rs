//! At most `--max-sockets-per-addr` open WebSockets per client address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use crate::limits::address::bucket_key;

/// Open WebSockets per client address (IPv4 address, IPv6 /64), for
/// `--max-sockets-per-addr`. An address is in the map only while it has a
/// socket open, so the map is bounded by the open sockets.
#[derive(Default)]
pub struct SocketsPerAddr {
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl SocketsPerAddr {
    /// A slot for one more socket of `client`, if it has fewer than `max`
    /// open (`max` 0: no limit). The slot is given back when dropped.
    pub fn try_open(self: &Arc<Self>, client: IpAddr, max: usize) -> Option<AddrSlot> {
        if max == 0 {
            return Some(AddrSlot { owner: None });
        }
        let key = bucket_key(client);
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(key).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(AddrSlot {
            owner: Some((self.clone(), key)),
        })
    }

    /// Sockets `client`'s address holds open now.
    pub fn open(&self, client: IpAddr) -> usize {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.get(&bucket_key(client)).copied().unwrap_or(0)
    }
}

/// One socket's place in [`SocketsPerAddr`].
pub struct AddrSlot {
    owner: Option<(Arc<SocketsPerAddr>, IpAddr)>,
}

impl Drop for AddrSlot {
    fn drop(&mut self) {
        let Some((owner, key)) = self.owner.take() else {
            return;
        };
        let mut open = owner.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&key) {
            *count -= 1;
            if *count == 0 {
                open.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_are_counted_per_address_and_ipv6_per_64() {
        let sockets = Arc::new(SocketsPerAddr::default());
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let same_64: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let other_64: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        let first = sockets.try_open(a, 2).expect("one");
        let second = sockets.try_open(same_64, 2).expect("two in the /64");
        assert!(sockets.try_open(a, 2).is_none(), "the /64 is full");
        let other = sockets.try_open(other_64, 2).expect("another /64");
        let v4: IpAddr = "192.0.2.1".parse().unwrap();
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        let four = sockets.try_open(v4, 1).expect("an IPv4 address");
        assert!(sockets.try_open(mapped, 1).is_none(), "the same, mapped");
        drop(first);
        assert_eq!(sockets.open(a), 1);
        let again = sockets.try_open(a, 2).expect("a slot came back");
        drop(second);
        drop(other);
        assert_eq!(sockets.open(other_64), 0);
        assert!(sockets.try_open(a, 0).is_some(), "0: no limit");
        drop((four, again));
        assert!(sockets.open.lock().unwrap().is_empty(), "nothing kept");
    }
}
