//! Quoridor ("Rào chắn"), 2 to 8 pawns on 9×9, 11×11 or 13×13 boards,
//! racing to the opposite edge or to the centre (RULES.md §2).
//!
//! ```
//! use rules::game::{Game, Side};
//! use rules::quoridor::{Move, Options, Quoridor};
//!
//! let mut game = Quoridor::new(&Options::default()).unwrap();
//! assert_eq!(game.pawn(Side(0)).unwrap().to_string(), "e1");
//! game.play(&"e2".parse().unwrap()).unwrap();
//! game.play(&"e3h".parse().unwrap()).unwrap();
//! // The wall now stands between e3 and e4: Red goes round.
//! assert_eq!(game.to_move(), Some(Side(0)));
//! assert_eq!(game.walls_left(Side(1)), 9);
//! assert!(game.play(&"f3h".parse().unwrap()).is_err()); // overlaps e3h
//! // Notation round-trips.
//! let mv: Move = "e3v".parse().unwrap();
//! assert_eq!(mv.to_string(), "e3v");
//! ```
//!
//! # Files
//! - `bitboard.rs`: the 256-bit set every board size shares.
//! - `cell.rs`, `wall.rs`, `moves.rs`: the notation types.
//! - `board.rs`: walls and movement (steps, jumps, paths, distances).
//! - `options.rs`: host options, starts, goals, wall stock, move limit.
//! - `position.rs`: the game state, its rules and [`Game`](crate::game::Game).
//! - `scoring.rs`: points for the scoreboard.
//! - `view.rs`: the serialized form.
//! - `perft.rs`: the move-tree counter and `perft quoridor`.
//! - `bot/`: the computer player.
//!
//! # Sides and seats
//! Side `i` is the `i`-th pawn in turn order; side 0 moves first (the
//! server picks at random who plays it). With two sides, side 0 is Red
//! (bottom, or bottom-left corner in a centre race) and side 1 Yellow. A
//! team, or a knockout match, is an ordinary two-sided game.
//!
//! # Serialized view
//! [`Quoridor`] serializes (and deserializes, checked) as a [`View`]:
//!
//! | field | meaning |
//! |---|---|
//! | `size` | 9, 11 or 13 |
//! | `goal` | `"edge"` or `"centre"` |
//! | `options` | the [`Options`] (`size`, `players`, `walls`, `goal`, `turn_seconds`) |
//! | `pawns` | per side: the cell (`"e1"`), or `null` once its player left |
//! | `goals` | per side: `"top"`, `"bottom"`, `"left"`, `"right"` or `"centre"` |
//! | `walls` | walls on the board (`"e3h"`, `"c5v"`) |
//! | `walls_left` | per side |
//! | `moves_made` | per side, passes and timeouts included |
//! | `move_limit` | moves per pawn before a draw (60, 75, 90) |
//! | `to_move` | side number, `null` once over |
//! | `ply` | moves played in all |
//! | `outcome` | `null`, or [`Outcome`](crate::game::Outcome) (`{"kind": "win", "winner": 0, "reason": "goal"}`) |
//! | `last_move` | notation (`"e2"`, `"e3h"`, `"pass"`), or `null` |
//!
//! A move travels as its notation string: `"e2"`, `"e3h"`, `"pass"`.

mod bitboard;
mod board;
pub mod bot;
mod cell;
mod moves;
mod options;
mod perft;
mod position;
mod race;
mod scoring;
mod view;
mod wall;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod undo_tests;

pub use cell::{Cell, Direction};
pub use moves::Move;
pub use options::{GoalMode, Options, Target, WallStock, MAX_PAWNS, SIZES, WALL_CHOICES};
pub use perft::{perft, perft_cli};
pub use position::{PlayError, Quoridor};
pub use race::race_chances;
pub use scoring::{mirror_points, scores, DEFAULT_WIN_POINTS};
pub use view::View;
pub use wall::{Orientation, Wall};
