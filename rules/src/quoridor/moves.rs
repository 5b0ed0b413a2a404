//! A turn and its notation: a target cell (`e2`), a wall (`e3h`) or
//! `pass`.
//!
//! A pawn move is identified by where it lands, so two jumps that land on
//! the same cell are one move (RULES.md §2). Moves travel over the wire as
//! their notation string.
//!
//! ```
//! use rules::quoridor::Move;
//!
//! for text in ["e2", "e3h", "a1v", "m13", "pass"] {
//!     let mv: Move = text.parse().unwrap();
//!     assert_eq!(mv.to_string(), text);
//! }
//! assert!("e2v3".parse::<Move>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use super::cell::Cell;
use super::wall::Wall;
use crate::game::NotationError;

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Move the pawn (step or jump) to this cell.
    Pawn(Cell),
    /// Place this wall.
    Wall(Wall),
    /// Do nothing this turn (not allowed to a blocking pawn).
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pawn(c) => write!(f, "{c}"),
            Move::Wall(w) => write!(f, "{w}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

crate::debug_as_notation!(Move);

impl FromStr for Move {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Move, NotationError> {
        if text == "pass" {
            return Ok(Move::Pass);
        }
        match text.as_bytes().last() {
            Some(b'h' | b'v') => text.parse().map(Move::Wall),
            Some(b'0'..=b'9') => text.parse().map(Move::Pawn),
            _ => Err(NotationError::new(
                text,
                "expected a cell like e2, a wall like e3h or e3v, or pass",
            )),
        }
    }
}

crate::serde_as_notation!(Move);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_words_explain_the_notation() {
        let err = "resign".parse::<Move>().unwrap_err();
        assert!(err.reason.contains("e3h"), "{err}");
        assert!("".parse::<Move>().is_err());
        assert!("PASS".parse::<Move>().is_err());
    }
}
