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

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rules::crossyray::bot as crossyray_bot;
use rules::jungle::bot as jungle_bot;
use rules::quoridor::bot as quoridor_bot;
pub use rules::Level;
use tokio::sync::Semaphore;

use crate::games::{AnyGame, AnyMove};

/// Searches that may run at once in the whole server: one per core. A
/// search keeps a core busy for its whole budget, so more at once would
/// only slow every one of them down (and the rest of the server with
/// them); the others wait for a slot, their clocks running as usual.
pub fn search_slots() -> Arc<Semaphore> {
    static SLOTS: OnceLock<Arc<Semaphore>> = OnceLock::new();
    SLOTS
        .get_or_init(|| {
            let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
            Arc::new(Semaphore::new(cores))
        })
        .clone()
}

/// The move `level` plays in `game` for the side to move,
/// thinking at most `budget` (Master's time; weaker levels take a share of
/// it) or until `cancel` is set. `None` when the game is over.
pub fn choose(
    game: &AnyGame,
    level: Level,
    budget: Duration,
    cancel: &AtomicBool,
    seed: u64,
) -> Option<AnyMove> {
    match game {
        AnyGame::CrossyRay(g) => {
            crossyray_bot::choose_move(g, level, budget, cancel, seed).map(AnyMove::CrossyRay)
        }
        AnyGame::Quoridor(g) => {
            quoridor_bot::choose_move(g, level, budget, cancel, seed).map(AnyMove::Quoridor)
        }
        AnyGame::Jungle(g) => {
            jungle_bot::choose_move(g, level, budget, cancel, seed).map(AnyMove::Jungle)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameKind, GameOptions};
    use rules::Game;
    use serde_json::{json, Value};

    fn new_game(kind: GameKind) -> AnyGame {
        AnyGame::new(&GameOptions::parse(kind, &Value::Null).unwrap()).unwrap()
    }

    #[test]
    fn every_game_has_a_bot_that_answers_a_legal_move() {
        for kind in [GameKind::CrossyRay, GameKind::Quoridor, GameKind::Jungle] {
            let game = new_game(kind);
            let mv = choose(
                &game,
                Level::Beginner,
                Duration::from_millis(20),
                &AtomicBool::new(false),
                7,
            )
            .expect("a move");
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
