//! Opponents foreseen by our own search, for three pawns or more (issue 28).
//!
//! A room of several pawns often holds other computer players, and a
//! Professional's move is a pure function of the position: its best-reply
//! search has no noise, no random move and ends at depth 3 long before its
//! time. Where the Master sees that an opponent's moves of its last two
//! turns were the ones that search picks, and that every other opponent
//! played mostly as the play-outs' policy does (a person racing and
//! walling, a greedy player) ([`read`]), it no longer has to guess how they
//! treat one another (best-reply lets every opponent wall us; play-outs
//! assume the cheap policy for all). It plays each candidate and follows
//! the line: every opponent answers with the move foreseen for it (the
//! search's, or the policy's), we with our own depth-2 best-reply search's
//! move, for one round, then two, and so on while the time lasts; a line
//! is worth its end (a win, a loss) or our search's score of the position
//! we are left to move in ([`choose`]). Each position's foreseen move and
//! our verdict are kept, so the line of `r + 1` rounds costs one round more
//! than the line of `r`. Candidates are tried first in the order of a
//! one-ply look at the race, then best first; where the clock stops before
//! one candidate is scored, the caller's other methods decide.
//!
//! This is opponent-model search (Carmel & Markovitch, "Incorporating
//! Opponent Models into Adversary Search", 1996) with models that are
//! seen to hold or not used: where an opponent fits neither, the Master
//! keeps its other methods.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::super::options::MAX_PAWNS;
use super::eval::{evaluate, STEP};
use super::rollout::{foresight_by_side, policy, Habits, Policy, FORESIGHT_PLIES, POLICY};
use super::score::{from_node, INF, WIN, WIN_BOUND};
use super::search::{Limits, Searcher};
use super::tt;
use super::{root_moves, settings, triage};
use crate::deepening::{iterate, Root, SearchResult};
use crate::game::{Outcome, Side};
use crate::level::{Level, Think};
use crate::quoridor::{Move, Quoridor};
use crate::rng::Rng;
use crate::triage::Decision;

/// The level whose moves the model foresees.
const MODEL: Level = Level::Professional;

/// The opponents' latest moves the fit is judged on (two rounds): each
/// of them must be the model's for an opponent to count as foreseen by it.
const FIT_ROUNDS: usize = 2;

/// An opponent foreseen by the policy of the play-outs must have had at
/// least this many of its recent moves judged, and this share foreseen.
const POLICY_MIN: usize = 4;
const POLICY_SHARE: f64 = 0.8;

/// The depth of the Master's own search from the position it is left to
/// move in, in layers.
const LEAF_DEPTH: u32 = 2;

/// The move `MODEL` plays in `g` (not over) with `budget` a move, or `None`
/// when cancelled.
pub(super) fn foreseen_move(g: &Quoridor, budget: Duration, cancel: &AtomicBool) -> Option<Move> {
    let think = Think {
        level: MODEL,
        budget,
        cancel,
        seed: 0,
    };
    let (mv, _) = crate::level::Engine::analyse(g, &think)?;
    (!cancel.load(Ordering::Relaxed)).then_some(mv)
}

/// How the lines foresee one opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Foresee {
    /// By `MODEL`'s move: it played exactly that in each of its last
    /// [`FIT_ROUNDS`] turns.
    Search,
    /// By the play-outs' policy, which foresaw most of its recent moves.
    Policy,
}

/// The opponents at a table, each foreseen one way or another.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Table {
    pub(super) by_side: [Option<Foresee>; MAX_PAWNS],
    habits: Habits,
}

