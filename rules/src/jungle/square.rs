//! Squares of the 7×9 board: files `a`–`g`, ranks `1`–`9`.
//!
//! A square is an index `rank * 7 + file` in `0..63`, so the whole board
//! fits the low 63 bits of a [`Bitboard`](super::Bitboard).
//!
//! ```
//! use rules::jungle::Square;
//!
//! let sq: Square = "d1".parse().unwrap();
//! assert_eq!((sq.file(), sq.rank()), (3, 0));
//! assert_eq!(sq.to_string(), "d1");
//! assert!("h1".parse::<Square>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

/// Number of files (`a`–`g`).
pub const FILES: u8 = 7;
/// Number of ranks (`1`–`9`).
pub const RANKS: u8 = 9;
/// Number of squares.
pub const SQUARES: usize = 63;

/// A square of the board. Always valid: the constructors check the range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = `a`) and `rank` (0 = rank 1), if on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The square with this index (`rank * 7 + file`), if below 63.
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index, for constant tables; panics when out of
    /// range.
    pub(crate) const fn at(index: u8) -> Square {
        assert!((index as usize) < SQUARES);
        Square(index)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File number, 0 for `a` to 6 for `g`.
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank number, 0 for rank 1 to 8 for rank 9.
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The same square seen from the other side (rotated 180°).
    pub const fn flip(self) -> Square {
        Square(SQUARES as u8 - 1 - self.0)
    }

    /// Manhattan distance between two squares.
    pub const fn distance(self, other: Square) -> u8 {
        self.file().abs_diff(other.file()) + self.rank().abs_diff(other.rank())
    }

    /// All 63 squares, a1 first, g9 last.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A square name that is not `a1`–`g9`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a square (files a-g, ranks 1-9)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError(s.to_string());
        let &[f, r] = s.as_bytes() else {
            return Err(err());
        };
        if !(b'a'..b'a' + FILES).contains(&f) || !(b'1'..b'1' + RANKS).contains(&r) {
            return Err(err());
        }
        Square::new(f - b'a', r - b'1').ok_or_else(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_name_round_trips() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
    }

    #[test]
    fn off_board_names_are_refused() {
        for bad in ["", "a", "a0", "h1", "a10", "A1", "11", "aa"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn flip_rotates_the_board() {
        let a1: Square = "a1".parse().unwrap();
        assert_eq!(a1.flip().to_string(), "g9");
    }
}
