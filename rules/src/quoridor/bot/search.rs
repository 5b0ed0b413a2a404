//! Best-reply search (Schadd & Winands, "Best Reply Search for Multiplayer
//! Games", 2011): an alpha-beta search that stays sound for any number of
//! pawns.
//!
//! The root side maximises. Between two of its turns, instead of every
//! opponent moving in turn (a tree that grows with the number of players
//! and lets opponents ignore one another), *one* opponent moves: the one
//! whose best move hurts the root side most, the others standing still.
//! Every opponent's moves are tried at that one minimising layer, so the
//! search looks as deep into the root side's own future with eight pawns as
//! with two; with two pawns it is ordinary alpha-beta minimax.
//!
//! Moves at every node: the pawn moves (nearest the goal first) and the
//! few walls that lengthen an opponent's shortest way the most
//! ([`super::eval::wall_moves`]); a pass only for a pawn with no pawn move.
//! A transposition table (`tt.rs`) keeps what each position was found
//! worth and its best move, tried first at the next iteration.
//! The search runs on one copy of the game with make/unmake, polls the
//! clock and the cancel flag, and returns the best move of the deepest
//! iteration searched (an iteration cut short still counts for the moves
//! it finished, searched best first).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::eval::{evaluate, pawn_moves, wall_moves};
use super::score::{INF, WIN, WIN_BOUND};
use super::tt::{self, Bound, Table};
use crate::deepening::{iterate, Root, SearchResult};
use crate::game::{Outcome, Side};
use crate::quoridor::{Move, Quoridor};

/// What one search may do.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest iteration, in layers (the root side's turns and the
    /// opponents' best replies each count one).
    pub max_depth: u32,
    pub time: Duration,
    /// Walls tried per node, best first.
    pub walls: usize,
    /// Worth of a wall in hand, in hundredths of a step.
    pub wall_value: i32,
    /// Half-width of the noise added to each root move's score.
    pub noise: i32,
    pub seed: u64,
    /// The transposition table holds `2^tt_bits` positions.
    pub tt_bits: u32,
}

/// One search from one position.
pub struct Searcher<'a> {
    game: Quoridor,
    me: Side,
    limits: &'a Limits,
    cancel: &'a AtomicBool,
    start: Instant,
    nodes: u64,
    stopped: bool,
    table: Table,
}

impl<'a> Searcher<'a> {
    /// A search for the side to move in `game` (which must not be over).
    pub fn new(game: &Quoridor, limits: &'a Limits, cancel: &'a AtomicBool) -> Searcher<'a> {
        Searcher {
            game: game.clone(),
            me: Side(game.to_move),
            limits,
            cancel,
            start: Instant::now(),
            nodes: 0,
            stopped: false,
            table: Table::new(limits.tt_bits),
        }
    }

    /// Iterative deepening over `root_moves` (legal, at least one).
    pub fn run(&mut self, root_moves: &[Move]) -> SearchResult<Move> {
        let root = Root {
            max_depth: self.limits.max_depth,
            noise: self.limits.noise,
            seed: self.limits.seed,
            win_bound: WIN_BOUND,
        };
        let found = iterate(root_moves, &root, |&mv, depth, floor| {
            let undo = self.game.make(mv);
            let v = self.value(depth - 1, floor.max(-INF), INF, 1, false);
            self.game.unmake(mv, undo);
            (!self.stopped).then_some(v)
        });
        SearchResult {
            best: found.best,
            score: found.score,
            depth: found.depth,
            previous: found.previous,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
        }
    }

    fn out_of_time(&self) -> bool {
        self.cancel.load(Ordering::Relaxed) || self.start.elapsed() >= self.limits.time
    }

    /// The value of the position for the root side, `depth` layers deep;
    /// `mine` says whether the root side moves next (else an opponent's
    /// best reply).
    fn value(&mut self, depth: u32, mut alpha: i32, mut beta: i32, ply: i32, mine: bool) -> i32 {
        self.nodes += 1;
        // A node generates walls with path searches (microseconds), so the
        // clock is read at every one.
        if self.out_of_time() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if let Some(outcome) = &self.game.outcome {
            return match outcome {
                Outcome::Win { winner, .. } if *winner == self.me => WIN - ply,
                Outcome::Win { .. } => ply - WIN,
                _ => 0,
            };
        }
        if depth == 0 {
            return evaluate(&self.game, self.me, self.limits.wall_value);
        }
        let key = tt::key(&self.game, mine);
        let stored = self.table.probe(key);
        if let Some(e) = stored.filter(|e| e.depth >= depth) {
            let score = e.score(ply);
            match e.bound {
                Bound::Exact => return score,
                Bound::Lower if score >= beta => return score,
                Bound::Upper if score <= alpha => return score,
                _ => {}
            }
        }
        let window = (alpha, beta);
        let hint = stored.and_then(|e| e.best);
        let saved = self.game.to_move;
        let mut best = if mine { -INF } else { INF };
        let mut best_move = None;
        // The root side alone, or every opponent (the one of the stored
        // best move first).
        let mut movers: Vec<Side> = if mine {
            vec![self.me]
        } else {
            self.game.active_sides().filter(|&s| s != self.me).collect()
        };
        if let Some((side, _)) = hint {
            if let Some(i) = movers.iter().position(|s| s.0 == side) {
                movers[..=i].rotate_right(1);
            }
        }
        'movers: for side in movers {
            self.game.to_move = side.0;
            let mut moves = self.moves(side);
            if let Some((_, mv)) = hint.filter(|h| h.0 == side.0) {
                if let Some(i) = moves.iter().position(|&m| m == mv) {
                    moves[..=i].rotate_right(1);
                }
            }
            for mv in moves {
                let undo = self.game.make(mv);
                let v = self.value(depth - 1, alpha, beta, ply + 1, !mine);
                self.game.unmake(mv, undo);
                if self.stopped {
                    break 'movers;
                }
                if (mine && v > best) || (!mine && v < best) {
                    best = v;
                    best_move = Some((side.0, mv));
                }
                if mine {
                    alpha = alpha.max(v);
                } else {
                    beta = beta.min(v);
                }
                if alpha >= beta {
                    break 'movers;
                }
            }
        }
        self.game.to_move = saved;
        if !self.stopped {
            self.table.store(key, depth, best, window, ply, best_move);
        }
        best
    }

    /// The moves `side` (to move) tries: the pawn's best step, the walls
    /// that hurt its opponents most (the root side, for an opponent), the
    /// other pawn moves; a pass only when the pawn cannot move (allowed
    /// then unless it blocks someone and may place a wall).
    fn moves(&self, side: Side) -> Vec<Move> {
        let g = &self.game;
        let mut pawns = Vec::with_capacity(5);
        pawn_moves(g, side, &mut pawns);
        let targets: Vec<Side> = if side == self.me {
            g.active_sides().filter(|&s| s != side).collect()
        } else {
            vec![self.me]
        };
        let mut moves = Vec::with_capacity(pawns.len() + self.limits.walls);
        moves.extend(pawns.first().copied());
        wall_moves(g, side, &targets, self.limits.walls, &mut moves);
        moves.extend(pawns.iter().skip(1).copied());
        if pawns.is_empty() {
            if g.can_pass() {
                moves.push(Move::Pass);
            } else if moves.is_empty() {
                // Blocking, unable to move, and no wall of the usual kind
                // helps: any legal wall (one exists, or it could pass).
                moves.extend(g.legal_walls().first().map(|&w| Move::Wall(w)));
            }
        }
        moves
    }
}
