//! Monte Carlo over the race, for three pawns or more (issue 28).
//!
//! A tree search of several opponents has to guess how each of them
//! treats the others, and both guesses tried (best-reply: every opponent
//! against us; max-n: every pawn for itself by one race score) lost to
//! plain players who race and wall the pawn after them (BENCHMARKS.md).
//! So the Master plays each of its candidate moves out to the end of the
//! game many times, every pawn (ours included) following one cheap policy
//! — the common sense of a free-for-all, which its opponents follow more
//! or less:
//!
//! - reach the goal when a move does it;
//! - otherwise step along a shortest way, unless the step leaves the next
//!   pawn in turn order a move onto its goal (then wall that pawn), or
//!   the pawn it walls is nearer its goal than ours — then wall that pawn (the wall across its shortest
//!   ways that lengthens its way most and leaves it no move onto its
//!   goal), if a wall does any good;
//! - ties broken at random, and now and then ([`Policy::slack`]) a step
//!   where the policy would wall, so that the play-outs differ.
//!
//! "The pawn after it" is the default; a pawn that has placed walls is
//! taken to wall whom it walled most ([`Habits`]). The play-outs are only
//! as good as that model, so they are used only where it has foreseen at
//! least 80 % of the opponents' recent moves ([`foreseen`]); elsewhere
//! (say, against our own tree search, whose moves it foresees 30-60 % of
//! the time) the Master keeps its tree search, unless there are
//! [`ALWAYS`] pawns or more.
//!
//! A candidate's worth is the share of its play-outs our pawn wins (a
//! draw by the move limit counts a half). The budget is spread by
//! sequential halving (Karnin, Koren & Somekh, "Almost Optimal
//! Exploration in Multi-Armed Bandits", 2013): equal play-outs for all,
//! then the better half again, and so on, each round an equal share of
//! the time left.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::super::bitboard::Bitboard;
use super::super::cell::Cell;
use super::super::moves::Move;
use super::super::options::MAX_PAWNS;
use super::super::position::Quoridor;
use super::super::wall::{Orientation, Wall};
use super::eval::{distances, slots_across, STEP};
use crate::deepening::SearchResult;
use crate::game::{Outcome, Side};
use crate::rng::Rng;

/// The play-out policy's knobs.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    /// Chance that a pawn steps where the policy would wall.
    pub slack: f64,
    /// Plies a play-out may last before it counts as a loss (the move
    /// limit ends every game sooner on the boards there are).
    pub max_plies: u32,
}

/// The knobs the Master plays with.
pub const POLICY: Policy = Policy {
    slack: 0.1,
    max_plies: 2000,
};

/// The policy's move for the side to move in `g` (not over).
pub(super) fn policy(g: &Quoridor, knobs: &Policy, habits: &Habits, rng: &mut Rng) -> Move {
    let s = g.to_move as usize;
    let Some(from) = g.pawns[s] else {
        return Move::Pass;
    };
    let goal = g.goals[s];
    let targets = g.board.pawn_targets(from, g.occupied);
    if let Some(win) = (targets & goal).next() {
        return Move::Pawn(Cell::from_index(win));
    }
    // The step nearest the goal, ties at random.
    let mut nearest = Pick::new();
    for t in targets {
        let c = Cell::from_index(t);
        let d = g.board.distance(c, goal).unwrap_or(u32::MAX);
        nearest.offer(-i64::from(d), c, rng);
    }
    let step = nearest.item;
    let Some(next) = pawn_after(g, s, 1) else {
        return step.map_or(Move::Pass, Move::Pawn);
    };
    let step_is_safe = step.is_some_and(|c| {
        let mut occupied = g.occupied;
        occupied.remove(from.index());
        occupied.insert(c.index());
        (g.board
            .pawn_targets(g.pawns[next].expect("active"), occupied)
            & g.goals[next])
            .is_empty()
    });
    let own = g.board.distance(from, goal).unwrap_or(u32::MAX);
    // Whom to wall: the next pawn when our step would let it win, else
    // the pawn this one has been seen to wall; and whether it is ahead.
    let target = if step_is_safe {
        habits.target(g, s)
    } else {
        next
    };
    let their = g.pawns[target].expect("active");
    let their_goal = g.goals[target];
    let theirs = g.board.distance(their, their_goal).unwrap_or(u32::MAX);
    let ahead = theirs < own;
    if (!step_is_safe || ahead) && g.walls_left[s] > 0 && !rng.chance(knobs.slack) {
        if let Some(wall) = wall_on(g, their, their_goal, theirs, step_is_safe, rng) {
            return Move::Wall(wall);
        }
    }
    match step {
        Some(c) => Move::Pawn(c),
        None if g.can_pass() => Move::Pass,
        None => g
            .legal_walls()
            .first()
            .map_or(Move::Pass, |&w| Move::Wall(w)),
    }
}

