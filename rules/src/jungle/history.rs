//! The rules that look back: the shuttle limit, threefold repetition and
//! 100 moves without a capture.
//!
//! [`History`] records every move with the hash of the position before it,
//! so the game and the search share the same bookkeeping (push on make,
//! pop on unmake).
//!
//! ```
//! use rules::jungle::{History, Move, Position};
//!
//! let mut pos = Position::start();
//! let mut history = History::new(0);
//! for text in ["8 a3-a4", "8 g7-g6", "8 a4-a3", "8 g6-g7", "8 a3-a4", "8 g7-g6"] {
//!     let mv: Move = text.parse().unwrap();
//!     let before = pos.hash();
//!     let captured = pos.make(mv);
//!     history.push(mv, captured, before);
//! }
//! // Blue's elephant went a3-a4, a4-a3, a3-a4: it may not go back to a3 now.
//! assert_eq!(history.shuttle_ban().unwrap().to_string(), "8 a4-a3");
//! ```

use super::moves::Move;
use super::role::Piece;

/// Moves without a capture, in total for both sides, that draw the game.
pub const NO_CAPTURE_LIMIT: u16 = 100;

/// Occurrences of a position (same side to move) that draw the game.
pub const REPETITION_LIMIT: usize = 3;

/// One played move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Move,
    pub captured: Option<Piece>,
    /// Hash of the position before the move.
    pub hash_before: u64,
    /// The no-capture count before the move.
    pub no_capture_before: u16,
}

/// The moves played so far, with what the history-aware rules need.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    entries: Vec<Entry>,
    no_capture: u16,
}

impl History {
    /// An empty history; `no_capture` moves without a capture already
    /// happened before it (from a position string).
    pub fn new(no_capture: u16) -> History {
        History {
            entries: Vec::with_capacity(128),
            no_capture,
        }
    }

    /// Records `mv`, played from the position whose hash was `hash_before`.
    #[inline]
    pub fn push(&mut self, mv: Move, captured: Option<Piece>, hash_before: u64) {
        self.entries.push(Entry {
            mv,
            captured,
            hash_before,
            no_capture_before: self.no_capture,
        });
        self.no_capture = if captured.is_some() {
            0
        } else {
            self.no_capture.saturating_add(1)
        };
    }

    /// Forgets the last move and returns it.
    #[inline]
    pub fn pop(&mut self) -> Option<Entry> {
        let entry = self.entries.pop()?;
        self.no_capture = entry.no_capture_before;
        Some(entry)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn last(&self) -> Option<&Entry> {
        self.entries.last()
    }

    /// Moves in a row, both sides counted, without a capture.
    #[inline]
    pub fn no_capture(&self) -> u16 {
        self.no_capture
    }

    /// The shuttle limit (RULES.md §3 **Decision**): if the side to move's
    /// last three moves were the same animal going A→B, B→A, A→B, the move
    /// B→A is forbidden now. Returns that forbidden move (its capture mark
    /// is meaningless: any B→A by that animal is banned).
    #[inline]
    pub fn shuttle_ban(&self) -> Option<Move> {
        let n = self.entries.len();
        if n < 6 {
            return None;
        }
        let third = self.entries[n - 2].mv; // A→B, the most recent
        let second = self.entries[n - 4].mv; // B→A
        let first = self.entries[n - 6].mv; // A→B
        let shuttling = first.same_path(third)
            && second.role == third.role
            && second.from == third.to
            && second.to == third.from;
        shuttling.then(|| Move::new(third.role, third.to, third.from, false))
    }

    /// Whether the shuttle limit forbids `mv` now.
    #[inline]
    pub fn is_banned(&self, mv: Move) -> bool {
        self.shuttle_ban().is_some_and(|ban| ban.same_path(mv))
    }

    /// How many times the position with hash `now` (the current one) has
    /// occurred with the same side to move, counting the current one. Only
    /// positions since the last capture can repeat.
    #[inline]
    pub fn repetitions(&self, now: u64) -> usize {
        let n = self.entries.len();
        let reach = (self.no_capture as usize).min(n);
        let mut count = 1;
        let mut back = 2;
        while back <= reach {
            if self.entries[n - back].hash_before == now {
                count += 1;
            }
            back += 2;
        }
        count
    }
}
