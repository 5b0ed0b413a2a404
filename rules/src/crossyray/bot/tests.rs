//! The bot's promises at every level: the beginner's traps won (a goal in
//! one, the opponent locked in one), a move that hands the opponent a goal
//! avoided, legal moves throughout a game, an answer within the budget and
//! at once when cancelled. Budgets are tiny so the suite stays fast.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::*;
use crate::crossyray::Options;
use crate::game::{EndReason, Side};

const BUDGET: Duration = Duration::from_millis(30);

fn pick(game: &CrossyRay, level: Level, seed: u64) -> Move {
    game.choose_move(&Think::uncancelled(level, BUDGET, seed))
        .expect("a move")
}

fn after(options: &Options, line: &str) -> CrossyRay {
    crate::notation::after_line(CrossyRay::new(options).unwrap(), line)
}

/// `check(level, seed, mv)` for the move each level picks in `game` with
/// each of seeds 0 to 5.
fn for_every_pick(game: &CrossyRay, check: impl Fn(Level, u64, Move)) {
    for level in Level::ALL {
        for seed in 0..6 {
            check(level, seed, pick(game, level, seed));
        }
    }
}

fn ending(game: &CrossyRay, mv: Move) -> Option<Outcome> {
    let mut next = game.clone();
    next.play(&mv).unwrap();
    next.outcome().cloned()
}

#[test]
fn every_level_shoots_a_goal_in_one() {
    // RULES.md's example: the 3 on h4 reaches the right goal.
    let game = after(&Options::default(), "f4 h4");
    for_every_pick(&game, |level, seed, mv| {
        assert_eq!(
            ending(&game, mv),
            Some(Outcome::Win {
                winner: Side(0),
                reason: EndReason::Goal
            }),
            "{level} seed {seed} played {mv}"
        );
    });
}

#[test]
fn every_level_locks_the_opponent_in_one() {
    // RULES.md's example: the 7 on e7 leaves side 0 no move.
    let game = after(&Options::default(), "e5 e6 d6 d7 f7");
    for_every_pick(&game, |level, seed, mv| {
        assert_eq!(mv.to_string(), "e7", "{level} seed {seed}");
        assert_eq!(
            ending(&game, mv),
            Some(Outcome::Win {
                winner: Side(1),
                reason: EndReason::Lock
            })
        );
    });
}

#[test]
fn every_level_keeps_the_opponent_from_a_goal_in_one() {
    // The 2 on f4: from g4 or h4 side 0's 3 would reach the right goal.
    let game = after(&Options::default(), "f4");
    for_every_pick(&game, |level, seed, mv| {
        let reply = two_sided(&{
            let mut next = game.clone();
            next.play(&mv).unwrap();
            next
        });
        assert_eq!(reply.win, None, "{level} seed {seed} played {mv}");
    });
}

#[test]
fn every_level_plays_legal_moves_to_the_end_on_both_board_shapes() {
    for (width, height) in [(9, 7), (7, 11)] {
        let options = Options {
            width,
            height,
            ..Options::default()
        };
        for level in Level::ALL {
            let mut game = CrossyRay::new(&options).unwrap();
            let mut seed = 0;
            while !game.is_over() {
                let mv = game
                    .choose_move(&Think::uncancelled(level, Duration::from_millis(5), seed))
                    .expect("a move while the game is on");
                assert!(game.legal_moves().contains(&mv), "{level}: {mv}");
                game.play(&mv).unwrap();
                seed += 1;
            }
            assert_eq!(
                game.choose_move(&Think::uncancelled(level, BUDGET, 0)),
                None
            );
        }
    }
}

#[test]
fn master_answers_within_its_budget_and_at_once_when_cancelled() {
    let game = after(&Options::default(), "e5 e7");
    let budget = Duration::from_millis(100);
    let start = Instant::now();
    let (mv, result) = game
        .analyse(&Think::uncancelled(Level::Master, budget, 1))
        .unwrap();
    // The clock is polled every 256 nodes; the margin is for a busy
    // machine running the suite in parallel.
    assert!(
        start.elapsed() < budget + Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert!(game.legal_moves().contains(&mv));
    assert!(result.expect("a searched move").depth >= 1);

    let cancelled = AtomicBool::new(true);
    let start = Instant::now();
    let mv = game
        .choose_move(&Think {
            level: Level::Master,
            budget: Duration::from_secs(60),
            cancel: &cancelled,
            seed: 1,
        })
        .unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert!(game.legal_moves().contains(&mv));
}
