//! CrossyRay (RULES.md §1): two players send a ray from the current number
//! and place the next number of the cycle 1 → … → 19 → 1 where it lands,
//! until one of them sends the ray into a goal or locks the other in.
//!
//! ```
//! use rules::crossyray::{CrossyRay, Edge, Move, Options};
//! use rules::game::{EndReason, Game, Outcome, Side};
//!
//! let mut game = CrossyRay::new(&Options::default()).unwrap(); // 9 wide × 7 tall
//! assert_eq!(game.origin().to_string(), "e4"); // the 1 on the centre
//! assert_eq!(game.defends(Side(0)), Edge::Left);
//!
//! // The 1 reaches one cell each way.
//! let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["e5", "e3", "d4", "f4"]);
//!
//! for text in ["f4", "h4", "i4"] {
//!     game.play(&text.parse().unwrap()).unwrap();
//! }
//! // The 4 on the right edge, in a goal row: side 1 defends the right goal,
//! // so for side 1, to move now, it is an own goal.
//! assert!(game.legal_moves().contains(&Move::Goal(Edge::Right)));
//! game.play(&"goal:right".parse().unwrap()).unwrap();
//! assert_eq!(
//!     game.outcome(),
//!     Some(&Outcome::Win { winner: Side(0), reason: EndReason::OwnGoal })
//! );
//! ```

mod board;
pub mod bot;
mod cell;
mod direction;
mod error;
mod moves;
mod number;
mod options;
mod perft;
mod position;

#[cfg(test)]
mod tests;

pub use board::Board;
pub use cell::Cell;
pub use direction::{Direction, Edge};
pub use error::PlayError;
pub use moves::Move;
pub use number::Number;
pub use options::{ClockSetting, Options, SIZE_LIMITS};
pub use perft::{perft, perft_cli};
pub use position::CrossyRay;
