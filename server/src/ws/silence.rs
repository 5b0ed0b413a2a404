//! Keepalive: a ping every `--ping-secs`, and a peer that sends nothing
//! for twice that is gone.

use std::pin::Pin;
use std::time::Duration;

use tokio::time::{Instant, Sleep};

/// Watches a WebSocket for silence: [`Silence::expired`] resolves once
/// nothing has been heard for `limit` (twice the ping interval: a live
/// peer answers every ping with a pong). Hearing a frame only stores the
/// time; the timer is re-armed when it fires, not for every frame.
pub(crate) struct Silence {
    limit: Option<Duration>,
    last: Instant,
    timer: Pin<Box<Sleep>>,
}

impl Silence {
    /// With pings every `ping` (none: never expires).
    pub(crate) fn new(ping: Option<Duration>) -> Silence {
        let limit = ping.map(|p| p * 2);
        let last = Instant::now();
        let first = limit.unwrap_or(Duration::from_secs(86_400));
        Silence {
            limit,
            last,
            timer: Box::pin(tokio::time::sleep_until(last + first)),
        }
    }

    /// The peer sent a frame (any frame, a pong included).
    pub(crate) fn heard(&mut self) {
        self.last = Instant::now();
    }

    /// Resolves when the peer has been silent for the limit.
    pub(crate) async fn expired(&mut self) {
        let Some(limit) = self.limit else {
            return std::future::pending().await;
        };
        loop {
            self.timer.as_mut().await;
            let due = self.last + limit;
            if due <= Instant::now() {
                return;
            }
            self.timer.as_mut().reset(due);
        }
    }

    /// The reason a silent socket is closed with.
    pub(crate) fn reason(&self) -> String {
        let secs = self.limit.unwrap_or_default().as_secs();
        format!("No answer to pings for {secs} s.")
    }
}

/// A ping every `ping`, the first one soon (at most [`FIRST_PING`] from
/// now, so the connection's lag is known before its first move; none:
/// never).
pub(crate) fn ping_timer(ping: Option<Duration>) -> Option<tokio::time::Interval> {
    ping.map(|p| {
        let mut every = tokio::time::interval_at(Instant::now() + p.min(FIRST_PING), p);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        every
    })
}

/// The first ping of a connection goes out this soon.
pub(crate) const FIRST_PING: Duration = Duration::from_secs(2);

/// The next tick of a [`ping_timer`].
pub(crate) async fn next_ping(timer: &mut Option<tokio::time::Interval>) {
    match timer {
        Some(every) => {
            every.tick().await;
        }
        None => std::future::pending().await,
    }
}
