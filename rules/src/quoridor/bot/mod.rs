//! The Quoridor computer player, at four levels, for every board size,
//! 2 to 8 pawns, either goal, and team games (a team is one side).
//!
//! [`Engine::choose_move`] runs one search on the calling thread and returns a
//! legal move. Every level steps onto its goal at once when it can, and
//! never plays a move after which another pawn can reach its goal with its
//! next move when some move avoids that ([`triage`]: the pawns in between
//! assumed to stand still). Above that floor a best-reply alpha-beta
//! search (`search.rs`) scores the race: shortest ways, turn order and
//! walls in hand (`eval.rs`).
//!
//! | level | depth (layers) | time | walls tried | mistakes |
//! |---|---|---|---|---|
//! | [`Level::Beginner`] | 1 | 5% of the budget | 3 | ±1.2 steps of noise, a random safe move 1 time in 5 |
//! | [`Level::Amateur`] | 2 | 15% | 6 | ±0.5 steps, a random safe move 1 time in 20 |
//! | [`Level::Professional`] | 3 | 35% | 10 | none |
//! | [`Level::Master`] | unlimited | the whole budget | 16 | none |
//!
//! With three pawns or more every level searches at most
//! [`MULTI_MAX_DEPTH`] layers, and the race counts the opponents walling
//! one another (`eval.rs`). The Master, there, first checks how well a
//! simple policy (race, and wall the pawn you have been seen to wall when
//! it leads you) foresaw its opponents' recent moves; where it foresaw
//! most of them, or always with five pawns or more, the Master plays each
//! candidate out to the end many times under that policy instead of
//! searching (`rollout.rs`). Where the policy does not fit them all but
//! an opponent's recent moves were exactly those of our Professional
//! (other computer players at the table) and every other one's mostly
//! the policy's, the Master instead follows each candidate's line, each
//! opponent answering as foreseen and the Master by its own short
//! search, round after round while the time lasts (`model.rs`); this
//! comes before the play-outs of five pawns or more.
//!
//! The budget is Master's time per move ([`DEFAULT_BUDGET`], 2 s, unless
//! the caller gives another); the other levels take their share of it.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use std::time::{Duration, Instant};
//! use rules::game::Game;
//! use rules::quoridor::{bot::{Engine, Level, Think}, Options, Quoridor};
//!
//! let game = Quoridor::new(&Options { players: 4, ..Options::default() }).unwrap();
//! let think = Think { level: Level::Amateur, budget: Duration::from_millis(50), cancel: &AtomicBool::new(false), seed: 1 };
//! let mv = game.choose_move(&think).unwrap();
//! assert!(game.legal_moves().contains(&mv));
//! ```

mod eval;
mod model;
mod rollout;
mod score;
mod search;
mod tt;

use std::time::Instant;

pub use crate::deepening::SearchResult;
pub use eval::STEP;
pub use score::{INF, WIN, WIN_BOUND};
pub use search::{Limits, Searcher};

use super::{Move, Quoridor};
use crate::game::{Game, Side};
pub use crate::level::{Engine, Level, Think, DEFAULT_BUDGET};
use crate::rng::Rng;
pub use crate::triage::{Decision, Triage};

/// A level's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub max_depth: u32,
    /// Share of the budget this level may think.
    pub time_share: f64,
    /// Walls tried per node.
    pub walls: usize,
    /// Worth of a wall in hand, in hundredths of a step.
    pub wall_value: i32,
    /// Half-width of the noise on the root moves' scores.
    pub noise: i32,
    /// Chance of playing a random safe move instead of the searched one.
    pub blunder: f64,
    /// The transposition table holds `2^tt_bits` positions.
    pub tt_bits: u32,
    /// With three pawns or more, play-outs (`rollout.rs`) instead of the
    /// tree search.
    pub rollouts: bool,
}

/// The deepest search with three pawns or more (layers). Best-reply lets
/// every opponent wall us at each of its layers, which grows more wrong
/// the deeper it looks: against greedy players the Master won 46 % at
/// depth 3 and 37.5 % at depths 4-6 (BENCHMARKS.md, issue 28).
pub const MULTI_MAX_DEPTH: u32 = 3;

/// What `level` means for the Quoridor search.
pub fn settings(level: Level) -> Settings {
    let (max_depth, time_share, walls, noise, blunder, tt_bits) = match level {
        Level::Beginner => (1, 0.05, 3, 120, 0.2, 8),
        Level::Amateur => (2, 0.15, 6, 50, 0.05, 10),
        Level::Professional => (3, 0.35, 10, 0, 0.0, 12),
        Level::Master => (64, 1.0, 16, 0, 0.0, 18),
    };
    Settings {
        max_depth,
        time_share,
        walls,
        wall_value: STEP,
        noise,
        blunder,
        tt_bits,
        rollouts: level == Level::Master,
    }
}

impl Engine for Quoridor {
    type Found = SearchResult<Move>;