/// The pawn `k` places after side `s` in turn order (`k` ≥ 1), or the
/// first on the board after that place; `None` if no other is on the
/// board.
fn pawn_after(g: &Quoridor, s: usize, k: usize) -> Option<usize> {
    let n = g.sides as usize;
    (k..n + k)
        .map(|j| (s + j) % n)
        .find(|&i| i != s && g.pawns[i].is_some())
}

/// The item offered with the highest key, ties broken uniformly at
/// random (reservoir sampling: the `t`-th tie replaces it with chance
/// 1/`t`).
struct Pick<T> {
    item: Option<T>,
    key: i64,
    ties: usize,
}

impl<T> Pick<T> {
    fn new() -> Pick<T> {
        Pick {
            item: None,
            key: i64::MIN,
            ties: 0,
        }
    }

    fn offer(&mut self, key: i64, item: T, rng: &mut Rng) {
        if key > self.key {
            self.key = key;
            self.item = Some(item);
            self.ties = 1;
        } else if key == self.key {
            self.ties += 1;
            if rng.below(self.ties) == 0 {
                self.item = Some(item);
            }
        }
    }
}

/// The wall across the shortest ways of the pawn on `their` that
/// lengthens its way most and leaves it no move onto `goal` (ties at
/// random), if one does some good: lengthens its way (`now` steps), or,
/// when our step is not safe (it would let that pawn win), merely stops
/// the win.
fn wall_on(
    g: &Quoridor,
    their: Cell,
    goal: Bitboard,
    now: u32,
    step_is_safe: bool,
    rng: &mut Rng,
) -> Option<Wall> {
    let legal = g.legal_walls_within(slots_across(&g.board, their, goal));
    let mut longest = Pick::new();
    for o in Orientation::BOTH {
        for slot in legal[o.index()] {
            let wall = Wall::new(Cell::from_index(slot), o);
            let mut board = g.board;
            board.place(wall);
            if (board.pawn_targets(their, g.occupied) & goal).any() {
                continue;
            }
            let d = board.distance(their, goal).unwrap_or(0);
            longest.offer(i64::from(d), wall, rng);
        }
    }
    // Its way after the best wall, if there is one that leaves no win.
    let after = longest.item.map(|_| longest.key);
    let helps = if step_is_safe {
        after.is_some_and(|d| d > i64::from(now))
    } else {
        after.is_some()
    };
    longest.item.filter(|_| helps)
}

/// Whom each pawn walls, as an offset in turn order (1: the pawn after
/// it), learnt from the walls placed so far in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Habits([u8; MAX_PAWNS]);

impl Habits {
    /// The habits of the pawns in `game`: each pawn's most frequent
    /// target among the walls it placed (the pawn whose way a wall
    /// lengthened most), the pawn after it until it has placed one.
    pub(super) fn seen(game: &Quoridor) -> Habits {
        let n = game.sides as usize;
        let mut counts = [[0u16; MAX_PAWNS]; MAX_PAWNS];
        let mut g = game.clone();
        let mut after = distances(&g);
        while let Some((mv, undo)) = g.undo.pop() {
            g.unmake(mv, undo);
            let before = distances(&g);
            let mover = g.to_move as usize;
            if matches!(mv, Move::Wall(_)) {
                let hit = most_hurt(&before, &after, mover, n);
                if let Some(k) = hit {
                    counts[mover][k] += 1;
                }
            }
            after = before;
        }
        let mut habits = [1u8; MAX_PAWNS];
        for (side, c) in counts.iter().enumerate().take(n) {
            let top = (1..n)
                .max_by_key(|&k| (c[k], std::cmp::Reverse(k)))
                .unwrap_or(1);
            if c[top] > 0 {
                habits[side] = top as u8;
            }
        }
        Habits(habits)
    }

    /// The pawn side `s` walls in `g`: the one at its habit's offset, or
    /// the next on the board after it.
    fn target(&self, g: &Quoridor, s: usize) -> usize {
        pawn_after(g, s, usize::from(self.0[s])).unwrap_or(s)
    }
}

/// How well the policy foresaw the opponents of the side to move in
/// `game` over its last `plies` moves: the share of their moves of the
/// kind it would have played (a step as short, or a wall on the same
/// pawn), and how many moves were judged.
pub(super) fn foresight(game: &Quoridor, habits: &Habits, plies: usize) -> (f64, usize) {
    let by_side = foresight_by_side(game, habits, plies);
    let agreed: usize = by_side.iter().map(|&(a, _)| a).sum();
    let judged: usize = by_side.iter().map(|&(_, j)| j).sum();
    let share = if judged == 0 {
        0.0
    } else {
        agreed as f64 / judged as f64
    };
    (share, judged)
}

