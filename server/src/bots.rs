//! Computer players: every game's bot, chosen by the game, answering with
//! a typed move (played as it is, never printed and read again).
//!
//! A bot runs on a blocking thread (`tokio::task::spawn_blocking`, started
//! by the room's task, `room/think.rs`), never on the room's task: a search
//! takes up to its whole budget, and the room must keep answering chat,
//! clocks and resignations meanwhile. The search polls a cancel flag, so a
//! game that ends (or a room that closes) stops it early.
//!
//! Every game has one: a new game gets its computer player with one arm
//! in [`choose`] (the compiler asks for it).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
use std::time::Duration;

pub use rules::{Engine, Level, Think};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::games::{AnyGame, AnyMove};
use crate::limits::Who;

/// The server's search slots: one per core, shared by the live computer
/// players (and hints) and the analyses of finished games, live play
/// first. A search keeps a core busy for its whole budget, so more at once
/// would only slow every one of them down (and the rest of the server
/// with them); the others wait for a slot, their clocks running as usual.
///
/// Live first: a live search that finds no free slot stops every running
/// analysis search (their cancel flags; that position is judged again
/// later), and an analysis takes a slot only while no live search waits
/// for one, giving it back if one began waiting meanwhile.
///
/// People first among live searches: a game between computers only (a
/// knockout's matches between the computers its host seated, say) takes
/// a slot only after one of the slots kept for such games, half of them
/// (at least one). However many such games anyone starts, at least half
/// the cores stay for games that a person plays (one in two on two
/// cores); the computers' games wait their turn, their clocks running.
pub struct Slots {
    slots: Arc<Semaphore>,
    /// Searches of games between computers only may run this many at once.
    among_computers: Arc<Semaphore>,
    /// Live searches waiting for a slot now.
    live_waiting: AtomicUsize,
    /// The cancel flags of the analysis searches holding a slot.
    background: Mutex<Vec<Weak<AtomicBool>>>,
}

/// A live search's hold on the slots, given back when dropped: a core's
/// slot, and for a game between computers only one of the slots kept for
/// such games.
pub struct Held {
    _kept: Option<OwnedSemaphorePermit>,
    _slot: OwnedSemaphorePermit,
}

/// Live searches per client: a search is the client's whose game or hint
/// it is (the address and account of the game's first person, or of the
/// member who asked for the hint; a game between computers only is
/// nobody's, bounded by [`Slots::among_computers`] instead), and a client runs at most `per_client`
/// at once, in all its rooms: the rest wait here, before they queue for
/// a slot, so one client's many rooms against the computer hold at most
/// its share of the cores and everyone else's games still find one. A
/// signed-in client passes its address's gate and its account's.
pub struct Gates {
    per_client: usize,
    gates: Mutex<HashMap<Who, Arc<Semaphore>>>,
}

/// Who a search is for: the client its gates count it against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchClient {
    pub addr: Option<IpAddr>,
    pub account: Option<i64>,
}

/// A search's place in its client's gates, given back when dropped.
pub struct Gate {
    gates: &'static Gates,
    held: Vec<(Who, OwnedSemaphorePermit)>,
}

/// The whole server's gates: half the cores per client (at least one).
pub fn gates() -> &'static Gates {
    static GATES: OnceLock<Gates> = OnceLock::new();
    GATES.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Gates::new((cores / 2).max(1))
    })
}

impl Gates {
    pub fn new(per_client: usize) -> Gates {
        Gates {
            per_client: per_client.max(1),
            gates: Mutex::new(HashMap::new()),
        }
    }

    /// Waits until `client` runs fewer than its share of searches (its
    /// address's gate, then its account's: always in that order, so two
    /// searches never wait on each other); `None` if the gates closed.
    pub async fn enter(&'static self, client: SearchClient) -> Option<Gate> {
        let mut gate = Gate {
            gates: self,
            held: Vec::new(),
        };
        let keys = [client.addr.map(Who::from), client.account.map(Who::Account)];
        for key in keys.into_iter().flatten() {
            let semaphore = self
                .lock()
                .entry(key)
                .or_insert_with(|| Arc::new(Semaphore::new(self.per_client)))
                .clone();
            let permit = semaphore.acquire_owned().await.ok()?;
            gate.held.push((key, permit));
        }
        Some(gate)
    }

    /// Clients with a search running or waiting now.
    pub fn clients(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Who, Arc<Semaphore>>> {
        self.gates.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Gate {
    fn drop(&mut self) {
        for (key, permit) in self.held.drain(..) {
            drop(permit);
            // Forget a gate nobody holds or waits for (only the map's
            // handle is left): the map is bounded by the searches.
            let mut gates = self.gates.lock();
            if gates.get(&key).is_some_and(|s| Arc::strong_count(s) == 1) {
                gates.remove(&key);
            }
        }
    }
}

/// How often a waiting analysis looks again whether live play waits.
const BACKGROUND_POLL: Duration = Duration::from_millis(20);

/// The whole server's slots.
pub fn slots() -> &'static Slots {
    static SLOTS: OnceLock<Slots> = OnceLock::new();
    SLOTS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Slots::new(cores)
    })
}

