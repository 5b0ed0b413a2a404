//! Iterative-deepening principal-variation search (negamax alpha-beta)
//! with a transposition table, move ordering (TT move, captures by
//! MVV-LVA, killers, history), null-move pruning, late-move reductions and
//! a quiescence search over captures and den defence.
//!
//! One [`Searcher`] is one search on the calling thread: it owns its
//! tables, reads the clock and the cancel flag every 1024 nodes, and shares
//! nothing, so a server can run as many as it has cores.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::jungle::{
    Color, History, Jungle, Move, MoveList, Position, Role, Square, NO_CAPTURE_LIMIT,
    REPETITION_LIMIT,
};

use super::eval::{Eval, EvalParams, MATERIAL};
use super::tt::{Bound, Tt};

/// Larger than any score.
pub const INF: i32 = 32_000;
/// The score of a win at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses, not evaluations.
pub const WIN_BOUND: i32 = WIN - 1000;
const MAX_PLY: usize = 100;

/// How far and how long to search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest iteration (plies).
    pub max_depth: u32,
    /// Time after which the search stops (the best move of the last
    /// finished iteration is played).
    pub time: Duration,
    /// Half-width of the evaluation noise (0 for none).
    pub noise: i32,
    /// What a draw is worth to the searching side, negated (a positive
    /// contempt avoids draws).
    pub contempt: i32,
    /// The transposition table holds `2^tt_bits` entries of 16 bytes.
    pub tt_bits: u32,
    pub seed: u64,
    /// Null-move pruning on (for experiments; on at every level).
    pub null_move: bool,
    /// Late-move reductions on (for experiments; on at every level).
    pub reductions: bool,
    /// The evaluation's weights.
    pub eval: EvalParams,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 64,
            time: Duration::from_secs(2),
            noise: 0,
            contempt: 0,
            tt_bits: 18,
            seed: 0,
            null_move: true,
            reductions: true,
            eval: EvalParams::default(),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    /// Score of `best` for the side to move.
    pub score: i32,
    /// Last fully searched depth.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The entry a null move leaves in the history: from a1 to a1, which no
/// real move is, so the shuttle limit never matches it.
const NULL_MOVE: Move = Move::new(Role::Rat, Square::at(0), Square::at(0), false);

/// One search's state.
pub struct Searcher<'a> {
    pos: Position,
    hist: History,
    eval: Eval,
    tt: Tt,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: Box<[[[i32; 63]; 63]; 2]>,
    nodes: u64,
    start: Instant,
    deadline: Instant,
    cancel: &'a AtomicBool,
    stopped: bool,
    root_color: Color,
    contempt: i32,
    null_move: bool,
    reductions: bool,
}

