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

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    mv: u16,
    score: i16,
    depth: i8,
    /// 0 empty, 1 exact, 2 lower, 3 upper.
    bound: u8,
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

pub struct Tt {
    slots: Vec<Slot>,
    mask: usize,
}

impl Tt {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Tt {
        let n = 1usize << bits;
        Tt {
            slots: vec![Slot::default(); n],
            mask: n - 1,
        }
    }

    pub fn probe(&self, hash: u64) -> Option<Hit> {
        let slot = &self.slots[hash as usize & self.mask];
        if slot.bound == 0 || slot.key != hash {
            return None;
        }
        let mv = (slot.mv != 0).then(|| {
            let from = Square::from_index((slot.mv & 63) as u8).expect("square");
            let to = Square::from_index(((slot.mv >> 6) & 63) as u8).expect("square");
            (from, to)
        });
        let bound = match slot.bound {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            mv,
            score: slot.score as i32,
            depth: slot.depth as i32,
            bound,
        })
    }

    pub fn store(&mut self, hash: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let slot = &mut self.slots[hash as usize & self.mask];
        if slot.key == hash && slot.depth as i32 > depth && bound != Bound::Exact {
            return;
        }
        slot.key = hash;
        slot.mv = mv.map_or(0, |m| {
            m.from.index() as u16 | (m.to.index() as u16) << 6 | 1 << 12
        });
        slot.score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        slot.depth = depth.clamp(-1, 127) as i8;
        slot.bound = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
    }
}