/// [`foresight`] for each opponent apart: how many of its moves the
/// policy foresaw, and how many were judged.
pub(super) fn foresight_by_side(
    game: &Quoridor,
    habits: &Habits,
    plies: usize,
) -> [(usize, usize); MAX_PAWNS] {
    let me = game.to_move as usize;
    let knobs = Policy {
        slack: 0.0,
        ..POLICY
    };
    let mut rng = Rng::new(0);
    let mut g = game.clone();
    let mut counts = [(0, 0); MAX_PAWNS];
    let mut after = distances(&g);
    for _ in 0..plies {
        let Some((mv, undo)) = g.undo.pop() else {
            break;
        };
        g.unmake(mv, undo);
        let before = distances(&g);
        let mover = g.to_move as usize;
        if mover != me {
            let guess = policy(&g, &knobs, habits, &mut rng);
            let same = match (mv, guess) {
                (Move::Pawn(_), Move::Pawn(c)) => {
                    g.board.distance(c, g.goals[mover]) == after[mover]
                }
                (Move::Wall(_), Move::Wall(w)) => {
                    let mut guessed = g.clone();
                    guessed.board.place(w);
                    let hit = most_hurt(&before, &distances(&guessed), mover, g.sides as usize);
                    hit.is_some() && hit == most_hurt(&before, &after, mover, g.sides as usize)
                }
                (Move::Pass, Move::Pass) => true,
                _ => false,
            };
            counts[mover].1 += 1;
            if same {
                counts[mover].0 += 1;
            }
        }
        after = before;
    }
    counts
}

/// The offset in turn order from `mover` of the pawn whose way grew most
/// from `before` to `after` (the nearer in turn order between equals).
fn most_hurt(
    before: &[Option<u32>; MAX_PAWNS],
    after: &[Option<u32>; MAX_PAWNS],
    mover: usize,
    n: usize,
) -> Option<usize> {
    (1..n)
        .map(|k| (k, (mover + k) % n))
        .filter_map(|(k, i)| Some((after[i]?.checked_sub(before[i]?)?, k)))
        .filter(|&(gain, _)| gain > 0)
        .max_by_key(|&(gain, k)| (gain, std::cmp::Reverse(k)))
        .map(|(_, k)| k)
}

/// From this many pawns on, the Master plays out whatever the fit: its
/// tree search's three layers then see less than half a round, and
/// play-outs under a rough model did better against our own tree search
/// than the tree search itself (8 pawns: 15.2 % against 12.0 %; 6 pawns:
/// 17.8 % against 16.9 %; 400 games each, BENCHMARKS.md).
pub(super) const ALWAYS: usize = 5;

/// The opponents' moves [`foreseen`] judges the policy by (the last
/// rounds of up to eight pawns), the fewest it needs, and the share it
/// must have foreseen.
pub(super) const FORESIGHT_PLIES: usize = 48;
const FORESIGHT_MIN: usize = 4;
const FORESIGHT_SHARE: f64 = 0.8;

/// Whether the play-outs can be trusted in `game`: the policy foresaw at
/// least [`FORESIGHT_SHARE`] of the opponents' recent moves. Against
/// players who race and wall the pawn after them it foresees 80-100 % of
/// their moves; against our own tree search 30-60 % (BENCHMARKS.md), where
/// play-outs under the wrong model lose (a mismatched policy won 10 % of
/// the games the matched one won 90 % of).
pub(super) fn foreseen(game: &Quoridor) -> bool {
    let habits = Habits::seen(game);
    let (share, judged) = foresight(game, &habits, FORESIGHT_PLIES);
    judged >= FORESIGHT_MIN && share >= FORESIGHT_SHARE
}

/// Plays `g` out with the policy; what it was worth to `me` (a win 1, a
/// draw ½). `g` is left as it was.
fn play_out(g: &mut Quoridor, me: Side, knobs: &Policy, habits: &Habits, rng: &mut Rng) -> f64 {
    let mut played = Vec::with_capacity(256);
    while g.outcome.is_none() && played.len() < knobs.max_plies as usize {
        let mv = policy(g, knobs, habits, rng);
        let undo = g.make(mv);
        played.push((mv, undo));
    }
    let worth = match &g.outcome {
        Some(Outcome::Win { winner, .. }) if *winner == me => 1.0,
        Some(Outcome::Draw { .. }) => 0.5,
        _ => 0.0,
    };
    while let Some((mv, undo)) = played.pop() {
        g.unmake(mv, undo);
    }
    worth
}

