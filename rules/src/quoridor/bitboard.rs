//! A 256-bit set of board points, the one representation every board size
//! shares.
//!
//! Bit `rank * 16 + file` stands for the cell (or wall slot, or wall
//! corner point) at that file and rank. The stride of 16 leaves at least
//! three unused columns on the widest (13×13) board, so a shift by one file
//! never wraps a set bit onto the next rank's cells: it lands in padding,
//! which every mask excludes. A shift by one rank is a shift by 16.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// Distance in bits between two ranks.
pub const STRIDE: u32 = 16;

/// A set of board points; see the module documentation for the layout.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub [u64; 4]);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard([0; 4]);

    /// The set holding only `index`.
    #[inline]
    pub fn from_index(index: u8) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        b.insert(index);
        b
    }

    /// The points `(file, rank)` with `file < files` and `rank < ranks`.
    pub fn rectangle(files: u8, ranks: u8) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for rank in 0..ranks {
            for file in 0..files {
                b.insert(rank * STRIDE as u8 + file);
            }
        }
        b
    }

    #[inline]
    pub fn contains(self, index: u8) -> bool {
        self.0[(index >> 6) as usize] >> (index & 63) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, index: u8) {
        self.0[(index >> 6) as usize] |= 1 << (index & 63);
    }

    #[inline]
    pub fn remove(&mut self, index: u8) {
        self.0[(index >> 6) as usize] &= !(1 << (index & 63));
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    #[inline]
    pub fn any(self) -> bool {
        !self.is_empty()
    }

    #[inline]
    pub fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Every index moved up by `N` bits (`0 < N < 64`); bits pushed past
    /// 255 are lost.
    #[inline]
    pub fn shl<const N: u32>(self) -> Bitboard {
        let a = self.0;
        Bitboard([
            a[0] << N,
            (a[1] << N) | (a[0] >> (64 - N)),
            (a[2] << N) | (a[1] >> (64 - N)),
            (a[3] << N) | (a[2] >> (64 - N)),
        ])
    }

    /// Every index moved down by `N` bits (`0 < N < 64`); bits pushed
    /// below 0 are lost.
    #[inline]
    pub fn shr<const N: u32>(self) -> Bitboard {
        let a = self.0;
        Bitboard([
            (a[0] >> N) | (a[1] << (64 - N)),
            (a[1] >> N) | (a[2] << (64 - N)),
            (a[2] >> N) | (a[3] << (64 - N)),
            a[3] >> N,
        ])
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, o: Bitboard) {
        *self = *self & o;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, o: Bitboard) {
        *self = *self | o;
    }
}

/// Iterates over the indices in increasing order.
impl Iterator for Bitboard {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        for i in 0..4 {
            let w = self.0[i];
            if w != 0 {
                self.0[i] = w & (w - 1);
                return Some((i as u32 * 64 + w.trailing_zeros()) as u8);
            }
        }
        None
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_carry_bits_across_words() {
        let b = Bitboard::from_index(63);
        assert_eq!(b.shl::<1>(), Bitboard::from_index(64));
        assert_eq!(b.shl::<33>(), Bitboard::from_index(96));
        assert_eq!(
            Bitboard::from_index(64).shr::<1>(),
            Bitboard::from_index(63)
        );
        assert_eq!(
            Bitboard::from_index(200).shr::<16>(),
            Bitboard::from_index(184)
        );
        assert!(Bitboard::from_index(255).shl::<1>().is_empty());
        assert!(Bitboard::from_index(0).shr::<1>().is_empty());
    }

    #[test]
    fn iteration_lists_every_index_once_in_order() {
        let mut b = Bitboard::EMPTY;
        for i in [3u8, 64, 130, 255] {
            b.insert(i);
        }
        assert_eq!(b.collect::<Vec<_>>(), vec![3, 64, 130, 255]);
        assert_eq!(b.count(), 4);
        b.remove(3);
        assert_eq!(b.next(), Some(64));
    }

    #[test]
    fn rectangle_leaves_padding_columns_empty() {
        let r = Bitboard::rectangle(13, 13);
        assert_eq!(r.count(), 169);
        assert!(!r.contains(13));
        assert!(r.contains(12 * 16 + 12));
    }
}
