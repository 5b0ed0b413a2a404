//! A node's part in a cluster, as its rooms see it: the node's id (the
//! holder of its rooms' leases, `store/lease.rs`), how to tell whether
//! another node is alive, and how long a lease runs.

use std::sync::Arc;
use std::time::Duration;

/// How long a lease runs without renewal, and how often it is renewed: a
/// node that dies is replaced within `LEASE_TTL` plus a reconnect.
pub const LEASE_TTL: Duration = Duration::from_secs(3);
pub(super) const RENEW_EVERY: Duration = Duration::from_secs(1);

/// This node's part in a cluster: its id (the leases' holder) and how to
/// tell whether another node is alive.
#[derive(Clone)]
pub struct Owner {
    pub node: String,
    pub alive: Arc<dyn Fn(String) -> futures_util::future::BoxFuture<'static, bool> + Send + Sync>,
}
