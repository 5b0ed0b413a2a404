//! A connection's network lag, measured by the server's own WebSocket
//! pings: each ping carries the time it was sent (8 bytes, milliseconds
//! on the server's clock), and the pong that echoes the latest one gives a
//! round trip. The estimate is a smoothed round trip (a quarter of each
//! new sample, as TCP's SRTT uses an eighth: a few samples settle it); a
//! move's one-way lag is half of it, and the room credits a player's clock
//! with that, up to `--lag-comp-ms` a move (docs/PROTOCOL.md, "Clocks and
//! lag").
//!
//! Only a pong of the latest ping counts: a client cannot claim a lag by
//! sending pongs of its own, and a late pong of an older ping is dropped
//! (the next ping supersedes it). The writer and the reader share the one
//! [`Lag`], behind atomics: no lock on the socket's path.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::model::now_millis;

/// No ping is waiting for its pong.
const NONE: u64 = u64::MAX;

/// One connection's lag: the ping awaiting its pong, and the smoothed
/// round trip (0 until the first pong).
#[derive(Debug)]
pub struct Lag {
    pending: AtomicU64,
    rtt_ms: AtomicU64,
}

impl Default for Lag {
    fn default() -> Lag {
        Lag {
            pending: AtomicU64::new(NONE),
            rtt_ms: AtomicU64::new(0),
        }
    }
}

impl Lag {
    pub fn shared() -> Arc<Lag> {
        Arc::new(Lag::default())
    }

    /// The payload of a ping sent at `now` (remembered as the one whose
    /// pong counts).
    pub fn ping(&self, now: u64) -> [u8; 8] {
        self.pending.store(now, Ordering::Relaxed);
        now.to_be_bytes()
    }

    /// A pong with `payload` arrived at `now`: a sample if it echoes the
    /// latest ping, else nothing.
    pub fn pong(&self, payload: &[u8], now: u64) {
        let Ok(bytes) = <[u8; 8]>::try_from(payload) else {
            return;
        };
        let sent = u64::from_be_bytes(bytes);
        if sent == NONE
            || self
                .pending
                .compare_exchange(sent, NONE, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let sample = now.saturating_sub(sent);
        let old = self.rtt_ms.load(Ordering::Relaxed);
        let rtt = if old == 0 {
            sample.max(1)
        } else {
            (old * 3 + sample) / 4
        };
        self.rtt_ms.store(rtt.max(1), Ordering::Relaxed);
    }

    /// A pong arrived now.
    pub fn pong_now(&self, payload: &[u8]) {
        self.pong(payload, now_millis());
    }

    /// The estimated one-way lag of a message from the client: half the
    /// smoothed round trip (0 before the first pong).
    pub fn one_way_ms(&self) -> u64 {
        self.rtt_ms.load(Ordering::Relaxed) / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_pong_of_the_latest_ping_is_a_sample_and_samples_are_smoothed() {
        let lag = Lag::default();
        assert_eq!(lag.one_way_ms(), 0, "nothing measured yet");
        // A pong nobody asked for, or of the wrong size, is ignored.
        lag.pong(&5u64.to_be_bytes(), 1_000);
        lag.pong(b"hello", 1_000);
        lag.pong(&[], 1_000);
        assert_eq!(lag.one_way_ms(), 0);

        let first = lag.ping(10_000);
        lag.pong(&first, 10_200);
        assert_eq!(lag.one_way_ms(), 100, "half a 200 ms round trip");
        // The same pong again counts once.
        lag.pong(&first, 30_000);
        assert_eq!(lag.one_way_ms(), 100);

        // A ping superseded by a newer one: its late pong is dropped.
        let old = lag.ping(40_000);
        let new = lag.ping(60_000);
        lag.pong(&old, 60_010);
        assert_eq!(lag.one_way_ms(), 100);
        lag.pong(&new, 60_600);
        // (3 × 200 + 600) / 4 = 300 ms round trip.
        assert_eq!(lag.one_way_ms(), 150);
    }
}
