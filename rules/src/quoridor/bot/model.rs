//! Opponents foreseen by our own search, for three pawns or more (issue 28).
//!
//! A room of several pawns often holds other computer players, and a
//! Professional's move is a pure function of the position: its best-reply
//! search has no noise, no random move and ends at depth 3 long before its
//! time. Where the Master sees that each of its opponents' recent moves is
//! the one that search picks ([`fits`]), it no longer has to guess how they
//! treat one another (best-reply lets every opponent wall us; play-outs
//! assume a cheap policy): it plays each of its candidates, lets every
//! opponent answer with the move the search foresees for it, and scores
//! the position it then has to move in with its own short best-reply search
//! ([`choose`]). Candidates are tried in the order of a one-ply look at the
//! race, so a short budget still scores the likely ones; where the clock
//! stops before the first candidate is scored, the caller's tree search
//! decides.
//!
//! This is opponent-model search (Carmel & Markovitch, "Incorporating
//! Opponent Models into Adversary Search", 1996) with a model that is either
//! exact or not used: against any other player the fit fails and the
//! Master keeps its other methods.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::eval::{evaluate, STEP};
use super::score::{INF, WIN, WIN_BOUND};
use super::search::{Limits, Searcher};
use super::{root_moves, settings, triage};
use crate::deepening::SearchResult;
use crate::game::{Outcome, Side};
use crate::level::{Level, Think};
use crate::quoridor::{Move, Quoridor};
use crate::triage::Decision;

/// The level whose moves the model foresees.
const MODEL: Level = Level::Professional;

/// The opponents' latest moves the fit is judged on (two rounds), and the
/// fewest it needs; every one of them must be foreseen.
const FIT_ROUNDS: usize = 2;
const FIT_MIN: usize = 3;

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

/// Whether `MODEL` foresaw every one of the opponents' moves of the last
/// [`FIT_ROUNDS`] rounds in `game` (at least [`FIT_MIN`] of them), judged
/// within `time` (a verdict it cannot reach in time is no).
pub(super) fn fits(game: &Quoridor, budget: Duration, time: Duration, cancel: &AtomicBool) -> bool {
    let start = Instant::now();
    let me = game.to_move;
    let pawns = game.active_sides().count();
    let wanted = FIT_ROUNDS * pawns.saturating_sub(1);
    let mut g = game.clone();
    let mut judged = 0;
    while judged < wanted {
        let Some((mv, undo)) = g.undo.pop() else {
            break;
        };
        g.unmake(mv, undo);
        if g.to_move == me {
            continue;
        }
        if start.elapsed() >= time || foreseen_move(&g, budget, cancel) != Some(mv) {
            return false;
        }
        judged += 1;
    }
    judged >= FIT_MIN
}

/// Picks among `candidates` (legal in `game`, at least one) by playing
/// each, the opponents answering as `MODEL` would, and searching the
/// position we are then to move in; `None` when no candidate was scored
/// within `time`.
pub(super) fn choose(
    game: &Quoridor,
    candidates: &[Move],
    budget: Duration,
    time: Duration,
    cancel: &AtomicBool,
) -> Option<SearchResult<Move>> {
    let start = Instant::now();
    let me = Side(game.to_move);
    let wall_value = settings(Level::Master).wall_value;
    let mut g = game.clone();
    // A first look: the race right after each candidate.
    let mut order: Vec<(i32, Move)> = candidates
        .iter()
        .map(|&mv| {
            let undo = g.make(mv);
            let v = leaf_score(&g, me, wall_value);
            g.unmake(mv, undo);
            (v, mv)
        })
        .collect();
    order.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
    let out_of_time = || cancel.load(Ordering::Relaxed) || start.elapsed() >= time;
    let mut best: Option<(i32, Move)> = None;
    let mut scored = 0;
    for &(_, mv) in &order {
        if out_of_time() {
            break;
        }
        let Some(v) = line_value(&mut g, mv, me, budget, cancel) else {
            break;
        };
        scored += 1;
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, mv));
        }
    }
    let (score, best) = best?;
    Some(SearchResult {
        best,
        score,
        depth: 1,
        previous: None,
        nodes: scored,
        elapsed: start.elapsed(),
    })
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

