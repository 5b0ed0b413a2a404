//! The bot's promises: a legal move in any position of any size and pawn
//! count, the goal taken in one, an opponent's goal in one blocked, an
//! answer within the budget, and a search that stops when cancelled.
//! Budgets are tiny so the suite stays fast.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use proptest::prelude::*;

use super::*;
use crate::game::Game;
use crate::quoridor::{GoalMode, Options, WallStock};

const BUDGET: Duration = Duration::from_millis(30);

fn pick(game: &Quoridor, level: Level, seed: u64) -> Move {
    game.choose_move(&Think::uncancelled(level, BUDGET, seed))
        .expect("a move")
}

/// A game from `options` after the moves in `line`.
fn after(options: &Options, line: &str) -> Quoridor {
    crate::notation::after_line(Quoridor::new(options).unwrap(), line)
}

/// Whether the side to move can reach its goal with one move.
fn can_win_now(game: &Quoridor) -> bool {
    game.legal_moves().iter().any(|mv| {
        let mut next = game.clone();
        next.play(mv).unwrap();
        next.outcome().is_some_and(|o| o.winner().is_some())
    })
}

#[test]
fn every_level_steps_onto_its_goal_when_it_can() {
    // Red on e8, Yellow stepped aside and passes: e9 wins.
    let game = after(
        &Options::default(),
        "e2 d9 e3 pass e4 pass e5 pass e6 pass e7 pass e8 pass",
    );
    for level in Level::ALL {
        for seed in 0..4 {
            assert_eq!(
                pick(&game, level, seed).to_string(),
                "e9",
                "{level} seed {seed}"
            );
        }
    }
    // The centre race: Red on e4 steps onto e5.
    let centre = Options {
        goal: GoalMode::Centre,
        ..Options::default()
    };
    let game = after(
        &centre,
        "b1 pass c1 pass d1 pass e1 pass e2 pass e3 pass e4 pass",
    );
    for level in Level::ALL {
        assert_eq!(pick(&game, level, 1).to_string(), "e5", "{level}");
    }
}

#[test]
fn every_level_stops_an_opponent_one_move_from_its_goal() {
    // Yellow on e2, one step from rank 1; Red on d1 must wall it off (going
    // to e1 would let Yellow win diagonally onto d1 or f1).
    let game = after(
        &Options::default(),
        "d1 e8 pass e7 pass e6 pass e5 pass e4 pass e3 pass e2",
    );
    assert!(can_win_now(&{
        let mut g = game.clone();
        g.play(&Move::Pass).unwrap();
        g
    }));
    for level in Level::ALL {
        for seed in 0..4 {
            let mv = pick(&game, level, seed);
            let mut next = game.clone();
            next.play(&mv).unwrap();
            assert!(!can_win_now(&next), "{level} seed {seed} played {mv}");
        }
    }
}

#[test]
fn with_four_pawns_the_bot_stops_whoever_is_about_to_win() {
    // Side 2 (from the top) walks down file e to e2 while the others pass;
    // side 0 (bottom), to move, must keep it off rank 1.
    let four = Options {
        players: 4,
        ..Options::default()
    };
    let mut line = String::from("d1 pass e8 pass");
    for rank in (2..=7).rev() {
        line.push_str(&format!(" pass pass e{rank} pass"));
    }
    let game = after(&four, &line);
    assert_eq!(game.to_move(), Some(Side(0)));
    assert_eq!(game.pawn(Side(2)).unwrap().to_string(), "e2");
    for level in Level::ALL {
        let mv = pick(&game, level, 5);
        let mut next = game.clone();
        next.play(&mv).unwrap();
        // Side 1 passes; side 2 must not win.
        next.play(&Move::Pass).unwrap();
        assert!(!can_win_now(&next), "{level} played {mv}");
    }
}

#[test]
fn master_wins_a_race_it_leads() {
    // Red two steps ahead and Yellow out of walls: Red just walks.
    let options = Options {
        walls: WallStock::Fixed(1),
        ..Options::default()
    };
    let mut game = after(&options, "e2 a1h e3 pass");
    let mut plies = 0;
    while !game.is_over() && plies < 40 {
        let mv = if game.to_move() == Some(Side(0)) {
            pick(&game, Level::Master, plies)
        } else {
            // Yellow walks its shortest way.
            Move::Pawn(game.pawn_moves()[0])
        };
        game.play(&mv).unwrap();
        plies += 1;
    }
    assert_eq!(game.outcome().and_then(|o| o.winner()), Some(Side(0)));
}

