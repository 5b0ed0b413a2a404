//! A whole game as a numbered move list, the form used for export:
//! `1. 8 a3-a4 1 a7-a6 2. 7 g1-g2`. A list starting with a Red move
//! begins `1... 1 a7-a6`.
//!
//! ```
//! use rules::jungle::Record;
//!
//! let record: Record = "1. 8 a3-a4 1 a7-a6 2. 7 g1-g2".parse().unwrap();
//! assert_eq!(record.moves.len(), 3);
//! assert_eq!(record.to_string(), "1. 8 a3-a4 1 a7-a6 2. 7 g1-g2");
//! // Numbers must follow on.
//! assert!("1. 8 a3-a4 1 a7-a6 3. 7 g1-g2".parse::<Record>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use super::moves::Move;
use super::role::Color;

/// The moves of a game with their numbering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The number of the first move (1 unless the game started from a
    /// position string).
    pub first_number: u64,
    /// Who played the first move.
    pub first_turn: Color,
    pub moves: Vec<Move>,
}

impl Default for Record {
    fn default() -> Self {
        Record {
            first_number: 1,
            first_turn: Color::Blue,
            moves: Vec::new(),
        }
    }
}

/// A move list that cannot be read, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read the move list at {at:?}: {reason}")]
pub struct ParseRecordError {
    pub at: String,
    pub reason: String,
}

/// The number of the move at `ply` (from the list's first), counting on
/// from `first` as a position string does (up to its largest number).
fn number_at(first: u64, ply: usize) -> u64 {
    first.saturating_add(u64::try_from(ply / 2).unwrap_or(u64::MAX))
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, mv) in self.moves.iter().enumerate() {
            let ply = self.first_turn.index() + i;
            let number = number_at(self.first_number, ply);
            if i > 0 {
                f.write_str(" ")?;
            }
            if ply.is_multiple_of(2) {
                write!(f, "{number}. ")?;
            } else if i == 0 {
                write!(f, "{number}... ")?;
            }
            write!(f, "{mv}")?;
        }
        Ok(())
    }
}

impl FromStr for Record {
    type Err = ParseRecordError;

    fn from_str(text: &str) -> Result<Record, ParseRecordError> {
        let err = |at: &str, reason: &str| ParseRecordError {
            at: at.to_string(),
            reason: reason.to_string(),
        };
        let mut tokens = text.split_whitespace().peekable();
        let mut record = Record::default();
        // The first token fixes the numbering.
        if let Some(first) = tokens.peek() {
            let (number, turn) = if let Some(n) = first.strip_suffix("...") {
                (n, Color::Red)
            } else if let Some(n) = first.strip_suffix('.') {
                (n, Color::Blue)
            } else {
                return Err(err(
                    first,
                    "a move list starts with a move number like \"1.\" or \"1...\"",
                ));
            };
            record.first_number = number.parse().ok().filter(|n| *n >= 1).ok_or_else(|| {
                err(
                    first,
                    &format!(
                        "the move number must be a number from 1 to {}",
                        super::setup::MAX_MOVE_NUMBER
                    ),
                )
            })?;
            record.first_turn = turn;
            tokens.next();
        }
        while let Some(token) = tokens.next() {
            let ply = record.first_turn.index() + record.moves.len();
            let number = number_at(record.first_number, ply);
            let rank = if ply.is_multiple_of(2) && !record.moves.is_empty() {
                let expected = format!("{number}.");
                if token != expected {
                    return Err(err(
                        token,
                        &format!("expected the move number {expected:?}"),
                    ));
                }
                tokens
                    .next()
                    .ok_or_else(|| err(token, "a move number must be followed by a move"))?
            } else {
                token
            };
            let squares = tokens
                .next()
                .ok_or_else(|| err(rank, "expected the squares after the animal's rank"))?;
            let mv: Move = format!("{rank} {squares}")
                .parse()
                .map_err(|e: crate::game::NotationError| err(&e.text, &e.reason))?;
            record.moves.push(mv);
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_list_starting_with_red_uses_ellipsis() {
        let record: Record = "12... 1 a7-a6 13. 8 a3-a4".parse().unwrap();
        assert_eq!(record.first_number, 12);
        assert_eq!(record.first_turn, Color::Red);
        assert_eq!(record.to_string(), "12... 1 a7-a6 13. 8 a3-a4");
    }

    #[test]
    fn move_list_errors_point_at_the_bad_token() {
        for (text, at) in [
            ("8 a3-a4", "8"),
            ("1. 8 a3-a4 1 a7-a6 3. 7 g1-g2", "3."),
            ("1. 8 a3-a4 1", "1"),
            ("1. 9 a3-a4", "9 a3-a4"),
        ] {
            let e = text.parse::<Record>().unwrap_err();
            assert_eq!(e.at, at, "{text}: {e}");
        }
    }

    #[test]
    fn empty_move_list_is_empty_record() {
        assert_eq!("".parse::<Record>().unwrap(), Record::default());
    }
}