/// Picks among `candidates` (legal in `game`, at least one) by play-outs
/// within `time`; the score is the winner's share of its play-outs above
/// a fair share, in the search's units (a step of the race per pawn's
/// share).
pub(super) fn choose(
    game: &Quoridor,
    candidates: &[Move],
    time: Duration,
    cancel: &AtomicBool,
    knobs: &Policy,
    seed: u64,
) -> SearchResult<Move> {
    let start = Instant::now();
    let me = Side(game.to_move);
    let mut g = game.clone();
    let mut rng = Rng::new(seed);
    let habits = Habits::seen(game);
    let n = candidates.len();
    let mut worth = vec![0.0f64; n];
    let mut runs = vec![0u32; n];
    let mut alive: Vec<usize> = (0..n).collect();
    let rounds = usize::BITS - (n.max(2) - 1).leading_zeros();
    let mut total = 0u64;
    let mut done = 0;
    let out_of_time = |start: Instant| cancel.load(Ordering::Relaxed) || start.elapsed() >= time;
    'rounds: for round in 0..rounds {
        let left = time.saturating_sub(start.elapsed());
        let until = start.elapsed() + left / (rounds - round);
        // Whole passes over the live candidates, at least one.
        loop {
            for &i in &alive {
                if out_of_time(start) {
                    break 'rounds;
                }
                let undo = g.make(candidates[i]);
                worth[i] += play_out(&mut g, me, knobs, &habits, &mut rng);
                g.unmake(candidates[i], undo);
                runs[i] += 1;
                total += 1;
            }
            if start.elapsed() >= until {
                break;
            }
        }
        done = round + 1;
        if alive.len() > 1 {
            alive.sort_by(|&a, &b| mean(&worth, &runs, b).total_cmp(&mean(&worth, &runs, a)));
            alive.truncate(alive.len().div_ceil(2));
        }
    }
    let best = alive
        .iter()
        .copied()
        .max_by(|&a, &b| {
            mean(&worth, &runs, a)
                .total_cmp(&mean(&worth, &runs, b))
                .then(runs[a].cmp(&runs[b]))
                .then(b.cmp(&a))
        })
        .unwrap_or(0);
    let pawns = game.active_sides().count().max(1) as f64;
    let share = mean(&worth, &runs, best) - 1.0 / pawns;
    SearchResult {
        best: candidates[best],
        score: (share * pawns * f64::from(STEP)) as i32,
        depth: done,
        previous: None,
        nodes: total,
        elapsed: start.elapsed(),
    }
}

