//! Walls and their notation (`e3h`, `e3v`).
//!
//! A wall is two cells long and lies in the groove between cells; its
//! centre is a corner where four cells meet. RULES.md names a wall by the
//! cell whose **top-right** corner is that centre, so `e3h` runs along the
//! top of e3 and f3 (between ranks 3 and 4) and `e3v` along the right side
//! of e3 and e4 (between files e and f). On an N×N board the naming cell
//! has file and rank below N-1: there are (N-1)² centres.

use std::fmt;
use std::str::FromStr;

use super::cell::Cell;
use crate::game::NotationError;

/// Which way a wall lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Orientation {
    /// Along a row, blocking up/down steps: `h`.
    Horizontal,
    /// Along a column, blocking left/right steps: `v`.
    Vertical,
}

impl Orientation {
    pub const BOTH: [Orientation; 2] = [Orientation::Horizontal, Orientation::Vertical];

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    pub fn other(self) -> Orientation {
        match self {
            Orientation::Horizontal => Orientation::Vertical,
            Orientation::Vertical => Orientation::Horizontal,
        }
    }
}

/// A wall: the cell whose top-right corner is its centre, and its
/// orientation.
///
/// ```
/// use rules::quoridor::{Orientation, Wall};
///
/// let w: Wall = "e3h".parse().unwrap();
/// assert_eq!(w.orientation, Orientation::Horizontal);
/// assert_eq!(w.cell.to_string(), "e3");
/// assert_eq!(w.to_string(), "e3h");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Wall {
    pub cell: Cell,
    pub orientation: Orientation,
}

impl Wall {
    pub fn new(cell: Cell, orientation: Orientation) -> Wall {
        Wall { cell, orientation }
    }

    /// Whether the wall fits on a `size`×`size` board.
    pub fn is_on(self, size: u8) -> bool {
        self.cell.file() + 1 < size && self.cell.rank() + 1 < size
    }
}

impl fmt::Display for Wall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = match self.orientation {
            Orientation::Horizontal => 'h',
            Orientation::Vertical => 'v',
        };
        write!(f, "{}{o}", self.cell)
    }
}

crate::debug_as_notation!(Wall);

impl FromStr for Wall {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Wall, NotationError> {
        let orientation = match text.as_bytes().last() {
            Some(b'h') => Orientation::Horizontal,
            Some(b'v') => Orientation::Vertical,
            _ => {
                return Err(NotationError::new(
                    text,
                    "a wall is a cell followed by h or v, like e3h",
                ))
            }
        };
        let cell: Cell = text[..text.len() - 1]
            .parse()
            .map_err(|e: NotationError| NotationError::new(text, e.reason))?;
        if cell.file() + 1 >= super::cell::MAX_SIZE || cell.rank() + 1 >= super::cell::MAX_SIZE {
            return Err(NotationError::new(
                text,
                "a wall's cell cannot be on the last file or rank (its top-right corner is the wall's centre)",
            ));
        }
        Ok(Wall { cell, orientation })
    }
}

crate::serde_as_notation!(Wall);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_is_named_by_the_cell_below_left_of_its_centre() {
        let w: Wall = "a1v".parse().unwrap();
        assert_eq!((w.cell.file(), w.cell.rank()), (0, 0));
        assert_eq!(w.orientation, Orientation::Vertical);
        assert!(w.is_on(9));
        let h8: Wall = "h8h".parse().unwrap();
        assert!(h8.is_on(9));
        let i8: Wall = "i8h".parse().unwrap();
        assert!(!i8.is_on(9));
        assert!(i8.is_on(11));
    }

    #[test]
    fn malformed_walls_are_refused() {
        for bad in ["e3", "e3x", "h", "z3h", "e0v", "m1h", "a13v", "e3hh"] {
            assert!(bad.parse::<Wall>().is_err(), "{bad} accepted");
        }
    }
}
