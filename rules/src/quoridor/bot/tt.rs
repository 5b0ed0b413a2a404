//! The transposition table of one search: what a position (pawns, walls,
//! walls in hand, and whose layer it is) was found worth, and its best
//! move, so that a position reached by another order of the same moves is
//! not searched again, and a deeper iteration tries last time's best move
//! first.

use super::score::{from_node, to_node};
use crate::quoridor::{Move, Quoridor};
use crate::rng::mix;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// One stored search.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    key: u64,
    pub depth: u32,
    pub bound: Bound,
    score: i32,
    /// The side that played the best move (an opponent's, at a reply layer)
    /// and the move.
    pub best: Option<(u8, Move)>,
}

impl Entry {
    /// The score as seen `ply` layers from the root (a win's distance is
    /// stored from the node, so it reads right wherever the node recurs).
    pub fn score(&self, ply: i32) -> i32 {
        from_node(self.score, ply)
    }
}

/// A fixed number of entries, each position in one slot by its key; a
/// deeper search replaces a shallower one.
pub(super) struct Table {
    entries: Vec<Option<Entry>>,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![None; 1 << bits],
        }
    }

    fn slot(&self, key: u64) -> usize {
        key as usize & (self.entries.len() - 1)
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    /// Stores `score` (seen `ply` layers from the root), searched `depth`
    /// layers deep within the window `(alpha, beta)`.
    pub fn store(
        &mut self,
        key: u64,
        depth: u32,
        score: i32,
        (alpha, beta): (i32, i32),
        ply: i32,
        best: Option<(u8, Move)>,
    ) {
        let slot = self.slot(key);
        if self.entries[slot].is_some_and(|e| e.key != key && e.depth > depth) {
            return;
        }
        let bound = if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let score = to_node(score, ply);
        self.entries[slot] = Some(Entry {
            key,
            depth,
            bound,
            score,
            best,
        });
    }
}

/// The key of `g` at a layer where the root side moves (`mine`) or an
/// opponent replies.
pub(super) fn key(g: &Quoridor, mine: bool) -> u64 {
    let mut h = mix(u64::from(mine) ^ 0x7175_6F72_6964_6F72);
    for s in 0..g.sides as usize {
        let pawn = g.pawns[s].map_or(0xFF, |c| u64::from(c.index()));
        h = mix(h ^ (s as u64) << 32 ^ pawn << 8 ^ u64::from(g.walls_left[s]));
    }
    for w in g.board.walls() {
        h = mix(h ^ 1 << 40 ^ (w.orientation.index() as u64) << 8 ^ u64::from(w.cell.index()));
    }
    h
}
