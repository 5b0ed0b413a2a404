//! Zobrist keys: one random 64-bit key per (colour, animal, square) and one
//! for "Red to move". A position's hash is the XOR of the keys of what is on
//! it, so a move updates it with two or three XORs.
//!
//! The keys are generated at compile time by SplitMix64 from a fixed seed,
//! so hashes are the same in every build and on every machine.

use super::role::{Color, Role};
use super::square::{Square, SQUARES};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const PIECE_KEYS: [[[u64; SQUARES]; 8]; 2] = {
    let mut keys = [[[0u64; SQUARES]; 8]; 2];
    let mut state = 0x4A55_4E47_4C45_u64; // "JUNGLE"
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 8 {
            let mut s = 0;
            while s < SQUARES {
                let (next, key) = splitmix(state);
                state = next;
                keys[c][r][s] = key;
                s += 1;
            }
            r += 1;
        }
        c += 1;
    }
    keys
};

/// XORed in when Red is to move.
pub const RED_TO_MOVE: u64 = splitmix(0x5245_4400).1;

/// The key of `role` of `color` standing on `sq`.
#[inline]
pub fn piece_key(color: Color, role: Role, sq: Square) -> u64 {
    PIECE_KEYS[color.index()][role.index()][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE_KEYS.iter().flatten().flatten().copied().collect();
        all.push(RED_TO_MOVE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
