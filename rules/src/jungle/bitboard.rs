//! Sets of squares as the low 63 bits of a `u64`, and the fixed regions of
//! the board: rivers, traps and dens.
//!
//! ```
//! use rules::jungle::{Bitboard, Color, Square};
//!
//! let b4: Square = "b4".parse().unwrap();
//! assert!(Bitboard::WATER.contains(b4));
//! assert_eq!(Bitboard::WATER.count(), 12);
//! assert_eq!(Bitboard::traps(Color::Blue).count(), 3);
//! ```

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use super::role::Color;
use super::square::{Square, FILES, RANKS, SQUARES};

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

const fn rect(file0: u8, file1: u8, rank0: u8, rank1: u8) -> u64 {
    let mut bits = 0u64;
    let mut r = rank0;
    while r <= rank1 {
        let mut f = file0;
        while f <= file1 {
            bits |= 1 << (r * FILES + f);
            f += 1;
        }
        r += 1;
    }
    bits
}

const fn bit(file: u8, rank: u8) -> u64 {
    1 << (rank * FILES + file)
}

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square of the board.
    pub const ALL: Bitboard = Bitboard((1 << SQUARES) - 1);
    /// The two rivers, b4-c6 and e4-f6.
    pub const WATER: Bitboard = Bitboard(rect(1, 2, 3, 5) | rect(4, 5, 3, 5));
    /// Everything but the rivers.
    pub const LAND: Bitboard = Bitboard(Bitboard::ALL.0 & !Bitboard::WATER.0);
    const BLUE_TRAPS: u64 = bit(2, 0) | bit(4, 0) | bit(3, 1);
    const RED_TRAPS: u64 = bit(2, 8) | bit(4, 8) | bit(3, 7);

    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// `color`'s own traps: an enemy standing on one loses its rank
    /// against `color`'s animals.
    pub const fn traps(color: Color) -> Bitboard {
        match color {
            Color::Blue => Bitboard(Bitboard::BLUE_TRAPS),
            Color::Red => Bitboard(Bitboard::RED_TRAPS),
        }
    }

    /// The squares of rank `rank` (0-based).
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(rect(0, FILES - 1, rank, rank))
    }

    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn any(self) -> bool {
        self.0 != 0
    }

    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub fn set(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq.index();
    }

    /// The lowest square of the set.
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::at(self.0.trailing_zeros() as u8))
        }
    }

    /// The squares one step away orthogonally from any square of the set.
    pub const fn neighbours(self) -> Bitboard {
        let b = self.0;
        let not_a = !rect(0, 0, 0, RANKS - 1);
        let not_g = !rect(FILES - 1, FILES - 1, 0, RANKS - 1);
        let spread = (b << FILES) | (b >> FILES) | ((b & not_g) << 1) | ((b & not_a) >> 1);
        Bitboard(spread & Bitboard::ALL.0)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn rivers_are_b4_c6_and_e4_f6() {
        let water: Vec<String> = Bitboard::WATER.map(|s| s.to_string()).collect();
        assert_eq!(
            water,
            ["b4", "c4", "e4", "f4", "b5", "c5", "e5", "f5", "b6", "c6", "e6", "f6"]
        );
    }

    #[test]
    fn traps_surround_the_dens() {
        let blue: Vec<String> = Bitboard::traps(Color::Blue)
            .map(|s| s.to_string())
            .collect();
        let red: Vec<String> = Bitboard::traps(Color::Red).map(|s| s.to_string()).collect();
        assert_eq!(blue, ["c1", "e1", "d2"]);
        assert_eq!(red, ["d8", "c9", "e9"]);
    }

    #[test]
    fn neighbours_do_not_wrap_around_the_edges() {
        let n: Vec<String> = Bitboard::from_square(sq("g3"))
            .neighbours()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(n, ["g2", "f3", "g4"]);
        let n: Vec<String> = Bitboard::from_square(sq("a9"))
            .neighbours()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(n, ["a8", "b9"]);
    }
}