/// How the opponents of the side to move in `game` can be foreseen: a
/// table where at least one of them played exactly `MODEL`'s moves in its
/// last [`FIT_ROUNDS`] turns and every other one played mostly as the
/// play-outs' policy does; `None` otherwise, or where that cannot be
/// judged within `time`.
pub(super) fn read(
    game: &Quoridor,
    budget: Duration,
    time: Duration,
    cancel: &AtomicBool,
) -> Option<Table> {
    let start = Instant::now();
    let me = game.to_move;
    let mut by_side = [None; MAX_PAWNS];
    // The model's verdict on each opponent's latest turns.
    let mut judged = [0usize; MAX_PAWNS];
    let mut missed = [false; MAX_PAWNS];
    let opponents: Vec<usize> = game
        .active_sides()
        .filter(|s| s.0 != me)
        .map(|s| s.index())
        .collect();
    let mut g = game.clone();
    while opponents.iter().any(|&s| judged[s] < FIT_ROUNDS) {
        let Some((mv, undo)) = g.undo.pop() else {
            break;
        };
        g.unmake(mv, undo);
        let s = g.to_move as usize;
        if g.to_move == me || judged[s] >= FIT_ROUNDS || missed[s] {
            continue;
        }
        if start.elapsed() >= time {
            return None;
        }
        judged[s] += 1;
        if foreseen_move(&g, budget, cancel) != Some(mv) {
            missed[s] = true;
        }
    }
    for &s in &opponents {
        if judged[s] >= FIT_ROUNDS && !missed[s] {
            by_side[s] = Some(Foresee::Search);
        }
    }
    if by_side.iter().all(Option::is_none) {
        return None;
    }
    let habits = Habits::seen(game);
    if opponents.iter().any(|&s| by_side[s].is_none()) {
        let counts = foresight_by_side(game, &habits, FORESIGHT_PLIES);
        for &s in &opponents {
            let (agreed, seen) = counts[s];
            if by_side[s].is_none()
                && seen >= POLICY_MIN
                && agreed as f64 >= POLICY_SHARE * seen as f64
            {
                by_side[s] = Some(Foresee::Policy);
            }
        }
    }
    opponents
        .iter()
        .all(|&s| by_side[s].is_some())
        .then_some(Table { by_side, habits })
}

/// Picks among `candidates` (legal in `game`, at least one) by playing
/// each, the opponents answering as `MODEL` would and we by our own short
/// search, for one round, then two, and so on while `time` lasts
/// ([`iterate`]: a round cut short still counts for the candidates it
/// finished, tried best first), and searching the position we are left to
/// move in; `None` when not one candidate was scored.
pub(super) fn choose(
    game: &Quoridor,
    table: &Table,
    candidates: &[Move],
    budget: Duration,
    time: Duration,
    cancel: &AtomicBool,
) -> Option<SearchResult<Move>> {
    let start = Instant::now();
    let me = Side(game.to_move);
    let mut lines = Lines {
        game: game.clone(),
        me,
        budget,
        cancel,
        deadline: start + time,
        table,
        foreseen: HashMap::new(),
        ours: HashMap::new(),
        searched: 0,
    };
    // A first order: the race right after each candidate.
    let wall_value = settings(Level::Master).wall_value;
    let mut order: Vec<(i32, Move)> = candidates
        .iter()
        .map(|&mv| {
            let undo = lines.game.make(mv);
            let v = leaf_score(&lines.game, me, wall_value);
            lines.game.unmake(mv, undo);
            (v, mv)
        })
        .collect();
    order.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
    let ordered: Vec<Move> = order.into_iter().map(|(_, mv)| mv).collect();
    let root = Root {
        max_depth: MAX_ROUNDS,
        noise: 0,
        seed: 0,
        win_bound: WIN_BOUND,
    };
    let mut scored = 0u64;
    let found = iterate(&ordered, &root, |&mv, rounds, _| {
        let v = lines.value(mv, rounds)?;
        scored += 1;
        Some(v)
    });
    (scored > 0).then(|| SearchResult {
        best: found.best,
        score: found.score,
        depth: found.depth,
        previous: found.previous,
        nodes: lines.searched,
        elapsed: start.elapsed(),
    })
}

/// The play-outs' policy without its slack: what a policy-foreseen
/// opponent plays in a line.
const STRICT: Policy = Policy {
    slack: 0.0,
    ..POLICY
};

/// The most rounds a line is played for (a line also ends with the game).
const MAX_ROUNDS: u32 = 32;

/// The lines of one choice, with every position's foreseen move and our
/// own search's verdict kept: the line of `r + 1` rounds begins with the
/// line of `r`.
struct Lines<'a> {
    game: Quoridor,
    me: Side,
    budget: Duration,
    cancel: &'a AtomicBool,
    deadline: Instant,
    table: &'a Table,
    /// The opponent's foreseen move in a position.
    foreseen: HashMap<u64, Move>,
    /// Our search's score and move in a position.
    ours: HashMap<u64, (i32, Option<Move>)>,
    /// Searches run (the model's and ours).
    searched: u64,
}

