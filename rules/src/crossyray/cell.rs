//! Cells and their notation: file letter from the left, rank number from
//! the bottom (`a1` is the bottom-left corner).

use std::fmt::{self, Display};
use std::str::FromStr;

use super::Direction;
use crate::game::NotationError;

/// A cell of a board up to 25 × 25: file `a`..`y` (index 0..=24) from the
/// left, rank `1`..`25` (index 0..=24) from the bottom.
///
/// Whether the cell lies on a given board is the board's question
/// ([`super::Board::contains`]).
///
/// ```
/// use rules::crossyray::Cell;
///
/// let e4: Cell = "e4".parse().unwrap();
/// assert_eq!((e4.file(), e4.rank()), (4, 3));
/// assert_eq!(e4.to_string(), "e4");
/// assert!("z1".parse::<Cell>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    file: u8,
    rank: u8,
}

impl Cell {
    /// Files and ranks a cell can have: the largest board is 25 × 25.
    pub const MAX_LINES: u8 = 25;

    /// `Some` when both indices are below [`Cell::MAX_LINES`].
    pub const fn new(file: u8, rank: u8) -> Option<Cell> {
        if file < Cell::MAX_LINES && rank < Cell::MAX_LINES {
            Some(Cell { file, rank })
        } else {
            None
        }
    }

    /// File index, 0 = `a` (leftmost).
    pub const fn file(self) -> u8 {
        self.file
    }

    /// Rank index, 0 = rank `1` (bottom).
    pub const fn rank(self) -> u8 {
        self.rank
    }

    /// The direction and number of steps from `self` to `other` when both
    /// share a file or a rank; `None` otherwise or when they are the same
    /// cell.
    pub fn ray_to(self, other: Cell) -> Option<(Direction, usize)> {
        use std::cmp::Ordering::*;
        let steps = |a: u8, b: u8| usize::from(a.abs_diff(b));
        match (other.file.cmp(&self.file), other.rank.cmp(&self.rank)) {
            (Equal, Greater) => Some((Direction::Up, steps(self.rank, other.rank))),
            (Equal, Less) => Some((Direction::Down, steps(self.rank, other.rank))),
            (Less, Equal) => Some((Direction::Left, steps(self.file, other.file))),
            (Greater, Equal) => Some((Direction::Right, steps(self.file, other.file))),
            _ => None,
        }
    }
}

impl Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file), self.rank + 1)
    }
}

impl FromStr for Cell {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Cell, NotationError> {
        let bad = |why: &str| NotationError::new(s, why);
        let mut chars = s.chars();
        let file = match chars.next() {
            Some(c @ 'a'..='y') => c as u8 - b'a',
            Some(_) => return Err(bad("a cell starts with a file letter from a to y")),
            None => {
                return Err(bad(
                    "empty move: write a cell like e4 or a goal like goal:left",
                ))
            }
        };
        let digits = chars.as_str();
        if digits.is_empty() {
            return Err(bad("the file letter needs a rank number after it, like e4"));
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
            return Err(bad("the rank is a number from 1 to 25"));
        }
        let rank: u8 = digits
            .parse()
            .ok()
            .filter(|r| (1..=Cell::MAX_LINES).contains(r))
            .ok_or_else(|| bad("the rank is a number from 1 to 25"))?;
        Ok(Cell {
            file,
            rank: rank - 1,
        })
    }
}

crate::serde_as_notation!(Cell);
