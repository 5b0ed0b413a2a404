//! Jungle chess (RULES.md §3): a 7×9 board with two rivers, three traps
//! and a den per side; Blue (side 0) moves first, Red is side 1.
//!
//! The files read like the rules: [`square`](Square) and
//! [`bitboard`](Bitboard) (the board and its regions), [`role`](Role)
//! (colours, animals, rank captures), [`Board`] (placement),
//! [`Position`] (moves and captures on one board), [`History`] (shuttle
//! limit, repetition, 100 moves without capture), [`Jungle`] (the whole
//! game, implementing [`Game`](crate::game::Game)), [`Move`] (notation
//! `8 a3-a4`, `7 a4xd4`), [`Record`] (numbered move list), [`Setup`] (the
//! position string), [`perft`], the Zobrist keys, and the [`bot`].
//!
//! ```
//! use rules::game::{Game, Side, EndReason};
//! use rules::jungle::{Jungle, Move, Options};
//!
//! let mut game = Jungle::new(&Options::default()).unwrap();
//! assert_eq!(game.legal_moves().len(), 24);
//! let mv: Move = "8 a3-a4".parse().unwrap();
//! game.play(&mv).unwrap();
//! assert_eq!(game.to_move(), Some(Side(1)));
//! // Only the rat may enter the water.
//! assert!(game.play(&"4 e7-e6".parse().unwrap()).is_err());
//! assert_eq!(game.record().to_string(), "1. 8 a3-a4");
//! assert_eq!(game.position_string(), "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L r 1 1");
//!
//! // A game from a position string: Blue's rat steps into Red's den.
//! let mut game = Jungle::from_position("2d4/3R3/7/7/7/7/7/7/l6 b 0 1").unwrap();
//! game.play(&"1 d8-d9".parse().unwrap()).unwrap();
//! assert_eq!(game.outcome().unwrap().reason(), EndReason::Den);
//! assert_eq!(game.outcome().unwrap().winner(), Some(Side(0)));
//! ```
//!
//! # Options
//!
//! [`Options`] serializes as `{"clock": [3, 2], "start": "<position string>"}`;
//! `clock` is `null` or one of 3+2, 5+3, 10+5, 15+10 (minutes, increment
//! seconds), anything else is refused by `Jungle::new`; `start` is `null`
//! for the usual start. Both may be omitted.
//!
//! # The serialized view
//!
//! A [`Jungle`] serializes to an object the browser draws from. These field
//! names are stable:
//!
//! | field | content |
//! |---|---|
//! | `pieces` | list of `{"side": 0 or 1, "rank": 1-8, "square": "a3"}` |
//! | `to_move` | `0`, `1`, or `null` once over |
//! | `ply` | moves played in this game |
//! | `outcome` | `null` or a [`Outcome`](crate::game::Outcome) (`{"kind": "win", "winner": 0, "reason": "den"}`) |
//! | `last_move` | notation of the last move, or `null` |
//! | `position` | the current [position string](Setup) |
//! | `start` | the position string the game started from |
//! | `moves` | every move played, in notation |
//! | `legal_moves` | the legal moves now, in notation (empty once over) |
//! | `shuttle_ban` | the move the shuttle limit forbids now, or `null` |
//! | `no_capture` | moves in a row without a capture (draw at 100) |
//! | `options` | the [`Options`] |
//!
//! Deserializing reads `options`, `moves` and `outcome` and replays the
//! moves (checking each); the other fields are derived.

mod bitboard;
mod board;
pub mod bot;
mod error;
mod game;
mod history;
mod moves;
mod perft;
mod position;
mod record;
mod role;
mod setup;
mod square;
mod zobrist;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod undo_tests;

pub use bitboard::Bitboard;
pub use board::Board;
pub use error::PlayError;
pub use game::{ChangeView, Jungle, Options, PieceView, View};
pub use history::{Entry, History, NO_CAPTURE_LIMIT, REPETITION_LIMIT};
pub use moves::Move;
pub use perft::perft;
pub use position::{can_capture, MoveList, Position, MAX_MOVES};
pub use record::{ParseRecordError, Record};
pub use role::{Color, Piece, Role};
pub use setup::{ParseSetupError, Setup, MAX_MOVE_NUMBER};
pub use square::{ParseSquareError, Square};

use crate::cli::Flags;

/// Entry point of `perft jungle <depth> [--position STRING]`.
pub fn perft_cli(depth: u32, flags: &Flags) -> Result<u64, String> {
    flags.only(&["position"])?;
    let game = match flags.get("position") {
        None => Jungle::start(),
        Some(text) => Jungle::from_position(text).map_err(|e| e.0)?,
    };
    Ok(perft(&game, depth))
}
