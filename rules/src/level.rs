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

use std::time::Duration;

use serde::{Deserialize, Serialize};

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

crate::display_and_parse_by_name!(Level, name, |s| format!(
    "unknown level {s:?} (beginner, amateur, professional, master)"
));
