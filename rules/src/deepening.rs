//! Iterative deepening at the root, shared by the bots whose searches
//! score each root move with a closure (Quoridor, CrossyRay).
//!
//! Depth after depth, every root move is scored, best first by the last
//! iteration; the weaker levels' noise is added to each move's score. An
//! iteration cut short by the clock still counts for the moves it scored:
//! it scored the previous best first, and a move scored above it is proven
//! better.
//!
//! ```
//! use rules::deepening::{iterate, Root};
//!
//! // Scores that grow with depth for "b", fall for "a".
//! let root = Root { max_depth: 3, noise: 0, seed: 1, win_bound: 1000 };
//! let found = iterate(&["a", "b"], &root, |mv, depth, _alpha| {
//!     Some(if *mv == "a" { 10 - depth as i32 } else { depth as i32 * 4 })
//! });
//! assert_eq!((found.best, found.score, found.depth, found.previous), ("b", 12, 3, Some(8)));
//! ```

use std::time::Duration;

use crate::rng::Rng;

/// A score below any real one.
const NONE: i32 = i32::MIN / 2;

/// How the root iterates.
#[derive(Clone, Copy, Debug)]
pub struct Root {
    pub max_depth: u32,
    /// Half-width of the noise on each move's score (0: none, and the
    /// moves after the first are searched with the best score so far as
    /// their floor).
    pub noise: i32,
    pub seed: u64,
    /// Scores at least this large (in absolute value) are forced results:
    /// deeper iterations would not change them.
    pub win_bound: i32,
}

/// The best root move found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found<M> {
    pub best: M,
    /// Its score, noise included.
    pub score: i32,
    /// The deepest iteration completed (0 if the first was cut short).
    pub depth: u32,
    /// The best score of the iteration before the deepest completed one
    /// (`None` before two were): a search that alternates between the
    /// sides' last layers swings with the depth's parity, and the mean of
    /// two depths in a row cancels it (the coach's win chance).
    pub previous: Option<i32>,
}

/// Scores `moves` (at least one) depth by depth with `score(move, depth,
/// floor)`, which returns the move's score at that depth (exact when above
/// `floor`, else at most `floor`), or `None` when the search must stop.
pub fn iterate<M: Copy + PartialEq>(
    moves: &[M],
    root: &Root,
    mut score: impl FnMut(&M, u32, i32) -> Option<i32>,
) -> Found<M> {
    let mut rng = Rng::new(root.seed);
    let noise: Vec<i32> = moves
        .iter()
        .map(|_| match root.noise {
            0 => 0,
            n => rng.below(2 * n as usize + 1) as i32 - n,
        })
        .collect();
    let mut order: Vec<usize> = (0..moves.len()).collect();
    let mut found = Found {
        best: moves[0],
        score: NONE,
        depth: 0,
        previous: None,
    };
    // The best score of each iteration completed.
    let mut completed: Vec<i32> = Vec::new();
    for depth in 1..=root.max_depth.max(1) {
        let mut scored: Vec<(usize, i32)> = Vec::with_capacity(moves.len());
        let mut floor = NONE;
        let mut stopped = false;
        for &i in &order {
            // Noise needs every score exact.
            let this_floor = if root.noise > 0 { NONE } else { floor };
            let Some(v) = score(&moves[i], depth, this_floor) else {
                stopped = true;
                break;
            };
            let v = v + noise[i];
            floor = floor.max(v);
            scored.push((i, v));
        }
        scored.sort_by_key(|s| std::cmp::Reverse(s.1));
        if let Some(&(i, v)) = scored.first() {
            found.best = moves[i];
            found.score = v;
            if !stopped {
                found.depth = depth;
                found.previous = completed.last().copied();
                completed.push(v);
            }
        }
        let rest: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| !scored.iter().any(|s| s.0 == i))
            .collect();
        order = scored.iter().map(|s| s.0).chain(rest).collect();
        if stopped || found.score.abs() >= root.win_bound {
            break;
        }
    }
    found
}

/// What a search found, for the callers that show it (the ladder).
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: M,
    /// The best move's score for the side to move, noise included.
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    /// The best score of the iteration before the deepest ([`Found`]).
    pub previous: Option<i32>,
    pub nodes: u64,
    pub elapsed: Duration,
}