#[test]
fn the_bot_answers_within_its_budget() {
    // The largest search: 13×13, 8 pawns, a few walls down.
    let options = Options {
        size: 13,
        players: 8,
        ..Options::default()
    };
    let game = after(&options, "e2 a5h i12 l9v i2 a8 d13 l5");
    for budget in [Duration::from_millis(20), Duration::from_millis(150)] {
        let start = Instant::now();
        let (mv, result) = game
            .analyse(&Think::uncancelled(Level::Master, budget, 3))
            .expect("a move");
        let took = start.elapsed();
        assert!(game.legal_moves().contains(&mv));
        assert!(result.is_some(), "a searched move");
        // The clock is read at every node; the margin is for a busy
        // machine running the suite in parallel (and a debug build).
        assert!(
            took < budget + Duration::from_secs(1),
            "{took:?} for {budget:?}"
        );
    }
}

#[test]
fn a_cancelled_search_answers_at_once() {
    let game = Quoridor::new(&Options {
        size: 11,
        players: 4,
        ..Options::default()
    })
    .unwrap();
    let cancel = AtomicBool::new(false);
    let start = Instant::now();
    let mv = std::thread::scope(|scope| {
        let search = scope.spawn(|| {
            game.choose_move(&Think {
                level: Level::Master,
                budget: Duration::from_secs(60),
                cancel: &cancel,
                seed: 1,
            })
        });
        std::thread::sleep(Duration::from_millis(30));
        cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        search.join().unwrap()
    })
    .expect("a move");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert!(game.legal_moves().contains(&mv));
}

#[test]
fn no_move_once_the_game_is_over() {
    let mut game = after(
        &Options::default(),
        "e2 d9 e3 pass e4 pass e5 pass e6 pass e7 pass e8 pass",
    );
    game.play(&"e9".parse().unwrap()).unwrap();
    assert_eq!(pick_opt(&game), None);
}

fn pick_opt(game: &Quoridor) -> Option<Move> {
    game.choose_move(&Think::uncancelled(Level::Master, BUDGET, 0))
}

fn any_options() -> impl Strategy<Value = Options> {
    crate::quoridor::proptests::options_with(Just(WallStock::Auto))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::quoridor::proptests::cases(), ..ProptestConfig::default() })]

    /// Random legal lines (walls three times in four) on every size, pawn
    /// count and goal, then a move from a random level: always legal.
    #[test]
    fn the_bot_plays_a_legal_move_in_random_positions(
        options in any_options(),
        line in prop::collection::vec(any::<(prop::sample::Index, bool)>(), 0..40),
        level in prop::sample::select(Level::ALL.to_vec()),
        seed in any::<u64>(),
    ) {
        let mut game = Quoridor::new(&options).unwrap();
        for (i, wall) in line {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let walls: Vec<Move> = moves.iter().copied().filter(|m| matches!(m, Move::Wall(_))).collect();
            let mv = if wall && !walls.is_empty() { walls[i.index(walls.len())] } else { moves[i.index(moves.len())] };
            game.play(&mv).unwrap();
        }
        let chosen = game.choose_move(&Think::uncancelled(level, Duration::from_millis(10), seed));
        match chosen {
            Some(mv) => prop_assert!(game.legal_moves().contains(&mv), "{} played {}", level, mv),
            None => prop_assert!(game.is_over()),
        }
    }
}

#[test]
fn with_four_pawns_no_level_lets_the_next_pawn_win_when_a_move_stops_it() {
    // Issue 28's position: side 1 (h4) and side 2 (d2) are each a step
    // from their goals; no move stops both. The Master played c8 and side
    // 1 won with i4, though h4v leaves side 1 only h3, g4 and h5.
    let options = Options {
        players: 4,
        ..Options::default()
    };
    let game = after(
        &options,
        "e2 b5 e8 h5 e3 c5 e7 g5 e4 d5 e6 f5 e5 e4 d5 e6 e7 f4 d4 d6 e8 g4 d3 d8h d8 h4 d2 c6",
    );
    let next_wins = |mv: &Move| {
        let mut g = game.clone();
        g.play(mv).unwrap();
        can_win_now(&g)
    };
    assert!(
        next_wins(&"c8".parse().unwrap()),
        "the move the Master played"
    );
    assert!(
        !next_wins(&"h4v".parse().unwrap()),
        "a move that stops side 1"
    );
    let safe = triage(&game).unwrap().safe;
    assert!(
        !safe.is_empty() && safe.iter().all(|mv| !next_wins(mv)),
        "{safe:?}"
    );
    for level in Level::ALL {
        for seed in 0..3 {
            let mv = pick(&game, level, seed);
            assert!(
                !next_wins(&mv),
                "{level:?} played {mv}, and side 1 wins at once"
            );
        }
    }
}
