//! The computer opponent, at four levels a player can tell apart.
//!
//! [`Engine::choose_move`] runs one search on the calling thread and returns a
//! legal move. Every level plays a winning move at once (entering the den,
//! or leaving the opponent without a move) and never plays a move that lets
//! the opponent win on the next move when another move avoids it. Above
//! that floor:
//!
//! | level | depth | time | mistakes |
//! |---|---|---|---|
//! | [`Level::Beginner`] | 1 ply + captures | 5% of the budget | ±100 evaluation noise, a random safe move 1 time in 10 |
//! | [`Level::Amateur`] | 3 plies | 15% | ±60 noise, a random safe move 1 time in 20 |
//! | [`Level::Professional`] | 4 plies | 35% | none |
//! | [`Level::Master`] | unlimited | the whole budget | none |
//!
//! (Each search also resolves captures and den defence at its leaves.)
//!
//! The budget is Master's time per move ([`DEFAULT_BUDGET`], 2 s, unless
//! the caller gives another); the other levels take their share of it.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use std::time::Duration;
//! use rules::game::Game;
//! use rules::jungle::{bot::{Engine, Level, Think}, Jungle};
//!
//! let game = Jungle::start();
//! let think = Think { level: Level::Amateur, budget: Duration::from_millis(50), cancel: &AtomicBool::new(false), seed: 1 };
//! let mv = game.choose_move(&think).unwrap();
//! assert!(game.legal_moves().contains(&mv));
//! ```

mod eval;
mod search;
mod tt;

use std::sync::atomic::AtomicBool;

pub use crate::rng::Rng;
pub use eval::{Eval, EvalParams};
pub use search::{Limits, SearchResult, Searcher, INF, WIN, WIN_BOUND};

use crate::jungle::{Jungle, Move};
use crate::triage::two_sided;

pub use crate::level::{Engine, Level, Think, DEFAULT_BUDGET};

/// A level's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub max_depth: u32,
    /// Share of the budget this level may think.
    pub time_share: f64,
    /// Half-width of the evaluation noise.
    pub noise: i32,
    /// Chance of playing a random safe move instead of the searched one.
    pub blunder: f64,
    pub tt_bits: u32,
    pub contempt: i32,
}

impl Level {
    /// What the level means for the Jungle search.
    pub fn settings(self) -> Settings {
        match self {
            Level::Beginner => Settings {
                max_depth: 1,
                time_share: 0.05,
                noise: 100,
                blunder: 0.1,
                tt_bits: 14,
                contempt: 0,
            },
            Level::Amateur => Settings {
                max_depth: 3,
                time_share: 0.15,
                noise: 60,
                blunder: 0.05,
                tt_bits: 16,
                contempt: 0,
            },
            Level::Professional => Settings {
                max_depth: 4,
                time_share: 0.35,
                noise: 0,
                blunder: 0.0,
                tt_bits: 18,
                contempt: 10,
            },
            Level::Master => Settings {
                max_depth: 64,
                time_share: 1.0,
                noise: 0,
                blunder: 0.0,
                tt_bits: 20,
                contempt: 20,
            },
        }
    }
}

impl Engine for Jungle {
    type Found = SearchResult;

    fn analyse(&self, think: &Think) -> Option<(Move, Option<SearchResult>)> {
        let settings = think.level.settings();
        let mut rng = Rng::new(think.seed ^ 0x6A75_6E67_6C65);
        let decision = two_sided(self).decide(settings.blunder, &mut rng);
        decision.then_search(|candidates| {
            let limits = Limits {
                max_depth: settings.max_depth,
                time: think.budget.mul_f64(settings.time_share),
                noise: settings.noise,
                contempt: settings.contempt,
                tt_bits: settings.tt_bits,
                seed: rng.next_u64(),
                ..Limits::default()
            };
            let result = search(self, &candidates, &limits, think.cancel);
            (result.best.unwrap_or(candidates[0]), result)
        })
    }
}

/// Searches `root_moves` of `game` with `limits` (the benchmark and the
/// ladder call this directly).
pub fn search(
    game: &Jungle,
    root_moves: &[Move],
    limits: &Limits,
    cancel: &AtomicBool,
) -> SearchResult {
    let mut searcher = Searcher::new(game, limits, cancel);
    searcher.run(root_moves, limits.max_depth)
}

#[cfg(test)]
mod tests;