impl Lines<'_> {
    fn stopped(&self) -> bool {
        self.cancel.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }

    /// `mv`'s worth for us: played, then the opponents answering as
    /// foreseen and we as our search says until we have moved `rounds`
    /// times in all, then our search's score of the position. The game is
    /// left as it was; `None` when the time is up.
    fn value(&mut self, mv: Move, rounds: u32) -> Option<i32> {
        let mut line = vec![(mv, self.game.make(mv))];
        let mut value = None;
        let mut ours_left = rounds - 1;
        loop {
            let plies = line.len() as i32;
            if self.game.outcome.is_some() {
                // Over: a win, a loss or a draw (no wall is worth anything).
                value = Some(from_node(leaf_score(&self.game, self.me, 0), plies));
                break;
            }
            if self.stopped() {
                break;
            }
            let key = position_key(&self.game);
            if self.game.to_move == self.me.0 {
                let Some((v, best)) = self.our_search(key) else {
                    break;
                };
                if let (Some(ours), 1..) = (best, ours_left) {
                    ours_left -= 1;
                    line.push((ours, self.game.make(ours)));
                    continue;
                }
                value = Some(from_node(v, plies));
                break;
            }
            let side = self.game.to_move as usize;
            let reply = match self.foreseen.get(&key) {
                Some(&reply) => reply,
                None if self.table.by_side[side] == Some(Foresee::Policy) => {
                    let reply = policy(&self.game, &STRICT, &self.table.habits, &mut Rng::new(key));
                    self.foreseen.insert(key, reply);
                    reply
                }
                None => {
                    self.searched += 1;
                    let Some(reply) = foreseen_move(&self.game, self.budget, self.cancel) else {
                        break;
                    };
                    self.foreseen.insert(key, reply);
                    reply
                }
            };
            line.push((reply, self.game.make(reply)));
        }
        while let Some((mv, undo)) = line.pop() {
            self.game.unmake(mv, undo);
        }
        value
    }

    /// Our best-reply search of [`LEAF_DEPTH`] layers from the position,
    /// us to move: its score and move (`None` when cancelled).
    fn our_search(&mut self, key: u64) -> Option<(i32, Option<Move>)> {
        if let Some(&found) = self.ours.get(&key) {
            return Some(found);
        }
        self.searched += 1;
        let g = &self.game;
        let master = settings(Level::Master);
        let found = match triage(g)?.decide(0.0, &mut Rng::new(0)) {
            Decision::Over => (leaf_score(g, self.me, master.wall_value), None),
            Decision::Play(mv) => (forced_value(g, mv, master.wall_value), Some(mv)),
            Decision::Search(candidates) => {
                let limits = Limits {
                    max_depth: LEAF_DEPTH,
                    time: self.deadline.saturating_duration_since(Instant::now()),
                    walls: master.walls,
                    wall_value: master.wall_value,
                    noise: 0,
                    seed: 0,
                    tt_bits: 12,
                };
                let roots = root_moves(g, &candidates, master.walls);
                let found = Searcher::new(g, &limits, self.cancel).run(&roots);
                if found.depth < LEAF_DEPTH {
                    return None;
                }
                (found.score.clamp(-INF, INF), Some(found.best))
            }
        };
        self.ours.insert(key, found);
        Some(found)
    }
}

