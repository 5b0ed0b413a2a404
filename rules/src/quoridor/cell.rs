//! Cells, directions and cell notation (`a1` .. `m13`).
//!
//! Files are letters from the left (`a`..), ranks numbers from the bottom
//! (`1`..), as RULES.md §2 decides. A [`Cell`] is valid on the largest
//! (13×13) board; whether it lies on a smaller board is the game's check.

use std::fmt;
use std::str::FromStr;

use super::bitboard::STRIDE;
use crate::game::NotationError;

/// The largest board side.
pub const MAX_SIZE: u8 = 13;

/// A cell of the board, by file and rank counted from 0.
///
/// ```
/// use rules::quoridor::Cell;
///
/// let e2: Cell = "e2".parse().unwrap();
/// assert_eq!((e2.file(), e2.rank()), (4, 1));
/// assert_eq!(e2.to_string(), "e2");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `file`, `rank` (from 0), if both are below 13.
    pub fn new(file: u8, rank: u8) -> Option<Cell> {
        (file < MAX_SIZE && rank < MAX_SIZE).then_some(Cell(rank * STRIDE as u8 + file))
    }

    pub fn file(self) -> u8 {
        self.0 % STRIDE as u8
    }

    pub fn rank(self) -> u8 {
        self.0 / STRIDE as u8
    }

    /// Whether the cell lies on a `size`×`size` board.
    pub fn is_on(self, size: u8) -> bool {
        self.file() < size && self.rank() < size
    }

    /// The bit of this cell in a [`Bitboard`](super::bitboard::Bitboard).
    pub(crate) fn index(self) -> u8 {
        self.0
    }

    pub(crate) fn from_index(index: u8) -> Cell {
        debug_assert!(index % STRIDE as u8 <= MAX_SIZE && index / STRIDE as u8 <= MAX_SIZE);
        Cell(index)
    }

    /// The neighbour in direction `d`. The caller knows it is on the
    /// board (the edge counts as a wall in [`Board`](super::board::Board)).
    pub(crate) fn step(self, d: Direction) -> Cell {
        Cell((self.0 as i16 + d.offset()) as u8)
    }
}

pub use crate::direction::Direction;

impl Direction {
    /// The change of bit index for one step.
    pub(crate) fn offset(self) -> i16 {
        match self {
            Direction::Up => STRIDE as i16,
            Direction::Down => -(STRIDE as i16),
            Direction::Left => -1,
            Direction::Right => 1,
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

crate::debug_as_notation!(Cell);

impl FromStr for Cell {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Cell, NotationError> {
        let mut chars = text.chars();
        let file = match chars.next() {
            Some(c @ 'a'..='m') => c as u8 - b'a',
            Some(c) => {
                return Err(NotationError::new(
                    text,
                    format!("the file must be a letter from a to m, not {c:?}"),
                ))
            }
            None => return Err(NotationError::new(text, "empty cell")),
        };
        let digits = chars.as_str();
        let well_formed = !digits.is_empty()
            && digits.len() <= 2
            && !digits.starts_with('0')
            && digits.bytes().all(|b| b.is_ascii_digit());
        let rank: u8 = match digits.parse() {
            Ok(r) if well_formed && (1..=MAX_SIZE).contains(&r) => r,
            _ => {
                return Err(NotationError::new(
                    text,
                    "the rank must be a number from 1 to 13 after the file",
                ))
            }
        };
        Ok(Cell::new(file, rank - 1).expect("file and rank checked"))
    }
}

crate::serde_as_notation!(Cell);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_names_files_from_the_left_and_ranks_from_the_bottom() {
        let a1: Cell = "a1".parse().unwrap();
        assert_eq!((a1.file(), a1.rank()), (0, 0));
        let m13: Cell = "m13".parse().unwrap();
        assert_eq!((m13.file(), m13.rank()), (12, 12));
        assert_eq!(m13.to_string(), "m13");
    }

    #[test]
    fn malformed_cells_are_refused_with_a_reason() {
        for bad in ["", "n1", "a0", "a14", "a01", "e", "E2", "e2x", "2e", "a+1"] {
            let err = bad.parse::<Cell>().unwrap_err();
            assert_eq!(err.text, bad);
            assert!(!err.reason.is_empty());
        }
    }

    #[test]
    fn every_cell_round_trips() {
        for file in 0..MAX_SIZE {
            for rank in 0..MAX_SIZE {
                let c = Cell::new(file, rank).unwrap();
                assert_eq!(c.to_string().parse::<Cell>().unwrap(), c);
            }
        }
    }
}
