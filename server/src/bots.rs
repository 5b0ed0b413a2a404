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

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
use std::time::Duration;

pub use rules::{Engine, Level, Think};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::games::{AnyGame, AnyMove};

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