/// A position's key for the lines' memory: the pieces and walls, the side
/// to move and the ply (the move limit).
fn position_key(g: &Quoridor) -> u64 {
    tt::key(g, false)
        ^ (u64::from(g.to_move) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (g.ply as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

/// The race for `me` in `g`, a win or loss beyond any race.
fn leaf_score(g: &Quoridor, me: Side, wall_value: i32) -> i32 {
    match &g.outcome {
        Some(Outcome::Win { winner, .. }) if *winner == me => WIN,
        Some(Outcome::Win { .. }) => -WIN,
        Some(_) => 0,
        None => evaluate(g, me, wall_value),
    }
}

/// The worth of a forced move (a win at once, or the only safe one).
fn forced_value(g: &Quoridor, mv: Move, wall_value: i32) -> i32 {
    let me = Side(g.to_move);
    let mut after = g.clone();
    after.make(mv);
    match &after.outcome {
        Some(Outcome::Win { winner, .. }) if *winner == me => WIN - 1,
        _ => leaf_score(&after, me, wall_value) - STEP / 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::level::Engine;
    use crate::quoridor::Options;
    use crate::rng::Rng;

    /// The model's time a move in these tests: ample for its 3 layers
    /// (a few milliseconds when the machine is idle), so a search that
    /// stops at its depth gives the same move on a loaded machine too; a
    /// budget the search ran into would make the model's move, and all
    /// these tests, depend on the clock.
    const BUDGET: Duration = Duration::from_secs(3);

    /// A 3-pawn game of `plies` moves from the start, side 0 moving by
    /// `ours`, the others by `theirs`.
    fn played(
        plies: usize,
        ours: impl Fn(&Quoridor) -> Move,
        theirs: impl Fn(&Quoridor) -> Move,
    ) -> Quoridor {
        let options = Options {
            players: 3,
            ..Options::default()
        };
        let mut g = Quoridor::new(&options).unwrap();
        for _ in 0..plies {
            assert!(g.outcome().is_none());
            let mv = if g.to_move == 0 { ours(&g) } else { theirs(&g) };
            g.play(&mv).unwrap();
        }
        g
    }

    fn is_read(g: &Quoridor, budget: Duration, time: Duration, cancel: &AtomicBool) -> bool {
        read(g, budget, time, cancel).is_some()
    }

    fn professional(g: &Quoridor) -> Move {
        foreseen_move(g, BUDGET, &AtomicBool::new(false)).unwrap()
    }

    /// A pawn that steps along a shortest way, never walls.
    fn racer(g: &Quoridor) -> Move {
        let mut moves = Vec::new();
        super::super::eval::pawn_moves(g, Side(g.to_move), &mut moves);
        moves[0]
    }

    #[test]
    fn the_model_foresees_professionals_and_not_other_players() {
        let cancel = AtomicBool::new(false);
        let long = Duration::from_secs(60);
        let pros = played(12, racer, professional);
        assert_eq!(pros.to_move, 0);
        let table = read(&pros, BUDGET, long, &cancel).unwrap();
        assert_eq!(
            table.by_side[..3],
            [None, Some(Foresee::Search), Some(Foresee::Search)]
        );
        // One opponent's move that is not the Professional's: no fit.
        let seed = std::cell::Cell::new(0u64);
        let mixed = played(12, racer, |g| {
            if g.to_move == 2 && g.ply == 11 {
                let legal = g.legal_moves();
                let pro = professional(g);
                let mut rng = Rng::new(seed.get());
                seed.set(seed.get() + 1);
                loop {
                    let mv = legal[rng.below(legal.len())];
                    if mv != pro {
                        return mv;
                    }
                }
            }
            professional(g)
        });
        assert!(!is_read(&mixed, BUDGET, long, &cancel));
        // Players who move at random are not Professionals.
        let rng = std::cell::RefCell::new(Rng::new(4));
        let random = played(12, racer, |g| {
            let legal = g.legal_moves();
            legal[rng.borrow_mut().below(legal.len())]
        });
        assert!(!is_read(&random, BUDGET, long, &cancel));
        // Too little seen, or no time to judge: no.
        assert!(!is_read(
            &played(3, racer, professional),
            BUDGET,
            long,
            &cancel
        ));
        assert!(!is_read(&pros, BUDGET, Duration::ZERO, &cancel));
    }

    #[test]
    fn the_master_plays_against_foreseen_professionals_by_their_replies() {
        let g = played(12, racer, professional);
        let cancel = AtomicBool::new(false);
        let roots = g.legal_moves();
        // Three rounds for every candidate: the time is ample.
        let lines = |g: &Quoridor, table| Lines {
            game: g.clone(),
            me: Side(0),
            budget: BUDGET,
            cancel: &cancel,
            deadline: Instant::now() + Duration::from_secs(600),
            table,
            foreseen: HashMap::new(),
            ours: HashMap::new(),
            searched: 0,
        };
        let table = read(&g, BUDGET, Duration::from_secs(60), &cancel).unwrap();
        let mut memo = lines(&g, &table);
        let one: Vec<i32> = roots.iter().map(|&mv| memo.value(mv, 1).unwrap()).collect();
        assert_eq!(memo.game, g);
        // A line of one round: the two opponents' foreseen replies, then
        // our search's score of the position.
        let mv = roots[0];
        let mut after = g.clone();
        after.play(&mv).unwrap();
        for _ in 0..2 {
            let reply = professional(&after);
            after.play(&reply).unwrap();
        }
        assert_eq!(after.to_move, 0);
        let fresh = lines(&after, &table)
            .our_search(position_key(&after))
            .unwrap();
        assert_eq!(one[0], fresh.0);
        // A second round starts with the first: the same value again
        // from the memory, and a deeper one differs somewhere.
        let searched = memo.searched;
        assert_eq!(memo.value(mv, 1), Some(one[0]));
        assert_eq!(memo.searched, searched);
        let two: Vec<i32> = roots.iter().map(|&mv| memo.value(mv, 2).unwrap()).collect();
        assert!(memo.searched > searched);
        assert_ne!(one, two);
        // Memory does not change a value: a fresh memory gives the same.
        assert_eq!(lines(&g, &table).value(roots[3], 2), Some(two[3]));

        // Through the engine: the Master takes this path. Here its lines
        // find a win under the model within a few rounds, which ends the
        // deepening, so the choice does not depend on the clock.
        let safe = match triage(&g).unwrap().decide(0.0, &mut Rng::new(0)) {
            Decision::Search(safe) => safe,
            other => panic!("{other:?}"),
        };
        let walls = settings(Level::Master).walls;
        let roots = root_moves(&g, &safe, walls);
        let long = Duration::from_secs(600);
        let alone = choose(&g, &table, &roots, BUDGET, long, &cancel).unwrap();
        assert!(alone.score >= WIN_BOUND, "{alone:?}");
        let think = Think {
            level: Level::Master,
            budget: Duration::from_secs(60),
            cancel: &cancel,
            seed: 1,
        };
        let (mv, found) = g.analyse(&think).unwrap();
        let found = found.unwrap();
        assert_eq!(
            (mv, found.score, found.depth),
            (alone.best, alone.score, alone.depth)
        );
    }

    #[test]
    fn a_table_of_a_professional_and_a_policy_player_is_read_side_by_side() {
        let cancel = AtomicBool::new(false);
        let long = Duration::from_secs(60);
        let by_policy = |g: &Quoridor| policy(g, &STRICT, &Habits::seen(g), &mut Rng::new(1));
        let g = played(21, racer, |g| {
            if g.to_move == 1 {
                professional(g)
            } else {
                by_policy(g)
            }
        });
        let table = read(&g, BUDGET, long, &cancel).unwrap();
        assert_eq!(
            table.by_side[..3],
            [None, Some(Foresee::Search), Some(Foresee::Policy)]
        );
        // In a line, side 2 answers as the policy, side 1 as the search.
        let mut lines = Lines {
            game: g.clone(),
            me: Side(0),
            budget: BUDGET,
            cancel: &cancel,
            deadline: Instant::now() + long,
            table: &table,
            foreseen: HashMap::new(),
            ours: HashMap::new(),
            searched: 0,
        };
        // A move after which the next pawn cannot win at once.
        let mv = triage(&g).unwrap().safe[0];
        let v = lines.value(mv, 1).unwrap();
        let mut after = g.clone();
        after.play(&mv).unwrap();
        let reply = professional(&after);
        after.play(&reply).unwrap();
        let reply = policy(
            &after,
            &STRICT,
            &table.habits,
            &mut Rng::new(position_key(&after)),
        );
        after.play(&reply).unwrap();
        assert_eq!(lines.foreseen.len(), 2);
        let mut fresh = Lines {
            game: after.clone(),
            ours: HashMap::new(),
            ..lines
        };
        assert_eq!(fresh.our_search(position_key(&after)).unwrap().0, v);
        // A random player beside the Professional: not foreseen at all.
        let rng = std::cell::RefCell::new(Rng::new(4));
        let random = played(15, racer, |g| {
            if g.to_move == 1 {
                professional(g)
            } else {
                let legal = g.legal_moves();
                legal[rng.borrow_mut().below(legal.len())]
            }
        });
        assert!(!is_read(&random, BUDGET, long, &cancel));
    }

    #[test]
    fn a_cancelled_choice_scores_nothing() {
        let g = played(12, racer, professional);
        let cancel = AtomicBool::new(true);
        let roots = g.legal_moves();
        let table = read(&g, BUDGET, Duration::from_secs(60), &AtomicBool::new(false)).unwrap();
        assert!(choose(&g, &table, &roots, BUDGET, Duration::from_secs(60), &cancel).is_none());
        assert!(!is_read(&g, BUDGET, Duration::from_secs(60), &cancel));
    }
}