    fn analyse(&self, think: &Think) -> Option<(Move, Option<SearchResult<Move>>)> {
        let start = Instant::now();
        let settings = settings(think.level);
        let mut rng = Rng::new(think.seed ^ 0x7175_6F72_6964);
        let decision = triage(self)?.decide(settings.blunder, &mut rng);
        let multi = self.active_sides().count() >= 3;
        decision.then_search(|candidates| {
            let time = |start: Instant| {
                think
                    .budget
                    .mul_f64(settings.time_share)
                    .saturating_sub(start.elapsed())
            };
            // The Master's ways of reading a table of three pawns or more.
            let reads = multi && settings.rollouts;
            let policy_fits = reads && rollout::foreseen(self);
            let table = (reads && !policy_fits)
                .then(|| model::read(self, think.budget, time(start) / 2, think.cancel))
                .flatten();
            if let Some(table) = table {
                let roots = root_moves(self, &candidates, settings.walls);
                if let Some(result) = model::choose(
                    self,
                    &table,
                    &roots,
                    think.budget,
                    time(start),
                    think.cancel,
                ) {
                    return (result.best, result);
                }
            }
            if reads && (policy_fits || self.active_sides().count() >= rollout::ALWAYS) {
                let roots = root_moves(self, &candidates, settings.walls);
                let result = rollout::choose(
                    self,
                    &roots,
                    time(start),
                    think.cancel,
                    &rollout::POLICY,
                    rng.next_u64(),
                );
                return (result.best, result);
            }
            let limits = Limits {
                max_depth: if multi {
                    settings.max_depth.min(MULTI_MAX_DEPTH)
                } else {
                    settings.max_depth
                },
                // The triage's time counts too.
                time: time(start),
                walls: settings.walls,
                wall_value: settings.wall_value,
                noise: settings.noise,
                seed: rng.next_u64(),
                tt_bits: settings.tt_bits,
            };
            let roots = root_moves(self, &candidates, settings.walls);
            let result = Searcher::new(self, &limits, think.cancel).run(&roots);
            (result.best, result)
        })
    }
}

/// Sorts the legal moves of the side to move ([`Triage`]); for Quoridor a
/// move is safe when afterwards no other pawn can reach its goal with its
/// next move, the pawns between standing still. With three pawns or more
/// one move may not stop every threat (one wall cannot hold two pawns a
/// step from their goals): then the safe moves are those that hold off
/// the threats longest in turn order — never one that lets the very next
/// pawn win when another move stops it, since the pawns after it may
/// still be stopped by the others (a pawn that could win at once and is
/// not stopped ends the game before anyone else moves). `None` once the
/// game is over.
pub fn triage(game: &Quoridor) -> Option<Triage<Move>> {
    let me = game.to_move()?;
    let legal = game.legal_moves();
    let goal = game.goals[me.index()];
    if let Some(&win) = legal
        .iter()
        .find(|m| matches!(m, Move::Pawn(c) if goal.contains(c.index())))
    {
        return Some(Triage {
            win: Some(win),
            safe: Vec::new(),
        });
    }
    // One move covers at most two steps of a way (a jump or a diagonal
    // passes next to the jumped pawn), and no move of ours shortens
    // another pawn's way: only pawns two steps from their goal or nearer
    // can threaten.
    // In the order they move after us.
    let n = game.sides;
    let near: Vec<Side> = (1..n)
        .map(|k| Side((me.0 + k) % n))
        .filter(|&s| game.pawn(s).is_some() && game.distance(s).is_some_and(|d| d <= 2))
        .collect();
    if near.is_empty() {
        return Some(Triage {
            win: None,
            safe: legal,
        });
    }
    // Each move with how far in turn order the first pawn that could
    // then win stands (`near.len()`: none could).
    let held: Vec<(Move, usize)> = legal
        .iter()
        .map(|&mv| {
            let mut after = game.clone();
            after.make(mv);
            (mv, first_threat(&after, &near).unwrap_or(near.len()))
        })
        .collect();
    let best = held.iter().map(|&(_, k)| k).max().unwrap_or(near.len());
    Some(Triage {
        win: None,
        safe: held
            .into_iter()
            .filter(|&(_, k)| k == best)
            .map(|(mv, _)| mv)
            .collect(),
    })
}

/// The first of `near` (in turn order) whose pawn can step or jump onto
/// its goal from where the pawns stand.
fn first_threat(g: &Quoridor, near: &[Side]) -> Option<usize> {
    near.iter().position(|&s| {
        let c = g.pawn(s).expect("active");
        (g.board.pawn_targets(c, g.occupied) & g.goals[s.index()]).any()
    })
}

/// The moves the search starts from: among `safe`, the pawn moves, the
/// walls the search itself would try, and a pass for a pawn that cannot
/// move; all of `safe` when none of those is safe (say, only an odd wall
/// or a pass stops an opponent's win).
fn root_moves(game: &Quoridor, safe: &[Move], walls: usize) -> Vec<Move> {
    let me = Side(game.to_move);
    let mut tried = Vec::new();
    eval::pawn_moves(game, me, &mut tried);
    if tried.is_empty() {
        tried.push(Move::Pass);
    }
    let others: Vec<Side> = game.active_sides().filter(|&s| s != me).collect();
    eval::wall_moves(game, me, &others, walls, &mut tried);
    let roots: Vec<Move> = tried.into_iter().filter(|m| safe.contains(m)).collect();
    if roots.is_empty() {
        safe.to_vec()
    } else {
        roots
    }
}

#[cfg(test)]
mod tests;
