//! The room sockets each login session signed in, so that ending a
//! session signs them out: they are closed with [`SIGNED_OUT`] (4001,
//! "Signed out"), and the browser reconnects, as a guest unless it still
//! has a live session.
//!
//! A socket is registered on the node that holds it (the one the browser
//! reached, which looked the cookie up at the upgrade) with its account
//! and session, for as long as it is open. A session ends by logout, by a
//! new login from the same browser, by `DELETE /api/sessions[/ID]`, by a
//! password change or reset, or by expiry:
//! - the node that ended it closes its own matching sockets at once and,
//!   on several nodes, publishes the end on NATS (`bg.sessions.ended`,
//!   `cluster/`), where every node closes its own;
//! - every minute (`Config::session_sweep_secs`) each node asks the store which of its sockets'
//!   sessions are no longer live (expired, or an end it missed while NATS
//!   was away) and closes their sockets;
//! - a socket checks its session again right after registering, so a
//!   session that ends between the cookie's lookup and the registration
//!   does not leave it signed in.
//!
//! The registry is one map under a mutex, scanned in full when a session
//! ends (a rare event next to moves); a socket's entry goes when its
//! [`Registration`] is dropped.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::room::Closer;
use crate::store::SignedIn;

/// The close code of a socket whose session ended.
pub const SIGNED_OUT: u16 = 4001;
/// Its reason.
pub const SIGNED_OUT_REASON: &str = "Signed out";
/// Which sessions ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// One session.
    Session(i64),
    /// Every session of `account`, but `except` (the one that asked).
    Account { account: i64, except: Option<i64> },
}

impl Ended {
    fn covers(&self, account: i64, session: i64) -> bool {
        match *self {
            Ended::Session(s) => s == session,
            Ended::Account { account: a, except } => a == account && except != Some(session),
        }
    }

    /// As text for NATS: `session ID`, `account ID` or `account ID except ID`.
    pub fn to_text(&self) -> String {
        match *self {
            Ended::Session(s) => format!("session {s}"),
            Ended::Account {
                account,
                except: None,
            } => format!("account {account}"),
            Ended::Account {
                account,
                except: Some(keep),
            } => format!("account {account} except {keep}"),
        }
    }

    /// The text of [`to_text`](Self::to_text), or `None` for anything else.
    pub fn parse(text: &str) -> Option<Ended> {
        let words: Vec<&str> = text.split_ascii_whitespace().collect();
        match words.as_slice() {
            ["session", s] => Some(Ended::Session(s.parse().ok()?)),
            ["account", a] => Some(Ended::Account {
                account: a.parse().ok()?,
                except: None,
            }),
            ["account", a, "except", k] => Some(Ended::Account {
                account: a.parse().ok()?,
                except: Some(k.parse().ok()?),
            }),
            _ => None,
        }
    }
}

struct Entry {
    account: i64,
    session: i64,
    closer: Closer,
}

/// The signed-in sockets of this node.
#[derive(Default)]
pub struct SessionSockets {
    next: AtomicU64,
    open: Mutex<HashMap<u64, Entry>>,
}

/// A socket's place in [`SessionSockets`]; dropping it takes it out.
pub struct Registration {
    sockets: Arc<SessionSockets>,
    key: u64,
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.sockets.lock().remove(&self.key);
    }
}

impl SessionSockets {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Entry>> {
        // Every update is one insert or remove: valid after a panic.
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a socket signed in by `signed_in`, closed by `closer`.
    pub fn register(self: &Arc<Self>, signed_in: &SignedIn, closer: Closer) -> Registration {
        let key = self.next.fetch_add(1, Ordering::Relaxed);
        self.lock().insert(
            key,
            Entry {
                account: signed_in.account.id,
                session: signed_in.session,
                closer,
            },
        );
        Registration {
            sockets: self.clone(),
            key,
        }
    }

    /// Closes this node's sockets of the `ended` sessions; how many.
    pub fn close(&self, ended: Ended) -> usize {
        let open = self.lock();
        let mut closed = 0;
        for entry in open.values().filter(|e| ended.covers(e.account, e.session)) {
            entry.closer.close(SIGNED_OUT, SIGNED_OUT_REASON);
            closed += 1;
        }
        closed
    }

    /// Signed-in sockets open here.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The sessions of the open sockets, each once.
    pub(super) fn sessions(&self) -> Vec<i64> {
        let mut list: Vec<i64> = self.lock().values().map(|e| e.session).collect();
        list.sort_unstable();
        list.dedup();
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Account;

    fn signed_in(account: i64, session: i64) -> SignedIn {
        SignedIn {
            account: Account {
                id: account,
                username: format!("a{account}"),
                display_name: format!("a{account}"),
                email: None,
                email_confirmed: false,
            },
            session,
        }
    }

    #[test]
    fn an_end_closes_its_sockets_only_and_a_dropped_socket_leaves() {
        let sockets = Arc::new(SessionSockets::default());
        let (a, b, c) = (Closer::new(), Closer::new(), Closer::new());
        let _ra = sockets.register(&signed_in(1, 10), a.clone());
        let _rb = sockets.register(&signed_in(1, 11), b.clone());
        let rc = sockets.register(&signed_in(2, 20), c.clone());
        assert_eq!(sockets.len(), 3);
        assert_eq!(
            sockets.close(Ended::Account {
                account: 1,
                except: Some(11)
            }),
            1
        );
        assert!(a.is_closed() && !b.is_closed() && !c.is_closed());
        assert_eq!(a.frame(), Some((SIGNED_OUT, SIGNED_OUT_REASON.into())));
        drop(rc);
        assert_eq!(sockets.close(Ended::Session(20)), 0, "gone with its socket");
        assert_eq!(sockets.close(Ended::Session(11)), 1);
        assert!(b.is_closed() && !c.is_closed());
    }

    #[test]
    fn ends_travel_as_text_and_nothing_else_parses() {
        for ended in [
            Ended::Session(7),
            Ended::Account {
                account: 3,
                except: None,
            },
            Ended::Account {
                account: 3,
                except: Some(9),
            },
        ] {
            assert_eq!(Ended::parse(&ended.to_text()), Some(ended));
        }
        for bad in [
            "",
            "session",
            "session x",
            "account 1 except",
            "all",
            "session 1 2",
        ] {
            assert_eq!(Ended::parse(bad), None, "{bad}");
        }
    }
}