/// `mv`'s worth for `me`: played, the opponents answering as foreseen
/// until it is our turn again, then our own short search. `g` is left as
/// it was; `None` when cancelled.
fn line_value(
    g: &mut Quoridor,
    mv: Move,
    me: Side,
    budget: Duration,
    cancel: &AtomicBool,
) -> Option<i32> {
    let mut line = vec![(mv, g.make(mv))];
    let mut value = None;
    let mut plies = 1;
    loop {
        if let Some(outcome) = &g.outcome {
            value = Some(match outcome {
                Outcome::Win { winner, .. } if *winner == me => WIN - plies,
                Outcome::Win { .. } => plies - WIN,
                _ => 0,
            });
            break;
        }
        if g.to_move == me.0 {
            value = own_search(g, cancel).map(|v| {
                // A forced result found deeper is as far again.
                if v >= WIN_BOUND {
                    v - plies
                } else if v <= -WIN_BOUND {
                    v + plies
                } else {
                    v
                }
            });
            break;
        }
        let Some(reply) = foreseen_move(g, budget, cancel) else {
            break;
        };
        line.push((reply, g.make(reply)));
        plies += 1;
    }
    while let Some((mv, undo)) = line.pop() {
        g.unmake(mv, undo);
    }
    value
}

/// Our best-reply search of [`LEAF_DEPTH`] layers from `g`, us to move
/// (`None` when cancelled).
fn own_search(g: &Quoridor, cancel: &AtomicBool) -> Option<i32> {
    let master = settings(Level::Master);
    let t = triage(g)?;
    let candidates = match t.decide(0.0, &mut crate::rng::Rng::new(0)) {
        Decision::Over => return Some(leaf_score(g, Side(g.to_move), master.wall_value)),
        Decision::Play(mv) => return Some(mv_value(g, mv, master.wall_value)),
        Decision::Search(c) => c,
    };
    let limits = Limits {
        max_depth: LEAF_DEPTH,
        time: Duration::from_secs(3600),
        walls: master.walls,
        wall_value: master.wall_value,
        noise: 0,
        seed: 0,
        tt_bits: 12,
    };
    let roots = root_moves(g, &candidates, master.walls);
    let found = Searcher::new(g, &limits, cancel).run(&roots);
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    Some(found.score.clamp(-INF, INF))
}

/// The worth of a forced move (a win at once, or the only safe one).
fn mv_value(g: &Quoridor, mv: Move, wall_value: i32) -> i32 {
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

    const BUDGET: Duration = Duration::from_millis(100);

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
        assert!(fits(&pros, BUDGET, long, &cancel));
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
        assert!(!fits(&mixed, BUDGET, long, &cancel));
        // Players who move at random are not Professionals.
        let rng = std::cell::RefCell::new(Rng::new(4));
        let random = played(12, racer, |g| {
            let legal = g.legal_moves();
            legal[rng.borrow_mut().below(legal.len())]
        });
        assert!(!fits(&random, BUDGET, long, &cancel));
        // Too little seen, or no time to judge: no.
        assert!(!fits(
            &played(3, racer, professional),
            BUDGET,
            long,
            &cancel
        ));
        assert!(!fits(&pros, BUDGET, Duration::ZERO, &cancel));
    }

    #[test]
    fn the_master_plays_against_foreseen_professionals_by_their_replies() {
        let g = played(12, racer, professional);
        let cancel = AtomicBool::new(false);
        let roots = g.legal_moves();
        let found = choose(&g, &roots, BUDGET, Duration::from_secs(60), &cancel).unwrap();
        assert!(roots.contains(&found.best));
        // Every candidate scored by its line, none dropped.
        assert_eq!(found.nodes, roots.len() as u64);
        // The chosen line is worth what its replies and our search say.
        let mut line = g.clone();
        let value = line_value(&mut line, found.best, Side(0), BUDGET, &cancel).unwrap();
        assert_eq!(value, found.score);
        assert_eq!(line, g);
        // No candidate's line is worth more.
        for &mv in &roots {
            let v = line_value(&mut line, mv, Side(0), BUDGET, &cancel).unwrap();
            assert!(v <= found.score, "{mv}: {v} > {}", found.score);
        }

        // Through the engine: the Master takes this path (one layer,
        // its safe candidates scored) and answers within its budget.
        let think = Think {
            level: Level::Master,
            budget: BUDGET * 3,
            cancel: &cancel,
            seed: 1,
        };
        let started = Instant::now();
        let (mv, found) = g.analyse(&think).unwrap();
        assert!(started.elapsed() < BUDGET * 6);
        let found = found.unwrap();
        assert!(g.legal_moves().contains(&mv));
        assert_eq!(found.depth, 1);
        assert!(found.nodes >= 1, "{found:?}");
    }

    #[test]
    fn a_cancelled_choice_scores_nothing() {
        let g = played(12, racer, professional);
        let cancel = AtomicBool::new(true);
        let roots = g.legal_moves();
        assert!(choose(&g, &roots, BUDGET, Duration::from_secs(60), &cancel).is_none());
        assert!(!fits(&g, BUDGET, Duration::from_secs(60), &cancel));
    }
}
