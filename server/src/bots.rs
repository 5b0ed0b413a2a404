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

use std::sync::{Arc, OnceLock};

pub use rules::{Engine, Level, Think};
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
