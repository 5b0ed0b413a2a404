//! Pure game logic for the site: CrossyRay, Quoridor and Jungle.
//!
//! No I/O, no async, no clocks of its own: the server calls into this crate
//! for every move it accepts, and the bots think here. Each game lives in
//! its own module and implements [`game::Game`]; see `docs/RULES.md` (at
//! the root of the repository) for the rules these modules implement.

pub mod cli;
pub mod clock;
pub mod coach;
pub mod crossyray;
pub mod deepening;
pub mod direction;
pub mod game;
pub mod jungle;
pub mod level;
pub mod notation;
pub mod quoridor;
pub mod rng;
pub mod serde_name;
pub mod triage;
mod undo;
mod written;

pub use game::{EndReason, Game, Outcome, Side, TimeControl};
pub use level::{Engine, Level, Think, DEFAULT_BUDGET};