/// Candidate `i`'s mean worth so far (0 before its first play-out).
fn mean(worth: &[f64], runs: &[u32], i: usize) -> f64 {
    if runs[i] == 0 {
        0.0
    } else {
        worth[i] / f64::from(runs[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::level::{Engine, Level, Think};
    use crate::quoridor::Options;

    fn game(players: u8, line: &str) -> Quoridor {
        let options = Options {
            players,
            ..Options::default()
        };
        crate::notation::after_line(Quoridor::new(&options).unwrap(), line)
    }

    const STRICT: Policy = Policy {
        slack: 0.0,
        ..POLICY
    };

    /// Issue 28's position: side 0 (d8) to move, side 1 (h4) a step from
    /// its goal.
    const ISSUE_28: &str =
        "e2 b5 e8 h5 e3 c5 e7 g5 e4 d5 e6 f5 e5 e4 d5 e6 e7 f4 d4 d6 e8 g4 d3 d8h d8 h4 d2 c6";

    #[test]
    fn the_policy_walls_the_next_pawn_a_move_from_its_goal() {
        let g = game(4, ISSUE_28);
        let habits = Habits::seen(&g);
        for seed in 0..8 {
            let mv = policy(&g, &STRICT, &habits, &mut Rng::new(seed));
            assert!(matches!(mv, Move::Wall(_)), "{mv}");
            let mut after = g.clone();
            after.play(&mv).unwrap();
            let side1 = after.pawn(Side(1)).unwrap();
            assert!(
                (after.board.pawn_targets(side1, after.occupied) & after.goals[1]).is_empty(),
                "{mv} leaves side 1 a win"
            );
        }
    }

    #[test]
    fn the_policy_steps_along_a_shortest_way_when_nobody_leads_it() {
        let g = game(4, "");
        let mv = policy(&g, &STRICT, &Habits::seen(&g), &mut Rng::new(1));
        assert_eq!(mv.to_string(), "e2");
    }

    #[test]
    fn habits_learn_whom_a_pawn_walls() {
        // Three pawns: side 1 (b5) walls side 0 (e3, the pawn before it)
        // with d3h; side 2 (f9) keeps its way.
        let g = game(3, "e2 b5 f9 e3 d3h");
        let habits = Habits::seen(&g);
        assert_eq!(habits.0[..3], [1, 2, 1]);
        assert_eq!(habits.target(&g, 1), 0);
        assert_eq!(habits.target(&g, 0), 1);
        // Nothing seen yet: the pawn after each.
        assert_eq!(Habits::seen(&game(3, "e2 b5")).0[..3], [1, 1, 1]);
    }

    /// A 4-pawn game of `plies` moves from the start: side 0 as `ours`
    /// plays, the others as `theirs`.
    fn played(plies: usize, theirs: impl Fn(&Quoridor) -> Move) -> Quoridor {
        let mut g = game(4, "");
        let mut rng = Rng::new(5);
        for _ in 0..plies {
            if g.outcome().is_some() {
                break;
            }
            let mv = if g.to_move == 0 {
                policy(&g, &STRICT, &Habits::seen(&g), &mut rng)
            } else {
                theirs(&g)
            };
            g.play(&mv).unwrap();
        }
        g
    }

    /// A 4-pawn game of `plies` moves, every pawn playing the policy.
    fn racers(plies: usize) -> Quoridor {
        let rng = std::cell::RefCell::new(Rng::new(9));
        played(plies, |g| {
            policy(g, &STRICT, &Habits::seen(g), &mut rng.borrow_mut())
        })
    }

    #[test]
    fn play_outs_are_trusted_against_players_they_foresee_and_not_against_a_search() {
        let racers = racers(40);
        assert_eq!(racers.to_move, 0);
        let (share, judged) = foresight(&racers, &Habits::seen(&racers), FORESIGHT_PLIES);
        assert!(judged >= 20 && share == 1.0, "{share} of {judged}");
        assert!(foreseen(&racers));

        let cancel = AtomicBool::new(false);
        let searchers = played(40, |g| {
            let think = Think {
                level: Level::Professional,
                budget: Duration::from_secs(5),
                cancel: &cancel,
                seed: 3,
            };
            g.choose_move(&think).unwrap()
        });
        assert_eq!(searchers.to_move, 0);
        let (share, judged) = foresight(&searchers, &Habits::seen(&searchers), FORESIGHT_PLIES);
        assert!(
            judged >= 20 && share < FORESIGHT_SHARE,
            "{share} of {judged}"
        );
        assert!(!foreseen(&searchers));
        // Too little seen: the tree search.
        assert!(!foreseen(&game(4, "e2 b5")));
    }

    #[test]
    fn the_master_plays_out_its_moves_against_players_it_foresees() {
        let g = racers(40);
        let cancel = AtomicBool::new(false);
        let think = Think {
            level: Level::Master,
            // Ample for a few play-outs on a loaded machine (a budget of
            // 100 ms once ran out first there).
            budget: Duration::from_secs(1),
            cancel: &cancel,
            seed: 1,
        };
        let (mv, found) = g.analyse(&think).unwrap();
        assert!(g.legal_moves().contains(&mv));
        let found = found.expect("a position with several safe moves");
        // Play-outs, not tree nodes: rounds of sequential halving.
        assert!(found.nodes >= 4 && found.depth >= 1, "{found:?}");
        // Within its budget, give or take a loaded machine's scheduling.
        assert!(found.elapsed < Duration::from_secs(3), "{found:?}");
    }

    #[test]
    fn a_cancelled_choice_answers_at_once_with_a_candidate() {
        let g = game(4, ISSUE_28);
        let candidates: Vec<Move> = g.legal_moves().into_iter().take(5).collect();
        let cancel = AtomicBool::new(true);
        let found = choose(
            &g,
            &candidates,
            Duration::from_secs(10),
            &cancel,
            &POLICY,
            1,
        );
        assert!(candidates.contains(&found.best));
        assert!(found.elapsed < Duration::from_secs(1));
        assert_eq!(found.nodes, 0);
    }

    #[test]
    fn play_outs_leave_the_game_as_it_was() {
        let mut g = game(4, ISSUE_28);
        let before = g.clone();
        let habits = Habits::seen(&g);
        let mut rng = Rng::new(2);
        for _ in 0..20 {
            let worth = play_out(&mut g, Side(0), &POLICY, &habits, &mut rng);
            assert!((0.0..=1.0).contains(&worth));
        }
        assert_eq!(g, before);
    }
}
