//! The transposition table: a fixed-size, always-replace-unless-deeper hash
//! table of search results, owned by one search (no sharing, no locks).

use crate::jungle::{Move, Square};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// A probe hit.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// From-square and to-square of the best move found, if any.
    pub mv: Option<(Square, Square)>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// Two words per entry: the full hash, then the data packed as
/// `move (16 bits) | score (16) | depth (8) | bound (8)`. Plain zeroed
/// words let the allocator hand out untouched (lazily zeroed) memory, so a
/// large table costs nothing until it is used.
pub struct Tt {
    words: Vec<u64>,
    mask: usize,
}

impl Tt {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Tt {
        let n = 1usize << bits;
        Tt {
            words: vec![0u64; 2 * n],
            mask: n - 1,
        }
    }

    pub fn probe(&self, hash: u64) -> Option<Hit> {
        let i = 2 * (hash as usize & self.mask);
        let data = self.words[i + 1];
        let bound = (data >> 56) as u8;
        if bound == 0 || self.words[i] != hash {
            return None;
        }
        let mv = data as u16;
        let mv = (mv != 0).then(|| {
            let from = Square::from_index((mv & 63) as u8).expect("square");
            let to = Square::from_index(((mv >> 6) & 63) as u8).expect("square");
            (from, to)
        });
        let bound = match bound {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            mv,
            score: (data >> 16) as u16 as i16 as i32,
            depth: (data >> 32) as u8 as i8 as i32,
            bound,
        })
    }

    pub fn store(&mut self, hash: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let i = 2 * (hash as usize & self.mask);
        let old = self.words[i + 1];
        if self.words[i] == hash
            && ((old >> 32) as u8 as i8 as i32) > depth
            && bound != Bound::Exact
        {
            return;
        }
        let mv = mv.map_or(0, |m| {
            m.from.index() as u64 | (m.to.index() as u64) << 6 | 1 << 12
        });
        let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        let depth = depth.clamp(-1, 127) as i8 as u8 as u64;
        let bound: u64 = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        self.words[i] = hash;
        self.words[i + 1] = mv | score << 16 | depth << 32 | bound << 56;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entry_is_found_with_its_fields() {
        let mut tt = Tt::new(10);
        let mv: Move = "7 a4xd4".parse().unwrap();
        tt.store(0xDEAD_BEEF, Some(mv), -29_990, 7, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(hit.mv, Some((mv.from, mv.to)));
        assert_eq!(
            (hit.score, hit.depth, hit.bound),
            (-29_990, 7, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEF ^ 1 << 40).is_none());
    }

    #[test]
    fn deeper_bound_is_kept() {
        let mut tt = Tt::new(4);
        tt.store(99, None, 5, 9, Bound::Upper);
        tt.store(99, None, 6, 3, Bound::Lower);
        assert_eq!(tt.probe(99).unwrap().depth, 9);
        tt.store(99, None, 6, 3, Bound::Exact);
        assert_eq!(tt.probe(99).unwrap().depth, 3);
    }
}
