//! The node's queue of histories: how many are read at once, and how
//! many one client may have running or waiting. Kept apart from the
//! handlers (`history/mod.rs`) so that the shared state (`app::state`)
//! can hold it without naming anything that handles a request.

use crate::model::TokenHash;

/// Histories (`GET /api/games`) read at once on a node. A history's
/// cost grows with the caller's games (an account's come from
/// `account_games`' narrow rows, a browser's guest games from `games`
/// itself), so however many are asked for they never hold every
/// connection of the store from the rest of the site (logins, rooms,
/// moves).
const HISTORIES_AT_ONCE: usize = 2;

/// Histories one client (address, and account when signed in) has
/// running or waiting at once; past it, `429`.
const HISTORIES_PER_CLIENT: usize = 2;

/// How long a history waits for its turn before the answer is `503`.
const HISTORY_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The node's histories under way ([`HISTORIES_AT_ONCE`]) and who asked
/// for them ([`HISTORIES_PER_CLIENT`] per address, account and browser
/// token: a guest's history is its token's, which many addresses may ask
/// for): so the queue holds at most two a client, each for at most
/// [`HISTORY_WAIT`].
pub struct Histories {
    running: tokio::sync::Semaphore,
    per_client: std::sync::Arc<crate::limits::open::OpenPerClient>,
}

impl Default for Histories {
    fn default() -> Histories {
        Histories {
            running: tokio::sync::Semaphore::new(HISTORIES_AT_ONCE),
            per_client: std::sync::Arc::default(),
        }
    }
}

/// What a history holds while it runs.
pub struct HistoryTurn<'a> {
    _running: tokio::sync::SemaphorePermit<'a>,
    _place: crate::limits::open::Place,
}

/// Why a history gets no turn.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum NoTurn {
    /// Its client has [`HISTORIES_PER_CLIENT`] running or waiting.
    PerClient,
    /// It waited [`HISTORY_WAIT`] (or the server is stopping).
    Busy,
}

impl Histories {
    /// A turn for a history the client `ip` (and `account`) asks for,
    /// of the browser `token`.
    pub(super) async fn turn(
        &self,
        ip: std::net::IpAddr,
        account: Option<i64>,
        token: &TokenHash,
    ) -> Result<HistoryTurn<'_>, NoTurn> {
        use crate::limits::Who;
        let keys = [
            Some(Who::from(ip)),
            account.map(Who::Account),
            Some(Who::browser(token)),
        ];
        let place = self
            .per_client
            .try_open_as(keys, HISTORIES_PER_CLIENT)
            .ok_or(NoTurn::PerClient)?;
        match tokio::time::timeout(HISTORY_WAIT, self.running.acquire()).await {
            Ok(Ok(running)) => Ok(HistoryTurn {
                _running: running,
                _place: place,
            }),
            Ok(Err(_)) | Err(_) => Err(NoTurn::Busy),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(n: u8) -> TokenHash {
        TokenHash::of(&format!("browser-{n}"))
    }

    fn addr(last: u8) -> std::net::IpAddr {
        std::net::IpAddr::from([203, 0, 113, last])
    }

    #[tokio::test(start_paused = true)]
    async fn a_client_holds_two_histories_and_the_queue_waits_five_seconds() {
        let histories = Histories::default();
        // Two clients' histories run (the node's two at once).
        let first = histories.turn(addr(1), None, &tok(1)).await.unwrap();
        let _second = histories.turn(addr(2), Some(7), &tok(2)).await.unwrap();
        // The first client's second waits its turn, and gets it when
        // the first history ends.
        let first_token = tok(1);
        let waiting = histories.turn(addr(1), None, &first_token);
        tokio::pin!(waiting);
        assert!(futures_util::poll!(waiting.as_mut()).is_pending());
        // Its third is refused at once: two are running or waiting.
        assert_eq!(
            histories.turn(addr(1), None, &tok(1)).await.err(),
            Some(NoTurn::PerClient)
        );
        // So is a third of account 7's, from another address.
        {
            let third = tok(3);
            let w = histories.turn(addr(3), Some(7), &third);
            tokio::pin!(w);
            assert!(futures_util::poll!(w.as_mut()).is_pending());
            assert_eq!(
                histories.turn(addr(4), Some(7), &tok(4)).await.err(),
                Some(NoTurn::PerClient)
            );
        }
        drop(first);
        assert!(waiting.await.is_ok());
        // With both turns held, another client waits five seconds, then
        // is told the node is busy; its place is given back.
        let _a = histories.turn(addr(5), None, &tok(5)).await.unwrap();
        let started = tokio::time::Instant::now();
        assert_eq!(
            histories.turn(addr(6), None, &tok(6)).await.err(),
            Some(NoTurn::Busy)
        );
        assert_eq!(started.elapsed(), HISTORY_WAIT);
        assert_eq!(histories.per_client.open(addr(6)), 0);
        drop(_a);
        drop(_second);
        // One browser's history from many addresses: two at a time.
        let _one = histories.turn(addr(7), None, &tok(9)).await.unwrap();
        let _two = histories.turn(addr(8), None, &tok(9)).await.unwrap();
        assert_eq!(
            histories.turn(addr(10), None, &tok(9)).await.err(),
            Some(NoTurn::PerClient)
        );
        drop(_one);
        let again = histories.turn(addr(11), None, &tok(9)).await.unwrap();
        let browser = crate::limits::Who::browser(&tok(9));
        assert_eq!(histories.per_client.open(browser), 2);
        drop((again, _two));
        assert_eq!(histories.per_client.open(browser), 0, "given back");
    }
}