impl<'a> Searcher<'a> {
    pub fn new(game: &Jungle, limits: &Limits, cancel: &'a AtomicBool) -> Searcher<'a> {
        let start = Instant::now();
        Searcher {
            pos: game.position().clone(),
            hist: game.history().clone(),
            eval: Eval::new(&limits.eval, limits.noise, limits.seed),
            tt: Tt::new(limits.tt_bits),
            killers: [[None; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 63]; 63]; 2]),
            nodes: 0,
            start,
            deadline: start + limits.time,
            cancel,
            stopped: false,
            root_color: game.position().turn(),
            contempt: limits.contempt,
            null_move: limits.null_move,
            reductions: limits.reductions,
        }
    }

    /// Searches `root_moves` (a subset of the legal moves, in preference
    /// order) with iterative deepening until `limits` or the cancel flag
    /// stop it.
    pub fn run(&mut self, root_moves: &[Move], max_depth: u32) -> SearchResult {
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        let mut order: Vec<Move> = root_moves.to_vec();
        if !order.is_empty() {
            let mut prev_score: i32 = 0;
            for depth in 1..=max_depth.min(MAX_PLY as u32 - 4) {
                // Aspiration window around the last score.
                let (mut alpha, mut beta) = if depth >= 4 && prev_score.abs() < WIN_BOUND {
                    (prev_score - 60, prev_score + 60)
                } else {
                    (-INF, INF)
                };
                let (score, best) = loop {
                    let (score, best) = self.root(&mut order, depth as i32, alpha, beta);
                    if self.stopped {
                        break (score, best);
                    }
                    if score <= alpha {
                        alpha = -INF;
                    } else if score >= beta {
                        beta = INF;
                    } else {
                        break (score, best);
                    }
                };
                if let Some(best) = best {
                    // Even a cut-short iteration searched its best move
                    // first and only replaced it by a better one.
                    result.best = Some(best);
                    result.score = score;
                }
                if self.stopped {
                    break;
                }
                result.depth = depth;
                prev_score = score;
                if score.abs() >= WIN_BOUND {
                    break; // a forced win or loss is found: no need to look deeper
                }
                // Another iteration costs several times this one: do not
                // start it if it cannot finish.
                if self.start.elapsed() * 2 > self.deadline - self.start {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.start.elapsed();
        result
    }

    /// One root iteration; moves `order` so the best comes first. Returns
    /// the best score and move (`None` if stopped before any move was
    /// searched).
    fn root(
        &mut self,
        order: &mut [Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<Move>) {
        let original_alpha = alpha;
        let mut best = None;
        let mut best_score = -INF;
        let mut best_index = 0;
        let enemy_den = self.pos.turn().other().den();
        for (i, &mv) in order.iter().enumerate() {
            self.make(mv);
            let mut score;
            if mv.to == enemy_den {
                // Deeper nodes never make a den entry (they score it before
                // moving), the root must.
                score = WIN - 1;
            } else if i == 0 {
                score = -self.search(depth - 1, 1, -beta, -alpha);
            } else {
                score = -self.search(depth - 1, 1, -alpha - 1, -alpha);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.search(depth - 1, 1, -beta, -alpha);
                }
            }
            self.unmake(mv);
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best = Some(mv);
                best_index = i;
                if score > alpha {
                    alpha = score;
                }
                if score >= beta {
                    break;
                }
            }
        }
        if best.is_some() {
            order[..=best_index].rotate_right(1);
        }
        // A score at or below alpha is only a bound: no move is known best.
        if best_score <= original_alpha {
            best = None;
        }
        (best_score, best)
    }

    #[inline]
    fn make(&mut self, mv: Move) {
        let before = self.pos.hash();
        let captured = self.pos.make(mv);
        self.hist.push(mv, captured, before);
    }

    #[inline]
    fn unmake(&mut self, mv: Move) {
        let entry = self.hist.pop().expect("a move to take back");
        self.pos.unmake(mv, entry.captured);
    }

    #[inline]
    fn check_time(&mut self) -> bool {
        if self.nodes & 1023 == 0
            && (Instant::now() >= self.deadline || self.cancel.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn draw_score(&self) -> i32 {
        if self.pos.turn() == self.root_color {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// The side to move can step into the enemy den now.
    #[inline]
    fn can_enter_den(&self) -> bool {
        let us = self.pos.turn();
        (Position::neighbours(us.other().den()) & self.pos.board().by_color(us)).any()
    }

    /// Legal moves with the shuttle limit applied.
    #[inline]
    fn legal(&self, out: &mut MoveList, tactical: bool) {
        if tactical {
            self.pos.generate_tactical(out);
        } else {
            self.pos.generate(out);
        }
        if let Some(ban) = self.hist.shuttle_ban() {
            out.retain(|m| !ban.same_path(*m));
        }
    }

    fn search(&mut self, mut depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if self.check_time() {
            return 0;
        }
        self.nodes += 1;
        if self.can_enter_den() {
            return WIN - ply as i32 - 1;
        }
        // The real rule (threefold), not the usual "twofold is a draw"
        // shortcut: repeating feeds the shuttle limit, which can take away
        // the very move that would repeat again.
        if self.hist.no_capture() >= NO_CAPTURE_LIMIT
            || self.hist.repetitions(self.pos.hash()) >= REPETITION_LIMIT
        {
            return self.draw_score();
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(&self.pos);
        }
        let us = self.pos.turn();
        let in_danger =
            (Position::neighbours(us.den()) & self.pos.board().by_color(us.other())).any();
        if in_danger {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(ply, alpha, beta, 0);
        }
        let pv_node = beta - alpha > 1;
        // The shuttle limit makes the legal moves depend on the path: a
        // banned move is part of the table key.
        let hash = match self.hist.shuttle_ban() {
            None => self.pos.hash(),
            Some(ban) => {
                self.pos.hash()
                    ^ crate::rng::mix(
                        0x5348_5554 ^ (ban.from.index() as u64 * 64) ^ ban.to.index() as u64,
                    )
            }
        };
        let hit = self.tt.probe(hash);
        if let Some(hit) = hit {
            if !pv_node && hit.depth >= depth {
                let score = from_tt(hit.score, ply);
                let usable = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return score;
                }
            }
        }

        // Null move: if passing still fails high, a real move will too.
        if self.null_move
            && !pv_node
            && !in_danger
            && depth >= 3
            && beta.abs() < WIN_BOUND
            && self.pos.board().by_color(us).count() >= 3
            && self.hist.last().is_some_and(|e| e.mv != NULL_MOVE)
            && self.eval.evaluate(&self.pos) >= beta
        {
            // Never straight into the quiescence search, which cannot see
            // a den attack two moves away.
            let r = (if depth >= 6 { 3 } else { 2 }).min(depth - 2);
            let before = self.pos.hash();
            self.pos.toggle_turn();
            self.hist.push(NULL_MOVE, None, before);
            let score = -self.search(depth - 1 - r, ply + 1, -beta, -beta + 1);
            self.hist.pop();
            self.pos.toggle_turn();
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return beta;
            }
        }

        let mut moves = MoveList::new();
        self.legal(&mut moves, false);
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }
        let tt_move = hit.and_then(|h| h.mv);
        let mut keys = [0i32; crate::jungle::MAX_MOVES];
        for (i, m) in moves.iter().enumerate() {
            keys[i] = self.order_key(*m, ply, tt_move);
        }

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..moves.len() {
            let mv = next_best(&mut moves, &mut keys, i);
            let quiet = !mv.capture;
            self.make(mv);
            let mut score;
            if i == 0 {
                score = -self.search(depth - 1, ply + 1, -beta, -alpha);
            } else {
                let reduce = if self.reductions
                    && depth >= 3
                    && i >= 3
                    && quiet
                    && !in_danger
                    && keys[i] < KILLER_KEY
                {
                    if i >= 8 && depth >= 5 {
                        2
                    } else {
                        1
                    }
                } else {
                    0
                };
                score = -self.search(depth - 1 - reduce, ply + 1, -alpha - 1, -alpha);
                if score > alpha && reduce > 0 && !self.stopped {
                    score = -self.search(depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.search(depth - 1, ply + 1, -beta, -alpha);
                }
            }
            self.unmake(mv);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if quiet {
                            let killers = &mut self.killers[ply];
                            if killers[0] != Some(mv) {
                                killers[1] = killers[0];
                                killers[0] = Some(mv);
                            }
                            let h = &mut self.history[us.index()][mv.from.index()][mv.to.index()];
                            *h = (*h + depth * depth).min(KILLER_KEY - 1);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(hash, best_move, to_tt(best, ply), depth, bound);
        best
    }

    fn order_key(&self, mv: Move, ply: usize, tt_move: Option<(Square, Square)>) -> i32 {
        if tt_move == Some((mv.from, mv.to)) {
            return 1 << 30;
        }
        if mv.capture {
            let victim = self.pos.board().piece_at(mv.to).expect("a victim").role;
            return CAPTURE_KEY + MATERIAL[victim.index()] * 16 - mv.role.rank() as i32;
        }
        let killers = &self.killers[ply];
        if killers[0] == Some(mv) {
            return KILLER_KEY + 2;
        }
        if killers[1] == Some(mv) {
            return KILLER_KEY + 1;
        }
        self.history[self.pos.turn().index()][mv.from.index()][mv.to.index()]
    }

    /// Captures only (and, when an enemy stands next to our den, the
    /// captures that remove it), until the position is quiet.
    fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32, qdepth: u32) -> i32 {
        if self.check_time() {
            return 0;
        }
        self.nodes += 1;
        if self.can_enter_den() {
            return WIN - ply as i32 - 1;
        }
        let us = self.pos.turn();
        let threats = Position::neighbours(us.den()) & self.pos.board().by_color(us.other());
        if ply >= MAX_PLY {
            return self.eval.evaluate(&self.pos);
        }
        let mut moves = MoveList::new();
        self.legal(&mut moves, true);
        let mut best;
        if threats.any() {
            // Only taking every intruder saves us; with two, we lose.
            moves.retain(|m| threats.contains(m.to));
            if threats.count() > 1 || moves.is_empty() {
                return -(WIN - ply as i32 - 2);
            }
            best = -INF;
        } else {
            best = self.eval.evaluate(&self.pos);
            if best >= beta {
                return best;
            }
            if best > alpha {
                alpha = best;
            }
            if qdepth >= 12 {
                return best;
            }
        }
        let mut keys = [0i32; crate::jungle::MAX_MOVES];
        for (i, m) in moves.iter().enumerate() {
            let victim = self
                .pos
                .board()
                .piece_at(m.to)
                .map_or(0, |p| MATERIAL[p.role.index()]);
            keys[i] = victim * 16 - m.role.rank() as i32;
        }
        for i in 0..moves.len() {
            let mv = next_best(&mut moves, &mut keys, i);
            self.make(mv);
            let score = -self.quiesce(ply + 1, -beta, -alpha, qdepth + 1);
            self.unmake(mv);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// One step of a selection sort: brings the move with the highest key
/// from `i` on to `i` (its key with it) and returns it, so the moves are
/// tried best first without sorting the ones a cutoff never reaches.
fn next_best(moves: &mut MoveList, keys: &mut [i32], i: usize) -> Move {
    let mut k = i;
    for j in i + 1..moves.len() {
        if keys[j] > keys[k] {
            k = j;
        }
    }
    moves.swap(i, k);
    keys.swap(i, k);
    moves[i]
}

const CAPTURE_KEY: i32 = 1 << 26;
const KILLER_KEY: i32 = 1 << 24;

/// Win scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}
