//! The CrossyRay computer player, at four levels.
//!
//! [`Engine::choose_move`] runs one search on the calling thread and returns a
//! legal move. Every level takes a win at once (a goal, or a number that
//! leaves the opponent without a move) and never plays a move that lets
//! the opponent win with its next move when another move avoids it
//! ([`crate::triage::two_sided`]). Above that floor an alpha-beta search
//! (negamax, iterative deepening, make/unmake on one board) looks ahead;
//! at its leaves a side that can shoot into the goal it attacks has won,
//! and otherwise the more moves the side to move has, the further it is
//! from being locked in.
//!
//! | level | depth (plies) | time | mistakes |
//! |---|---|---|---|
//! | [`Level::Beginner`] | 1 | 5% of the budget | ±3 moves of noise, a random safe move 15 times in 100 |
//! | [`Level::Amateur`] | 3 | 15% | ±1 move, a random safe move 1 time in 50 |
//! | [`Level::Professional`] | 6 | 35% | none |
//! | [`Level::Master`] | unlimited | the whole budget | none |
//!
//! The budget is Master's time per move ([`DEFAULT_BUDGET`], 2 s, unless
//! the caller gives another); the other levels take their share of it.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use std::time::Duration;
//! use rules::game::Game;
//! use rules::crossyray::{bot::{Engine, Level, Think}, CrossyRay, Options};
//!
//! let game = CrossyRay::new(&Options::default()).unwrap();
//! let think = Think { level: Level::Amateur, budget: Duration::from_millis(50), cancel: &AtomicBool::new(false), seed: 1 };
//! let mv = game.choose_move(&think).unwrap();
//! assert!(game.legal_moves().contains(&mv));
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{CrossyRay, Move};
use crate::deepening::{iterate, Root, SearchResult};
use crate::game::{Game, Outcome};
pub use crate::level::{Engine, Level, Think, DEFAULT_BUDGET};
use crate::rng::Rng;
use crate::triage::two_sided;

/// A score beyond any evaluation.
pub const INF: i32 = 1_000_000;
/// A win now; a win `p` plies away scores `WIN - p`.
pub const WIN: i32 = 100_000;
/// Scores at least this large (in absolute value) are forced results.
pub const WIN_BOUND: i32 = WIN - 1_000;
/// What one more move for the side to move is worth.
const MOBILITY: i32 = 10;

/// A level's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub max_depth: u32,
    /// Share of the budget this level may think.
    pub time_share: f64,
    /// Half-width of the noise on the root moves' scores.
    pub noise: i32,
    /// Chance of playing a random safe move instead of the searched one.
    pub blunder: f64,
}

/// What `level` means for the CrossyRay search.
pub fn settings(level: Level) -> Settings {
    let (max_depth, time_share, noise, blunder) = match level {
        Level::Beginner => (1, 0.05, 3 * MOBILITY, 0.15),
        Level::Amateur => (3, 0.15, MOBILITY, 0.02),
        Level::Professional => (6, 0.35, 0, 0.0),
        Level::Master => (64, 1.0, 0, 0.0),
    };
    Settings {
        max_depth,
        time_share,
        noise,
        blunder,
    }
}

impl Engine for CrossyRay {
    type Found = SearchResult<Move>;

    fn analyse(&self, think: &Think) -> Option<(Move, Option<SearchResult<Move>>)> {
        let settings = settings(think.level);
        let start = Instant::now();
        let mut rng = Rng::new(think.seed ^ 0x6372_6F73_7379);
        let decision = two_sided(self).decide(settings.blunder, &mut rng);
        decision.then_search(|candidates| {
            let mut searcher = Searcher {
                game: self.clone(),
                // The triage's time counts too.
                time: think.budget.mul_f64(settings.time_share),
                cancel: think.cancel,
                start,
                nodes: 0,
                stopped: false,
            };
            let root = Root {
                max_depth: settings.max_depth,
                noise: settings.noise,
                seed: rng.next_u64(),
                win_bound: WIN_BOUND,
            };
            let found = iterate(&candidates, &root, |&mv, depth, floor| {
                let v = searcher.after(mv, depth - 1, floor.max(-INF), INF, 1);
                (!searcher.stopped).then_some(v)
            });
            let result = SearchResult {
                best: found.best,
                score: found.score,
                depth: found.depth,
                previous: found.previous,
                nodes: searcher.nodes,
                elapsed: searcher.start.elapsed(),
            };
            (found.best, result)
        })
    }
}

/// One search: a copy of the game moved with make/unmake.
struct Searcher<'a> {
    game: CrossyRay,
    time: Duration,
    cancel: &'a AtomicBool,
    start: Instant,
    nodes: u64,
    stopped: bool,
}

impl Searcher<'_> {
    /// The score of `mv` for the side playing it, `depth` plies deeper.
    fn after(&mut self, mv: Move, depth: u32, alpha: i32, beta: i32, ply: i32) -> i32 {
        let mover = self.game.to_move();
        let undo = self.game.make(mv);
        let v = match self.game.outcome() {
            Some(Outcome::Win { winner, .. }) if Some(*winner) == mover => WIN - ply,
            Some(_) => ply - WIN,
            None => -self.negamax(depth, -beta, -alpha, ply),
        };
        self.game.unmake(mv, undo);
        v
    }

    /// The score of the position for the side to move.
    fn negamax(&mut self, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(256)
            && (self.cancel.load(Ordering::Relaxed) || self.start.elapsed() >= self.time)
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let mut moves = Vec::with_capacity(32);
        self.game.for_each_move(|mv| moves.push(mv));
        let attacked = self
            .game
            .to_move()
            .map(|side| self.game.defends(side).opposite());
        let scores_now = |mv: &Move| matches!(mv, Move::Goal(edge) if Some(*edge) == attacked);
        if moves.iter().any(scores_now) {
            return WIN - ply - 1;
        }
        if depth == 0 {
            return MOBILITY * moves.len() as i32;
        }
        // Own goals lose at once: searched last.
        moves.sort_by_key(|mv| matches!(mv, Move::Goal(_)));
        let mut best = -INF;
        for mv in moves {
            let v = self.after(mv, depth - 1, alpha, beta, ply + 1);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta || self.stopped {
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests;
