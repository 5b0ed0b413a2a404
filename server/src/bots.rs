//! Computer players: one [`Bot`] per game that has one, chosen by the
//! game's name, answering with a move in notation.
//!
//! A bot runs on a blocking thread (`tokio::task::spawn_blocking`, started
//! by the room's task, `room/task.rs`), never on the room's task: a search
//! takes up to its whole budget, and the room must keep answering chat,
//! clocks and resignations meanwhile. The search polls a cancel flag, so a
//! game that ends (or a room that closes) stops it early.
//!
//! Adding a bot for another game is one `impl Bot` and one line in
//! [`bot_for`].

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rules::jungle::bot as jungle_bot;
pub use rules::Level;
use tokio::sync::Semaphore;

use crate::games::{AnyGame, GameKind};

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

/// A game's computer player.
pub trait Bot: Send + Sync {
    /// The move `level` plays in `game` for the side to move, in notation,
    /// thinking at most `budget` (Master's time; weaker levels take a
    /// share of it) or until `cancel` is set. `None` when the game is over
    /// or is not this bot's game.
    fn choose(
        &self,
        game: &AnyGame,
        level: Level,
        budget: Duration,
        cancel: &AtomicBool,
        seed: u64,
    ) -> Option<String>;
}

/// The bot for `game`, if it has one.
pub fn bot_for(game: GameKind) -> Option<&'static dyn Bot> {
    match game {
        GameKind::Jungle => Some(&JungleBot),
        GameKind::CrossyRay | GameKind::Quoridor => None,
    }
}

/// The Jungle search of `rules::jungle::bot`.
struct JungleBot;

impl Bot for JungleBot {
    fn choose(
        &self,
        game: &AnyGame,
        level: Level,
        budget: Duration,
        cancel: &AtomicBool,
        seed: u64,
    ) -> Option<String> {
        let AnyGame::Jungle(jungle) = game else {
            return None;
        };
        jungle_bot::choose_move(jungle, level, budget, cancel, seed).map(|mv| mv.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameOptions;
    use serde_json::{json, Value};

    fn new_game(kind: GameKind) -> AnyGame {
        AnyGame::new(&GameOptions::parse(kind, &Value::Null).unwrap()).unwrap()
    }

    #[test]
    fn the_jungle_bot_answers_a_legal_move_in_notation() {
        let game = new_game(GameKind::Jungle);
        let bot = bot_for(GameKind::Jungle).expect("Jungle has a bot");
        let mv = bot
            .choose(
                &game,
                Level::Beginner,
                Duration::from_millis(20),
                &AtomicBool::new(false),
                7,
            )
            .expect("a move");
        assert!(game.legal().contains(&mv), "{mv} is legal");
    }

    #[test]
    fn a_bot_given_another_game_declines() {
        let crossy = new_game(GameKind::CrossyRay);
        let bot = bot_for(GameKind::Jungle).unwrap();
        let none = bot.choose(
            &crossy,
            Level::Master,
            Duration::from_millis(5),
            &AtomicBool::new(false),
            1,
        );
        assert_eq!(none, None);
        assert!(bot_for(GameKind::CrossyRay).is_none());
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