impl Slots {
    pub fn new(cores: usize) -> Slots {
        Slots {
            slots: Arc::new(Semaphore::new(cores.max(1))),
            among_computers: Arc::new(Semaphore::new((cores / 2).max(1))),
            live_waiting: AtomicUsize::new(0),
            background: Mutex::new(Vec::new()),
        }
    }

    /// A slot for a live search (a computer's move, a hint), stopping the
    /// analyses' searches when none is free.
    pub async fn live(&self) -> Option<OwnedSemaphorePermit> {
        if let Ok(slot) = self.slots.clone().try_acquire_owned() {
            return Some(slot);
        }
        self.live_waiting.fetch_add(1, Ordering::SeqCst);
        struct Waiting<'a>(&'a AtomicUsize);
        impl Drop for Waiting<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::SeqCst);
            }
        }
        let _waiting = Waiting(&self.live_waiting);
        for flag in self.lock().drain(..) {
            if let Some(flag) = flag.upgrade() {
                flag.store(true, Ordering::Relaxed);
            }
        }
        self.slots.clone().acquire_owned().await.ok()
    }

    /// A slot for a live search in a game between computers only: one of
    /// the slots kept for such games first, then a slot as [`Slots::live`]
    /// takes it; both are held for the search.
    pub async fn among_computers(&self) -> Option<Held> {
        let kept = self.among_computers.clone().acquire_owned().await.ok()?;
        let slot = self.live().await?;
        Some(Held {
            _kept: Some(kept),
            _slot: slot,
        })
    }

    /// A slot for a live search: [`Slots::among_computers`] when every
    /// side of the game is a computer, [`Slots::live`] otherwise.
    pub async fn for_game(&self, among_computers: bool) -> Option<Held> {
        if among_computers {
            return self.among_computers().await;
        }
        let slot = self.live().await?;
        Some(Held {
            _kept: None,
            _slot: slot,
        })
    }

    /// A slot for an analysis search whose cancel flag is `cancel`, once
    /// no live search waits.
    pub async fn background(&self, cancel: &Arc<AtomicBool>) -> Option<OwnedSemaphorePermit> {
        loop {
            while self.live_waiting.load(Ordering::SeqCst) > 0 {
                tokio::time::sleep(BACKGROUND_POLL).await;
            }
            let slot = self.slots.clone().acquire_owned().await.ok()?;
            if self.live_waiting.load(Ordering::SeqCst) == 0 {
                let mut running = self.lock();
                running.retain(|f| f.strong_count() > 0);
                running.push(Arc::downgrade(cancel));
                return Some(slot);
            }
            drop(slot);
        }
    }

    /// Live searches waiting for a slot now.
    pub fn live_waiting(&self) -> usize {
        self.live_waiting.load(Ordering::SeqCst)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Weak<AtomicBool>>> {
        self.background
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// The move the computer plays in `game` for the side to move, as `think`
/// asks (`think.budget` is Master's time; weaker levels take a share of
/// it). `None` when the game is over.
pub fn choose(game: &AnyGame, think: &Think) -> Option<AnyMove> {
    match game {
        AnyGame::CrossyRay(g) => g.choose_move(think).map(AnyMove::CrossyRay),
        AnyGame::Quoridor(g) => g.choose_move(think).map(AnyMove::Quoridor),
        AnyGame::Jungle(g) => g.choose_move(think).map(AnyMove::Jungle),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameKind, GameOptions};
    use rules::Game;
    use serde_json::{json, Value};
    use std::time::Duration;

    fn new_game(kind: GameKind) -> AnyGame {
        AnyGame::new(&GameOptions::parse(kind, &Value::Null).unwrap()).unwrap()
    }

    #[test]
    fn every_game_has_a_bot_that_answers_a_legal_move() {
        for kind in [GameKind::CrossyRay, GameKind::Quoridor, GameKind::Jungle] {
            let game = new_game(kind);
            let think = Think::uncancelled(Level::Beginner, Duration::from_millis(20), 7);
            let mv = choose(&game, &think).expect("a move");
            assert!(game.legal_moves().contains(&mv), "{kind:?}: {mv} is legal");
        }
    }

    #[test]
    fn levels_read_and_write_in_snake_case() {
        let level: Level = serde_json::from_value(json!("professional")).unwrap();
        assert_eq!(level, Level::Professional);
        assert_eq!(
            serde_json::to_value(Level::Master).unwrap(),
            json!("master")
        );
        assert!(serde_json::from_value::<Level>(json!("grandmaster")).is_err());
        assert_eq!(Level::Amateur.display_name(), "Computer (Amateur)");
    }
}

#[cfg(test)]
mod slot_tests {
    use super::*;

    #[tokio::test]
    async fn a_client_runs_its_share_of_searches_and_others_pass_it() {
        let gates: &'static Gates = Box::leak(Box::new(Gates::new(1)));
        let soon = Duration::from_millis(50);
        let addr = |s: &str| Some(s.parse::<IpAddr>().unwrap());
        let mine = SearchClient {
            addr: addr("203.0.113.1"),
            account: Some(7),
        };
        let first = gates.enter(mine).await.expect("a gate");
        // The same client's second search waits...
        assert!(tokio::time::timeout(soon, gates.enter(mine)).await.is_err());
        // ...so does its account's from another address (IPv6 by /64 too)...
        let elsewhere = SearchClient {
            addr: addr("2001:db8::1"),
            account: Some(7),
        };
        assert!(tokio::time::timeout(soon, gates.enter(elsewhere))
            .await
            .is_err());
        // ...and a guest at that /64 got in and holds it meanwhile.
        let guest = gates
            .enter(SearchClient {
                addr: addr("2001:db8::2"),
                account: None,
            })
            .await
            .expect("another client passes");
        let neighbour = SearchClient {
            addr: addr("2001:db8::ffff"),
            account: None,
        };
        assert!(tokio::time::timeout(soon, gates.enter(neighbour))
            .await
            .is_err());
        // Another client passes at once, and so does a search for nobody.
        let other = SearchClient {
            addr: addr("203.0.113.2"),
            account: Some(8),
        };
        let second = tokio::time::timeout(soon, gates.enter(other))
            .await
            .unwrap();
        assert!(second.is_some());
        let nobody = tokio::time::timeout(soon, gates.enter(SearchClient::default())).await;
        assert!(nobody.unwrap().is_some());
        // The first one done: the client's next search runs.
        drop(first);
        let next = tokio::time::timeout(soon, gates.enter(mine)).await;
        let next = next.unwrap();
        assert!(next.is_some());
        drop((next, guest, second));
        assert_eq!(gates.clients(), 0, "no gate kept for nobody");
    }

    #[tokio::test]
    async fn games_between_computers_take_half_the_slots_and_leave_the_rest_to_people() {
        let slots = Slots::new(4);
        let soon = Duration::from_millis(50);
        let a = slots.among_computers().await.expect("a slot");
        let b = slots.among_computers().await.expect("a slot");
        // Two of four slots run computers' games: a third waits...
        let third = tokio::time::timeout(soon, slots.among_computers()).await;
        assert!(third.is_err(), "a third game between computers waits");
        // ...while a game with a person gets each of the two left at once.
        let p1 = tokio::time::timeout(soon, slots.live()).await.unwrap();
        let p2 = tokio::time::timeout(soon, slots.live()).await.unwrap();
        assert!(p1.is_some() && p2.is_some());
        drop((p1, p2));
        // One computers' search done: the next one runs.
        drop(a);
        let next = tokio::time::timeout(soon, slots.among_computers()).await;
        assert!(next.unwrap().is_some());
        drop(b);
        // On two cores (or one), one such search at a time.
        let two = Slots::new(2);
        let _c = two.among_computers().await.expect("a slot");
        assert!(tokio::time::timeout(soon, two.among_computers())
            .await
            .is_err());
        assert!(tokio::time::timeout(soon, two.live())
            .await
            .unwrap()
            .is_some());
        let one = Slots::new(1);
        assert!(one.among_computers().await.is_some());
    }

    #[tokio::test]
    async fn a_live_search_stops_the_analyses_and_they_wait_for_it() {
        let slots = Arc::new(Slots::new(1));
        let cancel = Arc::new(AtomicBool::new(false));
        let background = slots.background(&cancel).await.expect("a free slot");
        let live = tokio::spawn({
            let slots = slots.clone();
            async move { slots.live().await.is_some() }
        });
        // The live search asks: the analysis is told to stop.
        tokio::time::timeout(Duration::from_secs(5), async {
            while !cancel.load(Ordering::Relaxed) {
                tokio::task::yield_now().await;
            }
        })
        .await
        .expect("cancelled");
        assert_eq!(slots.live_waiting(), 1);
        // A second analysis does not take the slot it gives back.
        let other = Arc::new(AtomicBool::new(false));
        let waiting = tokio::spawn({
            let slots = slots.clone();
            async move { slots.background(&other).await.is_some() }
        });
        drop(background);
        assert!(live.await.unwrap(), "the live search got the slot");
        assert!(waiting.await.unwrap(), "then the analysis");
    }
}
