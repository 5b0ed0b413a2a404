//! How strongly a computer player plays, one vocabulary for every game's
//! bot and for the server (PRODUCT.md: Beginner, Amateur, Professional,
//! Master). Each game's search says what a level means for it (the
//! Jungle search: [`crate::jungle::bot::Settings`]).
//!
//! ```
//! use rules::Level;
//! assert_eq!("master".parse::<Level>(), Ok(Level::Master));
//! assert_eq!(Level::Amateur.display_name(), "Computer (Amateur)");
//! ```

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::game::Game;

/// Master's default time per move, in every game; the weaker levels take
/// a share of it (each game's `Settings`).
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(2);

/// Serialized in snake_case: `"beginner"`, `"amateur"`, `"professional"`,
/// `"master"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Beginner,
    Amateur,
    Professional,
    Master,
}

impl Level {
    /// Weakest first.
    pub const ALL: [Level; 4] = [
        Level::Beginner,
        Level::Amateur,
        Level::Professional,
        Level::Master,
    ];

    /// The level's name on the wire and in logs.
    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Amateur => "amateur",
            Level::Professional => "professional",
            Level::Master => "master",
        }
    }

    /// How the computer appears in seats, move lists and scores.
    pub fn display_name(self) -> String {
        let level = match self {
            Level::Beginner => "Beginner",
            Level::Amateur => "Amateur",
            Level::Professional => "Professional",
            Level::Master => "Master",
        };
        format!("Computer ({level})")
    }
}

/// What a computer player is asked, the same for every game's bot: play
/// at `level`, thinking at most its share of `budget` (Master's time per
/// move) or until `cancel` is set; `seed` drives the weaker levels'
/// mistakes, so the same seed, position and budget give the same move
/// unless the clock cuts a search short at a different point.
#[derive(Clone, Copy, Debug)]
pub struct Think<'a> {
    pub level: Level,
    pub budget: Duration,
    pub cancel: &'a AtomicBool,
    pub seed: u64,
}

/// A game's computer player: every game's bot answers the same question
/// the same way.
pub trait Engine: Game {
    /// What a search reports beside its move (its depth, nodes, score).
    type Found;

    /// The move for the side to move as `think` asks, with what the
    /// search found (`None` for it when the move needed no search: a win
    /// at once, the only safe move, or a weaker level's random mistake).
    /// `None` only once the game is over.
    fn analyse(&self, think: &Think) -> Option<(Self::Move, Option<Self::Found>)>;

    /// The move alone.
    fn choose_move(&self, think: &Think) -> Option<Self::Move> {
        self.analyse(think).map(|(mv, _)| mv)
    }
}

impl Think<'static> {
    /// A search nothing cancels (tests, tools, the analysis of one
    /// position).
    pub fn uncancelled(level: Level, budget: Duration, seed: u64) -> Think<'static> {
        static NEVER: AtomicBool = AtomicBool::new(false);
        Think {
            level,
            budget,
            cancel: &NEVER,
            seed,
        }
    }
}

crate::display_and_parse_by_name!(Level, name, |s| format!(
    "unknown level {s:?} (beginner, amateur, professional, master)"
));
